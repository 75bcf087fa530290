"""Agents: anything with ``act(view) -> action``. A view shows only what one seat may see."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from regalia.errors import InvalidOptionError


@dataclass(frozen=True)
class View:
    """What an agent is shown: its seat's observation and legal actions, never the true state."""

    game: str
    options: dict[str, Any]
    seat: int
    observation: dict[str, Any]
    legal_actions: list[int]
    action_names: list[str]
    _sampler: Callable[[int], Any] = field(repr=False)

    def sample_world(self, seed: int) -> Any:
        """A full state consistent with what this seat has seen (hidden cards resampled)."""
        return self._sampler(seed)


@runtime_checkable
class Agent(Protocol):
    """The agent protocol: choose one of ``view.legal_actions``."""

    def act(self, view: View) -> int:
        """The chosen action id."""
        ...


class RandomAgent:
    """Plays a uniformly random legal action, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def act(self, view: View) -> int:
        """A random legal action."""
        return self._rng.choice(view.legal_actions)


#: Built-in agents by name.
AGENTS: dict[str, Callable[[int | None], Agent]] = {"random": RandomAgent}


def make_agent(name: str, seed: int | None = None) -> Agent:
    """A built-in agent by name (see ``AGENTS``)."""
    try:
        return AGENTS[name](seed)
    except KeyError:
        raise InvalidOptionError(f"unknown agent {name!r}; agents: {', '.join(AGENTS)}") from None


def view_of(state: Any, seat: int, game_name: str, options: dict[str, Any]) -> View:
    """The view of ``state`` for ``seat`` (legal actions only when it is that seat's turn)."""
    mine = state.current_player == seat
    legal = state.legal_actions() if mine else []
    frozen = state.clone()
    return View(
        game=game_name,
        options=options,
        seat=seat,
        observation=state.observation(seat),
        legal_actions=legal,
        action_names=[state.action_name(a) for a in legal],
        _sampler=lambda seed: frozen.determinize(seat, seed),
    )
