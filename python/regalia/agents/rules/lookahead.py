"""The mechanism several rule-based players share: try each legal action in a world sampled
from what the seat knows, finish the seat's own turn, and judge the result by a rule."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from regalia.core.protocols import StateProtocol
from regalia.core.view import View

#: A rule judging a state from one seat's side (higher is better).
Judge = Callable[[Any, int], float]


def one_turn_lookahead(view: View, rng: random.Random, judge: Judge) -> int:
    """The legal action whose turn, finished with the seat's own random choices in a world
    sampled for the seat, ``judge`` likes best (random among equals)."""
    world = view.sample_world(rng.getrandbits(64))
    seat = view.seat
    scores: dict[int, float] = {}
    for action in view.legal_actions:
        after = world.clone()
        after.apply(action)
        while after.current_player == seat:
            after.apply(rng.choice(after.legal_actions()))
        scores[action] = judge(after, seat)
    best = max(scores.values())
    return rng.choice([a for a, s in scores.items() if s == best])


def score_lead(state: StateProtocol, seat: int) -> float:
    """The seat's game points minus the best of the others' (the outcome once it is over)."""
    if state.is_terminal:
        return 1000.0 * float(state.returns()[seat])
    scores = state.scores()
    return float(scores[seat] - max(s for i, s in enumerate(scores) if i != seat))
