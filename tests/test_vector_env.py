"""VectorEnv against the same games stepped one by one through State: same seeds and actions
give the same observations, masks, rewards, terminations and players; restarts; bad input."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import regalia
from regalia.core.seeds import derive_seed
from tests.conftest import SUITE_OPTIONS


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``masks``."""
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks], dtype=np.int64)


def check_rows(env: regalia.VectorEnv, states: list[Any], obs: Any, masks: Any, players: Any) -> None:
    for i, s in enumerate(states):
        assert players[i] == s.current_player
        np.testing.assert_array_equal(obs[i], s.observation_tensor(s.current_player))
        np.testing.assert_array_equal(masks[i], s.legal_action_mask())


def test_games_equal_the_same_games_played_one_by_one(config: tuple[str, int]) -> None:
    name, players = config
    n, seed = 4, 21
    env = regalia.VectorEnv(name, n, seed=seed, threads=1, players=players, **SUITE_OPTIONS.get(name, {}))
    game = env.game
    assert game.num_players == players == env.num_players
    obs, masks, current = env.reset()
    assert obs.shape == (n, *game.observation_shape) and obs.dtype == np.float32
    assert masks.shape == (n, game.num_actions) and masks.dtype == np.bool_
    assert current.shape == (n,) and current.dtype == np.int64
    states = [game.new_state(derive_seed(seed, i)) for i in range(n)]
    check_rows(env, states, obs, masks, current)
    episodes = [0] * n
    rng = np.random.default_rng(0)
    for _ in range(20_000):
        if min(episodes) >= 1:
            break
        actions = random_actions(masks, rng)
        obs, masks, rewards, terminated, current = env.step(actions)
        assert rewards.shape == (n, players) and rewards.dtype == np.float32
        for i, s in enumerate(states):
            s.apply(int(actions[i]))
            assert terminated[i] == s.is_terminal
            if s.is_terminal:
                np.testing.assert_array_equal(rewards[i], np.array(s.returns(), dtype=np.float32))
                episodes[i] += 1
                states[i] = game.new_state(derive_seed(seed, episodes[i] * n + i))
            else:
                assert not rewards[i].any()
        check_rows(env, states, obs, masks, current)
    assert min(episodes) >= 1, "some game never ended"
    for i, s in enumerate(states):
        assert env.state(i) == s
        assert env.seeds()[i] == s.seed


def test_a_finished_game_restarts_at_once_from_its_next_seed() -> None:
    env = regalia.VectorEnv("duo-regna", 3, seed=5)
    _, masks, _ = env.reset()
    rng = np.random.default_rng(1)
    while True:
        before = [env.state(i) for i in range(3)]
        obs, masks, rewards, terminated, _ = env.step(random_actions(masks, rng))
        if terminated.any():
            break
    i = int(np.flatnonzero(terminated)[0])
    restarted = env.state(i)
    assert restarted.history() == [] and restarted.seed == derive_seed(5, 3 + i)
    assert restarted == env.game.new_state(derive_seed(5, 3 + i))
    assert sorted(rewards[i].tolist()) in ([-1.0, 1.0], [0.0, 0.0])
    assert len(env.state((i + 1) % 3).history()) in (len(before[(i + 1) % 3].history()) + 1, 0)


def stepped_alike(one: Any, other: Any, steps: int, seed: int) -> list[tuple[Any, ...]]:
    """Resets two batches, then steps both ``steps`` times with the same random legal actions
    (drawn from ``seed``), checking after each call that every array they return is the same:
    what ``other`` returned, its reset first."""
    rng = np.random.default_rng(seed)
    a, b = one.reset(), other.reset()
    returned = [b]
    while True:
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)
        if len(returned) > steps:
            return returned
        actions = random_actions(a[1], rng)
        a, b = one.step(actions), other.step(actions)
        returned.append(b)


def test_threads_do_not_change_the_games() -> None:
    n = 700  # enough games for the batch to use several threads
    one = regalia.VectorEnv("duo-regna", n, seed=2, threads=1)
    many = regalia.VectorEnv("duo-regna", n, seed=2, threads=3)
    assert (one.threads, many.threads) == (1, 3)
    stepped_alike(one, many, 50, seed=3)
    np.testing.assert_array_equal(one.seeds(), many.seeds())


