"""Plays an exported policy file against opponents (comma-separated, each in turn) over many
games on the native batch (half the games from each seat of a two-seat game) and prints its
wins and its share of the points (a draw counts half) with the 99% Wilson interval (numpy
only; see docs/learning.md).

    nice -n 10 python benches/evaluate_policy.py docs/learning/duo-regna-orders.npz \\
        --opponent random,first-legal,last-legal --orders 1-100 --games 1000 --seed 2026

The policy plays greedily (the legal action of highest logit), or with ``--sample`` draws its
action from its probabilities. ``--orders FROM-TO`` adds ``fixed-order:order=K`` for each K
in the range, and a last line with the order it did worst against (``--order-games``: fewer
games against each order). ``--exploit`` plays it as ``policy:path=...:exploit=true``, its
game's hand-written exploit first (``regalia.agents.exploits``): the exploit reads views, so
those games go through the match runner one by one (game ``i`` with seed ``seed + i``, the
policy at seat ``i % 2``), far slower than the native batch.

The results pages' tables of these evaluations (learning-random-eval, learning-pool-eval,
learning-equilibrium-eval, learning-pool-orders) are panels of ``benches/strength.py``, which
plays the same evaluations with the arguments they were measured with and writes their data
(``python benches/strength.py learning-pool-eval --write``).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import regalia
from regalia.agents import make_agent
from regalia.core.policy_file import PolicyNet, load_policy
from regalia.matches.match import play
from regalia.matches.tournaments import wilson_interval
from train_policy import evaluate, order_range, share


def evaluate_guarded(path: Path, net: PolicyNet, opponent: str, games: int, seed: int, sample: bool) -> dict[str, int]:
    """Wins, draws and losses of ``policy:path=PATH:exploit=true`` (one agent, seeded with
    ``seed``, over all games) against ``opponent`` over ``games`` matches, game ``i`` played
    with seed ``seed + i`` from seat ``i % 2``."""
    agent = make_agent(f"policy:path={path}:exploit=true:sample={str(sample).lower()}", seed)
    game = regalia.make(net.game, **net.options)
    counts = {"wins": 0, "draws": 0, "losses": 0}
    for i in range(games):
        seat = i % 2
        seats: list[Any] = [opponent, opponent]
        seats[seat] = agent
        returns = play(game, seats, seed=seed + i).returns
        assert returns is not None
        r = returns[seat]
        counts["wins" if r > 0 else "losses" if r < 0 else "draws"] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("policy", type=Path)
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--orders", type=order_range, default=None, help="FROM-TO: fixed orders to play as well")
    parser.add_argument("--games", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--sample", action="store_true", help="draw from the policy's probabilities")
    parser.add_argument("--exploit", action="store_true", help="its game's exploit first (match runner, slow)")
    parser.add_argument("--order-games", type=int, default=None, help="games against each fixed order")
    args = parser.parse_args()
    net = load_policy(args.policy)
    opponents = [o for o in args.opponent.split(",") if o]
    opponents += [f"fixed-order:order={k}" for k in args.orders or []]
    worst: tuple[float, str] | None = None
    how = ("sampled" if args.sample else "greedy") + (", exploit" if args.exploit else "")
    for opponent in opponents:
        start = time.perf_counter()
        games = args.order_games if args.order_games and opponent.startswith("fixed-order") else args.games
        if args.exploit:
            counts = evaluate_guarded(args.policy, net, opponent, games, args.seed, args.sample)
        else:
            counts = evaluate(net, net.game, opponent, games, args.seed, sample=args.sample, **net.options)
        seconds = time.perf_counter() - start
        n = sum(counts.values())
        low, high = wilson_interval(counts["wins"], n, 0.99)
        points = share(counts)
        plow, phigh = wilson_interval(points * n, n, 0.99)
        where = f"{n} games, seed {args.seed} ({seconds:.1f} s)"
        print(f"{args.policy.name} ({how}) on {net.game} against {opponent}, {where}:")
        print(f"  wins {counts['wins']}, draws {counts['draws']}, losses {counts['losses']}")
        print(f"  win rate {counts['wins'] / n:.1%}, 99% interval {low:.1%} to {high:.1%}")
        print(f"  share (a draw one half) {points:.1%}, 99% interval {plow:.1%} to {phigh:.1%}", flush=True)
        if opponent.startswith("fixed-order") and (worst is None or points < worst[0]):
            worst = (points, opponent)
    if worst is not None:
        print(f"worst fixed order: {worst[1]}, share {worst[0]:.1%}")


if __name__ == "__main__":
    main()
