"""External-sampling MCCFR side by side: Regalia's native solver against OpenSpiel's C++
``pyspiel.ExternalSamplingMCCFRSolver``, as information-set updates per second, in one run.

    python benches/cfr_openspiel.py --seconds 10 --rounds 3
    python benches/cfr_openspiel.py --seconds 5 --rounds 3 --write

``--write [DIR]`` also writes the table's data file, cfr-speed (``benches/results_data.py``;
DIR defaults to docs/results/data), from which ``python benches/docs_tables.py`` rewrites
docs/results/exploitability.md's table.

Counting, the same for both: an information-set update is one decision node visited by a
traversal (one lookup of the regret table and one update: of regrets at the updating seat's
nodes, of the average strategy at the others'); chance nodes and ends are not counted. Each
iteration runs one traversal per seat, on both sides. Regalia counts its visits itself
(``Mccfr.updates``). OpenSpiel's C++ solver exposes no count, so its updates are its
iterations times the mean number of decision nodes an iteration visits, counted on
OpenSpiel's Python ``ExternalSamplingSolver`` (the same algorithm; its table lookups counted)
over the same game: exact for goofspiel (no chance: every iteration visits as many nodes),
a sample mean with its standard error for the poker games.

Time is the process's CPU time (``time.process_time``), so that other work on a shared
machine slows neither side's rate; wall-clock rates are printed too. The solvers take turns
for ``--rounds`` rounds of ``--seconds`` each (CPU seconds), so that a change in the
machine's load falls on both.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import importlib.util
import os
import platform
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyspiel
from open_spiel.python.algorithms import external_sampling_mccfr as python_es

import regalia
from regalia import _core

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results_data import Provenance, add_write_option, write  # noqa: E402

#: OpenSpiel's games: poker with chance, goofspiel without (points in descending order).
OPENSPIEL = {
    "kuhn_poker": "kuhn_poker",
    "leduc_poker": "leduc_poker",
    "goofspiel 5 cards": "turn_based_simultaneous_game(game=goofspiel("
    "num_cards=5,imp_info=True,points_order=descending))",
}


def _regnum_card_set() -> dict[str, Any]:
    """Regnum's small card set of ``benches/regnum_small_variant.py`` (the King, the Queen and
    six characters; 20 green cards, two castles, three standards)."""
    path = Path(__file__).resolve().parent / "regnum_small_variant.py"
    spec = importlib.util.spec_from_file_location("regnum_small_variant", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    card_set: dict[str, Any] = module.small_card_set()
    return card_set


#: Regalia's small variants (``chance="explicit"`` ones sample chance node by node, as
#: OpenSpiel does; the others sample a deal per iteration).
REGALIA: dict[str, tuple[str, dict[str, Any]]] = {
    "Duo Regna, one dragon, 2 rounds": ("duo-regna", {"dragon_deck": [1, 0], "dragons_to_win": 1, "max_rounds": 2}),
    "Duo Regna, dragons [1,1], 3 rounds, explicit": (
        "duo-regna",
        {"dragon_deck": [1, 1], "dragons_to_win": 2, "max_rounds": 3, "chance": "explicit"},
    ),
    "Regine, 9 cards, one suit, explicit": (
        "regine",
        {"players": 2, "build_phase": False, "max_rounds": 1, "deck": [3, 0, 0, 0, 0, 0, 3, 3], "suits": 1}
        | {"chance": "explicit"},
    ),
    "Regine, 9 cards, two suits, explicit": (
        "regine",
        {"players": 2, "build_phase": False, "max_rounds": 1, "deck": [3, 0, 0, 0, 0, 0, 3, 3], "suits": 2}
        | {"chance": "explicit"},
    ),
    "Duo, 6 cards, explicit": (
        "duo",
        {"players": 2, "rounds": 1, "colours": 1, "numbers": 1, "shapes": 2, "hand_size": 1, "chance": "explicit"},
    ),
    "Duell der Drachen, 2 territories, values 1-2, explicit": (
        "duell-der-drachen",
        {"territories": 2, "values": 2, "hand_size": 1, "cards_per_side": 1, "face_down_limit": 1}
        | {"chance": "explicit"},
    ),
    "Regnum, 8 characters, one turn, explicit": (
        "regnum",
        {"card_set": _regnum_card_set(), "max_turns": 1, "chance": "explicit"},
    ),
}
#: CPU seconds of OpenSpiel's Python solver that count a poker game's visits per iteration.
COUNT_SECONDS = 20.0


@dataclass
class Tally:
    """What one solver did on one game over all rounds."""

    iterations: int = 0
    updates: float = 0.0
    cpu: float = 0.0
    wall: float = 0.0
    notes: list[str] = field(default_factory=list)


def visits_per_iteration(game: Any, seconds: float = COUNT_SECONDS) -> tuple[float, float, int, int]:
    """(mean decision nodes an iteration visits, its standard error, iterations counted,
    information sets met) of OpenSpiel's Python external sampling on ``game``."""

    class Counting(python_es.ExternalSamplingSolver):  # type: ignore[misc]
        visits = 0

        def _lookup_infostate_info(self, *args: Any) -> Any:
            Counting.visits += 1
            return super()._lookup_infostate_info(*args)

    counting = Counting(game)
    per: list[int] = []
    start = time.process_time()
    while time.process_time() - start < seconds or len(per) < 10:
        before = Counting.visits
        counting.iteration()
        per.append(Counting.visits - before)
    error = statistics.stdev(per) / len(per) ** 0.5
    return statistics.fmean(per), error, len(per), len(counting._infostates)


