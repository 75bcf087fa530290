"""The web server at scale: a bounded number of tables in memory (the least recently used,
the idle and the finished ones dropped, and read back from the database unchanged), bots
claimed by one server process at a time, and ``regalia serve --workers 2`` with live updates
crossing between processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi", reason='the web table needs the web extra (pip install "regalia[web]")')

from fastapi.testclient import TestClient  # noqa: E402

import regalia  # noqa: E402
from regalia.registry import MatchRecord  # noqa: E402
from regalia.table import HUMAN, Table  # noqa: E402
from regalia.web import create_app  # noqa: E402
from regalia.web.server import free_port  # noqa: E402
from regalia.web.store import Store  # noqa: E402
from regalia.web.tables import Tables  # noqa: E402
from tests.web_helpers import KEY, Server, answering, start, token, wait_for  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_the_tables_held_stay_at_the_bound_while_many_are_opened(tmp_path: Path) -> None:
    store = Store(tmp_path / "web.sqlite3")
    tables = Tables(store, capacity=6)
    opened: list[tuple[str, dict[int | None, str]]] = []
    for k in range(30):
        opened.append(tables.create("duo-regna", {}, ["human", "random"], k))
        assert tables.held == min(k + 1, 6)
    for _, links in opened:  # each one read back on demand, the bound kept
        link = store.link(links[0])
        assert link is not None and tables.payload(link)["version"] == 0
        assert tables.held == 6
    # A table made in Python (which the database cannot give back) is kept through it all.
    adopted, _ = tables.adopt(Table(regalia.make("duo"), [HUMAN, "random"], 1), [0])
    for k in range(10):
        tables.create("duo", {"rounds": 1}, ["human", "random"], k)
        tables.forget(adopted)
        assert tables.held == 6 and tables.known_version(adopted) == 0
    with pytest.raises(ValueError, match="at least one table"):
        Tables(store, capacity=0)


def test_idle_and_finished_tables_leave_memory(tmp_path: Path) -> None:
    store = Store(tmp_path / "web.sqlite3")
    tables = Tables(store, idle=0.05)
    table_id, links = tables.create("duo", {"rounds": 1}, ["random", "random"], 3)
    watcher = store.link(links[None])
    assert watcher is not None
    while tables.bot_move(table_id):
        pass
    assert tables.held == 1
    ending = tables.payload(watcher)  # the last payload its one link is sent: the table goes
    assert ending["over"] and tables.held == 0
    assert tables.payload(watcher) == ending and tables.held == 0
    other, other_links = tables.create("duo", {"rounds": 1}, ["human", "random"], 4)
    seat = store.link(other_links[0])
    assert seat is not None
    before = tables.payload(seat)
    assert tables.sweep() == 0 and tables.held == 1
    time.sleep(0.1)
    assert tables.sweep() == 1 and tables.held == 0
    assert tables.payload(seat) == before


def _every_link(client: Any, tokens: list[str]) -> dict[str, Any]:
    return {tok: client.get(f"/api/t/{tok}").json() for tok in tokens} | {
        f"page {tok}": client.get(f"/t/{tok}").text for tok in tokens
    }


def test_a_dropped_table_shows_every_link_what_it_showed_before(tmp_path: Path) -> None:
    app = create_app(tmp_path / "web.sqlite3", pace=0, key=KEY)
    tables: Tables = app.state.tables
    client = TestClient(app, headers={"X-Regalia-Key": KEY})  # no lifespan: bots move when told
    tokens: list[str] = []
    # Two people (one seeded, one dealt from the system), moves played by both.
    for seed in (5, None):
        body = {"game": "duell-der-drachen", "seats": ["human", "human"], "seed": seed}
        links = [token(x["url"]) for x in client.post("/api/tables", json=body).json()["links"]]
        for _ in range(3):
            for tok in links:
                payload = client.get(f"/api/t/{tok}").json()
                if payload["moves"]:
                    move = {"version": payload["version"], "action": payload["moves"][-1]["action"]}
                    assert client.post(f"/api/t/{tok}/move", json=move).status_code == 200
        tokens += links
    # A shared screen, handed over to the person to move.
    body = {"game": "duo", "seats": ["human", "human"], "seed": 8, "options": {"rounds": 1}, "hot_seat": True}
    shared = token(client.post("/api/tables", json=body).json()["links"][0]["url"])
    r = client.post(f"/api/t/{shared}/hand-over", json={"version": 0, "seat": 0})
    assert r.status_code == 200 and r.json()["seat"] == 0
    tokens.append(shared)
    # A person against a bot that ran out of time (a line every log shows).
    (person,) = start(client, "regine", ["random", "human"], seed=2)
    bot_table = store_link(tables, person)
    turn = tables.bot_turn(bot_table)
    assert turn is not None and tables.bot_play(turn, None, ran_out=1.5)
    assert "ran out of time" in json.dumps(client.get(f"/api/t/{person}").json()["log"])
    tokens.append(person)
    # Bots alone, halfway.
    (watcher,) = start(client, "duo-regna", ["random", "random"], seed=4)
    for _ in range(6):
        tables.bot_move(store_link(tables, watcher))
    tokens.append(watcher)

    before = _every_link(client, tokens)
    assert tables.held == 5
    for tok in tokens:
        tables.forget(store_link(tables, tok))
    assert tables.held == 0
    assert _every_link(client, tokens) == before
    # The bot table goes on from its bot's turn, read back.
    for tok in (watcher, person):
        tables.forget(store_link(tables, tok))
        assert tables.bot_move(store_link(tables, tok))
        assert client.get(f"/api/t/{tok}").json()["version"] == before[tok]["version"] + 1


def store_link(tables: Tables, tok: str) -> str:
    """The id of the table a link opens."""
    return tables.link(tok).table_id


def test_one_process_at_a_time_claims_a_tables_bots(tmp_path: Path) -> None:
    store = Store(tmp_path / "web.sqlite3")
    tables = Tables(store)
    table_id, _ = tables.create("duo", {"rounds": 1}, ["random", "random"], 1)
    assert store.claim(table_id, "one", 60) and store.claim(table_id, "one", 60)  # renewed
    assert not store.claim(table_id, "two", 60)
    assert store.orphans() == []
    store.release(table_id, "two")  # not theirs: nothing changes
    assert not store.claim(table_id, "two", 60)
    assert store.claim(table_id, "one", -1)  # renewed as if it had run out
    assert store.orphans() == [table_id]
    assert store.claim(table_id, "two", 60) and not store.claim(table_id, "one", 60)
    store.release(table_id, "two")
    assert store.claim(table_id, "one", 60)


def test_two_applications_on_one_database_never_play_a_bot_turn_twice(tmp_path: Path) -> None:
    db = tmp_path / "web.sqlite3"
    thought: list[tuple[str, str, int]] = []
    lock = threading.Lock()

    def counted(app: Any, name: str) -> Any:
        bots = app.state.hub.bots
        think = bots.think

        async def counting(turn: Any) -> Any:
            with lock:
                thought.append((name, turn.table_id, turn.version))
            return await think(turn)

        bots.think = counting
        return app

    one = counted(create_app(db, pace=0.02, key=KEY), "one")
    with TestClient(one, headers={"X-Regalia-Key": KEY}) as a:
        watchers = [start(a, "duo", ["random", "random"], seed=s, rounds=1)[0] for s in range(4)]
        two = counted(create_app(db, pace=0.02, key=KEY), "two")
        with TestClient(two, headers={"X-Regalia-Key": KEY}) as b:  # it takes up every unfinished table
            for k, tok in enumerate(watchers):
                assert wait_for((a, b)[k % 2], tok, lambda p: p["over"], seconds=120)["over"]
    turns = [(t, v) for _, t, v in thought]
    assert turns and len(turns) == len(set(turns))  # each bot turn thought over once, by one process
    store = Store(db)
    for row in store.tables():
        assert row.record.returns
        MatchRecord.replay(row.record)  # every record is a game that replays


def test_workers_share_live_updates_and_bots(tmp_path: Path) -> None:
    db = tmp_path / "web.sqlite3"
    Store(db).setting("key", KEY)
    port = free_port("127.0.0.1")
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    code = "from regalia.cli import main; main()"
    args = ["serve", "--no-browser", "--port", str(port), "--db", str(db), "--pace", "0", "--workers", "2"]
    server = subprocess.Popen([sys.executable, "-c", code, *args], env=env)
    try:
        assert answering(url), "the server did not start"
        with httpx.Client(base_url=url, headers={"X-Regalia-Key": KEY}, timeout=30) as c:
            bots = [start(c, "duo", ["random", "random"], seed=s, rounds=1)[0] for s in range(3)]
            for tok in bots:
                assert wait_for(c, tok, lambda p: p["over"], seconds=120)["over"]
        assert len(_children(server.pid)) == 2
    finally:
        server.terminate()
        server.wait(30)


def _children(pid: int) -> list[int]:
    """The worker processes ``pid`` started (Linux; not multiprocessing's resource tracker)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                line = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if int(stat[1]) == pid and b"spawn_main" in line and b"resource_tracker" not in line:
                found.append(int(entry.name))
    return found


def test_a_move_through_one_process_reaches_a_page_following_another(tmp_path: Path) -> None:
    db = tmp_path / "web.sqlite3"
    one, two = Server(db).start(), Server(db).start()
    try:
        a = one.client()
        first, second = start(a, "duell-der-drachen", ["human", "human"], seed=3)
        mover = first if a.get(f"/api/t/{first}").json()["moves"] else second
        follower = second if mover == first else first
        seen: list[dict[str, Any]] = []
        ready = threading.Event()

        def follow() -> None:
            with (
                httpx.Client(base_url=two.url, timeout=30) as b,
                b.stream("GET", f"/api/t/{follower}/events", params={"seconds": 20}) as r,
            ):
                for line in r.iter_lines():
                    if line.startswith("data: "):
                        seen.append(json.loads(line[6:]))
                        ready.set()
                        if len(seen) == 2:
                            return

        reader = threading.Thread(target=follow)
        reader.start()
        assert ready.wait(20)
        payload = a.get(f"/api/t/{mover}").json()
        move = {"version": payload["version"], "action": payload["moves"][0]["action"]}
        assert a.post(f"/api/t/{mover}/move", json=move).status_code == 200
        a.close()
        reader.join(25)
        assert [p["version"] for p in seen] == [0, 1]
    finally:
        one.stop()
        two.stop()


def test_the_bots_of_a_stopped_process_are_taken_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import regalia.web.app as web_app

    monkeypatch.setattr(web_app, "CLAIM", 0.5)  # a claim lasts CLAIM + pace + a move's limit
    db = tmp_path / "web.sqlite3"
    one = create_app(db, pace=0.2, key=KEY)
    one.state.hub.bots.limit = 0.5
    with TestClient(one, headers={"X-Regalia-Key": KEY}) as a:
        (watcher,) = start(a, "duo-regna", ["random", "random"], seed=9)
        stopped_at = wait_for(a, watcher, lambda p: p["version"] >= 2, seconds=60)
    # One stopped with its claim on the table's bots standing for 2 s more (as if it had just
    # renewed it): the other starts, cannot claim them, and takes them over once it runs out.
    table_id = one.state.tables.link(watcher).table_id
    assert Store(db).claim(table_id, one.state.hub.owner, 2.0)
    two = create_app(db, pace=0.01, key=KEY)
    two.state.hub.bots.limit = 0.5
    with TestClient(two, headers={"X-Regalia-Key": KEY}) as b:
        ending = wait_for(b, watcher, lambda p: p["over"], seconds=90)
    assert ending["over"] and ending["version"] > stopped_at["version"]
