"""Agents: anything with ``act(view) -> action``, or a plain function of the view.

A view shows only what one seat may see. Built-in agents by name (``AGENTS``): ``random``,
``rules`` (a rule-based player per game), ``ismcts`` (information-set MCTS in Rust),
``solver`` (Duo Regna's equilibrium, from ``regalia.theory.solver``), ``best`` (the strongest of them
per game, at an interactive budget), ``policy`` (a trained policy file,
``policy:path=model.npz``; ``:exploit=true`` puts ``best``'s hand-written exploits first),
``cfr`` (a policy saved by ``regalia.theory.cfr``: ``cfr:policy=PATH``) and the fixed strategies
``first-legal``, ``last-legal`` and ``fixed-order`` (yardsticks that ignore the game).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from regalia.agents.base import Agent, AgentLike, BatchAgent, FunctionAgent, as_agent
from regalia.agents.best import BEST, BestAgent
from regalia.agents.cfr_agent import CfrAgent
from regalia.agents.fixed import FirstLegal, FixedOrder, LastLegal
from regalia.agents.ismcts import IsmctsAgent
from regalia.agents.policy import PolicyAgent, policy_agent
from regalia.agents.random_agent import RandomAgent
from regalia.agents.rules import POLICIES, RulesAgent
from regalia.agents.solver_agent import SolverAgent
from regalia.agents.specs import build_agent, maker_options
from regalia.core.view import View, view_of

__all__ = [
    "AGENTS",
    "BEST",
    "POLICIES",
    "Agent",
    "AgentLike",
    "BatchAgent",
    "BestAgent",
    "CfrAgent",
    "FirstLegal",
    "FixedOrder",
    "FunctionAgent",
    "IsmctsAgent",
    "LastLegal",
    "PolicyAgent",
    "RandomAgent",
    "RulesAgent",
    "SolverAgent",
    "View",
    "as_agent",
    "agent_options",
    "make_agent",
    "view_of",
]

#: Built-in agents by name; each is called with ``seed`` and its own keyword options. A class
#: that plays only some games says which in its ``games`` attribute (absent or None: any game).
AGENTS: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "rules": RulesAgent,
    "ismcts": IsmctsAgent,
    "solver": SolverAgent,
    "best": BestAgent,
    "policy": policy_agent,
    "cfr": CfrAgent,
    "first-legal": FirstLegal,
    "last-legal": LastLegal,
    "fixed-order": FixedOrder,
}


def make_agent(name: str, seed: int | None = None, **options: Any) -> Agent:
    """A built-in agent by name (see ``AGENTS``), e.g. ``make_agent("ismcts", 1, iterations=200)``.

    ``name`` may carry options after colons: ``"ismcts:iterations=200:exploration=0.7"``.
    """
    return build_agent(AGENTS, name, seed, options)


def agent_options(name: str) -> list[str] | None:
    """The keyword options the built-in agent ``name`` takes (besides its seed); None for
    an agent that passes any options on (``best``: its game's agent checks them)."""
    return maker_options(AGENTS[name])
