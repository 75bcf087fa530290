"""How to get a game and how to keep one.

``make`` a game of either backend by name, list the ``games``, read a saved state
(``load_state``); the record of a match that replays exactly (``MatchRecord``); save files
written atomically and checked on loading (``save_game``, ``load_game``).

May import: ``regalia.core`` (the engine through ``regalia.core.engine``) and ``regalia.reference``.
"""

from regalia.registry.catalog import BACKENDS, VERSION, AnyGame, AnyState, games, load_state, make, make_for
from regalia.registry.records import ChanceDraws, MatchRecord, forfeit_returns
from regalia.registry.saves import load_game, save_game

__all__ = [
    "AnyGame",
    "AnyState",
    "BACKENDS",
    "ChanceDraws",
    "MatchRecord",
    "VERSION",
    "forfeit_returns",
    "games",
    "load_game",
    "load_state",
    "make",
    "make_for",
    "save_game",
]
