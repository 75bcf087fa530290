"""Agents and views: the protocol, the built-in agents by name, and views that never show
what their seat may not see."""

from __future__ import annotations

import random
from typing import Any

import pytest

import regalia
from regalia.agents import AGENTS, POLICIES, FunctionAgent, IsmctsAgent, RandomAgent, View, make_agent, view_of
from regalia.core.errors import InvalidArgumentError, InvalidOptionError


def midgame(config: tuple[str, int], seed: int, backend: str = "rust") -> Any:
    name, players = config
    game = regalia.make(name, backend=backend, players=players)  # type: ignore[arg-type]
    state = game.new_state(seed)
    rnd = random.Random(seed)
    for _ in range(rnd.randrange(2, 12)):
        if state.is_terminal:
            break
        state.apply(rnd.choice(state.legal_actions()))
    return game, state


def seen(view: View, samples: int = 4) -> Any:
    """Everything an agent can learn from a view, with the worlds it samples as the seat sees them."""
    return (
        view.game,
        view.options,
        view.seat,
        view.observation,
        view.legal_actions,
        view.action_names,
        [view.sample_world(k).observation(view.seat) for k in range(samples)],
        [view.sample_world(k).legal_actions() for k in range(samples)],
    )


def test_a_view_shows_the_same_whatever_the_hidden_cards(config: tuple[str, int], backend: str) -> None:
    """Change every hidden card (a world the seat cannot tell from the true one): the view
    of the seat, its sampled worlds as the seat sees them, and the agents' choices stay the same."""
    for seed in range(4):
        game, state = midgame(config, seed, backend)
        for seat in range(game.num_players):
            other = state.determinize(seat, 1000 + seed)
            a = view_of(state, seat, game.name, game.options, world_seed=7)
            b = view_of(other, seat, game.name, game.options, world_seed=7)
            assert seen(a) == seen(b)
            if a.legal_actions and a.game in POLICIES:
                assert make_agent("rules", 3).act(a) == make_agent("rules", 3).act(b)


def test_a_view_keeps_no_true_state(config: tuple[str, int]) -> None:
    game, state = midgame(config, 5)
    seat = state.current_player if state.current_player is not None else 0
    view = view_of(state, seat, game.name, game.options, world_seed=3)
    assert view._world == state.determinize(seat, 3)
    assert all(value is not state for value in vars(view).values())
    assert view._world.history() == []


def test_the_view_of_another_seat_has_no_moves() -> None:
    game = regalia.make("duo-regna")
    state = game.new_state(1)
    view = view_of(state, 1, game.name, game.options)
    assert view.legal_actions == [] and view.action_names == []
    mine = view_of(state, 0, game.name, game.options)
    assert mine.legal_actions == state.legal_actions()
    assert [mine.action_name(a) for a in mine.legal_actions] == mine.action_names


def test_built_in_agents_by_name() -> None:
    assert {"random", "rules", "ismcts"} <= set(AGENTS)
    assert isinstance(make_agent("random", 1), RandomAgent)
    agent = make_agent("ismcts:iterations=50:exploration=0.5", 2)
    assert isinstance(agent, IsmctsAgent) and agent.iterations == 50 and agent.exploration == 0.5
    assert make_agent("ismcts", 2, iterations=7).iterations == 7  # type: ignore[attr-defined]
    with pytest.raises(InvalidOptionError, match="unknown agent 'nobody'"):
        make_agent("nobody")
    with pytest.raises(InvalidOptionError, match="unknown option 'depth' for agent 'random'; its options: none"):
        make_agent("random:depth=3")
    with pytest.raises(InvalidOptionError, match="key=value"):
        make_agent("ismcts:200")
    with pytest.raises(InvalidArgumentError):
        make_agent("ismcts", iterations=0)


@pytest.mark.parametrize("name", ["random", "ismcts:iterations=30"])
def test_built_in_agents_play_every_game(config: tuple[str, int], name: str) -> None:
    game = regalia.make(config[0], players=config[1])
    record = regalia.play(game, [name] * game.num_players, seed=4)
    assert record.replay().is_terminal


@pytest.mark.parametrize("chance", ["seeded", "explicit"])
def test_rule_based_players_play_their_games(chance: str) -> None:
    """Whole games at every player count, with the cards drawn from the seed or (explicit
    chance) by the match, whose chance nodes the players' own lookahead must draw too."""
    listed = {g["name"]: g for g in regalia.games()}
    for name in POLICIES.keys() & listed.keys():
        info = listed[name]
        for players in range(info["min_players"], info["max_players"] + 1):
            game = regalia.make(name, players=players, chance=chance)
            for seed in range(3):
                record = regalia.play(game, ["rules"] * players, seed=seed)
                assert record.replay().returns() == record.returns


def test_the_rule_based_player_names_games_it_cannot_play() -> None:
    view = View("no-such-game", {}, 0, {}, [0], ["x"], None)
    with pytest.raises(InvalidOptionError, match="no rule-based player"):
        make_agent("rules").act(view)


def test_ismcts_agent_is_deterministic_and_works_on_the_reference_backend() -> None:
    for backend in regalia.BACKENDS:
        game = regalia.make("duo-regna", backend=backend)  # type: ignore[arg-type]
        a = regalia.play(game, [IsmctsAgent(1, iterations=40), RandomAgent(2)], seed=9)
        b = regalia.play(game, [IsmctsAgent(1, iterations=40), RandomAgent(2)], seed=9)
        assert a == b


def test_plain_functions_are_agents() -> None:
    def first(view: View) -> int:
        return view.legal_actions[0]

    record = regalia.play("duo-regna", [first, "random"], seed=1)
    assert record.agents == ["first", "random"]
    assert FunctionAgent(first).act(View("g", {}, 0, {}, [4, 5], ["a", "b"], None)) == 4
