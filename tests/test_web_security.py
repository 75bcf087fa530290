"""The web server's defences (``regalia.web.security``): a ``Host`` not on the allow-list is
refused on every route before it runs; links are made on the configured address, never on a
request's header; every response, refusals and errors included, carries the security
headers; a malformed body (``NaN``, ``Infinity``, huge numbers, deep nesting, wrong types, not
JSON, empty) gets a 4xx on every POST endpoint and changes nothing; clients without the key are
rate-limited in a bounded memory; a slow body gets 408; the API docs are off by default and,
when on, load nothing from another site."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason='the web table needs the web extra (pip install "regalia[web]")')

from fastapi.routing import APIRoute  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from regalia.matches.match import play  # noqa: E402
from regalia.registry import MatchRecord  # noqa: E402
from regalia.web import create_app  # noqa: E402
from regalia.web.app import MAX_BODY  # noqa: E402
from regalia.web.security import (  # noqa: E402
    SECURITY_HEADERS,
    Buckets,
    Limits,
    Rate,
    Shield,
    allowed_hosts,
    json_safe,
    link_base,
)
from regalia.web.store import Store  # noqa: E402
from tests.web_helpers import KEY, start  # noqa: E402

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"), pytest.mark.usefixtures("data_folder")]


def app_of(tmp_path: Path, **options: Any) -> Any:
    return create_app(tmp_path / "web.sqlite3", pace=3600, key=KEY, **options)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    with TestClient(app_of(tmp_path, api_docs=True), headers={"X-Regalia-Key": KEY}) as c:
        yield c


def a_record() -> str:
    """A finished game's match record, for the replay."""
    return play("duo-regna", ["random", "random"], seed=5).to_json()


def every_request(client: Any) -> list[tuple[str, str, Any]]:
    """A request to every route of the application (each API route with a real token or id,
    the pages, a static file, the font, the docs), with a valid body for the POSTs."""
    (tok,) = start(client, "duo-regna", ["human", "random"], seed=1)
    table_id = client.get("/api/tables").json()[0]["id"]
    bodies = {
        "/api/tables": {"game": "duo", "seats": ["random", "random"]},
        "/api/tables/{table_id}/save": {"name": "kept"},
        "/api/resume": {"name": "kept"},
        "/api/t/{token}/move": {"version": 0, "action": 0},
        "/api/t/{token}/hand-over": {"version": 0, "seat": 0},
        "/api/t/{token}/undo": {"version": 0},
        "/api/t/{token}/back": {"version": 0},
        "/api/replay": {"record": "{}", "ply": 0},
    }
    requests = []
    for route in client.app.routes:
        path = getattr(route, "path", "")
        methods = sorted(getattr(route, "methods", None) or {"GET"})
        concrete = path.replace("{token}", tok).replace("{table_id}", table_id).replace("{game}", "duo")
        for method in methods:
            if method == "HEAD" or path.startswith("/static"):
                continue
            requests.append((method, concrete, bodies.get(path) if method == "POST" else None))
    requests += [("GET", "/static/table.js", None), ("GET", "/no/such/page", None), ("DELETE", "/api/games", None)]
    assert {p for _, p, _ in requests} >= {"/", "/docs", "/openapi.json", "/replay", "/font.ttf", f"/t/{tok}"}
    return requests


def test_a_host_not_allowed_is_refused_on_every_route(client: Any) -> None:
    requests = every_request(client)
    before = client.get("/api/tables").json()
    for method, path, body in requests:
        for host in ["evil.example", "evil.example:80", "127.0.0.1.evil.example", "[::2]", ""]:
            r = client.request(method, path, json=body, headers={"Host": host})
            assert r.status_code == 421, (method, path, host, r.status_code)
            assert "host name" in r.json()["detail"]
        anonymous = client.request(method, path, json=body, headers={"Host": "evil.example", "X-Regalia-Key": ""})
        assert anonymous.status_code == 421
    assert client.get("/api/tables").json() == before  # no table started, none changed


def test_two_host_headers_are_refused() -> None:
    sent: list[Any] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("not reached")

    async def send(message: Any) -> None:
        sent.append(message)

    async def receive() -> Any:
        return {"type": "http.disconnect"}

    headers = [(b"host", b"evil.example"), (b"host", b"127.0.0.1")]
    scope = {"type": "http", "method": "GET", "path": "/", "headers": headers, "server": ("127.0.0.1", 80)}
    asyncio.run(Shield(app, allowed_hosts(), KEY, 1000, Limits())(scope, receive, send))
    assert sent[0]["status"] == 400


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "[::1]", "LOCALHOST:8000", "127.0.0.1:1234"])
def test_the_loopback_names_are_answered(client: Any, host: str) -> None:
    assert client.get("/api/games", headers={"Host": host}).status_code == 200


