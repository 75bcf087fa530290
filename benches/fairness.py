"""Seat fairness: how often each seat wins when the rule-based player sits in every seat.

    python benches/fairness.py                    # every game and player count, 300 games each
    python benches/fairness.py --games 100 regnum # fewer games, some games only

Each configuration plays ``--games`` games from seeds 0, 1, 2, ... (the same games on every
run) and prints a Markdown table: each seat's share of the wins (a win shared by ``k`` seats
counts ``1/k`` to each) and the share of games nobody won, with a 99% Wilson interval's
half-width for a seat's share. The tables in docs/fairness.md come from this script.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from typing import Any

import regalia

#: The configurations measured besides every game's defaults: Regnum's other ending.
EXTRA: dict[str, list[dict[str, Any]]] = {"regnum": [{"final_round": "one_each"}]}


def wilson_half_width(wins: float, games: int, z: float = 2.576) -> float:
    """Half the width of the 99% Wilson interval of ``wins`` out of ``games``."""
    if games == 0:
        return 0.0
    p = wins / games
    return z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)


def seat_shares(name: str, players: int, games: int, options: dict[str, Any]) -> tuple[list[float], float]:
    """Each seat's wins and the games nobody won, out of ``games`` rule-based games."""
    game = regalia.make(name, players=players, **options)
    wins = [0.0] * players
    nobody = 0.0
    for seed in range(games):
        record = regalia.play(game, ["rules"] * players, seed=seed)
        best = max(record.returns)
        winners = [s for s, r in enumerate(record.returns) if r == best]
        if len(winners) == players:
            nobody += 1
            continue
        for s in winners:
            wins[s] += 1 / len(winners)
    return wins, nobody


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="games to measure (default: all)")
    parser.add_argument("--games", type=int, default=300, help="games per configuration")
    args = parser.parse_args(argv)
    listed = [g for g in regalia.games() if not args.names or g["name"] in args.names]
    width = max(g["max_players"] for g in listed)
    print("| game | options | players | " + " | ".join(f"seat {i}" for i in range(width)) + " | nobody | ± (99%) |")
    print("|---|---|---|" + "---|" * width + "---|---|")
    for g in listed:
        for options in [{}, *EXTRA.get(g["name"], [])]:
            for n in range(g["min_players"], g["max_players"] + 1):
                start = time.perf_counter()
                wins, nobody = seat_shares(g["name"], n, args.games, options)
                cells = [f"{100 * w / args.games:.0f}%" for w in wins] + ["–"] * (width - n)
                shown = ", ".join(f"{k}={v}" for k, v in options.items()) or "defaults"
                half = max(wilson_half_width(w, args.games) for w in wins)
                row = f"| {g['name']} | {shown} | {n} | " + " | ".join(cells)
                print(f"{row} | {100 * nobody / args.games:.0f}% | {100 * half:.0f} |", flush=True)
                print(f"  ({time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
