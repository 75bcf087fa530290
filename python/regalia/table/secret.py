"""Chance a seat cannot recover: outcomes drawn from the operating system's cryptographic
generator (``secrets.SystemRandom``) as each random event happens.

A table dealt from a seed is as secret as its seed: a seat that sees its own hand could try
every seed with the public engine and learn the other hands and the deck. A table of a game
made with explicit chance (every deal and draw a chance node) whose outcomes come from here
has no seed to search: each card is drawn from the system's generator (fed by the kernel,
at least 128 bits of secret state) when it is dealt, so the deck's order does not exist
before it is drawn. The drawn outcomes go into the game's moves, so a saved game replays.
"""

from __future__ import annotations

import secrets

from regalia.core.view import draw_outcome

__all__ = ["SystemDraws", "secret_seed"]


class SystemDraws:
    """The chance outcomes of a table, drawn by their probabilities from the operating
    system's generator when they happen; a recorded outcome replays without a draw."""

    def __init__(self) -> None:
        self.rng = secrets.SystemRandom()

    def draw(self, outcomes: list[tuple[int, float]]) -> int:
        """One outcome of ``[(outcome, probability), ...]``, from the system's generator."""
        return draw_outcome(self.rng, outcomes)

    def skip(self, outcomes: list[tuple[int, float]]) -> None:
        """A recorded outcome stands for a draw: nothing to keep in step."""


def secret_seed() -> int:
    """A seed for what a table seeds besides chance (its bots, the worlds they sample): 64
    bits from the operating system's generator, never shown to a seat."""
    return secrets.randbits(64)
