"""One learning seat in many native games (``regalia.envs.seat_batch``): every game, with the
opponents played natively (``random``) or through Python, against the same games played one
by one through ``State``; autoreset, final observations, bad input."""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import pytest

import regalia
from regalia.agents import View
from regalia.core.seeds import derive_seed
from regalia.envs.seat_batch import SeatBatch
from tests.conftest import SUITE_OPTIONS


def first_legal(view: View) -> int:
    return view.legal_actions[0]


def learner_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks], dtype=np.int64)


def opponents_answer(state: Any, seat: int) -> None:
    """Plays ``first_legal`` for the other seats until ``seat`` is to move or the game ends."""
    while not state.is_terminal and state.current_player != seat:
        state.apply(state.legal_actions()[0])


def test_python_opponents_equal_the_games_played_one_by_one(config: tuple[str, int]) -> None:
    name, players = config
    n, seed, seat = 3, 5, players - 1
    options = {"players": players, **SUITE_OPTIONS.get(name, {})}
    batch = SeatBatch(name, n, seat=seat, opponents=first_legal, seed=seed, threads=1, **options)
    game = batch.game
    states = [game.new_state(derive_seed(seed, i)) for i in range(n)]
    for s in states:
        opponents_answer(s, seat)
    out = batch.reset()
    episodes, rng = [0] * n, np.random.default_rng(1)
    for _ in range(5_000):
        for i, s in enumerate(states):
            np.testing.assert_array_equal(out.observations[i], s.observation_tensor(seat))
            np.testing.assert_array_equal(out.masks[i], s.legal_action_mask())
            assert batch.batch.state(i) == s
        if min(episodes) >= 2:
            break
        actions = learner_actions(out.masks, rng)
        out = batch.step(actions)
        for i, s in enumerate(states):
            s.apply(int(actions[i]))
            opponents_answer(s, seat)
            assert out.terminated[i] == s.is_terminal
            if s.is_terminal:
                assert out.rewards[i] == np.float32(s.returns()[seat])
                np.testing.assert_array_equal(out.final_observations[i], s.observation_tensor(seat))
                episodes[i] += 1
                states[i] = game.new_state(derive_seed(seed, episodes[i] * n + i))
                opponents_answer(states[i], seat)
            else:
                assert out.rewards[i] == 0 and not out.final_observations[i].any()
    assert min(episodes) >= 2, "some game never ended twice"


def test_native_random_opponents_leave_the_learner_to_move(config: tuple[str, int]) -> None:
    name, players = config
    n, seed = 4, 9
    options = {"players": players, **SUITE_OPTIONS.get(name, {})}
    seats = [i % players for i in range(n)]
    batch = SeatBatch(name, n, seat=seats, opponents="random", seed=seed, threads=1, **options)
    assert batch.native
    out = batch.reset()
    episodes, rng = [0] * n, np.random.default_rng(2)
    for _ in range(5_000):
        befores = [batch.batch.state(i) for i in range(n)]
        for i, s in enumerate(befores):
            assert s.current_player == seats[i]
            np.testing.assert_array_equal(out.observations[i], s.observation_tensor(seats[i]))
            np.testing.assert_array_equal(out.masks[i], s.legal_action_mask())
        if min(episodes) >= 2:
            break
        actions = learner_actions(out.masks, rng)
        out = batch.step(actions)
        for i, before in enumerate(befores):
            after = batch.batch.state(i)
            if out.terminated[i]:
                episodes[i] += 1
                assert after.seed == derive_seed(seed, episodes[i] * n + i)
                assert out.rewards[i] in {np.float32(r) for r in (-1, 0, 1)} or players > 2
                assert out.final_observations[i].shape == out.observations[i].shape
                moved = list(after.history())
            else:
                assert out.rewards[i] == 0
                history = list(after.history())
                assert history[: len(before.history()) + 1] == [*before.history(), int(actions[i])]
                moved = history[len(before.history()) + 1 :]
            replay = batch.game.new_state(after.seed)
            for a in after.history()[: len(after.history()) - len(moved)]:
                replay.apply(a)
            for a in moved:  # only the opponents moved after the learner
                assert replay.current_player != seats[i]
                replay.apply(a)
            assert replay == after
    assert min(episodes) >= 2


