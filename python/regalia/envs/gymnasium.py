"""Gymnasium environments: one seat of a Regalia game against opponents (names, agents, functions)
(``pip install "regalia[gymnasium]"``).

>>> import gymnasium, numpy as np
>>> from regalia.envs.gymnasium import RegaliaEnv
>>> env = RegaliaEnv("duo-regna", opponents="random")
>>> obs, info = env.reset(seed=1)
>>> terminated = truncated = False
>>> env = gymnasium.make("regalia/duo-regna-v0", opponents="random")  # the same, registered
>>> env = gymnasium.make("regalia.envs.gymnasium:regalia/duo-regna-v0")  # with no import first
>>> obs, info = env.reset(seed=1)
>>> while not (terminated or truncated):
...     action = int(np.flatnonzero(info["action_mask"])[0])
...     obs, reward, terminated, truncated, info = env.step(action)

The observation is the seat's ``observation_tensor``; ``info["action_mask"]`` (int8, one
entry per action) marks the legal actions, and ``env.action_masks()`` gives them as bools
(for sb3-contrib's ``MaskablePPO``; through ``gymnasium.make``'s wrappers call
``env.get_wrapper_attr("action_masks")()``). The reward is the seat's return at the end (+1
win, -1 loss, 0 draw for two seats; zero-sum shares for more) and 0 before. An illegal
action ends the episode with ``ILLEGAL_ACTION_REWARD`` and ``info["illegal_action"] = True``
(the state is left as it was), so an agent that ignores the mask learns to respect it.
``render_mode``: ``"ansi"`` (the seat's text board), ``"human"`` (printed) or ``"rgb_array"``
(a picture of the table from the seat's view, ``regalia.views.pictures``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from regalia.agents import Agent, view_of
from regalia.agents.base import call_hook
from regalia.agents.opponents import Opponents, OpponentSpec, checked_action
from regalia.core.errors import IllegalActionError, InvalidOptionError
from regalia.core.protocols import GameProtocol, StateProtocol
from regalia.core.view import world_seed
from regalia.registry.catalog import games, make
from regalia.registry.records import ChanceDraws
from regalia.views.render import render as render_board

__all__ = ["ILLEGAL_ACTION_REWARD", "RENDER_MODES", "TENSOR_BOUND", "RegaliaEnv", "env_id", "observation_box"]

#: Reward for an illegal action (which also ends the episode).
ILLEGAL_ACTION_REWARD = -1.0
#: Bound of the observation boxes: tensors hold flags, one-hots and small ratios, far inside.
TENSOR_BOUND = 1000.0

#: The renderings every adapter offers: the text board printed (``human``) or returned
#: (``ansi``), or a picture of the table as an RGB array (``rgb_array``, needs Pillow).
RENDER_MODES = ("human", "ansi", "rgb_array")

Obs = npt.NDArray[np.float32]


def check_render_mode(mode: str | None) -> None:
    """Refuses a render mode the adapters do not offer."""
    if mode is not None and mode not in RENDER_MODES:
        raise InvalidOptionError(f"render_mode must be None or one of {', '.join(RENDER_MODES)}, got {mode!r}")
    if mode == "rgb_array":
        try:
            import regalia.views.pictures  # noqa: F401
        except ImportError as error:
            raise InvalidOptionError(f"render_mode 'rgb_array' is not available: {error}") from None


def observation_box(game: GameProtocol) -> spaces.Box:
    """The box of a game's observation tensors."""
    shape = tuple(game.observation_shape)
    return spaces.Box(low=-TENSOR_BOUND, high=TENSOR_BOUND, shape=shape, dtype=np.float32)


def action_mask(state: StateProtocol) -> npt.NDArray[np.int8]:
    """The legal actions of ``state`` as an int8 mask."""
    mask: npt.NDArray[np.int8] = state.legal_action_mask().astype(np.int8)
    return mask


