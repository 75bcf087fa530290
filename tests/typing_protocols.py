"""Static checks, read by mypy (pyproject's ``[tool.mypy] files``) and never run: the games
and states of both backends satisfy the game contract's protocols. A member missing from a
backend, or of another type, fails ``mypy``."""

from __future__ import annotations

from regalia import reference
from regalia.core import engine
from regalia.core.protocols import GameProtocol, StateProtocol


def rust_game(game: engine.Game) -> GameProtocol:
    """The extension's game is a ``GameProtocol``."""
    return game


def rust_state(state: engine.State) -> StateProtocol:
    """The extension's state is a ``StateProtocol``."""
    return state


def reference_game(game: reference.Game) -> GameProtocol:
    """The reference's game is a ``GameProtocol``."""
    return game


def reference_state(state: reference.State) -> StateProtocol:
    """The reference's state is a ``StateProtocol``."""
    return state
