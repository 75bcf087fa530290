"""How a finished game ended: the end report ``State.outcome()`` gives on both backends.

Everything in it is public at the end: the reason and the winners follow from the final
scores and what every seat sees of the board, so an ending made from it and shown to any
seat reveals nothing hidden beyond the final scores.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Outcome"]


@dataclass(frozen=True)
class Outcome:
    """Why a game ended, who won and the final points.

    ``winners`` lists the seats that won, ascending: one, several on a shared win, none on a
    draw. A win every seat shares is a draw, so ``winners`` is empty exactly when every
    seat's return is zero, and otherwise holds exactly the seats with a positive return.
    """

    #: Why the game ended: a short, stable identifier per game (``"target_reached"``,
    #: ``"round_guard"``, ...), listed on each game's rules page.
    reason: str
    #: The seats that won, ascending (empty: a draw).
    winners: tuple[int, ...]
    #: Each seat's final game points, the same as ``State.scores()``.
    scores: tuple[int, ...]
    #: The tie-break that decided between seats level on points (``"dragon_side"``,
    #: ``"nearest_dealer"``, ``"inhabitants"``); None when points alone decided, or nothing
    #: could (a draw, a shared win).
    tie_break: str | None = None

    @property
    def is_draw(self) -> bool:
        """Whether nobody won."""
        return not self.winners
