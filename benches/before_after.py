"""Instructions per step of the same workloads at two revisions, counted by callgrind.

A wall-clock benchmark on a machine shared with other work moves with that work's load; the
number of instructions a workload executes does not. So this compares two revisions by the
instructions (callgrind's ``Ir``) each spends per step, game by game:

    python benches/before_after.py                          # 93e2956 against HEAD
    python benches/before_after.py BEFORE AFTER             # any two revisions
    python benches/before_after.py --write                  # also docs/results/data/perf-before-after.json
    python benches/before_after.py -g duo -g regnum -w native-playouts
    python benches/before_after.py --cache DIR --jobs 1     # where builds live; one run at a time

Each revision is checked out once (``git worktree add --detach``) under the cache folder
(``--cache``, by default ``~/.cache/regalia/before-after``) and its extension built there
(``cargo build --release -p regalia-python``, niced, with a target folder of its own, so a
rerun only checks it); the library goes in as ``python/regalia/_core.abi3.so`` of that
checkout. A revision whose Rust sources, manifests and rules pages are those of one already
built reuses that library without building. Then every workload runs under each revision's
package (``PYTHONPATH=<checkout>/python``), through the public ``regalia.make``, under
``valgrind --tool=callgrind``:

- ``python-loop``: ``while not s.is_terminal: s.apply(rng.choice(s.legal_actions()))`` over
  the random games of seeds ``0..n-1`` (``rng = random.Random(seed)``, ``s =
  game.new_state(seed)``);
- ``native-playouts``: ``game.random_playouts(n, seed=0, threads=1)``, the engine's own
  random games (GIL released, no Python per step).

Games are made as ``benches/workloads.py`` makes them (Duo in single rounds, as in every
benchmark), and the Python loop is its ``python_loop``. Each workload runs at two
sizes, ``n`` and ``5 n`` games (``n`` is 40 for the Python loop and 400 for the native
playouts unless ``--loop-games`` or ``--native-games`` says otherwise), in separate
processes; the difference of the two counts over the difference of the steps is the cost of
a step, with the interpreter's start-up, the imports and any first-call work cancelled out.
What would make a count depend on time rather than work is left out or held still: Python's
hash seed is fixed, no bytecode is written during the counted runs (the checkout is compiled
and every workload run once beforehand), numpy's maths libraries get one thread (their idle
workers spin), and the native playouts count only the threads they play on (the calling
thread meanwhile wakes every 20 ms to look for Ctrl-C, as often as the machine's load makes
the run last: millions of instructions apart between two runs). Run twice, the Python loop's
counts differ by a few thousand instructions in a billion (about one per step, where a step
costs thousands) and the native playouts' not at all.

The counts say how much work a step does, not how long it takes: a change that trades
branches for arithmetic can do more instructions in less time (and a cache miss costs no more
instructions than a hit). Where the change is of that kind, time it too
(``benches/python_loop.py``, ``benches/report.py``) on a quiet machine.

The table gives, per game and workload, the instructions per step before and after and the
change; ``same games`` says whether both revisions played the very same number of steps
(a change in a game's rules or random draws would make them differ). ``--write [DIR]`` also
writes the table's data file, ``perf-before-after`` (``benches/results_data.py``), with the
two revisions, for ``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results_data import Provenance, add_write_option, write  # noqa: E402

BENCHES = Path(__file__).resolve().parent
REPO = BENCHES.parent
DEFAULT_BEFORE = "93e2956"
DEFAULT_CACHE = Path.home() / ".cache" / "regalia" / "before-after"
WORKLOADS = ("python-loop", "native-playouts")
#: Games of the smaller run of each workload; the larger run plays ``SCALE`` times as many.
DEFAULT_GAMES = {"python-loop": 40, "native-playouts": 400}
SCALE = 5
#: Thread pools of numpy's maths libraries, held to one thread in every run.
THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
#: What decides the built extension: a revision with the same entries builds the same library.
BUILD_INPUTS = ("rust", "Cargo.toml", "Cargo.lock", ".cargo", "docs/rules")

#: One measured run, in the revision's own package, of this checkout's workloads
#: (``benches/workloads.py``: the same games, options and loop for both revisions). Arguments:
#: the benches folder, game, workload, games. Prints the steps played as JSON. Where a
#: revision lacks ``threads=`` on ``random_playouts``, it is called without (the engine then
#: plays on one thread as well).
RUNNER = """
import json, sys
sys.path.insert(0, sys.argv[1])
from workloads import make, python_loop
name, workload, n = sys.argv[2], sys.argv[3], int(sys.argv[4])
game = make(name)
if workload == "python-loop":
    steps = python_loop(game, range(n))
