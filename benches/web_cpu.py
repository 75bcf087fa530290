"""The web server's CPU per move: people playing many moves through the tables of the web
application in this process, as its requests do, and the CPU time that costs per move.

    python benches/web_cpu.py                          # 200 moves of each game, then a profile
    python benches/web_cpu.py --moves 50 --top 20      # shorter, a longer profile
    python benches/web_cpu.py --write                  # also docs/results/data/perf-web-cpu.json
    git checkout d2e58c8 && python benches/web_cpu.py --write --as before   # the code before the caches

Each game (Duo of one round, as ``benches/web_load.py`` plays it) is played at ``--tables``
tables of people only, each seat a link, from fixed seeds; a person to move picks one of the
moves offered to them at random (seeded). One move is what the server's routes do for it: the
request's link looked up, the move played and the table saved to SQLite (``Tables.play``),
its answer made as JSON text (``Tables.as_json``), and then, as every page open on the table
follows it over server-sent events, every link's payload and its JSON text (each made once per
version and link kind). (Before the caches, the answer was serialised by the ``Payload``
response model, as FastAPI does: the run of the old code in ``perf-web-cpu-before`` measured
that, with ``pydantic.TypeAdapter(Payload)``, and ``json.dumps`` for every event.) A finished
table is replaced by a new one (not counted).

The run of the code before the caches (``perf-web-cpu-before``) was made at commit d2e58c8,
whose bench serialised the answer by the response model; this one needs ``Tables.as_json``.

Measured: CPU time of the process (``time.process_time``, the time spent waiting for a core
on a shared machine is not counted) per move, by game and over all. Then half as many moves
again under cProfile, for the share of the time spent drawing pictures
(``regalia.views.pictures``) and the functions that cost most. No bot moves: their thinking
is not the web server's own cost.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from regalia.web.store import Store
from regalia.web.tables import Tables

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results_data import ROOT, Provenance, add_write_option, write  # noqa: E402
from web_load import GAMES  # noqa: E402  (the games and options the web load bench plays)


class Room:
    """One table of people: its links' tokens, by seat."""

    def __init__(self, tables: Tables, game: str, options: dict[str, Any], seed: int) -> None:
        players = options.get("players") or _players(game)
        _, links = tables.create(game, options, ["human"] * players, seed)
        self.tokens = {seat: token for seat, token in links.items() if seat is not None}


def _players(game: str) -> int:
    from regalia.registry import make

    players: int = make(game).num_players
    return players


def play(tables: Tables, room: Room, picker: random.Random) -> bool:
    """One move at ``room``: the person to move plays a random offered move, then every page
    gets its payload. False when the game is over (nothing played)."""
    first = tables.payload(tables.link(room.tokens[0]))
    waiting = first["waiting"]
    if first["over"] or waiting["kind"] != "person":
        return False
    token = room.tokens[waiting["seat"]]
    mine = tables.payload(tables.link(token))
    move = picker.choice(mine["moves"])
    link = tables.link(token)
    tables.as_json(link, tables.play(link, mine["version"], move["action"]))  # the move's answer
    for seat_token in room.tokens.values():  # every page's server-sent event
        follower = tables.link(seat_token)
        tables.as_json(follower, tables.payload(follower))
    return True


def run(
    game: str, options: dict[str, Any], moves: int, count: int, seed: int, profiler: cProfile.Profile | None = None
) -> float:
    """CPU seconds for ``moves`` moves of ``game`` over ``count`` tables at once (only the
    moves profiled by ``profiler``, when given)."""
    with tempfile.TemporaryDirectory() as folder:
        tables = Tables(Store(Path(folder) / "web.sqlite3"))
        rooms = [Room(tables, game, options, seed + i) for i in range(count)]
        pickers = [random.Random(seed + i) for i in range(count)]
        for room in rooms:  # every page opened once before the clock starts
            for token in room.tokens.values():
                tables.payload(tables.link(token))
        spent, played, started = 0.0, 0, seed + count
        while played < moves:
            i = played % count
            start = time.process_time()
            if profiler is not None:
                profiler.enable()
            moved = play(tables, rooms[i], pickers[i])
            if profiler is not None:
                profiler.disable()
            spent += time.process_time() - start
            if moved:
                played += 1
            else:
                rooms[i] = Room(tables, game, options, started)
                started += 1
        tables.store.close()
    return spent


