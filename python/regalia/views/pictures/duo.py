"""Duo as a picture: every seat's place (score, hand), the draw pile, the two discard piles and
the turn in progress; Symbol cards show their number as that many shapes in their colour."""

from __future__ import annotations

from typing import Any

from regalia.views.pictures.canvas import Canvas, row
from regalia.views.pictures.layout import header, others, place
from regalia.views.pictures.palette import CARD, INK, MUTED, PAPER, SMALL, WHITE, Box, Colour
from regalia.views.pictures.shapes import SHAPES, star
from regalia.views.pictures.table import Table
from regalia.views.render.words import count as cards

SIZE = (1000, 560)
COLOURS: dict[str, Colour] = {
    "blue": (40, 92, 200),
    "red": (204, 48, 48),
    "yellow": (226, 178, 20),
    "green": (36, 148, 72),
}
JOKER: Colour = (70, 70, 70)
#: The big card of a pile's top.
TOP = (72, 104)


def face(c: Canvas, box: Box, name: str) -> None:
    """A Duo card: ``blue 2 circle`` (its number as shapes), ``blue joker``, ``2 joker``,
    ``circle joker`` or ``turbo-joker``; the top-left corner says the card when overlapped
    (number and shape; ``J`` with a Joker's number or shape)."""
    left, top, right, bottom = box
    w, h = right - left, bottom - top
    cx = (left + right) // 2
    parts = name.split()
    if name == "turbo-joker":
        c.card(box, outline=INK, width=2)
        for i, colour in enumerate(COLOURS.values()):
            qx, qy = left + 4 + (i % 2) * (w - 8) // 2, top + 16 + (i // 2) * (h - 24) // 2
            c.rectangle((qx, qy, qx + (w - 8) // 2, qy + (h - 24) // 2), fill=colour)
        star(c, cx, (top + bottom) // 2 + 4, w // 4, WHITE)
        c.text((left + 4, top + 2), "T", max(10, w // 5), INK)
        return
    if parts[-1] == "joker":
        trait = parts[0]
        colour = COLOURS.get(trait, JOKER)
        c.card(box, fill=colour if trait in COLOURS else PAPER, outline=INK, width=2)
        ink = WHITE if trait in COLOURS else INK
        c.text((left + 4, top + 2), "J" + (trait if trait.isdigit() else ""), max(10, w // 5), ink)
        if trait in SHAPES:
            SHAPES[trait](c, left + 9, top + 8 + max(10, w // 5), 4, JOKER)  # seen when overlapped
            SHAPES[trait](c, cx, (top + bottom) // 2 - 2, w // 4, JOKER)
        elif trait in COLOURS:
            star(c, cx, (top + bottom) // 2 - 2, w // 4, WHITE)
        else:
            c.text((cx, (top + bottom) // 2 - 2), trait, h // 3, INK, "mm")
        c.text((cx, bottom - 4), "joker", max(9, w // 6), ink, "md")
        return
    colour_name, number, shape = parts
    colour = COLOURS[colour_name]
    c.card(box, outline=colour, width=3)
    c.text((left + 5, top + 3), number, max(10, w // 4), colour)
    SHAPES[shape](c, left + 9, top + 8 + max(10, w // 4), 4, colour)  # seen when overlapped
    n = int(number)
    r = max(4, min(w // 5, (h - 26) // (2 * n + 1)))
    for i in range(n):
        y = top + 18 + (h - 24) * (2 * i + 1) // (2 * n)
        SHAPES[shape](c, cx + w // 10, y, r, colour)


def _status(obs: dict[str, Any]) -> str:
    head = f"round {obs['round']} (seat {obs['first_player']} began), target {obs['target']}"
    if obs["terminal"]:
        return head + ": the game is over"
    return head + f", seat {obs['current_player']} to play"


def _seat(c: Canvas, table: Table, seat: int, box: Box, size: tuple[int, int]) -> None:
    """One seat's place: name, score, hand size and hand (backs unless that seat's cards are open)."""
    base = table.base
    left, top, right, _ = box
    place(c, table, seat, box, table.who(seat), " to play")
    held = base["hand_sizes"][seat]
    c.text((right - 10, top + 8), f"{base['scores'][seat]} pts, {cards(held, 'card')}", 13, MUTED, "ra")
    row(c, (left + 10, top + 30), right - left - 20, table.hand(seat), face, size)


def _pile(c: Canvas, xy: tuple[int, int], label: str, top_card: str, count: int) -> None:
    """A discard pile: its top card, big, over edges of the cards beneath."""
    x, y = xy
    for i in range(min(count - 1, 3), 0, -1):
        c.card((x + 3 * i, y - 3 * i, x + TOP[0] + 3 * i, y + TOP[1] - 3 * i), outline=MUTED)
    c.drawn(face, (x, y, x + TOP[0], y + TOP[1]), top_card)
    c.text((x + TOP[0] // 2, y + TOP[1] + 8), f"{label} pile, {cards(count, 'card')}", 13, MUTED, "ma")


def draw(c: Canvas, table: Table, options: dict[str, Any]) -> None:
    """Duo: the other seats along the top, the piles in the middle, the bottom seat's hand below."""
    base = table.base
    header(c, table, "Duo", _status(base))
    for seat, box in others(c, table, 44, 150):
        _seat(c, table, seat, box, SMALL)
    c.pile((50, 196), base["draw_pile"], "draw pile", TOP)
    for i, label in enumerate(("left", "right")):
        _pile(c, (220 + i * 150, 196), label, base["pile_tops"][i], len(base["pile_cards"][i]))
    c.panel((540, 170, 986, 380))
    if base["turn_pile"] is not None:
        c.text((556, 182), f"seat {base['current_player']} plays on the {base['turn_pile']} pile:", 14, WHITE)
        row(c, (556, 206), 414, base["turn_cards"], face, CARD)
    else:
        c.text((556, 182), "the game is over" if base["terminal"] else "no card played yet this turn", 14, MUTED)
    if base["last_round"] is not None:
        c.text((556, 300), _last_round(base["last_round"]), 13, MUTED)
    _seat(c, table, table.bottom, (14, 410, 986, 520), CARD)
    c.text((14, 532), "scores: " + ", ".join(f"seat {i} {x}" for i, x in enumerate(base["scores"])), 14, WHITE)


def _last_round(last: dict[str, Any]) -> str:
    """How the last round ended."""
    if last["winner"] is None:
        points = ", ".join(f"seat {i} {p:+d}" for i, p in enumerate(last["points"]))
        return f"last round: the draw pile ran out\n{points}"
    return f"last round: seat {last['winner']} played her last card (+{last['points'][last['winner']]})"
