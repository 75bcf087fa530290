"""The Stable-Baselines3 ``VecEnv`` over the native batch, checked as SB3 uses it: spaces,
dtypes, autoreset with ``terminal_observation``, masks for sb3-contrib, a short MaskablePPO
run that respects the masks (``pip install "regalia[learn]"``; skipped without it)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.conftest import SUITE_OPTIONS

pytest.importorskip("stable_baselines3")
pytest.importorskip("sb3_contrib")

from regalia.envs.sb3 import RegaliaVecEnv  # noqa: E402


@pytest.fixture(autouse=True)
def sb3_logs_in_tmp_path(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """SB3 makes a log folder for every model (in the system's temporary folder unless
    ``SB3_LOGDIR`` says where): the test's own folder, removed with it."""
    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path / "sb3-logs"))


def check_vec_env(env: Any, steps: int, rng: np.random.Generator) -> int:
    """What SB3 relies on of a ``VecEnv``, over ``steps`` masked random steps; returns the
    number of games that ended."""
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    n = env.num_envs
    obs = env.reset()
    assert obs.shape == (n, *env.observation_space.shape) and obs.dtype == np.float32
    assert all(env.observation_space.contains(row) for row in obs)
    assert is_masking_supported(env)
    ended = 0
    for _ in range(steps):
        masks = get_action_masks(env)
        assert masks.shape == (n, env.action_space.n) and masks.dtype == np.bool_
        assert masks.any(axis=1).all(), "the learner must have a move in every game"
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        env.step_async(actions)
        obs, rewards, dones, infos = env.step_wait()
        assert obs.shape == (n, *env.observation_space.shape) and obs.dtype == np.float32
        assert rewards.shape == (n,) and rewards.dtype == np.float32
        assert dones.shape == (n,) and dones.dtype == np.bool_
        assert len(infos) == n
        for i in range(n):
            assert env.observation_space.contains(obs[i])
            if dones[i]:
                final = infos[i]["terminal_observation"]
                assert env.observation_space.contains(final) and infos[i]["TimeLimit.truncated"] is False
                ended += 1
            else:
                assert "terminal_observation" not in infos[i] and rewards[i] == 0
    return ended


def test_the_vec_env_passes_sb3s_checks(config: tuple[str, int]) -> None:
    name, players = config
    options = {"players": players, **SUITE_OPTIONS.get(name, {})}
    env = RegaliaVecEnv(name, num_envs=4, seat=[i % players for i in range(4)], seed=2, **options)
    env.seed(7)
    assert check_vec_env(env, 300, np.random.default_rng(0)) > 0
    env.close()


def test_the_vec_env_with_python_opponents() -> None:
    env = RegaliaVecEnv("regine", num_envs=3, opponents=["rules", lambda view: view.legal_actions[-1]], players=3)
    assert check_vec_env(env, 100, np.random.default_rng(1)) > 0


def test_the_vec_env_with_native_policy_and_ismcts_opponents(tmp_path: Any) -> None:
    """A pool of a policy file, ISMCTS and ``random`` is played in Rust inside each step (no
    Python between steps), and the env still passes SB3's checks and replays from its seed."""
    from regalia.core.policy_file import save_policy
    from tests.test_policy_agent import random_net

    save_policy(tmp_path / "net.npz", random_net())
    pool = [f"policy:path={tmp_path / 'net.npz'}", "ismcts:iterations=8", "random"]
    runs = []
    for _ in range(2):
        env = RegaliaVecEnv("duo-regna", num_envs=4, seat=[0, 1, 0, 1], seed=3, threads=2)
        env.set_opponent_pool(pool)
        assert env.batch.native
        assert check_vec_env(env, 150, np.random.default_rng(2)) > 0
        runs.append([env.batch.batch.state(i).history() for i in range(4)])
    assert runs[0] == runs[1]


def test_seeding_replays_and_is_spent_once() -> None:
    env = RegaliaVecEnv("duo-regna", num_envs=4)
    env.seed(11)
    first = env.reset()
    env.seed(11)
    assert np.array_equal(env.reset(), first)
    assert env._seeds == [None] * 4


