"""The drawing surface every game's picture is drawn on: a felt table, cards, backs, piles,
labels and tokens, in Pillow's built-in font (the same on every machine), drawn as a raster
(Pillow) or as SVG by the same calls.

A web server draws an SVG picture for every seat after every move, mostly of the same cards
and words: the SVG backend keeps what it wrote for a line of text, a text's width, and a
card drawn by a ``Canvas.drawn`` call, each in a bounded cache keyed by every argument it was
drawn from. Each kept piece is a pure function of its key (what a seat's picture may show, and
nothing else), so a piece drawn for one seat is the very piece any seat would draw from the
same arguments: no cache can carry what one seat sees into another's picture. ``caches(False)``
draws without them (the tests compare the two).
"""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache, lru_cache
from xml.sax.saxutils import escape

import numpy as np
import numpy.typing as npt

try:
    from PIL import Image, ImageDraw, ImageFont
except ImportError as error:  # pragma: no cover - exercised in a test that hides Pillow
    raise ModuleNotFoundError(
        'pictures of the table need Pillow; install it with: pip install "regalia[pictures]"', name="PIL"
    ) from error

from regalia.views.pictures.palette import (
    BACK,
    BACK_PATTERN,
    CARD,
    FELT,
    FELT_DARK,
    GOLD,
    HIGHLIGHT,
    INK,
    MIN_STEP,
    MUTED,
    PAPER,
    WHITE,
    Box,
    Colour,
    Point,
)


@cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's built-in font at ``size`` pixels (no system font, so pictures match everywhere)."""
    return ImageFont.load_default(size=size)


def font_file() -> bytes:
    """The built-in font's TrueType file (Aileron, SIL Open Font License): a page that shows
    the SVG pictures serves it, so their text is drawn in the font their layout was measured in."""
    source = getattr(font(14), "path", None)
    return source.getvalue() if isinstance(source, io.BytesIO) else b""


#: The font an SVG picture names: the built-in one where the page provides it, else any sans-serif.
SVG_FONT = "Aileron, Helvetica, Arial, sans-serif"


#: How many lines of text, text widths and drawn cards the SVG backend keeps (each a few
#: hundred bytes at most: a few MB in all).
TEXTS = 8192
SHAPES = 8192
FRAGMENTS = 2048

_caching = threading.local()


def caching() -> bool:
    """Whether this thread's SVG drawings use the caches (they do unless ``caches(False)``)."""
    return bool(getattr(_caching, "on", True))


@contextmanager
def caches(enabled: bool) -> Iterator[None]:
    """Draws in this thread with the caches on or off while the ``with`` block runs."""
    before = caching()
    _caching.on = enabled
    try:
        yield
    finally:
        _caching.on = before


@cache
def _metrics(size: int) -> tuple[int, int, int]:
    """The font's ascent and descent at ``size`` and the height of a capital (a line's step
    without its spacing)."""
    ascent, descent = font(size).getmetrics()  # type: ignore[union-attr]
    return ascent, descent, int(font(size).getbbox("A")[3])


def _baseline(y: float, anchor: str, size: int) -> float:
    """Where the baseline of a line anchored at height ``y`` lies (Pillow's vertical anchors:
    ``a`` ascender, ``m`` middle, ``s`` baseline, ``d`` descender), by the font's own metrics."""
    ascent, descent, _ = _metrics(size)
    return {"a": y + ascent, "m": y + (ascent - descent) / 2, "d": y - descent}.get(anchor[1], y)


def _measure(text: str, size: int) -> int:
    return int(font(size).getlength(text))


_measured = lru_cache(maxsize=TEXTS)(_measure)


class _Pillow:
    """The raster backend: Pillow draws into an RGB image."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.image = Image.new("RGB", size, FELT)
        self.pen = ImageDraw.Draw(self.image)

    def rectangle(self, box: Box, fill: Colour | None, outline: Colour | None, width: int) -> None:
        self.pen.rectangle(box, fill=fill, outline=outline, width=width)

    def rounded_rectangle(self, box: Box, radius: int, fill: Colour | None, outline: Colour | None, width: int) -> None:
        self.pen.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)

    def ellipse(self, box: Box, fill: Colour | None, outline: Colour | None, width: int) -> None:
        self.pen.ellipse(box, fill=fill, outline=outline, width=width)

    def polygon(self, points: Sequence[Point], fill: Colour | None, outline: Colour | None, width: int) -> None:
        self.pen.polygon(list(points), fill=fill, outline=outline, width=width)

    def text(self, xy: Point, text: str, size: int, fill: Colour, anchor: str, spacing: int) -> None:
        self.pen.text(xy, text, fill=fill, font=font(size), anchor=anchor, spacing=spacing)


def _colour(colour: Colour | None) -> str:
    return "none" if colour is None else "#{:02x}{:02x}{:02x}".format(*colour)


def _paint(fill: Colour | None, outline: Colour | None, width: int) -> str:
    """SVG's fill and stroke attributes for Pillow's ``fill``, ``outline`` and ``width``."""
    stroke = "" if outline is None or width <= 0 else f' stroke="{_colour(outline)}" stroke-width="{width}"'
    return f'fill="{_colour(fill)}"{stroke}'


def _inset(box: Box, outline: Colour | None, width: int) -> tuple[float, float, float, float]:
    """``box`` (Pillow's, whose right and bottom pixels are inside and whose outline is drawn
    inwards) as SVG's x, y, width and height of a shape whose stroke is centred on its edge."""
    left, top, right, bottom = box
    half = width / 2 if outline is not None else 0.0
    return left + half, top + half, max(0.0, right + 1 - left - 2 * half), max(0.0, bottom + 1 - top - 2 * half)


