"""The pure-Python reference implementation of every game: the executable spec.

Same action ids, same seeded randomness, same observations and the same saved-state JSON
as the Rust engine; the differential tests hold the two together.
"""

from __future__ import annotations

from typing import Any

from regalia.core.errors import InvalidOptionError
from regalia.reference.base import Game, GameInfo, Rules, State
from regalia.reference.duell_der_drachen import DuellDerDrachen
from regalia.reference.duo import Duo
from regalia.reference.duo_regna import DuoRegna
from regalia.reference.regine import Regine
from regalia.reference.regnum import Regnum

__all__ = ["Game", "GameInfo", "Rules", "State", "RULES", "make", "make_saved", "games"]

#: Every game's rules, in the order ``regalia.games()`` lists them.
RULES: tuple[type[Rules[Any, Any]], ...] = (DuoRegna, Duo, DuellDerDrachen, Regine, Regnum)


def games() -> list[GameInfo]:
    """Every game's description."""
    return [r.INFO for r in RULES]


def _find(name: str) -> type[Rules[Any, Any]]:
    key = name.strip().lower()
    for rules in RULES:
        if key == rules.INFO.name or key in rules.INFO.aliases:
            return rules
    names = ", ".join(r.INFO.name for r in RULES)
    raise InvalidOptionError(f"unknown game '{name}'; games: {names}")


def make(name: str, options: dict[str, Any]) -> Game:
    """The reference game called ``name`` (or an alias), configured by ``options``."""
    rules = _find(name)
    return Game(rules.from_options(options))


def make_saved(name: str, options: dict[str, Any]) -> Game:
    """The game a saved state was played with: its options, an older save's missing ones
    filled in with their declared ``saved_default``."""
    rules = _find(name)
    return Game(rules.from_options(rules.saved_options(options)))
