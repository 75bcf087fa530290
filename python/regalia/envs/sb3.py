"""A Stable-Baselines3 ``VecEnv`` over the native batch (``pip install "regalia[learn]"``):
one learning seat in ``num_envs`` games, every step one call into Rust for all of them.

>>> from regalia.envs.sb3 import RegaliaVecEnv
>>> env = RegaliaVecEnv("duo-regna", num_envs=64, opponents="random", seed=0)
>>> obs = env.reset()                      # (64, *observation_shape) float32
>>> masks = env.action_masks()             # (64, num_actions) bool, as MaskablePPO asks

Rewards are the learner's return on the step its game ends, 0 before; a game that ends
restarts at once, its last observation in ``infos[i]["terminal_observation"]`` (SB3's
autoreset). Opponents are as in ``regalia.envs.gymnasium.RegaliaEnv``; where all are ``random``
they move natively inside the same call (see ``regalia.envs.seat_batch``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv

from regalia.agents.opponents import OpponentSpec
from regalia.core.errors import InvalidArgumentError
from regalia.core.policy_file import PolicyNet, actor_modules, policy_net, save_policy
from regalia.core.protocols import GameProtocol
from regalia.envs.gymnasium import observation_box
from regalia.envs.seat_batch import SeatBatch, SeatStep

__all__ = ["RegaliaVecEnv", "export_policy", "load_actor", "policy_net"]

Obs = npt.NDArray[np.float32]


class RegaliaVecEnv(VecEnv):  # type: ignore[misc]
    """``num_envs`` games of ``game`` stepped natively, the learner at ``seat`` (one for
    all games or one per game) against ``opponents``. ``action_masks()`` is what sb3-contrib's
    ``MaskablePPO`` reads; ``set_opponents`` swaps opponents for the next games."""

    batch: SeatBatch
    reset_infos: list[dict[str, Any]]

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
        game_ = self.batch.game
        self.render_mode = None  # the games are drawn by regalia.views.render, not through SB3
        super().__init__(num_envs, observation_box(game_), spaces.Discrete(game_.num_actions))
        self._actions: npt.NDArray[Any] | None = None

    def set_opponents(self, opponents: OpponentSpec | Sequence[OpponentSpec]) -> None:
        """Who plays the other seats from each game's next start on."""
        self.batch.set_opponents(opponents)

    def set_opponent_pool(self, pool: Sequence[OpponentSpec | Sequence[OpponentSpec]]) -> None:
        """Opponents drawn per game from ``pool`` from each game's next start on (see
        ``regalia.envs.seat_batch.SeatBatch.set_opponent_pool``): a mix, past checkpoints."""
        self.batch.set_opponent_pool(pool)

    def reset(self) -> npt.NDArray[np.float32]:
        """Starts every game again (from the seed given to ``seed()`` if any)."""
        seed = self._seeds[0]
        self._reset_seeds()
        self._reset_options()
        first = self.batch.reset(seed)
        self.reset_infos = [{} for _ in range(self.num_envs)]
        obs: Obs = first.observations.copy()
        return obs

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        """Keeps the actions for ``step_wait``."""
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> tuple[Obs, npt.NDArray[np.float32], npt.NDArray[np.bool_], list[dict[str, Any]]]:
        """Plays the kept actions in every game, natively."""
        if self._actions is None:
            raise InvalidArgumentError("step_wait() needs step_async(actions) first")
        actions, self._actions = self._actions, None
        out = self.batch.step(actions)
        return out.observations.copy(), out.rewards, out.terminated, self._infos(out)

    @staticmethod
    def _infos(out: SeatStep) -> list[dict[str, Any]]:
        infos: list[dict[str, Any]] = [{} for _ in range(len(out.terminated))]
        for i in np.flatnonzero(out.terminated):
            infos[i] = {"terminal_observation": out.final_observations[i], "TimeLimit.truncated": False}
        return infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions in every game now, one bool row per game."""
        masks: npt.NDArray[np.bool_] = self.batch.action_masks().copy()
        return masks

    def close(self) -> None:
        """Nothing to release (the games live in the native batch)."""

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """An attribute of this env, once per game asked for (the games share it)."""
        return [getattr(self, attr_name) for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        """Sets an attribute of this env (shared by every game)."""
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any) -> list[Any]:
        """``action_masks`` row by row (as sb3-contrib asks); other methods of this env once
        per game asked for."""
        chosen: Iterable[int] = self._get_indices(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in chosen]
        method = getattr(self, method_name)
        return [method(*method_args, **method_kwargs) for _ in chosen]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        """No game is wrapped."""
        return [False for _ in self._get_indices(indices)]


def export_policy(model: Any, game: GameProtocol, path: str | Path) -> None:
    """Writes the actor of a trained model of ``game`` to ``path`` as a policy file that
    plays with numpy alone (``policy:path=PATH``)."""
    save_policy(path, policy_net(model, game))


def load_actor(model: Any, net: PolicyNet) -> None:
    """Sets the actor of an ``MlpPolicy`` model to the layers of ``net`` (a policy file
    loaded by ``regalia.core.policy_file.load_policy``), to continue training from it; a model
    whose actor has other layer shapes or another activation raises ``InvalidArgumentError``."""
    import torch

    linear, between = actor_modules(model)
    shapes = [tuple(m.weight.shape) for m in linear]
    activations = {type(m).__name__.lower() for m in between}
    if shapes != [tuple(w.shape) for w, _ in net.layers] or (between and activations != {net.activation}):
        raise InvalidArgumentError(
            f"the model's actor has layers {shapes} ({', '.join(sorted(activations))}); "
            f"the policy file's are {[tuple(w.shape) for w, _ in net.layers]} ({net.activation})"
        )
    with torch.no_grad():
        for module, (weight, bias) in zip(linear, net.layers):
            module.weight.copy_(torch.from_numpy(weight))
            module.bias.copy_(torch.from_numpy(bias))