def profile(game: str, options: dict[str, Any], moves: int, count: int, seed: int) -> pstats.Stats:
    """The moves of ``run`` played again under cProfile."""
    profiler = cProfile.Profile()
    run(game, options, moves, count, seed, profiler)
    return pstats.Stats(profiler)


def pictures_share(stats: pstats.Stats) -> float:
    """The share of the profiled time spent in ``regalia.views.pictures`` (its costliest
    entry point's cumulative time over the total)."""
    total: float = stats.total_tt  # type: ignore[attr-defined]
    table: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    inside = [timing[3] for (file, _, _), timing in table.items() if "views/pictures" in file]
    return max(inside, default=0.0) / total if total else 0.0


def commit() -> str:
    """The commit measured (with ``+`` when the work tree has changes)."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
        dirty = subprocess.run(["git", "status", "--porcelain", "python"], cwd=ROOT, capture_output=True, text=True)
        return head.stdout.strip() + ("+" if dirty.stdout.strip() else "")
    except OSError:
        return "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=200, help="moves of each game (default 200)")
    parser.add_argument("--tables", type=int, default=4, help="tables of each game played at once (default 4)")
    parser.add_argument("--seed", type=int, default=1, help="the first table's seed (default 1)")
    parser.add_argument("--top", type=int, default=12, help="functions shown from the profile (default 12)")
    parser.add_argument(
        "--as",
        dest="label",
        choices=["after", "before"],
        default="after",
        help="the data file written: perf-web-cpu (the code as it is) or perf-web-cpu-before (run on the "
        "code before the caches, kept for the comparison)",
    )
    add_write_option(parser)
    args = parser.parse_args()
    provenance = Provenance()
    code = commit()
    rows: list[list[Any]] = []
    spent_all, profiled = 0.0, None
    for game, options in GAMES:
        spent = run(game, options, args.moves, args.tables, args.seed)
        spent_all += spent
        stats = profile(game, options, max(1, args.moves // 2), args.tables, args.seed)
        share = pictures_share(stats)
        profiled = stats if profiled is None else profiled.add(stats)
        rows.append([game, args.moves, round(1000 * spent / args.moves, 2), f"{share:.0%}"])
        print(f"{game:>18}: {1000 * spent / args.moves:6.2f} ms CPU a move, {share:.0%} drawing", flush=True)
    moves_all = args.moves * len(GAMES)
    assert profiled is not None
    share = pictures_share(profiled)
    rows.append(["all five", moves_all, round(1000 * spent_all / moves_all, 2), f"{share:.0%}"])
    print(f"{'all five':>18}: {1000 * spent_all / moves_all:6.2f} ms CPU a move, {share:.0%} drawing\n")
    profiled.sort_stats("tottime").print_stats(args.top)
    columns = ["game", "moves", "CPU a move (ms)", "drawing the picture (profiled)"]
    before = ROOT / "docs" / "results" / "data" / "perf-web-cpu-before.json"
    if args.label == "after" and before.is_file():
        old = {row[0]: row[2] for row in json.loads(before.read_text(encoding="utf-8"))["rows"]}
        columns[3:3] = ["before (ms)", "before ÷ now"]
        rows = [[*r[:3], old.get(r[0], ""), f"{old[r[0]] / r[2]:.1f}" if r[0] in old else "", r[3]] for r in rows]
    columns.append("code")
    rows = [[*row, code] for row in rows]
    if args.write:
        name = "perf-web-cpu-before" if args.label == "before" else "perf-web-cpu"
        write(args.write, name, columns, rows, provenance)


if __name__ == "__main__":
    main()
