"""regalia.theory.exact and CFR+: the whole tree of small variants with explicit chance, exact
exploitability and CFR+, checked against OpenSpiel's own algorithms on the adapter and
against the Duo Regna solver."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import regalia
from regalia import _core
from regalia.agents.cfr_agent import CfrAgent
from regalia.core.errors import GameTooLargeError, InvalidArgumentError
from regalia.theory import exact, solver
from regalia.theory.cfr import Policy, information_state_key, solve
from tests.interrupt_helpers import interrupted

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python import policy as os_policy  # noqa: E402
from open_spiel.python.algorithms import cfr as os_cfr  # noqa: E402
from open_spiel.python.algorithms import exploitability as os_exploitability  # noqa: E402

import regalia.envs.openspiel  # noqa: E402  (registers the games)

#: One round with a pile of a single and a double dragon: 183 histories, 4 information sets.
ONE_ROUND = {"dragon_deck": [1, 1], "dragons_to_win": 1, "max_rounds": 1, "chance": "explicit"}
#: Two rounds with a pile of two singles and a double: 11,847 histories, 328 information sets.
TWO_ROUNDS = {"dragon_deck": [2, 1], "dragons_to_win": 2, "max_rounds": 2, "chance": "explicit"}
#: Regine's smallest walkable variant: two players, the Queens' Suit alone, one round, no
#: build phase, a deck of four Jesters and four Queens: 2,211 histories, 224
#: information sets (the documented ``deck=[3,0,0,0,0,0,3,3]`` has 50,608 histories, on
#: which OpenSpiel's Python exploitability alone takes about 10 s).
REGINE = {
    "players": 2,
    "deck": [4, 0, 0, 0, 0, 0, 0, 4],
    "build_phase": False,
    "suits": 1,
    "max_rounds": 1,
    "chance": "explicit",
}
#: The documented Regine variant with the Queens' Suit alone: 50,608 histories.
REGINE_QUEENS = {**REGINE, "deck": [3, 0, 0, 0, 0, 0, 3, 3]}


def _regnum_bench() -> Any:
    """``benches/regnum_small_variant.py``, which cuts Regnum's small card sets."""
    path = Path(__file__).resolve().parent.parent / "benches" / "regnum_small_variant.py"
    spec = importlib.util.spec_from_file_location("regnum_small_variant", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_REGNUM_BENCH = _regnum_bench()
#: Regnum's smallest tree found: two players, 20 green cards, the King, the Queen and six
#: characters green cannot pay for, two castles, three standards, one turn: 54,571 histories,
#: 10,080 information sets (only seat 0 moves, and it has seen every chance outcome).
REGNUM = {"card_set": _REGNUM_BENCH.small_card_set(_REGNUM_BENCH.UNAFFORDABLE), "max_turns": 1, "chance": "explicit"}
#: Duo's smallest variant: two players, one round, a deck of one colour, one number, two
#: shapes and their four Jokers, a card each: 4,045 histories, 240 information sets.
DUO = {"colours": 1, "numbers": 1, "shapes": 2, "hand_size": 1, "rounds": 1, "chance": "explicit"}
#: Duell der Drachen's smallest board: red and blue valued 1 and 2, a card each, one card a
#: side, one face-down card: 905 histories.
DUELL = {
    "territories": 2,
    "values": 2,
    "hand_size": 1,
    "cards_per_side": 1,
    "face_down_limit": 1,
    "chance": "explicit",
}
#: The Regine and Regnum variants of docs/game-theory.md's convergence runs (756,208 and 424,459
#: histories: their whole-tree key checks are slow).
REGINE_TWO_SUITS = {**REGINE_QUEENS, "suits": 2}
REGNUM_LINE_UP = {**REGNUM, "card_set": _REGNUM_BENCH.small_card_set(_REGNUM_BENCH.KEPT)}
#: Minutes: OpenSpiel's Python algorithms on ``REGNUM``, the key checks on the larger variants.
SLOW = pytest.mark.slow


def game(options: dict[str, Any], backend: str = "rust", name: str = "duo-regna") -> Any:
    return regalia.make(name, backend=backend, **options)  # type: ignore[arg-type]


def spiel(options: dict[str, Any], name: str = "duo-regna") -> Any:
    params = {k: json.dumps(v) if isinstance(v, (list, dict)) else v for k, v in options.items()}
    return pyspiel.load_game("regalia_" + name.replace("-", "_"), params)


class Delegate(os_policy.Policy):  # type: ignore[misc]
    """An OpenSpiel policy asking a function of the adapter's wrapped Regalia state."""

    def __init__(self, game: Any, function: Any) -> None:
        super().__init__(game, list(range(game.num_players())))
        self.function = function

    def action_probabilities(self, state: Any, player_id: Any = None) -> dict[int, float]:
        return dict(self.function(state.inner))


@pytest.mark.parametrize(
    ("name", "options", "iterations"),
    [
        ("duo-regna", TWO_ROUNDS, 15),
        ("regine", REGINE, 5),
        ("duo", DUO, 5),
        ("duell-der-drachen", DUELL, 5),
        pytest.param("regnum", REGNUM, 3, marks=SLOW),
    ],
)
def test_our_exploitability_is_openspiels_for_uniform_and_cfr_plus_policies(
    name: str, options: dict[str, Any], iterations: int
) -> None:
    ours, theirs = game(options, name=name), spiel(options, name=name)
    uniform = exact.exploitability(ours, exact.uniform)
    assert uniform.exploitability == pytest.approx(
        os_exploitability.exploitability(theirs, os_policy.UniformRandomPolicy(theirs)), abs=1e-9
    )
    policy = solve(ours, method="cfr+", iterations=iterations, progress=False)
    value = policy.exploitability()
    assert 0 < value < uniform.exploitability
    assert value == pytest.approx(
        os_exploitability.exploitability(theirs, Delegate(theirs, policy.action_probabilities)), abs=1e-9
    )


@pytest.mark.parametrize(
    ("name", "options", "iterations"),
    [
        ("duo-regna", ONE_ROUND, 12),
        ("duo-regna", TWO_ROUNDS, 3),
        ("regine", REGINE, 6),
        ("duo", DUO, 4),
        ("duell-der-drachen", DUELL, 4),
        pytest.param("regnum", REGNUM, 2, marks=SLOW),
    ],
)
def test_cfr_plus_matches_openspiels_after_as_many_iterations(
    name: str, options: dict[str, Any], iterations: int
) -> None:
    tree = exact.game_tree(game(options, name=name))
    run = _core.CfrPlus(tree)
    assert run.run(iterations) == iterations
    theirs = spiel(options, name=name)
    solver_ = os_cfr.CFRPlusSolver(theirs)
    for _ in range(iterations):
        solver_.evaluate_and_update_policy()
    average = solver_.average_policy()
    assert run.exploitability()["exploitability"] == pytest.approx(
        os_exploitability.exploitability(theirs, average), abs=1e-9
    )
    # The average policies agree at every information set (found through its string).
    ours = run.average()
    _, seats, counts, actions = tree.information_sets()
    starts = np.concatenate([[0], np.cumsum(counts, dtype=np.int64)])
    core = _core.make(name, options)
    for i in range(len(tree)):
        state = core.new_state(0)
        for a in tree.history(i):
            state.apply(a)
        table = average.policy_for_key(state.information_state_string(int(seats[i])))
        for j in range(starts[i], starts[i + 1]):
            assert ours[j] == pytest.approx(table[int(actions[j])], abs=1e-9)


def test_cfr_plus_reaches_the_solvers_value_and_the_solver_is_unexploitable() -> None:
    ours = game(TWO_ROUNDS)
    run = _core.CfrPlus(exact.game_tree(ours))
    run.run(2000)
    worth = run.exploitability()
    assert worth["nash_conv"] < 2e-3
    # The game's value lies between what each seat's best response can force.
    root = ours.new_state(0)
    value = sum(p * _solved_value(root, outcome) for outcome, p in root.chance_outcomes())
    assert -worth["best_response_values"][1] - 1e-12 <= value <= worth["best_response_values"][0] + 1e-12
    # The solver's own strategy (from the seat's view) is an exact equilibrium here.
    solved = exact.exploitability(ours, lambda view: solver.policy(view.sample_world(0))[0])
    assert abs(solved.exploitability) < 1e-9
    assert solved.policy_values[0] == pytest.approx(value, abs=1e-9)


def _solved_value(root: Any, outcome: int) -> float:
    state = root.clone()
    state.apply(outcome)
    return solver.policy(state)[1]


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("duo-regna", TWO_ROUNDS),
        ("regine", REGINE_QUEENS),
        ("regnum", REGNUM),
        ("duo", DUO),
        ("duell-der-drachen", DUELL),
        pytest.param("regine", REGINE_TWO_SUITS, marks=SLOW),
        pytest.param("regnum", REGNUM_LINE_UP, marks=SLOW),
    ],
)
def test_no_key_stands_for_two_information_states_in_the_whole_tree(name: str, options: dict[str, Any]) -> None:
    core = game(options, name=name)
    tree = exact.game_tree(core)
    strings: dict[int, str] = {}
    keys: dict[str, int] = {}

    def walk(state: Any) -> None:
        if state.is_terminal:
            return
        if not state.is_chance_node:
            seat = state.current_player
            text = state.information_state_string(seat)
            key = information_state_key(state, seat)
            assert strings.setdefault(key, text) == text
            assert keys.setdefault(text, key) == key
        for a in state.legal_actions():
            child = state.clone()
            child.apply(a)
            walk(child)

    walk(core.new_state(0))
    assert len(strings) == len(keys) == len(tree)
    assert set(strings) == {int(k) for k in tree.information_sets()[0]}


