"""``regalia games``: the games, their player counts and options."""

from __future__ import annotations

import json
from typing import Any

import regalia
from regalia.cli.console import emit_json, screen
from regalia.cli.params import JsonOpt, NoColorOpt

EXAMPLES = ["regalia games", "regalia games --json"]


def allowed_text(allowed: dict[str, Any]) -> str:
    """The values an option accepts (its listing's ``allowed``), in a few characters."""
    kind = allowed["type"]
    if kind == "integer":
        lo, hi = allowed["min"], allowed["max"]
        return str(lo) if lo == hi else f"{lo}-{hi}"
    if kind == "integer_list":
        return f"{allowed['length']} x {allowed['min']}-{allowed['max']}"
    if kind == "choice":
        return " | ".join(json.dumps(c) for c in allowed["choices"])
    if kind == "boolean":
        return "true | false"
    return "data"


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
        options = "\n".join(
            f"{o['name']} = {json.dumps(o['default'])} ({allowed_text(o['allowed'])}): {o['help']}"
            for o in g["options"]
        )
        table.add_row(f"{g['name']}\n{g['title']}", str(lo) if lo == hi else f"{lo}-{hi}", options or "-")
    out.print(table)
    screen().say("Set an option with -o NAME=VALUE; see the rules with: regalia rules GAME")
