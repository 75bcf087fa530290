"""Duo Regna by rules: play the card with the best expected round against the opponent's
unplayed cards (each as likely as the others), and among equals the one that beats fewest
of them, keeping strong cards for later."""

from __future__ import annotations

import random

from regalia.agents.base import View
from regalia.reference.duo_regna import CARD_NAMES, round_winner


def policy(view: View, rng: random.Random) -> int:
    """The legal card with the best expected round (random among equals)."""
    me, obs = view.seat, view.observation
    unplayed = [CARD_NAMES.index(n) for n in obs["opponent_hand"]]

    def outcomes(card: int) -> list[int]:
        """+1 / -1 / 0 for this card against each unplayed card of the opponent."""
        result = []
        for other in unplayed:
            winner = round_winner(card, other) if me == 0 else round_winner(other, card)
            result.append(0 if winner is None else (1 if winner == me else -1))
        return result

    def score(card: int) -> tuple[float, float]:
        o = outcomes(card)
        wins = sum(x > 0 for x in o)
        return (sum(o) / max(len(o), 1), -wins)

    scores = {a: score(a) for a in view.legal_actions}
    best = max(scores.values())
    return rng.choice([a for a, s in scores.items() if s == best])
