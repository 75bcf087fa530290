"""``regalia simulate GAME -n N``: many games between bots, with progress and a summary, and
optionally every step written as a trajectory dataset (``regalia.simulate``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

import regalia
from regalia.cli.console import emit_json, screen
from regalia.cli.executors import RayAddressOpt, RayOpt, WorkersOpt, run_games
from regalia.cli.params import GameArg, JsonOpt, NoColorOpt, OptionOpt
from regalia.cli.players import bots_game
from regalia.matches.simulations import Simulation

EXAMPLES = [
    "regalia simulate duo-regna -n 1000                 # random against random",
    "regalia simulate duo-regna -n 200 --seats rules,random --seed 7",
    "regalia simulate duo -n 100 --seats random*4 --json > summary.json",
    "regalia simulate duo-regna -n 100000 --out games.parquet        # every step as a row",
    "regalia simulate duo-regna -n 2000 --agents rules,rules --out games.parquet --ray",
]

SeatsOrAgents = Annotated[
    str | None,
    typer.Option(
        "--seats",
        "--agents",
        "-s",
        metavar="SEATS",
        help="one agent per seat, comma-separated: a built-in agent; NAME*N repeats (random*4)",
        show_default=False,
    ),
]
OutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out",
        metavar="FILE",
        help="also write every step as a row of this file: Parquet, or Arrow IPC for a name ending in .arrow "
        '(needs pip install "regalia\\[parquet]")',
        dir_okay=False,
        show_default=False,
    ),
]


def simulate(
    game: GameArg,
    games: Annotated[int, typer.Option("--games", "-n", min=1, metavar="N", help="how many games")] = 100,
    seats: SeatsOrAgents = None,
    seed: Annotated[int, typer.Option(min=0, metavar="SEED", help="game i is played with seed SEED+i")] = 0,
    option: OptionOpt = None,
    out: OutOpt = None,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="replace the --out file if it exists")] = False,
    workers: WorkersOpt = 1,
    ray: RayOpt = False,
    ray_address: RayAddressOpt = None,
    as_json: JsonOpt = False,
    no_color: NoColorOpt = False,
) -> None:
    """Play many games between bots (random by default) and sum them up per seat.

    Game i is regalia.play(GAME, SEATS, seed=SEED+i): see any one of them again with
    regalia play GAME --seats ... --seed SEED+i --record FILE, then regalia replay FILE.
    With --out, every step is also written to a Parquet file (game, seed, step, seat,
    action and its name, legal mask, observation, final returns); there, random-only games
    are played natively, much faster, and each row carries its game's own seed.
    """
    g, names = bots_game("simulate", game, seats, option, lambda players: ["random"] * players)
    summary = run_games(
        regalia.simulate, ray, ray_address, workers, g, names, games=games, seed=seed, out=out, overwrite=overwrite
    )
    if as_json:
        emit_json(summary.as_json())
        return
    screen().out.print(_table(summary, g.title))
    if summary.out is not None:
        screen().say(f"wrote {summary.rows} steps of {summary.games} games to {summary.out}")


def _table(summary: Simulation, title: str) -> Table:
    data = summary.as_json()
    seeds = (
        f"native random games from seed {summary.seed}"
        if summary.native
        else f"seeds {summary.seed} to {summary.seed + summary.games - 1}"
    )
    table = screen().table(
        title=f"{title}: {summary.games} games, {seeds}",
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
