"""Regnum as a picture: the line-up of characters with their costs, the decks and the discard
pile, the standards, every seat's castle, points, hand and realm, and the decision pending;
resource cards in their colours (a dual card in both halves)."""

from __future__ import annotations

from typing import Any

from regalia.core.cards.regnum import CHAR_COLOURS, COLOURS, SLOT_NAMES, Character, card_set_for
from regalia.views.pictures.canvas import Canvas, row
from regalia.views.pictures.layout import header, others, place
from regalia.views.pictures.palette import GOLD, HIGHLIGHT, INK, MUTED, PAPER, WHITE, Box, Colour
from regalia.views.pictures.table import Table
from regalia.views.render.regnum import ASKED

SIZE = (1100, 700)
#: Resource colours by letter: green, orange, purple, grey.
RESOURCES: dict[str, Colour] = dict(zip(COLOURS, ((58, 150, 70), (232, 128, 36), (128, 70, 172), (150, 150, 150))))
#: Character colours.
CHARACTERS: dict[str, Colour] = dict(zip(CHAR_COLOURS, ((60, 100, 200), (196, 52, 52), (220, 176, 30))))
LINEUP_CARD = (118, 150)
TILE = (92, 34)
RESOURCE = (40, 58)


def resource(c: Canvas, box: Box, name: str) -> None:
    """A resource card (``G``, or ``G/O`` for a dual card: one colour in each half)."""
    left, top, right, bottom = box
    colours = [RESOURCES[x] for x in name.split("/")]
    c.card(box, fill=colours[0], outline=INK, width=2)
    if len(colours) == 2:
        c.polygon([(right - 2, top + 2), (right - 2, bottom - 2), (left + 2, bottom - 2)], fill=colours[1])
        c.rounded_rectangle(box, max(3, (right - left) // 9), outline=INK, width=2)
    c.text(((left + right) // 2, (top + bottom) // 2), name, max(10, (right - left) // 3), WHITE, "mm")


def _cost(c: Canvas, xy: tuple[int, int], slots: tuple[int, ...]) -> None:
    """A cost as a row of icons: a dot in a resource colour, ``=`` for a card of a pair of one
    colour, ``1`` for any card."""
    x, y = xy
    for i, slot in enumerate(slots):
        name = SLOT_NAMES[slot]
        fill = RESOURCES.get(name, PAPER)
        c.token((x + i * 18, y), 8, fill, "" if name in RESOURCES else name[-1])


def _character(c: Canvas, box: Box, card: Character | None, name: str) -> None:
    """A character card of the line-up: its colour, name, cost, points and effect or score."""
    left, top, right, bottom = box
    colour = CHARACTERS[CHAR_COLOURS[card.colour]] if card else MUTED
    c.card(box, fill=PAPER, outline=colour, width=3)
    c.rectangle((left + 3, top + 3, right - 3, top + 40), fill=colour)
    words = name.split()
    lines = [" ".join(words[: (len(words) + 1) // 2]), " ".join(words[(len(words) + 1) // 2 :])]
    c.text(((left + right) // 2, top + 22), "\n".join(line for line in lines if line), 12, WHITE, "mm")
    if card is None:
        return
    c.text((left + 8, top + 48), "cost", 10, INK)
    _cost(c, (left + 16, top + 72), card.slots)
    c.text((right - 8, bottom - 8), str(card.points), 22, INK, "rd")
    extra = card.effect or card.score or ""
    c.text((left + 8, bottom - 10), extra, 11, colour, "ld")


def _tile(c: Canvas, box: Box, card: Character | None, name: str) -> None:
    """A character in a realm, small: its colour, name and points."""
    left, top, right, bottom = box
    colour = CHARACTERS[CHAR_COLOURS[card.colour]] if card else MUTED
    c.card(box, fill=colour, outline=INK)
    short = name if c.text_width(name, 10) < right - left - 18 else name[: (right - left - 18) // 6] + "."
    c.text((left + 4, (top + bottom) // 2), short, 10, WHITE, "lm")
    if card:
        c.text((right - 4, (top + bottom) // 2), str(card.points), 12, WHITE, "rm")


def _status(obs: dict[str, Any]) -> str:
    if obs["terminal"]:
        return f"game over after {obs['turn']} turns"
    final = "" if obs["final_turns"] is None else f", final turns left: {obs['final_turns']}"
    return f"turn {obs['turn'] + 1}, seat {obs['active']} to play{final}"


def _asked(obs: dict[str, Any]) -> str:
    """What the deciding seat is asked (as the text board says it)."""
    if obs["terminal"]:
        return "the game is over"
    if obs["phase"] == "pay" and obs["character"] is not None and obs["cost"] is not None:
        return f"paying for {obs['character']} ({' '.join(obs['cost'])}): slot {(obs['pay_step'] or 0) + 1}"
    return f"seat {obs['current_player']} to {ASKED.get(obs['phase'], obs['phase'])}"


def _seat(c: Canvas, table: Table, seat: int, box: Box, cards: dict[str, Character]) -> None:
    """A seat's place: castle, points, hand (open, or backs with the cards known in it) and realm."""
    base = table.base
    left, top, right, bottom = box
    place(c, table, seat, box, f"{table.who(seat)}: {base['castles'][seat]}")
    c.text((right - 10, top + 8), f"{base['scores'][seat]} points", 14, GOLD, "ra")
    if table.is_open(seat):
        hand: list[str | None] = list(table.views[seat]["hand"])
    else:
        known = list(base["known"][seat])
        hand = known + [None] * (base["hand_sizes"][seat] - len(known))
    c.text((left + 10, top + 30), f"hand ({len(hand)})", 12, MUTED)
    row(c, (left + 10, top + 46), min(right - left - 20, 420), hand, resource, RESOURCE)
    realm = base["realms"][seat]
    c.text((left + 10, top + 112), f"realm ({len(realm)})", 12, MUTED)
    per_row = max(1, (right - left - 20) // (TILE[0] + 4))
    room = per_row * ((bottom - 4 - top - 128) // (TILE[1] + 4))
    shown = realm if len(realm) <= room else realm[: room - 1]
    for i, name in enumerate(shown):
        x = left + 10 + (i % per_row) * (TILE[0] + 4)
        y = top + 128 + (i // per_row) * (TILE[1] + 4)
        c.drawn(_tile, (x, y, x + TILE[0], y + TILE[1]), cards.get(name), name)
    if len(shown) < len(realm):
        i = len(shown)
        xy = (left + 10 + (i % per_row) * (TILE[0] + 4), top + 128 + (i // per_row) * (TILE[1] + 4) + 10)
        c.text(xy, f"+{len(realm) - len(shown)} more", 13, WHITE)


def draw(c: Canvas, table: Table, options: dict[str, Any]) -> None:
    """Regnum: the line-up, decks and standards on top, the other seats in the middle, the
    bottom seat below."""
    base = table.base
    cards = {ch.name: ch for ch in card_set_for(options, table.players).characters}
    header(c, table, "Regnum", _status(base))
    for i, name in enumerate(base["lineup"]):
        x = 14 + i * (LINEUP_CARD[0] + 8)
        box = (x, 46, x + LINEUP_CARD[0], 46 + LINEUP_CARD[1])
        if name is None:
            c.slot(box, 8)
        else:
            c.drawn(_character, box, cards.get(name), name)
    c.pile((530, 60), base["character_deck"], "characters", RESOURCE)
    c.pile((600, 60), base["resource_deck"], "resources", RESOURCE)
    discard = base["discard"]
    if discard:
        c.drawn(resource, (670, 60, 670 + RESOURCE[0], 60 + RESOURCE[1]), discard[-1])
    c.text((690, 124), "discard", 13, MUTED, "ma")
    c.text((690, 140), str(len(discard)), 15, WHITE, "ma")
    c.text((740, 46), "standards in play", 14, GOLD)
    c.text((740, 68), "\n".join(base["standards"]), 13, WHITE, spacing=6)
    for seat, box in others(c, table, 206, 436):
        _seat(c, table, seat, box, cards)
    _seat(c, table, table.bottom, (14, 446, 1086, 650), cards)
    c.text((14, 660), _asked(base), 15, HIGHLIGHT)
    if base["deck_cards"] is not None:
        c.text((560, 476), "the resource deck, looked through", 12, MUTED)
        row(c, (560, 492), 516, base["deck_cards"], resource, (28, 40))
