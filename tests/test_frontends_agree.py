"""The command line and the web server take the table's rules from the table alone: the
same bot refused with the same message, the same chance refused, and one record replayed
with the same moves and the same ending in both (``regalia.table``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason='the web table needs the web extra (pip install "regalia[web]")')


import regalia  # noqa: E402
from regalia.cli import exits  # noqa: E402
from regalia.registry import MatchRecord, save_game  # noqa: E402
from regalia.table import ChanceChosen, Replay, Table, check_bot, table_game  # noqa: E402
from regalia.table.saves import saves_folder  # noqa: E402
from tests.cli_helpers import run  # noqa: E402

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"), pytest.mark.usefixtures("data_folder")]


def refusal_of(call: Any, *args: Any) -> str:
    with pytest.raises(ValueError) as refused:
        call(*args)
    return str(refused.value)


def test_a_bot_of_another_game_is_refused_alike(client: Any) -> None:
    said = refusal_of(check_bot, "solver", "duo")
    cli = run("play", "duo", "--seats", "random,solver", "--seed", "1")
    web = client.post("/api/tables", json={"game": "duo", "seats": ["human", "solver"], "seed": 1})
    assert cli.exit_code == exits.USAGE and said in cli.stderr
    assert web.status_code == 400 and web.json()["detail"] == said


def test_a_chosen_chance_is_refused_alike(client: Any) -> None:
    with pytest.raises(ChanceChosen) as refused:
        table_game("duo-regna", {"chance": "explicit"})
    cli = run("play", "duo-regna", "--seats", "random,random", "-o", "chance=explicit")
    web = client.post(
        "/api/tables", json={"game": "duo-regna", "seats": ["human", "random"], "options": {"chance": "explicit"}}
    )
    assert cli.exit_code == exits.USAGE and " ".join(str(refused.value).split()) in " ".join(cli.stderr.split())
    assert web.status_code == 400 and web.json()["detail"] == str(refused.value)


@pytest.mark.parametrize(("game", "secret"), [("duo-regna", False), ("duo", False), ("duo-regna", True)])
def test_one_record_replays_alike_in_both(client: Any, tmp_path: Path, game: str, secret: bool) -> None:
    """Seeded, and with every card drawn as it happened (a web table without a seed)."""
    if secret:
        record = Table(table_game(game, {}, seeded=False), ["random", "random"], 8).finish()
    else:
        record = regalia.play(regalia.make(game), ["random", "random"], seed=8)
    path = tmp_path / "game.json"
    path.write_text(record.to_json())
    cli = json.loads(run("replay", str(path), "--json").stdout)
    ends = client.post("/api/replay", json={"record": record.to_json(), "ply": len(record.actions)}).json()
    table = Replay(record)
    named = [{"seat": m.seat, "name": m.name} for m in table.moves]
    assert [{"seat": m["seat"], "name": m["name"]} for m in cli["moves"]] == named == ends["moves"]
    assert cli["outcome"] == ends["outcome"] == record.outcome and record.outcome is not None
    assert ends["over"] and cli["finished"]
    before = client.post("/api/replay", json={"record": record.to_json(), "ply": 2}).json()
    assert before["outcome"] is None and not before["over"] and before["moves"] == named[:2]


def test_a_table_dealt_without_a_seed_resumes_drawing_from_the_system_in_both(client: Any) -> None:
    table = Table(table_game("duo-regna", {}, seeded=False), ["random", "random"], 5, chance_from="system")
    for _ in range(4):
        table.play_bot()
    saved = table.record()
    path = saves_folder() / "secret.json"
    save_game(path, saved)
    finished = MatchRecord.from_json(run("resume", str(path), "--json").stdout)
    assert finished.actions[: len(saved.actions)] == saved.actions and finished.outcome is not None
    assert finished.options["chance"] == "explicit" and Replay(finished).outcome is not None
    web = client.post("/api/resume", json={"name": "secret"})
    assert web.status_code == 200, web.text
    row = client.get("/api/tables").json()[0]
    assert row["moves"] >= len(saved.actions)


def test_a_broken_record_is_refused_alike(client: Any, tmp_path: Path) -> None:
    record = regalia.play(regalia.make("duo-regna"), ["random", "random"], seed=8)
    record.actions[5] = 99
    said = refusal_of(Replay, record)
    assert said.startswith("move 6 (99) is not legal there")
    path = tmp_path / "broken.json"
    path.write_text(record.to_json())
    cli = run("replay", str(path), "--json")
    web = client.post("/api/replay", json={"record": record.to_json(), "ply": 1})
    assert cli.exit_code == exits.ERROR and cli.stdout == "" and f"{path}: {said}" in " ".join(cli.stderr.split())
    assert web.status_code == 400 and web.json()["detail"] == said
