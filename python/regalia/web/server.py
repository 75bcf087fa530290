"""Running the web server: a free port on the chosen address, the address printed (with the
lobby's key in it) and opened in the browser; the connections bounded in time and number,
TLS when given a certificate, and a warning when links would travel in plain HTTP.

With ``workers`` above one, that many uvicorn processes answer on the one port and share the
database: each one is made by ``worker_app`` from the settings the starting process leaves
in the environment (``SETTINGS``)."""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import socket
import threading
import webbrowser
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI

from regalia.web.app import create_app
from regalia.web.connections import timed_protocol
from regalia.web.security import LOOPBACK, Limits, check_public_url
from regalia.web.store import Store, default_db
from regalia.web.tables import CAPACITY

__all__ = ["SETTINGS", "Hosting", "WorkerProtocol", "free_port", "notices", "serve", "worker_app"]

#: The environment variable the settings of a server's worker processes travel in (JSON).
SETTINGS = "REGALIA_SERVE_SETTINGS"
#: The HTTP protocol of a worker process, by name (its deadline set by ``worker_app``).
WorkerProtocol = timed_protocol(10.0)

#: What an access log line must not show: a seat's token, the server's key.
SECRETS = re.compile(r"(/t/)[^/?\s]+|(key=)[^&\s]+")


@dataclass(frozen=True)
class Hosting:
    """How the server meets people on other machines. ``public_url``: the address they reach
    it at (``https://games.example.org`` behind a reverse proxy), on which links are made and
    whose host name it answers to; ``ssl_certfile``/``ssl_keyfile``: serve HTTPS itself;
    ``forwarded_allow_ips``: the proxies whose ``X-Forwarded-For``/``-Proto`` are believed
    (none by default); ``idle_timeout``: seconds a connection may wait for a request's head
    (new, or kept alive after a response); ``body_timeout``: seconds for a request's body;
    ``max_connections``: past it, requests get 503; ``access_log``: a line per request
    (tokens and key masked); ``api_docs``: the API's schema at ``/openapi.json`` and ``/docs``."""

    public_url: str | None = None
    ssl_certfile: str | None = None
    ssl_keyfile: str | None = None
    forwarded_allow_ips: str | None = None
    idle_timeout: float = 10.0
    body_timeout: float = 30.0
    max_connections: int = 1000
    access_log: bool = False
    api_docs: bool = False


def free_port(host: str) -> int:
    """A port nothing listens on at ``host`` now."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port


def notices(host: str, hosting: Hosting) -> list[str]:
    """What to tell the person starting a server on ``host``: a warning when people reach it
    in plain HTTP from other machines, and how to serve it over TLS."""
    lines = []
    if host in ("0.0.0.0", "::"):
        lines.append("Listening on every network address: people on your network join by the private links.")
    plain = hosting.ssl_certfile is None and not (hosting.public_url or "").startswith("https:")
    if host not in LOOPBACK and hosting.ssl_certfile is None:
        lines.append(
            "Warning: this server speaks plain HTTP beyond this machine: the private links and the "
            "server's key travel unencrypted, readable by anyone on the network between. Serve over "
            "TLS with --ssl-certfile and --ssl-keyfile, or keep --host 127.0.0.1 behind a reverse "
            "proxy such as Caddy (--public-url https://... --forwarded-allow-ips 127.0.0.1); see "
            "'Hosting' in the docs."
            if plain
            else "Warning: this server also answers in plain HTTP on its own address; people should "
            f"use {hosting.public_url} only."
        )
    if host in ("0.0.0.0", "::") and hosting.public_url is None:
        lines.append("Links are made on the address each connection reached; give --public-url to name it.")
    return lines


class _Masked(logging.Filter):
    """Masks the tokens and the key in the access log's lines."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(SECRETS.sub(r"\1\2…", a) if isinstance(a, str) else a for a in record.args)
        return True


def _mask_access_log() -> None:
    """A line per request in the access log, its tokens and key masked."""
    access = logging.getLogger("uvicorn.access")
    access.setLevel(logging.INFO)
    access.addFilter(_Masked())


