"""Explicit chance: the option that turns a game's random events into chance nodes, the
reference twin of ``rust/engine/src/chance.rs``.

By default (``chance="seeded"``) a game draws every random event from the state's own
generator. With ``chance="explicit"`` each random event is a chance node: the game stops with
``is_chance_node`` true, ``legal_actions`` listing the possible outcomes and
``chance_outcomes`` their probabilities, and the caller applies the outcome it picks, one card
at a time from what is unseen.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from regalia.reference.options import Choice, option

#: The values of the option ``chance``.
CHANCE_CHOICES = ("seeded", "explicit")
#: Its type.
ChanceMode = Literal["seeded", "explicit"]


def chance_option(help: str) -> Any:
    """Declares a game's option ``chance``: ``"seeded"`` (the default, and what saves from
    before the option were played with) or ``"explicit"``; ``help`` says what each means in
    that game."""
    return option("seeded", Choice(CHANCE_CHOICES), help, saved_default="seeded")


def draw_from_counts(counts: Iterable[tuple[int, int]]) -> list[tuple[int, float]]:
    """The outcomes of drawing one item from a multiset given as ``(outcome, copies)``: each
    outcome with copies left, with probability ``copies / total`` (one float division, as the
    engine divides)."""
    kept = [(a, n) for a, n in counts if n > 0]
    total = sum(n for _, n in kept)
    return [(a, n / total) for a, n in kept]