def test_native_random_play_is_reproducible_from_the_seed() -> None:
    def run() -> list[np.ndarray]:
        batch = SeatBatch("duo-regna", 8, opponents="random", seed=3, threads=1)
        out, seen = batch.reset(), []
        for _ in range(60):
            out = batch.step(np.argmax(out.masks, axis=1))
            seen.append(out.rewards.copy())
        return seen

    assert all(np.array_equal(a, b) for a, b in zip(run(), run()))


def test_opponents_swap_between_games() -> None:
    calls: list[int] = []

    def counted(view: View) -> int:
        calls.append(view.seat)
        return view.legal_actions[0]

    batch = SeatBatch("duo-regna", 2, opponents="random", seed=1, threads=1)
    batch.reset()
    batch.set_opponents(counted)
    assert not batch.native
    out = batch.reset()
    batch.step(np.argmax(out.masks, axis=1))
    assert calls and set(calls) == {1}


def test_bad_learner_and_opponent_actions_name_the_game() -> None:
    batch = SeatBatch("duo-regna", 3, opponents=lambda view: 999, seed=1, threads=1)
    with pytest.raises(regalia.AgentError, match=r"game 0: opponent at seat 1 .*999") as caught:
        out = batch.reset()
        batch.step(np.argmax(out.masks, axis=1))
    assert (caught.value.seat, caught.value.action) == (1, 999)
    batch = SeatBatch("duo-regna", 3, opponents="random", seed=1, threads=1)
    out = batch.reset()
    before = [batch.batch.state(i) for i in range(3)]
    actions = np.argmax(out.masks, axis=1)
    actions[2] = 99
    with pytest.raises(regalia.IllegalActionError, match="game 2: action 99"):
        batch.step(actions)
    assert [batch.batch.state(i) for i in range(3)] == before
    with pytest.raises(regalia.InvalidArgumentError, match="seat"):
        SeatBatch("duo-regna", 3, seat=2)
    with pytest.raises(regalia.InvalidArgumentError, match="seat"):
        SeatBatch("duo-regna", 3, seat=[0, 1])
    with pytest.raises(regalia.InvalidArgumentError, match="seat"):
        batch.batch.step_seats(np.array([0, 0, 5]), np.full(3, -1))


def test_the_gymnasium_vector_env_follows_same_step_autoreset(config: tuple[str, int]) -> None:
    gym_vector = pytest.importorskip("regalia.envs.gymnasium_vector")
    from gymnasium.vector import AutoresetMode
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    name, players = config
    options = {"players": players, **SUITE_OPTIONS.get(name, {})}
    envs = gym_vector.RegaliaVectorEnv(name, num_envs=4, seat=[i % players for i in range(4)], **options)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    envs = RecordEpisodeStatistics(envs)  # a Gymnasium consumer of the autoreset mode
    obs, infos = envs.reset(seed=3)
    assert envs.observation_space.contains(obs)
    rng, ended = np.random.default_rng(4), 0
    for _ in range(400):
        masks = infos["action_mask"].astype(bool)
        assert np.array_equal(masks, envs.unwrapped.action_masks()) and masks.any(axis=1).all()
        actions = learner_actions(masks, rng)
        assert envs.action_space.contains(actions)
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        assert envs.observation_space.contains(obs) and not truncated.any()
        assert rewards.dtype == np.float64 and not rewards[~terminated].any()
        if terminated.any():
            assert np.array_equal(infos["_final_obs"], terminated)
            for i in np.flatnonzero(terminated):
                assert envs.unwrapped.single_observation_space.contains(infos["final_obs"][i])
            assert np.array_equal(infos["_episode"], terminated)
            ended += int(terminated.sum())
        else:
            assert "final_obs" not in infos
    assert ended > 0
    first, _ = envs.reset(seed=3)
    again, _ = envs.reset(seed=3, options={"opponents": "random"})
    assert np.array_equal(first, again)
    pooled, _ = envs.reset(seed=3, options={"opponent_pool": ["random", first_legal]})
    assert envs.unwrapped.batch.native is False and len(envs.unwrapped.batch.pool) == 2
    assert envs.observation_space.contains(pooled)
    with pytest.raises(regalia.InvalidOptionError, match="opponent_pool"):
        envs.reset(options={"opponentpool": []})
    native, _ = envs.reset(seed=3, options={"opponent_pool": ["random", "ismcts:iterations=4"]})
    assert envs.unwrapped.batch.native and envs.observation_space.contains(native)
    envs.step(learner_actions(envs.unwrapped.action_masks(), rng))


