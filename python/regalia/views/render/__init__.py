"""Boards as text: one renderer per game (``render(observation, options)``), and a plain fallback.

The library draws a seat's board from its observation alone, for the command line, the
adapters' ``render()`` and anyone's scripts. A renderer returns ``str`` or a Rich ``Text``
(styled; print ``.plain`` for no styles) and uses ``symbols.glyph`` for card symbols, so that
a caller can ask for ASCII. Every line fits in 80 columns. ``colours.coloured`` gives the
cards of a colour game their colours.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text

from regalia.views.render import duell_der_drachen, duo, duo_regna, regine, regnum
from regalia.views.render.symbols import using_symbols

#: A game's renderer: its observation (see ``regalia.core.observations``) and options to text.
Renderer = Callable[[Any, dict[str, Any]], str | Text]

#: The renderer of each game, by game id.
RENDERERS: dict[str, Renderer] = {
    "duo-regna": duo_regna.render,
    "duo": duo.render,
    "duell-der-drachen": duell_der_drachen.render,
    "regine": regine.render,
    "regnum": regnum.render,
}


def render_plain(obs: dict[str, Any], options: dict[str, Any] | None = None) -> str:
    """Any observation as ``key: value`` lines (for a game without its own renderer)."""
    width = max((len(k) for k in obs), default=0)
    return "\n".join(f"  {k.replace('_', ' '):<{width}}  {_value(v)}" for k, v in obs.items())


def _value(v: Any) -> str:
    if isinstance(v, list):
        return ", ".join(_value(x) for x in v) if v else "-"
    if isinstance(v, dict):
        return "; ".join(f"{k} {_value(x)}" for k, x in v.items())
    return "-" if v is None else str(v)


def render_text(game: str, obs: dict[str, Any], options: dict[str, Any] | None = None, *, symbols: bool = True) -> Text:
    """The board as ``obs``'s seat sees it in the game with ``options``, styled (plain
    strings become unstyled text); card symbols, or ASCII where ``symbols`` is false."""
    with using_symbols(symbols):
        renderer: Renderer = RENDERERS.get(game, render_plain)
        shown = renderer(obs, options or {})
    return shown if isinstance(shown, Text) else Text(shown)


def render(game: str, obs: dict[str, Any], options: dict[str, Any] | None = None, *, symbols: bool = True) -> str:
    """The board as ``obs``'s seat sees it, as text without styles (see ``render_text``)."""
    return render_text(game, obs, options, symbols=symbols).plain
