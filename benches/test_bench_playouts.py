"""Random playouts on both backends, through the Python API and natively.

Run: ``pytest benches --benchmark-only`` (compare the `rust` and `reference` rows)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import regalia

GAMES = [g["name"] for g in regalia.games()]


def python_loop_playout(game: Any, seed: int) -> int:
    rnd = random.Random(seed)
    state = game.new_state(seed)
    steps = 0
    while not state.is_terminal:
        state.apply(rnd.choice(state.legal_actions()))
        steps += 1
    return steps


@pytest.mark.parametrize("backend", regalia.BACKENDS)
@pytest.mark.parametrize("name", GAMES)
def test_python_loop_random_playout(benchmark: Any, name: str, backend: str) -> None:
    game = regalia.make(name, backend=backend)  # type: ignore[arg-type]
    seeds = iter(range(10**9))
    benchmark(lambda: python_loop_playout(game, next(seeds)))


@pytest.mark.parametrize("name", GAMES)
def test_native_random_playouts_100(benchmark: Any, name: str) -> None:
    game = regalia.make(name)
    result = benchmark(game.random_playouts, 100, 1)
    assert result["games"] == 100
