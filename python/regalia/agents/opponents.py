"""The other seats of a one-seat environment: who plays them and how their moves are checked.

An opponent is a built-in agent's name (with options after colons, ``"ismcts:iterations=50"``),
an agent object (anything with ``act(view)``, a loaded ``policy`` included) or a plain function
of the view. ``Opponents`` holds one per other seat and is shared by the Gymnasium env
(``regalia.envs.gymnasium``) and the vector envs (``regalia.vector``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from regalia.agents import make_agent
from regalia.agents.base import Agent, AgentLike, agent_name, as_agent
from regalia.core.errors import AgentError, InvalidOptionError
from regalia.core.protocols import StateProtocol
from regalia.core.view import action_id, view_of, world_seed

__all__ = ["OpponentSpec", "Opponents", "checked_action"]

#: One opponent: a built-in agent's name, an agent object or a function of the view.
OpponentSpec = str | AgentLike


def _describe(spec: OpponentSpec) -> str:
    return spec if isinstance(spec, str) else agent_name(spec)


class Opponents:
    """One opponent per seat other than ``seat`` in a game of ``num_players`` seats.

    ``specs`` is one opponent for every other seat, or a sequence of them, one per other seat
    in seat order. Names are checked here (an unknown name fails at once) and made into fresh
    agents for every game (``agents``), each seeded by the caller; objects and functions are
    used as they are, the same one in every game.
    """

    def __init__(self, specs: OpponentSpec | Sequence[OpponentSpec], num_players: int, seat: int) -> None:
        if isinstance(specs, str) or not isinstance(specs, Sequence):
            listed: list[OpponentSpec] = [specs] * (num_players - 1)
        else:
            listed = list(specs)
        if len(listed) != num_players - 1:
            need = num_players - 1
            raise InvalidOptionError(f"a game of {num_players} seats needs {need} opponents, got {len(listed)}")
        self.seats = [s for s in range(num_players) if s != seat]
        self.specs: dict[int, str | Agent] = {}
        for s, spec in zip(self.seats, listed):
            if isinstance(spec, str):
                make_agent(spec)  # unknown names and options fail here, not at the first reset
                self.specs[s] = spec
            else:
                self.specs[s] = as_agent(spec)

    @property
    def names(self) -> list[str]:
        """Each opponent's name, in seat order."""
        return [_describe(spec) for spec in self.specs.values()]

    def agents(self, seeds: Sequence[int]) -> dict[int, Agent]:
        """The agents of one game by seat: a fresh agent per name, seeded by ``seeds`` (one
        per other seat, in seat order), and the given objects as they are."""
        return {
            s: make_agent(spec, seed) if isinstance(spec, str) else spec
            for (s, spec), seed in zip(self.specs.items(), seeds)
        }


def checked_action(agent: Agent, state: StateProtocol, seat: int, game: str, options: dict[str, Any], seed: int) -> int:
    """What ``agent`` plays for ``seat`` in ``state`` (shown only its view, whose world is
    drawn from ``world_seed(seed, ply, seat)``), checked: an agent that raises or chooses an
    illegal action raises ``AgentError`` naming the seat and the action, and nothing is played.
    """
    view = view_of(state, seat, game, options, world_seed(seed, len(state.history()), seat))
    who = f"opponent at seat {seat} ({agent_name(agent)})"
    try:
        chosen = agent.act(view)
    except Exception as e:
        raise AgentError(f"{who} raised {type(e).__name__}: {e}", seat=seat) from e
    try:
        action = action_id(chosen)
    except TypeError:
        raise AgentError(f"{who} chose {chosen!r}, which is not an action id", seat=seat, action=chosen) from None
    if action not in view.legal_actions:
        legal = ", ".join(f"{a} ({n})" for a, n in zip(view.legal_actions, view.action_names))
        raise AgentError(f"{who} chose illegal action {action}; legal: {legal}", seat=seat, action=action)
    return action
