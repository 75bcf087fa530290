"""Symbols drawn on cards as shapes (the built-in font has no card symbols): each fills the
square of side ``2 * r`` around ``(x, y)``."""

from __future__ import annotations

import math
from collections.abc import Callable

from regalia.views.pictures.canvas import Canvas
from regalia.views.pictures.palette import INK, Colour

#: Draws a symbol centred at ``(x, y)`` with half-size ``r`` in a colour.
Shape = Callable[[Canvas, int, int, int, Colour], None]


def circle(c: Canvas, x: int, y: int, r: int, fill: Colour) -> None:
    """A disc."""
    c.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=INK)


def square(c: Canvas, x: int, y: int, r: int, fill: Colour) -> None:
    """A square."""
    s = r * 85 // 100
    c.rectangle((x - s, y - s, x + s, y + s), fill=fill, outline=INK)


def triangle(c: Canvas, x: int, y: int, r: int, fill: Colour) -> None:
    """A triangle, point up."""
    c.polygon([(x, y - r), (x + r, y + r * 8 // 10), (x - r, y + r * 8 // 10)], fill=fill, outline=INK)


def cross(c: Canvas, x: int, y: int, r: int, fill: Colour) -> None:
    """A plus-shaped cross."""
    t = max(2, r * 4 // 10)
    c.polygon(
        [
            (x - t, y - r), (x + t, y - r), (x + t, y - t), (x + r, y - t), (x + r, y + t), (x + t, y + t),
            (x + t, y + r), (x - t, y + r), (x - t, y + t), (x - r, y + t), (x - r, y - t), (x - t, y - t),
        ],
        fill=fill,
        outline=INK,
    )  # fmt: skip


def diamond(c: Canvas, x: int, y: int, r: int, fill: Colour) -> None:
    """A lozenge (a dragon, a gem)."""
    c.polygon([(x, y - r), (x + r * 7 // 10, y), (x, y + r), (x - r * 7 // 10, y)], fill=fill, outline=INK)


def crown(c: Canvas, x: int, y: int, r: int, fill: Colour) -> None:
    """A three-pointed crown."""
    top, base = y - r * 7 // 10, y + r * 6 // 10
    c.polygon(
        [(x - r, base), (x - r, top), (x - r // 2, y), (x, top - r // 4), (x + r // 2, y), (x + r, top), (x + r, base)],
        fill=fill,
        outline=INK,
    )


def shield(c: Canvas, x: int, y: int, r: int, fill: Colour) -> None:
    """A heater shield."""
    c.polygon(
        [(x - r * 8 // 10, y - r), (x + r * 8 // 10, y - r), (x + r * 8 // 10, y), (x, y + r), (x - r * 8 // 10, y)],
        fill=fill,
        outline=INK,
    )


def star(c: Canvas, x: int, y: int, r: int, fill: Colour) -> None:
    """A five-pointed star (a joker)."""
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 45 // 100
        angle = math.pi / 2 + i * math.pi / 5
        points.append((x + round(radius * math.cos(angle)), y - round(radius * math.sin(angle))))
    c.polygon(points, fill=fill, outline=INK)


#: The shapes by name.
SHAPES: dict[str, Shape] = {
    "circle": circle,
    "square": square,
    "triangle": triangle,
    "cross": cross,
    "diamond": diamond,
    "crown": crown,
    "shield": shield,
    "star": star,
}
