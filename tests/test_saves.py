"""Saved games on disk: written atomically, read back exactly, and a corrupted or tampered
file refused with a message naming it (its history replayed from its seed)."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

import regalia
from regalia.agents import RandomAgent
from regalia.core.errors import InvalidStateError
from regalia.matches.match import play as play_match
from regalia.registry.records import MatchRecord


def a_state(name: str, backend: str = "rust", steps: int = 7) -> Any:
    state = regalia.make(name, backend=backend).new_state(3)  # type: ignore[arg-type]
    for _ in range(steps):
        if not state.is_terminal:
            state.apply(state.legal_actions()[-1])
    return state


def a_record(name: str) -> MatchRecord:
    game = regalia.make(name)
    return play_match(game, [RandomAgent(i) for i in range(game.num_players)], seed=4)


def edit(path: Path, change: Any) -> None:
    envelope = json.loads(path.read_text())
    change(envelope)
    path.write_text(json.dumps(envelope))


@pytest.mark.parametrize("name", [g["name"] for g in regalia.games()])
def test_states_and_records_round_trip(tmp_path: Path, name: str, backend: str) -> None:
    state = a_state(name, backend)
    regalia.save_game(tmp_path / "s.json", state)
    back = regalia.load_game(tmp_path / "s.json", backend=backend)  # type: ignore[arg-type]
    assert back.to_json() == state.to_json() and type(back) is type(state)
    d = state.determinize(0, 9)
    regalia.save_game(str(tmp_path / "d.json"), d)
    assert regalia.load_game(str(tmp_path / "d.json"), backend=backend).to_json() == d.to_json()  # type: ignore[arg-type]
    record = a_record(name)
    regalia.save_game(tmp_path / "m.json", record)
    assert regalia.load_game(tmp_path / "m.json", backend=backend) == record  # type: ignore[arg-type]
    # The files hold exactly the to_json() texts, which every reader of them reads.
    assert (tmp_path / "s.json").read_text() == state.to_json() + "\n"
    assert MatchRecord.from_json((tmp_path / "m.json").read_text()) == record


def test_saving_replaces_the_file_atomically(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.json"
    first, second = a_state("duo-regna", steps=1), a_state("duo-regna", steps=5)
    regalia.save_game(path, first)
    os.chmod(path, 0o640)
    regalia.save_game(path, second)
    assert regalia.load_game(path).to_json() == second.to_json()
    assert os.stat(path).st_mode & 0o777 == 0o640, "the file keeps its permissions"

    def crash(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="disk full"):
        regalia.save_game(path, first)
    assert regalia.load_game(path).to_json() == second.to_json(), "a failed save leaves the old file"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"], "no temporary file is left"


def test_corrupted_and_tampered_files_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    state = a_state("duo-regna")
    cases: list[tuple[Any, str]] = [
        (lambda e: e.update(seed=e["seed"] + 1), "replaying"),
        (lambda e: e["history"].__setitem__(-1, (e["history"][-1] + 1) % state.num_actions), "history"),
        (lambda e: e["state"]["hands"].reverse(), "state"),
        (lambda e: e.update(version=2), "version"),
        (lambda e: e.update(game="no-such-game"), "game"),
        (lambda e: e.pop("state"), "state"),
        (lambda e: e.update(format="zip"), "format"),
    ]
    for change, message in cases:
        regalia.save_game(path, state)
        edit(path, change)
        with pytest.raises(InvalidStateError, match=message) as err:
            regalia.load_game(path)
        assert str(path) in str(err.value)
    # Damaged bytes, a cut-off file, an empty one, another kind of JSON.
    regalia.save_game(path, state)
    for raw in (b"\xff\xfe garbage", path.read_bytes()[:40], b"", b"[1, 2]"):
        path.write_bytes(raw)
        with pytest.raises(InvalidStateError):
            regalia.load_game(path)
    with pytest.raises(FileNotFoundError):
        regalia.load_game(tmp_path / "missing.json")
    with pytest.raises(InvalidStateError, match="MatchRecord"):
        regalia.save_game(path, {"not": "a game"})


def test_forged_match_records_are_refused(tmp_path: Path) -> None:
    record = a_record("duo-regna")
    path = tmp_path / "m.json"
    forged = [
        MatchRecord(**{**record.__dict__, "returns": [-r for r in record.returns]}),
        MatchRecord(**{**record.__dict__, "scores": [s + 1 for s in record.scores]}),
        MatchRecord(**{**record.__dict__, "actions": record.actions + [0]}),
        MatchRecord(**{**record.__dict__, "actions": [999] + record.actions}),
        MatchRecord(**{**record.__dict__, "seed": -1}),
        MatchRecord(**{**record.__dict__, "game": "chess"}),
        MatchRecord(**{**record.__dict__, "actions": "1,2,3"}),  # type: ignore[arg-type]
    ]
    for bad in forged:
        regalia.save_game(path, bad)
        with pytest.raises(InvalidStateError):
            regalia.load_game(path)
    unfinished = MatchRecord(**{**record.__dict__, "actions": record.actions[:3], "returns": [], "scores": []})
    regalia.save_game(path, unfinished)
    assert regalia.load_game(path) == unfinished


def test_deeply_nested_files_are_refused_naming_them(tmp_path: Path, backend: str) -> None:
    for i, text in enumerate(["[" * 1000, '{"format": "regalia-state", "state": ' + "[" * 5000]):
        path = tmp_path / f"deep{i}.json"
        path.write_text(text)
        with pytest.raises(InvalidStateError, match=f"{path.name}.*not valid JSON"):
            regalia.load_game(path, backend=backend)  # type: ignore[arg-type]


def test_a_regnum_save_from_before_final_round_plays_on_as_it_was_played(tmp_path: Path, backend: str) -> None:
    """A save without the ``final_round`` option was played with one more turn each: it loads
    with ``final_round="one_each"``, its history replays under that rule, and it plays on."""
    game = regalia.make("regnum", backend=backend, final_round="one_each")  # type: ignore[arg-type]
    state = game.new_state(8)
    rnd = random.Random(8)
    while state.observation(0)["final_turns"] is None:
        state.apply(rnd.choice(state.legal_actions()))
    env = json.loads(state.to_json())
    del env["options"]["final_round"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(env))
    loaded = regalia.load_game(path, backend=backend)  # type: ignore[arg-type]
    assert json.loads(loaded.to_json())["options"]["final_round"] == "one_each"
    assert loaded.to_json() == state.to_json()
    assert game.state_from_json(json.dumps(env)) == state
    with pytest.raises(InvalidStateError, match="options"):
        regalia.make("regnum", backend=backend).state_from_json(json.dumps(env))  # type: ignore[arg-type]