def openspiel_round(solver: Any, seconds: float, tally: Tally, per_iteration: float) -> None:
    """Runs ``solver`` for ``seconds`` of CPU time."""
    done, cpu, wall = 0, time.process_time(), time.perf_counter()
    while time.process_time() - cpu < seconds:
        for _ in range(50):
            solver.run_iteration()
        done += 50
    tally.iterations += done
    tally.updates += done * per_iteration
    tally.cpu += time.process_time() - cpu
    tally.wall += time.perf_counter() - wall


def regalia_round(run: Any, seconds: float, tally: Tally) -> None:
    """Runs ``run`` for about ``seconds`` of CPU time (in slices, as its budget is wall time)."""
    updates, done = run.updates, run.iterations
    cpu, wall = time.process_time(), time.perf_counter()
    while time.process_time() - cpu < seconds:
        run.run(10**12, min(0.5, seconds))
    tally.iterations += run.iterations - done
    tally.updates += run.updates - updates
    tally.cpu += time.process_time() - cpu
    tally.wall += time.perf_counter() - wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0, help="CPU seconds per solver, game and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--count-seconds", type=float, default=COUNT_SECONDS, help="CPU seconds counting a poker game's visits"
    )
    add_write_option(parser)
    args = parser.parse_args()
    provenance = Provenance()
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(
        f"# {now}, {platform.machine()}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}, "
        f"Python {platform.python_version()}, OpenSpiel {importlib.metadata.version('open_spiel')}, "
        f"seed {args.seed}, {args.rounds} rounds of {args.seconds:g} CPU s each"
    )
    games = {label: pyspiel.load_game(name) for label, name in OPENSPIEL.items()}
    counted = {label: visits_per_iteration(game, args.count_seconds) for label, game in games.items()}
    solvers = {label: pyspiel.ExternalSamplingMCCFRSolver(game, seed=args.seed) for label, game in games.items()}
    runs = {
        label: _core.Mccfr(regalia.make(name, **options), "external", args.seed)
        for label, (name, options) in REGALIA.items()
    }
    tallies = {label: Tally() for label in [*OPENSPIEL, *REGALIA]}
    for _ in range(args.rounds):
        for label, solver in solvers.items():
            openspiel_round(solver, args.seconds, tallies[label], counted[label][0])
        for label, run in runs.items():
            regalia_round(run, args.seconds, tallies[label])
    load = os.getloadavg()[0]
    print(f"# load average at the end {load:.1f}\n")
    print(
        "| solver | game | information sets | updates per iteration | iterations | updates/s (CPU) | updates/s (wall) |"
    )
    print("|---|---|---|---|---|---|---|")
    rates = {label: tallies[label].updates / tallies[label].cpu for label in tallies}
    best = max(rates[label] for label in OPENSPIEL)
    rows: list[list[str]] = []
    for label in OPENSPIEL:
        t, (per, error, n, infosets) = tallies[label], counted[label]
        exact = "" if error == 0 else f" ± {error:.2f} ({n:,} counted)"
        print(
            f"| OpenSpiel C++ | {label} | {infosets:,} (met while counting) | {per:.2f}{exact} | {t.iterations:,} "
            f"| {rates[label]:,.0f} | {t.updates / t.wall:,.0f} |"
        )
        shown = f"{per:.2f}" + ("" if error == 0 else f" ± {error:.2f}")
        leduc = f"{rates[label] / rates['leduc_poker']:.1f}×"
        rows.append(
            ["OpenSpiel C++", f"`{label}`", f"{infosets:,} (met while counting)", shown, f"{rates[label]:,.0f}", leduc]
        )
    for label, run in runs.items():
        t, rate = tallies[label], rates[label]
        print(
            f"| Regalia | {label} | {len(run):,} | {t.updates / max(t.iterations, 1):.2f} | {t.iterations:,} "
            f"| {rate:,.0f} ({rate / rates['leduc_poker']:.1f}× leduc, {rate / best:.1f}× OpenSpiel's fastest) "
            f"| {t.updates / t.wall:,.0f} |"
        )
        per_iteration = f"{t.updates / max(t.iterations, 1):.2f}"
        leduc = f"{rate / rates['leduc_poker']:.1f}×"
        rows.append(["Regalia", label, f"{len(run):,}", per_iteration, f"{rate:,.0f}", leduc])
    if args.write is not None:
        header = ["solver", "game", "information sets", "updates per iteration", "updates/s (CPU)", "against leduc"]
        write(args.write, "cfr-speed", header, rows, provenance)


if __name__ == "__main__":
    main()
