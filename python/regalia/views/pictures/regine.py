"""Regine as a picture: every seat's hand and the cards in front of it, the deck and discard
pile, and the four Suits with their bets; a seat's own face-down cards are backs with the card
shown small on them."""

from __future__ import annotations

from typing import Any

from regalia.core.cards.regine import CARD_NAMES, SUIT_NAMES, VALUE
from regalia.views.pictures.canvas import Canvas, known_back, row
from regalia.views.pictures.layout import header, place
from regalia.views.pictures.palette import CARD, GOLD, HIGHLIGHT, INK, MUTED, WHITE, Box, Colour
from regalia.views.pictures.shapes import SHAPES, Shape
from regalia.views.pictures.table import Table

SIZE = (1000, 580)
#: Each kind's colour and emblem.
KINDS: dict[str, tuple[Colour, Shape]] = {
    "jester": ((60, 150, 80), SHAPES["star"]),
    "peasant": ((140, 100, 60), SHAPES["square"]),
    "assassin": ((60, 60, 70), SHAPES["cross"]),
    "courtesan": ((210, 90, 140), SHAPES["circle"]),
    "herald": ((220, 130, 40), SHAPES["triangle"]),
    "knight": ((100, 120, 150), SHAPES["shield"]),
    "princess": ((150, 90, 200), SHAPES["diamond"]),
    "queen": ((200, 40, 60), SHAPES["crown"]),
}
#: Each seat's chip colour.
CHIPS: tuple[Colour, ...] = ((80, 140, 230), (230, 90, 80), (90, 190, 110), (230, 200, 80))
ROW = 122


def face(c: Canvas, box: Box, name: str) -> None:
    """A Regine card: its kind's colour, emblem and name, its value for the Game in the corner."""
    colour, emblem = KINDS[name]
    left, top, right, bottom = box
    w = right - left
    c.card(box, outline=colour, width=3)
    c.text((left + 5, top + 3), str(VALUE[CARD_NAMES.index(name)]), max(9, w // 5), colour)
    emblem(c, (left + right) // 2, (top + bottom) // 2 - 2, w // 4, colour)
    c.text(((left + right) // 2, bottom - 4), name, max(8, w // 6), INK, "md")


def _status(obs: dict[str, Any]) -> str:
    head = f"round {obs['round'] + (0 if obs['terminal'] else 1)}, dealer seat {obs['dealer']}, phase {obs['phase']}"
    if obs["current_player"] is None:
        return head
    suit = f" on {obs['suit']}" if obs["suit"] else ""
    return head + f": seat {obs['current_player']} decides{suit} ({obs['decision']})"


def _seat(c: Canvas, table: Table, seat: int, top: int) -> None:
    """A seat's row: name and score, its hand (backs unless open) and the cards in front of it."""
    base = table.base
    label = f"{table.who(seat)}: {base['scores'][seat]} points" + (", dealer" if base["dealer"] == seat else "")
    place(c, table, seat, (14, top, 690, top + ROW - 8), label, " to decide", inset=12)
    c.text((26, top + 28), "hand", 12, MUTED)
    row(c, (64, top + 28), 230, table.hand(seat), face, CARD)
    c.text((310, top + 28), "in front", 12, MUTED)
    shown = table.views[seat]["table"][seat] if table.is_open(seat) else base["table"][seat]
    x = 370
    step = min(CARD[0] + 6, 300 // max(1, len(shown)))
    for i, slot in enumerate(shown):
        box = (x + i * step, top + 28, x + i * step + CARD[0], top + 28 + CARD[1])
        if slot["card"] is None:
            c.back(box)
        elif slot["face_up"]:
            c.drawn(face, box, slot["card"])
        else:
            known_back(c, box, slot["card"], face)


def _suits(c: Canvas, base: dict[str, Any], top: int) -> None:
    """The four Suits: chips bet on each, who doubled, who won and for how much."""
    c.text((712, top), "Suits and bets", 15, GOLD)
    for i, suit in enumerate(SUIT_NAMES):
        y = top + 26 + i * 44
        c.text((712, y), suit, 14, WHITE)
        for j, seat in enumerate(base["bets"][i]):
            c.token((800 + j * 26, y + 8), 10, CHIPS[seat % len(CHIPS)], str(seat))
        notes = []
        if base["double_down"][i] is not None:
            notes.append(f"doubled by {base['double_down'][i]}")
        if base["suit_winners"][i] is not None:
            notes.append(f"won by seat {base['suit_winners'][i]} (+{base['suit_points'][i]})")
        c.text((712, y + 20), ", ".join(notes), 12, MUTED)


def draw(c: Canvas, table: Table, options: dict[str, Any]) -> None:
    """Regine: one row per seat (the bottom seat last), the piles and Suits on the right."""
    base = table.base
    header(c, table, "Regine", _status(base))
    seats = table.around()[1:] + [table.bottom]
    for i, seat in enumerate(seats):
        _seat(c, table, seat, 44 + (4 - len(seats) + i) * ROW)
    c.panel((700, 44, 986, 566))
    c.pile((720, 60), base["deck_size"], "deck")
    c.pile((800, 60), base["discard_size"], "discard")
    c.text((880, 64), f"target {base['target']}", 13, WHITE)
    if base["no_changes"]:
        c.text((880, 84), "NO CHANGES", 13, HIGHLIGHT)
    notes = []
    if base["marked"]:
        notes.append("marked: " + ", ".join(base["marked"]))
    elif base["marked_count"]:
        notes.append(f"seat {base['turn']} exchanges {base['marked_count']}")
    if base["herald_card"]:
        notes.append(f"the Herald shows: {base['herald_card']}")
    c.text((712, 180), "\n".join(notes), 13, WHITE)
    if base["phase"] != "build":
        _suits(c, base, 230)
    elif base["last_combinations"]:
        c.text((712, 230), "last round", 15, GOLD)
        for k, combo in enumerate(base["last_combinations"]):
            c.text((712, 256 + k * 20), f"seat {k}: {' '.join(combo)}", 12, WHITE)
