"""How fast the Duo Regna rule-based player (``rules``) plays: the planner's construction
(``regalia._core.DuoRegnaPlanner``, which finds the race model's capture chances once a
process), its first call at a hand's start, then whole games of ``rules`` against ``random``
(seeds ``seed`` to ``seed + games - 1``, seats alternating) with every call of
``solver.against_uniform`` timed.

    python benches/rules_speed.py --games 20 --seed 1

Prints one line per measure, wall clock and the process's CPU time (the machine is shared:
CPU time is the steadier number under load), and the load average. Steps are both seats'
decisions (``len(record.actions)``).
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from typing import Any

import regalia
from regalia import _core
from regalia.theory import solver


def timed(what: str, run: Callable[[], Any]) -> Any:
    """Run ``run`` once and print its wall clock and CPU time."""
    wall, cpu = time.perf_counter(), time.process_time()
    out = run()
    print(f"{what}: {time.perf_counter() - wall:.3f} s wall, {time.process_time() - cpu:.3f} s CPU")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")

    game = regalia.make("duo-regna")
    state = game.new_state(seed=args.seed)
    planner = timed("planner construction", lambda: _core.DuoRegnaPlanner(game.options))
    timed("first call (a hand's start)", lambda: planner.card_values(state.observation(state.current_player)))

    calls: list[float] = []
    plan = solver.against_uniform

    def counted(observation: dict[str, Any], options: dict[str, Any] | None = None) -> dict[int, float]:
        start = time.perf_counter()
        out = plan(observation, options)
        calls.append(time.perf_counter() - start)
        return out

    solver.against_uniform = counted  # the rules player looks it up on the module at each call
    steps = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(args.games):
        agents = ["rules", "random"] if i % 2 == 0 else ["random", "rules"]
        steps += len(regalia.play("duo-regna", agents, seed=args.seed + i).actions)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"{args.games} games: {steps} steps in {wall:.3f} s wall ({cpu:.3f} s CPU), {steps / wall:,.0f} steps/s")
    mean = sum(calls) / len(calls)
    print(f"against_uniform: {len(calls)} calls, {mean * 1e3:.3f} ms mean, {max(calls) * 1e3:.1f} ms at most (wall)")


if __name__ == "__main__":
    main()
