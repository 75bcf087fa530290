"""Running the web server: a free port on the chosen address, the address printed (with the
lobby's key in it) and opened in the browser."""

from __future__ import annotations

import socket
import threading
import webbrowser
from collections.abc import Callable
from pathlib import Path

import uvicorn

from regalia.web.app import create_app
from regalia.web.store import default_db

__all__ = ["free_port", "serve"]


def free_port(host: str) -> int:
    """A port nothing listens on at ``host`` now."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port


def serve(
    host: str = "127.0.0.1",
    port: int | None = None,
    db: str | Path | None = None,
    pace: float = 0.8,
    browser: bool = True,
    say: Callable[[str], None] = print,
) -> None:
    """Serves the tables on ``host``:``port`` (a free port when None) from the database ``db``
    (the user's data folder's by default) until interrupted; bots move ``pace`` seconds apart.
    The lobby's address is said with ``say`` and opened in the browser unless ``browser`` is
    False."""
    path = Path(db) if db is not None else default_db()
    app = create_app(path, pace=pace)
    port = free_port(host) if port is None else port
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    address = f"http://{'[' + shown + ']' if ':' in shown else shown}:{port}/?key={app.state.key}"
    say(f"Regalia at {address}  (tables kept in {path}; Ctrl-C stops the server, the games stay)")
    if host in ("0.0.0.0", "::"):
        say("Listening on every network address: people on your network join by the private links.")
    if browser:
        threading.Timer(0.8, webbrowser.open, args=(address,)).start()
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=3)
