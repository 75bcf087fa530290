"""Runs every benchmark in one go and prints one Markdown table of rates and ratios (the one
in docs/performance.md).

    python benches/report.py                 # run the benchmarks, then print the tables
    python benches/report.py --json DIR      # print the tables of an earlier run saved in DIR
    python benches/report.py -k duo-regna    # only some benchmarks (pytest's -k)
    python benches/report.py --write         # and write the tables' data (docs/results/data/perf-*.json)

``--write [DIR]`` also writes each table's data file (``benches/results_data.py``; DIR defaults
to docs/results/data): perf-python-playouts, perf-native-playouts, perf-vector-env,
perf-per-call and perf-targets; ``python benches/docs_tables.py`` then rewrites
docs/performance.md's tables.

Each benchmark records what it counts (``extra_info``: ``key``, ``count``, ``unit``); a rate
is ``count / time`` with the *fastest* round's time. Two pytest-benchmark sessions run back to
back: every benchmark timed in CPU time of the process (``time.process_time``: fair on a
machine shared with other work, since time spent waiting for a core is not counted), then
the thread-scaling ones (native playouts, VectorEnv) in wall-clock time, which alone can show
what a second thread gains, with the per-call ones (shorter than the CPU-time clock's own
cost). Ratios are of rates measured in the same session.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from results_data import Provenance, add_write_option, write  # noqa: E402
from workloads import GAMES, VECTOR_SIZES, openspiel_pair  # noqa: E402

TARGETS = {
    "loop_vs_reference": 30.0,
    "loop_vs_openspiel": 2.5,
    "native_vs_openspiel": 10.0,
    "native_vs_reference": 500.0,
    "vector_2t_vs_1t": 1.8,
}


def run_benchmarks(out: Path, timer: str, select: str | None) -> None:
    """Runs ``pytest benches`` once with ``timer``, writing pytest-benchmark's JSON to ``out``."""
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        str(HERE),
        "-q",
        "-p",
        "no:cacheprovider",
        "--benchmark-only",
        "--benchmark-min-rounds=5",
        "--benchmark-max-time=0.5",
        "--benchmark-disable-gc",
        f"--benchmark-timer={timer}",
        f"--benchmark-json={out}",
    ]
    if select:
        cmd += ["-k", select]
    # numpy's BLAS threads would otherwise spin and be counted in the process's CPU time.
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)


#: The benchmarks timed again on the wall clock: the thread-scaling ones (what a second thread
#: gains) and the per-call ones (too short for the CPU-time clock, which costs a system call).
WALL = "test_native_random_playouts or (test_vector_env_steps and not new_arrays) or test_bench_state"


def rates(data: dict[str, Any]) -> dict[str, float]:
    """``key -> count per second`` (per call for the per-call benchmarks: seconds per call)."""
    out: dict[str, float] = {}
    for b in data["benchmarks"]:
        info = b.get("extra_info", {})
        if "key" in info:
            out[info["key"]] = info["count"] / b["stats"]["min"]
    return out


def fmt_rate(x: float | None) -> str:
    if x is None:
        return "–"
    for unit, div in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= div:
            return f"{x / div:.3g} {unit}"
    return f"{x:.3g}"


def fmt_ratio(a: float | None, b: float | None) -> str:
    return "–" if a is None or b is None else f"{a / b:.3g}×"


def fmt_ns(per_second: float | None) -> str:
    return "–" if per_second is None else f"{1e9 / per_second:,.0f}"


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        load = f", load average {os.getloadavg()[0]:.1f}"
    except OSError:
        load = ""
    return f"{cpu}, {os.cpu_count()} logical cores{load}; Python {platform.python_version()}, {platform.system()}"


#: A table of the report: its header and rows, by its data file's name.
Tables = dict[str, tuple[list[str], list[list[str]]]]


