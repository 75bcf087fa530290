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

With ``--orders FROM-TO`` the pool also holds the fixed orders ``fixed-order:order=K`` for K
from FROM to TO, weighed together as ``--orders-weight`` entries (each game that draws them
meets one order, drawn from its seed); ``--self-play-weight`` weighs each past policy the
same way. ``--eval-orders FROM-TO`` plays each of those orders (keep them out of the
training range: held out) over ``--eval-order-games`` games and records, under ``against``,
their sum (``orders FROM-TO``) and the one the policy did worst against (``worst order``,
with its ``order``).

A policy that sees no more than the hand in play cannot tell one fixed order from another,
so a pool of many orders teaches it about as much as ``random`` does. ``--mine-orders
FROM-TO`` trains against the orders it does worst against instead: after every chunk the
export plays ``--mine-games`` games greedily against each of ``--mine-sample`` orders drawn
from the range and each order kept so far, and the ``--mine-keep`` worst stay in the pool,
weighed together as ``--mine-weight`` entries (recorded under ``mined``). With ``--sample``
the evaluations and the mining play the export by sampling from its probabilities instead.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from regalia.agents.fixed import FixedOrder
from regalia.agents.opponents import OpponentSpec
from regalia.core.policy_file import PolicyNet, load_policy
from regalia.envs.seat_batch import SeatBatch


