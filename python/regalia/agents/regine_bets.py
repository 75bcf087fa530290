"""Regine's wagers for ``best`` with two players: every bet and every answer to a Double Down
chosen by its expected points over worlds sampled for the seat, weighted by what the
opponent's bets this round say about her cards.

What a bet says depends on who makes it: a careful player doubles down only with a very strong
combination, a reckless one on every Suit. So the opponent is modelled from her own play: the
showdown at the end of each round (``last_combinations``) shows her four cards, which give
each Suit's strength class (0 weak, 1 fair, 2 very strong, as the rule-based player grades
them), and the bets seen that round tell how often she doubles down, stays after a Double Down
and claims a Suit in each class. The counts start from a prior of a careful player and follow
the evidence within a few rounds (a player who doubles down on everything soon says nothing by
it). The search cannot learn this: its sampled worlds ignore the bets, so it stays against
Double Downs that only a very strong hand makes, and it doubles down so often that a watchful
opponent stays whenever she has a fair chance.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from regalia.agents.rules.regine import SUITS
from regalia.core.cards.regine import CARD_NAMES, suit_key, suit_points
from regalia.core.view import View

#: A Suit's most (what a lone bettor wins besides her chip), in betting order.
MOST = (1, 1, 2, 2)
#: Worlds sampled for one decision.
WORLDS = 64
#: Prior of a careful player, per strength class (weak, fair, very strong): how often she
#: doubles down holding a chip, stays after a Double Down, claims a Suit; and its weight in
#: observations.
PRIOR_DOUBLE = (0.01, 0.05, 0.9)
PRIOR_CLAIM = (0.9, 0.9, 0.9)
#: Staying is kept apart by who the Suit would go to (her, nobody, me): she stays when her
#: chances are good, which her cards show her better than their class.
PRIOR_STAY = ((1.0, 1.0, 0.1), (1.0, 1.0, 0.8), (1.0, 1.0, 0.95))
PRIOR_WEIGHT = 2.0


@dataclass
class Rate:
    """How often something happened, per strength class, starting from a prior."""

    prior: tuple[tuple[float, ...], ...] | tuple[float, ...]
    hits: list[float] = field(default_factory=lambda: [0.0] * 9)
    seen: list[float] = field(default_factory=lambda: [0.0] * 9)

    def p(self, cls: int, outcome: int = 0) -> float:
        """The estimated probability in class ``cls`` (and, where it is kept apart, when the
        Suit would go to me (``outcome`` 1), to her (-1) or to nobody (0))."""
        k = 3 * cls + outcome + 1
        prior = self.prior[cls]
        mean = prior if isinstance(prior, float) else prior[outcome + 1]
        return (self.hits[k] + PRIOR_WEIGHT * mean) / (self.seen[k] + PRIOR_WEIGHT)

    def add(self, cls: int, hit: bool, outcome: int = 0) -> None:
        """One more observation."""
        k = 3 * cls + outcome + 1
        self.seen[k] += 1
        self.hits[k] += hit


@dataclass
class Model:
    """The opponent's betting, learnt from the showdowns; and this round's bets seen so far."""

    double: Rate = field(default_factory=lambda: Rate(PRIOR_DOUBLE))
    stay: Rate = field(default_factory=lambda: Rate(PRIOR_STAY))
    claim: Rate = field(default_factory=lambda: Rate(PRIOR_CLAIM))
    round: int = -1
    #: Per Suit of the round: (she claimed, she doubled down, I doubled down, she stayed or None).
    seen: dict[int, tuple[bool, bool, bool, bool | None]] = field(default_factory=dict)


def _cards_of(obs: dict[str, Any], seat: int) -> list[int]:
    return [CARD_NAMES.index(c) for c in list(obs["hand"]) + [c["card"] for c in obs["table"][seat]]]


def _classes(cards: list[int]) -> list[int]:
    """The strength class of four cards on each Suit (the rule-based player's grades)."""
    out = []
    for suit in range(len(SUITS)):
        key = suit_key(suit, cards)
        if key is None:
            out.append(0)
        elif suit in (0, 1):
            out.append(2 if key[0] >= 3 else (1 if key[0] >= 2 else 0))
        elif suit == 2:
            out.append(2 if key[0] == 3 else (1 if key[0] == 2 else 0))
        else:
            out.append(2 if key[0] == 2 else (1 if key[1] >= 37 else 0))
    return out


def _learn(model: Model, obs: dict[str, Any], me: int) -> None:
    """At a new round: what the last round's bets said, now that the showdown shows her cards."""
    if obs["round"] == model.round:
        return
    combos = obs["last_combinations"]
    if model.round >= 0 and combos is not None and obs["round"] == model.round + 1:
        her = 1 - me
        hers = [CARD_NAMES.index(c) for c in combos[her]]
        mine = [CARD_NAMES.index(c) for c in combos[me]]
        classes = _classes(hers)
        for suit, (claimed, doubled, i_doubled, stayed) in model.seen.items():
            cls = classes[suit]
            outcome = _contest(suit, mine, hers, me, (obs["dealer"] - 1) % 2)[0]
            model.claim.add(cls, claimed)
            if claimed and not i_doubled:
                model.double.add(cls, doubled)
            if i_doubled and claimed:
                if stayed is None:  # the round ended on my Double Down: the points tell
                    won, points = obs["suit_winners"][suit], obs["suit_points"][suit]
                    stayed = not (won == me and points == 1 + MOST[suit])
                model.stay.add(cls, stayed, outcome)
    model.round = obs["round"]
    model.seen = {}


def _watch(model: Model, obs: dict[str, Any], me: int) -> None:
    """Records this round's bets as far as they are seen."""
    her = 1 - me
    current = SUITS.index(obs["suit"])
    for suit in range(current + 1):
        bets, doubler = obs["bets"][suit], obs["double_down"][suit]
        claimed = her in bets or doubler == her
        old = model.seen.get(suit)
        i_doubled = doubler == me
        stayed: bool | None = None
        if i_doubled and suit < current:
            stayed = her in bets
        if old is not None:
            claimed = claimed or old[0]
            stayed = old[3] if stayed is None else stayed
        model.seen[suit] = (claimed, doubler == her, i_doubled, stayed)


def _weight(model: Model, classes: list[int], outcomes: list[int]) -> float:
    """How likely her bets this round are if her cards have these classes (and the Suits
    would go these ways)."""
    w = 1.0
    for suit, (claimed, doubled, i_doubled, stayed) in model.seen.items():
        cls = classes[suit]
        if claimed and not i_doubled:
            p = model.double.p(cls)
            w *= p if doubled else 1.0 - p
        if stayed is not None:
            p = model.stay.p(cls, outcomes[suit])
            w *= p if stayed else 1.0 - p
    return w


def _contest(suit: int, mine: list[int], hers: list[int], me: int, dealer: int) -> tuple[int, int]:
    """Who wins ``suit`` between the two combinations (+1 me, -1 her, 0 nobody) and what it
    pays before chips."""
    a, b = suit_key(suit, mine), suit_key(suit, hers)
    if a is None and b is None:
        return 0, 0
    if b is None or (a is not None and (a > b or (a == b and me == dealer))):
        assert a is not None
        return 1, suit_points(suit, a)
    return -1, suit_points(suit, b)


class World(NamedTuple):
    """One sampled world, as a decision on the current Suit sees it."""

    #: How likely her bets this round are in it.
    weight: float
    #: Who wins the Suit if both stay: 1 me, -1 her, 0 nobody.
    outcome: int
    #: What the Suit pays its winner before chips.
    points: int
    #: Her strength class on the Suit.
    cls: int


def decide(view: View, memory: dict[str, Any]) -> int | None:
    """The wager with the best expected points (two players only), or None outside the
    wagers (and with more players) to let the search decide."""
    obs = view.observation
    if len(obs["scores"]) != 2:
        return None
    me, her = view.seat, 1 - view.seat
    model: Model = memory.setdefault("regine_bets", Model())
    if obs["round"] < model.round:
        model = memory["regine_bets"] = Model()
    _learn(model, obs, me)
    if obs["phase"] != "wager":
        return None
    _watch(model, obs, me)
    rng: random.Random = memory.setdefault("regine_rng", random.Random(me))
    suit = SUITS.index(obs["suit"])
    lone = 1 + MOST[suit]
    mine = _cards_of(obs, me)
    worlds: list[World] = []
    for _ in range(WORLDS):
        seen = view.sample_world(rng.getrandbits(64)).observation(her)
        hers = _cards_of(seen, her)
        classes = _classes(hers)
        contests = [_contest(k, mine, hers, me, obs["dealer"]) for k in range(len(SUITS))]
        outcome, points = contests[suit]
        weight = _weight(model, classes, [o for o, _ in contests])
        worlds.append(World(weight, outcome, points, classes[suit]))
    total = sum(w.weight for w in worlds)
    if total <= 0.0:  # her bets fit none of the worlds: take them all alike
        worlds = [w._replace(weight=1.0) for w in worlds]
        total = float(len(worlds))

    def mean(f: Callable[[int, int, int], float]) -> float:
        """The weighted mean of ``f(outcome, points, her class)`` over the worlds."""
        return sum(w.weight * f(w.outcome, w.points, w.cls) for w in worlds) / total

    def contested(factor: int) -> Callable[[int, int, int], float]:
        """What a contest pays me: the Suit's points and both chips, times ``factor``."""
        return lambda o, p, c: o * (p + 2) * factor

    legal = {view.action_info(a)["kind"]: a for a in view.legal_actions}
    if obs["decision"] == "reply to the double down":
        stay = mean(contested(2))
        return legal.get("we_shall_see" if stay > -lone else "all_yours")

    def she_may_double() -> float:
        """Both holding a chip, I pass: she may double down (then I answer as well as I can)."""
        if obs["double_down"][suit] is not None:
            return mean(contested(1))
        plain = mean(lambda o, p, c: (1 - model.double.p(c)) * o * (p + 2))
        if_stays = mean(lambda o, p, c: model.double.p(c) * o * (p + 2) * 2)
        if_leaves = mean(lambda o, p, c: model.double.p(c) * -lone)
        return plain + max(if_stays, if_leaves)

    holds = me in obs["bets"][suit]
    she_holds = her in obs["bets"][suit]
    values: dict[str, float] = {}
    claim = mean(lambda o, p, c: model.claim.p(c))
    if not holds:
        if she_holds:
            values["mine"] = she_may_double()
            values["pass"] = -lone
        else:  # if she claims after my pass, I may still claim
            values["mine"] = claim * she_may_double() + (1 - claim) * lone
            values["pass"] = claim * max(she_may_double(), -lone) + (1 - claim) * mean(lambda o, p, c: o * p)
    else:
        values["pass"] = she_may_double() if she_holds else claim * she_may_double() + (1 - claim) * lone
        if she_holds:
            values["double_down"] = mean(
                lambda o, p, c: model.stay.p(c, o) * o * (p + 2) * 2 + (1 - model.stay.p(c, o)) * lone
            )
    choices = [kind for kind in values if kind in legal]
    if not choices:
        return None
    return legal[max(choices, key=lambda kind: (values[kind], -legal[kind]))]