def test_the_public_address_and_the_hosts_given_are_answered(tmp_path: Path) -> None:
    app = app_of(tmp_path, public_url="https://games.example.org", hosts=("192.0.2.7",))
    with TestClient(app, headers={"X-Regalia-Key": KEY}) as c:
        assert c.get("/api/games", headers={"Host": "games.example.org"}).status_code == 200
        assert c.get("/api/games", headers={"Host": "192.0.2.7:8000"}).status_code == 200
        assert c.get("/api/games", headers={"Host": "other.example.org"}).status_code == 421


def test_links_are_made_on_the_public_address_never_on_a_header(tmp_path: Path) -> None:
    forged = {
        "Host": "localhost",
        "X-Forwarded-Host": "evil.example",
        "X-Forwarded-Proto": "https",
        "Forwarded": "host=evil.example;proto=https",
    }
    app = app_of(tmp_path, public_url="https://games.example.org/")
    with TestClient(app, headers={"X-Regalia-Key": KEY}) as c:
        body = {"game": "duo", "seats": ["human", "human"], "seed": 1}
        started = c.post("/api/tables", json=body, headers=forged).json()
        listed = c.get("/api/tables", headers=forged).json()[0]
        for link in [*started["links"], *listed["links"]]:
            assert re.fullmatch(r"https://games\.example\.org/t/[\w-]+", link["url"]), link
    # No public address: the address the connection reached (the test transport's server
    # here; uvicorn gives the socket's own address), still not the Host header's name.
    with TestClient(app_of(tmp_path / "b"), headers={"X-Regalia-Key": KEY}) as c:
        started = c.post("/api/tables", json=body, headers=forged).json()
        for link in started["links"]:
            assert link["url"].startswith("http://testserver/t/"), link
            assert "evil" not in link["url"] and "localhost" not in link["url"]


def test_every_response_has_the_security_headers(client: Any) -> None:
    responses = [client.request(m, p, json=b) for m, p, b in every_request(client)]
    responses += [
        client.get("/", headers={"X-Regalia-Key": "wrong"}),  # the page saying the key is missing
        client.get("/t/no-such-link"),  # 404 page
        client.get("/api/games", headers={"Host": "evil.example"}),  # 421
        client.post("/api/replay", content=b"NaN"),  # 422 from the shield
        client.post("/api/replay", json={"record": 3}),  # 422 from FastAPI
        client.post("/api/replay", content=b"x" * 300_000),  # 413
        client.put("/api/games"),  # 405
        client.get(f"/?key={KEY}", follow_redirects=False),  # 303 with the cookie
    ]
    statuses = {r.status_code for r in responses}
    assert statuses >= {200, 303, 400, 403, 404, 405, 409, 413, 421, 422}, statuses
    for r in responses:
        for name, value in SECURITY_HEADERS.items():
            assert r.headers.get(name) == value, (r.request.url, name)


def test_an_unexpected_error_has_the_security_headers_too(tmp_path: Path) -> None:
    app = app_of(tmp_path)

    def broken(*args: Any) -> Any:
        raise RuntimeError("a bug")

    app.state.tables.payload = broken
    with TestClient(app, headers={"X-Regalia-Key": KEY}, raise_server_exceptions=False) as c:
        (tok,) = start(c, "duo", ["human", "random"], rounds=1)
        r = c.get(f"/api/t/{tok}")
    assert r.status_code == 500
    assert all(r.headers.get(name) == value for name, value in SECURITY_HEADERS.items())


def test_the_csp_lets_in_no_inline_script_and_no_other_site(client: Any) -> None:
    csp = client.get("/").headers["content-security-policy"]
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'" and directives["default-src"] == "'none'"
    assert "unsafe" not in csp and "http" not in csp and "*" not in csp
    (tok,) = start(client, "regnum", ["human", "random"], seed=3)
    for path in ["/", "/replay", f"/t/{tok}", "/rules/regnum", "/docs"]:
        html = client.get(path).text
        scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", html, re.S)
        for attributes, text in scripts:  # a script runs only from a file; a data block is JSON
            assert ('src="/static/' in attributes and not text.strip()) or 'type="application/json"' in attributes
        assert not re.search(r"\son[a-z]+\s*=", html), path  # no inline event handler
        assert not re.search(r"\sstyle\s*=|<style", html), path  # no inline style (the SVG has none)


