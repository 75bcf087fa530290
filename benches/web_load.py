"""The web server under load: ``regalia serve`` on loopback with many tables at once, people
simulated over HTTP, and the move round-trip latency and memory per table.

    python benches/web_load.py                        # 200 tables for 60 s, one process
    python benches/web_load.py --tables 1000 --workers 2 --seconds 60 --write
    python benches/web_load.py --tables 50 --seconds 20 --json out.json
    python benches/web_load.py --open 5000 --write    # memory while 5,000 tables are opened

The server (the application of ``regalia serve``, ``--workers`` uvicorn processes on
``127.0.0.1`` only, a fresh database in a temporary folder) and this process as every
client, on ``httpx`` (async).
The tables are started through the lobby's API: most of them a simulated person against a
bot, some two simulated people, some bots alone with a watcher, spread over the five games.
Each person follows the table as the page does (its server-sent events stream), and when
offered moves, thinks (``--think`` seconds on average) and plays one; the bots move on the
server ``--pace`` seconds apart. A finished table is replaced by a new one, so the count
stays at ``--tables``.

Measured: the round trip of every move (POST sent to answer read, which includes the save
to SQLite and the new picture of the seat), as median, p95 and p99; and the server's memory
per table, its resident set (every worker's) after the run less the one before the tables,
divided by the tables started. The load average is reported beside them: the machine may be
shared. Everything stops by itself after ``--seconds`` or ``--max-moves`` moves, whichever
comes first.

``--open N`` measures memory instead: N tables opened one after another (each one's links
read once), the server's resident set taken every tenth of the way; a server holds at most
``--capacity`` tables, so it must stay flat once that many are open.

``--write [DIR]`` also writes the result as a data file (``web-load-T-tables-W-workers`` or
``web-memory``, see ``benches/results_data.py``) for the table in ``docs/results/web-server.md``.
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

import results_data

KEY = "load-bench-key-0123456789"
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("duo-regna", {}),
    ("duo", {"rounds": 1}),
    ("duell-der-drachen", {}),
    ("regine", {}),
    ("regnum", {}),
]
#: Where the server's settings travel to its worker processes (JSON).
SETTINGS = "REGALIA_BENCH_SERVER"
#: The server: ``bench_app`` in ``--workers`` processes (argv: port, workers).
SERVER = (
    "import sys, uvicorn; sys.path.insert(0, sys.argv[3]); "
    "workers = int(sys.argv[2]); "
    "uvicorn.run('web_load:bench_app', factory=True, workers=workers if workers > 1 else None, "
    "host='127.0.0.1', port=int(sys.argv[1]), log_level='warning', "
    "timeout_graceful_shutdown=2, timeout_keep_alive=120)"
)


def bench_app() -> Any:
    """The application of ``regalia serve`` on the bench's database, its rate limit for
    clients without the key (every simulated person here, all from one address) kept, but
    set far above what they ask, so its cost is in the measure."""
    from regalia.web import create_app
    from regalia.web.security import Limits, Rate

    settings = json.loads(os.environ[SETTINGS])
    unlimited = Rate(burst=10**9, per_second=10**9)
    return create_app(
        settings["db"],
        pace=settings["pace"],
        key=KEY,
        limits=Limits(anonymous=unlimited, replay=unlimited),
        capacity=settings["capacity"],
    )


def server_pids(pid: int) -> list[int]:
    """The processes that answer: the worker processes uvicorn started, or ``pid`` itself."""
    workers = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                line = (entry / "cmdline").read_bytes()
            except (OSError, ValueError):
                continue
            if parent == pid and b"spawn_main" in line and b"resource_tracker" not in line:
                workers.append(int(entry.name))
    return workers or [pid]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def rss_kib(pids: list[int]) -> int:
    """The resident sets of processes ``pids``, in KiB, summed (Linux)."""
    total = 0
    for pid in pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total


def cpu_seconds(pids: list[int]) -> float:
    """The CPU time (user and system) processes ``pids`` have used, summed (Linux)."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


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


