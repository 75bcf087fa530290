"""``regalia simulate GAME -n N``: many games between bots, with progress and a summary."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

import regalia
from regalia.cli import exits
from regalia.cli.console import emit_json, screen
from regalia.cli.params import GameArg, JsonOpt, NoColorOpt, OptionOpt, SeatsOpt
from regalia.cli.players import HUMAN, make_game, parse_options, parse_seats
from regalia.errors import RegaliaError

EXAMPLES = [
    "regalia simulate duo-regna -n 1000                 # random against random",
    "regalia simulate duo-regna -n 200 --seats rules,random --seed 7",
    "regalia simulate duo -n 100 --seats random*4 --json > summary.json",
]


@dataclass
class SeatSummary:
    """One seat's results over the run."""

    seat: int
    agent: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    total_return: float = 0.0
    total_score: int = 0


@dataclass
class Summary:
    """The whole run: games, moves, time, and each seat's results."""

    game: str
    options: dict[str, Any]
    seed: int
    games: int
    seats: list[SeatSummary]
    moves: int = 0
    seconds: float = 0.0

    def add(self, returns: list[float], scores: list[int], moves: int) -> None:
        """Counts one finished game (a win is the only highest return)."""
        self.moves += moves
        best = max(returns)
        for row, ret, score in zip(self.seats, returns, scores):
            row.total_return += ret
            row.total_score += score
            if ret < best:
                row.losses += 1
            elif returns.count(best) == 1:
                row.wins += 1
            else:
                row.draws += 1

    def as_json(self) -> dict[str, Any]:
        """Plain data, with the means worked out."""
        n = max(self.games, 1)
        seats = [
            {**asdict(r), "win_rate": r.wins / n, "mean_return": r.total_return / n, "mean_score": r.total_score / n}
            for r in self.seats
        ]
        return {
            "game": self.game,
            "options": self.options,
            "seed": self.seed,
            "games": self.games,
            "mean_moves": self.moves / n,
            "seconds": round(self.seconds, 3),
            "seats": seats,
        }


def simulate(
    game: GameArg,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="how many games")] = 100,
    seats: SeatsOpt = None,
    seed: Annotated[int, typer.Option(min=0, help="game i is played with seed SEED+i")] = 0,
    option: OptionOpt = None,
    as_json: JsonOpt = False,
    no_color: NoColorOpt = False,
) -> None:
    """Play many games between bots (random by default) and sum them up per seat.

    Game i is regalia.play(GAME, SEATS, seed=SEED+i): see any one of them again with
    regalia play GAME --seats ... --seed SEED+i --record FILE, then regalia replay FILE.
    """
    names = parse_seats(seats) if seats else None
    if names and HUMAN in names:
        exits.fail("simulate is for bots only; to play, use: regalia play", exits.USAGE)
    g = make_game(game, parse_options(option), len(names) if names else None)
    names = names or ["random"] * g.num_players
    summary = Summary(g.name, g.options, seed, games, [SeatSummary(i, n) for i, n in enumerate(names)])
    start = time.perf_counter()
    with _progress() as bar:
        task = bar.add_task(f"{g.name}: {' vs '.join(names)}", total=games)
        for i in range(games):
            try:
                record = regalia.play(g, names, seed=seed + i)
            except RegaliaError as e:
                exits.fail(f"game {i} (seed {seed + i}): {e}")
            summary.add(record.returns, record.scores, len(record.actions))
            bar.advance(task)
    summary.seconds = time.perf_counter() - start
    if as_json:
        emit_json(summary.as_json())
        return
    screen().out.print(_table(summary, g.title))


def _progress() -> Progress:
    """A progress bar on stderr (it draws only on a terminal)."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=screen().err,
        transient=True,
        disable=not screen().err.is_terminal,
    )


def _table(summary: Summary, title: str) -> Table:
    data = summary.as_json()
    table = screen().table(
        title=f"{title}: {summary.games} games, seeds {summary.seed} to {summary.seed + summary.games - 1}",
        caption=f"{data['mean_moves']:.1f} moves a game, {summary.games / max(summary.seconds, 1e-9):.0f} games/s",
        title_justify="left",
    )
    for column in ("seat", "agent", "wins", "draws", "losses", "win rate", "mean return", "mean score"):
        table.add_column(column, justify="left" if column == "agent" else "right")
    for row in data["seats"]:
        table.add_row(
            str(row["seat"]),
            row["agent"],
            str(row["wins"]),
            str(row["draws"]),
            str(row["losses"]),
            f"{row['win_rate']:.1%}",
            f"{row['mean_return']:+.3f}",
            f"{row['mean_score']:.2f}",
        )
    return table
