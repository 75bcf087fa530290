"""Belief-weighted ISMCTS against plain determinization: a gauntlet in a game made with
explicit chance (which a belief needs), against the opponents given.

    python benches/belief_strength.py duo --agent ismcts:iterations=500:belief=rollout \\
        --opponent ismcts:iterations=500 --opponent rules --games 100 --seed 33 -o rounds=1

Prints the gauntlet's table: the agent's share of the points against each opponent with its
99% Wilson interval, its share from each seat, and its time per decision. With more than two
players the agent sits with copies of the opponent. The table of docs/results/search.md
(search-belief) gathers such gauntlets, belief and plain on the same deals: ``python
benches/strength.py search-belief --write`` reruns them all and writes its data.
"""

from __future__ import annotations

import argparse
import json
import time

import regalia
from regalia.matches.gauntlet import gauntlet


def option_value(text: str) -> object:
    """A game option's value as JSON if it reads as JSON, else the text."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def main() -> None:
    """Runs the gauntlet the command line describes and prints its table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--agent", required=True)
    parser.add_argument("--opponent", action="append", required=True)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("-o", "--option", action="append", default=[], help="a game option, KEY=VALUE")
    args = parser.parse_args()
    options = {k: option_value(v) for k, _, v in (o.partition("=") for o in args.option)}
    game = regalia.make(args.game, players=args.players, chance="explicit", **options)
    start = time.perf_counter()
    result = gauntlet(game, args.agent, games=args.games, seed=args.seed, opponents=args.opponent, workers=args.workers)
    print(result)
    print(f"options {game.options}; {time.perf_counter() - start:.0f} s in all")


if __name__ == "__main__":
    main()
