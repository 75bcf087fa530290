"""Trained policies as small, versioned, checksummed numpy files (``.npz``): a multilayer
perceptron from a seat's observation tensor to one logit per action, played with numpy
alone (no torch). ``regalia.envs.sb3.export_policy`` writes one from a trained MaskablePPO model;
the ``policy`` agent (``regalia.agents.policy``) plays it.

The file holds ``weight_K`` and ``bias_K`` (float32) for each layer ``K`` and ``meta``, the
UTF-8 JSON of: ``format`` (``"regalia-policy"``), ``version``, ``game``, ``options``,
``observation_shape``, ``num_actions``, ``activation`` (between layers), ``layers`` and
``sha256``, the digest of every array's shape and bytes in layer order.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from regalia.core.errors import InvalidArgumentError
from regalia.core.protocols import GameProtocol

__all__ = ["FORMAT", "VERSION", "PolicyNet", "actor_modules", "load_policy", "policy_net", "save_policy"]

FORMAT = "regalia-policy"
#: The version this Regalia writes and reads.
VERSION = 1
ACTIVATIONS = ("tanh", "relu")

F32 = npt.NDArray[np.float32]


def _digest(layers: list[tuple[F32, F32]]) -> str:
    h = hashlib.sha256()
    for weight, bias in layers:
        for array in (weight, bias):
            h.update(repr(array.shape).encode())
            h.update(np.ascontiguousarray(array, dtype="<f4").tobytes())
    return h.hexdigest()


@dataclass(frozen=True)
class PolicyNet:
    """A trained policy: layers ``(weight[out, in], bias[out])``, the activation between
    them, and the game it was trained for."""

    game: str
    options: dict[str, Any]
    observation_shape: tuple[int, ...]
    num_actions: int
    activation: str
    layers: list[tuple[F32, F32]]

    def logits(self, observations: F32) -> F32:
        """One row of action logits per row of flattened observations."""
        x = observations.reshape(len(observations), -1).astype(np.float32)
        for k, (weight, bias) in enumerate(self.layers):
            x = x @ weight.T + bias
            if k < len(self.layers) - 1:
                x = np.tanh(x) if self.activation == "tanh" else np.maximum(x, 0)
        return x

    def check_game(self, game: str, observation_shape: tuple[int, ...], num_actions: int) -> None:
        """Refuses a game this policy was not trained for, naming what differs."""
        if game != self.game:
            raise InvalidArgumentError(f"this policy was trained for {self.game}, not {game}")
        if tuple(observation_shape) != self.observation_shape or num_actions != self.num_actions:
            raise InvalidArgumentError(
                f"this policy takes observations of shape {self.observation_shape} and {self.num_actions} actions; "
                f"{game} with these options has {tuple(observation_shape)} and {num_actions}"
            )


def save_policy(path: str | Path, net: PolicyNet) -> None:
    """Writes ``net`` to ``path`` (an ``.npz`` file)."""
    meta = {
        "format": FORMAT,
        "version": VERSION,
        "game": net.game,
        "options": net.options,
        "observation_shape": list(net.observation_shape),
        "num_actions": net.num_actions,
        "activation": net.activation,
        "layers": len(net.layers),
        "sha256": _digest(net.layers),
    }
    arrays: dict[str, Any] = {"meta": np.frombuffer(json.dumps(meta, sort_keys=True).encode(), dtype=np.uint8)}
    for k, (weight, bias) in enumerate(net.layers):
        arrays[f"weight_{k}"] = weight.astype(np.float32)
        arrays[f"bias_{k}"] = bias.astype(np.float32)
    with open(path, "wb") as f:
        np.savez_compressed(f, **arrays)


def load_policy(path: str | Path) -> PolicyNet:
    """The policy saved at ``path``; a missing, damaged or foreign file, or another version,
    raises ``InvalidArgumentError`` saying which."""
    where = str(path)
    try:
        with np.load(where, allow_pickle=False) as data:
            arrays = {key: data[key] for key in data.files}
    except FileNotFoundError:
        raise InvalidArgumentError(f"no policy file at {where}") from None
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as e:
        raise InvalidArgumentError(f"{where} is not a policy file (damaged, or another format): {e}") from None
    try:
        meta = json.loads(bytes(arrays["meta"]).decode())
        if meta.get("format") != FORMAT:
            raise InvalidArgumentError(f"{where} is not a {FORMAT} file")
        if meta.get("version") != VERSION:
            raise InvalidArgumentError(
                f"{where} is a policy file of version {meta.get('version')}; this Regalia reads version {VERSION}"
            )
        layers = [(arrays[f"weight_{k}"], arrays[f"bias_{k}"]) for k in range(int(meta["layers"]))]
        net = PolicyNet(
            game=str(meta["game"]),
            options=dict(meta["options"]),
            observation_shape=tuple(int(x) for x in meta["observation_shape"]),
            num_actions=int(meta["num_actions"]),
            activation=str(meta["activation"]),
            layers=layers,
        )
    except InvalidArgumentError:
        raise
    except (KeyError, ValueError, TypeError, UnicodeDecodeError, AttributeError) as e:
        raise InvalidArgumentError(f"{where} is a damaged policy file: {type(e).__name__}: {e}") from None
    if _digest(layers) != meta.get("sha256"):
        raise InvalidArgumentError(f"{where} is a damaged policy file: its weights do not match their checksum")
    _check_shapes(where, net)
    return net


def _check_shapes(where: str, net: PolicyNet) -> None:
    if net.activation not in ACTIVATIONS:
        raise InvalidArgumentError(f"{where}: unknown activation {net.activation!r}; known: {', '.join(ACTIVATIONS)}")
    width = int(np.prod(net.observation_shape))
    for k, (weight, bias) in enumerate(net.layers):
        if weight.ndim != 2 or weight.shape[1] != width or bias.shape != (weight.shape[0],):
            shapes = f"{weight.shape} and {bias.shape}"
            raise InvalidArgumentError(f"{where}: layer {k} has shapes {shapes}, expected {width} inputs")
        width = weight.shape[0]
    if not net.layers or width != net.num_actions:
        raise InvalidArgumentError(f"{where}: the last layer gives {width} outputs, not {net.num_actions} actions")


def actor_modules(model: Any) -> tuple[list[Any], list[Any]]:
    """The actor's linear layers of an ``MlpPolicy`` model, and the modules between them."""
    policy = model.policy
    modules = [*policy.mlp_extractor.policy_net, policy.action_net]
    return modules[::2], modules[1::2]


def policy_net(model: Any, game: GameProtocol) -> PolicyNet:
    """The actor of a trained MaskablePPO (or PPO) ``MlpPolicy`` model of ``game`` (a
    ``Game``) as a numpy ``PolicyNet``; other architectures raise ``InvalidArgumentError``."""
    import torch

    linear, between = actor_modules(model)
    modules = [*linear, *between]
    activations = {type(m).__name__.lower() for m in between}
    alternating = all(isinstance(m, torch.nn.Linear) for m in linear) and len(modules) % 2 == 1
    if not alternating or len(activations) > 1 or not activations <= {"tanh", "relu"}:
        raise InvalidArgumentError("only MlpPolicy actors (Linear layers with tanh or relu between) can be exported")
    layers = [
        (m.weight.detach().cpu().numpy().astype(np.float32), m.bias.detach().cpu().numpy().astype(np.float32))
        for m in linear
    ]
    return PolicyNet(
        game=game.name,
        options=dict(game.options),
        observation_shape=tuple(game.observation_shape),
        num_actions=game.num_actions,
        activation=activations.pop() if activations else "tanh",
        layers=layers,
    )
