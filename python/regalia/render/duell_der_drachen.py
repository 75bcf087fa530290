"""Duell der Drachen as text (at most 80 columns)."""

from __future__ import annotations

import textwrap
from typing import Any

from rich.text import Text

from regalia.observations import DuellDerDrachenObservation
from regalia.render.colours import coloured
from regalia.render.words import count

#: Each colour's cards, by full name (``red 7``) or short (``R7``), and its territory's name.
PATTERNS = {c: rf"\b({c} \d|{c[0].upper()}\d)\b|(?<=\n){c}\b" for c in ("red", "blue", "green", "yellow", "white")}

WIDTH = 80


def short(name: str) -> str:
    """``"yellow 7"`` -> ``"Y7"``."""
    colour, value = name.split()
    return colour[0].upper() + value


def side(face_up: list[str], face_down: list[str]) -> str:
    """One side of a territory: face-up cards, then face-down ones in brackets (``??`` hidden)."""
    cards = [short(c) for c in face_up]
    cards += ["[??]" if c == "hidden" else f"[{short(c)}]" for c in face_down]
    cards += ["."] * (3 - len(cards))
    return " ".join(cards)


def marker(m: int | None) -> str:
    """The strength marker between the two sides."""
    return {None: "  --  ", 0: "<- 0  ", 1: "  1 ->"}[m]


def status(obs: DuellDerDrachenObservation) -> str:
    """Whose turn it is, or how the game ended."""
    if not obs["terminal"]:
        return f"seat {obs['current_player']} to move"
    how = "final count" if obs["final_count"] else "game over"
    return f"{how}: " + ("a draw" if obs["winner"] is None else f"seat {obs['winner']} wins")


def wrapped(label: str, cards: list[str]) -> list[str]:
    """``label: card, card, ...`` wrapped to the width."""
    text = f"{label}: " + (", ".join(cards) if cards else "none")
    return textwrap.wrap(text, WIDTH, subsequent_indent="    ")


def render(obs: DuellDerDrachenObservation, options: dict[str, Any] | None = None) -> Text:
    """The board from one seat: each territory with both sides, strengths, marker and
    display, every card in its colour."""
    return coloured(board(obs), PATTERNS)


def board(obs: DuellDerDrachenObservation) -> str:
    """The board as plain text."""
    lines = [
        f"Duell der Drachen, seat {obs['seat']}'s view: {status(obs)}",
        f"{'territory':<9} {'seat 0':<15} {'str':>3} {'marker':^6} {'str':<3} {'seat 1':<15} display",
    ]
    for t in obs["territories"]:
        s0 = side(t["face_up"][0], t["face_down"][0])
        s1 = side(t["face_up"][1], t["face_down"][1])
        display = t["display"] or "-"
        lines.append(
            f"{t['colour']:<9} {s0:<15} {t['strength'][0]:>3} {marker(t['marker'])} "
            f"{t['strength'][1]:<3} {s1:<15} {display}"
        )
    sizes = obs["hand_sizes"]
    lines.append(f"deck: {count(obs['deck'], 'card')}   hands: seat 0 {sizes[0]}, seat 1 {sizes[1]}   [..]: face down")
    lines += wrapped(f"your hand (seat {obs['seat']})", obs["hand"])
    if obs["opponent_hand"] is not None:
        lines += wrapped("opponent's hand", obs["opponent_hand"])
    for seat, known in enumerate(obs["known_cards"]):
        if known:
            lines += wrapped(f"seat {seat} took from the display (in hand or face down)", known)
    return "\n".join(lines)
