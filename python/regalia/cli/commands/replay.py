"""``regalia replay FILE``: a recorded match (or a saved game) move by move."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from regalia.cli import exits
from regalia.cli.console import emit_json, screen
from regalia.cli.params import DelayOpt, JsonOpt, NoColorOpt, StepOpt
from regalia.cli.records import read_record
from regalia.cli.report import result_table
from regalia.cli.show import Narrator, tell
from regalia.core.errors import RegaliaError
from regalia.registry.records import outcome_fields
from regalia.table import Replay

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
        walked = Replay(rec)  # checked whole (and the seat to tell from) before anything is shown
    except RegaliaError as e:
        exits.fail(f"{file}: {e}")
    game = walked.game
    if view is not None and view >= game.num_players:
        exits.fail(f"there is no seat {view}: seats are 0 to {game.num_players - 1}", exits.USAGE)
    replayed = walked if view is None else Replay(rec, view)
    if as_json:
        outcome = replayed.outcome
        emit_json(
            {
                "game": rec.game,
                "options": rec.options,
                "seed": rec.seed,
                "agents": rec.agents,
                "moves": [{"seat": m.seat, "action": m.action, "name": m.name} for m in replayed.moves],
                "finished": outcome is not None,
                "returns": replayed.returns or None,
                "scores": replayed.scores or None,
                "outcome": None if outcome is None else outcome_fields(outcome),
            }
        )
        return
    options = dict(game.options)  # in force, defaults filled in: what the narration names
    narrator = Narrator(screen(), rec.agents, boards=boards, view=view, delay=delay, step=step, options=options)
    screen().say(narrator.heading(), style="italic")
    tell(replayed, narrator)
    if replayed.outcome is None:
        screen().say(
            f"The game stops after {replayed.total} moves, unfinished; continue it with: regalia resume {file}"
        )
        return
    rec.returns, rec.scores = replayed.returns, replayed.scores
    screen().out.print(result_table(rec, game.title))
