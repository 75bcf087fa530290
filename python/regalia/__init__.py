"""Regalia: five royal card games with a Rust core, for play, scripting and AI search.

>>> import regalia
>>> game = regalia.make("duo-regna")
>>> state = game.new_state(seed=1)
>>> state.apply(state.legal_actions()[0])
"""

from __future__ import annotations

import json
from typing import Any, Union

import regalia._core as _core
from regalia import jsontext, reference
from regalia._core import Game, State, VectorEnv
from regalia.errors import (
    AgentError,
    ExecutorError,
    GameTooLargeError,
    IllegalActionError,
    InvalidArgumentError,
    InvalidOptionError,
    InvalidStateError,
    RegaliaError,
)
from regalia.gauntlet import GauntletResult, gauntlet
from regalia.kinds import Backend
from regalia.match import MatchRecord, play
from regalia.saves import load_game, save_game
from regalia.simulations import Simulation, simulate
from regalia.tournaments import TournamentResult, tournament

__version__: str = _core.__version__

#: A game of either backend: both have the same interface.
AnyGame = Union["_core.Game", "reference.Game"]
#: A state of either backend.
AnyState = Union["_core.State", "reference.State"]

BACKENDS = ("rust", "reference")

__all__ = [
    "AgentError",
    "AnyGame",
    "AnyState",
    "BACKENDS",
    "ExecutorError",
    "Game",
    "GameTooLargeError",
    "IllegalActionError",
    "InvalidArgumentError",
    "InvalidOptionError",
    "InvalidStateError",
    "MatchRecord",
    "GauntletResult",
    "RegaliaError",
    "Simulation",
    "State",
    "VectorEnv",
    "TournamentResult",
    "games",
    "gauntlet",
    "load_game",
    "load_state",
    "make",
    "save_game",
    "play",
    "simulate",
    "tournament",
]


def _plain_options(options: dict[str, Any]) -> dict[str, Any]:
    """The options as the reference reads them: plain JSON values (tuples become lists)."""
    try:
        plain: dict[str, Any] = json.loads(json.dumps(options, allow_nan=False))
    except (TypeError, ValueError, RecursionError) as e:
        raise InvalidOptionError(f"options must be plain JSON values (int, bool, str, lists): {e}") from None
    return plain


def make(name: str, backend: Backend = "rust", **options: Any) -> AnyGame:
    """The game called ``name`` with ``options`` (see ``regalia.games()``).

    ``backend="rust"`` (the default) is the fast extension; ``backend="reference"`` is the
    pure-Python twin with the same interface. Bad names or options raise
    ``InvalidOptionError`` listing what is allowed.
    """
    if not isinstance(name, str):
        raise InvalidOptionError(f"a game name must be a str, got {name!r}")
    if jsontext.too_deep(options):
        raise InvalidOptionError(f"options nest more than {jsontext.MAX_DEPTH} levels deep")
    if backend == "rust":
        return _core.make(name, options)
    if backend == "reference":
        return reference.make(name, _plain_options(options))
    raise InvalidOptionError(f"unknown backend {backend!r}; backends: {', '.join(BACKENDS)}")


def games() -> list[dict[str, Any]]:
    """Every game: ``name``, ``title``, ``aliases``, ``min_players``, ``max_players`` and
    ``options`` (each with ``name``, ``default`` and ``help``)."""
    return _core.games()


def load_state(text: str, backend: Backend = "rust") -> AnyState:
    """Reads a state saved by ``State.to_json()``; the game and options come from the text."""
    if backend == "rust":
        return _core.load_state(text)
    if backend != "reference":
        raise InvalidOptionError(f"unknown backend {backend!r}; backends: {', '.join(BACKENDS)}")
    if not isinstance(text, str):
        raise InvalidStateError("a saved state must be JSON text")
    envelope = jsontext.loads(text, InvalidStateError)
    try:
        name, options = envelope["game"], envelope["options"]
        if not isinstance(name, str) or not isinstance(options, dict):
            raise TypeError
    except (KeyError, TypeError):
        raise InvalidStateError("not a Regalia saved state") from None
    try:
        game = reference.make_saved(name, options)
    except InvalidOptionError as e:
        raise InvalidStateError(str(e)) from None
    return game.state_from_json(text)
