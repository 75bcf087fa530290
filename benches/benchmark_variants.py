"""Measures the benchmark variants (``regalia.theory.benchmarks``) and stores the numbers the
library reports for them: each tree's size, the game value of seat 0 (CFR+'s average
policy's, with the best-response values that bracket it) and CFR+'s exploitability.

    python benches/benchmark_variants.py                       # every benchmark
    python benches/benchmark_variants.py --only regine-two-suits --cfr-iterations 500

Writes ``python/regalia/data/benchmarks.json`` (entries not measured in this run are kept),
each entry with the fingerprint of the options it was measured on, the seconds each part
took, the date and the machine.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from datetime import datetime, timezone
from typing import Any

import regalia
from regalia import cfr, exact
from regalia.theory.benchmarks import DATA_PATH, Benchmark, benchmarks


def measure(bench: Benchmark, iterations: int) -> dict[str, Any]:
    """One benchmark's stored entry."""
    game = bench.make()
    started = time.perf_counter()
    tree = exact.game_tree(game, 100_000_000)
    walk = time.perf_counter() - started
    started = time.perf_counter()
    policy = cfr.solve(game, method="cfr+", iterations=iterations, max_histories=100_000_000, progress=False)
    solved = time.perf_counter() - started
    worth = exact.exploitability(game, policy, 100_000_000)
    _, seats, counts, _ = tree.information_sets()
    return {
        "name": bench.name,
        "game": bench.game,
        "fingerprint": bench.fingerprint,
        "histories": tree.histories,
        "decision_nodes": tree.decision_nodes,
        "information_sets": len(tree),
        "choices_per_seat": [int(((seats == s) & (counts > 1)).sum()) for s in range(game.num_players)],
        # The game value of seat 0 lies between what seat 0 gets against a best response to its
        # equilibrium part and what its best response gets: -BR[1] <= v <= BR[0] (two seats, zero-sum).
        "value": worth.policy_values[0],
        "value_low": -worth.best_response_values[1],
        "value_high": worth.best_response_values[0],
        "cfr_plus_iterations": iterations,
        "cfr_plus_exploitability": worth.exploitability,
        "walk_seconds": round(walk, 2),
        "cfr_plus_seconds": round(solved, 2),
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.machine()}, {platform.python_implementation()} {platform.python_version()}, "
        f"regalia {regalia.__version__}",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", nargs="*", help="only these benchmarks")
    parser.add_argument("--cfr-iterations", type=int, default=1000)
    args = parser.parse_args()
    stored = json.loads(DATA_PATH.read_text())["benchmarks"] if DATA_PATH.is_file() else []
    entries = {e["name"]: e for e in stored}
    for bench in benchmarks():
        if args.only and bench.name not in args.only:
            continue
        print(bench.name, file=sys.stderr, flush=True)
        entries[bench.name] = measure(bench, args.cfr_iterations)
        order = [b.name for b in benchmarks() if b.name in entries]
        data = {
            "about": "written by python benches/benchmark_variants.py; do not edit by hand",
            "benchmarks": [entries[n] for n in order],
        }
        DATA_PATH.write_text(json.dumps(data, indent=1) + "\n")  # kept after every benchmark


if __name__ == "__main__":
    main()
