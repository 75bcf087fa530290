"""The pure-Python reference implementation of every game: the executable spec.

Same action ids, same seeded randomness, same observations and the same saved-state JSON
as the Rust engine; the differential tests hold the two together.
"""

from __future__ import annotations

from typing import Any

from regalia.errors import InvalidOptionError
from regalia.reference.base import Game, GameInfo, Rules, State
from regalia.reference.duell_der_drachen import DuellDerDrachen
from regalia.reference.duo import Duo
from regalia.reference.duo_regna import DuoRegna
from regalia.reference.regine import Regine
from regalia.reference.regnum import Regnum

__all__ = ["Game", "GameInfo", "Rules", "State", "RULES", "make", "games"]

#: Every game's rules, in the order ``regalia.games()`` lists them.
RULES: tuple[type[Rules[Any]], ...] = (DuoRegna, Duo, DuellDerDrachen, Regine, Regnum)


def games() -> list[GameInfo]:
    """Every game's description."""
    return [r.INFO for r in RULES]


def make(name: str, options: dict[str, Any]) -> Game:
    """The reference game called ``name`` (or an alias), configured by ``options``."""
    key = name.strip().lower()
    for rules in RULES:
        if key == rules.INFO.name or key in rules.INFO.aliases:
            return Game(rules.from_options(options))
    names = ", ".join(r.INFO.name for r in RULES)
    raise InvalidOptionError(f"unknown game '{name}'; games: {names}")
