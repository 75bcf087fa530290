"""Duo Regna as a picture: both kingdoms' unplayed cards, a pending choice, the last reveal,
the dragon pile, the captures and the dragon's track between the two sides."""

from __future__ import annotations

from functools import cache
from typing import Any

from regalia.views.pictures.canvas import Canvas, FaceDrawer, row
from regalia.views.pictures.layout import header
from regalia.views.pictures.palette import CARD, GOLD, HIGHLIGHT, INK, MUTED, PAPER, WHITE, Box, Colour
from regalia.views.pictures.shapes import crown, diamond, shield, star
from regalia.views.pictures.table import Table

SIZE = (900, 540)
#: Each kingdom's colour, by seat.
KINGDOM: tuple[Colour, Colour] = ((52, 104, 196), (186, 52, 52))
DRAGON: Colour = (40, 150, 90)
#: The word under a card's value.
TITLES = {"X": "shield", "0": "jester", "4": "bishop", "6 king": "king", "6 queen": "queen"}


@cache
def _face(seat: int) -> FaceDrawer:
    """The face drawer of ``seat``'s kingdom (one function a seat, so that its cards are kept
    drawn: ``Canvas.drawn``)."""

    def face(c: Canvas, box: Box, name: str) -> None:
        colour = KINGDOM[seat]
        left, top, right, bottom = box
        c.card(box, outline=colour, width=3)
        cx = (left + right) // 2
        value = name.split()[0]
        if value == "X":
            shield(c, cx, top + 30, 15, colour)
        else:
            c.text((cx, top + 30), value, 28, colour, "mm")
        if name == "0":
            star(c, cx, bottom - 24, 8, GOLD)
        elif name.startswith("6"):
            crown(c, cx, bottom - 24, 9 if name == "6 king" else 6, GOLD)
        if name in TITLES:
            c.text((cx, bottom - 6), TITLES[name], 10, INK, "md")

    return face


def _dragon_card(c: Canvas, box: Box, dragons: int) -> None:
    """A dragon card showing ``dragons`` dragons."""
    left, top, right, bottom = box
    c.card(box, fill=PAPER, outline=DRAGON, width=3)
    cx = (left + right) // 2
    for i in range(dragons):
        diamond(c, cx + int((i - (dragons - 1) / 2) * 24), (top + bottom) // 2 - 8, 12, DRAGON)
    c.text((cx, bottom - 8), f"{dragons} dragon" + ("s" if dragons > 1 else ""), 11, INK, "md")


def _captures(c: Canvas, xy: tuple[int, int], count: int) -> None:
    x, y = xy
    c.text((x, y), f"dragons won: {count}", 14, WHITE)
    for i in range(count):
        diamond(c, x + 124 + i * 20, y + 8, 10, DRAGON)


def _status(obs: dict[str, Any]) -> str:
    if obs["terminal"]:
        return f"game over after round {obs['round']}"
    return f"round {obs['round'] + 1}, seat {obs['current_player']} to choose"


def _side(c: Canvas, table: Table, seat: int, top: int) -> None:
    """One kingdom's place: its name, captures, unplayed cards and (seat 0) its pending choice."""
    base = table.base
    c.panel((14, top, 680, top + 146))
    c.text((26, top + 8), table.who(seat), 15, HIGHLIGHT if seat == table.viewer else WHITE)
    _captures(c, (200, top + 8), base["captured"][seat])
    cards = table.views[seat]["hand"] if table.is_open(seat) else base["opponent_hand"]
    row(c, (26, top + 36), 520, cards, _face(seat), CARD)
    if not table.is_open(seat):
        c.text((26, top + 122), "cards not yet played (public: every reveal was seen)", 12, MUTED)
    if seat == 0:
        _choice(c, table, (26 + 520 + 33, top + 54))


def _choice(c: Canvas, table: Table, xy: tuple[int, int]) -> None:
    """Seat 0's pending choice (seat 0 chooses first): face down unless seat 0's cards are open."""
    x, y = xy
    c.text((x + CARD[0] // 2, y - 18), "chosen", 12, MUTED, "ma")
    slot = (x, y, x + CARD[0], y + CARD[1])
    if not table.base["committed"]:
        c.slot(slot)
    elif table.is_open(0):
        c.drawn(_face(0), slot, table.views[0]["my_choice"])
    else:
        c.back(slot)


def _track(c: Canvas, table: Table, top_seat: int) -> None:
    """The dragon's three places, the top seat's side first."""
    base = table.base
    c.panel((700, 44, 886, 526))
    c.text((793, 52), "the dragon", 15, GOLD, "ma")
    place = None
    if base["dragon"] is not None:
        side = base["dragon_side"]
        place = 1 if side is None else (0 if side == top_seat else 2)
    labels = [f"seat {top_seat}'s side", "centre", f"seat {table.bottom}'s side"]
    for i, label in enumerate(labels):
        y = 80 + i * 150
        box = (743, y, 843, y + 110)
        if i == place:
            _dragon_card(c, box, base["dragon"])
        else:
            c.slot(box, 8)
        c.text((793, y + 116), label, 13, MUTED, "ma")


def draw(c: Canvas, table: Table, options: dict[str, Any]) -> None:
    """Duo Regna: the top seat above, the bottom seat below, the dragon's track on the right."""
    base = table.base
    top_seat = 1 - table.bottom
    header(c, table, "Duo Regna", _status(base))
    _side(c, table, top_seat, 44)
    _side(c, table, table.bottom, 380)
    _track(c, table, top_seat)
    c.pile((40, 222), base["dragons_in_pile"], "dragon pile")
    c.text((180, 206), "last reveal", 14, MUTED)
    if base["last_reveal"]:
        for i, seat in enumerate((top_seat, table.bottom)):
            x = 180 + i * 80
            c.drawn(_face(seat), (x, 228, x + CARD[0], 228 + CARD[1]), base["last_reveal"][seat])
            c.text((x + CARD[0] // 2, 312), f"seat {seat}", 12, MUTED, "ma")
    else:
        c.text((180, 230), "none yet", 13, MUTED)
    notes = [f"round {base['round'] + (0 if base['terminal'] else 1)}"]
    if base["committed"]:
        notes.append("seat 0 has chosen" + ("" if table.is_open(0) else ", face down"))
    c.text((380, 230), "\n".join(notes), 14, WHITE)
