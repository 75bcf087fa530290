"""``regalia gauntlet GAME --agent SPEC``: one agent against the panel of simple opponents
(random play, fixed orders, the rule-based player), with its share of the points against
each and a 99% interval (``regalia.matches.gauntlet``)."""

from __future__ import annotations

from typing import Annotated

import typer

import regalia
from regalia.cli import exits
from regalia.cli.console import emit_json, screen
from regalia.cli.params import GameArg, JsonOpt, NoColorOpt, OptionOpt
from regalia.cli.players import check_seats, make_game, parse_options, parse_seats
from regalia.core.errors import RegaliaError
from regalia.table.seating import HUMAN

EXAMPLES = [
    "regalia gauntlet duo --agent rules -n 40",
    "regalia gauntlet regine --agent ismcts:iterations=500 -n 24 --workers 2",
    "regalia gauntlet duo-regna --agent best --json > gauntlet.json",
]


def gauntlet(
    game: GameArg,
    agent: Annotated[str, typer.Option("--agent", "-a", metavar="SPEC", help="the agent, options after colons")],
    games: Annotated[int, typer.Option("--games", "-n", min=1, metavar="N", help="games against each opponent")] = 24,
    seed: Annotated[int, typer.Option(min=0, metavar="SEED", help="the gauntlet's seed")] = 0,
    option: OptionOpt = None,
    workers: Annotated[int, typer.Option(min=1, metavar="N", help="processes playing games at once")] = 1,
    as_json: JsonOpt = False,
    no_color: NoColorOpt = False,
) -> None:
    """Test an agent against random play, fixed strategies (first legal, last legal, three
    fixed orders of the actions) and the rule-based player, from every seat.

    Prints the agent's share of the points against each (a win 1, a shared win 1/k) with a
    99% confidence interval and its share from each seat, and its time per decision; with
    more than two players it sits with copies of the opponent. --json prints the same as data.
    """
    names = parse_seats(agent)
    if len(names) != 1 or HUMAN in names:
        exits.fail(f"--agent takes one built-in agent, got {agent!r}", exits.USAGE)
    g = make_game(game, parse_options(option))
    check_seats(names, g.name)
    try:
        bar = screen().err.is_terminal
        result = regalia.gauntlet(g, names[0], games=games, seed=seed, workers=workers, progress=bar)
    except RegaliaError as e:
        exits.fail(str(e))
    if as_json:
        emit_json(result.to_dict())
        return
    screen().out.print(result.table(plain=screen().plain))
