"""A ``gymnasium.vector.VectorEnv`` over the native batch (``pip install "regalia[gymnasium]"``):
one learning seat in ``num_envs`` games, every step one call into Rust for all of them.

>>> from regalia.envs.gymnasium_vector import RegaliaVectorEnv
>>> envs = RegaliaVectorEnv("duo-regna", num_envs=64, opponents="random")
>>> obs, infos = envs.reset(seed=0)          # infos["action_mask"]: (64, num_actions) int8

Autoreset is Gymnasium's ``SAME_STEP`` mode (``metadata["autoreset_mode"]``): on the step a
game ends, ``terminations[i]`` is true, the observation is already the next game's first, and
``infos["final_obs"][i]`` (``infos["_final_obs"]`` marks the rows) is the learner's last
observation of the game that ended. Opponents are as in ``RegaliaEnv``
(``reset(options={"opponents": ...})`` swaps them, ``{"opponent_pool": [...]}`` draws them
per game from a pool); see ``regalia.envs.seat_batch``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from regalia.agents.opponents import OpponentSpec
from regalia.core.errors import InvalidOptionError
from regalia.envs.gymnasium import observation_box
from regalia.envs.seat_batch import SeatBatch, SeatStep

__all__ = ["RegaliaVectorEnv"]

Obs = npt.NDArray[np.float32]


class RegaliaVectorEnv(gym.vector.VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` games of ``game`` stepped natively, the learner at ``seat`` (one for all
    games or one per game) against ``opponents``."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        game: str,
        num_envs: int = 64,
        seat: int | Sequence[int] = 0,
        opponents: OpponentSpec | Sequence[OpponentSpec] = "random",
        seed: int = 0,
        threads: int | None = 1,
        **options: Any,
    ) -> None:
        self.batch = SeatBatch(game, num_envs, seat, opponents, seed, threads, **options)
        self.num_envs = num_envs
        self.single_observation_space = observation_box(self.batch.game)
        self.single_action_space = spaces.Discrete(self.batch.game.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Starts every game again: from ``seed`` (an int, or a list whose first entry is
        used) when given; ``options={"opponents": ...}`` sets new opponents first, and
        ``options={"opponent_pool": [...]}`` a pool each game draws its opponents from
        (``regalia.envs.seat_batch.SeatBatch.set_opponent_pool``)."""
        unknown = sorted(set(options or {}) - {"opponents", "opponent_pool"})
        if unknown:
            raise InvalidOptionError(f"unknown reset option {unknown[0]!r}; reset options: opponents, opponent_pool")
        if options and "opponents" in options:
            self.batch.set_opponents(options["opponents"])
        if options and "opponent_pool" in options:
            self.batch.set_opponent_pool(options["opponent_pool"])
        first = seed[0] if isinstance(seed, list) else seed
        out = self.batch.reset(first)
        return out.observations.copy(), self._infos(out)

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[Obs, npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        """Plays the learner's actions in every game, then the opponents, natively."""
        out = self.batch.step(np.asarray(actions, dtype=np.int64))
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        rewards = out.rewards.astype(np.float64)
        return out.observations.copy(), rewards, out.terminated.copy(), truncated, self._infos(out)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions in every game now, one bool row per game."""
        masks: npt.NDArray[np.bool_] = self.batch.action_masks().copy()
        return masks

    def _infos(self, out: SeatStep) -> dict[str, Any]:
        every = np.ones(self.num_envs, dtype=np.bool_)
        infos: dict[str, Any] = {"action_mask": out.masks.astype(np.int8), "_action_mask": every}
        if out.terminated.any():
            final = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(out.terminated):
                final[i] = out.final_observations[i].copy()
            infos["final_obs"], infos["_final_obs"] = final, out.terminated.copy()
            infos["final_info"], infos["_final_info"] = {}, out.terminated.copy()
        return infos