def greedy(net: PolicyNet, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The legal action of highest logit in each row."""
    logits = np.where(masks, net.logits(observations), -np.inf)
    return np.argmax(logits, axis=1)


def sampled(net: PolicyNet, observations: np.ndarray, masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A legal action of each row drawn in proportion to the policy's probabilities."""
    logits = np.where(masks, net.logits(observations), -np.inf)
    weights = np.exp(logits - logits.max(axis=1, keepdims=True))
    cumulative = np.cumsum(weights / weights.sum(axis=1, keepdims=True), axis=1)
    drawn = (cumulative <= rng.random((len(logits), 1))).sum(axis=1)
    # A draw beyond the rounded total takes the most probable action.
    return np.where(drawn < masks.shape[1], drawn, np.argmax(logits, axis=1))


def evaluate(
    net: PolicyNet,
    game: str,
    opponent: OpponentSpec,
    games: int,
    seed: int,
    sample: bool = False,
    **options: Any,
) -> dict[str, int]:
    """Wins, draws and losses of ``net`` playing greedily (or with ``sample`` drawing from its
    probabilities, from a generator of ``seed``) over ``games`` games (half at each seat of
    a two-seat game, seat ``i % players`` in slot ``i``), every slot playing the same number
    of games so that short games are not over-counted."""
    rng = np.random.default_rng(seed)
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
        chosen = sampled(net, out.observations, masks, rng) if sample else greedy(net, out.observations, masks)
        out = batch.step(chosen)
        for i in np.flatnonzero(out.terminated):
            if done[i] < per_slot and sum(counts.values()) < games:
                r = out.rewards[i]
                counts["wins" if r > 0 else "losses" if r < 0 else "draws"] += 1
            done[i] += 1
    return counts


def order_range(text: str) -> range:
    """The orders ``FROM-TO`` (both included)."""
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def weighed_pool(groups: list[tuple[list[OpponentSpec], int]]) -> list[OpponentSpec]:
    """A pool in which each group of opponents carries its weight, shared equally by its
    members: every member repeated in proportion (the pool draws its entries uniformly)."""
    sizes = [len(members) for members, _ in groups]
    scale = int(np.lcm.reduce(sizes))
    return [m for members, weight in groups for m in members for _ in range(weight * scale // len(members))]


def share(counts: dict[str, int]) -> float:
    """Points per game: a win 1, a draw one half."""
    return (counts["wins"] + counts["draws"] / 2) / max(1, sum(counts.values()))


def evaluate_orders(
    net: PolicyNet, game: str, orders: range, games: int, seed: int, sample: bool = False
) -> dict[str, Any]:
    """The summed counts against each of ``orders``, and the counts and order of the worst."""
    per = {k: evaluate(net, game, FixedOrder(order=k), games, seed, sample) for k in orders}
    worst = min(per, key=lambda k: share(per[k]))
    total = {key: sum(c[key] for c in per.values()) for key in ("wins", "draws", "losses")}
    name = f"orders {orders.start}-{orders.stop - 1}"
    return {name: total, "worst order": {**per[worst], "order": worst}}


def mine_orders(
    net: PolicyNet, game: str, candidates: list[int], games: int, keep: int, seed: int, sample: bool = False
) -> list[tuple[int, float]]:
    """The ``keep`` orders among ``candidates`` that ``net`` does worst against, with its share."""
    tried = dict.fromkeys(candidates)
    shares = {k: share(evaluate(net, game, FixedOrder(order=k), games, seed, sample)) for k in tried}
    return sorted(shares.items(), key=lambda item: item[1])[:keep]


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
    parser.add_argument("--orders", type=order_range, default=None, help="FROM-TO: fixed orders in the pool")
    parser.add_argument("--orders-weight", type=int, default=1, help="pool entries the orders weigh together")
    parser.add_argument("--self-play-weight", type=int, default=1, help="pool entries each past policy weighs")
    parser.add_argument("--eval-orders", type=order_range, default=None, help="FROM-TO: held-out orders to evaluate")
    parser.add_argument("--eval-order-games", type=int, default=200)
    parser.add_argument("--mine-orders", type=order_range, default=None, help="FROM-TO: orders to mine")
    parser.add_argument("--mine-sample", type=int, default=64, help="orders drawn to try after each chunk")
    parser.add_argument("--mine-games", type=int, default=40, help="games against each tried order")
    parser.add_argument("--mine-keep", type=int, default=8, help="worst orders kept in the pool")
    parser.add_argument("--mine-weight", type=int, default=4, help="pool entries the kept orders weigh together")
    parser.add_argument("--init-policy", type=Path, default=None, help="a policy file to start the actor from")
    parser.add_argument("--learning-rate", type=float, default=3e-4)
    parser.add_argument("--ent-coef", type=float, default=0.01, help="MaskablePPO's entropy bonus")
    parser.add_argument("--sample", action="store_true", help="evaluate and mine with sampled, not greedy, play")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()

    import torch
    from sb3_contrib import MaskablePPO

    from regalia.agents.policy import PolicyAgent
    from regalia.envs.sb3 import RegaliaVecEnv, export_policy, load_actor

    torch.set_num_threads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    opponents: list[OpponentSpec] = list(args.opponent.split(","))
    evals = (args.eval or opponents[0]).split(",")
    seats = [i % 2 for i in range(args.envs)]
    env = RegaliaVecEnv(args.game, num_envs=args.envs, seat=seats, seed=args.seed)
    groups: list[tuple[list[OpponentSpec], int]] = [([o], 1) for o in opponents]
    if args.orders is not None:
        groups.append(([FixedOrder(order=k) for k in args.orders], args.orders_weight))
    env.set_opponent_pool(weighed_pool(groups))
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
        ent_coef=args.ent_coef,
        policy_kwargs={"net_arch": {"pi": hidden, "vf": hidden}},
        seed=args.seed,
        device="cpu",
    )
    curve = (args.out / "curve.jsonl").open("w")
    header = {"game": args.game, "opponent": args.opponent, "eval": evals, "seed": args.seed, "envs": args.envs}
    header |= {"hidden": hidden, "self_play_from": args.self_play_from, "self_play_pool": args.self_play_pool}
    header |= {"init_policy": args.init_policy and args.init_policy.name, "learning_rate": args.learning_rate}
    header |= {"self_play_weight": args.self_play_weight, "ent_coef": args.ent_coef, "sample": args.sample}
    if args.orders is not None:
        header |= {"orders": [args.orders.start, args.orders.stop - 1], "orders_weight": args.orders_weight}
    if args.eval_orders is not None:
        header |= {"eval_orders": [args.eval_orders.start, args.eval_orders.stop - 1]}
    if args.mine_orders is not None:
        header |= {"mine_orders": [args.mine_orders.start, args.mine_orders.stop - 1], "mine_weight": args.mine_weight}
        header |= {"mine_sample": args.mine_sample, "mine_games": args.mine_games, "mine_keep": args.mine_keep}
    rng = np.random.default_rng(args.seed)
    mined: list[tuple[int, float]] = []
    curve.write(json.dumps({"run": header, "torch": torch.__version__}) + "\n")
    past: list[Any] = []
    if args.init_policy is not None:
        load_actor(model, load_policy(args.init_policy))
        past.append(PolicyAgent(seed=args.seed, path=str(args.init_policy), sample=True))
    trained, steps = 0.0, 0
    while trained < args.minutes * 60 and (args.steps is None or steps < args.steps):
        pool = list(groups)
        if args.self_play_from is not None and steps >= args.self_play_from and past:
            pool += [([p], args.self_play_weight) for p in past[-args.self_play_pool :]]
        if mined:
            pool.append(([FixedOrder(order=k) for k, _ in mined], args.mine_weight))
        env.set_opponent_pool(weighed_pool(pool))
        start = time.perf_counter()
        model.learn(total_timesteps=args.chunk, reset_num_timesteps=False)
        trained += time.perf_counter() - start
        steps = model.num_timesteps
        path = args.out / f"policy-{steps}.npz"
        export_policy(model, env.batch.game, path)
        net = load_policy(path)
        if args.self_play_from is not None:
            past.append(PolicyAgent(seed=steps, path=str(path), sample=True))
        seed = 10_000 + args.seed
        against = {o: evaluate(net, args.game, o, args.eval_games, seed, args.sample) for o in evals}
        if args.eval_orders is not None:
            against |= evaluate_orders(net, args.game, args.eval_orders, args.eval_order_games, seed, args.sample)
        row = {"steps": steps, "seconds": round(trained, 1), **against[evals[0]], "against": against}
        if args.mine_orders is not None:
            drawn = rng.integers(args.mine_orders.start, args.mine_orders.stop, args.mine_sample).tolist()
            tried = [k for k, _ in mined] + drawn
            mined = mine_orders(net, args.game, tried, args.mine_games, args.mine_keep, steps, args.sample)
            row["mined"] = [[k, round(v, 3)] for k, v in mined]
        curve.write(json.dumps(row) + "\n")
        curve.flush()
        print(row, flush=True)
    model.save(args.out / "model.zip")


if __name__ == "__main__":
    main()
