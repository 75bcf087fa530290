"""The optional adapters, checked by their ecosystems' own checkers on every game and player
count: PettingZoo's ``api_test`` and ``seed_test``, Gymnasium's ``check_env``, OpenSpiel's
``random_sim_test`` and its RL environment. Each test skips when its extra is not installed
(``pip install "regalia[pettingzoo,gymnasium,openspiel]"``; the ``test`` extra has them)."""

from __future__ import annotations

import importlib
import subprocess
import sys
import warnings
from typing import Any

import numpy as np
import pytest

import regalia
from tests.conftest import EXPLICIT_CHANCE_OPTIONS, SUITE_OPTIONS, config_ids, configs

CONFIGS = pytest.mark.parametrize("config", configs(), ids=config_ids())


def test_the_core_imports_no_extra() -> None:
    code = "import sys, regalia; print(sorted({'gymnasium', 'pettingzoo', 'pyspiel'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@CONFIGS
def test_pettingzoo_tests_pass_unwrapped(config: tuple[str, int]) -> None:
    pz = pytest.importorskip("regalia.envs.pettingzoo")
    # (bombardment_test reads observations as arrays: it takes no dict with an action mask.)
    from pettingzoo.test import api_test, seed_test

    state_test = importlib.import_module("pettingzoo.test.state_test")  # (the package hides it)
    name, players = config
    options = {"players": players, **SUITE_OPTIONS.get(name, {})}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's advice on Dict spaces with action masks
        api_test(pz.raw_env(name, render_mode="ansi", **options), num_cycles=200)
        seed_test(lambda: pz.raw_env(name, **options), num_cycles=50)
        # test_state plays unmasked random actions: the illegal ones end the game.
        state_test.test_state(pz.raw_env(name, **options), num_cycles=30)
        api_test(pz.env(name, **options), num_cycles=50)  # and in the order-enforcing wrapper


def _play_legally(env: Any, steps: int) -> None:
    """``steps`` random legal moves (fewer if the game ends)."""
    rng = np.random.default_rng(5)
    for _ in range(steps):
        if env.game_state.is_terminal:
            return
        env.step(int(rng.choice(env.game_state.legal_actions())))


@CONFIGS
def test_pettingzoo_an_illegal_move_ends_the_game_with_the_mover_losing(config: tuple[str, int]) -> None:
    pz = pytest.importorskip("regalia.envs.pettingzoo")
    name, players = config
    env = pz.raw_env(name, players=players)
    env.reset(seed=2)
    _play_legally(env, 3)
    mover = env.agent_selection
    illegal = int(np.flatnonzero(env.game_state.legal_action_mask() == 0)[0])
    before = env.game_state.to_json()
    env.step(illegal)
    assert env.game_state.to_json() == before
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.rewards == {a: -1.0 if a == mover else 0.0 for a in env.possible_agents}
    for info in env.infos.values():
        assert info["illegal_action"] is True and info["illegal_agent"] == mover
        assert f"action {illegal}" in info["illegal_reason"]
    seen = {}
    for agent in env.agent_iter():
        _, reward, terminated, _, _ = env.last()
        assert terminated
        seen[agent] = reward
        env.step(None)
    assert seen == {a: -1.0 if a == mover else 0.0 for a in env.possible_agents} and env.agents == []


def test_pettingzoo_illegal_moves_can_raise_and_other_bad_actions_always_do() -> None:
    pz = pytest.importorskip("regalia.envs.pettingzoo")
    strict = pz.raw_env("regnum", illegal="raise")
    strict.reset(seed=1)
    illegal = int(np.flatnonzero(strict.game_state.legal_action_mask() == 0)[0])
    before = strict.game_state.to_json()
    with pytest.raises(regalia.IllegalActionError):
        strict.step(illegal)
    assert strict.game_state.to_json() == before and not any(strict.terminations.values())
    strict.step(int(strict.game_state.legal_actions()[0]))  # the game goes on
    lenient = pz.raw_env("regnum", illegal_reward=-5)
    lenient.reset(seed=1)
    for bad in (None, "7", 1.0, True):
        with pytest.raises(regalia.IllegalActionError):
            lenient.step(bad)
        assert not any(lenient.terminations.values())
    lenient.step(illegal)
    assert lenient.rewards[lenient.possible_agents[0]] == -5.0
    for options in ({"illegal": "ignore"}, {"illegal_reward": float("nan")}, {"illegal_reward": "-1"}):
        with pytest.raises(regalia.InvalidOptionError):
            pz.raw_env("regnum", **options)


