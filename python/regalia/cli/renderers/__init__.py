"""Text renderers: one module per game (``render(observation) -> str``), and a plain fallback."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from regalia.cli.renderers import duell_der_drachen, duo_regna

Renderer = Callable[[dict[str, Any]], str]

#: The renderer of each game, by game id.
RENDERERS: dict[str, Renderer] = {
    "duo-regna": duo_regna.render,
    "duell-der-drachen": duell_der_drachen.render,
}


def render_plain(obs: dict[str, Any]) -> str:
    """Any observation as ``key: value`` lines."""
    return "\n".join(f"  {k}: {v}" for k, v in obs.items())


def render(game: str, obs: dict[str, Any]) -> str:
    """The board as ``obs``'s seat sees it."""
    return RENDERERS.get(game, render_plain)(obs)
