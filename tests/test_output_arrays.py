"""Filling caller-owned arrays: ``legal_action_mask(out=)`` and ``observation_tensor(out=)``
on both backends write the same values as the fresh arrays, and refuse unfit arrays."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import regalia


def some_states(name: str, players: int, backend: str) -> list[Any]:
    game = regalia.make(name, backend=backend, players=players)  # type: ignore[arg-type]
    state = game.new_state(4)
    states = [state.clone()]
    for i in range(30):
        if state.is_terminal:
            break
        legal = state.legal_actions()
        state.apply(legal[i % len(legal)])
        states.append(state.clone())
    return states


def test_arrays_are_filled_in_place(config: tuple[str, int], backend: str) -> None:
    name, players = config
    states = some_states(name, players, backend)
    mask = np.ones(states[0].num_actions, dtype=np.bool_)
    game = regalia.make(name, backend=backend, players=players)  # type: ignore[arg-type]
    tensor = np.full(game.observation_shape, 7.0, dtype=np.float32)
    for s in states:
        assert s.legal_action_mask(out=mask) is mask
        np.testing.assert_array_equal(mask, s.legal_action_mask())
        for seat in range(players):
            assert s.observation_tensor(seat, out=tensor) is tensor
            np.testing.assert_array_equal(tensor, s.observation_tensor(seat))


@pytest.mark.parametrize(
    "bad",
    [
        np.zeros(3, dtype=np.bool_),
        np.zeros(9, dtype=np.int64),
        np.zeros(18, dtype=np.bool_)[::2],
        np.zeros((9, 1), dtype=np.bool_),
        [False] * 9,
    ],
)
def test_unfit_mask_arrays_are_refused(backend: str, bad: Any) -> None:
    state = regalia.make("duo-regna", backend=backend).new_state(1)  # type: ignore[arg-type]
    with pytest.raises(regalia.InvalidArgumentError):
        state.legal_action_mask(out=bad)


def test_a_read_only_mask_array_is_refused(backend: str) -> None:
    state = regalia.make("duo-regna", backend=backend).new_state(1)  # type: ignore[arg-type]
    out = np.zeros(9, dtype=np.bool_)
    out.flags.writeable = False
    with pytest.raises(regalia.InvalidArgumentError):
        state.legal_action_mask(out=out)
