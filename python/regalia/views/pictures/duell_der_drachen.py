"""Duell der Drachen as a picture: the five territories with both sides, strengths, markers
and display cards, the deck and both hands; face-down cards are backs, with the card shown
small on them where the viewer knows it."""

from __future__ import annotations

from typing import Any

from regalia.views.pictures.canvas import Canvas, known_back, row
from regalia.views.pictures.layout import header, place
from regalia.views.pictures.palette import GOLD, INK, MUTED, SMALL, WHITE, Box, Colour
from regalia.views.pictures.table import Table

SIZE = (1000, 604)
COLOURS: dict[str, Colour] = {
    "red": (200, 46, 46),
    "blue": (40, 90, 196),
    "green": (34, 140, 70),
    "yellow": (224, 176, 24),
    "white": (236, 236, 230),
}
#: A card on the board.
BOARD = (44, 64)
COLUMN = 158


def face(c: Canvas, box: Box, name: str) -> None:
    """A card (``red 7``): its colour, its value."""
    colour_name, value = name.split()
    colour = COLOURS[colour_name]
    left, top, right, bottom = box
    ink = INK if colour_name in ("white", "yellow") else WHITE
    c.card(box, fill=colour, outline=INK, width=2)
    c.text(((left + right) // 2, (top + bottom) // 2), value, max(12, (bottom - top) * 4 // 10), ink, "mm")
    c.text((left + 4, top + 2), value, max(9, (right - left) // 5), ink)


def _status(obs: dict[str, Any]) -> str:
    if not obs["terminal"]:
        return f"seat {obs['current_player']} to move"
    how = "final count" if obs["final_count"] else "game over"
    return f"{how}: " + ("a draw" if obs["winner"] is None else f"seat {obs['winner']} wins")


def _side(c: Canvas, table: Table, territory: int, seat: int, xy: tuple[int, int], per_side: int) -> None:
    """One seat's side of a territory: face-up cards, then face-down ones (open where that seat's
    cards are), empty places (of the ``per_side`` a side holds) outlined."""
    t = table.base["territories"][territory]
    down = table.views[seat]["territories"][territory]["face_down"][seat] if table.is_open(seat) else None
    x, y = xy
    for i in range(per_side):
        box = (x + i * (BOARD[0] + 4), y, x + i * (BOARD[0] + 4) + BOARD[0], y + BOARD[1])
        ups = t["face_up"][seat]
        if i < len(ups):
            c.drawn(face, box, ups[i])
        elif i - len(ups) < len(t["face_down"][seat]):
            name = t["face_down"][seat][i - len(ups)] if down is None else down[i - len(ups)]
            if name == "hidden":
                c.back(box)
            else:
                known_back(c, box, name, face)
        else:
            c.slot(box, 5)


def _territory(c: Canvas, table: Table, i: int, top_seat: int, per_side: int) -> None:
    """A territory's column: the top seat's side, the band with strengths and marker, the
    bottom seat's side and the display card."""
    t = table.base["territories"][i]
    x = 16 + i * COLUMN
    _side(c, table, i, top_seat, (x + 4, 146), per_side)
    band = (x, 218, x + COLUMN - 8, 330)
    colour = COLOURS[t["colour"]]
    c.panel(band, fill=colour, outline=INK)
    ink = INK if t["colour"] in ("white", "yellow") else WHITE
    cx = (band[0] + band[2]) // 2
    c.text((cx, 274), t["colour"], 15, ink, "mm")
    c.text((band[0] + 8, 224), str(t["strength"][top_seat]), 14, ink)
    c.text((band[0] + 8, 324), str(t["strength"][table.bottom]), 14, ink, "ld")
    marker_y = {None: 274, top_seat: 236, table.bottom: 312}[t["marker"]]
    c.token((band[2] - 22, marker_y), 11, GOLD, "M")
    _side(c, table, i, table.bottom, (x + 4, 340), per_side)
    c.text((x + 6, 428), "display", 12, MUTED)
    if t["display"] is None:
        c.slot((x + 60, 414, x + 60 + SMALL[0], 414 + SMALL[1]), 5)
    else:
        c.drawn(face, (x + 60, 414, x + 60 + SMALL[0], 414 + SMALL[1]), t["display"])


def _hand(c: Canvas, table: Table, seat: int, top: int) -> None:
    """A seat's hand (open if its cards are, or once the game is over) and the cards it is
    known to have taken from the display."""
    base = table.base
    if not table.is_open(seat) and base["opponent_hand"] is not None:
        hand: list[str | None] = list(base["opponent_hand"])
    else:
        hand = table.hand(seat)
    place(c, table, seat, (14, top, 986, top + 96), f"{table.who(seat)}: {len(hand)} in hand", " to move", inset=12)
    row(c, (26, top + 30), 440, hand, face, (40, 58))
    c.text((500, top + 8), "took from the display (in hand or face down)", 13, MUTED)
    row(c, (500, top + 30), 470, base["known_cards"][seat], face, (40, 58))


def draw(c: Canvas, table: Table, options: dict[str, Any]) -> None:
    """Duell der Drachen: the top seat's hand above, the territories between, the bottom seat's below."""
    base = table.base
    top_seat = 1 - table.bottom
    header(c, table, "Duell der Drachen", _status(base))
    _hand(c, table, top_seat, 40)
    for i in range(len(base["territories"])):
        _territory(c, table, i, top_seat, options.get("cards_per_side", 3))
    c.pile((16 + 5 * COLUMN + 30, 230), base["deck"], "deck", BOARD)
    _hand(c, table, table.bottom, 480)
    legend = "M: the territory's marker, on the side it stands with; small cards on backs: face down"
    c.text((16, 584), legend, 12, MUTED)
