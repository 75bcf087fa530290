"""``regalia tournament GAME --agents A,B``: agents rotate through the seats; standings with
win rates, confidence intervals and Elo (``regalia.tournament``)."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.table import Table

import regalia
from regalia.cli.console import emit_json, screen
from regalia.cli.executors import RayAddressOpt, RayOpt, WorkersOpt, run_games
from regalia.cli.params import GameArg, JsonOpt, NoColorOpt, OptionOpt
from regalia.cli.players import bots_game, parse_seats

EXAMPLES = [
    "regalia tournament duo-regna --agents rules,random -n 200",
    "regalia tournament duo-regna --agents ismcts,rules -n 50 --workers 2",
    "regalia tournament duo --agents rules,random*3 -n 100 --json > standings.json",
    "regalia tournament duo-regna --agents ismcts,rules -n 10000 --ray-address HEAD:6379   # on a Ray cluster",
]


def tournament(
    game: GameArg,
    agents: Annotated[
        str,
        typer.Option(
            "--agents",
            "-a",
            metavar="AGENTS",
            help="one agent per seat, comma-separated (NAME*N repeats); seats rotate",
        ),
    ],
    games: Annotated[int, typer.Option("--games", "-n", min=1, metavar="N", help="how many games")] = 100,
    seed: Annotated[int, typer.Option(min=0, metavar="SEED", help="the tournament's seed")] = 0,
    option: OptionOpt = None,
    workers: WorkersOpt = 1,
    ray: RayOpt = False,
    ray_address: RayAddressOpt = None,
    as_json: JsonOpt = False,
    no_color: NoColorOpt = False,
) -> None:
    """Pit agents against each other: every agent gets every seat and the same deals.

    Prints each agent's games, wins, draws, losses, win rate with its 95% confidence
    interval, mean return and Elo. --json prints the standings and every game's record.
    The results are the same whatever --workers, and on Ray (--ray, --ray-address).
    """
    g, names = bots_game("a tournament", game, agents, option, lambda players: parse_seats(agents))
    result = run_games(regalia.tournament, ray, ray_address, workers, g, names, games=games, seed=seed)
    if as_json:
        emit_json(result.to_dict())
        return
    screen().out.print(_table(result))


def _table(result: Any) -> Table:
    """The standings, one row per agent, within 80 columns."""
    table = screen().table(
        title=f"{result.game}: {len(result.records)} games, seed {result.seed}, seats rotating",
        title_justify="left",
    )
    for column in ("agent", "games", "W-D-L", "win rate", f"{result.confidence:.0%} interval", "return", "Elo"):
        table.add_column(column, justify="left" if column == "agent" else "right")
    for row in result.standings:
        table.add_row(
            row.agent,
            str(row.games),
            f"{row.wins}-{row.draws}-{row.losses}",
            f"{row.win_rate:.1%}",
            f"{row.win_low:.1%} to {row.win_high:.1%}",
            f"{row.mean_return:+.3f}",
            f"{row.elo:.0f}",
        )
    return table