BAD_BODIES = [
    b"NaN",
    b"Infinity",
    b"-Infinity",
    b'{"version": NaN, "action": 0, "seat": 0, "name": "x", "record": "x", "ply": 0}',
    b'{"version": Infinity, "action": 0, "seat": 0, "name": "x", "record": "x", "ply": 0}',
    b'{"version": 0, "action": -Infinity, "seat": 0, "name": "x", "record": "x", "ply": 0}',
    b'{"version": 0, "action": 0, "seat": 0, "name": "x", "record": NaN, "ply": 0}',
    b'{"game": "duo", "seats": ["random", "random"], "options": {"rounds": NaN}, "seed": Infinity}',
    b'{"game": "duo", "seats": ["random", "random"], "options": {"rounds": 1e400}}',
    b'{"version": 1e400, "action": 1e309}',
    b'{"version": ' + b"9" * 5000 + b', "action": 0}',  # past Python's digits limit
    b'{"version": ' + b"9" * 400 + b', "action": 0, "seat": 0, "ply": ' + b"9" * 400 + b"}",
    b'{"version": 0.5, "action": "zero", "seat": null, "name": 7, "record": [], "ply": "x"}',
    b'{"version": true, "action": {}, "seat": [], "name": {"a": 1}, "record": {"b": 2}}',
    b'{"game": ["duo"], "seats": "random", "options": [], "seed": -1}',
    b'{"name": "\\ud800", "record": "\\udfff", "game": "\\ud800", "seats": ["\\ud800", "random"]}',
    b"[" * 40 + b"]" * 40,
    b'{"options": ' + b'{"a": ' * 40 + b"1" + b"}" * 40 + b"}",
    b"[" * 100_000 + b"]" * 100_000,  # deeper than Python's parser recurses
    b"{not json",
    b"\xff\xfe\x00garbage",
    b"",
    b"null",
    b"[]",
    b'"a string"',
    b"3",
]


def test_malformed_bodies_get_a_4xx_on_every_post_endpoint(client: Any) -> None:
    posts = [(p, b) for m, p, b in every_request(client) if m == "POST"]
    assert len(posts) == 8
    store = Store(client.app.state.tables.store.path)
    before = [row.record.to_json() for row in store.tables()]
    for path, _ in posts:
        for body in BAD_BODIES:
            for content_type in ["application/json", "text/plain"]:
                r = client.post(path, content=body, headers={"Content-Type": content_type})
                assert 400 <= r.status_code < 500, (path, body[:60], r.status_code, r.text[:200])
                assert r.json()["detail"], (path, body[:60])
                if b"NaN" in body or b"Infinity" in body or b"e40" in body or b"e309" in body:
                    assert r.status_code in (400, 422), (path, body[:60], r.status_code)
    assert [row.record.to_json() for row in store.tables()] == before  # no game changed, none started


def test_the_anonymous_replay_is_answered_and_rate_limited(tmp_path: Path) -> None:
    limits = Limits(anonymous=Rate(burst=50, per_second=0.001), replay=Rate(burst=3, per_second=0.001))
    record = a_record()
    assert MatchRecord.from_json(record).returns
    with TestClient(app_of(tmp_path, limits=limits)) as anonymous:
        for _ in range(3):
            assert anonymous.post("/api/replay", json={"record": record, "ply": 2}).status_code == 200
        refused = anonymous.post("/api/replay", json={"record": record, "ply": 2})
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
        assert anonymous.get("/api/games").status_code == 200  # its own bucket
        with_key = anonymous.post("/api/replay", json={"record": record}, headers={"X-Regalia-Key": KEY})
        assert with_key.status_code == 200  # the server's key is never limited
        for _ in range(60):
            last = anonymous.get("/api/games")
        assert last.status_code == 429


def test_a_bucket_refills_and_the_limiter_remembers_a_bounded_number_of_clients() -> None:
    now = [0.0]
    buckets = Buckets(Rate(burst=2, per_second=0.5), clients=100, clock=lambda: now[0])
    assert [buckets.take("a"), buckets.take("a")] == [0.0, 0.0]
    assert buckets.take("a") == pytest.approx(2.0)
    now[0] = 2.0
    assert buckets.take("a") == 0.0  # one token back after 2 s
    for n in range(10_000):
        buckets.take(f"10.0.{n // 256}.{n % 256}")
    assert len(buckets) == 100
    assert buckets.take("a") == 0.0  # forgotten: a full bucket again


