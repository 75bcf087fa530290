"""Card sets kept as int bit masks (bit ``i`` set = card ``i`` present), as
``rust/engine/src/bits.rs`` keeps them."""

from __future__ import annotations


def iter_bits(mask: int) -> list[int]:
    """The indices of the set bits, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def nth_bit(mask: int, n: int) -> int | None:
    """The index of the ``n``-th set bit (0-based), if there are that many."""
    if n < 0:
        return None
    for _ in range(n):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1 if mask else None


def count(mask: int) -> int:
    """Number of set bits."""
    return mask.bit_count()