def _n(value: float) -> str:
    """A coordinate, without a needless ``.0``."""
    return f"{value:g}"


def _rect_svg(box: Box, fill: Colour | None, outline: Colour | None, width: int) -> str:
    x, y, w, h = _inset(box, outline, width)
    return f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" {_paint(fill, outline, width)}/>'


def _rounded_svg(box: Box, radius: int, fill: Colour | None, outline: Colour | None, width: int) -> str:
    x, y, w, h = _inset(box, outline, width)
    return (
        f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="{radius}" {_paint(fill, outline, width)}/>'
    )


def _ellipse_svg(box: Box, fill: Colour | None, outline: Colour | None, width: int) -> str:
    x, y, w, h = _inset(box, outline, width)
    return (
        f'<ellipse cx="{_n(x + w / 2)}" cy="{_n(y + h / 2)}" rx="{_n(w / 2)}" ry="{_n(h / 2)}" '
        f"{_paint(fill, outline, width)}/>"
    )


def _polygon_svg(points: tuple[Point, ...], fill: Colour | None, outline: Colour | None, width: int) -> str:
    at = " ".join(f"{_n(x + 0.5)},{_n(y + 0.5)}" for x, y in points)
    return f'<polygon points="{at}" {_paint(fill, outline, width)} stroke-linejoin="round"/>'


def _text_svg(xy: Point, text: str, size: int, fill: Colour, anchor: str, spacing: int) -> str:
    """``text`` as SVG ``<text>`` elements, one a line, placed as Pillow places it."""
    lines = text.split("\n")
    step = _metrics(size)[2] + spacing
    top = xy[1] - (len(lines) - 1) * step * {"m": 0.5, "d": 1.0}.get(anchor[1], 0.0)
    align = {"l": "start", "m": "middle", "r": "end"}[anchor[0]]
    return "".join(
        f'<text x="{_n(xy[0])}" y="{_n(_baseline(top + i * step, anchor, size))}" font-size="{size}" '
        f'text-anchor="{align}" fill="{_colour(fill)}">{escape(line)}</text>'
        for i, line in enumerate(lines)
    )


#: The SVG element writers, each the same function kept (a pure function of its arguments).
_kept_rect = lru_cache(maxsize=SHAPES)(_rect_svg)
_kept_rounded = lru_cache(maxsize=SHAPES)(_rounded_svg)
_kept_ellipse = lru_cache(maxsize=SHAPES)(_ellipse_svg)
_kept_polygon = lru_cache(maxsize=SHAPES)(_polygon_svg)
_kept_text = lru_cache(maxsize=TEXTS)(_text_svg)


class _Svg:
    """The vector backend: the same calls written as SVG elements (by the kept writers when
    ``kept``)."""

    def __init__(self, size: tuple[int, int], kept: bool) -> None:
        self.parts: list[str] = [f'<rect width="{size[0]}" height="{size[1]}" fill="{_colour(FELT)}"/>']
        self.kept = kept
        self._rect = _kept_rect if kept else _rect_svg
        self._rounded = _kept_rounded if kept else _rounded_svg
        self._ellipse = _kept_ellipse if kept else _ellipse_svg
        self._polygon = _kept_polygon if kept else _polygon_svg
        self._text = _kept_text if kept else _text_svg

    def rectangle(self, box: Box, fill: Colour | None, outline: Colour | None, width: int) -> None:
        self.parts.append(self._rect(box, fill, outline, width))

    def rounded_rectangle(self, box: Box, radius: int, fill: Colour | None, outline: Colour | None, width: int) -> None:
        self.parts.append(self._rounded(box, radius, fill, outline, width))

    def ellipse(self, box: Box, fill: Colour | None, outline: Colour | None, width: int) -> None:
        self.parts.append(self._ellipse(box, fill, outline, width))

    def polygon(self, points: Sequence[Point], fill: Colour | None, outline: Colour | None, width: int) -> None:
        self.parts.append(self._polygon(tuple(points), fill, outline, width))

    def text(self, xy: Point, text: str, size: int, fill: Colour, anchor: str, spacing: int) -> None:
        self.parts.append(self._text(xy, text, size, fill, anchor, spacing))


