"""A web table started without a seed deals from the operating system's generator, one card
at a time as it happens (explicit chance): no seed exists for a seat to search. Its draws
come from ``secrets.SystemRandom``, no two of 10,000 such tables deal alike, a table with a
seed still plays the same game every time, a restart replays an unseeded table exactly, undo
never draws a card again, and no payload holds the table's secret seed."""

from __future__ import annotations

import json
import random
import secrets
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason='the web table needs the web extra (pip install "regalia[web]")')

from fastapi.testclient import TestClient  # noqa: E402

from regalia.table import HUMAN, Refused, Table  # noqa: E402
from regalia.table.secret import SystemDraws  # noqa: E402
from regalia.web import create_app  # noqa: E402
from regalia.web.tables import _game  # noqa: E402
from tests.web_helpers import KEY, my_turn, token, wait_for  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

GAMES = ["duo-regna", "duo", "duell-der-drachen", "regine", "regnum"]


def app_client(db: Path) -> TestClient:
    return TestClient(create_app(db, pace=0, key=KEY), headers={"X-Regalia-Key": KEY})


def new_table(client: Any, game: str, seats: list[str], **body: Any) -> list[str]:
    r = client.post("/api/tables", json={"game": game, "seats": seats, **body})
    assert r.status_code == 200, r.text
    return [token(link["url"]) for link in r.json()["links"]]


def play_some(client: Any, tok: str, moves: int, rnd: random.Random) -> dict[str, Any]:
    """Plays ``moves`` random moves for the link's seat (fewer if the game ends)."""
    payload: dict[str, Any] = wait_for(client, tok, my_turn)
    for _ in range(moves):
        if payload["over"]:
            break
        move = rnd.choice(payload["moves"])
        r = client.post(f"/api/t/{tok}/move", json={"version": payload["version"], "action": move["action"]})
        assert r.status_code == 200, r.text
        payload = wait_for(client, tok, my_turn)
    return payload


def deal(table: Table) -> str:
    """What the deal shows every seat (hands, piles), and the outcomes drawn, as text."""
    seen = [table.observation(k) for k in range(table.game.num_players)]
    return json.dumps([table.actions, seen], sort_keys=True)


