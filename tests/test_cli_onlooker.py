"""An onlooker told the game from one seat (``watch``, ``replay --view``) is shown only what
that seat knows: at steps of random games of every game and player count, the move's line,
the board before it, what the table says of it and (at the end) the ending are the same in
the true game and in a ``determinize(seat)`` world with a move the seat cannot tell apart
(the worlds and moves of ``tests/test_table_leaks.py``). The move and the boards are what
``regalia.table.Replay`` hands an onlooker (``onlooker_move``, ``onlooker_frame``)."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest

import regalia
from regalia.cli.show import Narrator
from regalia.table.replay import onlooker_frame, onlooker_move
from tests.table_helpers import text_screen
from tests.test_table_leaks import CONFIGS, matching_world, positions


def told(start: Any, action: int, seat: int, agents: list[str]) -> str:
    """What an onlooker told from ``seat`` sees of ``action`` played at ``start``: the board
    and the move's line, then what the table says of it and the board after it."""
    screen = text_screen()
    narrator = Narrator(screen, agents, view=seat)
    state = start.clone()
    game = state.game_name
    narrator.move(game, onlooker_frame(state, seat), onlooker_move(state, action, seat, 1))
    state.apply(action)
    narrator.final(game, onlooker_frame(state, seat, 1))
    out = screen.out.file
    assert isinstance(out, io.StringIO)
    return out.getvalue()


@pytest.mark.parametrize("config", CONFIGS, ids=[f"{name}-{n}p" for name, n in CONFIGS])
def test_an_onlooker_told_from_one_seat_sees_only_what_it_knows(config: tuple[str, int]) -> None:
    name, players = config
    game = regalia.make(name, players=players)
    agents = ["random"] * players
    rnd = random.Random(f"cli-onlooker {config}")
    compared = 0
    for state, action in positions(game, rnd):
        seat = rnd.randrange(players)
        found = matching_world(state, action, seat, rnd)
        if found is not None:
            world, other = found
            assert told(state, action, seat, agents) == told(world, other, seat, agents), f"seat {seat} can tell"
            compared += 1
    assert compared >= 5, compared
