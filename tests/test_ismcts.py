"""ISMCTS in Rust through the binding: legal, deterministic for a seed, from the seat's
information only, and refusing bad arguments."""

from __future__ import annotations

import multiprocessing
import random
import sys
import threading
import time
from typing import Any

import pytest

import regalia
from regalia.core.errors import IllegalActionError, InvalidArgumentError


def midgame(config: tuple[str, int], seed: int, steps: int = 7) -> Any:
    name, players = config
    state = regalia.make(name, players=players).new_state(seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        state.apply(rnd.choice(state.legal_actions()))
    return state


def test_it_chooses_a_legal_action_in_every_game(config: tuple[str, int]) -> None:
    for seed in range(3):
        state = midgame(config, seed)
        if state.is_terminal:
            continue
        found = state.ismcts_search(iterations=60, seed=seed)
        assert found["action"] in state.legal_actions()
        assert found["iterations"] == 60
        assert sorted(found["visits"]) == state.legal_actions()
        assert sum(found["visits"].values()) == 60
        assert all(-1.0 <= v <= 1.0 for v in found["values"].values())
        assert state.ismcts(iterations=60, seed=seed) == found["action"]


def test_either_rollout_searches_every_game(config: tuple[str, int]) -> None:
    """The game's rollout heuristic (the default) and uniformly random rollouts: both legal,
    both deterministic for a seed."""
    state = midgame(config, 4)
    if state.is_terminal:
        pytest.skip("the random game ended early")
    for rollout in ("heuristic", "random"):
        found = state.ismcts_search(iterations=80, seed=2, rollout=rollout)
        assert found["action"] in state.legal_actions()
        assert state.ismcts_search(iterations=80, seed=2, rollout=rollout) == found
    assert state.ismcts_search(iterations=80, seed=2) == state.ismcts_search(iterations=80, seed=2, rollout="heuristic")


def test_the_agent_passes_its_rollout_on_and_refuses_a_bad_one() -> None:
    from regalia.agents import make_agent

    assert make_agent("ismcts:rollout=random", 1).rollout == "random"  # type: ignore[attr-defined]
    assert make_agent("ismcts", 1).rollout == "heuristic"  # type: ignore[attr-defined]
    with pytest.raises(InvalidArgumentError, match="rollout"):
        make_agent("ismcts:rollout=greedy", 1)
    game = regalia.make("duo", players=2, rounds=1)  # random rollouts of a whole Duo game take minutes
    a = regalia.play(game, ["ismcts:iterations=30:rollout=random", "random"], seed=3)
    b = regalia.play(game, ["ismcts:iterations=30:rollout=random", "random"], seed=3)
    assert a == b


def test_the_same_seed_gives_the_same_search(config: tuple[str, int]) -> None:
    state = midgame(config, 11)
    if state.is_terminal:
        pytest.skip("the random game ended early")
    a = state.ismcts_search(iterations=200, seed=5)
    assert state.ismcts_search(iterations=200, seed=5) == a
    assert state.clone().ismcts_search(iterations=200, seed=5) == a


def test_it_searches_from_the_seats_information_only() -> None:
    """Seat 1 of Duo Regna cannot see which card seat 0 committed: whichever it is, the
    search (same seed) is the same. A search that peeked at the true state would not be."""
    base = regalia.make("duo-regna").new_state(8)
    for a in (3, 5, 2, 7):
        base.apply(a)
    results = []
    for committed in base.legal_actions():
        state = base.clone()
        state.apply(committed)
        results.append(state.ismcts_search(iterations=300, seed=3))
    assert all(r == results[0] for r in results)
    assert len({a for a in base.legal_actions()}) > 1


def test_a_time_limit_stops_early() -> None:
    state = regalia.make("duo-regna").new_state(1)
    found = state.ismcts_search(iterations=10**12, time_limit=0.05)
    assert 1 <= found["iterations"] < 10**12


def test_the_search_releases_the_gil() -> None:
    state = regalia.make("duo-regna").new_state(1)
    ticks = 0
    stop = threading.Event()

    def count() -> None:
        nonlocal ticks
        while not stop.is_set():
            ticks += 1

    t = threading.Thread(target=count)
    t.start()
    try:
        state.ismcts(iterations=10**12, time_limit=0.3)
    finally:
        stop.set()
        t.join()
    assert ticks > 1000


def test_a_state_being_searched_can_be_read_but_not_played_on() -> None:
    """The search keeps the state borrowed while it runs without the GIL: another thread may
    read it meanwhile, but ``apply`` raises ``RuntimeError`` and changes nothing."""
    from regalia._core import information_state_key

    state = regalia.make("duo-regna").new_state(1)
    before, legal = state.history(), state.legal_actions()
    found: dict[str, Any] = {}
    search = threading.Thread(target=lambda: found.update(state.ismcts_search(iterations=10**12, time_limit=2.0)))
    search.start()
    try:
        # An out-of-range action is refused as illegal before the search borrows the state,
        # and as a borrow conflict once it has: neither plays anything.
        deadline = time.monotonic() + 10
        while True:
            try:
                state.apply(10**6)
            except RuntimeError as e:
                assert "Already borrowed" in str(e)
                break
            except IllegalActionError:
                assert time.monotonic() < deadline, "the search never started"
        with pytest.raises(RuntimeError, match="Already borrowed"):
            state.apply(legal[0])
        assert search.is_alive()
        assert state.history() == before
        assert state.legal_actions() == legal
        assert not state.is_terminal
        assert state == state.clone()
        assert information_state_key(state, 0) == information_state_key(state.clone(), 0)
    finally:
        search.join()
    assert found["action"] in legal
    state.apply(legal[0])
    assert state.history() == [*before, legal[0]]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"iterations": 0},
        {"iterations": -5},
        {"iterations": True},
        {"iterations": 1.5},
        {"exploration": -1.0},
        {"exploration": float("nan")},
        {"seed": -1},
        {"seed": 2**64},
        {"time_limit": 0.0},
        {"time_limit": float("inf")},
        {"rollout": "greedy"},
        {"rollout": 3},
        {"threads": 0},
        {"threads": -1},
        {"threads": 257},
        {"threads": 1.5},
        {"threads": True},
    ],
)
def test_bad_arguments_are_refused(kwargs: dict[str, Any]) -> None:
    state = regalia.make("duo-regna").new_state(1)
    with pytest.raises(InvalidArgumentError):
        state.ismcts(**kwargs)