def worker_app() -> FastAPI:
    """The application of one worker process, made from the settings in ``SETTINGS``."""
    settings = json.loads(os.environ[SETTINGS])
    WorkerProtocol.head_timeout = settings["idle_timeout"]  # type: ignore[attr-defined]
    if settings["access_log"]:
        _mask_access_log()
    return create_app(
        settings["db"],
        pace=settings["pace"],
        public_url=settings["public_url"],
        hosts=tuple(settings["hosts"]),
        limits=Limits(body_timeout=settings["body_timeout"]),
        api_docs=settings["api_docs"],
        capacity=settings["capacity"],
    )


def serve(
    host: str = "127.0.0.1",
    port: int | None = None,
    db: str | Path | None = None,
    pace: float = 0.8,
    browser: bool = True,
    say: Callable[[str], None] = print,
    hosting: Hosting | None = None,
    workers: int = 1,
    capacity: int = CAPACITY,
) -> None:
    """Serves the tables on ``host``:``port`` (a free port when None) from the database ``db``
    (the user's data folder's by default) until interrupted; bots move ``pace`` seconds apart;
    ``hosting`` says how it meets other machines (``Hosting()`` by default); ``workers``
    processes answer (sharing the database: a move made through one reaches the pages served
    by the others within a second), each holding at most ``capacity`` tables in memory. The
    lobby's address is said with ``say`` and opened in the browser unless ``browser`` is False."""
    if workers < 1 or capacity < 1:
        raise ValueError("a server has at least one worker process, holding at least one table")
    hosting = hosting or Hosting()
    public = check_public_url(hosting.public_url) if hosting.public_url else None
    path = Path(db) if db is not None else default_db()
    port = free_port(host) if port is None else port
    scheme = "https" if hosting.ssl_certfile else "http"
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    bound = f"{scheme}://{'[' + shown + ']' if ':' in shown else shown}:{port}"
    links = public or (None if host in ("0.0.0.0", "::") else bound)
    settings = {
        "db": str(path),
        "pace": pace,
        "public_url": links,
        "hosts": [host],
        "body_timeout": hosting.body_timeout,
        "api_docs": hosting.api_docs,
        "idle_timeout": hosting.idle_timeout,
        "access_log": hosting.access_log,
        "capacity": capacity,
    }
    if workers == 1:
        app = create_app(
            path,
            pace=pace,
            public_url=links,
            hosts=(host,),
            limits=Limits(body_timeout=hosting.body_timeout),
            api_docs=hosting.api_docs,
            capacity=capacity,
        )
        key = str(app.state.key)
    else:
        os.environ[SETTINGS] = json.dumps(settings)
        store = Store(path)
        key = store.setting("key", secrets.token_urlsafe(16))  # the workers read it there
        store.close()
    address = f"{public or bound}/?key={key}"
    say(f"Regalia at {address}  (tables kept in {path}; Ctrl-C stops the server, the games stay)")
    if workers > 1:
        say(f"{workers} worker processes answer on one port and share the database.")
    for line in notices(host, hosting):
        say(line)
    if browser:
        threading.Timer(0.8, webbrowser.open, args=(address,)).start()
    options: dict[str, Any] = {
        "host": host,
        "port": port,
        "log_level": "warning",
        "access_log": hosting.access_log,
        "timeout_keep_alive": max(1, round(hosting.idle_timeout)),
        "limit_concurrency": hosting.max_connections,
        "timeout_graceful_shutdown": 3,
        "ssl_certfile": hosting.ssl_certfile,
        "ssl_keyfile": hosting.ssl_keyfile,
        "proxy_headers": hosting.forwarded_allow_ips is not None,
        "forwarded_allow_ips": hosting.forwarded_allow_ips,
    }
    if workers > 1:  # each worker masks its own access log (``worker_app``)
        uvicorn.run(
            f"{__name__}:worker_app", factory=True, workers=workers, http=f"{__name__}:WorkerProtocol", **options
        )
        return
    config = uvicorn.Config(app, http=timed_protocol(hosting.idle_timeout), **options)
    if hosting.access_log:
        _mask_access_log()  # after the configuration set the loggers up
    uvicorn.Server(config).run()
