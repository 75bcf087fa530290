"""The benchmark variants: for each of the five games, a variant declared once, as large as
the exact tree walk and the measurement of the built-in agents handle in minutes on a small
machine, in which both seats decide and the built-in agents are told apart (``rules`` and
``ismcts`` give measurably more away than CFR+'s equilibrium), as far as such a variant was
found: Regnum's two turns tell the fixed strategies apart, but ``rules`` plays them perfectly.
Exploitability is compared on them.

>>> from regalia import exact
>>> bench = exact.benchmark("regine-two-suits")
>>> game = bench.make()                                  # chance="explicit"
>>> bench.measured.histories, bench.measured.cfr_plus_exploitability
>>> exact.exploitability("regine-two-suits", "rules")    # a benchmark's name stands for its game

Each variant's size, game value and CFR+ exploitability are measured by
``benches/benchmark_variants.py`` and stored in ``regalia/data/benchmarks.json``, with a
fingerprint of the options they were measured on (``measured`` is ``None`` when the stored
numbers are for other options).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from regalia.core.cards.regnum import DEFAULT_PATH as REGNUM_CARDS
from regalia.core.errors import InvalidArgumentError
from regalia.core.kinds import Backend
from regalia.registry.catalog import AnyGame, make

__all__ = ["BENCHMARKS", "DATA_PATH", "Benchmark", "Measured", "benchmark", "benchmarks", "fingerprint"]

#: Where the measured numbers are stored (written by ``benches/benchmark_variants.py``).
DATA_PATH = Path(__file__).resolve().parents[1] / "data" / "benchmarks.json"

#: Regnum's characters kept in its benchmark: the King, the Queen, the Squire (one card of any
#: colour buys him) and five that green resource cards cannot pay for.
REGNUM_CHARACTERS = ("King", "Queen", "Squire", "Chancellor", "Bishop", "Lady-in-waiting", "General", "Minstrel")


def regnum_card_set(characters: tuple[str, ...] = REGNUM_CHARACTERS) -> dict[str, Any]:
    """A small Regnum card set cut from the default one: 20 single green resource cards (every
    blind draw has one outcome), the ``characters`` named, the first two castles and the
    standards counting inhabitants, the hand and blue characters."""
    data: dict[str, Any] = json.loads(REGNUM_CARDS.read_text())
    data["resources"] = {"G": 20}
    data["characters"] = [c for c in data["characters"] if c["name"] in characters]
    data["castles"] = data["castles"][:2]
    data["standards"] = [s for s in data["standards"] if s["counts"] in ("INHABITANTS", "HAND", "BLUE")]
    return data


@dataclass(frozen=True)
class Measured:
    """What ``benches/benchmark_variants.py`` measured on a benchmark: the tree's size, the
    game value of seat 0 (CFR+'s average policy's, bracketed by the best-response values
    ``value_low`` and ``value_high``), and CFR+'s exploitability after ``cfr_plus_iterations``."""

    histories: int
    decision_nodes: int
    information_sets: int
    value: float
    value_low: float
    value_high: float
    cfr_plus_iterations: int
    cfr_plus_exploitability: float


@dataclass(frozen=True)
class Benchmark:
    """One benchmark variant: ``game`` with ``options`` (explicit chance added by ``make``),
    ``about`` in words, and what was ``measured`` on it (``None`` if the stored numbers are
    for other options)."""

    name: str
    game: str
    options: dict[str, Any]
    about: str

    def make(self, backend: Backend = "rust") -> AnyGame:
        """The variant, with ``chance="explicit"``, on ``backend``."""
        return make(self.game, backend, chance="explicit", **self.options)

    @property
    def fingerprint(self) -> str:
        """A digest of the game and options (the stored numbers carry the one they were measured on)."""
        return fingerprint(self.game, self.options)

    @property
    def measured(self) -> Measured | None:
        """The stored size, value and CFR+ exploitability, or ``None`` when they are missing or stale."""
        stored = _stored().get(self.name)
        if stored is None or stored.get("fingerprint") != self.fingerprint:
            return None
        return Measured(**{k: stored[k] for k in Measured.__dataclass_fields__})


def fingerprint(game: str, options: dict[str, Any]) -> str:
    """A short digest of ``game`` and ``options``."""
    text = json.dumps({"game": game, "options": options}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


_DECLARED = (
    Benchmark(
        "duo-regna-three-rounds",
        "duo-regna",
        {"dragon_deck": [1, 1], "dragons_to_win": 2, "max_rounds": 3},
        "a one-dragon and a two-dragon card, two dragons win, three rounds",
    ),
    Benchmark(
        "regine-two-suits",
        "regine",
        {"players": 2, "build_phase": False, "max_rounds": 1, "deck": [3, 0, 0, 0, 0, 0, 3, 3], "suits": 2},
        "two players, three Jesters, Princesses and Queens, one round without the build phase, "
        "bets on the Queens' and the Jesters' Suits",
    ),
    Benchmark(
        "duo-two-colours",
        "duo",
        {"players": 2, "rounds": 1, "colours": 2, "numbers": 2, "shapes": 2, "jokers": False, "hand_size": 1},
        "two players, one round, 8 cards (two colours, numbers and shapes, no Jokers), one card a hand",
    ),
    Benchmark(
        "duell-der-drachen-three-values",
        "duell-der-drachen",
        {"values": 3, "territories": 2, "hand_size": 1, "cards_per_side": 1, "face_down_limit": 1},
        "two territories, values 1 to 3, one card a hand and a side, one face down",
    ),
    Benchmark(
        "regnum-two-turns",
        "regnum",
        {"players": 2, "max_turns": 2, "card_set": regnum_card_set()},
        "two players, one turn each; 20 green cards, the King, the Queen, the Squire and five "
        "characters green cannot pay for, two castles, three standards",
    ),
)

#: The benchmarks' names, in the order the results pages list them.
BENCHMARKS: tuple[str, ...] = tuple(b.name for b in _DECLARED)


def benchmarks() -> list[Benchmark]:
    """Every benchmark variant, one or more per game."""
    return list(_DECLARED)


def benchmark(name: str) -> Benchmark:
    """The benchmark called ``name``; ``InvalidArgumentError`` (a ``ValueError``) listing the
    known ones otherwise."""
    for b in _DECLARED:
        if b.name == name:
            return b
    raise InvalidArgumentError(f"unknown benchmark {name!r}; the benchmarks are: {', '.join(BENCHMARKS)}")


@cache
def _stored() -> dict[str, dict[str, Any]]:
    """The measured numbers, by benchmark name (empty before they are first measured)."""
    if not DATA_PATH.is_file():
        return {}
    data = json.loads(DATA_PATH.read_text())
    return {entry["name"]: entry for entry in data["benchmarks"]}
