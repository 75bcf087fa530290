"""Opponents of the one-seat Gymnasium env: names, agent objects, functions, swapped between
episodes, checked; and the masks of an env made by ``gymnasium.make``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import regalia
from regalia.agents import View

gym_adapter = pytest.importorskip("regalia.envs.gymnasium")


class Recorder:
    """Plays the last legal action and remembers the seats and games it was shown."""

    name = "recorder"

    def __init__(self) -> None:
        self.seats: list[int] = []
        self.started = 0
        self.ended: list[list[float]] = []

    def game_start(self, view: View) -> None:
        self.started += 1

    def act(self, view: View) -> int:
        self.seats.append(view.seat)
        return view.legal_actions[-1]

    def game_end(self, view: View, returns: list[float]) -> None:
        self.ended.append(list(returns))


def play_out(env: Any, seed: int) -> float:
    _, info = env.reset(seed=seed)
    done, reward = False, 0.0
    while not done:
        _, reward, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    return float(reward)


def test_an_agent_object_plays_the_other_seat_and_hears_the_hooks() -> None:
    rec = Recorder()
    env = gym_adapter.RegaliaEnv("duo-regna", seat=0, opponents=rec)
    reward = play_out(env, 3)
    assert rec.seats and set(rec.seats) == {1}
    assert len(rec.seats) == sum(1 for s in range(len(env.state.history())) if s % 2 == 1)
    assert rec.started == 1 and rec.ended == [env.state.returns()]
    assert reward == env.state.returns()[0]
    assert env.opponent_names == ["recorder"]


def test_a_function_plays_and_per_seat_lists_mix_kinds() -> None:
    calls: list[int] = []

    def first(view: View) -> int:
        calls.append(view.seat)
        return view.legal_actions[0]

    env = gym_adapter.RegaliaEnv("regine", seat=1, opponents=[first, "random", first], players=4)
    play_out(env, 5)
    assert calls and set(calls) <= {0, 3} and {0, 3} <= set(calls)
    assert env.opponent_names == ["first", "random", "first"]


def test_opponents_swap_between_episodes_without_a_new_env() -> None:
    a, b = Recorder(), Recorder()
    env = gym_adapter.RegaliaEnv("duo-regna", opponents=a)
    play_out(env, 1)
    played_a = len(a.seats)
    env.set_opponents(b)
    play_out(env, 2)
    assert len(a.seats) == played_a and b.seats
    c = Recorder()
    _, _ = env.reset(seed=3, options={"opponents": [c]})
    assert env.opponent_names == ["recorder"]
    play_out(env, 4)
    assert c.started == 2 and len(b.seats) > 0
    with pytest.raises(regalia.InvalidOptionError, match="opponents"):
        env.reset(options={"oponents": "random"})
    with pytest.raises(regalia.InvalidOptionError):
        env.set_opponents("nobody")


def test_named_opponents_still_replay_from_the_seed() -> None:
    def history(opponents: Any) -> list[int]:
        env = gym_adapter.RegaliaEnv("regine", opponents=opponents, players=2)
        play_out(env, 9)
        return list(env.state.history())

    assert history("random") == history("random")
    assert history("random") == history(["random"])


@pytest.mark.parametrize("choice", ["out of range", "not legal", "not an int", "raises"])
def test_an_opponents_illegal_choice_names_the_seat_and_action(choice: str) -> None:
    def bad(view: View) -> Any:
        if choice == "raises":
            raise RuntimeError("lost")
        if choice == "not an int":
            return "high"
        if choice == "out of range":
            return 999
        return next(a for a in range(40) if a not in view.legal_actions)

    env = gym_adapter.RegaliaEnv("duo-regna", seat=0, opponents=bad)
    _, info = env.reset(seed=1)
    mine = int(np.flatnonzero(info["action_mask"])[0])
    with pytest.raises(regalia.AgentError, match="seat 1") as caught:
        env.step(mine)
    assert caught.value.seat == 1
    if choice in ("out of range", "not legal"):
        assert caught.value.action == bad(None if choice == "out of range" else _view_of(env))
        assert str(caught.value.action) in str(caught.value)
    assert list(env.state.history()) == [mine]  # the opponent's choice was not played
    with pytest.raises(Exception, match="reset"):
        env.step(0)


def _view_of(env: Any) -> View:
    from regalia.agents import view_of

    return view_of(env.state, 1, env.game.name, env.game.options, 0)


def test_action_masks_of_an_env_made_by_gymnasium_make() -> None:
    import gymnasium

    env = gymnasium.make(gym_adapter.env_id("duo-regna"), opponents="random")
    _, info = env.reset(seed=2)
    masks = env.get_wrapper_attr("action_masks")()
    assert masks.dtype == np.bool_ and np.array_equal(masks, info["action_mask"].astype(bool))
    assert np.array_equal(env.unwrapped.action_masks(), masks)


def test_maskable_ppo_finds_the_masks_of_a_made_env() -> None:
    pytest.importorskip("sb3_contrib")
    import gymnasium
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.vec_env import DummyVecEnv

    vec = DummyVecEnv([lambda: gymnasium.make(gym_adapter.env_id("duo-regna"), opponents="random")])
    vec.seed(4)
    vec.reset()
    assert is_masking_supported(vec)
    legal = vec.envs[0].unwrapped.state.legal_action_mask()
    assert np.array_equal(get_action_masks(vec)[0], legal)
