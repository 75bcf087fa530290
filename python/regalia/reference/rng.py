"""The seeded generator, bit for bit the same as ``rust/engine/src/rng.rs``.

SplitMix64 expands a seed into a PCG32 (XSH-RR); ``below`` draws by rejection; ``shuffle``
is Fisher-Yates from the last index down.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Any, TypeVar

from regalia.core.seeds import MASK64, splitmix64

MASK32 = (1 << 32) - 1
PCG_MULT = 6364136223846793005

T = TypeVar("T")


class Rng:
    """PCG32 (XSH-RR) with a 64-bit state; serialised as ``{"inc": .., "state": ..}``."""

    __slots__ = ("state", "inc")

    def __init__(self, state: int, inc: int) -> None:
        self.state = state
        self.inc = inc

    @classmethod
    def new(cls, seed: int) -> Rng:
        """A generator seeded from ``seed`` through SplitMix64."""
        x, state = splitmix64(seed & MASK64)
        _, inc = splitmix64(x)
        return cls(state, inc | 1)

    def next_u32(self) -> int:
        """The next 32 random bits."""
        old = self.state
        self.state = (old * PCG_MULT + self.inc) & MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & MASK32
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & MASK32

    def below(self, n: int) -> int:
        """A uniform draw from ``range(n)`` (``n >= 1``), by rejection."""
        threshold = ((1 << 32) - n) % n
        while True:
            r = self.next_u32()
            if r >= threshold:
                return r % n

    def index(self, length: int) -> int:
        """A uniform index into a sequence of ``length`` items."""
        return self.below(length)

    def shuffle(self, items: MutableSequence[T], start: int = 0, end: int | None = None) -> None:
        """Fisher-Yates shuffle of ``items[start:end]`` in place, from the last index down."""
        end = len(items) if end is None else end
        for i in range(end - start - 1, 0, -1):
            j = self.below(i + 1)
            items[start + i], items[start + j] = items[start + j], items[start + i]

    def fork(self) -> Rng:
        """A generator seeded from the next 64 bits of this one (high half first)."""
        hi = self.next_u32()
        lo = self.next_u32()
        return Rng.new((hi << 32) | lo)

    def copy(self) -> Rng:
        """An independent copy."""
        return Rng(self.state, self.inc)

    def is_valid(self) -> bool:
        """True when the increment is odd."""
        return self.inc & 1 == 1

    def to_json(self) -> dict[str, int]:
        """The saved form."""
        return {"inc": self.inc, "state": self.state}

    @classmethod
    def from_json(cls, data: Any) -> Rng:
        """Reads the saved form; raises ``ValueError`` if it is malformed."""
        state, inc = data["state"], data["inc"]
        for v in (state, inc):
            if type(v) is not int or not 0 <= v <= MASK64:
                raise ValueError("generator words must be integers in [0, 2**64)")
        return cls(state, inc)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and (self.state, self.inc) == (other.state, other.inc)

    def __repr__(self) -> str:
        return f"Rng(state={self.state}, inc={self.inc})"