def test_pettingzoo_parallel_an_illegal_move_ends_the_round_unplayed() -> None:
    pz = pytest.importorskip("regalia.envs.pettingzoo")
    env = pz.parallel_env("duo-regna")
    observations, _ = env.reset(seed=3)
    first = {a: int(np.flatnonzero(observations[a]["action_mask"])[0]) for a in env.agents}
    observations, *_ = env.step(first)  # a card played is no longer in the hand
    legal = {a: int(np.flatnonzero(observations[a]["action_mask"])[0]) for a in env.agents}
    illegal = int(np.flatnonzero(observations["player_1"]["action_mask"] == 0)[0])
    before = env.game_state.to_json()
    _, rewards, terminations, truncations, infos = env.step({**legal, "player_1": illegal})
    assert env.game_state.to_json() == before and env.agents == []
    assert rewards == {"player_0": 0.0, "player_1": -1.0}
    assert all(terminations.values()) and not any(truncations.values())
    assert all(i["illegal_agent"] == "player_1" and i["illegal_action"] is True for i in infos.values())
    strict = pz.parallel_env("duo-regna", illegal="raise")
    strict.reset(seed=3)
    strict.step(first)
    with pytest.raises(regalia.IllegalActionError):
        strict.step({**legal, "player_1": illegal})
    assert strict.game_state.to_json() == before and strict.agents == ["player_0", "player_1"]


def test_pettingzoo_rewards_are_the_returns_and_render_shows_the_board() -> None:
    pz = pytest.importorskip("regalia.envs.pettingzoo")
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
    final = regalia.make("duo-regna").new_state(env.game_state.seed)
    for a in env.game_state.history():
        final.apply(a)
    assert list(total.values()) == final.returns() and abs(sum(total.values())) < 1e-9


@CONFIGS
def test_pettingzoo_state_is_every_seats_observation(config: tuple[str, int]) -> None:
    pz = pytest.importorskip("regalia.envs.pettingzoo")
    state_test = importlib.import_module("pettingzoo.test.state_test")  # (the package hides it)

    name, players = config
    env = pz.raw_env(name, players=players)
    env.reset(seed=3)
    state = env.state()
    assert env.state_space.contains(state)
    size = state.size // players
    for seat in range(players):
        assert np.array_equal(state[seat * size : (seat + 1) * size], env.game_state.observation_tensor(seat).ravel())
    state_test.test_state_space(env)  # (its test_state plays unmasked random actions)


def test_pettingzoo_parallel_duo_regna_passes_the_parallel_api_test() -> None:
    pz = pytest.importorskip("regalia.envs.pettingzoo")
    from pettingzoo.test import parallel_api_test, parallel_seed_test

    state_test = importlib.import_module("pettingzoo.test.state_test")  # (the package hides it)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # advice on Dict spaces with action masks
        parallel_api_test(pz.parallel_env("duo-regna", max_rounds=40), num_cycles=200)
        parallel_seed_test(lambda: pz.parallel_env("duo-regna"), num_cycles=50)
    state_test.test_parallel_env(pz.parallel_env("duo-regna"))
    with pytest.raises(regalia.InvalidOptionError):
        pz.parallel_env("regine")


