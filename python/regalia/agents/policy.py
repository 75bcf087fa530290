"""A trained policy as an agent: ``policy:path=model.npz`` plays a policy file exported by
``regalia.envs.sb3.export_policy`` with numpy alone; ``policy:path=model.zip`` plays a saved
MaskablePPO model (which needs torch: ``pip install "regalia[learn]"``). With
``exploit=true`` its game's hand-written exploit (``regalia.agents.exploits``) moves first
when it reads one from the opponent's play; by default the policy plays as trained."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from regalia.agents.base import Agent
from regalia.agents.exploits import Guarded
from regalia.core.errors import InvalidArgumentError, InvalidOptionError
from regalia.core.policy_file import PolicyNet, load_policy, policy_net
from regalia.core.protocols import GameProtocol
from regalia.core.view import View
from regalia.registry.catalog import make

#: Loaded policy files by path, with the size and time of the file they were read from.
_LOADED: dict[str, tuple[tuple[int, int], Any]] = {}


def _load(path: str) -> Any:
    """The policy at ``path`` (a ``PolicyNet`` or a loaded SB3 model), read once per version
    of the file."""
    try:
        stat = os.stat(path)
    except OSError:
        raise InvalidArgumentError(f"no policy file at {path}") from None
    key = (stat.st_size, stat.st_mtime_ns)
    cached = _LOADED.get(path)
    if cached is not None and cached[0] == key:
        return cached[1]
    loaded = _load_model(path) if path.endswith(".zip") else load_policy(path)
    _LOADED[path] = (key, loaded)
    return loaded


def _load_model(path: str) -> Any:
    try:
        from sb3_contrib import MaskablePPO
    except ImportError:
        raise InvalidOptionError(
            f"{path} is a Stable-Baselines3 model, which needs torch and sb3-contrib: "
            'pip install "regalia[learn]" (or play its export, a .npz policy file, with numpy alone)'
        ) from None
    try:
        return MaskablePPO.load(path, device="cpu")
    except Exception as e:
        raise InvalidArgumentError(f"{path} is not a MaskablePPO model (damaged, or another format): {e}") from None


def flag(name: str, value: Any) -> bool:
    """``value`` of the yes-or-no option ``name`` (``true``/``false`` in a spec), else refused."""
    if not isinstance(value, bool):
        raise InvalidOptionError(f"the policy agent's option {name} is true or false, got {value!r}")
    return value


def policy_agent(
    seed: int | None = None, path: str | None = None, sample: bool = False, exploit: bool = False
) -> Agent:
    """The ``policy`` agent: a ``PolicyAgent`` (``path``, ``sample``, ``seed``: see there),
    with ``exploit`` guarded by its game's exploit (``Guarded``: a move read from the
    opponent's play, such as a fixed order of Duo Regna's cards once seen, comes first; the
    memory of it is forgotten at each game's start). ``exploit`` is false by default, so a
    policy plays as it was trained unless asked."""
    agent = PolicyAgent(seed, path, flag("sample", sample))
    return Guarded(agent) if flag("exploit", exploit) else agent


class PolicyAgent:
    """Plays a trained policy (``path``: an exported ``.npz`` policy file, or a MaskablePPO
    ``.zip``): the legal action of highest logit, or with ``sample`` one drawn in proportion
    to the policy's probabilities over the legal actions from its own generator (``seed``).
    A policy of another game or observation shape is refused at the first view, naming the
    mismatch; a damaged file when it is loaded."""

    name = "policy"

    def __init__(self, seed: int | None = None, path: str | None = None, sample: bool = False) -> None:
        if path is None:
            raise InvalidOptionError("the policy agent needs a file: policy:path=model.npz (or a .zip model)")
        self.path = str(path)
        self.sample = bool(sample)
        self._loaded = _load(self.path)
        self._rng = np.random.default_rng(seed)
        self._nets: dict[str, PolicyNet] = {}

    def game_start(self, view: View) -> None:
        """Refuses a game the policy was not trained for, before its first move."""
        self._net(view.game, view.options)

    def action_probabilities(self, view: View) -> dict[int, float]:
        """A point mass on the legal action of highest logit, or with ``sample`` the softmax
        of the legal actions' logits."""
        net = self._net(view.game, view.options)
        logits = net.logits(np.asarray(view.observation_tensor(), dtype=np.float32)[None])[0]
        legal = np.asarray(view.legal_actions)
        if not self.sample:
            return {int(legal[np.argmax(logits[legal])]): 1.0}
        weights = np.exp(logits[legal] - logits[legal].max())
        weights = weights / weights.sum()
        return {int(a): float(w) for a, w in zip(legal, weights, strict=True)}

    def act(self, view: View) -> int:
        """The policy's choice among ``view.legal_actions``."""
        net = self._net(view.game, view.options)
        logits = net.logits(np.asarray(view.observation_tensor(), dtype=np.float32)[None])[0]
        legal = np.asarray(view.legal_actions)
        if not self.sample:
            return int(legal[np.argmax(logits[legal])])
        weights = np.exp(logits[legal] - logits[legal].max())
        return int(self._rng.choice(legal, p=weights / weights.sum()))

    def act_batch(
        self, game: GameProtocol, observations: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_]
    ) -> npt.NDArray[np.int64]:
        """The policy's choice in each row (``BatchAgent``): one forward pass for all rows."""
        return self._choose(self.net_for(game), observations, masks)

    def net_for(self, game: GameProtocol) -> PolicyNet:
        """The network this agent plays in ``game`` (a ``Game``); a game it was not trained
        for is refused, naming what differs."""
        return self._net(game.name, dict(game.options))

    def _choose(
        self, net: PolicyNet, observations: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_]
    ) -> npt.NDArray[np.int64]:
        logits = np.where(masks, net.logits(observations), -np.inf)
        if not self.sample:
            greedy: npt.NDArray[np.int64] = np.argmax(logits, axis=1).astype(np.int64)
            return greedy
        weights = np.exp(logits - logits.max(axis=1, keepdims=True))
        cumulative = np.cumsum(weights / weights.sum(axis=1, keepdims=True), axis=1)
        drawn = (cumulative <= self._rng.random((len(logits), 1))).sum(axis=1)
        # A draw beyond the rounded total takes the last legal action.
        last = masks.shape[1] - 1 - np.argmax(masks[:, ::-1], axis=1)
        inside = np.minimum(drawn, masks.shape[1] - 1)
        chosen: npt.NDArray[np.int64] = np.where(masks[np.arange(len(masks)), inside], inside, last).astype(np.int64)
        return chosen

    def _net(self, game_name: str, options: dict[str, Any]) -> PolicyNet:
        key = f"{game_name} {sorted(options.items())}"
        net = self._nets.get(key)
        if net is None:
            game = make(game_name, **options)
            if isinstance(self._loaded, PolicyNet):
                net = self._loaded
            else:
                model = self._loaded
                shape, actions = tuple(model.observation_space.shape), int(model.action_space.n)
                net = replace(policy_net(model, game), observation_shape=shape, num_actions=actions)
            net.check_game(game_name, tuple(game.observation_shape), game.num_actions)
            self._nets[key] = net
        return net

    def __repr__(self) -> str:
        return f"PolicyAgent({Path(self.path).name!r}, sample={self.sample})"
