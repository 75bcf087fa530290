"""PettingZoo AEC environments: every seat of a Regalia game is an agent
(``pip install "regalia[pettingzoo]"``).

>>> import numpy as np
>>> from regalia.pettingzoo import env
>>> e = env("duo-regna", render_mode="ansi")
>>> e.reset(seed=1)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     action = None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0])
...     e.step(action)

Agents are ``player_0`` .. ``player_{n-1}`` (the seats). An observation is a dict: the
seat's ``observation`` tensor and an int8 ``action_mask`` (all zeros but on the agent's own
turn). Rewards are the game's returns, given at the end; games end by themselves, so there
are no truncations. ``render()`` shows the board through the CLI's renderer, as the agent to
act sees it. An illegal action raises ``IllegalActionError`` (wrap the env in PettingZoo's
``TerminateIllegalWrapper`` to end the game with a penalty instead).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

import regalia
from regalia.cli.renderers import render as render_board
from regalia.gymnasium import RENDER_MODES, action_mask, check_render_mode, observation_box

__all__ = ["RegaliaAECEnv", "env", "raw_env"]


class RegaliaAECEnv(AECEnv):  # type: ignore[misc]
    """One Regalia game as a PettingZoo AEC environment."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "regalia_v0", "is_parallelizable": False, "render_fps": 1}

    def __init__(self, game: str, render_mode: str | None = None, backend: str = "rust", **options: Any) -> None:
        super().__init__()
        self.game = regalia.make(game, backend=backend, **options)  # type: ignore[arg-type]
        check_render_mode(render_mode)
        self.metadata = {**self.metadata, "name": f"regalia_{self.game.name.replace('-', '_')}_v0"}
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(self.game.num_players)]
        self.action_spaces = {a: spaces.Discrete(self.game.num_actions) for a in self.possible_agents}
        mask = spaces.Box(low=0, high=1, shape=(self.game.num_actions,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": observation_box(self.game), "action_mask": mask})
            for a in self.possible_agents
        }
        self.state: Any = None
        self._seeds = random.Random()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's observation space."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's action space."""
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; with ``seed`` this and the following resets are repeatable."""
        if seed is not None:
            self._seeds = random.Random(seed)
        self.state = self.game.new_state(self._seeds.getrandbits(64))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player]

    def observe(self, agent: str) -> dict[str, Any]:
        """What ``agent`` sees: its tensor, and its legal actions when it is its turn."""
        seat = self._seat(agent)
        mine = self.state.current_player == seat
        mask = action_mask(self.state) if mine else np.zeros(self.game.num_actions, dtype=np.int8)
        return {"observation": self.state.observation_tensor(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Plays the selected agent's ``action`` (``None`` for an agent whose game is over)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.state.apply(action)
        self._cumulative_rewards[agent] = 0.0
        if self.state.is_terminal:
            returns = self.state.returns()
            for a in self.agents:
                self.rewards[a] = float(returns[self._seat(a)])
                self.terminations[a] = True
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[self.state.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The board as the agent to act sees it (the CLI's text renderer)."""
        if self.render_mode is None or self.state is None:
            return None
        seat = self.state.current_player if self.state.current_player is not None else 0
        text = render_board(self.game.name, self.state.observation(seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def raw_env(game: str, render_mode: str | None = None, **options: Any) -> RegaliaAECEnv:
    """The unwrapped environment of ``game`` (``options`` as for ``regalia.make``)."""
    return RegaliaAECEnv(game, render_mode=render_mode, **options)


def env(game: str, render_mode: str | None = None, **options: Any) -> Any:
    """The environment of ``game`` in PettingZoo's order-enforcing wrapper."""
    return OrderEnforcingWrapper(raw_env(game, render_mode=render_mode, **options))
