"""Small pieces of English shared by the boards and the narration."""

from __future__ import annotations


def count(n: int, noun: str, plural: str = "") -> str:
    """``count(1, "card")`` -> ``"1 card"``, ``count(2, "card")`` -> ``"2 cards"``; ``plural``
    for a noun that does not just take an s."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
