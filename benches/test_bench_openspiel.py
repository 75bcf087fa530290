"""OpenSpiel (``pip install -e ".[bench]"``) on the games closest to Regalia's, measured in
the same run: goofspiel (13 cards) next to Duo Regna, crazy_eights next to Duo; through its
Python API and through its C++ loop. Skipped when OpenSpiel is not installed."""

from __future__ import annotations

from typing import Any

import pytest

from workloads import GAMES, LOOP_GAMES, openspiel_cpp_loop, openspiel_pair, openspiel_python_loop

pyspiel = pytest.importorskip("pyspiel")

#: Games per round of the C++ loop, and games played to measure the mean decisions per game.
CPP_GAMES = 200
SAMPLE_GAMES = 300

PAIRS = [(name, spec) for name in GAMES if (spec := openspiel_pair(name)) is not None]


@pytest.mark.parametrize(("name", "spec"), PAIRS)
def test_openspiel_python_loop(benchmark: Any, name: str, spec: str) -> None:
    game = pyspiel.load_game(spec)
    seeds = range(LOOP_GAMES)
    steps = openspiel_python_loop(game, seeds)
    benchmark.extra_info.update(key=f"loop/{name}/openspiel", count=steps, unit="steps", game=spec)
    assert benchmark(openspiel_python_loop, game, seeds) == steps


@pytest.mark.parametrize(("name", "spec"), PAIRS)
def test_openspiel_cpp_loop(benchmark: Any, name: str, spec: str) -> None:
    game = pyspiel.load_game(spec)
    per_game = openspiel_python_loop(game, range(10_000, 10_000 + SAMPLE_GAMES)) / SAMPLE_GAMES
    steps = round(per_game * CPP_GAMES)
    benchmark.extra_info.update(key=f"native/{name}/openspiel", count=steps, unit="steps (estimated)", game=spec)
    assert benchmark(openspiel_cpp_loop, pyspiel, game, range(CPP_GAMES)) == CPP_GAMES
