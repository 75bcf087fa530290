"""Duo by rules: finish the turn in the way that leaves the fewest cards in hand (so play,
and keep playing, rather than draw), then the best points lead."""

from __future__ import annotations

import random
from typing import Any

from regalia.agents.base import View
from regalia.agents.rules.lookahead import one_turn_lookahead, score_lead


def judge(state: Any, seat: int) -> float:
    """Points lead (the outcome once it is over), then fewer cards in hand."""
    return score_lead(state, seat) - 0.1 * float(state.observation(seat)["hand_sizes"][seat])


def policy(view: View, rng: random.Random) -> int:
    """The move ``judge`` likes best after the turn."""
    return one_turn_lookahead(view, rng, judge)