def test_pettingzoo_parallel_rounds_replay_as_the_game_in_turns() -> None:
    pz = pytest.importorskip("regalia.envs.pettingzoo")
    env = pz.parallel_env("duo-regna")
    observations, _ = env.reset(seed=6)
    rng = np.random.default_rng(0)
    game = regalia.make("duo-regna")
    turns = game.new_state(env.game_state.seed)
    rewards: dict[str, float] = {}
    while env.agents:
        actions = {a: int(rng.choice(np.flatnonzero(observations[a]["action_mask"]))) for a in env.agents}
        for seat, agent in enumerate(env.possible_agents):  # the views are those of the game in turns
            assert turns.current_player == seat
            assert np.array_equal(observations[agent]["observation"], turns.observation_tensor(seat))
            assert np.array_equal(observations[agent]["action_mask"], turns.legal_action_mask())
            turns.apply(actions[agent])
        before = env.game_state.to_json()
        with pytest.raises(regalia.IllegalActionError):
            env.step({"player_0": actions["player_0"]})
        assert env.game_state.to_json() == before
        observations, rewards, terminations, truncations, _ = env.step(actions)
        assert all(terminations.values()) == bool(turns.is_terminal) and not any(truncations.values())
    assert env.game_state == turns and list(rewards.values()) == turns.returns()


@CONFIGS
def test_gymnasium_check_env_passes(config: tuple[str, int]) -> None:
    gym_adapter = pytest.importorskip("regalia.envs.gymnasium")
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    name, players = config
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # advice only (render fps, spec)
        for seat in {0, players - 1}:
            check_env(gym_adapter.RegaliaEnv(name, seat=seat, players=players), skip_render_check=False)
        check_env(gymnasium.make(gym_adapter.env_id(name), players=players).unwrapped)


@CONFIGS
def test_gymnasium_action_masks_are_the_legal_actions(config: tuple[str, int]) -> None:
    gym_adapter = pytest.importorskip("regalia.envs.gymnasium")
    name, players = config
    env = gym_adapter.RegaliaEnv(name, seat=players - 1, players=players)
    assert not env.action_masks().any()  # before the first reset
    _, info = env.reset(seed=8)
    rng = np.random.default_rng(8)
    done = False
    while not done:
        masks = env.action_masks()
        assert masks.dtype == np.bool_ and np.array_equal(masks, env.state.legal_action_mask())
        assert np.array_equal(masks, info["action_mask"].astype(bool))
        _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(masks))))
    assert not env.action_masks().any()


