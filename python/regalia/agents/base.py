"""The agent protocol: anything that chooses one of a view's legal actions, and the helpers
that turn a function into an agent and call its optional hooks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from regalia.core.errors import InvalidArgumentError
from regalia.core.protocols import GameProtocol
from regalia.core.view import View


@runtime_checkable
class Agent(Protocol):
    """The agent protocol: choose one of ``view.legal_actions``.

    Agents may also define ``game_start(view)`` (called once per game, before any action)
    and ``game_end(view, returns)`` (called once the game is over); both are optional.
    """

    def act(self, view: View) -> int:
        """The chosen action id."""
        ...


@runtime_checkable
class BatchAgent(Protocol):
    """An agent that can also choose in many games at once from each game's observation
    tensor and legal-action mask alone, with no memory between moves (a fixed order, a
    trained policy): the vector envs (``regalia.envs.seat_batch``) ask it once for all the games
    waiting for it instead of once per game, and call no hooks."""

    def act_batch(self, game: GameProtocol, observations: Any, masks: Any) -> Any:
        """One legal action per row of ``observations`` (float32, one observation tensor of
        ``game`` per row) and ``masks`` (bool, the legal actions of that row)."""
        ...


#: Anything ``play`` accepts as a player: an agent, or a plain function of the view.
AgentLike = Agent | Callable[[View], int]


class FunctionAgent:
    """A plain function ``f(view) -> action`` used as an agent."""

    def __init__(self, function: Callable[[View], int]) -> None:
        self.function = function
        self.name = getattr(function, "__name__", "function")

    def act(self, view: View) -> int:
        """Whatever the function chooses."""
        return self.function(view)


def as_agent(player: AgentLike) -> Agent:
    """``player`` as an agent: agents as they are, plain functions wrapped."""
    if isinstance(player, Agent):
        return player
    if callable(player):
        return FunctionAgent(player)
    raise InvalidArgumentError(f"an agent needs an act(view) method or must be a function, got {player!r}")


def probabilities_of(agent: Any, view: View) -> dict[int, float]:
    """``agent.action_probabilities(view)``, or ``InvalidArgumentError`` naming the agent
    when it has none."""
    ask = getattr(agent, "action_probabilities", None)
    if not callable(ask):
        raise InvalidArgumentError(f"{agent_name(agent)} cannot say how likely its moves are (no action_probabilities)")
    return dict(ask(view))


def observe_as_act(agent: Any, view: View) -> None:
    """Shows ``agent`` a view of one of its decisions as a match would, for its memory only:
    ``observe(view)`` where it has one, ``act(view)`` where it remembers (``adaptive``) but
    has no ``observe``, nothing otherwise."""
    observe = getattr(agent, "observe", None)
    if callable(observe):
        observe(view)
    elif getattr(agent, "adaptive", False):
        agent.act(view)


def agent_name(agent: Any) -> str:
    """The name a record shows for ``agent``."""
    return str(getattr(agent, "name", type(agent).__name__))


def call_hook(agent: Any, hook: str, *args: Any) -> None:
    """Calls the optional hook ``game_start`` or ``game_end`` if the agent has it."""
    method = getattr(agent, hook, None)
    if callable(method):
        method(*args)
