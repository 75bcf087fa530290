"""Duo Regna by rules: watch the opponent, exploit her when she plays by a fixed order, and
otherwise play best against an opponent who mixes.

Every reveal shows which card the opponent chose among the cards she still held. While all her
choices fit one fixed priority order of the nine cards (she always played the highest of
what she held), the order is known as far as she has shown it; once it tells her whole rest
of the hand, the player plans its own nine cards against that sequence (the exact best by
dynamic programming over its remaining cards and the dragon's place). Otherwise, or once she
breaks every such order, it treats her as drawing each of her unplayed cards with equal
chance and plays the card that does best over the rest of the hand against that
(``regalia.theory.solver.against_uniform``: exact to the hand's end, a model of the race for the
dragons beyond it), among equals one at random.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from regalia.agents.rules.infos import IdInfos
from regalia.core.view import View
from regalia.theory import solver

#: The nine cards by name, as the observation and ``action_info`` name them; a card's
#: index here is how this player counts it.
CARDS = ("X", "0", "1", "2", "3", "4", "5", "6 king", "6 queen")
#: Each card's value; the shield (X) has none.
VALUES: tuple[int | None, ...] = (None, 0, 1, 2, 3, 4, 5, 6, 6)
#: The mean worth of a dragon card still to come in the default pile (10 single, 6 double).
NEXT_DRAGON = (10 * 1 + 6 * 2) / 16


def duel(mine: int, theirs: int) -> int:
    """+1 when card ``mine`` wins the round against ``theirs``, -1 when it loses, 0 for nobody."""
    a, b = VALUES[mine], VALUES[theirs]
    if a is None or b is None or a == b:
        return 0
    higher = 1 if a > b else -1
    if a == 4 or b == 4:  # the Bishop: the lower card wins
        return -higher
    if a == 0 or b == 0:  # the Jester beats only a 6
        jester = 1 if a == 0 else -1
        return jester if max(a, b) == 6 else -jester
    return higher


def _ids(names: list[str]) -> list[int]:
    return [CARDS.index(n) for n in names]


class OrderModel:
    """What the opponent's choices say about a fixed priority order: ``above[c]`` is the set
    of cards she is known to rank below ``c`` (transitively), while her choices fit one order."""

    def __init__(self) -> None:
        self.above = [0] * len(CARDS)
        self.consistent = True

    def saw(self, held: list[int], played: int) -> None:
        """She played ``played`` while holding ``held``."""
        if not self.consistent:
            return
        for other in held:
            if other != played:
                self.above[played] |= 1 << other
        changed = True
        while changed:  # transitive closure over nine cards
            changed = False
            for c in range(len(CARDS)):
                reach = self.above[c]
                for d in range(len(CARDS)):
                    if reach >> d & 1:
                        reach |= self.above[d]
                if reach != self.above[c]:
                    self.above[c], changed = reach, True
        self.consistent = not any(self.above[c] >> c & 1 for c in range(len(CARDS)))

    def sequence(self, held: list[int]) -> list[int] | None:
        """The order in which she will play ``held``, if the model tells it whole."""
        if not self.consistent:
            return None
        rest, order = list(held), []
        while rest:
            top = [c for c in rest if all(self.above[c] >> d & 1 for d in rest if d != c)]
            if len(top) != 1:
                return None
            order.append(top[0])
            rest.remove(top[0])
        return order


def plan(mine: tuple[int, ...], theirs: tuple[int, ...], side: int, dragon: float) -> int:
    """The card to play now against the opponent's known sequence ``theirs``: the one that
    maximises the dragons captured minus those lost until the hands are empty (the dragon now
    on ``side``: +1 own side, 0 centre, -1 hers, worth ``dragon``; later ones their mean)."""

    @cache
    def best(hand: frozenset[int], place: int, fresh: bool) -> tuple[float, int]:
        k = len(mine) - len(hand)
        worth = dragon if fresh else NEXT_DRAGON
        if k == len(theirs):
            return (0.3 * place * worth, -1)
        result = (float("-inf"), -1)
        for card in sorted(hand):
            w = duel(card, theirs[k])
            gain, new_place, new_fresh = 0.0, place, fresh
            if w != 0 and place == w:  # a win with the dragon on one's own side captures it
                gain, new_place, new_fresh = w * worth, 0, False
            elif w != 0:
                new_place = place + w
            value = gain + best(hand - {card}, new_place, new_fresh)[0]
            if value > result[0]:
                result = (value, card)
        return result

    return best(frozenset(mine), side, True)[1]


def against_mixing(view: View, rng: random.Random) -> int:
    """The legal card with the best expected return over the rest of the hand against an
    opponent who draws each of her unplayed cards with equal chance."""
    values = solver.against_uniform(view.observation, view.options)
    top = max(values[a] for a in view.legal_actions)
    return rng.choice([a for a in view.legal_actions if values[a] >= top - 1e-12])


def exploit(view: View, memory: dict[str, Any]) -> int | None:
    """The action of the planned card once the opponent's fixed order tells her whole rest
    of the hand, else None; learns from the last reveal (``memory`` keeps what was seen this
    game)."""
    obs, me = view.observation, view.seat
    held = _ids(obs["opponent_hand"])
    last = memory.get("last")
    if last is not None and obs["round"] <= last[0]:  # a new game: forget the last one
        memory.clear()
        last = None
    infos: IdInfos = memory.setdefault("infos", IdInfos())  # a Duo Regna id means the same throughout
    model: OrderModel = memory.setdefault("model", OrderModel())
    if last is not None and obs["round"] == last[0] + 1 and obs["last_reveal"] is not None:
        model.saw(last[1], CARDS.index(obs["last_reveal"][1 - me]))
    memory["last"] = (obs["round"], held)
    sequence = model.sequence(held)
    if sequence is None or len(sequence) != len(view.legal_actions):
        return None
    side = 0 if obs["dragon_side"] is None else (1 if obs["dragon_side"] == me else -1)
    mine = {CARDS.index(infos(view, a)["card"]): a for a in view.legal_actions}
    card = plan(tuple(mine), tuple(sequence), side, float(obs["dragon"] or NEXT_DRAGON))
    return mine.get(card)


def policy(view: View, rng: random.Random, memory: dict[str, Any]) -> int:
    """Exploit a fixed order once it is known; else play best against a mixing opponent."""
    card = exploit(view, memory)
    return card if card is not None else against_mixing(view, rng)
