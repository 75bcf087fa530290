"""How strong each agent is: the gauntlets, tournaments and policy evaluations behind the
results pages' tables, each a named panel that reruns them with the arguments it was measured
with and writes its table's data file.

    python benches/strength.py --list                        # the panels
    python benches/strength.py rules-panel                   # run one, print its table
    nice -n 10 python benches/strength.py rules-panel --write   # and write docs/results/data/rules-panel.json
    python benches/strength.py rules-panel --games 4 --write /tmp/data   # a quick try, 4 games a row

A panel's name is its data file's (``docs/results/data/NAME.json``); ``--write [DIR]`` writes
it (``benches/results_data.py``; the default DIR is the committed data), and ``python
benches/docs_tables.py`` then rewrites the page. ``--games N`` plays N games in every row
instead of the recorded numbers (a try of the pipeline, not a measurement: it is refused with
``--write`` into the committed data); ``--workers`` plays the matches in that many processes (the results do not
depend on it). Gauntlets are ``regalia.gauntlet`` (seats rotating on the same deals); a share
counts a draw one half; "(0.65)" after a share is the one-sided 99% lower bound (the two-sided
98% Wilson interval's low end). The policies' evaluations play the exported policy on the native
batch (``benches/evaluate_policy.py``'s ``evaluate``: half the games from each seat).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import regalia  # noqa: E402
from regalia.core.policy_file import load_policy  # noqa: E402
from regalia.matches.gauntlet import PANEL, GauntletResult, GauntletRow, gauntlet  # noqa: E402
from results_data import DATA, Provenance, add_write_option, markdown, record, write  # noqa: E402
from train_policy import evaluate, share  # noqa: E402

ROOT = HERE.parent
#: The panel's opponents as the tables' columns name them.
PANEL_NAMES = ["random", "first-legal", "last-legal", "order 1", "order 2", "order 3", "rules"]
#: The five games as the tables name them, with the options of the two-player panels (Duo: one round).
FIVE: list[tuple[str, str, dict[str, Any]]] = [
    ("Duo Regna", "duo-regna", {"players": 2}),
    ("Duo", "duo", {"players": 2, "rounds": 1}),
    ("Duell der Drachen", "duell-der-drachen", {"players": 2}),
    ("Regine", "regine", {"players": 2}),
    ("Regnum", "regnum", {"players": 2}),
]
#: The games with four seats, at their defaults (Duo: the full game).
FOUR: list[tuple[str, str]] = [("Duo (full game)", "duo"), ("Regine", "regine"), ("Regnum", "regnum")]


@dataclass
class Table:
    """A panel's result: its columns and rows, and what the data file adds."""

    columns: list[Any]
    rows: list[list[Any]]
    extra: dict[str, Any]


