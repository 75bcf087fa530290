"""The web table (``regalia serve``) through its HTTP API: the lobby's key, a game against a
bot, undo by the table's rule, bots alone to the end, and every bad request refused with a
clear 4xx and the game unchanged; tables kept across a restart (SIGTERM and SIGKILL), and
two server processes on one database."""

from __future__ import annotations

import json
import random
import signal
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason='the web table needs the web extra (pip install "regalia[web]")')

from fastapi.testclient import TestClient  # noqa: E402

from regalia.registry import MatchRecord  # noqa: E402
from regalia.web import create_app  # noqa: E402
from regalia.web.store import Store  # noqa: E402
from regalia.web.tables import Tables  # noqa: E402
from tests.web_helpers import KEY, Server, my_turn, start, wait_for  # noqa: E402

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"), pytest.mark.usefixtures("data_folder")]


def state(client: Any, tok: str) -> dict[str, Any]:
    r = client.get(f"/api/t/{tok}")
    assert r.status_code == 200, r.text
    payload: dict[str, Any] = r.json()
    return payload


def play_out(client: Any, tok: str, rnd: random.Random, limit: int = 3000) -> dict[str, Any]:
    """Plays random moves for the link's seat until the game is over."""
    for _ in range(limit):
        payload = wait_for(client, tok, my_turn)
        if payload["over"]:
            return payload
        move = rnd.choice(payload["moves"])
        r = client.post(f"/api/t/{tok}/move", json={"version": payload["version"], "action": move["action"]})
        assert r.status_code == 200, r.text
    raise AssertionError("the game did not end")


def test_the_lobby_needs_the_servers_key(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "web.sqlite3", key=KEY)) as c:
        assert c.get("/").status_code == 403
        assert c.post("/api/tables", json={"game": "duo", "seats": ["random", "random"]}).status_code == 403
        assert c.get("/api/tables").status_code == 403
        assert c.get(f"/?key={KEY}", follow_redirects=True).status_code == 200  # the cookie is kept
        assert "A new table" in c.get("/").text
        assert c.get("/api/tables").status_code == 200


@pytest.mark.parametrize("game", ["duo-regna", "duo", "duell-der-drachen", "regine", "regnum"])
def test_a_person_plays_a_whole_game_against_a_bot(client: Any, game: str) -> None:
    options = {"rounds": 1} if game == "duo" else {}
    (tok,) = start(client, game, ["human", "random"], seed=3, **options)
    page = client.get(f"/t/{tok}")
    assert page.status_code == 200 and "<svg" in page.text
    end = play_out(client, tok, random.Random(game))
    assert end["over"] and end["ending"] and end["moves"] == []
    assert end["picture"].startswith("<svg") and end["log"]
    record = client.get("/api/tables").json()[0]
    assert record["over"] and record["moves"] > 0
    # The ending names the winner (or a draw) and the final scores: checked against the
    # saved record's returns and scores, in the names the seat's page uses.
    saved = client.get(f"/api/tables/{record['id']}/record").json()
    won = [k for k, r in enumerate(saved["returns"]) if r > 0]
    assert end["outcome"]["scores"] == saved["scores"] and end["outcome"]["winners"] == won
    assert end["outcome"]["reason"] and end["names"] == ["you", "the opponent"]
    unit = {"duo-regna": "dragons", "duell-der-drachen": "markers"}.get(game, "points")
    listed = ", ".join(f"{name} {score}" for name, score in zip(end["names"], saved["scores"]))
    said = {(): "It is a draw.", (0,): "You win.", (1,): "The opponent wins."}[tuple(won)]
    assert end["ending"][-1] == f"{said} Final scores ({unit}): {listed}."


def test_a_game_of_bots_alone_is_watched_to_its_end(client: Any) -> None:
    (tok,) = start(client, "duell-der-drachen", ["random", "random"], seed=5)
    end = wait_for(client, tok, lambda p: p["over"])
    assert end["over"] and end["seat"] is None and end["ending"]
    assert end["outcome"]["reason"] in ("all_markers", "board_full", "no_legal_move")
    assert "Final scores (markers): seat 0 " in end["ending"][-1]
    assert all(e["name"] for e in end["log"])  # a watcher of bots alone sees every move by name
    table_id = client.get("/api/tables").json()[0]["id"]
    record = client.get(f"/api/tables/{table_id}/record").json()
    replay = client.post("/api/replay", json={"record": json.dumps(record), "ply": 3}).json()
    assert replay["ply"] == 3 and len(replay["moves"]) == 3 and replay["picture"].startswith("<svg")


