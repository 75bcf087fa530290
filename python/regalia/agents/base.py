"""The agent protocol and the view: what one seat may see, and nothing more."""

from __future__ import annotations

import operator
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from regalia.errors import InvalidArgumentError
from regalia.seeds import derive_seed


@dataclass(frozen=True)
class View:
    """What an agent is shown: its seat's observation, its legal actions with their names,
    the game's options, and worlds sampled from what the seat knows.

    A view never holds the true state: only a state already determinized for its seat
    (determinizing that again for the same seat draws from the same distribution as
    determinizing the true state), so no hidden card can be reached through it.
    """

    game: str
    options: dict[str, Any]
    seat: int
    observation: dict[str, Any]
    legal_actions: list[int]
    action_names: list[str]
    _world: Any = field(repr=False, compare=False)

    def sample_world(self, seed: int) -> Any:
        """A full state this seat cannot tell from the real one (hidden cards resampled),
        for search: play it forward freely, it is a copy."""
        return self._world.determinize(self.seat, seed)

    def observation_tensor(self) -> Any:
        """This seat's observation as the adapters' float32 tensor (what a trained policy
        reads): it depends only on what the seat sees."""
        return self._world.observation_tensor(self.seat)

    def action_name(self, action: int) -> str:
        """The name of one of ``legal_actions``."""
        return self.action_names[self.legal_actions.index(action)]

    def action_info(self, action: int) -> dict[str, Any]:
        """What ``action`` means (see ``regalia.actions``): it describes the id from what
        every seat sees, so the sampled world answers as the real state would."""
        info: dict[str, Any] = self._world.action_info(action)
        return info


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
    trained policy): the vector envs (``regalia.seat_batch``) ask it once for all the games
    waiting for it instead of once per game, and call no hooks."""

    def act_batch(self, game: Any, observations: Any, masks: Any) -> Any:
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


def agent_name(agent: Any) -> str:
    """The name a record shows for ``agent``."""
    return str(getattr(agent, "name", type(agent).__name__))


def call_hook(agent: Any, hook: str, *args: Any) -> None:
    """Calls the optional hook ``game_start`` or ``game_end`` if the agent has it."""
    method = getattr(agent, hook, None)
    if callable(method):
        method(*args)


def view_of(state: Any, seat: int, game_name: str, options: dict[str, Any], world_seed: int | None = None) -> View:
    """The view of ``state`` for ``seat`` (legal actions only when it is that seat's turn).

    The view keeps ``state.determinize(seat, world_seed)``, never ``state`` itself;
    ``world_seed`` (random when omitted) must stay unknown to the agent.
    """
    mine = state.current_player == seat
    legal = state.legal_actions() if mine else []
    seed = secrets.randbits(64) if world_seed is None else world_seed
    return View(
        game=game_name,
        options=options,
        seat=seat,
        observation=state.observation(seat),
        legal_actions=legal,
        action_names=[state.action_name(a) for a in legal],
        _world=state.determinize(seat, seed),
    )


def draw_outcome(rng: random.Random, outcomes: list[tuple[int, float]]) -> int:
    """One outcome of a chance node's ``[(outcome, probability), ...]``, drawn by its
    probability from ``rng`` (a match's chance draws, an agent's lookahead)."""
    ids, weights = zip(*outcomes)
    return int(rng.choices(ids, weights)[0])


def world_seed(match_seed: int, ply: int, seat: int) -> int:
    """The seed of the world kept by the view at ``ply`` for ``seat`` in a match."""
    return derive_seed(derive_seed(match_seed ^ 0x5EA7_0F_5EED, ply), seat)


def action_id(action: Any) -> int:
    """``action`` as an int (numpy integers accepted), or ``TypeError``."""
    if isinstance(action, bool):
        raise TypeError("an action must be an int, not a bool")
    return operator.index(action)
