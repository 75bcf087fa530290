"""Opponents the native batch plays by itself (``regalia._core.Opponent``), so that the vector
envs (``regalia.envs.seat_batch``) answer them in Rust, inside the step, without Python: the
built-in ``random``, ``ismcts`` (by name with its options, or an ``IsmctsAgent``), a
trained ``policy`` (by name, ``policy:path=model.npz``, or a ``PolicyAgent``), its weights
loaded into the engine once, and the fixed strategies ``first-legal``, ``last-legal`` and
``fixed-order``.

Native opponents draw their randomness from each game's own generator (the one native
``random`` draws from), not from the agent's seed: a game's moves follow from its seed,
whatever the threads. A greedy policy plays exactly the moves of the Python agent (the
legal action of highest logit; float sums may differ in the last bits, so only a near-tie
can go the other way); an ISMCTS opponent searches from the mover's information as the
agent does, from a seed drawn from the game's generator.
"""

from __future__ import annotations

from regalia.agents import make_agent
from regalia.agents.base import Agent
from regalia.agents.fixed import FirstLegal, FixedOrder, LastLegal
from regalia.agents.ismcts import IsmctsAgent
from regalia.agents.policy import PolicyAgent
from regalia.core.engine import Game, Opponent, Policy
from regalia.core.errors import InvalidOptionError

__all__ = ["native_opponent"]


def native_opponent(spec: str | Agent, game: Game, seed: int | None = None) -> Opponent | None:
    """The native form of the opponent ``spec`` in ``game`` (a Rust ``Game``), or None for
    one the engine cannot play (it is then asked through Python). A policy of another game
    or shape, or a search whose options the batch cannot follow, is refused here, naming
    what differs."""
    if spec == "random":
        return Opponent.random()
    agent = make_agent(spec, seed) if isinstance(spec, str) else spec
    if type(agent) is IsmctsAgent:
        return _ismcts(agent, game)
    if type(agent) is PolicyAgent:
        return _policy(agent, game)
    if type(agent) is FirstLegal:
        return Opponent.first_legal()
    if type(agent) is LastLegal:
        return Opponent.last_legal()
    if type(agent) is FixedOrder:
        return Opponent.fixed_order(agent.order)
    return None


def _ismcts(agent: IsmctsAgent, game: Game) -> Opponent:
    if agent.belief != "none":
        raise InvalidOptionError(
            f"ismcts with belief={agent.belief!r} follows the chance outcomes of the game's history, "
            f"and the vector envs play {game.name} with its chance drawn from each game's seed: use belief='none'"
        )
    return Opponent.ismcts(
        iterations=agent.iterations,
        exploration=agent.exploration,
        time_limit=agent.time_limit,
        rollout=agent.rollout,
        threads=agent.threads,
        opponents=agent.opponents,
    )


def _policy(agent: PolicyAgent, game: Game) -> Opponent:
    net = agent.net_for(game)
    return Opponent.policy(Policy(game, list(net.layers), net.activation), sample=agent.sample)
