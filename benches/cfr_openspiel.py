"""External-sampling MCCFR side by side: Regalia's native solver against OpenSpiel's C++
``pyspiel.ExternalSamplingMCCFRSolver``, as information-set updates per second, in one run.

    python benches/cfr_openspiel.py --seconds 20

Counting: an information-set update is one decision node visited by a traversal (one table
lookup and one update). Regalia counts them itself (``Mccfr.updates``). OpenSpiel's C++ solver
does not expose a count, so its rate is its iterations per second times the mean number of
decision nodes an iteration visits, measured with OpenSpiel's Python ``ExternalSamplingSolver``
(the same algorithm; its table lookups counted) over the same game.
"""

from __future__ import annotations

import argparse
import platform
import time
from typing import Any

import pyspiel
from open_spiel.python.algorithms import external_sampling_mccfr as python_es

import regalia
from regalia import _core


def openspiel_rate(name: str, seconds: float) -> tuple[int, float, float]:
    """(C++ iterations, mean visits per iteration, updates per second) for ``name``."""
    game = pyspiel.load_game(name)

    class Counting(python_es.ExternalSamplingSolver):  # type: ignore[misc]
        visits = 0

        def _lookup_infostate_info(self, *args: Any) -> Any:
            Counting.visits += 1
            return super()._lookup_infostate_info(*args)

    counting = Counting(game)
    sample = 200
    for _ in range(sample):
        counting.iteration()
    per_iteration = Counting.visits / sample
    solver = pyspiel.ExternalSamplingMCCFRSolver(game, seed=1)
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            solver.run_iteration()
        done += 100
    took = time.perf_counter() - start
    return done, per_iteration, done * per_iteration / took


def regalia_rate(name: str, options: dict[str, Any], seconds: float) -> tuple[int, float, float]:
    """(iterations, mean updates per iteration, updates per second) of Regalia's solver."""
    run = _core.Mccfr(regalia.make(name, **options), "external", 1)
    start = time.perf_counter()
    run.run(10**12, seconds)
    took = time.perf_counter() - start
    return run.iterations, run.updates / max(run.iterations, 1), run.updates / took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    print(f"# {platform.machine()}, Python {platform.python_version()}, {args.seconds:g} s each")
    print("\n| solver | game | iterations | updates per iteration | updates/s |\n|---|---|---|---|---|")
    for game in ("kuhn_poker", "leduc_poker"):
        it, per, rate = openspiel_rate(game, args.seconds)
        print(f"| OpenSpiel C++ | {game} | {it} | {per:.1f} | {rate:,.0f} |")
    tiny = {"dragon_deck": [1, 0], "dragons_to_win": 1, "max_rounds": 2}
    it, per, rate = regalia_rate("duo-regna", tiny, args.seconds)
    print(f"| Regalia | duo-regna {tiny} | {it} | {per:.1f} | {rate:,.0f} |")


if __name__ == "__main__":
    main()