def test_a_body_that_does_not_arrive_in_time_gets_408() -> None:
    sent: list[Any] = []
    reached: list[Any] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        reached.append(scope)

    calls = []

    async def slow() -> dict[str, Any]:
        calls.append(1)
        if len(calls) == 1:
            return {"type": "http.request", "body": b'{"ver', "more_body": True}
        await asyncio.sleep(60)
        raise AssertionError("not reached")

    async def send(message: Any) -> None:
        sent.append(message)

    shield = Shield(app, ["127.0.0.1"], KEY, 1000, Limits(body_timeout=0.2))
    scope = {
        "type": "http",
        "method": "POST",
        "path": "/api/replay",
        "headers": [(b"host", b"127.0.0.1")],
        "client": ("127.0.0.1", 5),
        "server": ("127.0.0.1", 80),
    }
    asyncio.run(asyncio.wait_for(shield(scope, slow, send), 10))
    assert sent[0]["status"] == 408 and not reached


def test_the_api_docs_are_off_by_default(tmp_path: Path) -> None:
    with TestClient(app_of(tmp_path), headers={"X-Regalia-Key": KEY}) as c:
        for path in ["/docs", "/redoc", "/openapi.json", "/docs/oauth2-redirect"]:
            assert c.get(path).status_code == 404, path


def test_the_api_docs_load_nothing_from_another_site(client: Any) -> None:
    page = client.get("/docs")
    assert page.status_code == 200
    schema = client.get("/openapi.json").json()
    for path in schema["paths"]:
        assert f"{path}</code>" in page.text
    references = re.findall(r"""(?:src|href|action)\s*=\s*["']([^"']*)["']""", page.text)
    assert references and all(r.startswith("/") and not r.startswith("//") for r in references), references
    assert "cdn" not in page.text.lower() and "http://" not in page.text and "https://" not in page.text
    assert set(client.app.openapi()["paths"]) == {r.path for r in client.app.routes if isinstance(r, APIRoute)} - {
        "/docs"
    } - {r.path for r in client.app.routes if isinstance(r, APIRoute) and not r.include_in_schema}


def test_a_refusal_quoting_any_input_can_be_sent() -> None:
    errors = [
        {"loc": ("body", "x"), "input": [float("nan"), float("-inf"), "\ud800", b"\xff\xfe", {"k": float("inf")}]}
    ]
    safe = json_safe(errors)
    assert json.loads(json.dumps(safe, allow_nan=False).encode("utf-8")) == [
        {"loc": ["body", "x"], "input": ["nan", "-inf", "\\ud800", "\\xff\\xfe", {"k": "inf"}]}
    ]


def test_a_body_over_the_limit_gets_413_on_every_route(client: Any) -> None:
    """Announced by its length on every route; sent in chunks of unknown total to a route that
    reads its body (a route that reads none never holds it: the connection ends after)."""
    big = b'{"record": "' + b"x" * MAX_BODY + b'"}'
    for method, path, _ in every_request(client):
        r = client.request(method, path, content=big, headers={"Content-Type": "application/json"})
        assert r.status_code == 413, (method, path, r.status_code)
        if method == "POST":
            chunked = client.request(method, path, content=iter([big[:1000], big[1000:]]))
            assert chunked.status_code == 413, (method, path, chunked.status_code)


@pytest.mark.parametrize(
    "server, host, allowed, link",
    [
        (("192.0.2.7", 8000), "192.0.2.7:8000", True, "http://192.0.2.7:8000"),
        (("::ffff:192.0.2.7", 8000), "192.0.2.7:8000", True, "http://192.0.2.7:8000"),
        (("2001:db8::1", 80), "[2001:db8::1]", True, "http://[2001:db8::1]"),
        (("192.0.2.7", 8000), "192.0.2.8:8000", False, None),
        (("192.0.2.7", 8000), "evil.example", False, None),
    ],
)
def test_a_server_on_every_address_answers_on_the_one_reached(
    server: tuple[str, int], host: str, allowed: bool, link: str | None
) -> None:
    """A server listening on ``0.0.0.0`` or ``::`` answers to the address the connection reached
    (the socket's own: naming it cannot be a rebinding attack) and makes links on it."""
    answered: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        answered.append(link_base(scope))
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    sent: list[Any] = []

    async def send(message: Any) -> None:
        sent.append(message)

    async def receive() -> Any:
        return {"type": "http.disconnect"}

    scope = {
        "type": "http",
        "method": "GET",
        "path": "/",
        "scheme": "http",
        "headers": [(b"host", host.encode())],
        "client": ("192.0.2.99", 5),
        "server": server,
    }
    asyncio.run(Shield(app, allowed_hosts(None, "0.0.0.0"), KEY, 1000, Limits())(scope, receive, send))
    assert sent[0]["status"] == (200 if allowed else 421)
    assert answered == ([link] if allowed else [])