def test_gymnasium_make_vec_gives_the_native_vector_env() -> None:
    gym_adapter = pytest.importorskip("regalia.envs.gymnasium")
    import gymnasium

    envs = gymnasium.make_vec(gym_adapter.env_id("duo-regna"), num_envs=8, vectorization_mode="vector_entry_point")
    assert type(envs).__name__ == "RegaliaVectorEnv" and envs.num_envs == 8
    obs, infos = envs.reset(seed=1)
    assert obs.shape == (8, 55) and infos["action_mask"].shape == (8, 9)


def last_legal(view: View) -> int:
    return view.legal_actions[-1]


def trajectory(batch: SeatBatch, steps: int) -> list[tuple[np.ndarray, ...]]:
    """What the learner sees over ``steps`` steps of first-legal play, and the games at the end."""
    out, seen = batch.reset(), []
    for _ in range(steps):
        seen.append((out.observations.copy(), out.masks.copy(), out.rewards.copy(), out.terminated.copy()))
        out = batch.step(np.argmax(out.masks, axis=1))
    seen.append(tuple(np.array(batch.batch.state(i).history()) for i in range(batch.num_envs)))
    return seen


def assert_same(a: list[tuple[np.ndarray, ...]], b: list[tuple[np.ndarray, ...]]) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert len(x) == len(y) and all(np.array_equal(u, v) for u, v in zip(x, y))


def test_batched_opponents_play_as_they_would_game_by_game(config: tuple[str, int], tmp_path: Any) -> None:
    """``first-legal``, ``last-legal``, ``fixed-order`` and a trained policy, played by the
    engine inside the step, and the same strategies as a ``BatchAgent`` of Python's own
    (answering all their games in one call): the same games as when they are asked view by
    view through Python."""
    from regalia.agents import FirstLegal, FixedOrder, LastLegal, PolicyAgent
    from regalia.core.policy_file import save_policy
    from tests.test_policy_agent import random_net

    name, players = config
    options = {"players": players, **SUITE_OPTIONS.get(name, {})}
    save_policy(tmp_path / "net.npz", random_net(name, 1, **options))
    policy = PolicyAgent(path=str(tmp_path / "net.npz"))
    seats = [i % players for i in range(4)]
    ordered = FixedOrder(order=3).act
    pairs = [("first-legal", FirstLegal().act), ("last-legal", LastLegal().act), ("fixed-order:order=3", ordered)]
    for batched, one_by_one in [*pairs, (policy, policy.act)]:
        fast = SeatBatch(name, 4, seat=seats, opponents=batched, seed=6, threads=1, **options)
        python = SeatBatch(name, 4, seat=seats, opponents=InPython(batched), seed=6, threads=1, **options)
        slow = SeatBatch(name, 4, seat=seats, opponents=one_by_one, seed=6, threads=1, **options)
        assert fast.native and not python.native
        expected = trajectory(slow, 150)
        assert_same(trajectory(fast, 150), expected)
        assert_same(trajectory(python, 150), expected)


