"""Web tables for tests: an application on a fresh database, and real server processes
(``regalia serve``) started and stopped by the test."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from regalia.web.server import free_port

#: The lobby's key the test servers are started with.
KEY = "test-key-0123456789"


def answering(url: str, seconds: float = 60) -> bool:
    """Whether a server at ``url`` answers ``GET /api/games`` within ``seconds`` (asked every
    tenth of a second; a certificate is not checked, for a test's own TLS)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/api/games", timeout=2, verify=False).status_code == 200:
                return True
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    return False


class Server:
    """``regalia serve`` in its own process on the database ``db``, bots ``pace`` seconds apart."""

    def __init__(self, db: Path, pace: float = 0.0) -> None:
        self.db, self.pace = db, pace
        self.port = free_port("127.0.0.1")
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Server:
        """Starts the server and waits until it answers."""
        code = (
            "import sys, uvicorn; from regalia.web import create_app; "
            "app = create_app(sys.argv[1], pace=float(sys.argv[2]), key=sys.argv[3]); "
            "uvicorn.run(app, host='127.0.0.1', port=int(sys.argv[4]), log_level='warning', "
            "timeout_graceful_shutdown=1)"
        )
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        args = [sys.executable, "-c", code, str(self.db), str(self.pace), KEY, str(self.port)]
        self.process = subprocess.Popen(args, env=env)
        if not answering(self.url):
            raise RuntimeError("the server did not start")
        return self

    def stop(self, sig: int = signal.SIGTERM) -> None:
        """Stops the server with ``sig`` (SIGKILL: no chance to clean up) and waits for it."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(30)
        self.process = None

    def client(self) -> httpx.Client:
        """An HTTP client with the lobby's key."""
        return httpx.Client(base_url=self.url, headers={"X-Regalia-Key": KEY}, timeout=60)


def token(url: str) -> str:
    """The token of a private link's address."""
    return url.rsplit("/", 1)[1]


def start(client: Any, game: str, seats: list[str], seed: int = 1, **options: Any) -> list[str]:
    """A new table; the tokens of its links in seat order (the watcher's alone for bots)."""
    r = client.post("/api/tables", json={"game": game, "seats": seats, "seed": seed, "options": options})
    assert r.status_code == 200, r.text
    return [token(link["url"]) for link in r.json()["links"]]


def wait_for(client: Any, tok: str, done: Any, seconds: float = 120) -> dict[str, Any]:
    """The link's payload once ``done(payload)`` holds (the bots move in the background)."""
    deadline = time.monotonic() + seconds
    while True:
        payload: dict[str, Any] = client.get(f"/api/t/{tok}").json()
        if done(payload) or time.monotonic() > deadline:
            return payload
        time.sleep(0.05)


def my_turn(payload: dict[str, Any]) -> bool:
    """Whether the payload's seat is to move, or the game is over."""
    return bool(payload["moves"]) or bool(payload["over"])
