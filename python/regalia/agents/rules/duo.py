"""Duo by rules: shed as many cards as the turn allows. Among the legal plays it follows the
longest chain of cards that can go onto one pile this turn (found by trying the sequences in a
world sampled for the seat: only the seat's own hand and the public piles matter), spending
Jokers last because they fit more cards later; it ends the turn when nothing more fits and
draws only when nothing fits at all. It reads what each action does from its ``action_info``."""

from __future__ import annotations

import random
from typing import Any

from regalia.agents.rules.infos import IdInfos
from regalia.core.protocols import StateProtocol
from regalia.core.view import View

#: Most sequences tried per decision.
BUDGET = 4000


def _jokers(infos: IdInfos, actions: list[int]) -> int:
    """How many of ``actions`` (already seen) spend a Joker of some sort."""
    return sum(infos.known[a]["card"].endswith("joker") for a in actions)


def _best_chain(world: StateProtocol, seat: int, infos: IdInfos) -> tuple[int, int, list[int]]:
    """The best sequence of plays open to ``seat`` from ``world``: (cards played, minus Jokers
    spent, the plays), trying at most ``BUDGET`` sequences."""
    budget = [BUDGET]

    def search(state: StateProtocol, played: list[int]) -> tuple[int, int, list[int]]:
        best = (len(played), -_jokers(infos, played), played)
        if budget[0] <= 0 or state.is_terminal or state.current_player != seat:
            return best
        for a in state.legal_actions():
            if infos.kind(state, a) != "play":
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
    infos: IdInfos = memory.setdefault("infos", IdInfos())  # a Duo id means the same throughout
    legal = view.legal_actions
    plays = [a for a in legal if infos.kind(view, a) == "play"]
    if not plays:
        ends = [a for a in legal if infos.kind(view, a) == "end_turn"]
        return ends[0] if ends else legal[0]  # else drawing is all that is left
    world = view.sample_world(rng.getrandbits(64))
    length, _, chain = _best_chain(world, view.seat, infos)
    if length == 0 or chain[0] not in legal:
        return rng.choice(plays)
    return chain[0]
