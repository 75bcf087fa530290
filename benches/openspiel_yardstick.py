"""``best`` against OpenSpiel's own information-set search (``ISMCTSBot``), the field's yardstick.

    python benches/openspiel_yardstick.py                       # every game, 20 games, 0.1 s a move
    python benches/openspiel_yardstick.py --games 40 --time 0.2 duo regine
    python benches/openspiel_yardstick.py --games 20 --time 0.1 --write   # and write the table's data

Two players. OpenSpiel's ``ISMCTSBot`` (Python, ``open_spiel.python.algorithms.ismcts``, with
random rollouts, ``uct_c=2``, keyed by the information-state string: its defaults) plays each game
through ``regalia.envs.openspiel``; ``best`` gets ``time_limit=TIME`` seconds a move (where ``best`` is
an exact solver, it takes what it takes). The bot has no time limit of its own, only a number of
simulations, so it is given as many as its measured speed fits into the same time (at least two,
so where one simulation takes longer than the budget it gets more time than ``best``): the count
is recalibrated after each of its moves from its running simulations per second. The two take turns
in one process, so both see the same machine load. OpenSpiel's ``evaluate_bots`` cannot restart the
bot, so a plain loop plays the games; seats alternate. The table gives ``best``'s share of wins
(a draw counts one half) with its 99% Wilson interval and both players' mean time per move.
``--write [DIR]`` also writes the table's data file, openspiel-yardstick
(``benches/results_data.py``; DIR defaults to docs/results/data), from which ``python
benches/docs_tables.py`` rewrites docs/results/strength.md's table.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

import regalia
import regalia.envs.openspiel as rs
from regalia.agents import make_agent
from regalia.agents.base import call_hook
from regalia.core.seeds import derive_seed
from regalia.core.view import view_of
from regalia.matches.tournaments import wilson_interval

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results_data import Provenance, add_write_option, write  # noqa: E402

GAMES = ["duo-regna", "duell-der-drachen", "duo", "regine", "regnum"]
#: The games as the table names them.
TITLES = {
    "duo-regna": "Duo Regna",
    "duell-der-drachen": "Duell der Drachen",
    "duo": "Duo",
    "regine": "Regine",
    "regnum": "Regnum",
}
#: Fewest simulations the bot runs: with one, its root has no visits and it cannot choose.
MIN_SIMULATIONS = 2


@dataclass
class Clock:
    """Moves and seconds spent by one player."""

    moves: int = 0
    seconds: float = 0.0

    def mean(self) -> float:
        """Mean seconds a move."""
        return self.seconds / self.moves if self.moves else 0.0


@dataclass
class TimedBot:
    """``ISMCTSBot`` given as many simulations as fit ``budget`` seconds at its measured speed."""

    game: Any
    budget: float
    seed: int
    simulations: int = 8
    rate: list[float] = field(default_factory=lambda: [0.0, 0.0])  # simulations, seconds
    clock: Clock = field(default_factory=Clock)

    def step(self, state: Any) -> int:
        """The bot's move in ``state`` (a pyspiel state), recalibrating its simulation count."""
        bot = ismcts.ISMCTSBot(
            self.game,
            mcts.RandomRolloutEvaluator(1, np.random.RandomState(self.seed % 2**32)),
            uct_c=2.0,
            max_simulations=self.simulations,
            random_state=np.random.RandomState(self.seed % 2**32),
        )
        self.seed = derive_seed(self.seed, 1)
        start = time.perf_counter()
        action = int(bot.step(state))
        spent = time.perf_counter() - start
        self.clock.moves += 1
        self.clock.seconds += spent
        if len(state.legal_actions()) > 1:  # a forced move runs no simulation
            self.rate[0] += self.simulations
            self.rate[1] += spent
            self.simulations = max(MIN_SIMULATIONS, int(self.rate[0] / self.rate[1] * self.budget))
        return action


def play_one(name: str, budget: float, seed: int, best_seat: int, bot: TimedBot, best_clock: Clock) -> float:
    """One game; ``best``'s score (1 win, 0.5 draw, 0 loss)."""
    game = rs.load(rs.game_name(name), {"players": 2, "rng_seed": seed})
    state = game.new_initial_state()
    options = regalia.make(name, players=2).options
    best = make_agent("best", seed=derive_seed(seed, 7), time_limit=budget)
    call_hook(best, "game_start", view_of(state.inner, best_seat, name, options, derive_seed(seed, 11)))
    ply = 0
    while not state.is_terminal():
        if state.current_player() == best_seat:
            view = view_of(state.inner, best_seat, name, options, derive_seed(seed, 1000 + ply))
            start = time.perf_counter()
            action = best.act(view)
            best_clock.seconds += time.perf_counter() - start
            best_clock.moves += 1
        else:
            action = bot.step(state)
        state.apply_action(action)
        ply += 1
    returns = state.returns()
    call_hook(best, "game_end", view_of(state.inner, best_seat, name, options, derive_seed(seed, 12)), returns)
    mine, theirs = returns[best_seat], returns[1 - best_seat]
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def main(argv: list[str] | None = None) -> int:
    """Play the games and print the Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=GAMES, help="games to play (default: all five)")
    parser.add_argument("--games", dest="count", type=int, default=20, help="games per game (seats alternate)")
    parser.add_argument("--time", type=float, default=0.1, help="seconds a move for both players")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    add_write_option(parser)
    args = parser.parse_args(argv)
    provenance = Provenance(None if argv is None else [__file__, *argv])
    rows: list[list[str]] = []
    print(f"best against OpenSpiel ISMCTSBot, 2 players, {args.time} s a move, seed {args.seed}\n")
    print("| game | games | best's score | 99% interval | best s/move | ISMCTSBot s/move | bot simulations/move |")
    print("|---|---|---|---|---|---|---|")
    for name in args.games:
        game = rs.load(rs.game_name(name), {"players": 2})
        bot = TimedBot(game, args.time, derive_seed(args.seed, 3))
        best_clock = Clock()
        score = 0.0
        for i in range(args.count):
            score += play_one(name, args.time, args.seed + i, i % 2, bot, best_clock)
            print(f"  {name}: {i + 1} games, best {score}", file=sys.stderr, flush=True)
        low, high = wilson_interval(score, args.count, 0.99)
        print(
            f"| {name} | {args.count} | {score:g} ({score / args.count:.2f}) | {low:.2f}–{high:.2f} "
            f"| {best_clock.mean():.3f} | {bot.clock.mean():.3f} | {bot.simulations} |",
            flush=True,
        )
        rows.append(
            [
                TITLES.get(name, name),
                str(args.count),
                f"{score:g} ({score / args.count:.2f})",
                f"{low:.2f}–{high:.2f}",
                f"{best_clock.mean():.3f}",
                f"{bot.clock.mean():.3f}",
                str(bot.simulations),
            ]
        )
    if args.write is not None:
        header = ["game", "games", "`best`'s share", "99% interval", "`best` s a move", "bot s a move"]
        write(args.write, "openspiel-yardstick", [*header, "bot simulations a move"], rows, provenance)
    return 0


if __name__ == "__main__":
    sys.exit(main())
