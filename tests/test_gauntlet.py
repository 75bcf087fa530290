"""The gauntlet and its fixed strategies: who plays what, how points are counted, and the
command line printing the library's numbers."""

from __future__ import annotations

import json
from typing import Any

import pytest

import regalia
from regalia.agents import AGENTS, make_agent, view_of
from regalia.cli import exits
from regalia.core.errors import InvalidArgumentError
from regalia.matches.gauntlet import FIXED_STRATEGIES, PANEL, game_points
from tests.cli_helpers import run


def _views(name: str, count: int = 40) -> list[regalia.agents.View]:
    """Views of the seat to move along a random game."""
    game = regalia.make(name)
    state = game.new_state(4)
    views = []
    rng = __import__("random").Random(1)
    while not state.is_terminal and len(views) < count:
        views.append(view_of(state, state.current_player, game.name, game.options, 0))
        state.apply(rng.choice(state.legal_actions()))
    return views


@pytest.mark.parametrize("name", [g["name"] for g in regalia.games()])
def test_fixed_strategies_follow_their_order(name: str) -> None:
    first, last = make_agent("first-legal", 1), make_agent("last-legal", 2)
    orders = [make_agent(f"fixed-order:order={k}", seed) for k, seed in ((1, 5), (1, 6), (2, 5))]
    picks: list[list[int]] = [[], [], []]
    for view in _views(name):
        assert first.act(view) == view.legal_actions[0]
        assert last.act(view) == view.legal_actions[-1]
        for k, agent in enumerate(orders):
            picks[k].append(agent.act(view))
            assert picks[k][-1] in view.legal_actions
    assert picks[0] == picks[1], "the order does not depend on the agent's seed"
    if name != "duo-regna":  # a few choices of one or two cards may agree by chance
        assert picks[0] != picks[2], "another order plays otherwise"


def test_the_panel_is_made_of_built_in_agents() -> None:
    assert PANEL[0] == "random" and PANEL[-1] == "rules" and set(FIXED_STRATEGIES) < set(PANEL)
    for spec in PANEL:
        assert spec.split(":")[0] in AGENTS
        make_agent(spec, 0)
    with pytest.raises(InvalidArgumentError):
        make_agent("fixed-order:order=-1", 0)
    with pytest.raises(InvalidArgumentError):
        make_agent("fixed-order", 0, order="x")


def test_game_points_split_a_shared_win() -> None:
    assert game_points([1.0, -1.0], 0) == 1.0 and game_points([1.0, -1.0], 1) == 0.0
    assert game_points([0.0, 0.0], 1) == 0.5
    assert game_points([0.5, 0.5, -0.5, -0.5], 1) == 0.5 and game_points([0.5, 0.5, -0.5, -0.5], 2) == 0.0


def test_gauntlet_counts_the_tournaments_games() -> None:
    game = regalia.make("duo")
    result = regalia.gauntlet(game, "rules", games=6, seed=3, opponents=["first-legal", "random"], timing=False)
    assert [r.opponent for r in result.rows] == ["first-legal", "random"] and result.seconds_per_decision is None
    played = regalia.tournament(game, {"rules (agent)": "rules", "first-legal": "first-legal"}, games=6, seed=3)
    row = result.row("first-legal")
    me = played.standing("rules (agent)")
    assert row.games == 6 and row.points == me.wins + me.draws / 2
    assert row.share == row.points / 6 and row.low <= row.share <= row.high
    assert row.seat_shares == [
        sum(game_points(r.returns, s) for r, seats in zip(played.records, played.seating) if seats.index(0) == s) / 3
        for s in (0, 1)
    ]
    assert str(result).count("\n") > 4 and json.loads(json.dumps(result.to_dict()))["rows"][0]["games"] == 6


def test_a_gauntlet_of_more_seats_plays_against_copies() -> None:
    game = regalia.make("duo", players=3)
    result = regalia.gauntlet(game, "random", games=6, seed=1, opponents=["first-legal"], timing=True)
    row = result.row("first-legal")
    assert len(row.seat_shares) == 3 and row.games == 6
    assert result.seconds_per_decision is not None and result.seconds_per_decision >= 0
    with pytest.raises(InvalidArgumentError):
        regalia.gauntlet(game, "random", games=3, opponents=[])


def test_gauntlet_command_prints_the_librarys_numbers() -> None:
    args = ("gauntlet", "duo-regna", "--agent", "rules", "-n", "4", "--seed", "2")
    data = json.loads(run(*args, "--json").stdout)
    expected = regalia.gauntlet(regalia.make("duo-regna"), "rules", games=4, seed=2, timing=False).to_dict()
    assert data["rows"] == expected["rows"] and data["seconds_per_decision"] > 0
    table = run(*args)
    assert table.exit_code == exits.OK
    for row in expected["rows"]:
        assert any(line.startswith(f"| {row['opponent']} ") for line in table.stdout.splitlines())
    bad = run("gauntlet", "duo", "--agent", "rules:x=1")
    assert bad.exit_code == exits.USAGE and "unknown option 'x' for agent 'rules'" in bad.stderr
    two = run("gauntlet", "duo", "--agent", "rules,random")
    assert two.exit_code == exits.USAGE


def test_best_plays_each_games_strongest_agent_with_options_passed_on() -> None:
    from regalia.agents import BEST, BestAgent
    from regalia.agents.best import best_for

    assert set(BEST) == {g["name"] for g in regalia.games()}
    best = make_agent("best:iterations=50", 3)
    assert isinstance(best, BestAgent)
    for name in BEST:
        if best_for(name)[0] != "ismcts":
            continue
        inner = best.agent_for(name)
        assert isinstance(inner, regalia.agents.IsmctsAgent) and inner.iterations == 50
    record = regalia.play("duo", ["best:iterations=50", "first-legal"], seed=2)
    assert record.agents[0] == "best" and record.returns
    with pytest.raises(regalia.InvalidOptionError):
        make_agent("best:genius=1", 0).act(_views("duo", 1)[0])


def test_best_in_duo_models_the_others_as_fixed_players_only_with_more_than_two() -> None:
    from regalia.agents.best import BestAgent, best_for

    assert "opponents" not in best_for("duo")[1]
    assert "opponents" not in best_for("duo", {"players": 2})[1]
    assert best_for("duo", {"players": 4}) == ("ismcts", {"iterations": 3000, "opponents": "first-legal"})
    agent: Any = BestAgent(1, iterations=10).agent_for("duo", {"players": 3})
    assert (agent.opponents, agent.iterations) == ("first-legal", 10)


def test_best_in_duo_regna_is_the_solver_where_it_solves_and_search_elsewhere() -> None:
    from regalia.agents import IsmctsAgent, SolverAgent
    from regalia.agents.best import best_for

    assert best_for("duo-regna")[0] == "solver"
    assert best_for("duo-regna", {"max_rounds": 50})[0] == "ismcts"  # the solver refuses this guard
    best = make_agent("best:iterations=40", 1)
    assert isinstance(best.agent_for("duo-regna"), SolverAgent)  # takes no search options
    searching = best.agent_for("duo-regna", {"max_rounds": 50})
    assert isinstance(searching, IsmctsAgent) and searching.iterations == 40
    game = regalia.make("duo-regna", max_rounds=50)
    record = regalia.play(game, ["best:iterations=40", "random"], seed=4)
    assert record.returns
