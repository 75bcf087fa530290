"""The drawing surface every game's picture is drawn on: a felt table, cards, backs, piles,
labels and tokens, in Pillow's built-in font (the same on every machine)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

import numpy as np
import numpy.typing as npt

try:
    from PIL import Image, ImageDraw, ImageFont
except ImportError as error:  # pragma: no cover - exercised in a test that hides Pillow
    raise ModuleNotFoundError(
        'pictures of the table need Pillow; install it with: pip install "regalia[pictures]"', name="PIL"
    ) from error

#: An RGB colour.
Colour = tuple[int, int, int]
#: A rectangle: left, top, right, bottom.
Box = tuple[int, int, int, int]

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


@cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's built-in font at ``size`` pixels (no system font, so pictures match everywhere)."""
    return ImageFont.load_default(size=size)


class Canvas:
    """One picture being drawn: a felt table of a fixed size and the helpers to draw on it."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.image = Image.new("RGB", size, FELT)
        self.draw = ImageDraw.Draw(self.image)
        self.width, self.height = size

    def array(self) -> npt.NDArray[np.uint8]:
        """The picture as an (H, W, 3) uint8 array."""
        pixels: npt.NDArray[np.uint8] = np.array(self.image, dtype=np.uint8)
        return pixels

    def text(
        self,
        xy: tuple[int, int],
        text: str,
        size: int = 14,
        fill: Colour = WHITE,
        anchor: str = "la",
        spacing: int = 4,
    ) -> None:
        """``text`` at ``xy`` (Pillow's anchors: ``la`` left-top, ``mm`` centred, ...); lines
        ``spacing`` pixels apart."""
        self.draw.text(xy, text, fill=fill, font=font(size), anchor=anchor, spacing=spacing)

    def text_width(self, text: str, size: int = 14) -> int:
        """How wide ``text`` is drawn at ``size``."""
        return int(self.draw.textlength(text, font=font(size)))

    def panel(self, box: Box, fill: Colour = FELT_DARK, outline: Colour | None = None, width: int = 2) -> None:
        """A rounded area of the table (a seat's place, a score board)."""
        self.draw.rounded_rectangle(box, radius=10, fill=fill, outline=outline, width=width)

    def card(self, box: Box, fill: Colour = PAPER, outline: Colour = INK, width: int = 1) -> None:
        """A blank card face."""
        self.draw.rounded_rectangle(box, radius=max(3, (box[2] - box[0]) // 9), fill=fill, outline=outline, width=width)

    def back(self, box: Box) -> None:
        """A face-down card: its back, a framed diamond."""
        self.card(box, fill=BACK, outline=WHITE, width=2)
        left, top, right, bottom = box
        self.draw.rectangle((left + 5, top + 5, right - 5, bottom - 5), outline=BACK_PATTERN, width=1)
        cx, cy = (left + right) // 2, (top + bottom) // 2
        rx, ry = (right - left) // 4, (bottom - top) // 4
        self.draw.polygon([(cx, cy - ry), (cx + rx, cy), (cx, cy + ry), (cx - rx, cy)], fill=BACK_PATTERN)

    def pile(self, xy: tuple[int, int], count: int, label: str, size: tuple[int, int] = CARD) -> None:
        """A face-down pile: a few stacked backs (none when empty), its label and card count under it."""
        x, y = xy
        w, h = size
        shown = min(count, 4)
        if shown == 0:
            self.draw.rounded_rectangle((x, y, x + w, y + h), radius=6, outline=MUTED, width=1)
        for i in range(shown):
            self.back((x + 2 * i, y - 2 * i, x + w + 2 * i, y + h - 2 * i))
        self.text((x + w // 2, y + h + 6), label, 13, MUTED, "ma")
        self.text((x + w // 2, y + h + 22), str(count), 15, WHITE, "ma")

    def token(self, centre: tuple[int, int], radius: int, fill: Colour, label: str = "", outline: Colour = INK) -> None:
        """A round marker or chip, with an optional label on it."""
        x, y = centre
        self.draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=fill, outline=outline, width=2)
        if label:
            self.text(centre, label, max(10, radius), INK, "mm")

    def header(self, title: str, view: str, status: str) -> None:
        """The band at the top: the game, whose view this is, and the state of play."""
        self.draw.rectangle((0, 0, self.width, 34), fill=FELT_DARK)
        self.text((14, 8), title, 18, GOLD)
        self.text((self.width - 14, 8), view, 16, HIGHLIGHT, "ra")
        self.text((14 + self.text_width(title, 18) + 24, 10), status, 15, WHITE)


#: Draws one card's face in a box.
FaceDrawer = Callable[[Canvas, Box, str], None]


def known_back(canvas: Canvas, box: Box, name: str, face: FaceDrawer) -> None:
    """A face-down card the viewer knows: its back, with the card drawn small on it by ``face``."""
    left, top, right, bottom = box
    canvas.back(box)
    dx, dy = (right - left) // 5, (bottom - top) // 5
    face(canvas, (left + dx, top + dy, right - dx, bottom - dy), name)


def spread(count: int, width: int, card_width: int, gap: int = 6) -> int:
    """The step between ``count`` cards laid in a row of ``width`` pixels: side by side with
    ``gap`` when they fit, overlapping evenly when they do not."""
    if count <= 1:
        return card_width + gap
    return min(card_width + gap, (width - card_width) // (count - 1))


def row(
    canvas: Canvas,
    xy: tuple[int, int],
    width: int,
    cards: Sequence[str | None],
    face: FaceDrawer,
    size: tuple[int, int] = CARD,
) -> None:
    """Cards in a row from ``xy`` within ``width`` pixels: a name is drawn by ``face``, ``None``
    as a back. Cards overlap to fit; past ``MIN_STEP`` pixels apart the row ends in a badge
    saying how many more there are."""
    x, y = xy
    w, h = size
    fit = max(1, (width - w) // MIN_STEP + 1)
    shown = cards if len(cards) <= fit else cards[: fit - 1]
    step = spread(len(cards) if len(cards) <= fit else fit, width, w)
    for i, name in enumerate(shown):
        box = (x + i * step, y, x + i * step + w, y + h)
        if name is None:
            canvas.back(box)
        else:
            face(canvas, box, name)
    if len(shown) < len(cards):
        left = x + len(shown) * step
        canvas.panel((left, y + h // 3, left + w, y + 2 * h // 3), fill=INK, outline=WHITE, width=1)
        canvas.text((left + w // 2, y + h // 2), f"+{len(cards) - len(shown)}", 12, WHITE, "mm")


def seat_view(seat: int | None) -> str:
    """What the header says of whose view a picture is."""
    return "spectator: all cards open" if seat is None else f"seat {seat}'s view"
