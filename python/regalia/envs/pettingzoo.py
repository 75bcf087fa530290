"""PettingZoo AEC environments: every seat of a Regalia game is an agent
(``pip install "regalia[pettingzoo]"``).

>>> import numpy as np
>>> from regalia.envs.pettingzoo import env
>>> e = env("duo-regna", render_mode="ansi")
>>> e.reset(seed=1)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     action = None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0])
...     e.step(action)

Agents are ``player_0`` .. ``player_{n-1}`` (the seats). An observation is a dict: the
seat's ``observation`` tensor and an int8 ``action_mask`` (all zeros but on the agent's own
turn). Rewards are the game's returns, given at the end; games end by themselves, so there
are no truncations. ``render()`` shows the board drawn by ``regalia.views.render``, as the agent to
act sees it, or with ``render_mode="rgb_array"`` a picture of the whole table, every seat's
cards open (``regalia.views.pictures``). An illegal move ends the episode as in PettingZoo's classic
games (``TerminateIllegalWrapper``): the mover is rewarded ``illegal_reward`` (default -1),
the others 0, every agent is terminated, and every agent's ``info`` has ``illegal_action:
True`` (as in ``regalia.envs.gymnasium``), ``illegal_agent`` (the mover) and ``illegal_reason``
(which action, and why it was refused); the game position stays as it was. With
``illegal="raise"`` an illegal move raises ``IllegalActionError`` instead, the game
unchanged. An action that is not an integer raises either way. The game position is
``game_state``; ``state()`` is PettingZoo's global state: every seat's observation tensor,
concatenated (in ``state_space``), e.g. for a centralised critic.

Duo Regna, where both players choose a card at once, is also a parallel environment:

>>> from regalia.envs.pettingzoo import parallel_env
>>> p = parallel_env("duo-regna")
>>> observations, infos = p.reset(seed=1)
>>> while p.agents:
...     actions = {a: int(np.flatnonzero(observations[a]["action_mask"])[0]) for a in p.agents}
...     observations, rewards, terminations, truncations, infos = p.step(actions)
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from regalia.core.errors import IllegalActionError, InvalidOptionError
from regalia.core.protocols import GameProtocol, StateProtocol
from regalia.envs.gymnasium import (
    ILLEGAL_ACTION_REWARD,
    RENDER_MODES,
    TENSOR_BOUND,
    action_mask,
    check_render_mode,
    observation_box,
)
from regalia.registry.catalog import make
from regalia.registry.records import ChanceDraws
from regalia.views.render import render as render_board

__all__ = [
    "ILLEGAL_MODES",
    "SIMULTANEOUS_GAMES",
    "RegaliaAECEnv",
    "RegaliaParallelEnv",
    "env",
    "parallel_env",
    "raw_env",
]

#: Per agent, a flag (terminations, truncations).
Flags = dict[str, bool]

#: Games whose seats choose at once (a round is one step of the parallel environment).
SIMULTANEOUS_GAMES = ("duo-regna",)

#: What an illegal move does: end the episode with the mover losing (PettingZoo's classic
#: games), or raise ``IllegalActionError``.
ILLEGAL_MODES = ("terminate", "raise")


def _illegal_reason(action: Any, error: IllegalActionError) -> str | None:
    """Why ``action`` was refused, for the infos; None when it is not a move at all (not an
    integer), which raises whatever the mode."""
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
        return None
    return str(error)


def _spaces(game: GameProtocol) -> tuple[list[str], spaces.Space[Any], spaces.Space[Any], spaces.Box]:
    """The agents of ``game``, its action space, observation space and global state space."""
    agents = [f"player_{i}" for i in range(game.num_players)]
    mask = spaces.Box(low=0, high=1, shape=(game.num_actions,), dtype=np.int8)
    observation = spaces.Dict({"observation": observation_box(game), "action_mask": mask})
    size = game.num_players * int(np.prod(game.observation_shape))
    state = spaces.Box(low=-TENSOR_BOUND, high=TENSOR_BOUND, shape=(size,), dtype=np.float32)
    return agents, spaces.Discrete(game.num_actions), observation, state


class _RegaliaEnv:
    """What both environments share: the game, its agents and spaces, the global state, the
    seeding of new games and the text render."""

    metadata: dict[str, Any]

    def _setup(
        self,
        game: str,
        render_mode: str | None,
        backend: str,
        illegal: str,
        illegal_reward: float,
        options: dict[str, Any],
    ) -> None:
        self.game = make(game, backend=backend, **options)  # type: ignore[arg-type]
        check_render_mode(render_mode)
        if illegal not in ILLEGAL_MODES:
            raise InvalidOptionError(f"illegal must be one of {', '.join(ILLEGAL_MODES)}, got {illegal!r}")
        if (
            isinstance(illegal_reward, bool)
            or not isinstance(illegal_reward, (int, float, np.number))
            or not math.isfinite(illegal_reward)
        ):
            raise InvalidOptionError(f"illegal_reward must be a finite number, got {illegal_reward!r}")
        #: What an illegal move does (``ILLEGAL_MODES``).
        self.illegal: str = illegal
        #: The mover's reward when its illegal move ends the game.
        self.illegal_reward: float = float(illegal_reward)
        self.metadata = {**self.metadata, "name": f"regalia_{self.game.name.replace('-', '_')}_v0"}
        self.render_mode = render_mode
        self.possible_agents, action, observation, self.state_space = _spaces(self.game)
        self.action_spaces = dict.fromkeys(self.possible_agents, action)
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self.agents: list[str] = []
        #: The game position (a ``regalia.State``), ``None`` before the first reset.
        #: The game being played: a ``StateProtocol`` once ``reset`` has run, None before. Typed
        #: ``Any`` because every use after ``reset`` would need a None check.
        self.game_state: Any = None
        self._seeds = random.Random()
        self._chance = ChanceDraws(0)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's observation space."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's action space."""
        return self.action_spaces[agent]

    def state(self) -> npt.NDArray[np.float32]:
        """The global state: every seat's observation tensor, concatenated in seat order."""
        return np.concatenate([self.game_state.observation_tensor(s).ravel() for s in range(self.game.num_players)])

    def _illegal_outcome(self, mover: str, reason: str) -> tuple[dict[str, float], dict[str, dict[str, Any]]]:
        """The rewards and infos of the live agents when ``mover``'s illegal move ends the game."""
        rewards = {a: self.illegal_reward if a == mover else 0.0 for a in self.agents}
        why = {"illegal_action": True, "illegal_agent": mover, "illegal_reason": reason}
        return rewards, {a: dict(why) for a in self.agents}

    def _new_game(self, seed: int | None) -> None:
        """A new game, every agent in it; with ``seed`` this and the following games repeat."""
        if seed is not None:
            self._seeds = random.Random(seed)
        game_seed = self._seeds.getrandbits(64)
        self.game_state = self.game.new_state(game_seed)
        self._chance = ChanceDraws(game_seed)
        self._draw_chance(self.game_state)
        self.agents = self.possible_agents[:]

    def _draw_chance(self, state: StateProtocol) -> None:
        """Plays ``state``'s chance outcomes (a game made with ``chance="explicit"``), each
        drawn by its probabilities from the game's seed, until a seat is to act or the game
        is over: the agents only ever see decisions."""
        while state.is_chance_node:
            state.apply(self._chance.draw(state.chance_outcomes()))

    def _render(self, seat: int) -> str | npt.NDArray[np.uint8] | None:
        """The board as ``seat`` sees it: printed in ``human`` mode, returned in ``ansi``; in
        ``rgb_array`` mode a picture of the whole table, every seat's cards open."""
        if self.render_mode is None or self.game_state is None:
            return None
        if self.render_mode == "rgb_array":
            from regalia.views.pictures import state_picture

            return state_picture(self.game, self.game_state, None)
        text = render_board(self.game.name, self.game_state.observation(seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


class RegaliaAECEnv(_RegaliaEnv, AECEnv):  # type: ignore[misc]
    """One Regalia game as a PettingZoo AEC environment."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "regalia_v0", "is_parallelizable": False, "render_fps": 1}

    def __init__(
        self,
        game: str,
        render_mode: str | None = None,
        backend: str = "rust",
        illegal: str = "terminate",
        illegal_reward: float = ILLEGAL_ACTION_REWARD,
        **options: Any,
    ) -> None:
        AECEnv.__init__(self)
        self._setup(game, render_mode, backend, illegal, illegal_reward, options)

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; with ``seed`` this and the following resets are repeatable."""
        self._new_game(seed)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game_state.current_player]

    def observe(self, agent: str) -> dict[str, Any]:
        """What ``agent`` sees: its tensor, and its legal actions when it is its turn."""
        seat = self._seat(agent)
        mine = self.game_state.current_player == seat
        mask = action_mask(self.game_state) if mine else np.zeros(self.game.num_actions, dtype=np.int8)
        return {"observation": self.game_state.observation_tensor(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Plays the selected agent's ``action`` (``None`` for an agent whose game is over); an
        illegal one ends the game or raises, as ``illegal`` says."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        try:
            self.game_state.apply(action)
        except IllegalActionError as error:
            reason = _illegal_reason(action, error)
            if reason is None or self.illegal == "raise":
                raise
            self._cumulative_rewards[agent] = 0.0
            self.rewards, infos = self._illegal_outcome(agent, reason)
            self.infos = {a: {**self.infos[a], **infos[a]} for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            self._deads_step_first()
            return
        self._cumulative_rewards[agent] = 0.0
        self._draw_chance(self.game_state)
        if self.game_state.is_terminal:
            returns = self.game_state.returns()
            for a in self.agents:
                self.rewards[a] = float(returns[self._seat(a)])
                self.terminations[a] = True
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[self.game_state.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The board as the agent to act sees it (seat 0 once the game is over); in
        ``rgb_array`` mode the whole table, every seat's cards open."""
        player = None if self.game_state is None else self.game_state.current_player
        return self._render(0 if player is None else player)


def raw_env(game: str, render_mode: str | None = None, **options: Any) -> RegaliaAECEnv:
    """The unwrapped environment of ``game`` (``illegal``, ``illegal_reward`` and ``backend`` as
    for ``RegaliaAECEnv``, the other ``options`` as for ``regalia.make``)."""
    return RegaliaAECEnv(game, render_mode=render_mode, **options)


def env(game: str, render_mode: str | None = None, **options: Any) -> Any:
    """The environment of ``game`` (options as for ``raw_env``) in PettingZoo's
    order-enforcing wrapper."""
    return OrderEnforcingWrapper(raw_env(game, render_mode=render_mode, **options))


class RegaliaParallelEnv(_RegaliaEnv, ParallelEnv):  # type: ignore[misc]
    """A game whose seats choose at once (``SIMULTANEOUS_GAMES``) as a PettingZoo parallel
    environment: one ``step`` takes every seat's choice for the round.

    The engine plays the round in seat order, each seat's choice hidden from the others until
    the reveal, so each agent sees the round exactly as in the AEC environment at its turn
    (a later seat's view is taken after a stand-in choice of the earlier seats: its view does
    not depend on what they chose)."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "regalia_v0", "render_fps": 1}

    def __init__(
        self,
        game: str,
        render_mode: str | None = None,
        backend: str = "rust",
        illegal: str = "terminate",
        illegal_reward: float = ILLEGAL_ACTION_REWARD,
        **options: Any,
    ) -> None:
        self._setup(game, render_mode, backend, illegal, illegal_reward, options)
        if self.game.name not in SIMULTANEOUS_GAMES:
            raise InvalidOptionError(
                f"{self.game.name} is played in turns: use env() (parallel games: {', '.join(SIMULTANEOUS_GAMES)})"
            )

    def _observe(self) -> dict[str, dict[str, Any]]:
        """Each live agent's view of the round to choose in, with its legal actions."""
        views: dict[str, dict[str, Any]] = {}
        turn = self.game_state.clone()
        for seat, agent in enumerate(self.possible_agents):
            if agent not in self.agents:
                continue
            assert turn.current_player == seat, "every seat chooses in each round, in seat order"
            views[agent] = {"observation": turn.observation_tensor(seat), "action_mask": action_mask(turn)}
            if seat + 1 < len(self.possible_agents):
                turn.apply(turn.legal_actions()[0])  # a stand-in: the next seat cannot see it
        return views

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
        """A new game; with ``seed`` this and the following resets are repeatable."""
        self._new_game(seed)
        if self.render_mode == "human":
            self.render()
        return self._observe(), {a: {} for a in self.agents}

    def step(
        self, actions: dict[str, int]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        """Plays one round: every live agent's action, in seat order. A missing action raises
        ``IllegalActionError``; the first illegal one (in seat order) ends the game with that
        agent losing, or raises, as ``illegal`` says. The game is left as it was unless the
        whole round is played."""
        missing = [a for a in self.agents if a not in actions]
        if missing:
            raise IllegalActionError(f"every agent chooses each round; no action for {', '.join(missing)}")
        after = self.game_state.clone()
        infos: dict[str, Any] = {a: {} for a in self.agents}
        refused: dict[str, float] | None = None
        for agent in self.agents:
            try:
                after.apply(actions[agent])
            except IllegalActionError as error:
                reason = _illegal_reason(actions[agent], error)
                if reason is None or self.illegal == "raise":
                    raise
                refused, infos = self._illegal_outcome(agent, reason)
                after = self.game_state
                break
        if refused is None:
            self._draw_chance(after)
        self.game_state = after
        over = refused is not None or bool(after.is_terminal)
        returns = after.returns()
        rewards = refused or {
            a: float(returns[i]) if over else 0.0 for i, a in enumerate(self.possible_agents) if a in self.agents
        }
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, False)
        live = self.agents
        self.agents = [] if over else live
        observations = (
            {
                a: {"observation": after.observation_tensor(i), "action_mask": np.zeros(self.game.num_actions, np.int8)}
                for i, a in enumerate(self.possible_agents)
                if a in live
            }
            if over
            else self._observe()
        )
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The board as the first seat sees it; in ``rgb_array`` mode the whole table, every
        seat's cards open."""
        return self._render(0)


def parallel_env(game: str = "duo-regna", render_mode: str | None = None, **options: Any) -> RegaliaParallelEnv:
    """The parallel environment of a game whose seats choose at once (``SIMULTANEOUS_GAMES``;
    options as for ``raw_env``)."""
    return RegaliaParallelEnv(game, render_mode=render_mode, **options)
