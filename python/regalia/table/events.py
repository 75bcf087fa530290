"""What a table tells a front-end: who it waits for, one move as one seat was told it, and a
request it refuses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from regalia.core.errors import InvalidArgumentError

__all__ = ["Event", "Refused", "Waiting"]


@dataclass(frozen=True)
class Waiting:
    """Whose decision the table waits for: ``kind`` is ``"person"`` or ``"bot"`` with its
    ``seat``, or ``"over"`` (no seat) once the game has ended."""

    kind: Literal["person", "bot", "over"]
    seat: int | None


@dataclass(frozen=True)
class Event:
    """One move as one seat (a person) was told it: its number, who made it (None for a
    chance draw), the action id when it was the seat's own move (another seat's choice is
    never handed over), the move's name as the seat may know it (its own move's name, or what
    is said aloud of another's; None when nothing is), the sentences it was told, and whether
    the move was the seat's only legal one, played for it."""

    ply: int
    seat: int | None
    action: int | None
    name: str | None
    lines: tuple[str, ...]
    forced: bool = False

    def to_dict(self) -> dict[str, object]:
        """The event as plain JSON-able data."""
        return {
            "ply": self.ply,
            "seat": self.seat,
            "action": self.action,
            "name": self.name,
            "lines": list(self.lines),
            "forced": self.forced,
        }


class Refused(InvalidArgumentError):
    """The table refuses a request (an undo past something new, a ``back`` outside a
    purchase); the message says why, and nothing changed."""