class InPython:
    """A built-in ``BatchAgent`` asked through Python (a type the engine does not play)."""

    def __init__(self, spec: Any) -> None:
        from regalia.agents import make_agent

        self.agent = make_agent(spec) if isinstance(spec, str) else spec
        self.name = f"{self.agent.name} in Python"

    def act(self, view: View) -> int:
        return int(self.agent.act(view))

    def act_batch(self, game: Any, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return np.asarray(self.agent.act_batch(game, observations, masks))


def test_a_pool_draws_one_entry_per_game_from_its_seed() -> None:
    """Each game plays one opponent of the pool (every entry is drawn), the same whether the
    entries are batched or asked through Python."""
    fast = SeatBatch("duo-regna", 6, seat=[0, 1, 0, 1, 0, 1], seed=2, threads=1)
    fast.set_opponent_pool(["first-legal", "last-legal", "random"])
    slow = SeatBatch("duo-regna", 6, seat=[0, 1, 0, 1, 0, 1], seed=2, threads=1)
    slow.set_opponent_pool([first_legal, last_legal, "random"])
    assert fast.native and not slow.native
    kinds: set[str] = set()
    out = fast.reset()
    for _ in range(400):
        for i in range(6):
            state = fast.batch.state(i)
            replay, moves = fast.game.new_state(state.seed), {"first": 0, "last": 0, "other": 0}
            for a in state.history():
                if replay.current_player != fast.seats[i]:
                    legal = replay.legal_actions()
                    if len(legal) > 1:
                        moves["first" if a == legal[0] else "last" if a == legal[-1] else "other"] += 1
                replay.apply(a)
            played = {k for k, v in moves.items() if v}
            if played in ({"first"}, {"last"}):
                kinds |= played
            elif moves["other"]:
                kinds.add("random")
        out = fast.step(np.argmax(out.masks, axis=1))
    assert kinds == {"first", "last", "random"}
    fixed = SeatBatch("duo-regna", 6, seat=[0, 1, 0, 1, 0, 1], seed=2, threads=1)
    fixed.set_opponent_pool(["first-legal", last_legal])
    python = SeatBatch("duo-regna", 6, seat=[0, 1, 0, 1, 0, 1], seed=2, threads=1)
    python.set_opponent_pool([first_legal, "last-legal"])
    assert_same(trajectory(fixed, 300), trajectory(python, 300))
    with pytest.raises(regalia.InvalidOptionError, match="pool"):
        fixed.set_opponent_pool([])


def test_a_batched_opponents_illegal_choice_names_the_game_seat_and_action() -> None:
    class Stubborn:
        name = "stubborn"

        def act(self, view: View) -> int:
            return 8

        def act_batch(self, game: Any, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
            return np.full(len(masks), 8)

    batch = SeatBatch("duo-regna", 3, opponents=Stubborn(), seed=1, threads=1)
    out = batch.reset()
    with pytest.raises(
        regalia.AgentError, match=r"game \d: opponent at seat 1 \(stubborn\) chose illegal action 8"
    ) as e:
        for _ in range(9):
            out = batch.step(np.argmax(out.masks, axis=1))
    assert (e.value.seat, e.value.action) == (1, 8)


def test_ismcts_opponents_search_natively_from_the_games_generator() -> None:
    """Each move of an ``ismcts`` opponent is ``State.ismcts`` from the mover's position with
    the agent's opponent model, seeded by two draws from the game's own generator at every
    decision with a choice (a forced move is played without a search): made in Rust inside
    the step, the same whatever the threads."""
    from regalia.core.seeds import MASK64
    from regalia.reference.rng import Rng

    seats = [0, 1, 0, 1]
    for model in ("search", "first-legal"):
        spec = f"ismcts:iterations=12:exploration=0.7:opponents={model}"
        one = SeatBatch("duo-regna", 4, seat=seats, opponents=spec, seed=3, threads=1)
        two = SeatBatch("duo-regna", 4, seat=seats, opponents=spec, seed=3, threads=2)
        assert one.native and two.native
        assert_same(trajectory(one, 30), trajectory(two, 30))
        checked = 0
        for i, learner in enumerate(seats):
            state = one.batch.state(i)
            sampler = Rng.new(derive_seed(int(state.seed) ^ MASK64, 0))
            replay = one.game.new_state(state.seed)
            for action in state.history():
                if replay.current_player != learner and len(replay.legal_actions()) > 1:
                    seed = (sampler.next_u32() << 32) | sampler.next_u32()
                    assert action == replay.ismcts(iterations=12, exploration=0.7, seed=seed, opponents=model)
                    checked += 1
                replay.apply(action)
        assert checked >= 10


def test_policy_files_by_name_and_mixed_entries_play_natively_where_they_can(tmp_path: Any) -> None:
    """``policy:path=...`` plays in Rust; in an entry that mixes it with a Python opponent the
    engine stops at the Python seat, which is asked as before: the same games as when every
    opponent is asked view by view."""
    from regalia.agents import PolicyAgent
    from regalia.core.policy_file import save_policy
    from tests.test_policy_agent import random_net

    save_policy(tmp_path / "net.npz", random_net("regine", 2, players=3))
    spec = f"policy:path={tmp_path / 'net.npz'}"
    viewed = PolicyAgent(path=str(tmp_path / "net.npz")).act
    seats = [0, 1, 2, 0]
    for fast_spec, slow_spec in [(spec, viewed), ([spec, first_legal], [viewed, first_legal])]:
        fast = SeatBatch("regine", 4, seat=seats, opponents=fast_spec, seed=4, threads=2, players=3)
        slow = SeatBatch("regine", 4, seat=seats, opponents=slow_spec, seed=4, threads=1, players=3)
        assert fast.native == isinstance(fast_spec, str) and not slow.native
        assert_same(trajectory(fast, 120), trajectory(slow, 120))
    sampled = [SeatBatch("regine", 4, seat=seats, opponents=f"{spec}:sample=true", seed=5, players=3) for _ in "ab"]
    assert sampled[0].native
    assert_same(trajectory(sampled[0], 60), trajectory(sampled[1], 60))


def test_native_opponents_that_cannot_play_the_game_are_refused(tmp_path: Any) -> None:
    from regalia.core.policy_file import save_policy
    from tests.test_policy_agent import random_net

    save_policy(tmp_path / "net.npz", random_net("duo-regna", 0))
    spec = f"policy:path={tmp_path / 'net.npz'}"
    with pytest.raises(regalia.InvalidArgumentError, match="trained for duo-regna, not duo"):
        SeatBatch("duo", 2, opponents=spec)
    batch = SeatBatch("duo-regna", 2, opponents="random", seed=1)
    with pytest.raises(regalia.InvalidArgumentError, match="trained for duo-regna, not duo"):
        SeatBatch("duo", 2).set_opponent_pool(["random", spec])
    with pytest.raises(regalia.InvalidOptionError, match="belief='none'"):
        batch.set_opponent_pool(["random", "ismcts:belief=uniform"])
    assert batch.native and len(batch.pool) == 1  # the refused pools changed nothing
    env = regalia.VectorEnv("duo-regna", 2)
    with pytest.raises(regalia.InvalidArgumentError, match="entry 1 of the opponent pool has 2 opponents"):
        env.set_opponent_pool([[regalia._core.Opponent.random()], [None, None]])
    with pytest.raises(regalia.InvalidArgumentError, match="at least one entry"):
        env.set_opponent_pool([])
    for bad in ("random", [["random"]], [regalia._core.Opponent.random()], 3):
        with pytest.raises(regalia.InvalidArgumentError, match="list of entries"):
            env.set_opponent_pool(bad)  # type: ignore[arg-type]
    with pytest.raises(regalia.InvalidArgumentError, match="belief"):
        regalia._core.Opponent.ismcts(belief="uniform")
    with pytest.raises(regalia.InvalidArgumentError, match="iterations"):
        regalia._core.Opponent.ismcts(iterations=0)


class OpponentMoves:
    """Follows every game of ``batch`` move by move, each move once, and hands each move of
    an opponent to ``check(i, replay, seat, action, sampler)``: game ``i`` replayed up to
    that move, the mover, its move and the game's own generator (``Rng`` of the engine's
    native opponents), as far as the replay has drawn from it. A game that ended within a
    step is followed up to the last position seen."""

    def __init__(self, batch: SeatBatch, check: Any) -> None:
        self.batch, self.check = batch, check
        self.games: dict[int, tuple[int, Any, Any, int]] = {}

    def __call__(self) -> None:
        from regalia.core.seeds import MASK64
        from regalia.reference.rng import Rng

        for i in range(self.batch.num_envs):
            state = self.batch.batch.state(i)
            seed = int(state.seed)
            if i not in self.games or self.games[i][0] != seed:
                self.games[i] = (seed, self.batch.game.new_state(seed), Rng.new(derive_seed(seed ^ MASK64, 0)), 0)
            _, replay, sampler, done = self.games[i]
            history = state.history()
            for action in history[done:]:
                seat = replay.current_player
                if seat != self.batch.seats[i]:
                    self.check(i, replay, seat, action, sampler)
                replay.apply(action)
            self.games[i] = (seed, replay, sampler, len(history))


def unit(sampler: Any) -> float:
    """A uniform number in [0, 1) drawn as the engine's opponents draw one from a game's
    generator: 53 bits of two words."""
    hi, lo = sampler.next_u32() >> 5, sampler.next_u32() >> 6
    return float((hi << 26) | lo) / 2**53


class Draws:
    """Stands in for an agent's generator: hands out the given uniform numbers."""

    def __init__(self, draws: list[float]) -> None:
        self.draws = draws

    def random(self, shape: tuple[int, int]) -> np.ndarray:
        return np.asarray(self.draws, dtype=np.float64).reshape(shape)


def test_a_sampling_policy_opponent_draws_from_the_games_generator_with_the_agents_probabilities(
    config: tuple[str, int], tmp_path: Any
) -> None:
    """``policy:...:sample=true``, played by the engine: each move is the one the Python
    agent samples from the same observation with the same uniform number, that number the
    next of the game's own generator (one per move, a forced move too); unless the number
    lies within rounding of a boundary between two actions' cumulative probabilities, then
    the move is still legal. The same games whatever the threads."""
    from regalia.agents import PolicyAgent
    from regalia.core.policy_file import save_policy
    from tests.test_policy_agent import random_net

    name, players = config
    options = {"players": players, **SUITE_OPTIONS.get(name, {})}
    save_policy(tmp_path / "net.npz", random_net(name, 4, **options))
    spec = f"policy:path={tmp_path / 'net.npz'}:sample=true"
    seats = [i % players for i in range(4)]
    batch = SeatBatch(name, 4, seat=seats, opponents=spec, seed=8, threads=2, **options)
    assert batch.native
    agent = PolicyAgent(path=str(tmp_path / "net.npz"), sample=True)
    net = agent.net_for(batch.game)
    counts = {"same": 0, "near": 0}

    def check(i: int, replay: Any, seat: int, action: int, sampler: Any) -> None:
        observation = replay.observation_tensor(seat).reshape(1, -1)
        mask = replay.legal_action_mask()[None]
        draw = unit(sampler)
        agent._rng = cast(Any, Draws([draw]))
        expected = int(agent.act_batch(batch.game, observation, mask)[0])
        assert mask[0, action]
        logits = np.where(mask[0], net.logits(observation)[0].astype(np.float64), -np.inf)
        weights = np.exp(logits - logits.max())
        cumulative = np.cumsum(weights / weights.sum())[mask[0]]
        if np.abs(cumulative - draw).min() < 1e-5:
            counts["near"] += 1
        else:
            assert action == expected, f"game {i}, seat {seat}"
            counts["same"] += 1

    follow = OpponentMoves(batch, check)
    out, rng = batch.reset(), np.random.default_rng(3)
    follow()
    for _ in range(40):
        out = batch.step(learner_actions(out.masks, rng))
        follow()
    assert counts["same"] >= 40 and counts["near"] <= counts["same"] // 10, counts
    again = SeatBatch(name, 4, seat=seats, opponents=spec, seed=8, threads=1, **options)
    assert_same(trajectory(again, 40), trajectory(batch, 40))


def test_opponent_pools_swap_between_games_in_the_same_env() -> None:
    """``set_opponent_pool`` between steps, on the same engine batch: every game under way
    ends against the opponent it started with (asked through Python or played by the
    engine), every game that starts after plays the new pool, and the learner is to move in
    every game after every step: from a Python opponent to a native one, from one native
    pool to another, and back to Python."""
    batch = SeatBatch("duo-regna", 4, seat=[0, 1, 0, 1], opponents=first_legal, seed=1, threads=2)
    engine = batch.batch
    playing: dict[int, str] = {}  # each game's seed -> the strategy its opponent plays
    current = ["first"]

    def check(i: int, replay: Any, seat: int, action: int, sampler: Any) -> None:
        legal = replay.legal_actions()
        kind = playing.setdefault(int(replay.seed), current[0])
        assert action == (legal[0] if kind == "first" else legal[-1]), f"game {i}"

    follow = OpponentMoves(batch, check)
    out, rng = batch.reset(), np.random.default_rng(5)
    follow()
    for pool, kind in [(["last-legal"], "last"), (["first-legal"], "first"), ([last_legal], "last")]:
        before = {int(engine.state(i).seed) for i in range(4)}
        for s in before:
            playing.setdefault(s, current[0])
        batch.set_opponent_pool(pool)
        assert batch.native == isinstance(pool[0], str)
        current[0] = kind
        started = set()
        for _ in range(2_000):
            out = batch.step(learner_actions(out.masks, rng))
            assert out.masks.any(axis=1).all()
            follow()
            started |= {i for i in range(4) if int(engine.state(i).seed) not in before}
            if len(started) == 4:
                break
        assert len(started) == 4
    assert batch.batch is engine
    assert {kind for kind in playing.values()} == {"first", "last"}


def test_opponents_that_cannot_play_are_refused_and_change_nothing(tmp_path: Any) -> None:
    """A damaged policy file, a policy of another observation shape, a policy made for
    another game, a wrong type or count: each raises a ``ValueError`` subclass naming what
    is wrong, and the batch plays on against the opponents it had."""
    from regalia.core.policy_file import PolicyNet, save_policy
    from tests.test_policy_agent import random_net

    damaged = tmp_path / "damaged.npz"
    save_policy(damaged, random_net())
    damaged.write_bytes(damaged.read_bytes()[:-40])
    net = random_net()
    narrow = [(np.zeros((9, 54), dtype=np.float32), net.layers[-1][1])]
    save_policy(tmp_path / "narrow.npz", PolicyNet("duo-regna", net.options, (54,), 9, "tanh", narrow))
    with pytest.raises(regalia.InvalidArgumentError, match="damaged|not a policy file"):
        SeatBatch("duo-regna", 2, opponents=f"policy:path={damaged}")
    batch = SeatBatch("duo-regna", 2, opponents="first-legal", seed=1, threads=1)
    out = batch.reset()
    out = batch.step(np.argmax(out.masks, axis=1))
    before = [batch.batch.state(i) for i in range(2)]
    bad_pools: list[tuple[Any, type[ValueError], str]] = [
        (["random", f"policy:path={damaged}"], regalia.InvalidArgumentError, "damaged|not a policy file"),
        ([f"policy:path={tmp_path / 'narrow.npz'}"], regalia.InvalidArgumentError, r"shape \(54,\)"),
        (["random", 3], regalia.InvalidArgumentError, "act"),
        ([["random", "random"]], regalia.InvalidOptionError, "needs 1 opponents, got 2"),
        ("random", regalia.InvalidOptionError, "non-empty list"),
    ]
    for pool, error, message in bad_pools:
        with pytest.raises(error, match=message):
            batch.set_opponent_pool(pool)
    assert [batch.batch.state(i) for i in range(2)] == before
    assert batch.native and len(batch.pool) == 1
    for _ in range(20):
        out = batch.step(np.argmax(out.masks, axis=1))
    for i in range(2):
        state = batch.batch.state(i)
        replay = batch.game.new_state(state.seed)
        for a in state.history():
            assert replay.current_player == 0 or a == replay.legal_actions()[0]
            replay.apply(a)

    env = regalia.VectorEnv("duo-regna", 2, seed=1)
    duo = regalia.make("duo")
    width, actions = int(np.prod(duo.observation_shape)), duo.num_actions
    layers = [(np.zeros((actions, width), dtype=np.float32), np.zeros(actions, dtype=np.float32))]
    foreign = regalia._core.Opponent.policy(regalia._core.Policy(duo, layers, "relu"))
    with pytest.raises(regalia.InvalidArgumentError, match="entry 1 .* made for duo; this env plays duo-regna"):
        env.set_opponent_pool([[regalia._core.Opponent.random()], [foreign]])