def test_undo_takes_back_only_what_showed_nothing(client: Any) -> None:
    (tok,) = start(client, "duo-regna", ["human", "random"], seed=1)
    first = state(client, tok)
    # Duo Regna: the person chooses first, then the bot; the reveal shows the bot's card.
    played = client.post(
        f"/api/t/{tok}/move", json={"version": first["version"], "action": first["moves"][0]["action"]}
    )
    assert played.status_code == 200
    after = wait_for(client, tok, my_turn)
    refused = client.post(f"/api/t/{tok}/undo", json={"version": after["version"]})
    assert refused.status_code == 409 and "stands" in refused.json()["detail"]
    assert state(client, tok) == after


def test_undo_of_a_move_that_showed_nothing(client: Any) -> None:
    (tok,) = start(client, "regnum", ["human", "random"], seed=2)
    payload = state(client, tok)
    for _ in range(200):  # a move of the person's own after which it is still their turn
        payload = wait_for(client, tok, my_turn)
        move = payload["moves"][0]
        r = client.post(f"/api/t/{tok}/move", json={"version": payload["version"], "action": move["action"]})
        after = r.json()
        if after["moves"]:
            undone = client.post(f"/api/t/{tok}/undo", json={"version": after["version"]})
            if undone.status_code == 200:
                back = undone.json()
                assert back["moves"] == payload["moves"] and back["picture"] == payload["picture"]
                return
    raise AssertionError("no move could be undone")


def test_bad_requests_are_refused_and_change_nothing(client: Any) -> None:
    (tok,) = start(client, "duo-regna", ["human", "random"], seed=1)
    before = state(client, tok)
    version, legal = before["version"], {m["action"] for m in before["moves"]}
    illegal = next(a for a in range(100) if a not in legal)
    cases = [
        (f"/api/t/{tok}/move", {"version": version, "action": illegal}, 400),  # forged: not offered
        (f"/api/t/{tok}/move", {"version": version + 1, "action": min(legal)}, 409),  # stale
        ("/api/t/not-a-real-token-at-all/move", {"version": version, "action": min(legal)}, 404),
        (f"/api/t/{tok}/move", {"version": version}, 422),  # malformed
        (f"/api/t/{tok}/move", {"version": "x", "action": []}, 422),
        (f"/api/t/{tok}/move", {"version": -1, "action": 2**80}, 422),
    ]
    for path, body, status in cases:
        r = client.post(path, json=body)
        assert r.status_code == status, (body, r.text)
        assert isinstance(r.json()["detail"], (str, list))
    assert (
        client.post(
            f"/api/t/{tok}/move", content=b"{not json", headers={"Content-Type": "application/json"}
        ).status_code
        == 422
    )
    big = client.post(f"/api/t/{tok}/move", content=b"x" * (300 * 1024), headers={"Content-Type": "application/json"})
    assert big.status_code == 413
    foreign = client.post(
        f"/api/t/{tok}/move", json={"version": version, "action": min(legal)}, headers={"Origin": "http://evil.example"}
    )
    assert foreign.status_code == 403 and "another site" in foreign.json()["detail"]
    cross = client.post(
        f"/api/t/{tok}/move", json={"version": version, "action": min(legal)}, headers={"Sec-Fetch-Site": "cross-site"}
    )
    assert cross.status_code == 403
    table_id = client.get("/api/tables").json()[0]["id"]
    for name in ["../evil", "/etc/passwd", "a/b", "..", "", "x" * 100]:
        r = client.post(f"/api/tables/{table_id}/save", json={"name": name})
        assert r.status_code == 400, name
    assert client.get("/t/no-such-link-here").status_code == 404
    assert client.post("/api/tables", json={"game": "chess", "seats": ["human", "random"]}).status_code == 404
    assert client.post("/api/tables", json={"game": "duo", "seats": ["human", "nobody"]}).status_code == 400
    assert client.post("/api/tables", json={"game": "duo", "seats": ["human"] * 9}).status_code == 422
    assert (
        client.post("/api/tables", json={"game": "duo", "seats": ["random"] * 2, "options": {"x": 1}}).status_code
        == 400
    )
    assert state(client, tok) == before  # nothing changed the game


