"""Where a table's chance comes from: the one rule every front-end follows.

A person never chooses a table's ``chance`` option. A table given a seed plays the seeded
game (every deal and draw fixed by the seed: the game replays). A table without a seed (the
web's default) plays the game with explicit chance, each deal and draw taken from the
operating system's generator as it happens (``regalia.table.secret``): no seed exists for a
seat to search. A stored table says which by its options (``chance_of``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from regalia.core.errors import InvalidArgumentError
from regalia.core.protocols import GameProtocol
from regalia.registry.catalog import make
from regalia.registry.records import MatchRecord
from regalia.table.table import ChanceFrom

__all__ = ["ChanceChosen", "chance_of", "refuse_chosen_chance", "resumed_game", "table_game"]


class ChanceChosen(InvalidArgumentError):
    """A ``chance`` option chosen for a table (a table chooses its own)."""


def refuse_chosen_chance(options: Mapping[str, Any]) -> None:
    """``ChanceChosen`` when ``options`` choose a chance other than the seeded one."""
    if options.get("chance", "seeded") != "seeded":
        raise ChanceChosen(
            "tables play seeded games only: a table's chance comes from its seed (give one to replay "
            "the game; a web table without one draws every card from the operating system); "
            "chance='explicit' is for exact methods in Python (regalia.make(..., chance='explicit'))"
        )


def table_game(name: str, options: Mapping[str, Any], seeded: bool = True) -> GameProtocol:
    """The game ``name`` with ``options`` for a table: the seeded game, or (``seeded=False``,
    a table without a seed) the game with explicit chance, drawn from the operating system.
    ``ChanceChosen`` when ``options`` choose a chance; a bad game or option raises its
    ``ValueError``."""
    refuse_chosen_chance(options)
    return make(name, **options) if seeded else make(name, **{**options, "chance": "explicit"})


def chance_of(record: MatchRecord) -> ChanceFrom:
    """Where the chance of the table that wrote ``record`` comes from: ``"system"`` when its
    game has explicit chance (a table makes such a game only without a seed), else ``"seed"``."""
    options = record.options
    return "system" if isinstance(options, dict) and options.get("chance") == "explicit" else "seed"


def resumed_game(record: MatchRecord) -> tuple[Any, ChanceFrom]:
    """The game of the table that wrote ``record`` and where its chance comes from (to pass
    to ``Table.resume``); a bad game or option raises its ``ValueError``."""
    if not isinstance(record.options, dict):
        raise InvalidArgumentError("the record's options are not a JSON object")
    chance = chance_of(record)
    options = {k: v for k, v in record.options.items() if k != "chance"}
    return table_game(record.game, options, seeded=chance == "seed"), chance
