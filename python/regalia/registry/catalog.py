"""The catalog of games: ``make`` a game of either backend by name, list ``games``, and
``load_state`` a saved state. Everything above the games gets them here, never through the
package's front door."""

from __future__ import annotations

import json
from typing import Any, Union

from regalia import reference
from regalia.core import engine, jsontext
from regalia.core.errors import InvalidOptionError, InvalidStateError
from regalia.core.kinds import Backend

__all__ = ["AnyGame", "AnyState", "BACKENDS", "VERSION", "games", "load_state", "make", "make_for"]

#: The package's version (the extension's, which maturin stamps).
VERSION: str = engine.__version__

#: A game of either backend: both have the same interface.
AnyGame = Union["engine.Game", "reference.Game"]
#: A state of either backend.
AnyState = Union["engine.State", "reference.State"]

#: The backends ``make`` and ``load_state`` accept.
BACKENDS = ("rust", "reference")


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
        return engine.make(name, options)
    if backend == "reference":
        return reference.make(name, _plain_options(options))
    raise InvalidOptionError(f"unknown backend {backend!r}; backends: {', '.join(BACKENDS)}")


def games() -> list[dict[str, Any]]:
    """Every game: ``name``, ``title``, ``aliases``, ``min_players``, ``max_players`` and
    ``options`` (each with ``name``, ``default`` and ``help``)."""
    return engine.games()


def make_for(name: str, players: int) -> AnyGame:
    """The game ``name`` for ``players`` seats where its player count varies and allows that
    many; otherwise the game as it comes (its own seat count, for the caller to check)."""
    info = next((g for g in games() if name in (g["name"], *g["aliases"])), None)
    fits = info is not None and info["min_players"] != info["max_players"]
    if fits and info is not None and info["min_players"] <= players <= info["max_players"]:
        return make(name, players=players)
    return make(name)


def load_state(text: str, backend: Backend = "rust") -> AnyState:
    """Reads a state saved by ``State.to_json()``; the game and options come from the text."""
    if backend == "rust":
        return engine.load_state(text)
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