def test_a_watchers_link_plays_no_move(client: Any) -> None:
    (tok,) = start(client, "duo", ["random", "random"], seed=1, rounds=1)
    r = client.post(f"/api/t/{tok}/move", json={"version": 0, "action": 0})
    assert r.status_code == 403


def test_a_game_is_saved_by_name_and_resumed(client: Any) -> None:
    (tok,) = start(client, "duo-regna", ["human", "random"], seed=4)
    first = state(client, tok)
    client.post(f"/api/t/{tok}/move", json={"version": first["version"], "action": first["moves"][0]["action"]})
    moved = wait_for(client, tok, my_turn)
    table_id = client.get("/api/tables").json()[0]["id"]
    assert client.post(f"/api/tables/{table_id}/save", json={"name": "my-game"}).json() == {"saved": "my-game.json"}
    resumed = client.post("/api/resume", json={"name": "my-game"})
    assert resumed.status_code == 200, resumed.text
    again = state(client, resumed.json()["links"][0]["url"].rsplit("/", 1)[1])
    assert again["picture"] == moved["picture"] and again["log"] == moved["log"]
    assert client.post("/api/resume", json={"name": "no-such-save"}).status_code == 404


def test_two_people_each_see_only_their_own_hand(client: Any) -> None:
    a, b = start(client, "duo", ["human", "human"], seed=8, rounds=1)
    pa, pb = state(client, a), state(client, b)
    assert pa["seat"] == 0 and pb["seat"] == 1 and pa["picture"] != pb["picture"]
    assert b not in json.dumps(pa) and a not in json.dumps(pb)  # no page holds another seat's link
    assert pa["moves"] and not pb["moves"] and not pa["undo"]
    r = client.post(f"/api/t/{b}/move", json={"version": pa["version"], "action": pa["moves"][0]["action"]})
    assert r.status_code == 400  # not seat 1's turn
    r = client.post(f"/api/t/{a}/move", json={"version": pa["version"], "action": pa["moves"][0]["action"]})
    assert r.status_code == 200
    assert state(client, b)["version"] == pa["version"] + 1


def shows_no_seat(payload: dict[str, Any]) -> bool:
    """Whether a payload shows nothing of any seat: no picture, moves, log or seat."""
    return payload["seat"] is None and not payload["picture"] and not payload["moves"] and not payload["log"]


def test_people_at_one_screen_hand_it_over(client: Any) -> None:
    body = {"game": "duo", "seats": ["human", "human"], "seed": 8, "options": {"rounds": 1}, "hot_seat": True}
    links = client.post("/api/tables", json=body).json()["links"]
    assert len(links) == 1 and links[0]["shared"] and links[0]["seat"] is None
    tok = links[0]["url"].rsplit("/", 1)[1]
    first = state(client, tok)
    assert first["shared"] and first["hand_over"] == 0 and shows_no_seat(first)
    assert "<svg" not in client.get(f"/t/{tok}").text  # the page itself shows nothing either
    move = {"version": first["version"], "action": 0}
    assert client.post(f"/api/t/{tok}/move", json=move).status_code == 409  # not handed over yet
    assert client.post(f"/api/t/{tok}/hand-over", json={"version": first["version"], "seat": 1}).status_code == 409
    assert state(client, tok) == first
    seen: dict[int, str] = {}
    payload = first
    for _ in range(200):
        if payload["over"]:
            break
        if payload["hand_over"] is not None:
            seat = payload["hand_over"]
            assert shows_no_seat(payload) and payload["waiting"] == {"kind": "person", "seat": seat}
            version = payload["version"]
            r = client.post(f"/api/t/{tok}/hand-over", json={"version": version, "seat": seat})
            assert r.status_code == 200, r.text
            payload = r.json()
            assert payload["seat"] == seat and payload["moves"] and payload["picture"].startswith("<svg")
            assert payload["version"] == version  # taking the screen changes nothing in the game
            seen[seat] = payload["picture"]
        r = client.post(
            f"/api/t/{tok}/move", json={"version": payload["version"], "action": payload["moves"][0]["action"]}
        )
        assert r.status_code == 200, r.text
        payload = r.json()  # the next person's hand-over, or the same person's view
    assert payload["over"] and set(seen) == {0, 1} and seen[0] != seen[1]
    one = client.post("/api/tables", json={**body, "seats": ["human", "random"]})
    assert one.status_code == 400 and "two people" in one.json()["detail"]
    (alone,) = start(client, "duo", ["human", "random"], seed=1, rounds=1)
    r = client.post(f"/api/t/{alone}/hand-over", json={"version": 0, "seat": 0})
    assert r.status_code == 403  # a seat's own link is never handed over