def report(cpu: dict[str, Any], wall: dict[str, Any], tables: Tables | None = None) -> str:
    """The report's text; its tables go into ``tables`` too, by their data files' names."""
    tables = {} if tables is None else tables
    r = rates(cpu)
    w = rates(wall)
    get = r.get
    games = [g for g in GAMES if any(k.split("/")[1] == g for k in r)]
    parts = [
        f"Machine: {machine()}.",
        "",
        "CPU time of the process, except where the table says wall clock.",
        "",
    ]

    parts.append("### Random playouts through the Python API (steps/s)\n")
    rows = []
    for g in games:
        spec = openspiel_pair(g)
        ext, ref, osp = get(f"loop/{g}/rust"), get(f"loop/{g}/reference"), get(f"loop/{g}/openspiel")
        floor = get(f"loop/{g}/floor")
        rows.append(
            [
                g,
                fmt_rate(ext),
                fmt_rate(ref),
                fmt_ratio(ext, ref),
                fmt_rate(floor),
                fmt_ratio(floor, ref),
                spec or "–",
                fmt_rate(osp),
                fmt_ratio(ext, osp),
            ]
        )
    header = ["game", "extension", "reference", "× reference", "empty loop", "× reference at most"]
    header += ["OpenSpiel game", "OpenSpiel", "× OpenSpiel"]
    tables["perf-python-playouts"] = header, rows
    parts.append(table(header, rows))

    parts.append("\n### Native random playouts (steps/s)\n")
    rows = []
    for g in games:
        one, ref, osp = get(f"native/{g}/rust-1t"), get(f"native/{g}/reference"), get(f"native/{g}/openspiel")
        one_w, two_w = w.get(f"native/{g}/rust-1t"), w.get(f"native/{g}/rust-2t")
        rows.append(
            [
                g,
                fmt_rate(one),
                fmt_rate(ref),
                fmt_ratio(one, ref),
                fmt_rate(osp),
                fmt_ratio(one, osp),
                f"{fmt_rate(one_w)} / {fmt_rate(two_w)} ({fmt_ratio(two_w, one_w)})",
            ]
        )
    header = ["game", "1 thread", "reference loop", "× reference", "OpenSpiel C++", "× OpenSpiel"]
    header.append("wall clock: 1 / 2 threads")
    tables["perf-native-playouts"] = header, rows
    parts.append(table(header, rows))

    big = max(VECTOR_SIZES)
    parts.append("\n### VectorEnv (steps/s, `copy=False`; 1 thread, then wall clock 1 / 2 threads)\n")
    rows = []
    for g in games:
        row = [g]
        for n in VECTOR_SIZES:
            one, one_w, two_w = get(f"vector/{g}/{n}/1t"), w.get(f"vector/{g}/{n}/1t"), w.get(f"vector/{g}/{n}/2t")
            row.append(f"{fmt_rate(one)}; {fmt_rate(one_w)} / {fmt_rate(two_w)} ({fmt_ratio(two_w, one_w)})")
        row.append(fmt_rate(get(f"vector/{g}/{big}/1t-copy")))
        rows.append(row)
    header = ["game", *[f"N = {n}" for n in VECTOR_SIZES], f"N = {big}, new arrays"]
    tables["perf-vector-env"] = header, rows
    parts.append(table(header, rows))

    parts.append("\n### Per call through the Python API (ns, wall clock; extension / reference)\n")
    ops = ["legal_actions", "legal_action_mask", "apply", "clone", "observation_tensor", "observation_tensor_out"]
    rows = []
    for g in games:
        rows.append([g] + [f"{fmt_ns(w.get(f'{op}/{g}/rust'))} / {fmt_ns(w.get(f'{op}/{g}/reference'))}" for op in ops])
    tables["perf-per-call"] = ["game", *ops], rows
    parts.append(table(["game", *ops], rows))

    parts.append("\n### Targets\n")
    rows = []

    def target(what: str, name: str, value: float | None) -> None:
        goal = TARGETS[name]
        shown = "–" if value is None else f"{value:.3g}×"
        verdict = "–" if value is None else ("met" if value >= goal else "missed")
        rows.append([what, f"≥ {goal:g}×", shown, verdict])

    def ratio(a: str, b: str, source: dict[str, float] = r) -> float | None:
        x, y = source.get(a), source.get(b)
        return None if x is None or y is None else x / y

    for g in games:
        target(f"{g}: Python loop vs reference", "loop_vs_reference", ratio(f"loop/{g}/rust", f"loop/{g}/reference"))
        if openspiel_pair(g):
            target(
                f"{g}: Python loop vs OpenSpiel's Python loop",
                "loop_vs_openspiel",
                ratio(f"loop/{g}/rust", f"loop/{g}/openspiel"),
            )
            target(
                f"{g}: native vs OpenSpiel's C++ loop",
                "native_vs_openspiel",
                ratio(f"native/{g}/rust-1t", f"native/{g}/openspiel"),
            )
        native_ref = ratio(f"native/{g}/rust-1t", f"native/{g}/reference")
        target(f"{g}: native vs the reference", "native_vs_reference", native_ref)
        target(
            f"{g}: VectorEnv N = {big}, 2 threads vs 1",
            "vector_2t_vs_1t",
            ratio(f"vector/{g}/{big}/2t", f"vector/{g}/{big}/1t", w),
        )
    tables["perf-targets"] = ["target", "goal", "measured", ""], rows
    parts.append(table(["target", "goal", "measured", ""], rows))
    return "\n".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", type=Path, help="read cpu.json and wall.json from this folder instead of running")
    parser.add_argument("--save", type=Path, help="keep the run's cpu.json and wall.json in this folder")
    parser.add_argument("-k", help="only the benchmarks matching this pytest -k expression")
    add_write_option(parser)
    args = parser.parse_args()
    provenance = Provenance()
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.json or args.save or Path(tmp)
        if not args.json:
            folder.mkdir(parents=True, exist_ok=True)
            run_benchmarks(folder / "cpu.json", "time.process_time", args.k)
            wall = f"({WALL}) and ({args.k})" if args.k else WALL
            run_benchmarks(folder / "wall.json", "time.perf_counter", wall)
        cpu = json.loads((folder / "cpu.json").read_text())
        wall = json.loads((folder / "wall.json").read_text())
    if args.json:  # the run was earlier: its date and machine are pytest-benchmark's
        info = cpu.get("machine_info", {})
        provenance.date = cpu.get("datetime", "an earlier run")
        brand = info.get("cpu", {}).get("brand_raw", info.get("machine", "?"))
        provenance.elsewhere = f"{brand}; Python {info.get('python_version', '?')}, {info.get('system', '?')}"
    tables: Tables = {}
    print(report(cpu, wall, tables))
    if args.write is not None:
        for name, (header, rows) in tables.items():
            write(args.write, name, header, rows, provenance)


if __name__ == "__main__":
    main()
