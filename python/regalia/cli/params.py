"""Arguments and options shared by several commands, declared once."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

import regalia
from regalia.cli.console import set_plain


def _no_color(value: bool) -> bool:
    if value:
        set_plain(True)
    return value


def complete_game(incomplete: str) -> list[str]:
    """The game ids that begin with ``incomplete`` (for shell completion)."""
    return [g["name"] for g in regalia.games() if g["name"].startswith(incomplete)]


GameArg = Annotated[
    str,
    typer.Argument(
        metavar="GAME",
        help="a game id or alias, e.g. duo-regna (see: regalia games)",
        show_default=False,
        autocompletion=complete_game,
    ),
]
SeatsOpt = Annotated[
    str | None,
    typer.Option(
        "--seats",
        "-s",
        metavar="SEATS",
        help="one agent per seat, comma-separated: human or a built-in agent; NAME*N repeats (random*4)",
        show_default=False,
    ),
]
SeedOpt = Annotated[
    int | None, typer.Option(min=0, metavar="N", help="the game's seed (random when omitted)", show_default=False)
]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", metavar="KEY=VALUE", help="a game option (repeatable), e.g. -o dragons_to_win=3"),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="print JSON (for scripts) instead of tables")]
NoColorOpt = Annotated[
    bool,
    typer.Option("--no-color", help="plain output: no colour, ASCII symbols", callback=_no_color, is_eager=True),
]
RecordOpt = Annotated[
    Path | None,
    typer.Option(
        "--record",
        metavar="FILE",
        help="also write the match record to this file (see: regalia replay)",
        dir_okay=False,
    ),
]
DelayOpt = Annotated[float, typer.Option(min=0, metavar="SECONDS", help="seconds between moves")]
StepOpt = Annotated[bool, typer.Option("--step", help="wait for Enter after every move")]
