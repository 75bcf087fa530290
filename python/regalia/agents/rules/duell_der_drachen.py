"""Duell der Drachen by rules: play the card that leaves the most markers on the seat's side,
then the strongest face-up lead over the territories, then the fewest strong cards handed
to the opponent from the display."""

from __future__ import annotations

import random
from typing import Any

from regalia.agents.base import View
from regalia.agents.rules.lookahead import one_turn_lookahead, score_lead


def judge(state: Any, seat: int) -> float:
    """Markers first; then face-up strength lead, capped per territory."""
    territories = state.observation(seat)["territories"]
    lead = sum(max(-5, min(5, t["strength"][seat] - t["strength"][1 - seat])) for t in territories)
    return score_lead(state, seat) + 0.02 * float(lead)


def policy(view: View, rng: random.Random, memory: dict[str, Any]) -> int:
    """The move ``judge`` likes best after it."""
    return one_turn_lookahead(view, rng, judge)