def test_maskable_ppo_learns_a_few_steps_within_the_masks(tmp_path: Any) -> None:
    import torch
    from sb3_contrib import MaskablePPO

    from regalia.agents import PolicyAgent
    from regalia.core.policy_file import save_policy
    from tests.test_policy_agent import random_net

    torch.set_num_threads(1)
    save_policy(tmp_path / "past.npz", random_net())
    env = RegaliaVecEnv("duo-regna", num_envs=16, seed=0)
    env.set_opponent_pool(["random", "first-legal", PolicyAgent(seed=1, path=str(tmp_path / "past.npz"), sample=True)])
    played: list[bool] = []
    step_async = env.step_async

    def checked(actions: np.ndarray) -> None:
        masks = env.action_masks()
        played.extend(masks[np.arange(env.num_envs), actions])
        step_async(actions)

    env.step_async = checked  # type: ignore[method-assign]
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=256, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=4_096)
    assert len(played) >= 4_096 and all(played)


def test_an_exported_policy_plays_as_the_model(tmp_path: Any) -> None:
    from sb3_contrib import MaskablePPO

    from regalia.agents import make_agent, view_of
    from regalia.core.policy_file import load_policy
    from regalia.envs.sb3 import export_policy

    env = RegaliaVecEnv("duo-regna", num_envs=8, seed=3)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=256, n_epochs=1, seed=1, device="cpu")
    model.learn(total_timesteps=256)
    export_policy(model, env.batch.game, tmp_path / "p.npz")
    model.save(tmp_path / "m.zip")
    net = load_policy(tmp_path / "p.npz")
    obs = env.reset()
    for _ in range(20):
        masks = env.action_masks()
        expected, _ = model.predict(obs, action_masks=masks, deterministic=True)
        chosen = np.argmax(np.where(masks, net.logits(obs), -np.inf), axis=1)
        np.testing.assert_array_equal(chosen, expected)
        obs, _, _, _ = env.step(expected)
    from_zip = make_agent(f"policy:path={tmp_path / 'm.zip'}")
    from_npz = make_agent(f"policy:path={tmp_path / 'p.npz'}")
    game = env.batch.game
    state = game.new_state(5)
    while not state.is_terminal:
        view = view_of(state, state.current_player, game.name, game.options, 0)
        assert from_zip.act(view) == from_npz.act(view)
        state.apply(from_npz.act(view))