def test_a_finished_game_cannot_be_searched() -> None:
    record = regalia.play("duo-regna", ["random", "random"], seed=2)
    with pytest.raises(InvalidArgumentError, match="over"):
        record.replay().ismcts(iterations=10)


def test_the_rollout_literal_names_exactly_the_engines_kinds() -> None:
    from typing import get_args

    from regalia.core.kinds import Rollout

    assert get_args(Rollout) == regalia._core.ROLLOUTS
    state = regalia.make("duo").new_state(1)
    with pytest.raises(regalia.InvalidArgumentError, match="rollout must be 'heuristic' or 'random'"):
        state.ismcts(iterations=5, rollout="greedy")


def test_the_opponent_models_are_the_engines_and_a_bad_one_is_refused() -> None:
    from typing import get_args

    from regalia.agents import make_agent
    from regalia.core.kinds import OpponentModel

    assert get_args(OpponentModel) == regalia._core.OPPONENTS
    state = regalia.make("duo", players=4).new_state(1)
    before = state.to_json()
    with pytest.raises(InvalidArgumentError, match="opponents must be 'search', 'rollout', 'first-legal'"):
        state.ismcts(iterations=5, opponents="rules")
    assert state.to_json() == before
    with pytest.raises(regalia.InvalidOptionError, match="opponents must be one of"):
        make_agent("ismcts:opponents=rules", 1)


@pytest.mark.parametrize("opponents", ["rollout", "first-legal"])
def test_a_search_with_modelled_opponents_is_legal_and_repeats_for_a_seed(opponents: str) -> None:
    state = regalia.make("duo", players=4).new_state(3)
    found = state.ismcts_search(iterations=300, seed=5, opponents=opponents)
    assert found == state.ismcts_search(iterations=300, seed=5, opponents=opponents)
    assert found["action"] in state.legal_actions()
    assert sum(found["visits"].values()) == 300


def test_the_agent_plays_a_forced_move_without_searching() -> None:
    from regalia.agents import make_agent

    class Forced:
        legal_actions = [5]

        def sample_world(self, seed: int) -> Any:
            raise AssertionError("searched a forced move")

    assert make_agent("ismcts:iterations=1000000", 1).act(Forced()) == 5  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "spec",
    ["ismcts:threads=0", "ismcts:threads=300", "ismcts:time_limit=-1", "ismcts:exploration=-2", "best:threads=0"],
)
def test_bad_agent_options_are_refused_before_any_search(spec: str) -> None:
    from regalia.agents import make_agent

    with pytest.raises(InvalidArgumentError):
        make_agent(spec, 1)


def test_two_threads_share_the_iterations_and_repeat_for_a_seed() -> None:
    for name in ("duo-regna", "duo", "duell-der-drachen", "regine", "regnum"):
        state = regalia.make(name).new_state(2)
        two = state.ismcts_search(iterations=201, seed=7, threads=2)
        assert two == state.ismcts_search(iterations=201, seed=7, threads=2)
        assert two["iterations"] == 201 == sum(two["visits"].values())
        assert state.ismcts_search(iterations=201, seed=7) == state.ismcts_search(iterations=201, seed=7, threads=1)


def _search_in_child(queue: Any) -> None:
    state = regalia.make("duell-der-drachen").new_state(3)
    queue.put(state.ismcts_search(iterations=300, seed=1, threads=2))


@pytest.mark.skipif(sys.platform == "win32", reason="no fork on Windows")
def test_a_forked_child_searches_on_threads_of_its_own() -> None:
    """The helper threads a search keeps for the next one do not exist in a forked child
    (multiprocessing's default on Linux): the child starts its own instead of waiting on them."""
    state = regalia.make("duell-der-drachen").new_state(3)
    here = state.ismcts_search(iterations=300, seed=1, threads=2)  # the parent keeps helpers
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_search_in_child, args=(queue,))
    child.start()
    try:
        assert queue.get(timeout=60) == here
    finally:
        child.join(timeout=10)
        if child.is_alive():
            child.kill()
    assert child.exitcode == 0
    assert state.ismcts_search(iterations=300, seed=1, threads=2) == here


def test_the_agent_searches_on_the_threads_it_is_given() -> None:
    a = regalia.play("duo", ["ismcts:iterations=40:threads=2", "random"], seed=3)
    b = regalia.play("duo", ["ismcts:iterations=40:threads=2", "random"], seed=3)
    assert a.actions == b.actions