class RegaliaEnv(gym.Env[npt.NDArray[Any], np.int64]):
    """Seat ``seat`` of ``game`` against ``opponents``: one opponent for every other seat, or
    a list of them, one per other seat in seat order. An opponent is a built-in agent's name
    (``"random"``, ``"ismcts:iterations=50"``), an agent object (with ``act(view)``, e.g. a
    loaded ``policy``) or a function of the view; ``set_opponents`` or
    ``reset(options={"opponents": ...})`` changes them for the next game. In a game made with
    explicit chance (``chance="explicit"``) the env draws each chance outcome by its
    probabilities, from the game's seed, as ``regalia.play`` does."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(
        self,
        game: str,
        seat: int = 0,
        opponents: OpponentSpec | Sequence[OpponentSpec] = "random",
        render_mode: str | None = None,
        backend: str = "rust",
        **options: Any,
    ) -> None:
        self.game = make(game, backend=backend, **options)  # type: ignore[arg-type]
        n = self.game.num_players
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise InvalidOptionError(f"seat must be from 0 to {n - 1}, got {seat!r}")
        check_render_mode(render_mode)
        self.seat = seat
        self.opponents = Opponents(opponents, n, seat)
        self.render_mode = render_mode
        self.observation_space = observation_box(self.game)
        self.action_space = spaces.Discrete(self.game.num_actions)
        #: The game being played: a ``StateProtocol`` once ``reset`` has run, None before. Typed
        #: ``Any`` because every use after ``reset`` (which ``_done`` guards) would need a None check.
        self.state: Any = None
        self._done = True
        self._agents: dict[int, Agent] = {}
        self._seed = 0
        self._chance = ChanceDraws(0)

    @property
    def opponent_names(self) -> list[str]:
        """The opponents' names, in seat order."""
        return self.opponents.names

    def set_opponents(self, opponents: OpponentSpec | Sequence[OpponentSpec]) -> None:
        """Who plays the other seats from the next ``reset`` on (as ``opponents`` in the
        constructor): e.g. a pool of past policies for self-play, without a new env."""
        self.opponents = Opponents(opponents, self.game.num_players, self.seat)

    def _observe(self, illegal: bool = False) -> tuple[Obs, dict[str, Any]]:
        info: dict[str, Any] = {"action_mask": action_mask(self.state) if self._my_turn() else self._no_moves()}
        if illegal:
            info["illegal_action"] = True
        return self.state.observation_tensor(self.seat), info

    def _my_turn(self) -> bool:
        return bool(self.state.current_player == self.seat)

    def _no_moves(self) -> npt.NDArray[np.int8]:
        return np.zeros(self.game.num_actions, dtype=np.int8)

    def _view(self, seat: int) -> Any:
        ply = len(self.state.history())
        return view_of(self.state, seat, self.game.name, self.game.options, world_seed(self._seed, ply, seat))

    def _opponents_play(self) -> None:
        """The other seats act, and chance outcomes are drawn, until it is this seat's turn or
        the game is over; an opponent's illegal choice raises ``AgentError`` (seat and action)
        and is not played."""
        while not self.state.is_terminal and not self._my_turn():
            if self.state.is_chance_node:
                self.state.apply(self._chance.draw(self.state.chance_outcomes()))
                continue
            seat = self.state.current_player
            agent = self._agents[seat]
            self.state.apply(checked_action(agent, self.state, seat, self.game.name, self.game.options, self._seed))
        if self.state.is_terminal:
            returns = self.state.returns()
            for seat, agent in self._agents.items():
                call_hook(agent, "game_end", self._view(seat), returns)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        """A new game (its seed and the opponents' drawn from the env's generator);
        ``options={"opponents": ...}`` sets new opponents first (see ``set_opponents``)."""
        super().reset(seed=seed)
        unknown = sorted(set(options or {}) - {"opponents"})
        if unknown:
            raise InvalidOptionError(f"unknown reset option {unknown[0]!r}; reset options: opponents")
        if options and "opponents" in options:
            self.set_opponents(options["opponents"])
        draw = self.np_random.integers
        self._seed = int(draw(0, 2**63))
        self.state = self.game.new_state(self._seed)
        self._chance = ChanceDraws(self._seed)
        self._agents = self.opponents.agents([int(draw(0, 2**63)) for _ in self.opponents.seats])
        for s, agent in self._agents.items():
            call_hook(agent, "game_start", self._view(s))
        self._done = True  # until the opponents have played their first moves without error
        self._opponents_play()
        self._done = bool(self.state.is_terminal)
        if self.render_mode == "human":
            self.render()
        return self._observe()

    def step(self, action: np.int64 | int) -> tuple[Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        """Plays ``action`` for this seat, then the opponents until this seat's next turn."""
        if self._done:
            raise gym.error.ResetNeeded("the episode is over (or not started): call reset()")
        try:
            self.state.apply(action)
        except IllegalActionError:
            self._done = True
            obs, info = self._observe(illegal=True)
            return obs, ILLEGAL_ACTION_REWARD, True, False, info
        self._done = True  # until the opponents have answered without error
        self._opponents_play()
        if self.render_mode == "human":
            self.render()
        obs, info = self._observe()
        self._done = bool(self.state.is_terminal)
        reward = float(self.state.returns()[self.seat]) if self._done else 0.0
        return obs, reward, self._done, False, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """This seat's legal actions now, as a bool mask (what sb3-contrib's ``MaskablePPO``
        asks for); all false when it is not this seat's turn or the episode is over."""
        if self.state is None or self._done or not self._my_turn():
            return np.zeros(self.game.num_actions, dtype=np.bool_)
        mask: npt.NDArray[np.bool_] = self.state.legal_action_mask()
        return mask

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The board as this seat sees it: text (the CLI's renderer), or in ``rgb_array`` mode
        a picture of the table from this seat's view (``regalia.views.pictures``)."""
        if self.render_mode is None or self.state is None:
            return None
        if self.render_mode == "rgb_array":
            from regalia.views.pictures import state_picture

            return state_picture(self.game, self.state, self.seat)
        text = render_board(self.game.name, self.state.observation(self.seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text


def env_id(game: str) -> str:
    """The id of a game's environment in Gymnasium's registry, e.g. ``regalia/duo-regna-v0``."""
    return f"regalia/{game}-v0"


for _info in games():
    if env_id(_info["name"]) not in gym.registry:
        gym.register(
            env_id(_info["name"]),
            entry_point="regalia.envs.gymnasium:RegaliaEnv",
            vector_entry_point="regalia.envs.gymnasium_vector:RegaliaVectorEnv",
            kwargs={"game": _info["name"]},
        )