def test_the_training_script_runs_and_records_its_curve(tmp_path: Any) -> None:
    import json
    import subprocess
    import sys
    from pathlib import Path

    from regalia.core.policy_file import load_policy

    root = Path(__file__).resolve().parents[1]
    args = ["--minutes", "10", "--steps", "8192", "--envs", "8", "--chunk", "4096", "--eval-games", "40"]
    args += ["--opponent", "random,first-legal", "--eval", "random,last-legal", "--self-play-from", "0"]
    args += ["--hidden", "16,16", "--out", str(tmp_path)]
    done = subprocess.run(
        [sys.executable, str(root / "benches" / "train_policy.py"), *args], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    header, first, row = [json.loads(line) for line in (tmp_path / "curve.jsonl").read_text().splitlines()]
    assert header["run"]["game"] == "duo-regna" and (first["steps"], row["steps"]) == (4096, 8192)
    assert row["wins"] + row["draws"] + row["losses"] == 40 and set(row["against"]) == {"random", "last-legal"}
    assert {k: row[k] for k in ("wins", "draws", "losses")} == row["against"]["random"]
    assert load_policy(tmp_path / f"policy-{row['steps']}.npz").game == "duo-regna"


def test_the_training_script_trains_against_fixed_orders_and_mines_the_worst(tmp_path: Any) -> None:
    """``--orders`` puts a range of fixed orders in the pool, ``--eval-orders`` records the
    sum and the worst of held-out orders, ``--mine-orders`` keeps the orders the export did
    worst against (from the range, the worst first) for the next chunk."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    args = ["--minutes", "10", "--steps", "8192", "--envs", "8", "--chunk", "4096", "--eval-games", "20"]
    args += ["--opponent", "random", "--orders", "1000-1003", "--orders-weight", "2"]
    args += ["--eval-orders", "1-3", "--eval-order-games", "10", "--mine-orders", "2000-2999"]
    args += ["--mine-sample", "3", "--mine-games", "4", "--mine-keep", "2", "--hidden", "16,16", "--out", str(tmp_path)]
    done = subprocess.run(
        [sys.executable, str(root / "benches" / "train_policy.py"), *args], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    header, first, row = [json.loads(line) for line in (tmp_path / "curve.jsonl").read_text().splitlines()]
    assert header["run"]["orders"] == [1000, 1003] and header["run"]["eval_orders"] == [1, 3]
    assert set(row["against"]) == {"random", "orders 1-3", "worst order"}
    assert sum(row["against"]["orders 1-3"].values()) == 30 and row["against"]["worst order"]["order"] in (1, 2, 3)
    for mined in (first["mined"], row["mined"]):
        assert len(mined) == 2 and all(2000 <= k <= 2999 for k, _ in mined) and mined[0][1] <= mined[1][1]


def test_the_solver_distils_into_a_policy_file_a_model_continues_from(tmp_path: Any) -> None:
    """benches/distill_solver.py writes a Duo Regna policy file of the requested layers that
    ``load_actor`` accepts for a model of the same layers."""
    import subprocess
    import sys
    from pathlib import Path

    from sb3_contrib import MaskablePPO

    from regalia.core.policy_file import load_policy
    from regalia.envs.sb3 import load_actor

    root = Path(__file__).resolve().parents[1]
    args = ["--games", "20", "--epochs", "1", "--hidden", "8,8", "--out", str(tmp_path / "eq.npz")]
    script = str(root / "benches" / "distill_solver.py")
    done = subprocess.run([sys.executable, script, *args], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    net = load_policy(tmp_path / "eq.npz")
    assert net.game == "duo-regna" and [w.shape for w, _ in net.layers] == [(8, 55), (8, 8), (9, 8)]
    env = RegaliaVecEnv("duo-regna", num_envs=4, seed=3)
    model = MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": [8, 8]}, device="cpu")
    load_actor(model, net)
    obs, masks = env.reset(), env.action_masks()
    chosen, _ = model.predict(obs, action_masks=masks, deterministic=True)
    np.testing.assert_array_equal(chosen, np.argmax(np.where(masks, net.logits(obs), -np.inf), axis=1))


def test_a_model_continues_from_a_policy_file(tmp_path: Any) -> None:
    """``load_actor`` sets a fresh model's actor to an exported one (it then chooses as the
    exported policy does); an actor of other layer sizes is refused, naming both."""
    from sb3_contrib import MaskablePPO

    from regalia.core.errors import InvalidArgumentError
    from regalia.core.policy_file import load_policy
    from regalia.envs.sb3 import export_policy, load_actor

    env = RegaliaVecEnv("duo-regna", num_envs=8, seed=3)
    trained = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=256, n_epochs=1, seed=1, device="cpu")
    trained.learn(total_timesteps=256)
    export_policy(trained, env.batch.game, tmp_path / "p.npz")
    net = load_policy(tmp_path / "p.npz")
    fresh = MaskablePPO("MlpPolicy", env, seed=2, device="cpu")
    obs, masks = env.reset(), env.action_masks()
    logits = np.where(masks, net.logits(obs), -np.inf)
    before, _ = fresh.predict(obs, action_masks=masks, deterministic=True)
    load_actor(fresh, net)
    after, _ = fresh.predict(obs, action_masks=masks, deterministic=True)
    np.testing.assert_array_equal(after, np.argmax(logits, axis=1))
    assert not np.array_equal(before, after)
    wide = MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": [32]}, device="cpu")
    with pytest.raises(InvalidArgumentError, match=r"layers \[\(32, 55\), \(9, 32\)\].*\(64, 55\)"):
        load_actor(wide, net)
