"""A real ``regalia serve`` process, on a free loopback port, bounds its connections: idle ones
(never a byte sent, a request's head left half-sent, or kept alive after a response) are
closed by the server after ``--idle-timeout`` while a normal request is still answered; past
``--max-connections`` a request gets 503; the serve command's options are checked and its
warnings said."""

from __future__ import annotations

import os
import selectors
import shutil
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason='the web table needs the web extra (pip install "regalia[web]")')

import httpx  # noqa: E402

from regalia.web import Hosting, check_public_url  # noqa: E402
from regalia.web.server import free_port, notices  # noqa: E402
from regalia.web.store import Store  # noqa: E402
from tests.cli_helpers import run, script  # noqa: E402
from tests.web_helpers import answering  # noqa: E402

#: The connections held open at once.
IDLE = 300
#: The server's idle timeout in these tests, in seconds.
TIMEOUT = 2.0
#: How much later than the timeout a closing may come on a loaded machine.
SLACK = 20.0


class Serve:
    """``regalia serve ARGS`` on a free loopback port, until stopped."""

    def __init__(self, tmp_path: Path, *args: str, scheme: str = "http") -> None:
        self.port = free_port("127.0.0.1")
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
        command = [*script(), "serve", "--no-browser", "--port", str(self.port), "--db", str(tmp_path / "w.sqlite3")]
        self.process = subprocess.Popen([*command, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if answering(f"{scheme}://127.0.0.1:{self.port}"):
            return
        self.stop()
        raise RuntimeError("the server did not start")

    def stop(self) -> str:
        """Stops the server; what it printed."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
        assert self.process.stdout is not None
        return self.process.stdout.read().decode()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Serve]:
    s = Serve(tmp_path, "--idle-timeout", str(TIMEOUT))
    yield s
    s.stop()


def connect(port: int, first: bytes = b"") -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    if first:
        s.sendall(first)
    return s


def closed_within(sockets: list[socket.socket], seconds: float) -> list[float]:
    """When each socket was closed by the other end (end of stream, or reset), on the
    ``time.monotonic`` clock; fails if one is still open ``seconds`` from now."""
    start = time.monotonic()
    when: dict[int, float] = {}
    with selectors.DefaultSelector() as sel:
        for s in sockets:
            s.setblocking(False)
            sel.register(s, selectors.EVENT_READ)
        while len(when) < len(sockets) and time.monotonic() - start < seconds:
            for key, _ in sel.select(timeout=0.5):
                s = key.fileobj
                assert isinstance(s, socket.socket)
                try:
                    data = s.recv(65536)
                except ConnectionResetError:
                    data = b""
                if not data:  # a response's bytes come before the end: read on
                    when[s.fileno()] = time.monotonic()
                    sel.unregister(s)
    assert len(when) == len(sockets), f"{len(sockets) - len(when)} connections still open after {seconds} s"
    return list(when.values())


def test_idle_connections_are_closed_and_a_request_still_answered(server: Serve) -> None:
    opened = time.monotonic()
    silent = [connect(server.port) for _ in range(IDLE - 100)]
    half_head = [connect(server.port, b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ") for _ in range(50)]
    kept_alive = [connect(server.port, b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") for _ in range(50)]
    held = silent + half_head + kept_alive
    try:
        assert len(held) == IDLE
        with httpx.Client(timeout=30) as c:  # a normal request while they are held
            r = c.get(f"{server.url}/api/games")
            assert r.status_code == 200 and r.json()
            assert c.get(f"{server.url}/api/t/no-such-token").status_code == 404
        times = closed_within(held, TIMEOUT + SLACK)
        assert min(times) - opened >= TIMEOUT * 0.9  # not before the timeout
        with httpx.Client(timeout=30) as c:
            assert c.get(f"{server.url}/api/games").status_code == 200
    finally:
        for s in held:
            s.close()


def test_a_connection_is_kept_until_the_timeout(server: Serve) -> None:
    s = connect(server.port)
    try:
        s.settimeout(TIMEOUT * 0.5)
        with pytest.raises(socket.timeout):  # half the timeout: still open, nothing sent
            s.recv(1)
        s.settimeout(TIMEOUT + SLACK)
        assert s.recv(1) == b""  # then closed by the server
    finally:
        s.close()


def test_past_the_connection_cap_a_request_gets_503(tmp_path: Path) -> None:
    server = Serve(tmp_path, "--max-connections", "20", "--idle-timeout", "30")
    held = [connect(server.port) for _ in range(25)]
    try:
        time.sleep(0.5)
        r = httpx.get(f"{server.url}/api/games", timeout=30)
        assert r.status_code == 503
        for s in held:
            s.close()
        deadline = time.monotonic() + 30
        while httpx.get(f"{server.url}/api/games", timeout=30).status_code == 503 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert httpx.get(f"{server.url}/api/games", timeout=30).status_code == 200
    finally:
        for s in held:
            s.close()
        server.stop()


def test_the_links_and_the_printed_address_use_the_public_url(tmp_path: Path) -> None:
    server = Serve(tmp_path, "--public-url", "https://games.example.org/")
    key = Store(tmp_path / "w.sqlite3").setting("key", "none yet")
    try:
        with httpx.Client(base_url=server.url, timeout=30, headers={"X-Regalia-Key": key}) as c:
            assert c.get("/api/games", headers={"Host": "games.example.org"}).status_code == 200
            assert c.get("/api/games", headers={"Host": "evil.example"}).status_code == 421
            body = {"game": "duo", "seats": ["human", "human"], "seed": 1}
            forged = {"X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "http", "Host": "localhost"}
            links = c.post("/api/tables", json=body, headers=forged).json()["links"]
    finally:
        out = server.stop()
    assert all(link["url"].startswith("https://games.example.org/t/") for link in links), links
    assert f"https://games.example.org/?key={key}" in out


def test_beyond_loopback_the_server_warns_of_plain_http() -> None:
    plain = " ".join(notices("0.0.0.0", Hosting()))
    assert "plain HTTP" in plain and "--ssl-certfile" in plain and "Caddy" in plain
    assert "plain HTTP" in " ".join(notices("192.0.2.7", Hosting()))
    assert notices("127.0.0.1", Hosting()) == []
    assert notices("127.0.0.1", Hosting(public_url="https://games.example.org")) == []  # behind a proxy
    assert not any("unencrypted" in line for line in notices("0.0.0.0", Hosting(ssl_certfile="c.pem")))


def test_the_serve_options_are_checked() -> None:
    assert check_public_url("https://games.example.org/") == "https://games.example.org"
    bad_urls = ["ftp://games.example.org", "games.example.org", "https://", "https://x.org/sub/path", "http://x?a=1"]
    for bad in [*bad_urls, "https://x.org:99999"]:
        with pytest.raises(ValueError, match="--public-url"):
            check_public_url(bad)
        result = run("serve", "--no-browser", "--public-url", bad)
        assert result.exit_code != 0 and "--public-url" in result.stderr
    result = run("serve", "--no-browser", "--ssl-certfile", "cert.pem")
    assert result.exit_code != 0 and "--ssl-keyfile" in result.stderr


@pytest.mark.skipif(shutil.which("openssl") is None, reason="making a test certificate needs openssl")
def test_the_server_speaks_tls_with_a_certificate_given(tmp_path: Path) -> None:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"]
        + ["-addext", "subjectAltName=IP:127.0.0.1"]
        + ["-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )
    server = Serve(tmp_path, "--ssl-certfile", str(cert), "--ssl-keyfile", str(key), scheme="https")
    try:
        with httpx.Client(verify=ssl.create_default_context(cafile=str(cert)), timeout=30) as c:
            r = c.get(f"https://127.0.0.1:{server.port}/api/games")
            assert r.status_code == 200 and r.headers["x-content-type-options"] == "nosniff"
        with pytest.raises(httpx.HTTPError):  # no plain HTTP on the same port
            httpx.get(f"http://127.0.0.1:{server.port}/api/games", timeout=10)
    finally:
        out = server.stop()
    assert f"https://127.0.0.1:{server.port}/?key=" in out


def test_the_access_log_masks_the_tokens_and_the_key(tmp_path: Path) -> None:
    server = Serve(tmp_path, "--access-log")
    key = Store(tmp_path / "w.sqlite3").setting("key", "none yet")
    try:
        with httpx.Client(base_url=server.url, timeout=30) as c:
            c.get("/t/a-secret-token-of-a-seat")
            c.get("/api/t/another-secret-token/events?seconds=0.1")
            c.get(f"/?key={key}")
    finally:
        out = server.stop()
    assert '"GET /t/… HTTP/1.1" 404' in out and "/api/t/…/events" in out and "/?key=…" in out
    assert "secret" not in out and out.count(key) == 1  # the key only in the address printed at start
