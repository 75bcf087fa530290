"""A seat's view: what one seat may see of a game, and nothing more (the observation, its
legal actions with their names, worlds sampled from what it knows), with the seeds and draws
every player of a game shares. Agents, solvers and front-ends all read a game through it."""

from __future__ import annotations

import operator
import random
import secrets
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from regalia.core.protocols import StateProtocol
from regalia.core.seeds import derive_seed

__all__ = ["View", "action_id", "draw_outcome", "view_of", "world_seed"]


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
    _world: StateProtocol = field(repr=False, compare=False)

    def sample_world(self, seed: int) -> StateProtocol:
        """A full state this seat cannot tell from the real one (hidden cards resampled),
        for search: play it forward freely, it is a copy."""
        return self._world.determinize(self.seat, seed)

    def observation_tensor(self) -> npt.NDArray[np.float32]:
        """This seat's observation as the adapters' float32 tensor (what a trained policy
        reads): it depends only on what the seat sees."""
        return self._world.observation_tensor(self.seat)

    def action_name(self, action: int) -> str:
        """The name of one of ``legal_actions``."""
        return self.action_names[self.legal_actions.index(action)]

    def action_info(self, action: int) -> dict[str, Any]:
        """What ``action`` means (see ``regalia.core.actions``): it describes the id from what
        every seat sees, so the sampled world answers as the real state would."""
        return self._world.action_info(action)


def view_of(
    state: StateProtocol, seat: int, game_name: str, options: dict[str, Any], world_seed: int | None = None
) -> View:
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