@contextlib.contextmanager
def server(args: argparse.Namespace, folder: str) -> Any:
    """The server on a fresh database in ``folder``, answering: yields its address and its
    worker processes; stopped on leaving."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    settings = {"db": str(Path(folder) / "web.sqlite3"), "pace": args.pace, "capacity": args.capacity}
    here = str(Path(__file__).resolve().parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([here, *sys.path]), SETTINGS: json.dumps(settings)}
    process = subprocess.Popen([sys.executable, "-c", SERVER, str(port), str(args.workers), here], env=env)
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
        pids = server_pids(process.pid)
        while len(pids) < args.workers and time.monotonic() < deadline:
            time.sleep(0.2)
            pids = server_pids(process.pid)
        # A table of each game played a little first, in every process, so that the imports
        # and caches of every game are in the baseline, not in the tables' share.
        with httpx.Client(base_url=url, headers={"X-Regalia-Key": KEY}, timeout=60) as c:
            for _ in range(2 * args.workers):
                for game, options in GAMES:
                    r = c.post("/api/tables", json={"game": game, "options": options, "seats": ["human", "random"]})
                    token = r.json()["links"][0]["url"].rsplit("/", 1)[1]
                    c.get(f"/api/t/{token}", headers={"Connection": "close"})
        time.sleep(1)
        yield url, pids
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def machine() -> str:
    return f"{platform.machine()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def measure_load(args: argparse.Namespace) -> dict[str, Any]:
    """The load run: the figures of every move's round trip, CPU and memory."""
    with tempfile.TemporaryDirectory() as folder, server(args, folder) as (url, pids):
        before = rss_kib(pids)
        load_before = os.getloadavg()
        server_cpu, client_cpu = cpu_seconds(pids), time.process_time()
        t0 = time.monotonic()
        load = asyncio.run(run(args, url))
        elapsed = time.monotonic() - t0
        after = rss_kib(pids)
        load_after = os.getloadavg()
        server_cpu, client_cpu = cpu_seconds(pids) - server_cpu, time.process_time() - client_cpu

    ms = [1000 * x for x in load.latencies]
    figures = {
        "date": time.strftime("%Y-%m-%d %H:%M %Z"),
        "machine": machine(),
        "python": platform.python_version(),
        "workers": args.workers,
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
        "server_cpu_ms_per_move": round(1000 * server_cpu / max(1, len(ms)), 1),
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
    return figures


async def open_tables(url: str, count: int, pids: list[int], seed: int) -> list[list[Any]]:
    """Opens ``count`` tables (each one's links read once), eight at a time; the server's
    resident set every tenth of the way: rows of tables opened, MiB."""
    rnd = random.Random(seed)
    rows = [[0, round(rss_kib(pids) / 1024, 1)]]
    step = max(1, count // 10)
    async with httpx.AsyncClient(base_url=url, headers={"X-Regalia-Key": KEY}, timeout=60) as c:

        async def one(k: int) -> None:
            game, options = GAMES[k % len(GAMES)]
            seats = ["human", "human"] if k % 10 == 8 else ["random", "random"] if k % 10 == 9 else ["human", "random"]
            body = {"game": game, "options": options, "seats": seats, "seed": rnd.randrange(2**32)}
            r = await c.post("/api/tables", json=body)
            r.raise_for_status()
            for link in r.json()["links"]:
                (await c.get(f"/api/t/{link['url'].rsplit('/', 1)[1]}")).raise_for_status()

        for start in range(0, count, step):
            batch = list(range(start, min(count, start + step)))
            for first in range(0, len(batch), 8):
                await asyncio.gather(*(one(k) for k in batch[first : first + 8]))
            rows.append([batch[-1] + 1, round(rss_kib(pids) / 1024, 1)])
    return rows


def measure_memory(args: argparse.Namespace) -> dict[str, Any]:
    """The memory run: the resident set as ``--open`` tables are opened."""
    with tempfile.TemporaryDirectory() as folder, server(args, folder) as (url, pids):
        load_before = os.getloadavg()
        t0 = time.monotonic()
        rows = asyncio.run(open_tables(url, args.open, pids, args.seed))
        elapsed = time.monotonic() - t0
    return {
        "date": time.strftime("%Y-%m-%d %H:%M %Z"),
        "machine": machine(),
        "workers": args.workers,
        "capacity": args.capacity,
        "tables_opened": args.open,
        "seconds": round(elapsed, 1),
        "rss_mib_by_tables_opened": rows,
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
    }


def write(args: argparse.Namespace, figures: dict[str, Any], provenance: results_data.Provenance) -> None:
    """The data file of the run, for the table in ``docs/results/web-server.md``."""
    if args.open:
        rows = [[n, mib] for n, mib in figures["rss_mib_by_tables_opened"]]
        columns = ["tables opened", "server resident set (MiB)"]
        name = "web-memory"
        title = f"Memory while {args.open} tables are opened, {args.capacity} held at most per process"
    else:
        columns = ["tables", "workers", "moves/s", "p50 (ms)", "p95 (ms)", "p99 (ms)", "server CPU a move (ms)"]
        f = figures
        rows = [[f["tables_at_once"], f["workers"], f["moves_per_second"], f["p50_ms"], f["p95_ms"], f["p99_ms"],
                 f["server_cpu_ms_per_move"]]]  # fmt: skip
        name = f"web-load-{args.tables}-tables-{args.workers}-workers"
        title = f"{args.tables} tables at once, {args.workers} server process(es), {figures['seconds']} s"
    results_data.write(args.write, name, columns, rows, provenance, title=title, figures=figures)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="tables at once (default 200)")
    parser.add_argument("--workers", type=int, default=1, help="server processes (default 1)")
    parser.add_argument("--capacity", type=int, default=2000, help="tables a process holds (default 2000)")
    parser.add_argument("--open", type=int, default=0, metavar="N", help="measure memory opening N tables instead")
    parser.add_argument("--seconds", type=float, default=60, help="how long the load runs (default 60)")
    parser.add_argument("--max-moves", type=int, default=50_000, help="stop after this many people's moves")
    parser.add_argument("--think", type=float, default=2.0, help="a person's mean thinking time, s (default 2)")
    parser.add_argument("--pace", type=float, default=0.8, help="seconds between two bot moves (default 0.8)")
    parser.add_argument("--bot", default="random", help="the bots' agent (default random)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    results_data.add_write_option(parser)
    args = parser.parse_args()

    provenance = results_data.Provenance()
    figures = measure_memory(args) if args.open else measure_load(args)
    for name, value in figures.items():
        print(f"{name:>24}: {value}")
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    if args.write is not None:
        write(args, figures, provenance)


if __name__ == "__main__":
    main()
