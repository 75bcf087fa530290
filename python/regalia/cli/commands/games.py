"""``regalia games``: the games, their player counts and options."""

from __future__ import annotations

import json

import regalia
from regalia.cli.console import emit_json, screen
from regalia.cli.params import JsonOpt, NoColorOpt

EXAMPLES = ["regalia games", "regalia games --json"]


def games(as_json: JsonOpt = False, no_color: NoColorOpt = False) -> None:
    """List the games with their player counts and options (with defaults)."""
    listing = regalia.games()
    out = screen().out
    if as_json:
        emit_json(listing)
        return
    table = screen().table(show_lines=True)
    table.add_column("game", style="bold", no_wrap=True)
    table.add_column("players", justify="center", no_wrap=True)
    table.add_column("options (= default)")
    for g in listing:
        lo, hi = g["min_players"], g["max_players"]
        options = "\n".join(f"{o['name']} = {json.dumps(o['default'])}: {o['help']}" for o in g["options"])
        table.add_row(f"{g['name']}\n{g['title']}", str(lo) if lo == hi else f"{lo}-{hi}", options or "-")
    out.print(table)
    screen().say("Set an option with -o NAME=VALUE; see the rules with: regalia rules GAME")