def test_tables_survive_a_restart_and_a_kill(tmp_path: Path) -> None:
    db = tmp_path / "web.sqlite3"
    server = Server(db).start()
    try:
        with server.client() as c:
            (tok,) = start(c, "duo-regna", ["human", "random"], seed=6)
            rnd = random.Random(6)
            for round_ in range(4):
                payload = wait_for(c, tok, my_turn)
                move = rnd.choice(payload["moves"])
                r = c.post(f"/api/t/{tok}/move", json={"version": payload["version"], "action": move["action"]})
                assert r.status_code == 200
                seen = wait_for(c, tok, my_turn)
                server.stop(signal.SIGKILL if round_ % 2 else signal.SIGTERM)
                server = Server(db).start()
                with server.client() as fresh:
                    assert fresh.get(f"/api/t/{tok}").json() == seen  # the same link, the same table
                c.base_url = server.url  # type: ignore[assignment]
    finally:
        server.stop()


def test_two_server_processes_share_one_database(tmp_path: Path) -> None:
    db = tmp_path / "web.sqlite3"
    one, two = Server(db).start(), Server(db).start()
    try:
        with one.client() as a, two.client() as b:
            tokens = [start(a, "duo", ["human", "random"], seed=s, rounds=1)[0] for s in range(3)]
            rnd = random.Random(0)
            for _ in range(40):  # both servers are sent the moves of the same tables
                for tok in tokens:
                    payload = wait_for(rnd.choice([a, b]), tok, my_turn)
                    if payload["over"]:
                        continue
                    move = rnd.choice(payload["moves"])
                    body = {"version": payload["version"], "action": move["action"]}
                    replies = [c.post(f"/api/t/{tok}/move", json=body).status_code for c in (a, b)]
                    assert sorted(replies) in ([200, 409], [200, 400]), replies  # one move, once
        store = Store(db)
        for row in store.tables():
            MatchRecord.replay(row.record)  # every record is a game that replays
    finally:
        one.stop()
        two.stop()


def test_concurrent_writers_in_one_process_never_lose_a_move(tmp_path: Path) -> None:
    store = Store(tmp_path / "web.sqlite3")
    first, second = Tables(store), Tables(Store(tmp_path / "web.sqlite3"))
    table_id, links = first.create("duo", {"rounds": 1}, ["human", "random"], 2)
    link = store.link(links[0])
    assert link is not None
    outcomes: list[str] = []

    def player(tables: Tables) -> None:
        for _ in range(30):
            payload = tables.payload(link)
            if tables.waiting_for_bot(table_id):
                try:
                    tables.bot_move(table_id)
                except Exception as e:  # noqa: BLE001 - a stale write is expected, counted below
                    outcomes.append(type(e).__name__)
                continue
            if not payload["moves"]:
                return
            try:
                tables.play(link, payload["version"], payload["moves"][0]["action"])
                outcomes.append("played")
            except Exception as e:  # noqa: BLE001
                outcomes.append(type(e).__name__)

    threads = [threading.Thread(target=player, args=(t,)) for t in (first, second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    row = store.load(table_id)
    assert row is not None
    assert set(outcomes) <= {"played", "Stale", "WebError"}
    MatchRecord.replay(row.record)
    assert row.version >= outcomes.count("played")
