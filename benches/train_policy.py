"""Trains a policy with sb3-contrib's MaskablePPO on the native batch and records its
learning curve (``pip install "regalia[learn]"``; see docs/learning.md).

    nice -n 10 python benches/train_policy.py --game duo-regna --opponent random \\
        --minutes 40 --seed 0 --out runs/duo-regna-random

Plays both seats (half the games each) on one torch thread against ``--opponent``: one
agent, or a comma-separated pool of them (each game plays one entry, drawn from its seed;
repeat an entry to weigh it). With ``--self-play-from STEPS``, from that many steps on the
pool also holds the last ``--self-play-pool`` exported policies, each playing by sampling
from its probabilities (self-play against past checkpoints, answered in one numpy forward
pass per step for all their games). After every ``--chunk`` steps the actor is exported
(``policy-STEPS.npz``) and played greedily over ``--eval-games`` games natively against each
of ``--eval`` (default: the first opponent); each line of ``curve.jsonl`` holds the steps,
the training seconds (evaluation excluded), the wins, draws and losses against the first of
them and, under ``against``, against each.
"""

from __future__ import annotations

import argparse
import json
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
    parser.add_argument("--opponent", default="random", help="an agent, or a comma-separated pool")
    parser.add_argument("--eval", default=None, help="comma-separated opponents to evaluate against")
    parser.add_argument("--hidden", default="64,64", help="hidden layer sizes of the actor and the critic")
    parser.add_argument("--minutes", type=float, default=40.0, help="training wall-clock budget")
    parser.add_argument("--steps", type=int, default=None, help="stop after this many steps (if sooner)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--chunk", type=int, default=50_000, help="steps between evaluations")
    parser.add_argument("--eval-games", type=int, default=1_000)
    parser.add_argument("--self-play-from", type=int, default=None)
    parser.add_argument("--self-play-pool", type=int, default=5)
    parser.add_argument("--init-policy", type=Path, default=None, help="a policy file to start the actor from")
    parser.add_argument("--learning-rate", type=float, default=3e-4)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()

    import torch
    from sb3_contrib import MaskablePPO

    from regalia.agents.policy import PolicyAgent
    from regalia.sb3 import RegaliaVecEnv, export_policy, load_actor

    torch.set_num_threads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    opponents: list[OpponentSpec] = list(args.opponent.split(","))
    evals = (args.eval or opponents[0]).split(",")
    seats = [i % 2 for i in range(args.envs)]
    env = RegaliaVecEnv(args.game, num_envs=args.envs, seat=seats, seed=args.seed)
    env.set_opponent_pool(opponents)
    hidden = [int(h) for h in args.hidden.split(",")]
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=256,
        batch_size=2048,
        n_epochs=4,
        learning_rate=args.learning_rate,
        gamma=1.0,
        gae_lambda=0.95,
        ent_coef=0.01,
        policy_kwargs={"net_arch": {"pi": hidden, "vf": hidden}},
        seed=args.seed,
        device="cpu",
    )
    curve = (args.out / "curve.jsonl").open("w")
    header = {"game": args.game, "opponent": args.opponent, "eval": evals, "seed": args.seed, "envs": args.envs}
    header |= {"hidden": hidden, "self_play_from": args.self_play_from, "self_play_pool": args.self_play_pool}
    header |= {"init_policy": args.init_policy and args.init_policy.name, "learning_rate": args.learning_rate}
    curve.write(json.dumps({"run": header, "torch": torch.__version__}) + "\n")
    past: list[Any] = []
    if args.init_policy is not None:
        load_actor(model, load_policy(args.init_policy))
        past.append(PolicyAgent(seed=args.seed, path=str(args.init_policy), sample=True))
    trained, steps = 0.0, 0
    while trained < args.minutes * 60 and (args.steps is None or steps < args.steps):
        if args.self_play_from is not None and steps >= args.self_play_from and past:
            env.set_opponent_pool([*opponents, *past[-args.self_play_pool :]])
        start = time.perf_counter()
        model.learn(total_timesteps=args.chunk, reset_num_timesteps=False)
        trained += time.perf_counter() - start
        steps = model.num_timesteps
        path = args.out / f"policy-{steps}.npz"
        export_policy(model, env.batch.game, path)
        net = load_policy(path)
        if args.self_play_from is not None:
            past.append(PolicyAgent(seed=steps, path=str(path), sample=True))
        against = {o: evaluate(net, args.game, o, args.eval_games, seed=10_000 + args.seed) for o in evals}
        row = {"steps": steps, "seconds": round(trained, 1), **against[evals[0]], "against": against}
        curve.write(json.dumps(row) + "\n")
        curve.flush()
        print(row, flush=True)
    model.save(args.out / "model.zip")


if __name__ == "__main__":
    main()