def test_gymnasium_ids_work_in_a_fresh_process_without_an_import() -> None:
    pytest.importorskip("regalia.envs.gymnasium")
    code = (
        "import gymnasium; env = gymnasium.make('regalia.envs.gymnasium:regalia/duo-regna-v0', opponents='random');"
        "obs, info = env.reset(seed=1); print(env.unwrapped.action_masks().sum() == info['action_mask'].sum())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "True"


def test_gymnasium_episode_mask_and_illegal_actions() -> None:
    gym_adapter = pytest.importorskip("regalia.envs.gymnasium")
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
    gym_adapter = pytest.importorskip("regalia.envs.gymnasium")

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
    os_adapter = pytest.importorskip("regalia.envs.openspiel")
    import pyspiel

    name, players = config
    params = {"players": players, "rng_seed": 5, **SUITE_OPTIONS.get(name, {})}
    game = pyspiel.load_game(os_adapter.game_name(name), params)
    assert game.num_players() == players and game.num_distinct_actions() == regalia.make(name).num_actions
    pyspiel.random_sim_test(game, num_sims=10, serialize=False, verbose=False)
    state = game.new_initial_state()
    while not state.is_terminal() and len(state.history()) < 7:
        state.apply_action(state.legal_actions()[-1])
    seat = state.current_player()
    if seat < 0:
        return
    world = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.observation_string(seat) == state.observation_string(seat)
    assert world.observation_tensor(seat) == state.observation_tensor(seat)
    assert world.information_state_string(seat) == state.information_state_string(seat)
    assert world.information_state_tensor(seat) == state.information_state_tensor(seat)
    assert len(state.information_state_tensor(seat)) == game.information_state_tensor_size()


def test_openspiel_resampling_follows_the_sampler_it_is_given() -> None:
    os_adapter = pytest.importorskip("regalia.envs.openspiel")
    import pyspiel

    game = pyspiel.load_game(os_adapter.game_name("duo-regna"), {"rng_seed": 3})
    state = game.new_initial_state()
    state.apply_action(4)  # seat 1 cannot see this card, so resampling redraws it

    def worlds(seed: int) -> list[str]:
        sampler = np.random.RandomState(seed).random_sample
        return [str(state.resample_from_infostate(1, sampler)) for _ in range(8)]

    assert worlds(1) == worlds(1)
    assert worlds(1) != worlds(2)


def test_openspiel_games_and_states_pickle_and_serialize() -> None:
    import pickle

    os_adapter = pytest.importorskip("regalia.envs.openspiel")
    import pyspiel

    game = pyspiel.load_game(os_adapter.game_name("duo-regna"), {"rng_seed": 3, "dragon_deck": "[2; 1]"})
    assert game.regalia.options["dragon_deck"] == [2, 1]
    state = game.new_initial_state()
    for action in (4, 2, 0):
        state.apply_action(action)
    for copy in (pickle.loads(pickle.dumps(state)), game.deserialize_state(state.serialize())):
        assert copy.history() == state.history() and str(copy) == str(state)
        assert copy.information_state_string(0) == state.information_state_string(0)
        assert copy.get_game().regalia.options == game.regalia.options
    for again in (pickle.loads(pickle.dumps(game)), pyspiel.load_game(str(game))):
        assert str(again) == str(game) and again.regalia.options == game.regalia.options
    # OpenSpiel saves a sampled-stochastic game's generator with Game::GetRNGState, which its
    # Python-game bindings give no way to provide (docs/adapters.md): these two refuse.
    with pytest.raises(pyspiel.SpielError, match="GetRNGState"):
        pyspiel.serialize_game_and_state(game, state)
    with pytest.raises(pyspiel.SpielError, match="GetRNGState"):
        pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    with pytest.raises(regalia.InvalidOptionError):
        pyspiel.load_game(os_adapter.game_name("duo-regna"), {"dragon_deck": "[2,"})


def test_openspiel_sampled_stochastic_games_test_passes() -> None:
    """OpenSpiel's own test of sampled-stochastic games, run on ours: the seed parameter is
    ``rng_seed`` and an unpickled game goes on with the seeds where the game was."""
    import unittest

    os_adapter = pytest.importorskip("regalia.envs.openspiel")
    # Imported after the games are registered: it lists the registered games when imported.
    from open_spiel.python.tests import sampled_stochastic_games_test as spiel_test

    suite = unittest.defaultTestLoader.loadTestsFromTestCase(spiel_test.SampledStochasticGamesTest)
    ours = unittest.TestSuite(t for t in suite if "'regalia_" in str(t))
    names = " ".join(str(t) for t in ours)
    result = unittest.TestResult()
    ours.run(result)
    assert result.testsRun == len(regalia.games()) and result.wasSuccessful(), result.failures + result.errors
    assert os_adapter.game_name("duo") in names


def test_openspiel_games_pickle_with_their_seed_sequence_where_it_was() -> None:
    import pickle

    os_adapter = pytest.importorskip("regalia.envs.openspiel")
    import pyspiel

    game = pyspiel.load_game(os_adapter.game_name("duo"), {"rng_seed": 9})
    first = str(game.new_initial_state())
    copy = pickle.loads(pickle.dumps(game))
    state = game.new_initial_state()
    assert str(copy.new_initial_state()) == str(state) != first
    # A pickled state carries its game, whose sequence goes on from there too.
    again = pickle.loads(pickle.dumps(state)).get_game()
    assert str(again.new_initial_state()) == str(game.new_initial_state())
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'seed'"):
        pyspiel.load_game(os_adapter.game_name("duo"), {"seed": 9})


def test_openspiel_explicit_chance_is_explicit_stochastic() -> None:
    """``chance="explicit"`` maps to OpenSpiel's explicit chance nodes: its game checks pass
    (serialization included, which needs no generator then), and CFR+ and exploitability walk
    the dragon cards."""
    import pickle

    os_adapter = pytest.importorskip("regalia.envs.openspiel")
    import pyspiel
    from open_spiel.python.algorithms import cfr, exploitability, get_all_states

    small = {"dragon_deck": "[1; 1]", "dragons_to_win": 2, "max_rounds": 2}
    name = os_adapter.game_name("duo-regna")
    game = pyspiel.load_game(name, {"chance": "explicit", **small})
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert pyspiel.load_game(name).get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert game.max_chance_outcomes() == game.num_distinct_actions()
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)
    duell = pyspiel.load_game(os_adapter.game_name("duell-der-drachen"), {"chance": "explicit", "values": 3})
    assert duell.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    pyspiel.random_sim_test(duell, num_sims=5, serialize=True, verbose=False)
    regnum = pyspiel.load_game(os_adapter.game_name("regnum"), {"chance": "explicit", "max_turns": 4, "players": 3})
    assert regnum.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    pyspiel.random_sim_test(regnum, num_sims=3, serialize=True, verbose=False)
    first = regnum.new_initial_state()
    assert first.is_chance_node() and first.chance_outcomes() == [(c, 1 / 6) for c in range(6)]
    regine = pyspiel.load_game(os_adapter.game_name("regine"), {"chance": "explicit", "players": 2, "target": 6})
    assert regine.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    pyspiel.random_sim_test(regine, num_sims=2, serialize=True, verbose=False)
    state = game.new_initial_state()
    assert state.is_chance_node() and state.current_player() == pyspiel.PlayerId.CHANCE
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    solver = cfr.CFRPlusSolver(game)
    values = []
    for _ in range(8):
        solver.evaluate_and_update_policy()
        values.append(exploitability.exploitability(game, solver.average_policy()))
    assert values[-1] < values[0]
    states = get_all_states.get_all_states(game, include_terminals=False, include_chance_states=True)
    drawn = [s for s in states.values() if s.is_chance_node()]
    # Two rounds capture at most one dragon, which ends the game: one chance node, the first.
    assert [s.chance_outcomes() for s in drawn] == [[(0, 0.5), (1, 0.5)]]