def test_agents_tables_and_functions_are_measured_alike() -> None:
    ours = game(TWO_ROUNDS)
    policy = solve(ours, method="cfr+", iterations=5, progress=False)
    expected = policy.exploitability()
    table = {int(k): policy.lookup(int(k)) or {} for k in policy.keys}
    assert exact.exploitability(ours, table).exploitability == pytest.approx(expected, abs=1e-9)
    assert exact.exploitability(ours, policy.action_probabilities).exploitability == pytest.approx(expected, abs=1e-9)
    uniform = exact.exploitability(ours, {}).exploitability
    assert exact.exploitability(ours, exact.uniform).exploitability == pytest.approx(uniform, abs=1e-12)


def test_the_cfr_agent_is_measured_through_its_probabilities(tmp_path: Any) -> None:
    ours = game(TWO_ROUNDS)
    policy = solve(ours, method="cfr+", iterations=5, progress=False)
    path = tmp_path / "two-rounds.cfr"
    policy.save(path)
    agent = CfrAgent(seed=1, policy=str(path))
    loaded = Policy.load(path, game=ours)
    assert exact.exploitability(ours, agent).exploitability == pytest.approx(loaded.exploitability(), abs=1e-9)


def test_mccfr_runs_on_explicit_chance_and_its_policy_is_measured() -> None:
    ours = game(TWO_ROUNDS)
    uniform = exact.exploitability(ours, exact.uniform).exploitability
    policy = solve(ours, method="external", iterations=1000, seed=1, progress=False)
    assert len(policy) > 0
    assert policy.exploitability() < 0.6 * uniform


