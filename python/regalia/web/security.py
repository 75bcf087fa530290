"""The web server's defences for people on other machines, as one ASGI layer (``Shield``)
around the whole application, so they hold for every response (pages, API, static files and
errors alike):

- a ``Host`` header not on the allow-list is refused (421) before any route runs, which stops
  DNS rebinding (a page of another site reaching this server under a name its owner controls);
- every response carries the security headers (``SECURITY_HEADERS``: a Content-Security-Policy
  that lets only this server's own scripts, styles, pictures and fonts in, and no framing);
- requests without the server's key are rate-limited per client (429), ``/api/replay`` (the
  costly one) more tightly, in a bounded memory;
- a request body must arrive within ``Limits.body_timeout`` seconds (408), be at most
  ``max_body`` bytes (413), and be strict JSON: no ``NaN`` or ``Infinity``, no number too large
  for a float, no nesting deeper than ``MAX_DEPTH``, no lone surrogate (else 422, never 500).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import math
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, MutableMapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import cookie_parser
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = [
    "CSP",
    "MAX_DEPTH",
    "SECURITY_HEADERS",
    "Buckets",
    "Limits",
    "Rate",
    "Shield",
    "allowed_hosts",
    "json_safe",
    "link_base",
]

#: What a page of this server may load and run: its own scripts, styles, fonts and pictures
#: (the SVG pictures are inline, and drawn without any style attribute), requests to itself
#: only, no plug-ins, no framing by another page.
CSP = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "form-action 'self'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    ]
)
#: The headers every response carries. ``no-referrer``: a seat's private link never leaves in
#: a ``Referer`` header (the rules page's links, for one, lead to other sites).
SECURITY_HEADERS = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
}
#: The host names every server answers to: this machine's loopback.
LOOPBACK = ("localhost", "127.0.0.1", "::1")
#: The deepest nesting of arrays and objects a request body may have (the API's bodies are flat).
MAX_DEPTH = 16
#: The costly anonymous endpoint, limited more tightly.
REPLAY = "/api/replay"


@dataclass(frozen=True)
class Rate:
    """A token bucket: ``burst`` requests at once, then ``per_second`` more every second."""

    burst: int
    per_second: float


@dataclass(frozen=True)
class Limits:
    """How much a client without the server's key may ask: ``anonymous`` for every request
    (pages, static files, a seat's API) and ``replay`` for ``/api/replay`` (None: no limit);
    ``clients`` is how many clients the limiter remembers (the least recently seen forgotten
    first); a request body must have arrived ``body_timeout`` seconds after its head."""

    anonymous: Rate | None = field(default_factory=lambda: Rate(burst=600, per_second=30.0))
    replay: Rate | None = field(default_factory=lambda: Rate(burst=30, per_second=2.0))
    clients: int = 4096
    body_timeout: float = 30.0


class Buckets:
    """The token buckets of the clients, at most ``clients`` of them (bounded memory)."""

    def __init__(self, rate: Rate, clients: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.clients, self.clock = rate, clients, clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, client: str) -> float:
        """Takes a token of ``client``'s bucket: 0.0 if there was one, else the seconds until
        there will be."""
        now = self.clock()
        tokens, then = self._buckets.pop(client, (float(self.rate.burst), now))
        tokens = min(float(self.rate.burst), tokens + (now - then) * self.rate.per_second)
        wait = 0.0
        if tokens >= 1.0:
            tokens -= 1.0
        else:
            wait = (1.0 - tokens) / self.rate.per_second if self.rate.per_second > 0 else 3600.0
        self._buckets[client] = (tokens, now)
        while len(self._buckets) > self.clients:
            self._buckets.popitem(last=False)
        return wait


def check_public_url(url: str) -> str:
    """``url`` without a trailing ``/`` if it is an ``http``/``https`` address with a host and
    no path, query or fragment (the pages' links start at ``/``); else a ``ValueError``."""
    parts = urlsplit(url)
    try:
        _ = parts.port  # a port out of range is a ValueError
    except ValueError:
        raise ValueError(f"--public-url {url!r}: the port is not a number from 1 to 65535") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"--public-url {url!r}: give an address such as https://games.example.org")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(f"--public-url {url!r}: the server must be at the root of its address (no path)")
    return url.rstrip("/")


def allowed_hosts(*addresses: str | None) -> frozenset[str]:
    """The host names to answer to: the loopback names and each of ``addresses`` (a host such as
    ``--host``'s, or a URL such as ``--public-url``; a wildcard such as ``0.0.0.0`` adds none)."""
    names = set(LOOPBACK)
    for address in addresses:
        if not address:
            continue
        name = urlsplit(address).hostname if "//" in address else address.strip("[]").lower()
        if name and name not in ("0.0.0.0", "::"):
            names.add(name.lower())
    return frozenset(names)


def link_base(scope: Scope) -> str:
    """This server's address as the connection reached it (the socket's own address and port,
    never a request's header), for links when no public address is configured."""
    scheme = scope.get("scheme", "http")
    server, port = scope.get("server") or ("127.0.0.1", None)
    host = reached_address(scope) or str(server)
    host = f"[{host}]" if ":" in host else host
    default = {"http": 80, "https": 443}.get(scheme)
    return f"{scheme}://{host}" if port in (None, default) else f"{scheme}://{host}:{port}"


def reached_address(scope: Scope) -> str:
    """The address the connection reached (the socket's own), an IPv4 address as such even on
    a socket listening on IPv6 and IPv4 at once; empty if unknown (a Unix socket)."""
    server = scope.get("server")
    address = str(server[0]).lower() if server else ""
    return address.removeprefix("::ffff:") if "." in address else address


def host_name(header: str) -> str:
    """The host name of a ``Host`` header (no port, no brackets, lower case)."""
    if header.startswith("["):
        return header[1 : header.find("]")].lower() if "]" in header else ""
    return header.rsplit(":", 1)[0].lower() if header.count(":") == 1 else header.lower()


def json_safe(value: Any) -> Any:
    """``value`` with every float that JSON cannot carry (``NaN``, the infinities) as its text,
    and every lone surrogate in a string and every byte not UTF-8 escaped, so that a refusal
    quoting the request's input can always be sent."""
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, bytes):
        return value.decode("utf-8", "backslashreplace")
    if isinstance(value, dict):
        return {json_safe(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    return value


class Refused(Exception):
    """A request refused before the application sees it: its status and why."""

    def __init__(self, status: int, detail: Any, headers: dict[str, str] | None = None) -> None:
        super().__init__(detail)
        self.status, self.detail, self.headers = status, detail, headers or {}


class Shield:
    """The server's defences (see the module) around ``app``: the host names ``hosts`` (and the
    address the connection reached, as an address: a server on every address answers on each
    of its own), requests with the server's ``key`` not rate-limited, bodies of at most
    ``max_body`` bytes, and ``limits``."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str], key: str, max_body: int, limits: Limits) -> None:
        self.app, self.hosts, self.key, self.max_body, self.limits = app, frozenset(hosts), key, max_body, limits
        self.anonymous = Buckets(limits.anonymous, limits.clients) if limits.anonymous else None
        self.replay = Buckets(limits.replay, limits.clients) if limits.replay else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Checks an HTTP request, and adds the security headers to its response."""
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items() if k.encode() not in present]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        try:
            self._check_host(scope, headers)
            self._check_rate(scope, headers)
            length = headers.get("content-length", "0")
            if not length.isdigit() or int(length) > self.max_body:
                raise Refused(413, f"the request body is larger than {self.max_body} bytes")
            if scope["method"] in ("GET", "HEAD", "OPTIONS"):
                return await self.app(scope, receive, with_headers)
            body = await self._read_body(receive)
        except Refused as e:
            response = JSONResponse({"detail": e.detail}, status_code=e.status, headers=e.headers)
            return await response(scope, receive, with_headers)
        except _Disconnected:
            return None
        return await self.app(scope, _replaying(body, receive), with_headers)

    def _check_host(self, scope: Scope, headers: dict[str, str]) -> None:
        if sum(1 for k, _ in scope["headers"] if k.lower() == b"host") > 1:
            raise Refused(400, "a request has one Host header")
        name = host_name(headers.get("host", ""))
        if name not in self.hosts and (not name or name != reached_address(scope)):
            raise Refused(421, "this server does not answer to that host name (see --public-url)")

    def _check_rate(self, scope: Scope, headers: dict[str, str]) -> None:
        given = headers.get("x-regalia-key") or cookie_parser(headers.get("cookie", "")).get("regalia_key", "")
        if hmac.compare_digest(given.encode(), self.key.encode()):
            return
        buckets = self.replay if scope["path"] == REPLAY else self.anonymous
        client = (scope.get("client") or ("unknown",))[0]
        wait = buckets.take(client) if buckets is not None else 0.0
        if wait > 0:
            raise Refused(429, "too many requests: slow down", {"Retry-After": str(math.ceil(wait))})

    async def _read_body(self, receive: Receive) -> bytes:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.limits.body_timeout
        chunks, size = [], 0
        while True:
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except asyncio.TimeoutError:
                raise Refused(408, f"the request body did not arrive in {self.limits.body_timeout:g} s") from None
            if message["type"] == "http.disconnect":
                raise _Disconnected
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.max_body:
                raise Refused(413, f"the request body is larger than {self.max_body} bytes")
            if not message.get("more_body", False):
                body = b"".join(chunks)
                problem = strict_json_problem(body) if body else None
                if problem is not None:
                    raise Refused(422, [{"type": "json_invalid", "loc": ["body"], "msg": problem}])
                return body


class _Disconnected(Exception):
    """The client went away while sending its body."""


def _replaying(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives ``body`` (read already) first, then what ``receive`` gives."""
    given = False

    async def replay() -> MutableMapping[str, Any]:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def strict_json_problem(body: bytes) -> str | None:
    """Why ``body`` is not a JSON text the API takes, or None if it is one."""
    try:
        value = json.loads(body, parse_constant=_no_constant, parse_float=_finite_float)
    except RecursionError:
        return f"the body is nested deeper than {MAX_DEPTH} levels"
    except ValueError as e:  # JSONDecodeError, UnicodeDecodeError, a huge integer, a constant
        return f"the body is not valid JSON: {e}"
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return f"the body is nested deeper than {MAX_DEPTH} levels"
        if isinstance(item, dict):
            stack.extend((k, depth) for k in item)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return "the body has a string with a lone surrogate (not Unicode text)"
    return None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"the number {text[:40]} is too large")
    return number