#: Per game, options short enough for external sampling, which walks every action of the
#: updating seat (None: no option makes a hand short enough; see docs/adapters.md).
SHORT_OPTIONS: dict[str, dict[str, Any] | None] = {
    "duo-regna": {"max_rounds": 2},
    "duo": None,
    "duell-der-drachen": {"values": 2, "hand_size": 1},
    "regine": None,
    "regnum": {"max_turns": 1},
}


#: Per game, options for outcome sampling, which recurses once per move: Duo's whole game
#: (rounds to the target) is deeper than Python's recursion limit, so it plays one round.
OUTCOME_OPTIONS: dict[str, dict[str, Any]] = {"duo": {"rounds": 1}}


@pytest.mark.parametrize("name", [g["name"] for g in regalia.games()])
def test_openspiel_monte_carlo_cfr_runs_on_the_information_states(name: str) -> None:
    os_adapter = pytest.importorskip("regalia.envs.openspiel")
    import pyspiel
    from open_spiel.python.algorithms import external_sampling_mccfr, outcome_sampling_mccfr

    game = pyspiel.load_game(os_adapter.game_name(name), {"rng_seed": 1, **OUTCOME_OPTIONS.get(name, {})})
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(3):
        solver.iteration()
    check_average_policy(game, solver.average_policy())
    options = SHORT_OPTIONS[name]
    if options is not None:
        game = pyspiel.load_game(os_adapter.game_name(name), {"rng_seed": 1, **options})
        solver = external_sampling_mccfr.ExternalSamplingSolver(game)
        solver.iteration()
        check_average_policy(game, solver.average_policy())


