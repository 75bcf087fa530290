"""A policy given as a Python function measured exactly, end to end, side by side with
OpenSpiel's C++ exploitability, in one run: histories per second.

    python benches/walk_speed.py --rounds 5
    python benches/walk_speed.py --rounds 5 --write

Regalia: ``regalia.exact.exploitability(NAME, regalia.exact.uniform)`` on each game's
benchmark variant (``regalia.theory.benchmarks``): the uniform function asked at every
information set (with a lazily built view: no replay, as it reads only the legal actions),
then the exact walk in Rust. Its tree is built once first and kept, as every later call on the
same game finds it (its build is a column of its own, and the cold rate counts it too); the
native walk alone (``tree.exploitability(tree.uniform_policy())``) is shown beside it.
OpenSpiel: ``pyspiel.exploitability(game, pyspiel.UniformRandomPolicy(game))`` (C++; it builds
its trees inside every call) on ``leduc_poker``, ``liars_dice`` and imperfect-information
goofspiel (5 cards, turn-based, points in descending order). Histories are every node of a
tree: decisions, chance nodes and ends (OpenSpiel's counted once, by a walk in Python, untimed).

A rate is histories over the *fastest* of ``--rounds`` calls, in CPU time of the process
(``time.process_time``: time spent waiting for a core on a shared machine is not counted);
the wall-clock rate is shown too. ``× OpenSpiel`` divides by OpenSpiel's fastest rate of the
three games. ``--write [DIR]`` also writes the table's data file, walk-speed
(``benches/results_data.py``), from which ``python benches/docs_tables.py`` rewrites the table
in docs/performance.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from regalia import exact
from regalia.theory.benchmarks import BENCHMARKS

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results_data import Provenance, add_write_option, markdown, write  # noqa: E402

#: OpenSpiel's games, by the name the table shows.
OPENSPIEL = {
    "leduc_poker": "leduc_poker",
    "liars_dice": "liars_dice",
    "goofspiel 5 cards, imperfect information": "turn_based_simultaneous_game(game=goofspiel("
    "num_cards=5,imp_info=True,points_order=descending))",
}

COLUMNS = [
    "game",
    "histories",
    "information sets",
    "tree build (s)",
    "end to end: histories/s (CPU)",
    "wall clock",
    "cold: with the build",
    "native walk alone",
    "× OpenSpiel",
]


def fastest(call: Callable[[], Any], rounds: int) -> tuple[float, float]:
    """The fewest CPU seconds and the fewest wall seconds of ``rounds`` calls."""
    cpu, wall = [], []
    for _ in range(rounds):
        c, w = time.process_time(), time.perf_counter()
        call()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return min(cpu), min(wall)


def rate(count: float) -> str:
    """``count`` per second, rounded to three figures (``1.23 M``, ``456 k``)."""
    if count >= 1e6:
        return f"{count / 1e6:.3g} M"
    return f"{count / 1e3:.3g} k"


def histories(state: Any) -> int:
    """Every node of an OpenSpiel game's tree below ``state``, itself included."""
    if state.is_terminal():
        return 1
    moves = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
    return 1 + sum(histories(state.child(a)) for a in moves)


def openspiel_rows(rounds: int) -> list[tuple[str, int, float, float]]:
    """Per OpenSpiel game: its name, histories, and the fastest CPU and wall seconds of its C++
    exploitability of the uniform policy."""
    import pyspiel

    out = []
    for shown, name in OPENSPIEL.items():
        game = pyspiel.load_game(name)
        policy = pyspiel.UniformRandomPolicy(game)
        cpu, wall = fastest(lambda g=game, p=policy: pyspiel.exploitability(g, p), rounds)
        out.append((shown, histories(game.new_initial_state()), cpu, wall))
        print(f"OpenSpiel {shown}: {out[-1][1]:,} histories, {out[-1][1] / cpu:,.0f}/s (CPU)", flush=True)
    return out


def regalia_row(name: str, rounds: int, yardstick: float) -> list[Any]:
    """The table's row of benchmark ``name``."""
    start = time.process_time()
    tree = exact.game_tree(name)  # built once (the last game's tree is let go) and kept
    build = time.process_time() - start
    cpu, wall = fastest(lambda: exact.exploitability(name, exact.uniform), rounds)
    uniform = tree.uniform_policy()
    native, _ = fastest(lambda: tree.exploitability(uniform), rounds)
    n = tree.histories
    row = [
        name,
        f"{n:,}",
        f"{len(tree):,}",
        f"{build:.2f}",
        rate(n / cpu),
        rate(n / wall),
        rate(n / (build + cpu)),
        rate(n / native),
        f"{n / cpu / yardstick:.1f}×",
    ]
    print(markdown(COLUMNS, [row]).splitlines()[-1], flush=True)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="calls timed per measurement (the fastest counts)")
    add_write_option(parser)
    args = parser.parse_args()
    provenance = Provenance()
    theirs = openspiel_rows(args.rounds)
    yardstick = max(n / cpu for _, n, cpu, _ in theirs)
    rows = [regalia_row(name, args.rounds, yardstick) for name in BENCHMARKS]
    for shown, n, cpu, wall in theirs:
        rows.append([f"OpenSpiel C++: {shown}", f"{n:,}", "", "", rate(n / cpu), rate(n / wall), "", "", ""])
    print("\n" + markdown(COLUMNS, rows))
    if args.write is not None:
        write(args.write, "walk-speed", COLUMNS, rows, provenance)


if __name__ == "__main__":
    main()
