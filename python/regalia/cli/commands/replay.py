"""``regalia replay FILE``: a recorded match (or a saved game) move by move."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

import regalia
from regalia.cli import exits
from regalia.cli.console import emit_json, screen
from regalia.cli.params import DelayOpt, JsonOpt, NoColorOpt, StepOpt
from regalia.cli.records import read_record
from regalia.cli.report import result_table
from regalia.cli.show import BrokenRecord, Narrator, walk
from regalia.core.errors import RegaliaError

EXAMPLES = [
    "regalia play duo-regna --seats rules,random --seed 4 --record game.json",
    "regalia replay game.json                     # every move, then the result",
    "regalia replay game.json --boards --view 1 --step",
    "regalia replay game.json --json | jq .moves[0]",
]


def replay(
    file: Annotated[
        Path,
        typer.Argument(metavar="FILE", help="a match record (play --record, play --json, save)", show_default=False),
    ],
    boards: Annotated[
        bool, typer.Option("--boards", help="show the board before every move (every seat's, without --view)")
    ] = False,
    view: Annotated[
        int | None,
        typer.Option(
            min=0, metavar="SEAT", help="tell the game from this seat (default: all hands shown, every move named)"
        ),
    ] = None,
    delay: DelayOpt = 0.0,
    step: StepOpt = False,
    as_json: JsonOpt = False,
    no_color: NoColorOpt = False,
) -> None:
    """Replay a recorded match: check that every move is legal, show them, and the result.

    All hands are shown (every move named, every seat's final board), unless --view tells the
    game from one seat: its board, its own moves, and the others' as far as it sees them.
    """
    rec = read_record(file)
    try:
        game = regalia.make(rec.game, **rec.options)
    except RegaliaError as e:
        exits.fail(f"{file}: {e}")
    if len(rec.agents) != game.num_players:
        exits.fail(f"{file}: {len(rec.agents)} agents for {game.num_players} seats")
    if view is not None and view >= game.num_players:
        exits.fail(f"there is no seat {view}: seats are 0 to {game.num_players - 1}", exits.USAGE)
    options = dict(game.options)  # in force, defaults filled in: what the narration names
    narrator = Narrator(screen(), rec.agents, boards=boards, view=view, delay=delay, step=step, options=options)
    if not as_json:
        screen().say(narrator.heading(), style="italic")
    try:
        state, moves = walk(rec, None if as_json else narrator)
    except (RegaliaError, BrokenRecord) as e:
        exits.fail(f"{file}: {e}")
    if rec.returns and state.is_terminal and list(rec.returns) != state.returns():
        exits.fail(f"{file}: the recorded returns {rec.returns} are not the game's {state.returns()}")
    if as_json:
        emit_json(
            {
                "game": rec.game,
                "options": rec.options,
                "seed": rec.seed,
                "agents": rec.agents,
                "moves": moves,
                "finished": state.is_terminal,
                "returns": state.returns() if state.is_terminal else None,
                "scores": state.scores() if state.is_terminal else None,
            }
        )
        return
    narrator.final(state)
    if not state.is_terminal:
        screen().say(f"The game stops after {len(moves)} moves, unfinished; continue it with: regalia resume {file}")
        return
    rec.returns, rec.scores = state.returns(), state.scores()
    screen().out.print(result_table(rec, game.title))
