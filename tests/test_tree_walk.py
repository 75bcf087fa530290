"""Asking a policy along the tree (``regalia.theory.tree.tree_policy``: the information sets'
histories walked in order, the states and an adaptive agent's memory kept on the prefixes they
share) gives exactly what asking it at each set after a replay from the root gives: the
straightforward way, written out here as the reference."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

import regalia
from regalia import _core, exact
from regalia.agents import make_agent
from regalia.core.seeds import derive_seed
from regalia.core.view import View, view_of

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
