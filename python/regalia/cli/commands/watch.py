"""``regalia watch GAME``: bots play while you watch, move by move or at a pace."""

from __future__ import annotations

import secrets
from typing import Annotated

import typer

from regalia.cli import exits
from regalia.cli.console import screen
from regalia.cli.params import GameArg, NoColorOpt, OptionOpt, RecordOpt, SeatsOpt, SeedOpt, StepOpt
from regalia.cli.players import bots_game
from regalia.cli.records import write_record
from regalia.cli.report import result_table
from regalia.cli.show import Narrator, tell
from regalia.core.errors import RegaliaError
from regalia.table import Replay, Table
from regalia.table.seating import default_seats

EXAMPLES = [
    "regalia watch duo-regna                      # the strongest bots, a move a second",
    "regalia watch duo-regna --seats rules,random --step",
    "regalia watch duo --seats random*4 --delay 0 --view 0",
]


def watch(
    game: GameArg,
    seats: SeatsOpt = None,
    seed: SeedOpt = None,
    option: OptionOpt = None,
    delay: Annotated[
        float | None,
        typer.Option(
            min=0, metavar="SECONDS", help="seconds between moves (default: 1 on a terminal, 0 into a file or pipe)"
        ),
    ] = None,
    step: StepOpt = False,
    view: Annotated[
        int | None,
        typer.Option(
            min=0, metavar="SEAT", help="tell the game from this seat: its board, the others' moves as it sees them"
        ),
    ] = None,
    open_hands: Annotated[
        bool, typer.Option("--open", help="all hands shown: every seat's board and every move named (not with --view)")
    ] = False,
    record: RecordOpt = None,
    no_color: NoColorOpt = False,
) -> None:
    """Watch built-in agents play a game: each board, then the move chosen on it.

    The game is told from one seat (--view, seat 0 by default): its board, its own moves, and
    the others' moves as far as that seat sees them. With --open all hands are shown instead:
    every seat's board and every move by name.
    """
    g, names = bots_game("watch", game, seats, option, default_seats)
    if view is not None and view >= g.num_players:
        exits.fail(f"there is no seat {view}: seats are 0 to {g.num_players - 1}", exits.USAGE)
    if view is not None and open_hands:
        exits.fail("--view tells the game from one seat, --open shows all hands: choose one", exits.USAGE)
    seed = secrets.randbits(32) if seed is None else seed
    screen().say(f"{g.title}, seed {seed}: {', '.join(names)}", style="bold")
    if delay is None:
        delay = 1.0 if screen().out.is_terminal else 0.0
    seat = None if open_hands else (view or 0)
    narrator = Narrator(screen(), names, view=seat, delay=delay, step=step, options=g.options)
    screen().say(narrator.heading(), style="italic")
    try:
        with screen().err.status("the bots are playing..."):
            rec = Table(g, names, seed).finish()
    except RegaliaError as e:
        exits.fail(f"a bot failed: {e}")
    tell(Replay(rec, seat), narrator)
    screen().out.print(result_table(rec, g.title))
    if record is not None and not write_record(record, rec, lambda m: screen().say(m, err=True)):
        raise typer.Exit(exits.ERROR)
