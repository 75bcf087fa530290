"""Duell der Drachen as text (at most 80 columns)."""

from __future__ import annotations

import textwrap
from typing import Any

from rich.text import Text

from regalia.core.observations import DuellDerDrachenObservation
from regalia.views.render.colours import coloured
from regalia.views.render.words import count, seat_name, seat_verb

#: Each colour's cards, by full name (``red 7``) or short (``R7``), and its territory's name.
PATTERNS = {c: rf"\b({c} \d|{c[0].upper()}\d)\b|(?<=\n){c}\b" for c in ("red", "blue", "green", "yellow", "white")}

WIDTH = 80


def short(name: str) -> str:
    """``"yellow 7"`` -> ``"Y7"``."""
    colour, value = name.split()
    return colour[0].upper() + value


def side(face_up: list[str], face_down: list[str], per_side: int = 3) -> str:
    """One side of a territory: face-up cards, then face-down ones in brackets (``??`` hidden),
    then a dot for each free place of the ``per_side`` a side holds."""
    cards = [short(c) for c in face_up]
    cards += ["[??]" if c == "hidden" else f"[{short(c)}]" for c in face_down]
    cards += ["."] * (per_side - len(cards))
    return " ".join(cards)


def marker(m: int | None, seat: int) -> str:
    """Whose side the territory's strength marker lies on, pointing to it: ``< yours``
    (your side is the left column), ``theirs >`` or ``--``."""
    if m is None:
        return "--"
    return "< yours" if m == seat else "theirs >"


def status(obs: DuellDerDrachenObservation) -> str:
    """Whose turn it is, or how the game ended."""
    seat = obs["seat"]
    if not obs["terminal"]:
        return "your move" if obs["current_player"] == seat else "the opponent's move"
    how = "final count" if obs["final_count"] else "game over"
    if obs["winner"] is None:
        return f"{how}: a draw"
    return f"{how}: " + seat_verb(obs["winner"], seat, 2, "win", "wins")


def wrapped(label: str, cards: list[str]) -> list[str]:
    """``label: card, card, ...`` wrapped to the width."""
    text = f"{label}: " + (", ".join(cards) if cards else "none")
    return textwrap.wrap(text, WIDTH, subsequent_indent="    ")


def render(obs: DuellDerDrachenObservation, options: dict[str, Any] | None = None) -> Text:
    """The board from one seat: each territory with both sides, strengths, marker and
    display, every card in its colour."""
    per_side = (options or {}).get("cards_per_side", 3)
    return coloured(board(obs, per_side), PATTERNS)


def board(obs: DuellDerDrachenObservation, per_side: int = 3) -> str:
    """The board as plain text: your side of each territory on the left, the opponent's on
    the right (``per_side`` places a side)."""
    me, other = obs["seat"], 1 - obs["seat"]
    lines = [
        f"Duell der Drachen: {status(obs)}",
        f"{'territory':<9} {'you':<15} {'str':>3} {'marker':^8} {'str':<3} {'the opponent':<15} display",
    ]
    for t in obs["territories"]:
        mine = side(t["face_up"][me], t["face_down"][me], per_side)
        theirs = side(t["face_up"][other], t["face_down"][other], per_side)
        display = t["display"] or "-"
        lines.append(
            f"{t['colour']:<9} {mine:<15} {t['strength'][me]:>3} {marker(t['marker'], me):^8} "
            f"{t['strength'][other]:<3} {theirs:<15} {display}"
        )
    sizes = obs["hand_sizes"]
    lines.append(
        f"deck: {count(obs['deck'], 'card')}   in hand: you {sizes[me]}, the opponent {sizes[other]}   [..]: face down"
    )
    lines += wrapped("your hand", obs["hand"])
    if obs["opponent_hand"] is not None:
        lines += wrapped("the opponent's hand", obs["opponent_hand"])
    for seat in (me, other):
        if known := obs["known_cards"][seat]:
            lines += wrapped(f"{seat_name(seat, me, 2)} took from the display (in hand or face down)", known)
    return "\n".join(lines)
