"""Asking a policy along the tree (``regalia.theory.tree.tree_policy``: the information sets'
histories walked in order, the states and an adaptive agent's memory kept on the prefixes they
share) gives exactly what asking it at each set after a replay from the root gives: the
straightforward way, written out here as the reference."""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import numpy as np
import pytest

import regalia
from regalia import _core, exact
from regalia.agents import make_agent
from regalia.core.errors import InvalidArgumentError
from regalia.core.seeds import derive_seed
from regalia.core.view import View, view_of
from regalia.theory.benchmarks import benchmarks, regnum_card_set
from regalia.theory.tree_view import Replayer, TreeView

#: Small variants of four games, walked whole in well under a second each.
SMALL: list[tuple[str, dict[str, Any]]] = [
    ("duo-regna", {"dragon_deck": [2, 1], "dragons_to_win": 2, "max_rounds": 2}),
    ("regine", {"players": 2, "build_phase": False, "max_rounds": 1, "deck": [4, 0, 0, 0, 0, 0, 0, 4], "suits": 1}),
    ("duo", {"players": 2, "rounds": 1, "colours": 1, "numbers": 1, "shapes": 2, "hand_size": 1}),
    (
        "duell-der-drachen",
        {"values": 2, "territories": 2, "hand_size": 1, "cards_per_side": 1, "face_down_limit": 1},
    ),
]

#: The benchmark variants whose tree is replayed from the root in a second or so.
QUICK_BENCHMARKS = ("duo-regna-three-rounds", "regine-two-suits", "duell-der-drachen-three-values")


def _shown(state: Any, seat: int, ply: int, name: str, options: dict[str, Any]) -> View:
    """A view shown to an adaptive agent on the way, its world seeded by the seat's information state."""
    seed = derive_seed(int(_core.information_state_key(state, seat)), ply)
    return view_of(state, seat, name, options, world_seed=seed)


def replayed(game: Any, policy: Any) -> Any:
    """The policy asked at each information set, the game replayed from the root for each."""
    tree = exact.game_tree(game)
    keys, _, counts, actions = tree.information_sets()
    starts = np.concatenate([[0], np.cumsum(counts, dtype=np.int64)])
    core = _core.make(game.name, dict(game.options))
    name, options = core.name, dict(core.options)
    adaptive = getattr(policy, "adaptive", False)
    out = np.empty(len(actions))
    for i in range(len(keys)):
        history = tree.history(i)
        state = core.new_state(0)
        for a in history:
            state.apply(a)
        assert state.current_player is not None  # every information set is a decision
        seat = int(state.current_player)
        ask = getattr(policy, "action_probabilities", policy)
        if adaptive:
            agent = copy.deepcopy(policy)
            walk = core.new_state(0)
            if hasattr(agent, "game_start"):
                agent.game_start(_shown(walk, seat, 0, name, options))
            for ply, a in enumerate(history):
                if not walk.is_chance_node and walk.current_player == seat:
                    show = agent.observe if hasattr(agent, "observe") else agent.act
                    show(_shown(walk, seat, ply + 1, name, options))
                walk.apply(a)
            ask = agent.action_probabilities
        probs = ask(view_of(state, seat, name, options, world_seed=i))
        legal = [int(a) for a in actions[starts[i] : starts[i + 1]]]
        weights = [float(probs.get(a, 0.0)) for a in legal]
        out[starts[i] : starts[i + 1]] = [w / sum(weights) for w in weights]
    return out


def _a_fixed_order(view: View) -> dict[int, float]:
    """The highest legal action id, a point mass."""
    return {max(view.legal_actions): 1.0}


@pytest.mark.parametrize(("game_name", "options"), SMALL, ids=[g for g, _ in SMALL])
@pytest.mark.parametrize("policy", ["uniform", "fixed", "rules", "ismcts:iterations=50"])
def test_asking_along_the_tree_gives_what_replaying_from_the_root_gives(
    game_name: str, options: dict[str, Any], policy: str
) -> None:
    game = regalia.make(game_name, chance="explicit", **options)
    asked: Any = {"uniform": exact.uniform, "fixed": _a_fixed_order}.get(policy) or make_agent(policy, 3)
    if hasattr(asked, "samples"):
        asked.samples = 2
    along = exact.tree_policy(game, copy.deepcopy(asked))
    assert np.array_equal(along, replayed(game, copy.deepcopy(asked)))
    assert exact.exploitability(game, along) == exact.exploitability(game, replayed(game, asked))


def test_an_adaptive_agent_is_shown_its_seats_earlier_decisions() -> None:
    """The memory kept along the walk is the agent's own: an agent that plays the number of
    decisions it was shown, mod the legal actions, is asked with the right count everywhere."""

    class Counting:
        adaptive = True

        def __init__(self) -> None:
            self.seen = 0

        def observe(self, view: View) -> None:
            self.seen += 1

        def action_probabilities(self, view: View) -> dict[int, float]:
            legal = sorted(view.legal_actions)
            return {legal[self.seen % len(legal)]: 1.0}

    name, options = SMALL[0]
    game = regalia.make(name, chance="explicit", **options)
    along = exact.tree_policy(game, Counting())
    assert np.array_equal(along, replayed(game, Counting()))
    forgetful = exact.tree_policy(game, lambda view: {sorted(view.legal_actions)[0]: 1.0})
    assert not np.array_equal(along, forgetful)  # what it was shown changed its choices


