"""Every byte a seat's page receives comes from that seat's view: at random steps of every
game and player count, a table at the true state and one at a world the seat cannot tell
from it (``tests/test_table_leaks.py`` draws them) send the seat the same payload (picture,
moves, log, introduction, ending) and, served over HTTP, the same JSON and the same page."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason='the web table needs the web extra (pip install "regalia[web]")')

from fastapi.testclient import TestClient  # noqa: E402

import regalia  # noqa: E402
from regalia.web import create_app  # noqa: E402
from regalia.web.payload import seat_payload  # noqa: E402
from tests.table_helpers import step, table  # noqa: E402
from tests.test_table_leaks import CONFIGS, matching_world, positions  # noqa: E402

#: Games per configuration and moves checked in each.
STARTS = 1
MOVES = 12


@pytest.mark.parametrize("config", CONFIGS, ids=[f"{name}-{n}p" for name, n in CONFIGS])
def test_a_seats_payload_is_the_same_in_every_world_it_cannot_tell_apart(config: tuple[str, int]) -> None:
    name, players = config
    game = regalia.make(name, players=players)
    rnd = random.Random(f"web-leak {config}")
    compared = 0
    for state, action in positions(game, rnd, STARTS, MOVES):
        seat = rnd.randrange(players)
        found = matching_world(state, action, seat, rnd)
        if found is not None:
            world, other = found
            truth_table, world_table = table(game, seat, state), table(game, seat, world)
            assert seat_payload(truth_table, seat, 0) == seat_payload(world_table, seat, 0), f"seat {seat} can tell"
            step(truth_table, action)
            step(world_table, other)
            assert seat_payload(truth_table, seat, 1) == seat_payload(world_table, seat, 1), f"seat {seat} can tell"
            compared += 1
    assert compared >= 3


def served(tmp_path: Path, t: Any, seat: int) -> tuple[bytes, str]:
    """What a server holding table ``t`` sends ``seat``'s link: the JSON and the page (its
    own token taken out)."""
    app = create_app(tmp_path / f"{id(t)}.sqlite3", pace=3600, key="k" * 20)
    with TestClient(app) as client:
        _, links = app.state.tables.adopt(t, [seat])
        tok = links[seat]
        return client.get(f"/api/t/{tok}").content, client.get(f"/t/{tok}").text.replace(tok, "TOKEN")


@pytest.mark.parametrize("name", ["duo-regna", "duell-der-drachen", "duo", "regine", "regnum"])
def test_a_seats_responses_are_byte_for_byte_the_same_across_worlds(tmp_path: Path, name: str) -> None:
    game = regalia.make(name)
    rnd = random.Random(f"web-bytes {name}")
    state = game.new_state(3)
    for _ in range(6):
        state.apply(rnd.choice(state.legal_actions()))
    seat = 0
    for _ in range(50):
        action = rnd.choice(state.legal_actions())
        found = matching_world(state, action, seat, rnd)
        if found is not None:
            break
        state.apply(action)
    assert found is not None
    world, other = found
    truth_table, world_table = table(game, seat, state), table(game, seat, world)
    step(truth_table, action)
    step(world_table, other)
    assert served(tmp_path, truth_table, seat) == served(tmp_path, world_table, seat)
