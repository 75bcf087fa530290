"""Measures trajectory datasets: games per second of ``regalia.simulate(out=...)`` for random
and ``rules`` agents, here, on local processes and on a local Ray, and the bytes per step of
each game's Parquet and Arrow files. Prints the tables of docs/performance.md.

    python benches/datasets_report.py                  # about five minutes on 2 cores
    python benches/datasets_report.py --random 4000 --rules 200 --no-ray
    python benches/datasets_report.py --random 10000 --rules 400 --sizes 500 --write

Wall-clock times of whole runs (starting a local Ray is not counted: it is started once).
``--write [DIR]`` also writes the two tables' data files, perf-datasets-rates and
perf-datasets-bytes (``benches/results_data.py``; DIR defaults to docs/results/data), from
which ``python benches/docs_tables.py`` rewrites docs/performance.md's tables.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import regalia
from regalia.matches.executors import Executor, LocalExecutor, RayExecutor

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results_data import Provenance, add_write_option, write  # noqa: E402


def run(game: str, agents: list[str] | None, games: int, executor: Executor, suffix: str = ".parquet") -> Any:
    """One run into a fresh file: (games per second, steps per second, bytes per step)."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "games" + suffix)
        start = time.perf_counter()
        result = regalia.simulate(game, agents, games=games, seed=1, out=out, executor=executor, progress=False)
        seconds = time.perf_counter() - start
        return games / seconds, result.rows / seconds, os.path.getsize(out) / result.rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--random", type=int, default=20000, help="random games per run (duo-regna)")
    parser.add_argument("--rules", type=int, default=1000, help="rules-agent games per run (duo-regna)")
    parser.add_argument("--sizes", type=int, default=1000, help="random games per game for the sizes table")
    parser.add_argument("--no-ray", action="store_true", help="skip the Ray rows")
    add_write_option(parser)
    args = parser.parse_args()
    provenance = Provenance()

    print(f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} logical cores, ", end="")
    print(f"load average {os.getloadavg()[0]:.1f}; Python {platform.python_version()}, regalia {regalia.__version__}\n")

    rates_header = ["agents", "games", "where", "games/s", "steps/s"]
    print("| " + " | ".join(rates_header) + " |\n" + "|---" * len(rates_header) + "|")
    rates: list[list[str]] = []
    setups: list[tuple[str, Any]] = [("this process", LocalExecutor(1)), ("2 local processes", LocalExecutor(2))]
    ray_executor = None
    if not args.no_ray:
        import ray

        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
        ray_executor = RayExecutor()
        setups.append(("local Ray, 2 workers", ray_executor))
    for agents, games in ((None, args.random), (["rules", "rules"], args.rules)):
        label = "random (native)" if agents is None else "rules vs rules"
        for where, executor in setups:
            rate, steps, _ = run("duo-regna", agents, games, executor)
            rates.append([label, f"{games:,}", where, f"{rate:,.0f}", f"{steps / 1e3:,.0f} k"])
            print("| " + " | ".join(rates[-1]) + " |", flush=True)
    if ray_executor is not None:
        import ray

        ray.shutdown()

    sizes_header = ["game", "observation floats", "steps/game", "bytes/step: Parquet", "Arrow", "steps/s: Parquet"]
    sizes_header.append("Arrow")
    print("\n| " + " | ".join(sizes_header) + " |\n" + "|---" * len(sizes_header) + "|")
    sizes: list[list[str]] = []
    for info in regalia.games():
        game = regalia.make(info["name"])
        size = 1
        for d in game.observation_shape:
            size *= d
        _, p_steps, p_bytes = run(info["name"], None, args.sizes, LocalExecutor(1))
        rate, a_steps, a_bytes = run(info["name"], None, args.sizes, LocalExecutor(1), ".arrow")
        sizes.append(
            [
                info["name"],
                str(size),
                f"{a_steps / rate:.0f}",
                f"{p_bytes:.1f}",
                f"{a_bytes:.1f}",
                f"{p_steps / 1e3:,.0f} k",
                f"{a_steps / 1e3:,.0f} k",
            ]
        )
        print("| " + " | ".join(sizes[-1]) + " |", flush=True)
    if args.write is not None:
        write(args.write, "perf-datasets-rates", rates_header, rates, provenance)
        write(args.write, "perf-datasets-bytes", sizes_header, sizes, provenance)


if __name__ == "__main__":
    main()
