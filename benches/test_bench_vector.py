"""VectorEnv steps per second at several batch sizes, on one thread and on two (a random
legal action per game drawn by ``sample_actions`` is part of each step); the env writes
its own arrays (``copy=False``), and once, at the largest size, new arrays every step."""

from __future__ import annotations

from typing import Any

import pytest

from workloads import GAMES, VECTOR_SIZES, VECTOR_STEPS, VECTOR_THREADS, VectorWorkload


@pytest.mark.parametrize("threads", VECTOR_THREADS)
@pytest.mark.parametrize("num_envs", VECTOR_SIZES)
@pytest.mark.parametrize("name", GAMES)
def test_vector_env_steps(benchmark: Any, name: str, num_envs: int, threads: int) -> None:
    work = VectorWorkload(name, num_envs, threads)
    benchmark.extra_info.update(key=f"vector/{name}/{num_envs}/{threads}t", count=VECTOR_STEPS * num_envs, unit="steps")
    assert benchmark(work.run, VECTOR_STEPS) == VECTOR_STEPS * num_envs


@pytest.mark.parametrize("name", GAMES)
def test_vector_env_steps_new_arrays(benchmark: Any, name: str) -> None:
    num_envs = max(VECTOR_SIZES)
    work = VectorWorkload(name, num_envs, 1, copy=True)
    benchmark.extra_info.update(key=f"vector/{name}/{num_envs}/1t-copy", count=VECTOR_STEPS * num_envs, unit="steps")
    assert benchmark(work.run, VECTOR_STEPS) == VECTOR_STEPS * num_envs
