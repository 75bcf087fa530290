"""No table can stop the server: every agent option has a bound a served table enforces (the
lobby states them, the API refuses past them with a 400), bots think in workers of their own
without holding their table's lock, and a bot past its time limit plays a random legal move
that every log reports, after a restart too."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi", reason='the web table needs the web extra (pip install "regalia[web]")')

from fastapi.testclient import TestClient  # noqa: E402

import regalia  # noqa: E402
from regalia.agents import AGENTS, View, agent_options  # noqa: E402
from regalia.agents.bounds import SERVED, check_served  # noqa: E402
from regalia.core.errors import InvalidOptionError  # noqa: E402
from regalia.table import HUMAN, Table  # noqa: E402
from regalia.web import create_app  # noqa: E402
from regalia.web.bots import Bots  # noqa: E402
from regalia.web.store import Store  # noqa: E402
from regalia.web.tables import Tables  # noqa: E402
from tests.web_helpers import KEY, Server, token  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: The largest bot a served table seats.
LARGEST = "ismcts:iterations=100000:threads=4:particles=1024"


def test_every_option_of_every_agent_has_a_bound() -> None:
    assert set(SERVED) == set(AGENTS)
    for name in AGENTS:
        options = agent_options(name)
        if options is None:  # best passes its options on to its search
            options = agent_options("ismcts")
        assert options is not None and set(SERVED[name]) == set(options), name


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("ismcts:iterations=100000000000", "iterations on this server is a number from 1 to 100,000"),
        ("ismcts:threads=5", "threads on this server is a number from 1 to 4"),
        ("best:time_limit=11", "time_limit on this server is a number from 0.01 to 10 seconds"),
        ("ismcts:particles=5000", "particles on this server"),
        ("ismcts:iterations=1e999", "iterations on this server"),
        ("ismcts:exploration=NaN", "exploration on this server"),
        ("fixed-order:order=99999999999", "order on this server"),
        ("policy:path=/nonexistent/model.npz", "a file on it of at most 256 MiB"),
        ("ismcts:depth=3", "unknown option 'depth'"),
    ],
)
def test_a_bot_past_its_bound_is_refused_by_the_api(tmp_path: Path, spec: str, said: str) -> None:
    with pytest.raises(InvalidOptionError, match="on this server|unknown option"):
        check_served(spec)
    with TestClient(create_app(tmp_path / "web.sqlite3", pace=0, key=KEY), headers={"X-Regalia-Key": KEY}) as c:
        r = c.post("/api/tables", json={"game": "duo", "seats": ["human", spec]})
        assert r.status_code == 400 and said in r.json()["detail"], r.text
        assert c.get("/api/tables").json() == []


def test_the_lobby_states_the_bounds_and_the_largest_bot_is_seated(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "web.sqlite3", pace=0, key=KEY), headers={"X-Regalia-Key": KEY}) as c:
        lobby = c.get("/").text
        assert "iterations 1 to 100,000" in lobby and "threads 1 to 4" in lobby and "10 seconds a move" in lobby
        r = c.post("/api/tables", json={"game": "duo", "seats": ["human", LARGEST]})
        assert r.status_code == 200, r.text


def test_a_bot_out_of_time_plays_a_random_move_that_every_log_reports(tmp_path: Path) -> None:
    db = tmp_path / "web.sqlite3"
    tables = Tables(Store(db))
    table_id, links = tables.create("duo-regna", {}, ["human", "ismcts:iterations=100000"], seed=3)
    link = tables.link(links[0])
    first = tables.payload(link)
    tables.play(link, first["version"], first["moves"][0]["action"])
    bots = Bots(tables, pace=0, limit=0.001)
    try:
        asyncio.run(bots.play(table_id))
    finally:
        bots.close()
    log = tables.payload(link)["log"]
    said = [line for event in log for line in event["lines"] if "ran out of time" in line]
    assert said == ["Seat 1 (ismcts:iterations=100000) ran out of time (0.001 s) and played a random legal move."]
    assert log[-1]["lines"][0] == said[0] and log[-1]["seat"] == 1 and log[-1]["action"] is None
    again = Tables(Store(db))  # a restart: the log is rebuilt from the database, the note with it
    assert again.payload(again.link(links[0]))["log"] == log


def timed_get(client: httpx.Client, path: str) -> float:
    start = time.monotonic()
    assert client.get(path).status_code == 200
    return time.monotonic() - start


def test_the_largest_bot_leaves_every_table_answering(tmp_path: Path) -> None:
    server = Server(tmp_path / "web.sqlite3").start()
    try:
        with server.client() as client:
            person = client.post("/api/tables", json={"game": "duo", "seats": ["human", "random"], "seed": 1}).json()
            mine = token(person["links"][0]["url"])
            quiet = [timed_get(client, f"/api/t/{mine}") for _ in range(5)]
            thinking = client.post("/api/tables", json={"game": "regnum", "seats": [LARGEST, LARGEST]}).json()
            watch = token(thinking["links"][0]["url"])
            time.sleep(1.0)  # the bots are thinking now
            start_version = client.get(f"/api/t/{watch}").json()["version"]
            busy: list[float] = []
            with concurrent.futures.ThreadPoolExecutor(20) as pool:  # pages open on the thinking table
                pending = [pool.submit(timed_get, client, f"/api/t/{watch}") for _ in range(40)]
                for _ in range(10):
                    busy.append(timed_get(client, f"/api/t/{mine}"))
                    payload: dict[str, Any] = client.get(f"/api/t/{mine}").json()
                    if payload["moves"]:
                        move = {"version": payload["version"], "action": payload["moves"][0]["action"]}
                        start = time.monotonic()
                        assert client.post(f"/api/t/{mine}/move", json=move).status_code == 200
                        busy.append(time.monotonic() - start)
                busy += [f.result(timeout=30) for f in pending]
            still = client.get(f"/api/t/{watch}").json()
    finally:
        server.stop()
    # A hung server would queue these behind the search (it thinks up to 10 s a move): every
    # answer came within seconds, while the thinking table had not finished its game.
    assert max(busy) < 5.0, f"answers took up to {max(busy):.2f} s while a bot thought (quiet: {max(quiet):.2f} s)"
    assert not still["over"] and still["version"] - start_version < 20


class Pondering:
    """A bot that thinks until it is told to stop (``go``), saying when it starts."""

    name = "pondering"

    def __init__(self) -> None:
        self.thinking, self.go = threading.Event(), threading.Event()

    def act(self, view: View) -> int:
        self.thinking.set()
        self.go.wait(60)
        return view.legal_actions[0]


def test_a_thinking_bot_holds_no_lock_and_no_request_thread(tmp_path: Path) -> None:
    tables = Tables(Store(tmp_path / "web.sqlite3"))
    bot = Pondering()
    table_id, links = tables.adopt(Table(regalia.make("duo-regna"), [bot, HUMAN], 1), [1])
    seat = tables.link(links[1])
    other_id, others = tables.create("duo", {}, ["human", "random"], seed=2)
    other = tables.link(others[0])
    bots = Bots(tables, pace=0, limit=30)
    done = threading.Thread(target=asyncio.run, args=(bots.play(table_id),))
    done.start()
    try:
        assert bot.thinking.wait(30)
        with concurrent.futures.ThreadPoolExecutor(2) as pool:  # both would wait for the bot under a lock
            seen = pool.submit(tables.payload, seat).result(timeout=10)
            mine = tables.payload(other)
            moved = pool.submit(tables.play, other, mine["version"], mine["moves"][0]["action"]).result(timeout=10)
        assert seen["waiting"] == {"kind": "bot", "seat": 0} and moved["version"] == mine["version"] + 1
    finally:
        bot.go.set()
        done.join(30)
        bots.close()
    assert tables.payload(seat)["waiting"] == {"kind": "person", "seat": 1}  # the bot's move was played


def test_a_bot_that_cannot_stop_itself_is_cut_off(tmp_path: Path) -> None:
    tables = Tables(Store(tmp_path / "web.sqlite3"))
    bot = Pondering()
    table_id, links = tables.adopt(Table(regalia.make("duo-regna"), [bot, HUMAN], 1), [1])
    bots = Bots(tables, pace=0, limit=0.2)
    try:
        asyncio.run(bots.play(table_id))
    finally:
        bot.go.set()
        bots.close()
    payload = tables.payload(tables.link(links[1]))
    assert payload["waiting"] == {"kind": "person", "seat": 1}
    assert payload["log"][0]["lines"][0] == "Seat 0 (pondering) ran out of time (0.2 s) and played a random legal move."


class _MovedWhileLooking:
    """Tables whose person moves just as the bots' task looks whether a bot is to move: the
    look says no, and the move's kick reaches the loop while the task still runs."""

    def __init__(self) -> None:
        self.looks = 0
        self.loop: asyncio.AbstractEventLoop | None = None
        self.hub: Any = None

    def waiting_for_bot(self, table_id: str) -> bool:
        self.looks += 1
        if self.looks == 1:
            assert self.loop is not None
            self.loop.call_soon_threadsafe(self.hub.kick, table_id)  # the person's move, landing now
        return False


def test_a_kick_while_the_bots_look_is_not_lost() -> None:
    # The lost wake-up seen in Regine's web games: a person's move made while the bots'
    # task was deciding that no bot was to move left the bot to move for ever.
    from regalia.web.app import Hub

    tables = _MovedWhileLooking()

    async def scenario() -> None:
        hub = Hub(tables, pace=0)  # type: ignore[arg-type]
        tables.loop, tables.hub = asyncio.get_running_loop(), hub
        try:
            hub.kick("t")
            while hub._bots:
                await asyncio.sleep(0.01)
        finally:
            hub.bots.close()

    asyncio.run(asyncio.wait_for(scenario(), 30))
    assert tables.looks == 2  # the kick that came during the first look made a second one
