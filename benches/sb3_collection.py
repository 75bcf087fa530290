"""Collection speed for SB3, side by side in one run: masked random steps through
``regalia.envs.sb3.RegaliaVecEnv`` (one native call for all games) against SB3's ``DummyVecEnv``
over as many single ``RegaliaEnv`` (one Python step per game), learner against ``--opponent``
(``random`` by default). For another opponent also ``RegaliaVecEnv`` with that opponent
asked as it was before the engine played it: a ``policy`` in one numpy forward pass a step
(``act_batch`` through Python), anything else (``ismcts``) view by view through Python
(``pip install "regalia[learn]"``; see docs/learning.md).

    nice -n 10 python benches/sb3_collection.py --game duo-regna --envs 64 --seconds 10
    nice -n 10 python benches/sb3_collection.py --opponent policy:path=docs/learning/duo-regna-random.npz
    nice -n 10 python benches/sb3_collection.py --opponent ismcts:iterations=100 --threads 2
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np


def masked_random(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row, vectorised."""
    scores = np.where(masks, rng.random(masks.shape), -1.0)
    return np.argmax(scores, axis=1)


def steps_per_second(env: Any, seconds: float, seed: int) -> float:
    """Learner steps (summed over the games) per second of masked random play."""
    from sb3_contrib.common.maskable.utils import get_action_masks

    rng = np.random.default_rng(seed)
    env.seed(seed)
    env.reset()
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.step(masked_random(get_action_masks(env), rng))
        steps += env.num_envs
    return steps / (time.perf_counter() - start)


class PythonBatched:
    """``agent`` asked through Python in one ``act_batch`` call a step, as the vector envs
    asked a trained policy before the engine played it."""

    def __init__(self, agent: Any) -> None:
        self.agent, self.name = agent, f"{agent.name} (numpy batch)"

    def act(self, view: Any) -> int:
        """The agent's choice in one game."""
        return int(self.agent.act(view))

    def act_batch(self, game: Any, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The agent's choices in many games."""
        return np.asarray(self.agent.act_batch(game, observations, masks))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="duo-regna")
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--threads", type=int, default=1, help="threads of the native batch")
    parser.add_argument("--no-dummy", action="store_true", help="skip DummyVecEnv (slow with a search)")
    args = parser.parse_args()

    from stable_baselines3.common.vec_env import DummyVecEnv

    from regalia.agents import make_agent
    from regalia.envs.gymnasium import RegaliaEnv
    from regalia.envs.sb3 import RegaliaVecEnv

    opponent, envs, threads = args.opponent, args.envs, args.threads
    native = RegaliaVecEnv(args.game, num_envs=envs, opponents=opponent, seed=args.seed, threads=threads)
    fast = steps_per_second(native, args.seconds, args.seed)
    print(f"{args.game}, {envs} envs, masked random steps against {opponent}, {args.seconds:g} s each:")
    print(f"  RegaliaVecEnv (native batch, {threads} thread(s)): {fast:12,.1f} steps/s")
    if opponent != "random":
        agent = make_agent(opponent, args.seed)
        before = PythonBatched(agent) if hasattr(agent, "act_batch") else agent.act
        how = "in one numpy batch" if hasattr(agent, "act_batch") else "view by view"
        viewed = RegaliaVecEnv(args.game, num_envs=envs, opponents=before, seed=args.seed, threads=threads)
        rate = steps_per_second(viewed, args.seconds, args.seed)
        print(f"  the same, opponent {how} through Python: {rate:9,.1f} steps/s")
    if not args.no_dummy:
        dummy = DummyVecEnv([lambda: RegaliaEnv(args.game, opponents=opponent) for _ in range(envs)])
        slow = steps_per_second(dummy, args.seconds, args.seed)
        print(f"  DummyVecEnv of RegaliaEnv:    {slow:12,.1f} steps/s")
        print(f"  ratio: {fast / slow:.1f}x")


if __name__ == "__main__":
    main()
