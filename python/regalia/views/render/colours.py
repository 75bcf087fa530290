"""Card colours on the screen: Rich styles laid over a plain board (gone in plain mode)."""

from __future__ import annotations

import re

from rich.text import Text

#: The Rich style of each card colour.
COLOURS = {
    "red": "bold red",
    "blue": "bold blue",
    "green": "bold green",
    "yellow": "bold yellow",
    "white": "bold white",
}


def coloured(text: str, patterns: dict[str, str]) -> Text:
    """``text`` with every match of a pattern styled in its colour (``patterns``: colour
    name to regular expression); the text itself is unchanged."""
    shown = Text(text)
    for colour, pattern in patterns.items():
        shown.highlight_regex(re.compile(pattern), COLOURS[colour])
    return shown