#: Small variants of every game, and the benchmark variants whose reference replay is quick.
EVERY: list[tuple[str, dict[str, Any]]] = [
    *SMALL,
    ("regnum", {"players": 2, "max_turns": 1, "card_set": regnum_card_set()}),
    *[(b.game, b.options) for b in benchmarks() if b.name in QUICK_BENCHMARKS],
]


def _a_table(view: View) -> dict[int, Any]:
    """A table by the legal actions: integer weights, the lowest action weighted most."""
    return {a: len(view.legal_actions) - k for k, a in enumerate(sorted(view.legal_actions))}


def _reads_the_observation(view: View) -> dict[int, float]:
    """A point mass chosen by what the seat observes (and the names of its actions)."""
    seen = json.dumps(view.observation, sort_keys=True, default=str) + "".join(view.action_names)
    return {view.legal_actions[sum(seen.encode()) % len(view.legal_actions)]: 1.0}


def _leans(view: View) -> dict[int, Any]:
    """Numpy float32 weights over all but the last legal action (missing: zero)."""
    return {a: np.float32(0.1 * (k + 1)) for k, a in enumerate(view.legal_actions[:-1])} or {view.legal_actions[0]: 1.0}


def _mixed(view: View) -> dict[int, Any]:
    """Integer weights over every legal action where there are two, else float weights (0.7,
    0.2, 0.1 in turn: normalised, they do not sum to exactly 1) that leave the last one out:
    answers off the common path, mixed with ones on it."""
    legal = view.legal_actions
    if len(legal) == 2:
        return {legal[0]: 3, legal[1]: 1}
    return {a: (0.7, 0.2, 0.1)[k % 3] for k, a in enumerate(legal[:-1])} or {legal[0]: 1.0}


@pytest.mark.parametrize(("game_name", "options"), EVERY, ids=[g for g, _ in EVERY])
def test_views_built_lazily_give_exactly_the_numbers_of_views_replayed_from_the_root(
    game_name: str, options: dict[str, Any]
) -> None:
    game = regalia.make(game_name, chance="explicit", **options)
    for policy in (exact.uniform, _a_fixed_order, _a_table, _reads_the_observation, _leans, _mixed):
        lazily = exact.tree_policy(game, policy)
        assert np.array_equal(lazily, replayed(game, policy)), policy.__name__


def test_a_policy_reading_only_the_legal_actions_never_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    game = regalia.make(SMALL[0][0], chance="explicit", **SMALL[0][1])

    def refused(*_: Any) -> View:
        raise AssertionError("replayed")

    monkeypatch.setattr(Replayer, "view", refused)
    for policy in (exact.uniform, _a_fixed_order, _a_table):
        exact.tree_policy(game, policy)
    with pytest.raises(AssertionError, match="replayed"):
        exact.tree_policy(game, _reads_the_observation)


def test_a_lazy_view_shows_what_the_seats_view_shows_and_copies_without_the_tree() -> None:
    name, options = SMALL[3]
    game = regalia.make(name, chance="explicit", **options)
    seen: list[View] = []
    exact.tree_policy(game, lambda view: seen.append(view) or exact.uniform(view))
    core = _core.make(game.name, dict(game.options))
    for i in (0, len(seen) // 2, len(seen) - 1):
        view = seen[i]
        assert isinstance(view, TreeView)
        state = core.new_state(0)
        for a in exact.game_tree(game).history(i):
            state.apply(a)
        eager = view_of(state, view.seat, core.name, dict(core.options), world_seed=i)
        shown = ("game", "options", "seat", "legal_actions", "observation", "action_names")
        assert [getattr(view, f) for f in shown] == [getattr(eager, f) for f in shown]
        assert view.sample_world(7).observation(view.seat) == eager.sample_world(7).observation(view.seat)
        for copied in (copy.copy(view), copy.deepcopy(view), pickle.loads(pickle.dumps(view))):
            assert type(copied) is View
            assert [getattr(copied, f) for f in shown] == [getattr(eager, f) for f in shown]
    with pytest.raises(AttributeError):
        _ = seen[0].nothing_such


def test_weights_that_are_no_distribution_are_refused_naming_the_set() -> None:
    game = regalia.make(SMALL[0][0], chance="explicit", **SMALL[0][1])
    for bad in (-1.0, float("nan"), float("inf"), 0.0):

        def policy(view: View, bad: float = bad) -> dict[int, float]:
            return {a: bad if k == 0 else 0.0 for k, a in enumerate(view.legal_actions)}

        with pytest.raises(InvalidArgumentError, match="information set 0: the probabilities must be finite"):
            exact.tree_policy(game, policy)
    with pytest.raises(InvalidArgumentError, match="not legal"):
        exact.tree_policy(game, lambda view: {999: 1.0})
    with pytest.raises(InvalidArgumentError, match="not a"):
        exact.tree_policy(game, lambda view: view.legal_actions[0])
