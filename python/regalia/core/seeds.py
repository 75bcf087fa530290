"""How a seed splits into independent sub-seeds, bit for bit as ``rust/engine/src/rng.rs``
does: the seeds of games, seats, chunks and agents are all derived with ``derive_seed``."""

from __future__ import annotations

MASK64 = (1 << 64) - 1


def splitmix64(x: int) -> tuple[int, int]:
    """One SplitMix64 step: returns (new x, output)."""
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return x, z ^ (z >> 31)


def derive_seed(seed: int, index: int) -> int:
    """The seed of the ``index``-th sub-stream of ``seed``."""
    x = seed ^ ((index * 0xD1B54A32D192ED03) & MASK64)
    return splitmix64(x)[1]
