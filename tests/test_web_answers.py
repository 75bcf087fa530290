"""A link's answers are one JSON text a version (``Tables.as_json``): the move's answer, the
state asked again and the page's event carry the same text, exactly what ``json.dumps`` makes
of the payload, and it is exactly the ``Payload`` model (no field missing, none more, none of
another type), for every game through a game's moves and an undo."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason='the web table needs the web extra (pip install "regalia[web]")')

from fastapi.testclient import TestClient  # noqa: E402

import regalia  # noqa: E402
from regalia.web import create_app  # noqa: E402
from regalia.web.models import Payload  # noqa: E402
from regalia.web.payload import Sent, payload_json, seat_payload, watcher_payload  # noqa: E402
from tests.table_helpers import legal, step, table  # noqa: E402

GAMES = ["duo-regna", "duo", "duell-der-drachen", "regine", "regnum"]
#: Moves played at each table.
MOVES = 12


@pytest.mark.parametrize("name", GAMES)
def test_every_answer_is_the_payloads_json_and_the_model(tmp_path: Path, name: str) -> None:
    app = create_app(tmp_path / "web.sqlite3", pace=3600, key="k" * 20)
    rnd = random.Random(name)
    with TestClient(app) as client:
        tables = app.state.tables
        _, links = tables.create(name, {}, ["human", "human"], 5)
        checked = 0
        for _ in range(MOVES):
            state = client.get(f"/api/t/{links[0]}").json()
            if state["over"]:
                break
            token = links[state["waiting"]["seat"]]
            mine = client.get(f"/api/t/{token}")
            offered = mine.json()
            answer = client.post(
                f"/api/t/{token}/move",
                json={"version": offered["version"], "action": rnd.choice(offered["moves"])["action"]},
            )
            assert answer.status_code == 200 and answer.headers["content-type"] == "application/json"
            link = tables.link(token)
            payload = tables.payload(link)
            assert answer.text == json.dumps(payload) == tables.as_json(link, payload)
            assert client.get(f"/api/t/{token}").text == answer.text  # asked again: the same text
            assert Payload.model_validate(answer.json()).model_dump(mode="json") == answer.json()
            checked += 1
        undone = client.post(f"/api/t/{token}/undo", json={"version": answer.json()["version"]})
        if undone.status_code == 200:  # the other seat may have had no move to take back
            assert undone.text == json.dumps(tables.payload(tables.link(token)))
        assert checked >= 5


def test_an_older_versions_payload_is_its_own_json(tmp_path: Path) -> None:
    app = create_app(tmp_path / "web.sqlite3", pace=3600, key="k" * 20)
    with TestClient(app):
        tables = app.state.tables
        _, links = tables.create("duo-regna", {}, ["human", "human"], 3)
        link = tables.link(links[0])
        old = tables.payload(link)
        tables.play(link, old["version"], old["moves"][0]["action"])
        assert tables.as_json(link, old) == json.dumps(old)  # not the new version's text
        assert json.loads(tables.as_json(link, tables.payload(link)))["version"] == old["version"] + 1


def test_the_kept_log_text_is_the_logs_json_after_moves_and_an_undo() -> None:
    game = regalia.make("regine", players=3)
    t = table(game, 0, game.new_state(4))  # a person at seat 0, scripted bots
    rnd = random.Random(4)
    undone = False
    for version in range(60):
        mine = seat_payload(t, 0, version)
        assert isinstance(mine, Sent) and payload_json(mine) == json.dumps(mine)
        assert mine["log"] == [event.to_dict() for event in t.log(0)]
        watched = watcher_payload(t, version)
        assert payload_json(watched) == json.dumps(watched)
        if t.is_over:
            break
        if version >= 20 and not undone and t.can_undo(0):
            t.undo(0)  # the log shrinks: its kept text is made again
            undone = True
        else:
            step(t, rnd.choice(legal(t)))
    assert undone
    assert payload_json({"a": 1, "log": []}) == json.dumps({"a": 1, "log": []})
