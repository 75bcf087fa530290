"""Duo by rules: shed as many cards as the turn allows. Among the legal plays it follows the
longest chain of cards that can go onto one pile this turn (found by trying the sequences in a
world sampled for the seat: only the seat's own hand and the public piles matter), spending
Jokers last because they fit more cards later; it ends the turn when nothing more fits and
draws only when nothing fits at all."""

from __future__ import annotations

import random
from typing import Any

from regalia.agents.base import View

#: Action ids of the documented encoding: ``pile * 77 + kind`` plays a card (kind 0-63 a
#: Symbol card, 64-75 a Joker, 76 a Turbo-Joker), then ``draw`` and ``end turn``.
PILE_ACTIONS, DRAW, END_TURN = 154, 154, 155
#: Kinds from this one up are Jokers of some sort.
FIRST_JOKER = 64
#: Most sequences tried per decision.
BUDGET = 4000


def _is_play(action: int) -> bool:
    return action < PILE_ACTIONS


def _jokers(actions: list[int]) -> int:
    return sum(a % 77 >= FIRST_JOKER for a in actions)


def _best_chain(world: Any, seat: int) -> tuple[int, int, list[int]]:
    """The best sequence of plays open to ``seat`` from ``world``: (cards played, minus Jokers
    spent, the plays), trying at most ``BUDGET`` sequences."""
    budget = [BUDGET]

    def search(state: Any, played: list[int]) -> tuple[int, int, list[int]]:
        best = (len(played), -_jokers(played), played)
        if budget[0] <= 0 or state.is_terminal or state.current_player != seat:
            return best
        for a in state.legal_actions():
            if not _is_play(a):
                continue
            budget[0] -= 1
            after = state.clone()
            after.apply(a)
            found = search(after, [*played, a])
            if found[:2] > best[:2]:
                best = found
        return best

    return search(world, [])


def policy(view: View, rng: random.Random, memory: dict[str, Any]) -> int:
    """The first card of the longest chain; end the turn or draw when nothing fits."""
    del memory  # nothing to remember between moves
    legal = view.legal_actions
    plays = [a for a in legal if _is_play(a)]
    if not plays:
        return END_TURN if END_TURN in legal else DRAW
    world = view.sample_world(rng.getrandbits(64))
    length, _, chain = _best_chain(world, view.seat)
    if length == 0 or chain[0] not in legal:
        return rng.choice(plays)
    return chain[0]
