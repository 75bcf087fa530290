"""How close the Python loop over each game comes to the same loop over a state that does
nothing: the binding's own cost per step, game by game.

    python benches/python_loop.py                    # every game, five runs of 3 s each
    python benches/python_loop.py -g regnum --seconds 1 --runs 3
    python benches/python_loop.py --write            # also docs/results/data/perf-python-loop.json

The loop is ``while not s.is_terminal: s.apply(rng.choice(s.legal_actions()))`` over the
random games of seeds ``0..games-1`` (the games of ``workloads.python_loop``). The do-nothing
state walks through the very same legal lists, step by step (so ``rng.choice`` sees the same
lengths and draws the same moves), with C builtins only: ``is_terminal`` is ``not`` of a
deque, ``legal_actions()`` copies the next recorded list, ``apply`` pops the move played off
the deque. States and generators are made before the clock starts: only the loop is timed,
in CPU time of the process (the machine may be shared), with the garbage collector off.

A run plays the games over and over for ``--seconds`` of each loop, the real one and the
do-nothing one taking turns every tenth of a second (so that both meet the same moments of a
shared machine); runs go game after game, and the table gives each game's median of
``--runs`` rates and the median of the per-run ratios (real / do-nothing: 1.0 means the
binding costs no more than a no-op). ``--write [DIR]`` also writes that table's data file,
``perf-python-loop`` (``benches/results_data.py``), for ``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import gc
import operator
import os
import random
import statistics
import sys
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from results_data import Provenance, add_write_option, write  # noqa: E402
from workloads import GAMES, LOOP_GAMES, make  # noqa: E402


class NullState(deque):  # type: ignore[type-arg]
    """A state that does nothing, through the legal lists of one recorded game: the deque
    holds the moves still to play."""

    is_terminal = property(operator.not_)

    def __init__(self, legal: list[list[int]], moves: list[int]) -> None:
        super().__init__(moves)
        self.legal_actions = map(list.copy, legal).__next__
        # ``deque.remove`` finds the move first in line and drops it.
        self.apply = self.remove


Recorded = list[tuple[list[list[int]], list[int]]]

#: CPU seconds of one loop before the other takes its turn within a run.
SLICE = 0.1


def record(game: Any, seeds: range) -> Recorded:
    """Each game's legal lists, step by step, and its moves."""
    out = []
    for seed in seeds:
        pick = random.Random(seed)
        state = game.new_state(seed)
        lists: list[list[int]] = []
        while not state.is_terminal:
            legal = state.legal_actions()
            lists.append(legal)
            state.apply(pick.choice(legal))
        out.append((lists, list(state.history())))
    return out


def loop(starts: list[tuple[Any, random.Random]]) -> int:
    """The loop being measured, over states made beforehand; returns the steps."""
    steps = 0
    for s, rng in starts:
        while not s.is_terminal:
            s.apply(rng.choice(s.legal_actions()))
            steps += 1
    return steps


def rate(make_starts: Callable[[], list[tuple[Any, random.Random]]], seconds: float) -> tuple[int, float]:
    """Steps and CPU seconds of :func:`loop`, played over and over for about ``seconds``."""
    steps, spent = 0, 0.0
    while spent < seconds:
        starts = make_starts()
        gc.disable()
        t = time.process_time()
        steps += loop(starts)
        spent += time.process_time() - t
        gc.enable()
    return steps, spent


def paired_rates(
    real: Callable[[], list[tuple[Any, random.Random]]],
    null: Callable[[], list[tuple[Any, random.Random]]],
    seconds: float,
) -> tuple[float, float]:
    """Steps per CPU second of the real loop and of the do-nothing one, each played for
    about ``seconds`` in slices of :data:`SLICE` taken by turns, so that both meet the same
    moments of a shared machine."""
    loops = (real, null)
    steps, spent = [0, 0], [0.0, 0.0]
    while min(spent) < seconds:
        for i, make_starts in enumerate(loops):
            n, t = rate(make_starts, SLICE)
            steps[i] += n
            spent[i] += t
    return steps[0] / spent[0], steps[1] / spent[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-g", "--game", action="append", choices=GAMES, help="only this game (repeatable)")
    parser.add_argument("--seconds", type=float, default=3.0, help="length of one run (default 3)")
    parser.add_argument("--runs", type=int, default=5, help="runs of each loop per game (default 5)")
    parser.add_argument("--games", type=int, default=LOOP_GAMES, help=f"games per pass (default {LOOP_GAMES})")
    add_write_option(parser)
    args = parser.parse_args()
    provenance = Provenance()
    names = args.game or GAMES
    seeds = range(args.games)
    setups = {}
    for name in names:
        game = make(name)
        recorded = record(game, seeds)

        def real(game: Any = game) -> list[tuple[Any, random.Random]]:
            return [(game.new_state(seed), random.Random(seed)) for seed in seeds]

        def null(recorded: Recorded = recorded) -> list[tuple[Any, random.Random]]:
            return [(NullState(*recorded[seed]), random.Random(seed)) for seed in seeds]

        assert loop(real()) == loop(null()) == sum(len(m) for _, m in recorded)
        setups[name] = (real, null)
    got: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
    for _ in range(args.runs):
        for name, (real, null) in setups.items():
            got[name].append(paired_rates(real, null, args.seconds))
    print(f"load average {os.getloadavg()[0]:.1f}; median of {args.runs} interleaved runs of {args.seconds:g} s (CPU)")
    print()
    columns = ["game", "steps/s", "do-nothing steps/s", "ratio", "ratios of the runs"]
    rows = []
    for name, runs in got.items():
        ratios = [r / n for r, n in runs]
        rows.append(
            [
                name,
                f"{statistics.median(r for r, _ in runs) / 1e6:.2f} M",
                f"{statistics.median(n for _, n in runs) / 1e6:.2f} M",
                f"{statistics.median(ratios):.2f}",
                " ".join(f"{x:.2f}" for x in ratios),
            ]
        )
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    if args.write:
        write(args.write, "perf-python-loop", columns, rows, provenance)


if __name__ == "__main__":
    main()