def test_an_unseeded_table_draws_from_the_systems_generator(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = secrets.SystemRandom.random

    def counted(self: secrets.SystemRandom) -> float:
        calls.append(type(self))
        return real(self)

    monkeypatch.setattr(secrets.SystemRandom, "random", counted)
    with app_client(tmp_path / "web.sqlite3") as client:
        (tok,) = new_table(client, "duo", ["human", "random"])
        live = client.app.state.tables.live(client.app.state.tables.link(tok).table_id)  # type: ignore[attr-defined]
    assert live.table.chance_from == "system" and live.table.game.options["chance"] == "explicit"
    draws = live.table._chance
    assert isinstance(draws, SystemDraws) and type(draws.rng) is secrets.SystemRandom
    dealt = len(live.table.actions) - live.table.plies  # the chance draws so far
    assert dealt >= 15 and len(calls) >= dealt and set(calls) == {secrets.SystemRandom}


def test_a_fixed_system_generator_deals_alike_so_the_deal_comes_from_it(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game("duell-der-drachen", {}, secret=True)
    monkeypatch.setattr(secrets.SystemRandom, "random", lambda self: 0.5)
    same = {deal(Table(game, ["random", "random"], secrets.randbits(64), chance_from="system")) for _ in range(3)}
    monkeypatch.undo()
    apart = {deal(Table(game, ["random", "random"], 7, chance_from="system")) for _ in range(3)}
    assert len(same) == 1 and len(apart) == 3


def test_ten_thousand_unseeded_tables_never_share_a_deal() -> None:
    game = _game("duo", {}, secret=True)
    deals = set()
    for _ in range(10_000):
        table = Table(game, ["random", "random"], 0, chance_from="system")
        hands = [table.observation(k)["hand"] for k in range(2)]
        deals.add(json.dumps([hands, table.observation(0)["pile_cards"]]))
    assert len(deals) == 10_000


def test_a_seeded_table_plays_the_same_game_again(tmp_path: Path) -> None:
    with app_client(tmp_path / "web.sqlite3") as client:
        ends = []
        for _ in range(2):
            (tok,) = new_table(client, "duo", ["human", "rules"], seed=12345, options={"rounds": 1})
            end = play_some(client, tok, 3000, random.Random(4))
            ends.append((end["log"], end["picture"], end["ending"]))
        records = [client.get(f"/api/tables/{row['id']}/record").json() for row in client.get("/api/tables").json()]
    assert ends[0] == ends[1] and ends[0][2]
    assert records[0]["actions"] == records[1]["actions"] and records[0]["seed"] == 12345
    assert "chance" not in records[0]["options"] or records[0]["options"]["chance"] == "seeded"


@pytest.mark.parametrize("game", ["duo", "regnum"])
def test_a_restart_replays_an_unseeded_table_exactly(tmp_path: Path, game: str) -> None:
    db = tmp_path / "web.sqlite3"
    with app_client(db) as client:
        (tok,) = new_table(client, game, ["human", "rules"])
        before = play_some(client, tok, 12, random.Random(game))
    with app_client(db) as client:
        after = client.get(f"/api/t/{tok}").json()
        assert after == before
        later = play_some(client, tok, 3, random.Random(1))  # and the game goes on from there
        assert later["version"] > before["version"] or later["over"]


def test_a_person_chooses_no_chance_and_no_page_shows_the_secret(tmp_path: Path) -> None:
    with app_client(tmp_path / "web.sqlite3") as client:
        chosen = {"game": "duo", "seats": ["human", "random"], "options": {"chance": "explicit"}}
        r = client.post("/api/tables", json=chosen)
        assert r.status_code == 400 and "chance" in r.json()["detail"]
        (tok,) = new_table(client, "duo", ["human", "random"])
        payload = play_some(client, tok, 5, random.Random(2))
        table = client.app.state.tables.live(client.app.state.tables.link(tok).table_id).table  # type: ignore[attr-defined]
        shown = json.dumps(payload) + client.get(f"/t/{tok}").text + client.get("/api/tables").text
    assert table.seed.bit_length() > 32 and str(table.seed) not in shown


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("bot", ["rules", "ismcts:iterations=30", "best:iterations=30", "random"])
def test_every_bot_plays_a_game_of_system_chance_to_its_end(game: str, bot: str) -> None:
    options = {"rounds": 1} if game == "duo" else {"max_turns": 40} if game == "regnum" else {}
    g = _game(game, options, secret=True)
    table = Table(g, [HUMAN] + [bot] * (g.num_players - 1), secrets.randbits(64), chance_from="system")
    rnd = random.Random(game + bot)
    for _ in range(5000):
        waiting = table.waiting()
        if waiting.kind == "over":
            break
        if waiting.kind == "bot":
            table.play_bot()
        else:
            table.play(0, rnd.choice(table.moves(0))[0])
    assert table.is_over and table.ending(0)
    again = Table.resume(table.record(), g, chance_from="system")
    assert again.log(0) == table.log(0) and again.is_over


def test_undo_never_draws_a_card_again() -> None:
    game = _game("duo", {"rounds": 1}, secret=True)
    table = Table(game, [HUMAN, "first-legal"], 5, chance_from="system")
    drawn = 0
    for _ in range(200):
        if table.is_over:
            break
        if table.waiting().kind == "bot":
            table.play_bot()
            continue
        moves = dict((name, action) for action, name in table.moves(0))
        if "draw" not in moves:
            table.play(0, next(iter(moves.values())))
            continue
        before = list(table.actions)
        table.play(0, moves["draw"])
        assert table._movers[len(before) + 1] is None  # the card came from a chance node
        if table.is_over:  # the draw ended the game
            break
        played = list(table.actions)
        with pytest.raises(Refused, match="a card was drawn since"):
            table.undo(0)
        assert table.actions == played
        drawn += 1
    assert drawn >= 3


def test_a_finished_unseeded_table_replays_with_its_draws_as_chance(tmp_path: Path) -> None:
    with app_client(tmp_path / "web.sqlite3") as client:
        (tok,) = new_table(client, "duell-der-drachen", ["random", "random"])
        end = wait_for(client, tok, lambda p: p["over"])
        assert end["over"] and all(e["seat"] is not None and e["name"] for e in end["log"])
        table_id = client.get("/api/tables").json()[0]["id"]
        record = client.get(f"/api/tables/{table_id}/record").json()
        r = client.post("/api/replay", json={"record": json.dumps(record), "ply": len(record["actions"])})
    assert r.status_code == 200, r.text
    moves = r.json()["moves"]
    assert r.json()["over"] and len(moves) == len(record["actions"])
    seats = {m["seat"] for m in moves}
    assert None in seats and seats <= {None, 0, 1}  # the cards dealt and drawn, and the two seats' moves
    assert len(end["log"]) == sum(m["seat"] is not None for m in moves)
