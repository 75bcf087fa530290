"""The optional adapters, checked by their ecosystems' own checkers on every game and player
count: PettingZoo's ``api_test`` and ``seed_test``, Gymnasium's ``check_env``, OpenSpiel's
``random_sim_test`` and its RL environment. Each test skips when its extra is not installed
(``pip install "regalia[pettingzoo,gymnasium,openspiel]"``; the ``test`` extra has them)."""

from __future__ import annotations

import subprocess
import sys
import warnings
from typing import Any

import numpy as np
import pytest

import regalia
from tests.conftest import SUITE_OPTIONS, config_ids, configs

CONFIGS = pytest.mark.parametrize("config", configs(), ids=config_ids())


def test_the_core_imports_no_extra() -> None:
    code = "import sys, regalia; print(sorted({'gymnasium', 'pettingzoo', 'pyspiel'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@CONFIGS
def test_pettingzoo_api_and_seed_tests_pass(config: tuple[str, int]) -> None:
    pz = pytest.importorskip("regalia.pettingzoo")
    from pettingzoo.test import api_test, seed_test

    name, players = config
    options = {"players": players, **SUITE_OPTIONS.get(name, {})}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's advice on Dict spaces with action masks
        api_test(pz.env(name, render_mode="ansi", **options), num_cycles=200)
        seed_test(lambda: pz.env(name, **options), num_cycles=50)


def test_pettingzoo_rewards_are_the_returns_and_render_shows_the_board() -> None:
    pz = pytest.importorskip("regalia.pettingzoo")
    env = pz.raw_env("duo-regna", render_mode="ansi")
    env.reset(seed=4)
    assert "Round" in env.render()
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        total[agent] += reward
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and (mask.any() != (terminated or truncated))
        env.step(None if terminated or truncated else int(np.flatnonzero(mask)[-1]))
    final = regalia.make("duo-regna").new_state(env.state.seed)
    for a in env.state.history():
        final.apply(a)
    assert list(total.values()) == final.returns() and abs(sum(total.values())) < 1e-9


@CONFIGS
def test_gymnasium_check_env_passes(config: tuple[str, int]) -> None:
    gym_adapter = pytest.importorskip("regalia.gymnasium")
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    name, players = config
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # advice only (render fps, spec)
        for seat in {0, players - 1}:
            check_env(gym_adapter.RegaliaEnv(name, seat=seat, players=players), skip_render_check=False)
        check_env(gymnasium.make(gym_adapter.env_id(name), players=players).unwrapped)


def test_gymnasium_episode_mask_and_illegal_actions() -> None:
    gym_adapter = pytest.importorskip("regalia.gymnasium")
    env = gym_adapter.RegaliaEnv("duo-regna", seat=1, opponents=["random"], render_mode="ansi")
    obs, info = env.reset(seed=2)
    assert env.observation_space.contains(obs) and "seat" not in info
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0]) if not info["action_mask"].all() else None
    done, reward = False, 0.0
    while not done:
        action = int(np.flatnonzero(info["action_mask"])[0])
        obs, reward, done, truncated, info = env.step(action)
        assert not truncated
    assert reward == env.state.returns()[1]
    with pytest.raises(gym_adapter.gym.error.ResetNeeded):
        env.step(0)
    env.reset(seed=2)
    before = env.state.to_json()
    bad = illegal if illegal is not None else env.game.num_actions
    _, reward, done, _, info = env.step(bad)
    assert (reward, done, info["illegal_action"]) == (gym_adapter.ILLEGAL_ACTION_REWARD, True, True)
    assert env.state.to_json() == before
    with pytest.raises(regalia.InvalidOptionError):
        gym_adapter.RegaliaEnv("duo-regna", opponents=["random", "random"])
    with pytest.raises(regalia.InvalidOptionError):
        gym_adapter.RegaliaEnv("duo-regna", opponents="nobody")


def test_gymnasium_searching_opponents_replay_from_the_reset_seed() -> None:
    gym_adapter = pytest.importorskip("regalia.gymnasium")

    def episode() -> list[int]:
        env = gym_adapter.RegaliaEnv("duo-regna", seat=0, opponents="ismcts:iterations=30")
        _, info = env.reset(seed=4)
        done = False
        while not done:
            _, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
        return list(env.state.history())

    assert episode() == episode()


@CONFIGS
def test_openspiel_random_simulations_pass(config: tuple[str, int]) -> None:
    os_adapter = pytest.importorskip("regalia.openspiel")
    import pyspiel

    name, players = config
    game = pyspiel.load_game(os_adapter.game_name(name), {"players": players, "seed": 5, **SUITE_OPTIONS.get(name, {})})
    assert game.num_players() == players and game.num_distinct_actions() == regalia.make(name).num_actions
    pyspiel.random_sim_test(game, num_sims=10, serialize=False, verbose=False)
    state = game.new_initial_state()
    seat = state.current_player()
    world = state.resample_from_infostate(seat, None)
    assert world.observation_string(seat) == state.observation_string(seat)
    assert world.observation_tensor(seat) == state.observation_tensor(seat)


def test_openspiel_rl_environment_and_bots_play_whole_games() -> None:
    os_adapter = pytest.importorskip("regalia.openspiel")
    import pyspiel
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import evaluate_bots, random_agent

    for info in regalia.games():
        game = pyspiel.load_game(os_adapter.game_name(info["name"]), SUITE_OPTIONS.get(info["name"], {}))
        env = rl_environment.Environment(game, observation_type=rl_environment.ObservationType.OBSERVATION)
        agents = [random_agent.RandomAgent(p, env.action_spec()["num_actions"]) for p in range(game.num_players())]
        step = env.reset()
        while not step.last():
            step = env.step([agents[step.observations["current_player"]].step(step).action])
        assert abs(sum(step.rewards)) < 1e-9
        bots = [pyspiel.make_uniform_random_bot(p, p) for p in range(game.num_players())]
        returns: Any = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
        assert abs(sum(returns)) < 1e-9


def test_openspiel_information_set_search_plays_on_the_observations() -> None:
    os_adapter = pytest.importorskip("regalia.openspiel")
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(os_adapter.game_name("duo-regna"), {"seed": 2})
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 10, random_state=np.random.RandomState(1), use_observation_string=True)
    state = game.new_initial_state()
    while not state.is_terminal():
        legal = state.legal_actions()
        action = bot.step(state) if state.current_player() == 0 else legal[0]
        assert action in legal
        state.apply_action(action)
    assert sum(state.returns()) == 0
