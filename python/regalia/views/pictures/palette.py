"""The colours and card sizes every game's picture is drawn with."""

from __future__ import annotations

#: An RGB colour.
Colour = tuple[int, int, int]
#: A rectangle: left, top, right, bottom.
Box = tuple[int, int, int, int]
#: A point: x, y.
Point = tuple[int, int]

FELT: Colour = (22, 88, 56)
FELT_DARK: Colour = (14, 62, 40)
INK: Colour = (30, 30, 30)
PAPER: Colour = (250, 247, 238)
WHITE: Colour = (255, 255, 255)
MUTED: Colour = (196, 214, 200)
GOLD: Colour = (236, 190, 60)
BACK: Colour = (120, 40, 48)
BACK_PATTERN: Colour = (170, 80, 80)
HIGHLIGHT: Colour = (255, 214, 90)

#: The least step between overlapping cards in a row.
MIN_STEP = 6
#: The size of a card in the hand and on the table, and of a small one (in a panel).
CARD = (54, 78)
SMALL = (36, 52)
