"""Agents: anything with ``act(view) -> action``, or a plain function of the view.

A view shows only what one seat may see. Built-in agents by name (``AGENTS``): ``random``,
``rules`` (a rule-based player per game), ``ismcts`` (information-set MCTS in Rust),
``solver`` (Duo Regna's equilibrium, from ``regalia.solver``), ``best`` (the strongest of them
per game, at an interactive budget), ``policy`` (a trained policy file,
``policy:path=model.npz``; ``:exploit=true`` puts ``best``'s hand-written exploits first),
``cfr`` (a policy saved by ``regalia.cfr``: ``cfr:policy=PATH``) and the fixed strategies
``first-legal``, ``last-legal`` and ``fixed-order`` (yardsticks that ignore the game).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from regalia.agents.base import Agent, AgentLike, BatchAgent, FunctionAgent, View, as_agent, view_of
from regalia.agents.best import BEST, BestAgent
from regalia.agents.cfr_agent import CfrAgent
from regalia.agents.fixed import FirstLegal, FixedOrder, LastLegal
from regalia.agents.ismcts import IsmctsAgent
from regalia.agents.policy import PolicyAgent, policy_agent
from regalia.agents.random_agent import RandomAgent
from regalia.agents.rules import POLICIES, RulesAgent
from regalia.agents.solver_agent import SolverAgent
from regalia.errors import InvalidOptionError

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


def _spec_value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def make_agent(name: str, seed: int | None = None, **options: Any) -> Agent:
    """A built-in agent by name (see ``AGENTS``), e.g. ``make_agent("ismcts", 1, iterations=200)``.

    ``name`` may carry options after colons: ``"ismcts:iterations=200:exploration=0.7"``.
    """
    base, *pairs = str(name).split(":")
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise InvalidOptionError(f"agent options are key=value after a colon, got {pair!r} in {name!r}")
        options.setdefault(key.strip(), _spec_value(value.strip()))
    try:
        maker = AGENTS[base.strip()]
    except KeyError:
        raise InvalidOptionError(f"unknown agent {base!r}; agents: {', '.join(AGENTS)}") from None
    allowed = agent_options(base.strip())
    unknown = [key for key in options if allowed is not None and key not in allowed]
    if allowed is not None and unknown:
        listed = ", ".join(allowed) or "none"
        raise InvalidOptionError(f"unknown option {unknown[0]!r} for agent {base.strip()!r}; its options: {listed}")
    try:
        return maker(seed, **options)
    except TypeError as e:
        raise InvalidOptionError(f"bad options for agent {base!r}: {e}") from None


def agent_options(name: str) -> list[str] | None:
    """The keyword options the built-in agent ``name`` takes (besides its seed); None for
    an agent that passes any options on (``best``: its game's agent checks them)."""
    import inspect

    params = inspect.signature(AGENTS[name]).parameters.values()
    if any(p.kind == p.VAR_KEYWORD for p in params):
        return None
    return [p.name for p in params if p.name != "seed" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
