"""Everything the table hands a seat comes from that seat's view. At every step of random
games of every game and player count, a table at the true state and a table at a
``determinize(seat)`` world, each playing a move the seat cannot tell apart (its
observation after the move is the same and the move is announced the same), hand the seat
the same: the introduction, the news of the move and its log event, its view and moves
at its turn (and the terminal's drawing of them), and the ending. (Worlds are drawn again
until the cards the move reveals are the same as in the truth: a world is a deal the seat
cannot tell from the truth so far, not in the future.)"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import regalia
from regalia.table import narrate
from tests.table_helpers import shown, step, table

#: Games per configuration, moves checked in each, moves skipped at most between two
#: checks (to reach late positions), and worlds tried per check.
STARTS = 2
MOVES = 25
SKIP = 8
TRIES = 60


def same_public_move(truth: Any, world: Any, action: int, seat: int) -> int | None:
    """A move of ``world`` that ``seat`` cannot tell from ``action`` in ``truth``, another
    one than ``action`` where there is one."""
    after = truth.clone()
    after.apply(action)
    seen = after.observation(seat)
    said = narrate.public(truth.game_name, truth.action_name(action))
    legal = world.legal_actions()
    for other in sorted(legal, key=lambda a: a == action):  # another move first: a leak shows
        if truth.current_player == seat and other != action:
            continue
        candidate = world.clone()
        candidate.apply(other)
        if candidate.observation(seat) == seen and narrate.public(world.game_name, world.action_name(other)) == said:
            return other
    return None


def matching_world(truth: Any, action: int, seat: int, rnd: random.Random) -> tuple[Any, int] | None:
    """A world for ``seat`` and a move in it that ``seat`` cannot tell from ``action`` in
    ``truth`` (None when no world of a few tries has one)."""
    for _ in range(TRIES):
        world = truth.determinize(seat, rnd.getrandbits(64))
        other = same_public_move(truth, world, action, seat)
        if other is not None:
            return world, other
    return None


def positions(game: Any, rnd: random.Random, starts: int = STARTS, moves: int = MOVES) -> Iterator[tuple[Any, int]]:
    """Positions along ``starts`` random games and the move played at each: ``moves`` checked
    per game, up to ``SKIP`` moves passed over between two (to reach late positions)."""
    for start in range(starts):
        state = game.new_state(start)
        for _ in range(moves):
            if state.is_terminal:
                break
            action = rnd.choice(state.legal_actions())
            yield state, action
            state.apply(action)
            for _ in range(rnd.randrange(SKIP)):
                if not state.is_terminal:
                    state.apply(rnd.choice(state.legal_actions()))


CONFIGS = sorted({(g["name"], n) for g in regalia.games() for n in (g["min_players"], g["max_players"])})


@pytest.mark.parametrize("config", CONFIGS, ids=[f"{name}-{n}p" for name, n in CONFIGS])
def test_a_seat_is_shown_the_same_in_every_world_it_cannot_tell_apart(config: tuple[str, int]) -> None:
    name, players = config
    game = regalia.make(name, players=players)
    rnd = random.Random(f"cli-leak {config}")
    compared = skipped = 0
    for state, action in positions(game, rnd):
        for seat in range(players):
            found = matching_world(state, action, seat, rnd)
            if found is None:
                skipped += 1
                continue
            world, other = found
            truth_table, world_table = table(game, seat, state), table(game, seat, world)
            assert truth_table.introduction(seat) == world_table.introduction(seat)
            if state.current_player == seat:
                assert shown(truth_table, seat) == shown(world_table, seat), f"seat {seat} can tell"
            step(truth_table, action)
            step(world_table, other)
            assert truth_table.take_news(seat) == world_table.take_news(seat), f"seat {seat} can tell"
            assert truth_table.log(seat) == world_table.log(seat), f"seat {seat} can tell"
            if truth_table.is_over:
                assert truth_table.ending(seat) == world_table.ending(seat), f"seat {seat} can tell"
            compared += 1
    assert compared >= 10 and compared > 2 * skipped, (compared, skipped)