elif workload == "native-playouts":
    try:
        stats = game.random_playouts(n, seed=0, threads=1)
    except TypeError:
        stats = game.random_playouts(n, seed=0)
    steps = stats["steps"]
else:
    raise SystemExit(f"unknown workload {workload}")
print(json.dumps({"steps": steps}))
"""

#: What a checkout's package offers, and where it was imported from (run without valgrind).
PROBE = """
import json, regalia, regalia._core as core
print(json.dumps({"games": [g["name"] for g in regalia.games()],
                  "package": regalia.__file__, "core": core.__file__}))
"""


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def git(*args: str, cwd: Path = REPO) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


@dataclass
class Revision:
    """One side of the comparison: the name given, its commit and its checkout."""

    name: str
    commit: str
    checkout: Path

    @property
    def python(self) -> Path:
        return self.checkout / "python"

    def describe(self) -> dict[str, str]:
        subject = git("log", "-1", "--format=%cI %s", self.commit)
        date, _, title = subject.partition(" ")
        return {"name": self.name, "commit": self.commit, "date": date, "subject": title}


def checkout(name: str, cache: Path) -> Revision:
    """The revision's detached worktree under ``cache/src``, added the first time."""
    commit = git("rev-parse", "--verify", f"{name}^{{commit}}")
    path = cache / "src" / commit
    if not (path / ".git").exists():
        git("worktree", "prune")
        path.parent.mkdir(parents=True, exist_ok=True)
        log(f"checking out {name} ({commit[:10]}) in {path}")
        git("worktree", "add", "--detach", str(path), commit)
    return Revision(name, commit, path)


def build_key(rev: Revision) -> str:
    """A digest of everything the extension is built from at this revision, and the compiler."""
    tree = git("ls-tree", "-r", rev.commit, "--", *BUILD_INPUTS)
    rustc = subprocess.run(["rustc", "-vV"], check=True, capture_output=True, text=True).stdout
    return hashlib.sha256((tree + rustc).encode()).hexdigest()[:20]


def build(rev: Revision, cache: Path) -> None:
    """Puts the revision's release extension in its checkout, building it if need be."""
    built = cache / "lib" / build_key(rev) / "lib_core.so"
    if not built.exists():
        target = cache / "target" / rev.commit
        env = {**os.environ, "CARGO_TARGET_DIR": str(target), "PYO3_PYTHON": sys.executable}
        log(f"building {rev.name} ({rev.commit[:10]}): cargo build --release, target {target}")
        subprocess.run(
            ["nice", "-n", "10", "cargo", "build", "--release", "-p", "regalia-python"],
            cwd=rev.checkout,
            env=env,
            check=True,
        )
        built.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(target / "release" / "lib_core.so", built)
    shutil.copy2(built, rev.python / "regalia" / "_core.abi3.so")


