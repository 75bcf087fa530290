"""Duo by rules: shed as many cards as the turn allows. Among the legal plays it follows the
longest chain of cards that can go onto one pile this turn (found by trying the sequences in a
world sampled for the seat: only the seat's own hand and the public piles matter), spending
Jokers last because they fit more cards later; it ends the turn when nothing more fits and
draws only when nothing fits at all. It reads what each action does from its ``action_info``."""

from __future__ import annotations

import random
from typing import Any

from regalia.agents.base import View

#: Most sequences tried per decision.
BUDGET = 4000
#: What the rules need of an action: whether it plays a card, and whether that card is a
#: Joker of some sort (Jokers fit more cards later, so they go last).
Meaning = tuple[bool, bool]


class Meanings:
    """Each action's ``Meaning``, read from its info once per id: in Duo an action id means
    the same in every state (a card onto a pile, draw, end turn)."""

    def __init__(self) -> None:
        self.known: dict[int, Meaning] = {}

    def of(self, state: Any, action: int) -> Meaning:
        """The meaning of ``action``, asking ``state`` (a view or a state) the first time."""
        if action not in self.known:
            info = state.action_info(action)
            play = info["kind"] == "play"
            self.known[action] = (play, play and info["card"].endswith("joker"))
        return self.known[action]

    def jokers(self, actions: list[int]) -> int:
        """How many of ``actions`` (already seen) spend a Joker."""
        return sum(self.known[a][1] for a in actions)


def _best_chain(world: Any, seat: int, meanings: Meanings) -> tuple[int, int, list[int]]:
    """The best sequence of plays open to ``seat`` from ``world``: (cards played, minus Jokers
    spent, the plays), trying at most ``BUDGET`` sequences."""
    budget = [BUDGET]

    def search(state: Any, played: list[int]) -> tuple[int, int, list[int]]:
        best = (len(played), -meanings.jokers(played), played)
        if budget[0] <= 0 or state.is_terminal or state.current_player != seat:
            return best
        for a in state.legal_actions():
            if not meanings.of(state, a)[0]:
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
    meanings: Meanings = memory.setdefault("meanings", Meanings())
    legal = view.legal_actions
    plays = [a for a in legal if meanings.of(view, a)[0]]
    if not plays:
        ends = [a for a in legal if view.action_info(a)["kind"] == "end_turn"]
        return ends[0] if ends else legal[0]  # else drawing is all that is left
    world = view.sample_world(rng.getrandbits(64))
    length, _, chain = _best_chain(world, view.seat, meanings)
    if length == 0 or chain[0] not in legal:
        return rng.choice(plays)
    return chain[0]