def test_reset_with_a_seed_is_a_fresh_batch_from_that_seed() -> None:
    env = regalia.VectorEnv("duo-regna", 3, seed=1)
    _, masks, _ = env.reset()
    env.step(masks.argmax(axis=1))
    first = env.reset(seed=8)
    fresh = regalia.VectorEnv("duo-regna", 3, seed=8).reset()
    for x, y in zip(first, fresh):
        np.testing.assert_array_equal(x, y)
    assert [env.state(i).history() for i in range(3)] == [[], [], []]


def test_actions_may_be_any_integer_sequence() -> None:
    env = regalia.VectorEnv(regalia.make("duo-regna"), 2, seed=4)
    _, masks, _ = env.reset()
    a = masks.argmax(axis=1)
    env.step([int(x) for x in a])
    _, masks, *_ = env.step(env.reset()[1].argmax(axis=1).astype(np.int32))
    assert [len(env.state(i).history()) for i in range(2)] == [1, 1]


def test_bad_actions_are_refused_naming_the_game_and_change_nothing() -> None:
    env = regalia.VectorEnv("duo-regna", 3, seed=6)
    _, masks, _ = env.reset()
    for _ in range(2):  # both seats play their first card: seat 0 to play, without it
        _, masks, *_ = env.step(masks.argmax(axis=1))
    saved = [env.state(i).to_json() for i in range(3)]
    illegal = int(np.flatnonzero(~masks[2])[0])
    legal = masks.argmax(axis=1)
    cases: list[tuple[Any, str]] = [
        (np.array([legal[0], legal[1], illegal]), "game 2"),
        (np.array([legal[0], -1, legal[2]]), "game 1"),
        (np.array([99, legal[1], legal[2]]), "game 0"),
    ]
    for actions, who in cases:
        with pytest.raises(regalia.IllegalActionError, match=who):
            env.step(actions)
    for bad in ([0, 1], [[0, 1, 2]], [0.0, 1.0, 2.0], [True, False, True], "abc", None):
        with pytest.raises(regalia.RegaliaError):
            env.step(bad)
    assert [env.state(i).to_json() for i in range(3)] == saved


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        (("duo-regna", 0), {}),
        (("duo-regna", True), {}),
        (("duo-regna", 2), {"seed": -1}),
        (("duo-regna", 2), {"threads": 0}),
        (("no-such-game", 2), {}),
        (("duo-regna", 2), {"no_such_option": 1}),
        ((regalia.make("duo-regna"), 2), {"players": 2}),
        ((regalia.make("duo-regna", backend="reference"), 2), {}),
        ((3, 2), {}),
    ],
)
def test_bad_arguments_are_refused(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    with pytest.raises(regalia.RegaliaError):
        regalia.VectorEnv(*args, **kwargs)


def test_state_index_is_checked() -> None:
    env = regalia.VectorEnv("duo-regna", 2)
    for bad in (2, -1, "0"):
        with pytest.raises(regalia.InvalidArgumentError):
            env.state(bad)  # type: ignore[arg-type]


def test_without_copies_every_call_fills_the_same_arrays_with_the_same_values() -> None:
    fresh = regalia.VectorEnv("duo-regna", 5, seed=3)
    kept = regalia.VectorEnv("duo-regna", 5, seed=3, copy=False)
    assert fresh.copy and not kept.copy
    first, *steps = stepped_alike(fresh, kept, 150, seed=4)
    for b in steps:
        assert b[0] is first[0] and b[1] is first[1] and b[4] is first[2]


def test_sampled_actions_are_legal_and_replay_from_the_seed() -> None:
    n = 600  # enough games for the batch to use several threads
    one = regalia.VectorEnv("duo", n, seed=3, threads=1)
    many = regalia.VectorEnv("duo", n, seed=3, threads=2)
    masks = one.reset()[1]
    many.reset()
    for _ in range(40):
        actions = one.sample_actions()
        assert actions.shape == (n,) and actions.dtype == np.int64
        assert masks[np.arange(n), actions].all()
        np.testing.assert_array_equal(actions, many.sample_actions())
        masks = one.step(actions)[1]
        many.step(actions)
    again = regalia.VectorEnv("duo", n, seed=3)
    again.reset()
    for _ in range(40):
        again.step(again.sample_actions())
    for i in (0, 17, n - 1):
        assert again.state(i) == one.state(i)
    assert len(set(one.sample_actions().tolist())) > 1
