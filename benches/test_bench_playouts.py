"""Random playouts: through the Python API on both backends (the same games from the same
seeds), and natively (the engine's own loop, GIL released) next to the reference's loop.

Run: ``pytest benches --benchmark-only``; ``python benches/report.py`` prints the ratios."""

from __future__ import annotations

from typing import Any

import pytest

import regalia
from workloads import (
    GAMES,
    LOOP_GAMES,
    NATIVE_GAMES,
    REFERENCE_NATIVE_GAMES,
    make,
    python_loop,
    python_loop_floor,
    run_floor,
)


@pytest.mark.parametrize("backend", regalia.BACKENDS)
@pytest.mark.parametrize("name", GAMES)
def test_python_loop_random_playouts(benchmark: Any, name: str, backend: str) -> None:
    game = make(name, backend)
    seeds = range(LOOP_GAMES)
    steps = python_loop(make(name), seeds)
    benchmark.extra_info.update(key=f"loop/{name}/{backend}", count=steps, unit="steps")
    assert benchmark(python_loop, game, seeds) == steps


@pytest.mark.parametrize("name", GAMES)
def test_python_loop_floor(benchmark: Any, name: str) -> None:
    """The same loop over a state that does nothing: the best any binding could do."""
    plan, steps = python_loop_floor(make(name), range(LOOP_GAMES))
    benchmark.extra_info.update(key=f"loop/{name}/floor", count=steps, unit="steps")
    assert benchmark(run_floor, plan) == steps


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("name", GAMES)
def test_native_random_playouts(benchmark: Any, name: str, threads: int) -> None:
    game = make(name)
    steps = game.random_playouts(NATIVE_GAMES, 1)["steps"]
    benchmark.extra_info.update(key=f"native/{name}/rust-{threads}t", count=steps, unit="steps")
    result = benchmark(game.random_playouts, NATIVE_GAMES, 1, threads)
    assert result["games"] == NATIVE_GAMES and result["steps"] == steps


@pytest.mark.parametrize("name", GAMES)
def test_reference_native_random_playouts(benchmark: Any, name: str) -> None:
    game = make(name, "reference")
    steps = make(name).random_playouts(REFERENCE_NATIVE_GAMES, 1)["steps"]
    benchmark.extra_info.update(key=f"native/{name}/reference", count=steps, unit="steps")
    result = benchmark(game.random_playouts, REFERENCE_NATIVE_GAMES, 1)
    assert result["steps"] == steps
