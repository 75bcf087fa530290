"""The Duo Regna solver from Python: its table and cache, its policy, and the ``solver`` agent.

The solver's equilibrium is checked against brute force in the engine's tests
(``rust/engine/src/solver``), and its rates against other players are computed exactly there
(and in docs/agents.md); here: the Python surface, the cache, hidden information, the agent.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

import regalia
from regalia.agents import make_agent
from regalia.core.errors import InvalidArgumentError, InvalidOptionError, InvalidStateError
from regalia.theory import solver

#: A short game whose table solves in about a second.
SMALL = {"dragon_deck": [2, 1], "dragons_to_win": 2, "max_rounds": 18}


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh cache directory, and no table kept in memory for the small game."""
    monkeypatch.setenv("REGALIA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(solver, "_TABLES", {})
    return tmp_path


def test_the_policy_is_a_distribution_over_the_legal_actions(cache: Path) -> None:
    state = regalia.make("duo-regna", **SMALL).new_state(seed=4)
    while not state.is_terminal:
        strategy, value = state.solver_policy()
        assert sorted(strategy) == state.legal_actions()
        assert all(p >= 0 for p in strategy.values()) and math.isclose(sum(strategy.values()), 1.0)
        assert -1.0 - 1e-9 <= value <= 1.0 + 1e-9
        assert solver.policy(state) == (strategy, value)
        state.apply(max(strategy, key=lambda a: strategy[a]))


def test_seat_one_is_told_nothing_about_seat_zeros_card(cache: Path) -> None:
    game = regalia.make("duo-regna", **SMALL)
    for seed in range(5):
        state = game.new_state(seed=seed)
        state.apply(state.legal_actions()[seed % 9])
        told = solver.policy(state)
        for world in range(4):
            assert solver.policy(state.determinize(1, world)) == told
        # The value is seat 1's side of the same zero-sum game as seat 0's before it chose.
        before = game.new_state(seed=seed)
        assert math.isclose(told[1], -solver.policy(before)[1], abs_tol=1e-9)


def test_the_reference_backend_gets_the_same_answers(cache: Path) -> None:
    rust = regalia.make("duo-regna", **SMALL).new_state(seed=2)
    ref = regalia.make("duo-regna", backend="reference", **SMALL).new_state(seed=2)
    for _ in range(6):
        assert solver.policy(ref) == solver.policy(rust)
        action = rust.legal_actions()[-1]
        rust.apply(action)
        ref.apply(action)


def test_the_table_is_cached_and_a_damaged_file_is_solved_again(cache: Path) -> None:
    first = solver.table(SMALL)
    (path,) = cache.glob("duo-regna-*.solved")
    data = path.read_bytes()
    assert regalia._core.DuoRegnaSolver.from_bytes(solver._full_options(SMALL), data).start_value == first.start_value
    for damaged in (data[: len(data) // 2], data[:-1] + bytes([data[-1] ^ 1]), b"", b"not a table"):
        path.write_bytes(damaged)
        solver._TABLES.clear()
        again = solver.table(SMALL)
        assert path.read_bytes() == data, "the damaged file is replaced by a good one"
        assert len(again) == len(first)
    with pytest.raises(regalia.InvalidStateError):
        regalia._core.DuoRegnaSolver.from_bytes(solver._full_options(SMALL), data[:-8])


def test_unsolvable_options_and_other_games_are_refused() -> None:
    with pytest.raises(InvalidOptionError, match="cannot solve"):
        solver.table({"dragons_to_win": 8})
    with pytest.raises(InvalidOptionError, match="max_rounds"):
        solver.table({"max_rounds": 100})
    with pytest.raises(InvalidArgumentError, match="duo-regna"):
        regalia.make("duo").new_state(seed=1).solver_policy()
    with pytest.raises(InvalidArgumentError, match="duo-regna"):
        regalia.play("duell-der-drachen", ["solver", "random"], seed=1)
    over = regalia.make("duo-regna", max_rounds=1).new_state(seed=1)
    over.apply(0)
    over.apply(0)
    with pytest.raises(InvalidArgumentError, match="over"):
        over.solver_policy()


def test_the_agent_is_reproducible_for_its_seed(cache: Path) -> None:
    game = regalia.make("duo-regna", **SMALL)
    runs = [regalia.play(game, ["solver", "random"], seed=7).actions for _ in range(2)]
    assert runs[0] == runs[1]
    agent = make_agent("solver", seed=1)
    assert agent.name == "solver"


def test_planning_against_a_uniform_opponent_reads_only_the_view() -> None:
    """Values for exactly the legal cards, the same on both backends, and the same for seat 1
    whatever card seat 0 has committed (the planner sees only the seat's observation)."""
    options = {"max_rounds": 30}
    for seed in range(3):
        rust = regalia.make("duo-regna", **options).new_state(seed=seed)
        ref = regalia.make("duo-regna", backend="reference", **options).new_state(seed=seed)
        while not rust.is_terminal:
            seat = rust.current_player
            values = solver.against_uniform(rust.observation(seat), options)
            assert sorted(values) == rust.legal_actions()
            assert all(-1.0 <= v <= 1.0 for v in values.values())
            assert solver.against_uniform(ref.observation(seat), options) == values
            if seat == 1:
                for world in range(3):
                    hidden = rust.determinize(1, world).observation(1)
                    assert solver.against_uniform(hidden, options) == values
            best = max(values, key=lambda a: values[a])
            rust.apply(best)
            ref.apply(best)


def test_planning_refuses_what_is_not_a_view_of_the_seat_to_move() -> None:
    state = regalia.make("duo-regna").new_state(seed=1)
    with pytest.raises(InvalidStateError, match="not the turn"):
        solver.against_uniform(state.observation(1))
    broken = {**state.observation(0), "captured": [3, 0]}
    with pytest.raises(InvalidStateError, match="do not add up"):
        solver.against_uniform(broken)
    with pytest.raises(InvalidStateError, match="plain dict"):
        solver.against_uniform({"hand": object()})  # type: ignore[dict-item]
    with pytest.raises(InvalidOptionError):
        solver.against_uniform(state.observation(0), {"dragons_to_win": 0})


def test_the_rule_based_player_plays_on_the_reference_backend() -> None:
    game = regalia.make("duo-regna", backend="reference")
    record = regalia.play(game, ["rules", "random"], seed=3)
    assert record.replay().is_terminal
