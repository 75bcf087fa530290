"""Matches: records that replay exactly and save as JSON; agents that fail are named."""

from __future__ import annotations

import json
from typing import Any

import pytest

import regalia
from regalia.agents import RandomAgent, View
from regalia.core.errors import AgentError, InvalidArgumentError, InvalidStateError
from regalia.registry.records import MatchRecord
from tests.conftest import make_game


def test_records_replay_exactly_and_round_trip_through_json(config: tuple[str, int], backend: str) -> None:
    name, players = config
    game = make_game(name, players, backend)
    for seed in range(3):
        record = regalia.play(game, ["random"] * players, seed=seed)
        assert record.game == name and record.seed == seed and record.options == game.options
        assert record.agents == ["random"] * players and record.error is None and record.forfeit is None
        final = record.replay(backend)
        assert final.is_terminal and final.history() == record.actions
        assert final.returns() == record.returns and final.scores() == record.scores
        loaded = MatchRecord.from_json(record.to_json())
        assert loaded == record
        assert loaded.replay().history() == record.actions


def test_the_same_seeds_play_the_same_match() -> None:
    def match() -> MatchRecord:
        return regalia.play("duo-regna", [RandomAgent(3), "ismcts:iterations=20"], seed=12)

    assert match() == match()


def test_an_illegal_action_names_the_seat_and_the_action() -> None:
    calls = 0

    def sloppy(view: View) -> int:
        nonlocal calls
        calls += 1
        return view.legal_actions[0] if calls < 4 else 99

    with pytest.raises(AgentError, match=r"seat 1 \(sloppy\) chose illegal action 99") as e:
        regalia.play("duo-regna", ["random", sloppy], seed=3)
    err = e.value
    assert err.seat == 1 and err.action == 99
    record = err.record
    assert len(record.actions) == 7  # 4 moves by seat 0, 3 by seat 1
    assert record.error["seat"] == 1 and record.error["action"] == 99
    assert record.replay().history() == record.actions
    assert MatchRecord.from_json(record.to_json()) == record


def test_an_agent_that_raises_is_named_and_keeps_the_record() -> None:
    def broken(view: View) -> int:
        raise RuntimeError("out of ideas")

    with pytest.raises(AgentError, match=r"seat 0 \(broken\) raised RuntimeError: out of ideas") as e:
        regalia.play("duo-regna", [broken, "random"], seed=3)
    assert isinstance(e.value.__cause__, RuntimeError)
    assert e.value.record.actions == [] and e.value.action is None


@pytest.mark.parametrize("bad", ["5", None, 2.0, True])
def test_a_non_integer_choice_is_refused(bad: Any) -> None:
    with pytest.raises(AgentError, match="not an action id"):
        regalia.play("duo-regna", [lambda v: bad, "random"], seed=1)


def test_numpy_integers_are_actions() -> None:
    import numpy as np

    record = regalia.play("duo-regna", [lambda v: np.int64(v.legal_actions[-1]), "random"], seed=1)
    assert all(type(a) is int for a in record.actions)


def test_forfeit_on_error_ends_the_match_with_a_loss() -> None:
    record = regalia.play("duo-regna", ["random", lambda v: -1], seed=5, on_error="forfeit")
    assert record.forfeit == 1 and record.returns == [1.0, -1.0]
    assert record.error is not None and "illegal action -1" in record.error["message"]
    assert len(record.actions) == 1
    assert MatchRecord.from_json(record.to_json()) == record


def test_hooks_are_called_at_start_and_end() -> None:
    class Counting(RandomAgent):
        def __init__(self) -> None:
            super().__init__(1)
            self.events: list[Any] = []

        def game_start(self, view: View) -> None:
            self.events.append(("start", view.seat, view.observation["round"]))

        def game_end(self, view: View, returns: list[float]) -> None:
            self.events.append(("end", view.seat, returns))

    a, b = Counting(), Counting()
    record = regalia.play("duo-regna", [a, b], seed=2)
    assert a.events == [("start", 0, 0), ("end", 0, record.returns)]
    assert b.events == [("start", 1, 0), ("end", 1, record.returns)]


def test_bad_arguments() -> None:
    with pytest.raises(InvalidArgumentError, match="needs 2 agents"):
        regalia.play("duo-regna", ["random"])
    with pytest.raises(InvalidArgumentError, match="on_error"):
        regalia.play("duo-regna", ["random", "random"], on_error="ignore")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="act"):
        regalia.play("duo-regna", ["random", 42])  # type: ignore[list-item]


@pytest.mark.parametrize(
    "text",
    ["", "[]", json.dumps({"format": "regalia-match", "version": 2}), json.dumps({"format": "x", "version": 1})],
)
def test_malformed_records_are_refused(text: str) -> None:
    with pytest.raises(InvalidStateError):
        MatchRecord.from_json(text)


def test_a_record_with_bad_actions_is_refused() -> None:
    d = json.loads(regalia.play("duo-regna", ["random", "random"], seed=1).to_json())
    d["actions"] = ["a"]
    with pytest.raises(InvalidStateError):
        MatchRecord.from_json(json.dumps(d))


@pytest.mark.parametrize("name", ["duo-regna", "duell-der-drachen", "duo"])
def test_a_match_of_a_game_with_explicit_chance_draws_its_chance_outcomes(name: str) -> None:
    game = regalia.make(name, chance="explicit")
    record = regalia.play(game, ["random", "rules"], seed=3)
    assert record.returns and record == regalia.play(game, ["random", "rules"], seed=3)
    state = game.new_state(3)
    chance_steps = 0
    for a in record.actions:
        chance_steps += state.is_chance_node
        assert a in state.legal_actions()
        state.apply(a)
    assert state.is_terminal and state.returns() == record.returns and chance_steps > 0
    assert regalia.play(game, ["random", "rules"], seed=4).actions != record.actions
