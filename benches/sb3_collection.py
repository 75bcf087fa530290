"""Collection speed for SB3, side by side in one run: masked random steps through
``regalia.sb3.RegaliaVecEnv`` (one native call for all games) against SB3's ``DummyVecEnv``
over as many single ``RegaliaEnv`` (one Python step per game), learner against ``--opponent``
(``random`` by default); for another opponent also ``RegaliaVecEnv`` with that opponent
asked view by view through Python instead of in one batch (``pip install "regalia[learn]"``;
see docs/learning.md).

    nice -n 10 python benches/sb3_collection.py --game duo-regna --envs 64 --seconds 10
    nice -n 10 python benches/sb3_collection.py --opponent policy:path=docs/learning/duo-regna-mix.npz
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="duo-regna")
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--opponent", default="random")
    args = parser.parse_args()

    from stable_baselines3.common.vec_env import DummyVecEnv

    from regalia.agents import make_agent
    from regalia.gymnasium import RegaliaEnv
    from regalia.sb3 import RegaliaVecEnv

    opponent = args.opponent
    native = RegaliaVecEnv(args.game, num_envs=args.envs, opponents=opponent, seed=args.seed)
    dummy = DummyVecEnv([lambda: RegaliaEnv(args.game, opponents=opponent) for _ in range(args.envs)])
    fast = steps_per_second(native, args.seconds, args.seed)
    slow = steps_per_second(dummy, args.seconds, args.seed)
    print(f"{args.game}, {args.envs} envs, masked random steps against {opponent}, {args.seconds:g} s each:")
    print(f"  RegaliaVecEnv (native batch): {fast:12,.0f} steps/s")
    if opponent != "random":
        agent = make_agent(opponent, args.seed)
        viewed = RegaliaVecEnv(args.game, num_envs=args.envs, opponents=agent.act, seed=args.seed)
        print(f"  the same, opponent view by view: {steps_per_second(viewed, args.seconds, args.seed):9,.0f} steps/s")
    print(f"  DummyVecEnv of RegaliaEnv:    {slow:12,.0f} steps/s")
    print(f"  ratio: {fast / slow:.1f}x")


if __name__ == "__main__":
    main()
