"""Measures native MCCFR: information-set updates per second, and the memory of a run on full
Regine with four players (the process's peak RSS and the table's own bytes) after growing
numbers of iterations, to extrapolate to a million.

    python benches/cfr_report.py                        # a few minutes on 2 cores
    python benches/cfr_report.py --iterations 1000 3000 10000
    python benches/cfr_report.py --iterations 300 1000 3000 --seconds 10 --write

``--write [DIR]`` also writes the table's data file, cfr-memory (``benches/results_data.py``;
DIR defaults to docs/results/data), from which ``python benches/docs_tables.py`` rewrites
docs/results/exploitability.md's table.

An information-set update is one decision node visited by a traversal: one lookup of the
table and one update of its regrets or average weights (``policy.info["updates"]``).
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import sys
import time
from pathlib import Path

import regalia
from regalia import _core

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results_data import Provenance, add_write_option, write  # noqa: E402

#: The games as the table names them.
TITLES = {"duell-der-drachen": "Duell der Drachen", "duo-regna": "Duo Regna", "regine": "Regine"}


def peak_rss_mb() -> float:
    """The process's peak resident set so far, in MiB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def speed(name: str, options: dict[str, object], method: str, seconds: float) -> tuple[int, int, float]:
    """(iterations, updates, updates per second) of a run of about ``seconds``."""
    run = _core.Mccfr(regalia.make(name, **options), method, 1)
    start = time.perf_counter()
    run.run(10**12, seconds)
    took = time.perf_counter() - start
    return run.iterations, run.updates, run.updates / took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--iterations", type=int, nargs="+", default=[1000, 3000, 10000])
    parser.add_argument("--seconds", type=float, default=20.0)
    add_write_option(parser)
    args = parser.parse_args()
    provenance = Provenance()
    rows: list[list[str]] = []
    print(f"# {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print("\n| game | method | iterations | updates | updates/s |\n|---|---|---|---|---|")
    for name, options, method in [
        ("duell-der-drachen", {"values": 3, "hand_size": 2}, "external"),
        ("duo-regna", {"dragon_deck": [2, 1], "dragons_to_win": 2, "max_rounds": 6}, "external"),
        ("regine", {"players": 4}, "outcome"),
    ]:
        it, up, rate = speed(name, options, method, args.seconds)
        label = name + "".join(f" {k}={v}" for k, v in options.items())
        print(f"| {label} | {method} | {it} | {up} | {rate:,.0f} |", flush=True)
        shown = ", ".join(f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in options.items())
        regine = name == "regine" and options == {"players": 4}
        run_name = f"{method}, Regine 4 players" if regine else f"{method}, {TITLES[name]} `{shown}`"
        rows.append([run_name, f"{rate:,.0f} updates/s, {it:,} iterations in {args.seconds:g} s"])
    print(
        "\n| Regine 4p, outcome sampling: iterations | seconds | information sets | updates "
        "| table MiB | peak RSS MiB |"
    )
    print("|---|---|---|---|---|---|")
    run = _core.Mccfr(regalia.make("regine", players=4), "outcome", 1)
    start = time.perf_counter()
    grown: list[tuple[int, float, int, float, float]] = []
    for target in sorted(args.iterations):
        run.run(target - run.iterations)
        took = time.perf_counter() - start
        print(
            f"| {run.iterations} | {took:.1f} | {len(run)} | {run.updates} | {run.table_bytes / 2**20:.1f} "
            f"| {peak_rss_mb():.1f} |",
            flush=True,
        )
        grown.append((run.iterations, took, len(run), run.table_bytes / 2**20, peak_rss_mb()))
    if args.write is not None:

        def each(shown: str, i: int, scale: float = 1.0) -> str:
            return " / ".join(shown.format(g[i] / scale) for g in grown)

        memory = (
            f"{each('{:.2f}', 2, 1e6)} million information sets, table {each('{:.0f}', 3)} MiB (capacity, grown by "
            f"doubling), peak RSS {each('{:.0f}', 4)} MiB, {each('{:.0f}', 1)} s"
        )
        rows.append([f"outcome, Regine 4 players, {each('{:,.0f}', 0)} iterations", memory])
        write(args.write, "cfr-memory", ["run", "result"], rows, provenance)


if __name__ == "__main__":
    main()