def run_env(rev: Revision, counted: bool) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(rev.python), "PYTHONHASHSEED": "0"}
    # numpy's BLAS starts worker threads on import that spin while idle: their instructions
    # depend on time, not on the work, and made counts differ by millions from run to run.
    env.update({var: "1" for var in THREAD_VARS})
    if counted:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def prepare(rev: Revision, games: list[str] | None) -> list[str]:
    """Compiles the checkout's package, checks that it is the one imported, warms every
    workload once without counting (so lazily imported modules are compiled too); returns the
    games the revision has."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(rev.python)], check=True)
    out = subprocess.run(
        [sys.executable, "-c", PROBE], env=run_env(rev, False), check=True, capture_output=True, text=True
    )
    probe = json.loads(out.stdout)
    for key in ("package", "core"):
        if not Path(probe[key]).resolve().is_relative_to(rev.python.resolve()):
            raise SystemExit(f"{rev.name}: regalia imported from {probe[key]}, not from {rev.python}")
    names = [g for g in probe["games"] if games is None or g in games]
    for name in names:
        for workload in WORKLOADS:
            subprocess.run(
                [sys.executable, "-c", RUNNER, str(BENCHES), name, workload, "1"],
                env=run_env(rev, False),
                check=True,
                capture_output=True,
            )
    return list(probe["games"])


def count(rev: Revision, name: str, workload: str, games: int, scratch: Path) -> tuple[int, int]:
    """Instructions and steps of one run of ``workload`` over ``games`` games, under callgrind."""
    out = scratch / f"{rev.commit[:12]}-{name}-{workload}-{games}.callgrind"
    cmd = [
        "nice",
        "-n",
        "10",
        "valgrind",
        "--tool=callgrind",
        "--separate-threads=yes",
        f"--callgrind-out-file={out}",
        sys.executable,
        "-c",
        RUNNER,
        str(BENCHES),
        name,
        workload,
        str(games),
    ]
    done = subprocess.run(cmd, env=run_env(rev, True), capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{rev.name} {name} {workload} {games}: failed\n{done.stderr[-3000:]}")
    steps = int(json.loads(done.stdout.strip().splitlines()[-1])["steps"])
    # One file per thread, OUT-01 for the main thread. The native playouts run on threads of
    # their own while the main thread waits and wakes every 20 ms to look for Ctrl-C: how often
    # it wakes depends on time (on the machine's load), not on the work, so for them only the
    # other threads count.
    per_thread = {}
    for file in out.parent.glob(f"{out.name}-*"):
        totals = [line for line in file.read_text().splitlines() if line.startswith(("totals:", "summary:"))]
        per_thread[int(file.name.rpartition("-")[2])] = int(totals[-1].split()[1])
        file.unlink()
    if workload == "native-playouts":
        if len(per_thread) < 2:
            raise SystemExit(f"{rev.name} {name}: the native playouts ran on no thread of their own")
        del per_thread[1]
    return sum(per_thread.values()), steps


def measure(
    revs: list[Revision], names: list[str], workloads: list[str], sizes: dict[str, int], jobs: int
) -> dict[tuple[str, str, str], tuple[float, int]]:
    """Instructions per step and steps counted, by (revision commit, game, workload)."""
    runs = [
        (rev, name, workload, games)
        for name in names
        for workload in workloads
        for rev in revs
        for games in (sizes[workload], SCALE * sizes[workload])
    ]
    counts: dict[tuple[str, str, str, int], tuple[int, int]] = {}
    with (
        tempfile.TemporaryDirectory(prefix="before-after-") as scratch,
        concurrent.futures.ThreadPoolExecutor(jobs) as pool,
    ):
        futures = {pool.submit(count, *run, Path(scratch)): run for run in runs}
        for i, future in enumerate(concurrent.futures.as_completed(futures), 1):
            rev, name, workload, games = futures[future]
            instructions, steps = counts[rev.commit, name, workload, games] = future.result()
            log(f"[{i}/{len(runs)}] {rev.name} {name} {workload}, {games} games: {instructions} Ir, {steps} steps")
    result = {}
    for rev in revs:
        for name in names:
            for workload in workloads:
                small, large = sizes[workload], SCALE * sizes[workload]
                (i0, s0), (i1, s1) = (
                    counts[rev.commit, name, workload, small],
                    counts[rev.commit, name, workload, large],
                )
                result[rev.commit, name, workload] = ((i1 - i0) / (s1 - s0), s1 - s0)
    return result


def table(rows: list[dict[str, Any]], before: Revision, after: Revision) -> str:
    head = f"{'game':<19} {'workload':<16} {'before':>10} {'after':>10} {'change':>8}  same games"
    lines = [
        f"instructions per step (callgrind Ir): before {before.name} ({before.commit[:10]}), "
        f"after {after.name} ({after.commit[:10]})",
        head,
        "-" * len(head),
    ]
    for r in rows:
        same = "yes" if r["steps"]["before"] == r["steps"]["after"] else "no"
        lines.append(
            f"{r['game']:<19} {r['workload']:<16} {r['before']:>10.1f} {r['after']:>10.1f} "
            f"{r['change_pct']:>+7.1f}%  {same}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", nargs="?", default=DEFAULT_BEFORE, help=f"default {DEFAULT_BEFORE}")
    parser.add_argument("after", nargs="?", default="HEAD", help="default HEAD")
    parser.add_argument("-g", "--game", action="append", help="only this game (repeatable)")
    parser.add_argument("-w", "--workload", action="append", choices=WORKLOADS, help="only this workload")
    parser.add_argument(
        "--loop-games", type=int, default=DEFAULT_GAMES["python-loop"], help="games of the smaller python-loop run"
    )
    parser.add_argument(
        "--native-games", type=int, default=DEFAULT_GAMES["native-playouts"], help="games of the smaller native run"
    )
    parser.add_argument(
        "--cache", type=Path, default=DEFAULT_CACHE, help=f"checkouts and builds (default {DEFAULT_CACHE})"
    )
    parser.add_argument("--jobs", type=int, default=2, help="callgrind runs at once (counts do not depend on it)")
    add_write_option(parser)
    args = parser.parse_args(argv)
    provenance = Provenance(argv)
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed")
    cache = args.cache.expanduser().resolve()
    revs = [checkout(args.before, cache), checkout(args.after, cache)]
    for rev in revs:
        build(rev, cache)
    offered = [prepare(rev, args.game) for rev in revs]
    names = [g for g in offered[1] if g in offered[0] and (args.game is None or g in args.game)]
    for rev, games, other in zip(revs, offered, offered[::-1]):
        if alone := [g for g in games if g not in other and (args.game is None or g in args.game)]:
            log(f"only in {rev.name}, not compared: {', '.join(alone)}")
    workloads = args.workload or list(WORKLOADS)
    sizes = {"python-loop": args.loop_games, "native-playouts": args.native_games}
    per_step = measure(revs, names, workloads, sizes, args.jobs)
    before, after = revs
    rows = []
    for name in names:
        for workload in workloads:
            (b, b_steps), (a, a_steps) = per_step[before.commit, name, workload], per_step[after.commit, name, workload]
            rows.append(
                {
                    "game": name,
                    "workload": workload,
                    "before": round(b, 1),
                    "after": round(a, 1),
                    "change_pct": round(100 * (a - b) / b, 2),
                    "steps": {"before": b_steps, "after": a_steps},
                }
            )
    print(table(rows, before, after))
    if args.write:
        columns = ["game", "workload", "before", "after", "change", "same games"]
        cells = [
            [
                r["game"],
                r["workload"],
                f"{r['before']:.1f}",
                f"{r['after']:.1f}",
                f"{r['change_pct']:+.1f}%",
                "yes" if r["steps"]["before"] == r["steps"]["after"] else "no",
            ]
            for r in rows
        ]
        revisions = {"before": before.describe(), "after": after.describe()}
        write(args.write, "perf-before-after", columns, cells, provenance, revisions=revisions)


if __name__ == "__main__":
    main()
