"""Duo Regna's opponent model and safe exploitation (``regalia.agents.duo_regna_model``):
it names the kind of player it meets from her reveals, predicts her cards, and never risks
more than her mistakes have paid for."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import regalia
from regalia.agents import View, make_agent, view_of
from regalia.agents.duo_regna_model import KINDS, Memory, kind_of, safe_response
from regalia.agents.solver_agent import SolverAgent
from regalia.theory import solver

Opponent = Callable[[View, int], int]  # the view and the round number to a card


def _play(opponent: Opponent, seed: int, watch: Callable[[Memory, int, int], None] | None = None) -> Memory:
    """One default game, seat 0 the exploiting solver, seat 1 ``opponent``; ``watch(memory,
    round, her card)`` is called once the solver has moved and she has chosen."""
    state = regalia.make("duo-regna").new_state(seed=seed)
    me = SolverAgent(seed=seed, exploit=True)
    while not state.is_terminal:
        r = state.observation(0)["round"]
        state.apply(me.act(view_of(state, 0, "duo-regna", {}, world_seed=r)))
        card = opponent(view_of(state, 1, "duo-regna", {}, world_seed=r), r)
        if watch is not None:
            watch(me.memory, r, card)
        assert me.memory.budget >= -1e-12  # safe: never more risked than was paid for
        state.apply(card)
    return me.memory


def _agent(name: str, seed: int) -> Opponent:
    agent = make_agent(name, seed)
    return lambda view, _: agent.act(view)


def test_the_level_1_player_is_named_and_her_cards_predicted_exactly() -> None:
    predicted: list[tuple[list[float], int]] = []

    def watch(memory: Memory, r: int, card: int) -> None:
        predicted.append((memory.beliefs.predictions["level-1"], kind_of(card)))

    for seed in range(3, 7):
        memory = _play(_agent("rules", seed), seed=seed, watch=watch)
        assert memory.beliefs.misses["level-1"] == 0
        assert memory.beliefs.weights["level-1"] > 0.9, memory.beliefs.weights
        assert memory.exploited > 0
    assert len(predicted) > 40
    # Every card she played was one the type gave a chance, and the certain one when it named one.
    assert all(p[kind] > 0 for p, kind in predicted)
    certain = [(p, kind) for p, kind in predicted if max(p) == 1.0]
    assert len(certain) > len(predicted) // 2 and all(p[kind] == 1.0 for p, kind in certain)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_uniformly_random_player_is_not_taken_for_another(seed: int) -> None:
    memory = _play(_agent("random", seed), seed=seed)
    weights = memory.beliefs.weights
    assert max(weights, key=lambda t: weights[t]) == "uniform", weights
    assert weights["level-1"] < 0.05 and memory.beliefs.misses["level-1"] > 0


def test_a_player_who_switches_kind_is_dropped_and_the_budget_holds() -> None:
    """The level-1 player for a hand, then at random: her weight falls within a few
    rounds, and the budget (asserted never below zero in ``_play``) shrinks as predictions fail."""
    rules, other = make_agent("rules", 5), make_agent("random", 5)
    switch = 9
    trace: dict[int, tuple[float, float]] = {}

    def opponent(view: View, r: int) -> int:
        chosen = rules.act(view)  # kept watching, so its memory stays that of the game
        return chosen if r < switch else other.act(view)

    def watch(memory: Memory, r: int, _: int) -> None:
        trace[r] = (memory.beliefs.weights["level-1"], memory.budget)

    _play(opponent, seed=5, watch=watch)
    assert max(trace) >= switch + 9, "the game ended too soon to see the switch"
    assert trace[switch - 1][0] > 0.9
    assert min(trace[r][0] for r in range(switch, switch + 9)) < 0.1


def _game() -> solver.MatrixGame:
    state = regalia.make("duo-regna").new_state(seed=1)
    for card in (8, 0, 3, 5):  # two rounds: 6 against X, then 3 against 5
        state.apply(card)
    return solver.matrix_game(state.observation(0))


def _worst(game: solver.MatrixGame, strategy: list[float]) -> float:
    cols = range(len(game.theirs))
    return min(sum(p * game.payoff[i][j] for i, p in enumerate(strategy)) for j in cols)


def test_the_safe_response_risks_exactly_the_budget() -> None:
    game = _game()
    her = [0.0] * KINDS
    her[game.theirs[-1]] = 1.0  # she will surely play her last kind
    best = max(range(len(game.mine)), key=lambda i: game.payoff[i][-1])
    eq = list(game.row)
    assert safe_response(game, her, 0.0) == eq  # nothing paid: the equilibrium
    pure = [0.0] * len(game.mine)
    pure[best] = 1.0
    assert safe_response(game, her, 10.0) == pure  # enough paid: the best response
    risk = game.value - _worst(game, pure)
    assert risk > 0
    for budget in (risk / 10, risk / 2):
        mixed = safe_response(game, her, budget)
        assert sum(mixed) == pytest.approx(1.0) and min(mixed) >= 0
        assert _worst(game, mixed) == pytest.approx(game.value - budget, abs=1e-12)
        assert mixed[best] > eq[best]
    # The equilibrium's own prediction gains nothing: no risk taken.
    theirs = [0.0] * KINDS
    for k, p in zip(game.theirs, game.col, strict=True):
        theirs[k] = p
    assert safe_response(game, theirs, 1.0) == eq


def test_the_matrix_game_reads_only_the_seat_to_move_s_view() -> None:
    state = regalia.make("duo-regna").new_state(seed=2)
    state.apply(4)
    game = solver.matrix_game(state.observation(1))
    for world in range(3):
        assert solver.matrix_game(state.determinize(1, world).observation(1)) == game
    strategy, value = solver.policy(state)
    assert value == pytest.approx(game.value, abs=1e-12)
    assert strategy[4] == pytest.approx(game.row[game.mine.index(4)], abs=1e-12)
    with pytest.raises(regalia.InvalidStateError, match="not the turn"):
        solver.matrix_game(state.observation(0))


def test_best_in_duo_regna_exploits_and_the_plain_solver_does_not() -> None:
    best: Any = make_agent("best", 1).agent_for("duo-regna")
    assert isinstance(best, SolverAgent) and best.exploit
    assert not make_agent("solver", 1).exploit  # type: ignore[attr-defined]
