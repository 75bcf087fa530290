"""Who sits at a table: people (``HUMAN``) and built-in agents, and which agent is the
strongest one (it gives hints, and fills the seats nobody chose)."""

from __future__ import annotations

from regalia.agents import AGENTS

__all__ = ["HUMAN", "STRENGTH_ORDER", "default_seats", "strongest_agent"]

#: The seat name of a person.
HUMAN = "human"
#: Built-in agents from strongest to weakest: the first one registered gives hints.
STRENGTH_ORDER = ("best", "ismcts", "rules", "random")


def strongest_agent() -> str:
    """The strongest built-in agent available (``best``, else ``ismcts``, else rule-based, else random)."""
    return next((name for name in STRENGTH_ORDER if name in AGENTS), next(iter(AGENTS)))


def default_seats(num_players: int, first: str | None = None) -> list[str]:
    """``first`` (when given) then the strongest agent in every other seat."""
    bots = [strongest_agent()] * num_players
    return [first, *bots[1:]] if first else bots
