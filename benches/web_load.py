"""The web server under load: one ``regalia serve`` process on loopback with many tables at
once, people simulated over HTTP, and the move round-trip latency and memory per table.

    python benches/web_load.py                        # 200 tables for 60 s
    python benches/web_load.py --tables 50 --seconds 20 --json out.json

One server process (the application of ``regalia serve``, on ``127.0.0.1`` only, a fresh
database in a temporary folder) and this process as every client, on ``httpx`` (async).
The tables are started through the lobby's API: most of them a simulated person against a
bot, some two simulated people, some bots alone with a watcher, spread over the five games.
Each person follows the table as the page does (its server-sent events stream), and when
offered moves, thinks (``--think`` seconds on average) and plays one; the bots move on the
server ``--pace`` seconds apart. A finished table is replaced by a new one, so the count
stays at ``--tables``.

Measured: the round trip of every move (POST sent to answer read, which includes the save
to SQLite and the new picture of the seat), as median, p95 and p99; and the server's memory
per table, its resident set after the run less the one before the tables, divided by the
tables started (a table is kept in memory once opened). The load average is reported beside
them: the machine may be shared. Everything stops by itself after ``--seconds`` or
``--max-moves`` moves, whichever comes first.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

KEY = "load-bench-key-0123456789"
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("duo-regna", {}),
    ("duo", {"rounds": 1}),
    ("duell-der-drachen", {}),
    ("regine", {}),
    ("regnum", {}),
]
#: The server: its rate limit for clients without the key (every simulated person here, all
#: from one address) kept, but set far above what they ask, so its cost is in the measure.
SERVER = (
    "import sys, uvicorn; from regalia.web import create_app; "
    "from regalia.web.security import Limits, Rate; "
    "unlimited = Rate(burst=10**9, per_second=10**9); "
    "app = create_app(sys.argv[1], pace=float(sys.argv[2]), key=sys.argv[3], "
    "limits=Limits(anonymous=unlimited, replay=unlimited)); "
    "uvicorn.run(app, host='127.0.0.1', port=int(sys.argv[4]), log_level='warning', "
    "timeout_graceful_shutdown=2, timeout_keep_alive=120)"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def rss_kib(pid: int) -> int:
    """The resident set of process ``pid``, in KiB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process ``pid`` has used (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


class Load:
    """The simulated people, the tables they sit at, and what was measured."""

    def __init__(self, client: httpx.AsyncClient, args: argparse.Namespace) -> None:
        self.client, self.args = client, args
        self.url = str(client.base_url).rstrip("/")
        self.tls = ssl.create_default_context()  # made once: unused on loopback, but each client wants one
        self.rnd = random.Random(args.seed)
        self.end = time.monotonic() + args.seconds
        self.latencies: list[float] = []
        self.times: list[float] = []
        self.begin = time.monotonic()
        self.refused: dict[int, int] = {}
        self.started = 0
        self.finished = 0
        self.errors: dict[str, int] = {}

    def error(self, e: Exception) -> None:
        self.errors[type(e).__name__] = self.errors.get(type(e).__name__, 0) + 1

    def running(self) -> bool:
        return time.monotonic() < self.end and len(self.latencies) < self.args.max_moves

    async def start_table(self, k: int) -> list[str]:
        """Starts table ``k``'s kind: people against a bot, two people, or bots alone."""
        game, options = GAMES[k % len(GAMES)]
        kind = k % 10
        bot = self.args.bot
        seats = ["human", "human"] if kind == 8 else [bot, bot] if kind == 9 else ["human", bot]
        body = {"game": game, "options": options, "seats": seats, "seed": self.rnd.randrange(2**32)}
        r = await self.client.post("/api/tables", json=body)
        r.raise_for_status()
        self.started += 1
        return [link["url"].rsplit("/", 1)[1] for link in r.json()["links"]]

    def own_client(self) -> httpx.AsyncClient:
        """A client of one person's own, as each browser is (one pool of connections shared
        by hundreds of people would cost the client more than the server)."""
        return httpx.AsyncClient(base_url=self.url, verify=self.tls, timeout=httpx.Timeout(60))

    async def follow(
        self, client: httpx.AsyncClient, token: str, latest: dict[str, Any], changed: asyncio.Event
    ) -> None:
        """Reads the link's live updates, as the page does, into ``latest``."""
        while self.running():
            params = {"since": latest.get("version", -1), "seconds": 30}
            try:
                async with client.stream("GET", f"/api/t/{token}/events", params=params) as r:
                    async for line in r.aiter_lines():
                        if line.startswith("data: "):
                            payload = json.loads(line[6:])
                            if payload["version"] > latest.get("version", -1):
                                latest.clear()
                                latest.update(payload)
                                changed.set()
                        if not self.running():
                            return
            except httpx.HTTPError as e:
                self.error(e)
                await asyncio.sleep(1)

    async def person(self, token: str) -> None:
        """A person at a table: waits for their turn, thinks, plays a move."""
        async with self.own_client() as client:
            await self.play(client, token)

    async def play(self, client: httpx.AsyncClient, token: str) -> None:
        latest: dict[str, Any] = (await client.get(f"/api/t/{token}")).json()
        changed = asyncio.Event()
        follower = asyncio.create_task(self.follow(client, token, latest, changed))
        try:
            while self.running() and not latest["over"]:
                if not latest["moves"]:
                    changed.clear()
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(changed.wait(), 5)
                    continue
                await asyncio.sleep(self.rnd.expovariate(1 / self.args.think))
                if not self.running():
                    return
                move = self.rnd.choice(latest["moves"])
                body = {"version": latest["version"], "action": move["action"]}
                t0 = time.perf_counter()
                r = await client.post(f"/api/t/{token}/move", json=body)
                answer = r.content
                self.latencies.append(time.perf_counter() - t0)
                self.times.append(time.monotonic() - self.begin)
                if r.status_code == 200:
                    payload = json.loads(answer)
                    if payload["version"] > latest["version"]:
                        latest.clear()
                        latest.update(payload)
                else:
                    self.refused[r.status_code] = self.refused.get(r.status_code, 0) + 1
                    latest.update((await client.get(f"/api/t/{token}")).json())
        finally:
            follower.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await follower

    async def watcher(self, token: str) -> None:
        """Watches a game of bots alone to its end."""
        latest: dict[str, Any] = {}
        changed = asyncio.Event()
        async with self.own_client() as client:
            await self.watch(client, token, latest, changed)

    async def watch(
        self, client: httpx.AsyncClient, token: str, latest: dict[str, Any], changed: asyncio.Event
    ) -> None:
        follower = asyncio.create_task(self.follow(client, token, latest, changed))
        try:
            while self.running() and not latest.get("over"):
                changed.clear()
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(changed.wait(), 5)
        finally:
            follower.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await follower

    async def seat(self, k: int) -> None:
        """Table ``k``: played to its end, then a new one in its place, until the time is up."""
        await asyncio.sleep(self.rnd.random() * 2)  # the people do not all arrive at once
        while self.running():
            try:
                tokens = await self.start_table(k)
                kind = k % 10
                if kind == 9:
                    await self.watcher(tokens[0])
                else:
                    await asyncio.gather(*(self.person(t) for t in tokens))
            except httpx.HTTPError as e:  # counted and reported; the table is started again
                self.error(e)
                await asyncio.sleep(1)
                continue
            if self.running():
                self.finished += 1


async def run(args: argparse.Namespace, url: str) -> Load:
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    timeout = httpx.Timeout(60, read=60)
    async with httpx.AsyncClient(base_url=url, headers={"X-Regalia-Key": KEY}, limits=limits, timeout=timeout) as c:
        load = Load(c, args)
        await asyncio.gather(*(load.seat(k) for k in range(args.tables)))
        return load


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="tables at once (default 200)")
    parser.add_argument("--seconds", type=float, default=60, help="how long the load runs (default 60)")
    parser.add_argument("--max-moves", type=int, default=50_000, help="stop after this many people's moves")
    parser.add_argument("--think", type=float, default=2.0, help="a person's mean thinking time, s (default 2)")
    parser.add_argument("--pace", type=float, default=0.8, help="seconds between two bot moves (default 0.8)")
    parser.add_argument("--bot", default="random", help="the bots' agent (default random)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "web.sqlite3"
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        server = subprocess.Popen([sys.executable, "-c", SERVER, str(db), str(args.pace), KEY, str(port)], env=env)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(f"{url}/api/games", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    if time.monotonic() > deadline:
                        raise RuntimeError("the server did not start") from None
                    time.sleep(0.1)
            # One table played a little first, so that the imports and caches of every game
            # are in the baseline, not in the tables' share.
            with httpx.Client(base_url=url, headers={"X-Regalia-Key": KEY}, timeout=60) as c:
                for game, options in GAMES:
                    r = c.post("/api/tables", json={"game": game, "options": options, "seats": ["human", "random"]})
                    token = r.json()["links"][0]["url"].rsplit("/", 1)[1]
                    c.get(f"/api/t/{token}")
            time.sleep(1)
            before = rss_kib(server.pid)
            load_before = os.getloadavg()
            server_cpu, client_cpu = cpu_seconds(server.pid), time.process_time()
            t0 = time.monotonic()
            load = asyncio.run(run(args, url))
            elapsed = time.monotonic() - t0
            after = rss_kib(server.pid)
            load_after = os.getloadavg()
            server_cpu, client_cpu = cpu_seconds(server.pid) - server_cpu, time.process_time() - client_cpu
        finally:
            server.terminate()
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()

    ms = [1000 * x for x in load.latencies]
    figures = {
        "date": time.strftime("%Y-%m-%d %H:%M %Z"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "tables_at_once": args.tables,
        "tables_started": load.started,
        "tables_finished": load.finished,
        "seconds": round(elapsed, 1),
        "moves": len(ms),
        "moves_per_second": round(len(ms) / elapsed, 1),
        "refused": load.refused,
        "errors": load.errors,
        "p50_ms": round(statistics.median(ms), 1) if ms else None,
        "p95_ms": round(percentile(ms, 95), 1) if ms else None,
        "p99_ms": round(percentile(ms, 99), 1) if ms else None,
        "max_ms": round(max(ms), 1) if ms else None,
        "server_cpu_s": round(server_cpu, 1),
        "client_cpu_s": round(client_cpu, 1),
        "rss_before_mib": round(before / 1024, 1),
        "rss_after_mib": round(after / 1024, 1),
        "kib_per_table": round((after - before) / max(1, load.started), 1),
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in load_after],
        "think_s": args.think,
        "pace_s": args.pace,
        "bot": args.bot,
    }
    windows: dict[int, list[float]] = {}
    for t, x in zip(load.times, ms):
        windows.setdefault(int(t // 10) * 10, []).append(x)
    figures["p95_ms_by_10s"] = {f"{w}s": round(percentile(v, 95), 1) for w, v in sorted(windows.items())}
    for name, value in figures.items():
        print(f"{name:>20}: {value}")
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
