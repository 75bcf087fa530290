"""``regalia rules GAME``: the game's rules page for players, as Markdown rendered for the terminal.

The pages are ``docs/rules/GAME.md``, built into the extension when it is compiled (see
``rust/python/build.rs``), so an installed wheel shows them and no copy can drift.
"""

from __future__ import annotations

import os
from typing import Annotated

import typer

from regalia.cli import exits
from regalia.cli.console import screen
from regalia.cli.params import GameArg, NoColorOpt
from regalia.cli.players import game_info
from regalia.core import engine

EXAMPLES = ["regalia rules duo-regna", "regalia rules duo-regna --raw > duo-regna.md", "regalia rules duo --pager"]


def rules(
    game: GameArg,
    raw: Annotated[bool, typer.Option("--raw", help="print the Markdown source as it is")] = False,
    pager: Annotated[bool, typer.Option("--pager", help="show the page in a pager (less)")] = False,
    no_color: NoColorOpt = False,
) -> None:
    """Show a game's rules for players: setup, a turn, scoring, an example, the rulings
    applied and its options (action ids and observations: docs/games/GAME.md)."""
    from rich.markdown import Markdown  # imported here: it is slow to import, and only this command needs it

    info = game_info(game)
    page = engine.rules_page(info["name"])
    if page is None:
        exits.fail(f"{info['title']} has no rules page in this build")
    out = screen().out
    if raw:
        out.file.write(page)
        return
    if pager:
        if not screen().plain:
            pass_colours_through_less()
        with out.pager(styles=not screen().plain):
            out.print(Markdown(page))
        return
    out.print(Markdown(page))


def pass_colours_through_less() -> None:
    """Adds ``-R`` to ``LESS`` (kept as it is otherwise), so that ``less`` shows colours
    instead of raw escape codes."""
    flags = os.environ.get("LESS", "")
    if "R" not in flags:
        os.environ["LESS"] = f"{flags} -R".strip()