@dataclass
class Run:
    """How a panel is run: ``games`` overrides the games of every row when given."""

    games: int | None
    workers: int

    def n(self, games: int) -> int:
        return games if self.games is None else self.games

    def gauntlet(self, game: Any, agent: str, games: int, seed: int, **kw: Any) -> GauntletResult:
        """``regalia.gauntlet`` at ``games`` (or the override), progress on stderr."""
        start = time.perf_counter()
        result = gauntlet(game, agent, games=self.n(games), seed=seed, workers=self.workers, progress=False, **kw)
        name = game if isinstance(game, str) else game.name
        print(f"  {name}, {agent}: {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
        return result


def lower(r: GauntletRow) -> str:
    """``share (lower bound)``: ``0.82 (0.65)``."""
    return f"{r.share:.2f} ({r.low:.2f})"


def percent(share: float) -> str:
    """A share as the pages write it: one decimal, but 100% as such."""
    return "100%" if share >= 0.9995 else f"{100 * share:.1f}%"


def seat_share(s: float) -> str:
    """A seat's share as the four-seat tables write it: ``1.0``, ``0.8``, ``0.75``, ``0.03``."""
    text = f"{s:.2f}".rstrip("0")
    return text + "0" if text.endswith(".") else text


def ms(result: GauntletResult) -> float:
    return 1000 * (result.seconds_per_decision or 0.0)


# The panels.


def rules_panel(run: Run) -> Table:
    """``rules`` against the panel in each game, 40 games per opponent, seed 11."""
    rows = []
    for title, name, options in FIVE:
        result = run.gauntlet(regalia.make(name, **options), "rules", 40, 11, confidence=0.98)
        rows.append([title, f"{ms(result):.1f}", *[lower(r) for r in result.rows]])
    command = 'regalia.gauntlet(game, "rules", games=40, seed=11, confidence=0.98); Duo is one round'
    return Table(["game", "ms a decision", *PANEL_NAMES], rows, {"runs": command})


def ismcts_panel(run: Run) -> Table:
    """Plain ``ismcts`` against the panel, 20 games per opponent, seed 11: points (lower bound)."""
    rows = []
    for title, name, options in FIVE:
        result = run.gauntlet(regalia.make(name, **options), "ismcts", 20, 11, confidence=0.98)
        rows.append([title, f"{ms(result):.1f}", *[f"{r.points:g} ({r.low:.2f})" for r in result.rows]])
    command = 'regalia.gauntlet(game, "ismcts", games=20, seed=11, confidence=0.98); Duo is one round'
    return Table(["game", "ms a decision", *PANEL_NAMES], rows, {"runs": command})


def four_players(run: Run, agent: str) -> list[list[Any]]:
    rows = []
    for title, name in FOUR:
        result = run.gauntlet(regalia.make(name, players=4), agent, 40, 11, confidence=0.98)
        cells = [f"{lower(r)}; {' '.join(seat_share(s) for s in r.seat_shares)}" for r in result.rows]
        timing = [f"{ms(result):.0f} ms"] if agent == "best" else []
        rows.append([title, *timing, *cells])
    return rows


def rules_four_players(run: Run) -> Table:
    """``rules`` with three copies of each panel opponent, 40 games (10 a seat), seed 11:
    share (lower bound); the share from each seat."""
    command = 'regalia.gauntlet(regalia.make(game, players=4), "rules", games=40, seed=11, confidence=0.98)'
    return Table(["game", *PANEL_NAMES], four_players(run, "rules"), {"runs": command})


def best_four_players(run: Run) -> Table:
    """``best`` the same way, with its time a decision."""
    command = 'regalia.gauntlet(regalia.make(game, players=4), "best", games=40, seed=11, confidence=0.98)'
    return Table(["game", "time a decision", *PANEL_NAMES], four_players(run, "best"), {"runs": command})


#: best-four-players-160's rows: (game's title, game, agent, opponent, seed).
FOUR_160 = [
    ("Regine", "regine", "best", "rules", 11),
    ("Regine", "regine", "best", "first-legal", 11),
    ("Regnum", "regnum", "best", "rules", 11),
    ("Regnum", "regnum", "best", "first-legal", 11),
    ("Duo (full game)", "duo", "best", "rules", 11),
    ("Duo", "duo", "best", "rules", 12),
    ("Duo", "duo", "best", "first-legal", 11),
    ("Duo", "duo", "best", "first-legal", 12),
    ("Duo", "duo", "best", "rules", 13),
    ("Duo", "duo", "best", "first-legal", 13),
    ("Duo, `rollout`", "duo", "best:opponents=rollout", "rules", 11),
    ("Duo, `rollout`", "duo", "best:opponents=rollout", "first-legal", 11),
    ("Duo, `rollout`", "duo", "best:opponents=rollout", "first-legal", 12),
]


def best_four_players_160(run: Run) -> Table:
    """``best`` with three copies of one opponent, 160 games (40 a seat): points, share with
    its two-sided 99% interval, the share from each seat."""
    rows = []
    for title, name, agent, opponent, seed in FOUR_160:
        r = run.gauntlet(regalia.make(name, players=4), agent, 160, seed, opponents=[opponent], timing=False).rows[0]
        rows.append(
            [
                title,
                f"three `{opponent}`",
                str(seed),
                f"{r.points:g}",
                f"{r.share:.2f} ({r.low:.2f}–{r.high:.2f})",
                " ".join(f"{s:.2f}" for s in r.seat_shares),
            ]
        )
    columns = [
        "game",
        "opponents",
        "seed",
        f"points of {run.n(160)}",
        "share (99% interval)",
        "share from seat 0, 1, 2, 3",
    ]
    command = "regalia.gauntlet(regalia.make(GAME, players=4), AGENT, games=160, seed=SEED, opponents=[OPPONENT])"
    return Table(columns, rows, {"runs": command})


#: rules-more-games' rows: (game's title, game, options, opponent, its column's name, games, seed, line).
MORE_GAMES: list[tuple[str, str, dict[str, Any], str, str, int, int, str]] = [
    ("Duell der Drachen", "duell-der-drachen", {}, "first-legal", "first-legal", 200, 11, "0.60"),
    ("Regine", "regine", {}, "fixed-order:order=2", "order 2", 200, 11, "0.60"),
    ("Regnum", "regnum", {}, "first-legal", "first-legal", 100, 7, "0.60"),
    ("Duo, full game (`rounds=0`)", "duo", {"rounds": 0}, "first-legal", "first-legal", 300, 11, "0.50"),
    ("Duo Regna", "duo-regna", {}, "random", "random", 1000, 11, "0.60"),
    ("Duo Regna", "duo-regna", {}, "random", "random", 1000, 7, "0.60"),
]


def rules_more_games(run: Run) -> Table:
    """``rules`` over more games where 40 left its line (the share the tests ask) in doubt."""
    rows = []
    for title, name, options, opponent, shown, games, seed, line in MORE_GAMES:
        game = regalia.make(name, players=2, **options)
        r = run.gauntlet(game, "rules", games, seed, opponents=[opponent], confidence=0.98, timing=False).rows[0]
        rows.append([title, shown, f"{r.points:g} of {r.games} (seed {seed})", lower(r), line])
    columns = ["game", "opponent", "points", "share (one-sided 99% lower bound)", "line"]
    command = 'regalia.gauntlet(game, "rules", games=N, seed=S, opponents=[OPPONENT], confidence=0.98)'
    return Table(columns, rows, {"runs": command})


def solver_exploit(run: Run) -> Table:
    """Duo Regna's equilibrium (``solver``) and ``best`` (it, exploiting safely) against the
    panel and the equilibrium, 100 games each, seed 7: points/games (lower bound)."""
    rows = []
    for title, agent in [("the equilibrium (`solver`)", "solver"), ("safe exploitation (`best`)", "best")]:
        result = run.gauntlet("duo-regna", agent, 100, 7, opponents=[*PANEL, "solver"], confidence=0.98, timing=False)
        rows.append([title, *[f"{r.points:g}/{r.games} ({r.low:.2f})" for r in result.rows]])
    command = 'regalia.gauntlet("duo-regna", AGENT, games=100, seed=7, opponents=[*PANEL, "solver"], confidence=0.98)'
    return Table(["`best` in Duo Regna against", *PANEL_NAMES, "solver"], rows, {"runs": command})


def policy_gauntlet(policy: str) -> Callable[[Run], Table]:
    def panel(run: Run) -> Table:
        """An exported policy against the panel in Duo Regna, 200 games, seed 0: its share
        with the two-sided 99% interval (bold under 10%)."""
        result = run.gauntlet("duo-regna", f"policy:path={ROOT / policy}", 200, 0, timing=False)
        cells: list[Any] = []
        for r in result.rows:
            shown = f"**{percent(r.share)}**" if r.share < 0.1 else percent(r.share)
            cells.append(f"{shown} ({percent(r.low)[:-1]}–{percent(r.high)[:-1]})")
        command = f"regalia gauntlet duo-regna --agent policy:path={policy} -n 200 --seed 0"
        return Table(list(PANEL_NAMES), [cells], {"runs": command})

    return panel


def threads_strength(run: Run) -> Table:
    """``best`` with twice the iterations on two threads against itself on one, 100 games, seed 5."""
    rows = []
    for title, name, n in [("Duo", "duo", 3000), ("Regine", "regine", 1000), ("Regnum", "regnum", 1000)] + [
        ("Duell der Drachen", "duell-der-drachen", 20000)
    ]:
        agents = {"two": f"best:iterations={2 * n}:threads=2", "one": f"best:iterations={n}:threads=1"}
        game = regalia.make(name, players=2)
        result = regalia.tournament(game, agents, games=run.n(100), seed=5, workers=run.workers, confidence=0.99)
        two = result.standing("two")
        rows.append(
            [title, f"{n:,}".replace(",", " "), f"{two.wins} of {two.games}", f"{two.win_low:.2f}–{two.win_high:.2f}"]
        )
    command = (
        "regalia tournament GAME --agents best:iterations=2N:threads=2,best:iterations=N:threads=1 -n 100 --seed 5"
    )
    return Table(["game", "iterations (1 thread)", "two threads' games won", "99% interval"], rows, {"runs": command})


#: search-belief's rows: (game's title, game, players, options, iterations, particles, the
#: opponent as the table names it, the opponent, games, seed). Every game has explicit chance.
BELIEF: list[tuple[str, str, int, dict[str, Any], int, int, str, str, int, int]] = [
    ("Duo, one round (`rounds=1`)", "duo", 2, {"rounds": 1}, 500, 32, "plain", "", 200, 33),
    ("Duo, one round", "duo", 2, {"rounds": 1}, 500, 32, "`rules`", "rules", 200, 33),
    ("Duo, one round", "duo", 2, {"rounds": 1}, 500, 32, "`rules`", "rules", 200, 34),
    ("Duo, one round", "duo", 2, {"rounds": 1}, 3000, 64, "`rules`", "rules", 200, 35),
    ("Duo, full game", "duo", 2, {}, 1000, 64, "`rules`", "rules", 40, 33),
    ("Duo, full game", "duo", 2, {}, 1000, 64, "`rules`", "rules", 40, 34),
    ("Duo, 4 players, one round", "duo", 4, {"rounds": 1}, 500, 32, "three `rules`", "rules", 80, 33),
    ("Duo, 4 players, one round", "duo", 4, {"rounds": 1}, 500, 32, "three `first-legal`", "first-legal", 80, 33),
    ("Duo, 4 players, one round", "duo", 4, {"rounds": 1}, 500, 64, "three `rules`", "rules", 160, 34),
    ("Duo, 4 players, one round", "duo", 4, {"rounds": 1}, 500, 64, "three `first-legal`", "first-legal", 160, 34),
    ("Duell der Drachen", "duell-der-drachen", 2, {}, 2000, 32, "plain", "", 100, 33),
    ("Duell der Drachen", "duell-der-drachen", 2, {}, 2000, 32, "`rules`", "rules", 100, 33),
    ("Regine (`uniform`: its model is uniform)", "regine", 2, {}, 1000, 64, "plain", "", 40, 33),
    ("Regine (`uniform`)", "regine", 2, {}, 1000, 64, "`rules`", "rules", 40, 33),
    ("Regnum (`uniform`: its model is uniform)", "regnum", 2, {}, 1000, 64, "plain", "", 100, 33),
    ("Regnum (`uniform`)", "regnum", 2, {}, 1000, 64, "`rules`", "rules", 100, 33),
]


def two_digits(x: float) -> str:
    return f"{x:.0f}" if x >= 10 else f"{x:.1f}"


def belief_cell(r: GauntletRow, players: int) -> str:
    """``points (share, low–high)``, and with more than two seats the share from each."""
    text = f"{r.points:g} ({r.share:.1%}, {100 * r.low:.1f}–{100 * r.high:.1f}"
    if players > 2:
        text += "; by seat " + " ".join(f"{100 * s:.0f}" for s in r.seat_shares)
    return text + ")"


def search_belief(run: Run) -> Table:
    """Belief-weighted ISMCTS (``belief=rollout``) against plain determinization and against
    fixed players, and the plain search on the same deals: points (share, 99% interval)."""
    rows = []
    for title, name, players, options, iterations, particles, shown, opponent, games, seed in BELIEF:
        game = regalia.make(name, players=players, chance="explicit", **options)
        plain = f"ismcts:iterations={iterations}"
        agent = f"{plain}:belief=rollout:particles={particles}"
        against = opponent or plain

        belief = run.gauntlet(game, agent, games, seed, opponents=[against])
        times = [two_digits(ms(belief))]
        compared = "—"
        if opponent:
            other = run.gauntlet(game, plain, games, seed, opponents=[against])
            compared = belief_cell(other.rows[0], players)
            times.append(two_digits(ms(other)))
        opponent_shown = f"plain `{plain}`" if not opponent else shown
        what = f"`iterations={iterations}`, {particles} particles"
        mine = belief_cell(belief.rows[0], players)
        rows.append([title, what, opponent_shown, f"{run.n(games)}, {seed}", mine, compared, " / ".join(times)])
    columns = ["game (2 players unless said)", "agent (`ismcts:`)", "opponent", "games, seed", "belief (`rollout`)"]
    columns += ["plain", "ms a decision (belief / plain)"]
    command = 'regalia.gauntlet(regalia.make(GAME, chance="explicit", ...), AGENT, opponents=[OPPONENT], ...)'
    return Table(columns, rows, {"runs": command})


# Exported policies on the native batch.


@dataclass
class Against:
    """One row of a policy's evaluation: the row's label, the opponent, its games."""

    label: str
    opponent: str
    games: int = 1000


def counted(counts: dict[str, int]) -> dict[str, float]:
    return record(counts["wins"], counts["draws"], counts["losses"])


EVAL_COLUMNS: list[Any] = [
    {"name": "games"},
    {"name": "won-drawn-lost", "format": "wdl"},
    {"name": "share of the points, 99% interval", "format": "share-interval"},
]


def policy_eval(policy: str, rows: list[Against], sample: bool = False) -> Callable[[Run], Table]:
    def panel(run: Run) -> Table:
        """An exported policy against each opponent, seed 2026 (greedy unless sampled)."""
        net = load_policy(ROOT / policy)
        out = []
        for row in rows:
            counts = evaluate(net, net.game, row.opponent, run.n(row.games), 2026, sample=sample, **net.options)
            print(f"  {row.opponent}: {share(counts):.1%}", file=sys.stderr, flush=True)
            out.append([row.label, sum(counts.values()), counted(counts), counted(counts)])
        how = "sampled" if sample else "greedy"
        columns = [{"name": f"`{Path(policy).name}` ({how}) against"}, *EVAL_COLUMNS]
        flag = " --sample" if sample else ""
        command = f"python benches/evaluate_policy.py {policy}{flag} --opponent OPPONENT --games GAMES --seed 2026"
        return Table(columns, out, {"runs": command})

    return panel


def random_policy_eval(run: Run) -> Table:
    """``duo-regna-random.npz`` against ``random``, ``rules`` and the equilibrium, and against
    ``random`` in a ``regalia.tournament`` of 1,000 games from seed 0 (other deals)."""
    policy = "docs/learning/duo-regna-random.npz"
    rows = [Against("`random` (seed 2026)", "random"), Against("`rules`", "rules")]
    table = policy_eval(policy, [*rows, Against("`solver` (the equilibrium)", "solver")])(run)
    result = regalia.tournament(
        "duo-regna", {"policy": f"policy:path={ROOT / policy}", "random": "random"}, games=run.n(1000), seed=0
    )
    mine = result.standing("policy")
    games = mine.wins + mine.draws + mine.losses
    outcome = record(mine.wins, mine.draws, mine.losses)
    table.rows.insert(1, ["`random` (`regalia tournament`, seed 0)", games, outcome, outcome])
    return table


def orders(net: Any, run: Run, sample: bool) -> dict[int, dict[str, int]]:
    """The counts against each of the fixed orders 1 to 40, 1,000 games each."""
    out = {}
    for k in range(1, 41):
        out[k] = evaluate(net, net.game, f"fixed-order:order={k}", run.n(1000), 2026, sample=sample, **net.options)
    print(f"  orders 1-40: {share(sum_counts(out.values())):.1%}", file=sys.stderr, flush=True)
    return out


def sum_counts(many: Any) -> dict[str, int]:
    many = list(many)
    return {key: sum(c[key] for c in many) for key in ("wins", "draws", "losses")}


def equilibrium_eval(run: Run) -> Table:
    """``duo-regna-equilibrium.npz``, sampled, against the panel's kinds, the equilibrium and
    the 40 fixed orders (together, the worst and the best)."""
    policy = "docs/learning/duo-regna-equilibrium.npz"
    panel = [Against(f"`{o}`", o) for o in ("random", "first-legal", "last-legal", "rules")]
    table = policy_eval(policy, [*panel, Against("`solver` (the equilibrium)", "solver")], sample=True)(run)
    per = orders(load_policy(ROOT / policy), run, sample=True)
    worst = min(per, key=lambda k: share(per[k]))
    best = max(per, key=lambda k: share(per[k]))
    total = sum_counts(per.values())
    for label, counts in [
        ("`fixed-order:order=1` … `=40` together", total),
        (f"the worst of them, `fixed-order:order={worst}`", per[worst]),
        (f"the best of them, `fixed-order:order={best}`", per[best]),
    ]:
        table.rows.append([label, sum(counts.values()), counted(counts), counted(counts)])
    return table


def pool_orders(run: Run) -> Table:
    """``duo-regna-pool.npz``, greedy, against the 40 fixed orders, 1,000 games each: the
    panel's orders 1 and 3, the five it does worst against (bold under 5%), its best, and all
    together."""
    net = load_policy(ROOT / "docs/learning/duo-regna-pool.npz")
    per = orders(net, run, sample=False)
    worst = sorted(per, key=lambda k: share(per[k]))[:5]
    best = max(per, key=lambda k: share(per[k]))
    rows = []
    for k in sorted({1, 3, *worst}):
        cell: dict[str, Any] = counted(per[k])
        if share(per[k]) < 0.05:
            cell = {**cell, "bold": True}
        rows.append([f"`fixed-order:order={k}`", cell])
    rows.append([f"`fixed-order:order={best}` (its best)", counted(per[best])])
    total = sum_counts(per.values())
    rows.append([f"the 40 orders together ({sum(total.values()):,} games)", counted(total)])
    columns = [
        {"name": "`duo-regna-pool.npz` (greedy) against"},
        {"name": "share of the points, 99% interval", "format": "share-interval"},
    ]
    command = (
        'python benches/evaluate_policy.py docs/learning/duo-regna-pool.npz --opponent "" --orders 1-40 --games 1000 '
        "--seed 2026"
    )
    return Table(columns, rows, {"runs": command})


POOL = "docs/learning/duo-regna-pool.npz"
#: The panels by their data files' names: what each runs, and its page.
PANELS: dict[str, Callable[[Run], Table]] = {
    "rules-panel": rules_panel,
    "rules-four-players": rules_four_players,
    "rules-more-games": rules_more_games,
    "ismcts-panel": ismcts_panel,
    "best-four-players": best_four_players,
    "best-four-players-160": best_four_players_160,
    "solver-exploit": solver_exploit,
    "search-threads-strength": threads_strength,
    "search-belief": search_belief,
    "learning-random-gauntlet": policy_gauntlet("docs/learning/duo-regna-random.npz"),
    "learning-pool-gauntlet": policy_gauntlet(POOL),
    "learning-random-eval": random_policy_eval,
    "learning-pool-eval": policy_eval(
        POOL,
        [
            Against("`random`", "random", 10_000),
            Against("`first-legal`", "first-legal"),
            Against("`last-legal`", "last-legal"),
            *[Against(f"`fixed-order:order={k}` (unseen)", f"fixed-order:order={k}") for k in (1, 2, 3)],
            Against("`solver` (the equilibrium)", "solver"),
            Against("`rules`", "rules"),
        ],
    ),
    "learning-equilibrium-eval": equilibrium_eval,
    "learning-pool-orders": pool_orders,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("panels", nargs="*", help="the panels to run (their data files' names)")
    parser.add_argument("--list", action="store_true", help="list the panels and stop")
    parser.add_argument("--games", type=int, default=None, help="N games in every row (a quick try)")
    parser.add_argument("--workers", type=int, default=1, help="processes the matches are played in")
    add_write_option(parser)
    args = parser.parse_args(argv)
    unknown = [p for p in args.panels if p not in PANELS]
    if args.list or not args.panels or unknown:
        if unknown:
            print(f"unknown panels: {', '.join(unknown)}", file=sys.stderr)
        for name, panel in PANELS.items():
            print(f"{name}: {' '.join((panel.__doc__ or '').split(chr(10) * 2)[0].split())}")
        return 1 if unknown else 0
    if args.games is not None and args.write is not None and args.write.resolve() == DATA.resolve():
        parser.error("--games is a quick try: write it elsewhere (--write DIR), not over the committed data")
    run = Run(args.games, args.workers)
    for name in args.panels:
        print(name, file=sys.stderr, flush=True)
        provenance = Provenance(None if argv is None else [str(HERE / "strength.py"), *argv])
        table = PANELS[name](run)
        print(f"\n{name}:\n{markdown(table.columns, table.rows)}")
        if args.write is not None:
            write(args.write, name, table.columns, table.rows, provenance, **table.extra)
    return 0


if __name__ == "__main__":
    sys.exit(main())