def check_average_policy(game: Any, policy: Any) -> None:
    """Along a game, the policy gives a distribution over the legal actions."""
    state = game.new_initial_state()
    while not state.is_terminal():
        probs = policy.action_probabilities(state)
        assert set(probs) <= set(state.legal_actions()) and abs(sum(probs.values()) - 1) < 1e-9
        state.apply_action(max(probs, key=probs.get))


def test_openspiel_cfr_converges_on_one_round_of_duo_regna() -> None:
    os_adapter = pytest.importorskip("regalia.envs.openspiel")
    import pyspiel
    from open_spiel.python.algorithms import cfr, exploitability

    # One dragon, one round: the round's winner takes the game; seat 1 chooses without
    # seeing seat 0's card. A small zero-sum game with a mixed equilibrium.
    params = {"dragon_deck": "[1; 0]", "dragons_to_win": 1, "max_rounds": 1}
    game = pyspiel.load_game(os_adapter.game_name("duo-regna"), params)
    solver = cfr.CFRPlusSolver(game)
    gaps = []
    for i in range(1, 101):
        solver.evaluate_and_update_policy()
        if i in (1, 10, 100):
            gaps.append(exploitability.exploitability(game, solver.average_policy()))
    assert gaps[0] > 0.2 and gaps[1] < gaps[0] and gaps[2] < gaps[1] and gaps[2] < 0.01, gaps


def test_openspiel_rl_environment_and_bots_play_whole_games() -> None:
    os_adapter = pytest.importorskip("regalia.envs.openspiel")
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
    os_adapter = pytest.importorskip("regalia.envs.openspiel")
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(os_adapter.game_name("duo-regna"), {"rng_seed": 2})
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    for use_observation_string in (True, False):  # its default keys nodes by information states
        bot = ismcts.ISMCTSBot(
            game,
            evaluator,
            2.0,
            10,
            random_state=np.random.RandomState(1),
            use_observation_string=use_observation_string,
        )
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            action = bot.step(state) if state.current_player() == 0 else legal[0]
            assert action in legal
            state.apply_action(action)
        assert sum(state.returns()) == 0


def test_gymnasium_and_pettingzoo_draw_the_chance_outcomes_of_explicit_chance_games(explicit_name: str) -> None:
    # An agent in an RL env only ever meets decisions: the env draws each chance outcome by
    # its probability from the game's seed, repeatably, and the ecosystems' checkers pass.
    gym_adapter = pytest.importorskip("regalia.envs.gymnasium")
    pz = pytest.importorskip("regalia.envs.pettingzoo")
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test, seed_test

    options = EXPLICIT_CHANCE_OPTIONS[explicit_name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # advice only (render fps, spec, Dict spaces)
        check_env(gym_adapter.RegaliaEnv(explicit_name, **options))
        api_test(pz.raw_env(explicit_name, **options), num_cycles=100)
        seed_test(lambda: pz.raw_env(explicit_name, **options), num_cycles=30)

    def play(seed: int) -> list[int]:
        env = gym_adapter.RegaliaEnv(explicit_name, **options)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        done = False
        while not done:
            assert not env.state.is_chance_node and env.state.current_player == env.seat
            _, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        history: list[int] = env.state.history()
        return history

    history = play(4)
    assert history == play(4)
    replay = regalia.make(explicit_name, **options).new_state(0)
    chance_steps = 0
    for step in history:  # every chance outcome drawn was possible where it was drawn
        if replay.is_chance_node:
            assert dict(replay.chance_outcomes()).get(step, 0.0) > 0.0
            chance_steps += 1
        replay.apply(step)
    assert replay.is_terminal and chance_steps > 0
