"""A table whose chance comes from the operating system (the web's unseeded tables) tells a
seat a move and the draws after it as one event, made from that seat's observations only: at
random decisions of every game made with explicit chance, a table at the true state and one
at a world the seat cannot tell from it, each playing a move the seat cannot tell apart (the
truth drawing what follows from the system, the world other cards where it can, else the
same ones), tell the
seat the same news and log whenever what the seat then sees is the same (when it differs, the
draw showed the seat different cards, as it may)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import regalia
from regalia.table import HUMAN, Table
from tests.table_helpers import Scripted, step
from tests.test_table_leaks import matching_world, positions


class Following:
    """Chance outcomes following ``drawn`` (the truth's): the same ones where the world has
    them (``same``), else others where it has others."""

    def __init__(self, drawn: list[int], same: bool) -> None:
        self.drawn, self.same = drawn, same

    def draw(self, outcomes: list[tuple[int, float]]) -> int:
        truth = self.drawn.pop(0) if self.drawn else -1
        possible = [o for o, _ in outcomes]
        if self.same:
            return truth if truth in possible else possible[0]
        return next((o for o in possible if o != truth), possible[0])

    def skip(self, outcomes: list[tuple[int, float]]) -> None:
        """Nothing to keep in step."""


def system_table(game: Any, seat: int, start: Any) -> Table:
    """A table at ``start`` drawing its chance from the system, a person at ``seat``."""
    seats: list[Any] = [HUMAN if k == seat else Scripted() for k in range(game.num_players)]
    return Table(game, seats, 0, start=start, ask_forced=True, chance_from="system")


@pytest.mark.parametrize("name", ["duo-regna", "duo", "duell-der-drachen", "regine", "regnum"])
def test_a_move_and_its_draws_are_told_from_the_seats_view(name: str) -> None:
    game = regalia.make(name, chance="explicit")
    rnd = random.Random(f"chance-leak {name}")
    compared = 0
    for state, action in positions(game, rnd, 3, 30):
        if state.is_chance_node:
            continue
        seat = rnd.randrange(game.num_players)
        found = matching_world(state, action, seat, rnd)
        if found is None:
            continue
        world, other = found
        truth_table = system_table(game, seat, state)
        step(truth_table, action)
        for same in (False, True):  # other cards drawn first: a hidden draw told would show
            world_table = system_table(game, seat, world)
            world_table._chance = Following(truth_table.actions[1:], same)
            step(world_table, other)
            if truth_table.observation(seat) == world_table.observation(seat):
                break
        else:
            continue  # the draws showed the seat different cards
        assert truth_table.take_news(seat) == world_table.take_news(seat), f"seat {seat} can tell"
        assert truth_table.log(seat) == world_table.log(seat), f"seat {seat} can tell"
        compared += 1
    assert compared >= 10, compared
