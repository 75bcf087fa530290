"""The table's log and controls as a person sees them: a restart rebuilds the log exactly,
forced moves ("played for you") included; undo is offered exactly when it would act (never
before the first move nor after the end); and every page has its icon."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason='the web table needs the web extra (pip install "regalia[web]")')

from fastapi.testclient import TestClient  # noqa: E402

import regalia  # noqa: E402
from regalia.table import HUMAN, Refused, Table  # noqa: E402
from regalia.web import create_app  # noqa: E402
from tests.web_helpers import KEY, my_turn, start, wait_for  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def app_client(db: Path) -> TestClient:
    return TestClient(create_app(db, pace=0, key=KEY), headers={"X-Regalia-Key": KEY})


def test_a_restart_keeps_the_forced_moves_in_the_log(tmp_path: Path) -> None:
    db = tmp_path / "web.sqlite3"
    with app_client(db) as client:
        (tok,) = start(client, "duo", ["human", "first-legal"], seed=4, rounds=1)
        rnd = random.Random(4)
        payload = wait_for(client, tok, my_turn)
        while not any(event["forced"] for event in payload["log"]):
            assert not payload["over"], "no move was forced"
            move = rnd.choice(payload["moves"])
            r = client.post(f"/api/t/{tok}/move", json={"version": payload["version"], "action": move["action"]})
            assert r.status_code == 200, r.text
            payload = wait_for(client, tok, my_turn)
    forced = [event for event in payload["log"] if event["forced"]]
    assert forced[0]["lines"][0].endswith("is played for you.")
    with app_client(db) as client:
        again = client.get(f"/api/t/{tok}").json()
    assert again["log"] == payload["log"] and again == payload


def undo_offered_exactly_when_it_acts(name: str, seed: int) -> int:
    """Plays a person against a bot, trying undo at every turn; how many undos acted."""
    game = regalia.make(name, players=2)
    table = Table(game, [HUMAN, "random"], seed)
    rnd = random.Random(seed)
    assert not table.can_undo(0)  # before the first move
    acted = 0
    for _ in range(400):
        if table.is_over:
            break
        if table.waiting().kind == "bot":
            table.play_bot()
            continue
        offered = table.can_undo(0)
        before = list(table.actions)
        try:
            table.undo(0)
        except Refused:
            assert not offered and table.actions == before
        else:
            assert offered and len(table.actions) < len(before)
            acted += 1
        table.play(0, rnd.choice(table.moves(0))[0])
    while not table.is_over:
        table.play_bot() if table.waiting().kind == "bot" else table.play(0, table.moves(0)[0][0])
    assert not table.can_undo(0)
    with pytest.raises(Refused, match="the game is over"):
        table.undo(0)
    return acted


def test_undo_is_offered_exactly_when_it_would_act() -> None:
    assert sum(undo_offered_exactly_when_it_acts(name, 1) for name in ("duo", "regnum", "regine")) > 0


def test_the_page_offers_no_undo_before_the_first_move_nor_after_the_end(tmp_path: Path) -> None:
    with app_client(tmp_path / "web.sqlite3") as client:
        (tok,) = start(client, "duo-regna", ["human", "random"], seed=2)
        payload: dict[str, Any] = wait_for(client, tok, my_turn)
        assert payload["undo"] is False and payload["version"] == 0
        rnd = random.Random(2)
        while not payload["over"]:
            move = rnd.choice(payload["moves"])
            r = client.post(f"/api/t/{tok}/move", json={"version": payload["version"], "action": move["action"]})
            assert r.status_code == 200
            payload = wait_for(client, tok, my_turn)
        assert payload["undo"] is False
        refused = client.post(f"/api/t/{tok}/undo", json={"version": payload["version"]})
        assert refused.status_code == 409 and "over" in refused.json()["detail"]


def test_every_page_has_its_icon(tmp_path: Path) -> None:
    with app_client(tmp_path / "web.sqlite3") as client:
        (tok,) = start(client, "duo", ["human", "random"], seed=1)
        for path in ("/", f"/t/{tok}", "/replay", "/rules/duo"):
            page = client.get(path)
            assert page.status_code == 200
            assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page.text, path
        for path in ("/static/favicon.svg", "/favicon.ico"):
            icon = client.get(path)
            assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
            assert icon.text.startswith("<svg") and "</svg>" in icon.text
