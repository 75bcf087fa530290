"""Plays an exported policy file against opponents (comma-separated, each in turn) over many
games on the native batch (half the games from each seat of a two-seat game) and prints its
wins and its share of the points (a draw counts half) with the 99% Wilson interval (numpy
only; see docs/learning.md).

    nice -n 10 python benches/evaluate_policy.py docs/learning/duo-regna-orders.npz \\
        --opponent random,first-legal,last-legal --orders 1-100 --games 1000 --seed 2026

The policy plays greedily (the legal action of highest logit), or with ``--sample`` draws its
action from its probabilities. ``--orders FROM-TO`` adds ``fixed-order:order=K`` for each K
in the range, and a last line with the order it did worst against.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from regalia.policy_file import load_policy
from regalia.tournaments import wilson_interval
from train_policy import evaluate, order_range, share


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("policy", type=Path)
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--orders", type=order_range, default=None, help="FROM-TO: fixed orders to play as well")
    parser.add_argument("--games", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--sample", action="store_true", help="draw from the policy's probabilities")
    args = parser.parse_args()
    net = load_policy(args.policy)
    opponents = [o for o in args.opponent.split(",") if o]
    opponents += [f"fixed-order:order={k}" for k in args.orders or []]
    worst: tuple[float, str] | None = None
    play = "sampled" if args.sample else "greedy"
    for opponent in opponents:
        start = time.perf_counter()
        counts = evaluate(net, net.game, opponent, args.games, args.seed, sample=args.sample, **net.options)
        seconds = time.perf_counter() - start
        n = sum(counts.values())
        low, high = wilson_interval(counts["wins"], n, 0.99)
        points = share(counts)
        plow, phigh = wilson_interval(points * n, n, 0.99)
        where = f"{n} games, seed {args.seed} ({seconds:.1f} s)"
        print(f"{args.policy.name} ({play}) on {net.game} against {opponent}, {where}:")
        print(f"  wins {counts['wins']}, draws {counts['draws']}, losses {counts['losses']}")
        print(f"  win rate {counts['wins'] / n:.1%}, 99% interval {low:.1%} to {high:.1%}")
        print(f"  share (a draw one half) {points:.1%}, 99% interval {plow:.1%} to {phigh:.1%}", flush=True)
        if opponent.startswith("fixed-order") and (worst is None or points < worst[0]):
            worst = (points, opponent)
    if worst is not None:
        print(f"worst fixed order: {worst[1]}, share {worst[0]:.1%}")


if __name__ == "__main__":
    main()
