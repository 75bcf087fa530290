"""Small pieces of English shared by the boards and the narration."""

from __future__ import annotations


def count(n: int, noun: str, plural: str = "") -> str:
    """``count(1, "card")`` -> ``"1 card"``, ``count(2, "card")`` -> ``"2 cards"``; ``plural``
    for a noun that does not just take an s."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def seat_name(seat: int | None, viewer: int, players: int) -> str:
    """What the board of ``viewer`` calls ``seat``: ``you``, ``the opponent`` (with two
    seats) or ``seat 2`` (the way the narration names the seats); ``no one`` for None."""
    if seat is None:
        return "no one"
    if seat == viewer:
        return "you"
    return "the opponent" if players == 2 else f"seat {seat}"


def seat_verb(seat: int | None, viewer: int, players: int, you: str, other: str) -> str:
    """``you play`` / ``the opponent plays``: the seat's name with its verb."""
    return f"{seat_name(seat, viewer, players)} {you if seat == viewer else other}"


def capitalised(text: str) -> str:
    """``text`` with its first letter in upper case (to begin a sentence)."""
    return text[:1].upper() + text[1:]
