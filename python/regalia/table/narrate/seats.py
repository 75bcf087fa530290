"""How the table names the seats to one viewer: "you", "the opponent" or "seat 2"."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: A short word on each built-in agent, for introductions.
AGENT_TITLES = {
    "human": "a person",
    "random": "random (picks any legal move)",
    "rules": "rules (a rule-based player)",
    "ismcts": "ismcts (a search over sampled deals)",
    "best": "best (the strongest built-in player of this game)",
}


@dataclass(frozen=True)
class Seats:
    """The seats as ``viewer`` calls them: the agent at each seat and the game's options."""

    viewer: int
    agents: list[str]
    options: dict[str, Any] = field(default_factory=dict)
    #: Name every seat by its number (for several people reading one screen).
    neutral: bool = False

    @property
    def count(self) -> int:
        """How many seats the game has."""
        return len(self.agents)

    def name(self, seat: int) -> str:
        """``you``, ``the opponent`` (with two seats) or ``seat 2``."""
        if self.neutral:
            return f"seat {seat}"
        if seat == self.viewer:
            return "you"
        return "the opponent" if self.count == 2 else f"seat {seat}"

    def Name(self, seat: int) -> str:  # noqa: N802 - the capitalised form of ``name``
        """``name`` at the start of a sentence."""
        text = self.name(seat)
        return text[0].upper() + text[1:]

    def verb(self, seat: int, you: str, other: str) -> str:
        """``you win`` / ``the opponent wins``: the subject with its verb."""
        return f"{self.name(seat)} {you if seat == self.viewer and not self.neutral else other}"

    def Verb(self, seat: int, you: str, other: str) -> str:  # noqa: N802 - capitalised ``verb``
        """``verb`` at the start of a sentence."""
        text = self.verb(seat, you, other)
        return text[0].upper() + text[1:]

    def their(self, seat: int) -> str:
        """``your`` / ``their`` / ``seat 2's``."""
        if self.neutral:
            return f"seat {seat}'s"
        if seat == self.viewer:
            return "your"
        return "their" if self.count == 2 else f"seat {seat}'s"

    def whose(self, seat: int) -> str:
        """``your`` / ``the opponent's`` / ``seat 2's``: a possessive that names the seat."""
        return "your" if seat == self.viewer and not self.neutral else f"{self.name(seat)}'s"

    def agent_title(self, seat: int) -> str:
        """The agent at ``seat`` in a few words (its options after the colon kept)."""
        spec = self.agents[seat]
        base = spec.split(":")[0]
        title = AGENT_TITLES.get(base, base)
        return title if spec == base else f"{title}, {spec.partition(':')[2]}"
