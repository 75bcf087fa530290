"""Duell der Drachen by rules: look one move ahead and keep the markers, the territories as
the final count would give them (where a side at least double a weaker one loses it), and
room to move: a player without a legal move loses, so it keeps its three face-down plays for
when nothing else fits and values every hand card that can still go face up."""

from __future__ import annotations

import random
from typing import Any

from regalia.agents.rules.lookahead import one_turn_lookahead, score_lead
from regalia.core.protocols import StateProtocol
from regalia.core.view import View

#: The colours in the documented order: a card is named ``"<colour> <value>"``.
COLOURS = ("red", "blue", "green", "yellow", "white")
#: Cards one seat may have on its side of a territory, and face down on the board in all.
SIDE, FACE_DOWN = 3, 3


def final_owner(mine: int, theirs: int) -> int:
    """+1 when the final count would give a territory to this seat with these strengths, -1
    to the opponent, 0 to nobody: the stronger side, unless it is at least double a weaker
    side above 0."""
    if mine == theirs:
        return 0
    strong, weak, sign = (mine, theirs, 1) if mine > theirs else (theirs, mine, -1)
    return -sign if weak > 0 and strong >= 2 * weak else sign


def _value(card: str) -> tuple[int, int]:
    colour, value = card.split()
    return COLOURS.index(colour), int(value)


def judge(state: StateProtocol, seat: int) -> float:
    """Markers first; never stuck; then the territories as the final count would give them
    (own face-down cards of the colour counted), room to move and few face-down plays."""
    if state.is_terminal:
        return score_lead(state, seat)
    obs = state.observation(seat)
    territories = obs["territories"]
    filled = [len(t["face_up"][seat]) + len(t["face_down"][seat]) for t in territories]
    face_down = sum(len(t["face_down"][seat]) for t in territories)
    fits = sum(filled[_value(card)[0]] < SIDE for card in obs["hand"])
    can_hide = face_down < FACE_DOWN and min(filled) < SIDE
    stuck = bool(obs["hand"]) and fits == 0 and not can_hide
    final = 0
    for k, t in enumerate(territories):
        hidden = sum(v for c, v in map(_value, t["face_down"][seat]) if c == k)
        final += final_owner(t["strength"][seat] + hidden, t["strength"][1 - seat])
    return score_lead(state, seat) - 100.0 * stuck + 0.05 * fits - 0.2 * face_down + 0.3 * final


def policy(view: View, rng: random.Random, memory: dict[str, Any]) -> int:
    """The move ``judge`` likes best after it."""
    del memory  # nothing to remember between moves
    return one_turn_lookahead(view, rng, judge)
