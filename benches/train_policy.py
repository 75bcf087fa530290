"""Trains a policy with sb3-contrib's MaskablePPO on the native batch and records its
learning curve (``pip install "regalia[learn]"``; see docs/learning.md).

    nice -n 10 python benches/train_policy.py --game duo-regna --opponent random \\
        --minutes 40 --seed 0 --out runs/duo-regna-random

Plays both seats (half the games each) against ``--opponent`` on one torch thread. After
every ``--chunk`` steps the actor is exported (``policy-STEPS.npz``) and played greedily
against the opponent over ``--eval-games`` games natively; each line of ``curve.jsonl``
holds the steps, the training seconds (evaluation excluded), wins, draws and losses. With
``--self-play-from STEPS`` the opponents become, from that many steps on, a pool of the
past exported policies (each game one drawn at random) mixed with ``--opponent``.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

import numpy as np

from regalia.agents.opponents import OpponentSpec
from regalia.policy_file import PolicyNet, load_policy
from regalia.seat_batch import SeatBatch


def greedy(net: PolicyNet, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The legal action of highest logit in each row."""
    logits = np.where(masks, net.logits(observations), -np.inf)
    return np.argmax(logits, axis=1)


def evaluate(
    net: PolicyNet, game: str, opponent: OpponentSpec, games: int, seed: int, **options: Any
) -> dict[str, int]:
    """Wins, draws and losses of ``net`` playing greedily over ``games`` games (half at each
    seat of a two-seat game, seat ``i % players`` in slot ``i``), every slot playing the
    same number of games so that short games are not over-counted."""
    slots = min(games, 250)
    per_slot = -(-games // slots)
    players = int(options.get("players", 2))
    seats = [i % players for i in range(slots)]
    batch = SeatBatch(game, slots, seat=seats, opponents=opponent, seed=seed, threads=1, **options)
    done = np.zeros(slots, dtype=np.int64)
    counts = {"wins": 0, "draws": 0, "losses": 0}
    out = batch.reset()
    while (done < per_slot).any() and sum(counts.values()) < games:
        masks = out.masks | ~out.masks.any(axis=1, keepdims=True)
        out = batch.step(greedy(net, out.observations, masks))
        for i in np.flatnonzero(out.terminated):
            if done[i] < per_slot and sum(counts.values()) < games:
                r = out.rewards[i]
                counts["wins" if r > 0 else "losses" if r < 0 else "draws"] += 1
            done[i] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="duo-regna")
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--minutes", type=float, default=40.0, help="training wall-clock budget")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--chunk", type=int, default=50_000, help="steps between evaluations")
    parser.add_argument("--eval-games", type=int, default=1_000)
    parser.add_argument("--self-play-from", type=int, default=None)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()

    import torch
    from sb3_contrib import MaskablePPO

    from regalia.sb3 import RegaliaVecEnv, export_policy

    torch.set_num_threads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    seats = [i % 2 for i in range(args.envs)]
    env = RegaliaVecEnv(args.game, num_envs=args.envs, seat=seats, opponents=args.opponent, seed=args.seed)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=256,
        batch_size=2048,
        n_epochs=4,
        learning_rate=3e-4,
        gamma=1.0,
        gae_lambda=0.95,
        ent_coef=0.01,
        seed=args.seed,
        device="cpu",
    )
    curve = (args.out / "curve.jsonl").open("w")
    header = {"game": args.game, "opponent": args.opponent, "seed": args.seed, "envs": args.envs}
    curve.write(json.dumps({"run": header, "torch": torch.__version__}) + "\n")
    pool: list[Any] = []
    trained, steps = 0.0, 0
    while trained < args.minutes * 60:
        if args.self_play_from is not None and steps >= args.self_play_from and pool:
            env.set_opponents(random.Random(steps).choice([*pool[-5:], args.opponent]))
        start = time.perf_counter()
        model.learn(total_timesteps=args.chunk, reset_num_timesteps=False)
        trained += time.perf_counter() - start
        steps = model.num_timesteps
        path = args.out / f"policy-{steps}.npz"
        export_policy(model, env.batch.game, path)
        net = load_policy(path)
        if args.self_play_from is not None:
            from regalia.agents.policy import PolicyAgent

            pool.append(PolicyAgent(path=str(path)))
        counts = evaluate(net, args.game, args.opponent, args.eval_games, seed=10_000 + args.seed)
        row = {"steps": steps, "seconds": round(trained, 1), **counts}
        curve.write(json.dumps(row) + "\n")
        curve.flush()
        print(row, flush=True)
    model.save(args.out / "model.zip")


if __name__ == "__main__":
    main()