def _json_inside(text: str) -> str:
    """``text`` as a JSON string, without its quotes."""
    return json.dumps(text)[1:-1]


_kept_json = lru_cache(maxsize=FRAGMENTS * 2)(_json_inside)


def _fragment(draw: Callable[..., None], args: tuple[Hashable, ...]) -> str:
    """What ``draw(canvas, *args)`` writes on an SVG canvas (a canvas of no size: a kept
    drawing may not depend on the picture's size)."""
    canvas = Canvas((0, 0), svg=True)
    assert isinstance(canvas._out, _Svg)
    canvas._out.parts.clear()
    draw(canvas, *args)
    return "".join(canvas._out.parts)


_fragments = lru_cache(maxsize=FRAGMENTS)(_fragment)


def clear_caches() -> None:
    """Forgets every kept piece of SVG (the caches are bounded; this is for tests and benches)."""
    for kept in (
        _measured,
        _kept_json,
        _kept_rect,
        _kept_rounded,
        _kept_ellipse,
        _kept_polygon,
        _kept_text,
        _fragments,
    ):
        kept.cache_clear()


class Canvas:
    """One picture being drawn: a felt table of a fixed size and the helpers to draw on it.

    The same calls draw either a raster (``array()``, with Pillow) or a vector picture
    (``svg()``, for a page: crisp at any size), as ``svg`` asks: each game draws once."""

    def __init__(self, size: tuple[int, int], svg: bool = False) -> None:
        self.width, self.height = size
        self._out: _Pillow | _Svg = _Svg(size, caching()) if svg else _Pillow(size)

    def array(self) -> npt.NDArray[np.uint8]:
        """The picture as an (H, W, 3) uint8 array (a raster canvas only)."""
        if not isinstance(self._out, _Pillow):
            raise TypeError("an SVG canvas has no pixels: call svg()")
        pixels: npt.NDArray[np.uint8] = np.array(self._out.image, dtype=np.uint8)
        return pixels

    def svg(self) -> str:
        """The picture as an SVG document, sized by its ``viewBox`` (an SVG canvas only)."""
        if not isinstance(self._out, _Svg):
            raise TypeError("a raster canvas has no SVG: make it with svg=True")
        return self._head() + "".join(self._out.parts) + "</svg>"

    def svg_json(self) -> str:
        """``json.dumps(self.svg())``, made from the JSON text of each kept piece (JSON escapes
        character by character, so the pieces' texts join into the whole's)."""
        if not isinstance(self._out, _Svg):
            raise TypeError("a raster canvas has no SVG: make it with svg=True")
        escaped = _kept_json if self._out.kept else _json_inside
        return f'"{_json_inside(self._head())}{"".join(map(escaped, self._out.parts))}</svg>"'

    def _head(self) -> str:
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {self.width} {self.height}" '
            f'font-family="{SVG_FONT}">'
        )

    def rectangle(self, box: Box, fill: Colour | None = None, outline: Colour | None = None, width: int = 1) -> None:
        """A plain rectangle (Pillow's: ``box`` holds its right and bottom edges)."""
        self._out.rectangle(box, fill, outline, width)

    def rounded_rectangle(
        self, box: Box, radius: int, fill: Colour | None = None, outline: Colour | None = None, width: int = 1
    ) -> None:
        """A rectangle with corners rounded by ``radius``."""
        self._out.rounded_rectangle(box, radius, fill, outline, width)

    def ellipse(self, box: Box, fill: Colour | None = None, outline: Colour | None = None, width: int = 1) -> None:
        """The ellipse within ``box``."""
        self._out.ellipse(box, fill, outline, width)

    def polygon(
        self, points: Sequence[Point], fill: Colour | None = None, outline: Colour | None = None, width: int = 1
    ) -> None:
        """A closed polygon through ``points``."""
        self._out.polygon(points, fill, outline, width)

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
        self._out.text(xy, text, size, fill, anchor, spacing)

    def text_width(self, text: str, size: int = 14) -> int:
        """How wide ``text`` is drawn at ``size``."""
        kept = self._out.kept if isinstance(self._out, _Svg) else caching()
        return _measured(text, size) if kept else _measure(text, size)

    def drawn(self, draw: Callable[..., None], *args: Hashable) -> None:
        """``draw(self, *args)``; on an SVG canvas, what it writes is kept and written again for
        the same ``draw`` and ``args``. Only for a drawing that depends on its arguments alone
        (a card's face in its box), never on the picture's size or anything else."""
        if isinstance(self._out, _Svg) and self._out.kept:
            self._out.parts.append(_fragments(draw, args))
        else:
            draw(self, *args)

    def panel(self, box: Box, fill: Colour = FELT_DARK, outline: Colour | None = None, width: int = 2) -> None:
        """A rounded area of the table (a seat's place, a score board)."""
        self.rounded_rectangle(box, 10, fill, outline, width)

    def card(self, box: Box, fill: Colour = PAPER, outline: Colour = INK, width: int = 1) -> None:
        """A blank card face."""
        self.rounded_rectangle(box, max(3, (box[2] - box[0]) // 9), fill, outline, width)

    def slot(self, box: Box, radius: int = 6) -> None:
        """An empty place for a card: its outline only."""
        self.rounded_rectangle(box, radius, None, MUTED, 1)

    def back(self, box: Box) -> None:
        """A face-down card: its back, a framed diamond."""
        self.drawn(_back, box)

    def pile(self, xy: tuple[int, int], count: int, label: str, size: tuple[int, int] = CARD) -> None:
        """A face-down pile: a few stacked backs (none when empty), its label and card count under it."""
        self.drawn(_pile, xy, count, label, size)

    def token(self, centre: tuple[int, int], radius: int, fill: Colour, label: str = "", outline: Colour = INK) -> None:
        """A round marker or chip, with an optional label on it."""
        self.drawn(_token, centre, radius, fill, label, outline)

    def header(self, title: str, view: str, status: str) -> None:
        """The band at the top: the game, whose view this is, and the state of play."""
        self.drawn(_header, self.width, title, view, status)


def _back(canvas: Canvas, box: Box) -> None:
    """A card's back in ``box``."""
    canvas.card(box, fill=BACK, outline=WHITE, width=2)
    left, top, right, bottom = box
    canvas.rectangle((left + 5, top + 5, right - 5, bottom - 5), outline=BACK_PATTERN, width=1)
    cx, cy = (left + right) // 2, (top + bottom) // 2
    rx, ry = (right - left) // 4, (bottom - top) // 4
    canvas.polygon([(cx, cy - ry), (cx + rx, cy), (cx, cy + ry), (cx - rx, cy)], fill=BACK_PATTERN)


def _pile(canvas: Canvas, xy: Point, count: int, label: str, size: Point) -> None:
    """``Canvas.pile``'s drawing."""
    x, y = xy
    w, h = size
    shown = min(count, 4)
    if shown == 0:
        canvas.slot((x, y, x + w, y + h))
    for i in range(shown):
        canvas.back((x + 2 * i, y - 2 * i, x + w + 2 * i, y + h - 2 * i))
    canvas.text((x + w // 2, y + h + 6), label, 13, MUTED, "ma")
    canvas.text((x + w // 2, y + h + 22), str(count), 15, WHITE, "ma")


def _token(canvas: Canvas, centre: Point, radius: int, fill: Colour, label: str, outline: Colour) -> None:
    """``Canvas.token``'s drawing."""
    x, y = centre
    canvas.ellipse((x - radius, y - radius, x + radius, y + radius), fill=fill, outline=outline, width=2)
    if label:
        canvas.text(centre, label, max(10, radius), INK, "mm")


def _header(canvas: Canvas, width: int, title: str, view: str, status: str) -> None:
    """``Canvas.header``'s drawing, on a picture ``width`` pixels wide."""
    canvas.rectangle((0, 0, width, 34), fill=FELT_DARK)
    canvas.text((14, 8), title, 18, GOLD)
    canvas.text((width - 14, 8), view, 16, HIGHLIGHT, "ra")
    canvas.text((14 + canvas.text_width(title, 18) + 24, 10), status, 15, WHITE)


#: Draws one card's face in a box.
FaceDrawer = Callable[[Canvas, Box, str], None]


def known_back(canvas: Canvas, box: Box, name: str, face: FaceDrawer) -> None:
    """A face-down card the viewer knows: its back, with the card drawn small on it by ``face``."""
    left, top, right, bottom = box
    canvas.back(box)
    dx, dy = (right - left) // 5, (bottom - top) // 5
    canvas.drawn(face, (left + dx, top + dy, right - dx, bottom - dy), name)


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
    canvas.drawn(_row, xy, width, tuple(cards), face, size)


def _row(
    canvas: Canvas, xy: tuple[int, int], width: int, cards: tuple[str | None, ...], face: FaceDrawer, size: Point
) -> None:
    """``row``'s drawing (kept whole: a seat's hand is drawn again at most moves)."""
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
            canvas.drawn(face, box, name)
    if len(shown) < len(cards):
        left = x + len(shown) * step
        canvas.panel((left, y + h // 3, left + w, y + 2 * h // 3), fill=INK, outline=WHITE, width=1)
        canvas.text((left + w // 2, y + h // 2), f"+{len(cards) - len(shown)}", 12, WHITE, "mm")
