"""Plays an exported policy file greedily against opponents (comma-separated, each in turn)
over many games on the native batch (half the games from each seat of a two-seat game) and
prints its wins with the 99% Wilson interval (numpy only; see docs/learning.md).

    nice -n 10 python benches/evaluate_policy.py docs/learning/duo-regna-mix.npz \\
        --opponent random,first-legal,last-legal --games 1000 --seed 2026
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from regalia.policy_file import load_policy
from regalia.tournaments import wilson_interval
from train_policy import evaluate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("policy", type=Path)
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--games", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    net = load_policy(args.policy)
    for opponent in args.opponent.split(","):
        start = time.perf_counter()
        counts = evaluate(net, net.game, opponent, args.games, args.seed, **net.options)
        seconds = time.perf_counter() - start
        n = sum(counts.values())
        low, high = wilson_interval(counts["wins"], n, 0.99)
        print(f"{args.policy.name} on {net.game} against {opponent}, {n} games, seed {args.seed} ({seconds:.1f} s):")
        print(f"  wins {counts['wins']}, draws {counts['draws']}, losses {counts['losses']}")
        print(f"  win rate {counts['wins'] / n:.1%}, 99% interval {low:.1%} to {high:.1%}", flush=True)


if __name__ == "__main__":
    main()