def test_too_large_or_seeded_games_are_refused_before_any_work() -> None:
    full = regalia.make("duo-regna", chance="explicit")
    with pytest.raises(GameTooLargeError, match="histories") as caught:
        exact.game_tree(full)
    assert isinstance(caught.value, ValueError) and caught.value.estimate is not None
    assert caught.value.estimate > exact.DEFAULT_MAX_HISTORIES
    with pytest.raises(GameTooLargeError):
        solve(full, method="cfr+", iterations=1, progress=False)
    with pytest.raises(GameTooLargeError):
        exact.game_tree(game(TWO_ROUNDS), max_histories=1000)
    seeded = regalia.make("duo-regna", dragon_deck=[2, 1], dragons_to_win=2, max_rounds=2)
    with pytest.raises(InvalidArgumentError, match="explicit"):
        exact.exploitability(seeded, exact.uniform)
    with pytest.raises(InvalidArgumentError, match="explicit"):
        solve(seeded, method="cfr+", iterations=1, progress=False)
    ddd = regalia.make("duell-der-drachen", values=2, hand_size=1, chance="explicit")
    with pytest.raises(GameTooLargeError):
        exact.game_tree(ddd)


def test_bad_policies_are_refused() -> None:
    ours = game(ONE_ROUND)
    key = int(exact.game_tree(ours).information_sets()[0][0])
    for bad in ({key: {0: -1.0, 1: 2.0}}, {key: {0: float("nan")}}, {key: {99: 1.0}}):
        with pytest.raises(InvalidArgumentError):
            exact.exploitability(ours, bad)
    with pytest.raises(InvalidArgumentError):
        exact.exploitability(ours, 42)
    with pytest.raises(InvalidArgumentError):
        exact.game_tree(ours, max_histories=0)
    tree = exact.game_tree(ours)
    with pytest.raises(InvalidArgumentError):
        tree.exploitability(np.zeros(3))
    with pytest.raises(InvalidArgumentError):
        tree.exploitability(np.full(len(tree.uniform_policy()), np.inf))
    for index in (-1, len(tree)):
        with pytest.raises(InvalidArgumentError):
            tree.history(index)


def test_cfr_plus_is_deterministic_and_bounded_by_seconds() -> None:
    ours = game(ONE_ROUND)
    a = solve(ours, method="cfr+", iterations=20, progress=False)
    b = solve(game(ONE_ROUND, backend="reference"), method="cfr+", iterations=20, progress=False)
    assert a.info["method"] == "cfr+" and a.info["iterations"] == 20
    assert np.array_equal(a.keys, b.keys) and np.array_equal(a.probabilities, b.probabilities)
    timed = solve(ours, method="cfr+", seconds=0.2, progress=False)
    assert timed.info["iterations"] >= 1


INTERRUPTED = """
import regalia
from regalia.theory import cfr
game = regalia.make("duo-regna", dragon_deck=[2, 1], dragons_to_win=2, max_rounds=2, chance="explicit")
print("started", flush=True)
policy = cfr.solve(game, method="cfr+", iterations=10**9, progress=False)
print(policy.info["interrupted"], len(policy) == 328, 0 < policy.info["iterations"] < 10**9, flush=True)
"""


def test_ctrl_c_returns_the_cfr_plus_policy_so_far() -> None:
    code, out = interrupted(INTERRUPTED, 2.5)  # past the tree's walk, inside the native run
    assert code == 0, out
    assert out.strip() == "True True True"
