"""Layout every game's picture shares: the header band, a seat's place with its label
(highlighted at its turn), and the other seats side by side along a band of the table."""

from __future__ import annotations

from regalia.views.pictures.canvas import Canvas
from regalia.views.pictures.palette import HIGHLIGHT, WHITE, Box
from regalia.views.pictures.table import Table


def header(c: Canvas, table: Table, title: str, status: str) -> None:
    """The band at the top: the game, whose view this is, and the state of play."""
    c.header(title, "spectator: all cards open" if table.viewer is None else f"seat {table.viewer}'s view", status)


def place(c: Canvas, table: Table, seat: int, box: Box, label: str, doing: str = "", inset: int = 10) -> None:
    """``seat``'s place on the table: a panel with ``label`` at its top left, both
    highlighted at the seat's turn (when the label also says what the seat is ``doing``)."""
    c.drawn(
        _place,
        box,
        label + (doing if table.base["current_player"] == seat else ""),
        table.base["current_player"] == seat,
        inset,
    )


def _place(c: Canvas, box: Box, label: str, turn: bool, inset: int) -> None:
    """``place``'s drawing: the panel and its label, highlighted at the seat's ``turn``."""
    c.panel(box, outline=HIGHLIGHT if turn else None)
    c.text((box[0] + inset, box[1] + 8), label, 14, HIGHLIGHT if turn else WHITE)


def others(c: Canvas, table: Table, top: int, bottom: int) -> list[tuple[int, Box]]:
    """The seats other than the bottom one, in turn order, each with its place in a band from
    ``top`` to ``bottom`` across the table."""
    seats = table.around()[1:]
    width = (c.width - 28) // max(1, len(seats))
    return [(seat, (14 + i * width, top, 14 + (i + 1) * width - 8, bottom)) for i, seat in enumerate(seats)]
