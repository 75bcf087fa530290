"""Tournaments: seat rotation, the same results with any number of workers, statistics."""

from __future__ import annotations

import csv
import io
import json
import math

import pytest

import regalia
from regalia.agents import RandomAgent, View
from regalia.core.errors import AgentError, InvalidArgumentError
from regalia.matches.tournaments import elo_ratings, seating_of, wilson_interval


def test_seats_rotate_and_each_deal_is_played_in_every_seat() -> None:
    result = regalia.tournament("duo-regna", ["rules", "random"], games=6, seed=3, progress=False)
    assert result.seating == [[0, 1], [1, 0]] * 3
    for g, record in enumerate(result.records):
        assert record.agents == [result.agents[i] for i in seating_of(g, 2)]
        assert record.replay().returns() == record.returns
    assert [r.seed for r in result.records[0::2]] == [r.seed for r in result.records[1::2]]
    assert len({r.seed for r in result.records}) == 3


def test_results_do_not_depend_on_the_number_of_workers() -> None:
    agents = ["ismcts:iterations=20", RandomAgent(5)]
    one = regalia.tournament("duo-regna", agents, games=8, seed=1, progress=False)
    two = regalia.tournament("duo-regna", agents, games=8, seed=1, workers=2, progress=False)
    assert one.records == two.records
    assert one.standings == two.standings


def test_standings_count_every_game() -> None:
    result = regalia.tournament("duo-regna", {"a": "random", "b": "random"}, games=40, seed=2, progress=False)
    a, b = result.standing("a"), result.standing("b")
    assert a.games == b.games == 40
    assert a.wins + a.draws + a.losses == 40
    assert a.wins == b.losses and a.draws == b.draws
    assert a.win_low <= a.win_rate <= a.win_high
    assert math.isclose(a.mean_return, -b.mean_return, abs_tol=1e-12)
    assert (a.elo > b.elo) == (a.wins > b.wins)
    assert math.isclose(a.elo + b.elo, 3000)


def test_results_as_table_json_and_csv() -> None:
    result = regalia.tournament("duo-regna", ["rules", "random"], games=4, seed=0, progress=False)
    text = str(result)
    assert "rules" in text and "win rate" in text and "Elo" in text
    data = json.loads(result.to_json())
    assert data["agents"] == ["rules", "random"] and len(data["records"]) == 4
    assert data["standings"][0]["games"] == 4
    rows = list(csv.DictReader(io.StringIO(result.to_csv())))
    assert [r["agent"] for r in rows] == ["rules", "random"]
    assert int(rows[0]["wins"]) == result.standings[0].wins


def test_repeated_agents_get_numbered_labels() -> None:
    result = regalia.tournament("duo-regna", ["random", "random"], games=2, progress=False)
    assert result.agents == ["random#1", "random#2"]


def test_a_failing_agent_stops_the_tournament_or_forfeits() -> None:
    def bad(view: View) -> int:
        return -1

    with pytest.raises(AgentError, match="illegal action -1"):
        regalia.tournament("duo-regna", [bad, "random"], games=2, progress=False)
    result = regalia.tournament("duo-regna", [bad, "random"], games=4, progress=False, on_error="forfeit")
    assert result.standing("bad").losses == 4


def test_bad_arguments() -> None:
    with pytest.raises(InvalidArgumentError, match="needs 2 agents"):
        regalia.tournament("duo-regna", ["random"], games=2)
    for bad in (0, -1, True, 2.5):
        with pytest.raises(InvalidArgumentError, match="games"):
            regalia.tournament("duo-regna", ["random", "random"], games=bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="workers"):
        regalia.tournament("duo-regna", ["random", "random"], games=2, workers=0)


def test_wilson_interval_matches_known_values() -> None:
    low, high = wilson_interval(81, 263, 0.95)  # Wilson (1927) style textbook example
    assert math.isclose(low, 0.2553, abs_tol=5e-4) and math.isclose(high, 0.3662, abs_tol=5e-4)
    assert wilson_interval(0, 10)[0] < 1e-12 and wilson_interval(10, 10)[1] > 1 - 1e-12
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_elo_follows_the_expected_score() -> None:
    # 75% for agent 0 against agent 1 is about 191 Elo points (400 * log10(3)).
    ratings = elo_ratings({(0, 1): (7500.0, 10000.0)}, 2)
    assert math.isclose(ratings[0] - ratings[1], 400 * math.log10(3), abs_tol=1.0)
    assert elo_ratings({}, 3) == [1500.0, 1500.0, 1500.0]
