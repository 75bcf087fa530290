"""What a picture is drawn from: the observations of the seats whose cards it shows open."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Table:
    """The observations a picture may use (``views``: seat to that seat's observation) and
    whose picture it is (``viewer``, ``None`` for a spectator, who holds every seat's view).

    A seat's picture holds its own observation only, so it can show nothing that seat does not
    see; a spectator's holds every seat's, each seat's hidden cards coming from its own view."""

    views: dict[int, dict[str, Any]]
    viewer: int | None
    players: int

    @property
    def base(self) -> dict[str, Any]:
        """The observation for what every seat sees alike: the viewer's (seat 0's for a spectator)."""
        return self.views[self.bottom]

    @property
    def bottom(self) -> int:
        """The seat drawn at the bottom of the table, nearest the onlooker."""
        return 0 if self.viewer is None else self.viewer

    def is_open(self, seat: int) -> bool:
        """Whether ``seat``'s own hidden cards are shown."""
        return seat in self.views

    def around(self) -> list[int]:
        """Every seat, from the one at the bottom onwards in seat order."""
        return [(self.bottom + i) % self.players for i in range(self.players)]

    def hand(self, seat: int) -> list[str | None]:
        """``seat``'s hand as the picture shows it: its cards where they are open, else a back
        for each (from the hand sizes every seat sees)."""
        if self.is_open(seat):
            return list(self.views[seat]["hand"])
        return [None] * self.base["hand_sizes"][seat]

    def who(self, seat: int) -> str:
        """How the picture names ``seat``."""
        return f"seat {seat} (you)" if seat == self.viewer else f"seat {seat}"
