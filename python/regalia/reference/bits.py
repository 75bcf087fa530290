"""Card sets kept as int bit masks (bit ``i`` set = card ``i`` present), as
``rust/engine/src/bits.rs`` keeps them; ``Set128`` saves such a set as the ascending list
of its members."""

from __future__ import annotations

from typing import Any

#: Largest member (exclusive) of a ``Set128``.
SET128_LIMIT = 128


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


def set128_to_json(mask: int) -> list[int]:
    """The saved form of a ``Set128``: its members, ascending."""
    return iter_bits(mask)


def set128_from_json(data: Any) -> int:
    """Reads a ``Set128``; raises ``ValueError`` unless ``data`` is a strictly ascending
    list of integers below 128."""
    if not isinstance(data, list):
        raise ValueError("a card set must be a list of card ids")
    mask, last = 0, -1
    for x in data:
        if type(x) is not int or not last < x < SET128_LIMIT:
            raise ValueError(f"a card set must list distinct ids below {SET128_LIMIT} in ascending order")
        mask |= 1 << x
        last = x
    return mask
