"""The per-call cost of the Python API on both backends, on a state a few steps into a game:
``legal_actions``, ``legal_action_mask``, ``apply`` (replaying a recorded game, per action),
``clone`` and ``observation_tensor`` (new array, and into the caller's array)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import regalia
from workloads import GAMES, make, mid_game_state, recorded_game, replay


def record(benchmark: Any, op: str, name: str, backend: str, calls: int = 1) -> None:
    benchmark.extra_info.update(key=f"{op}/{name}/{backend}", count=calls, unit="calls")


@pytest.mark.parametrize("backend", regalia.BACKENDS)
@pytest.mark.parametrize("name", GAMES)
def test_legal_actions(benchmark: Any, name: str, backend: str) -> None:
    state = mid_game_state(make(name, backend))
    record(benchmark, "legal_actions", name, backend)
    assert benchmark(state.legal_actions)


@pytest.mark.parametrize("backend", regalia.BACKENDS)
@pytest.mark.parametrize("name", GAMES)
def test_legal_action_mask(benchmark: Any, name: str, backend: str) -> None:
    state = mid_game_state(make(name, backend))
    record(benchmark, "legal_action_mask", name, backend)
    assert benchmark(state.legal_action_mask).any()


@pytest.mark.parametrize("backend", regalia.BACKENDS)
@pytest.mark.parametrize("name", GAMES)
def test_apply(benchmark: Any, name: str, backend: str) -> None:
    game = make(name, backend)
    actions = recorded_game(game, 3)
    record(benchmark, "apply", name, backend, len(actions))
    benchmark(replay, game, 3, actions)


@pytest.mark.parametrize("backend", regalia.BACKENDS)
@pytest.mark.parametrize("name", GAMES)
def test_clone(benchmark: Any, name: str, backend: str) -> None:
    state = mid_game_state(make(name, backend))
    record(benchmark, "clone", name, backend)
    assert benchmark(state.clone) == state


@pytest.mark.parametrize("backend", regalia.BACKENDS)
@pytest.mark.parametrize("name", GAMES)
def test_observation_tensor(benchmark: Any, name: str, backend: str) -> None:
    state = mid_game_state(make(name, backend))
    record(benchmark, "observation_tensor", name, backend)
    benchmark(state.observation_tensor, state.current_player)


@pytest.mark.parametrize("backend", regalia.BACKENDS)
@pytest.mark.parametrize("name", GAMES)
def test_observation_tensor_into_array(benchmark: Any, name: str, backend: str) -> None:
    game = make(name, backend)
    state = mid_game_state(game)
    out = np.zeros(game.observation_shape, dtype=np.float32)
    record(benchmark, "observation_tensor_out", name, backend)
    benchmark(state.observation_tensor, state.current_player, out)
