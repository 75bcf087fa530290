"""ISMCTS iterations per second: Regalia's Rust search on every game, and OpenSpiel's ISMCTS
(``pip install -e ".[bench]"``) on Duo Regna, from a mid-game position. Each round runs a
fixed number of iterations (``extra_info.count``); divide to get iterations per second.
The OpenSpiel row is skipped when OpenSpiel is not installed."""

from __future__ import annotations

import importlib.util
from typing import Any

import pytest

from workloads import GAMES, make, mid_game_state

#: Iterations per measured search.
ITERATIONS = 2000


@pytest.mark.parametrize("rollout", ["heuristic", "random"])
@pytest.mark.parametrize("name", GAMES)
def test_regalia_ismcts(benchmark: Any, name: str, rollout: str) -> None:
    """Both rollout kinds: the game's heuristic (the default; in Regine it also stops at the
    round's end) and uniformly random moves to the end."""
    state = mid_game_state(make(name), seed=1, steps=4)
    key = f"ismcts/{name}/rust" + ("" if rollout == "heuristic" else "/random-rollouts")
    benchmark.extra_info.update(key=key, count=ITERATIONS, unit="iterations")
    found = benchmark(state.ismcts_search, iterations=ITERATIONS, seed=1, rollout=rollout)
    assert found["iterations"] == ITERATIONS


#: Iterations per measured OpenSpiel search (it is much slower).
OPENSPIEL_ITERATIONS = 100


@pytest.mark.skipif(importlib.util.find_spec("pyspiel") is None, reason="OpenSpiel is not installed")
def test_openspiel_ismcts_duo_regna(benchmark: Any) -> None:
    """OpenSpiel's ISMCTS on Duo Regna itself (through ``regalia.envs.openspiel``). Its goofspiel
    cannot be searched: it has no ``resample_from_infostate``; and its C++ ISMCTS crashes on
    Python-defined games, so this is its Python ISMCTS."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    import regalia.envs.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game("regalia_duo_regna")
    state = game.new_initial_state()
    for a in (3, 5, 2, 7):
        state.apply_action(a)

    def search() -> int:
        rollouts = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
        bot = ismcts.ISMCTSBot(
            game,
            rollouts,
            1.0,
            OPENSPIEL_ITERATIONS,
            random_state=np.random.RandomState(1),
            use_observation_string=True,
        )
        return int(bot.step(state))

    benchmark.extra_info.update(key="ismcts/duo-regna/openspiel", count=OPENSPIEL_ITERATIONS, unit="iterations")
    assert benchmark(search) in state.legal_actions()
