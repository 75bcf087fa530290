"""Whether a bot may sit at a table of a game: the one check every front-end makes of a
seat before the game starts (the command line's ``--seats``, the web lobby's)."""

from __future__ import annotations

from regalia.agents import make_agent
from regalia.core.errors import InvalidArgumentError

__all__ = ["BotRefused", "check_bot"]


class BotRefused(InvalidArgumentError):
    """An agent that does not play the table's game."""


def check_bot(spec: str, game: str | None = None) -> None:
    """Refuses ``spec`` unless it makes a built-in agent and, when ``game`` is given, one
    that plays ``game``: ``BotRefused`` for an agent of other games (``the 'solver' agent
    plays only duo-regna, not duo``), and the agent's own ``ValueError`` for a bad spec or,
    for an agent that plays another agent per game (``best``), a bad option there."""
    agent = make_agent(spec, 0)
    plays = getattr(agent, "games", None)
    if game is not None and plays is not None and game not in plays:
        raise BotRefused(f"the {spec.split(':')[0]!r} agent plays only {', '.join(plays)}, not {game}")
    agent_for = getattr(agent, "agent_for", None)
    if game is not None and agent_for is not None:
        agent_for(game)
