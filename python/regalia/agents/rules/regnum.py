"""Regnum by rules: buy, as often as possible, the character that raises the lead most as the
game stands (its points, score icons and standards, counted by the game itself on a copy of
the position), plus half a point for a score icon and half for an effect; pay with single
cards before dual ones and never spend the wildcard needlessly; draw two blind (Riverford
takes the discard, which draws a blind card too); discard, give away and lose the card held
most often; steal from the fullest hand; take dual cards; exchange for and remove the most
valuable inhabitants of the leading player. It reads the actions by their documented ids and
the characters from the card set, never from the actions' names."""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from regalia.agents.base import View
from regalia.cards.regnum import CardSet, default_card_set_data, parse_card_set

#: Resource kinds in the documented order, and the colours a card pays as.
KINDS = ("G", "O", "P", "Y", "G/O", "G/P", "G/Y", "O/P", "O/Y", "P/Y")
COLOURS = "GOPY"
#: Action ids of the documented encoding (``k`` a kind, ``c`` a colour, ``p`` a seat).
DRAW_TWO, TAKE_DISCARD, BUY, PAY, DISCARD, END_TURN = 0, 1, 2, 6, 46, 56
STEAL, SALVAGE, SWAP_TAKE, SWAP_GIVE, TARGET = 57, 61, 71, 81, 91


@lru_cache(maxsize=8)
def _default_set(players: int) -> CardSet:
    return parse_card_set(default_card_set_data(), players)


def card_set(options: dict[str, Any]) -> CardSet:
    """The card set in force."""
    players = int(options.get("players", 2))
    given = options.get("card_set")
    return _default_set(players) if given is None else parse_card_set(given, players)


def values(options: dict[str, Any]) -> dict[str, float]:
    """Each character's worth to this policy, by name."""
    return {
        c.name: c.points + (1.0 if c.score is not None else 0.0) + (0.5 if c.effect is not None else 0.0)
        for c in card_set(options).characters
    }


def lead(state: Any, seat: int) -> int:
    """The seat's points minus the best of the others' as the game stands."""
    scores = state.scores()
    return int(scores[seat] - max(x for k, x in enumerate(scores) if k != seat))


def gain(world: Any, seat: int, buy: int) -> float:
    """How much buying with ``buy`` raises the seat's lead as the game stands (points,
    score icons and standards, counted by the game itself), paid the thrifty way in a copy of
    ``world``."""
    after = world.clone()
    after.apply(buy)
    while not after.is_terminal and after.observation(seat)["phase"] == "pay":
        after.apply(max(after.legal_actions(), key=lambda a: _thrift(a)))
    return float(lead(after, seat) - lead(world, seat))


def _thrift(a: int) -> float:
    """Paying with action ``a``: single cards before dual ones, the wildcard last."""
    kind, colour = KINDS[(a - PAY) // 4], COLOURS[(a - PAY) % 4]
    return -float("/" in kind) - 2.0 * (colour not in kind)


def policy(view: View, rng: random.Random, memory: dict[str, Any]) -> int:
    """The action these rules choose (random among equals)."""
    del memory  # nothing to remember between moves
    obs, legal = view.observation, view.legal_actions
    cards = card_set(view.options)
    worth = values(view.options)
    bonus = {c.name: 0.5 * (c.score is not None) + 0.5 * (c.effect is not None) for c in cards.characters}
    price = {c.name: float(max(len(c.slots), 1)) for c in cards.characters}
    hand = obs["hand"]

    def best(score: dict[int, float]) -> int:
        top = max(score.values())
        return rng.choice(sorted(a for a, s in score.items() if s == top))

    def kinds(base: int) -> dict[int, str]:
        """The legal ``base + k`` actions and their kinds."""
        return {a: KINDS[a - base] for a in legal if base <= a < base + len(KINDS)}

    def commonest(base: int) -> int:
        return best({a: hand.count(k) for a, k in kinds(base).items()})

    phase = obs["phase"]
    if phase == "draw":
        castle = next((c for c in cards.castles if c.name == obs["castles"][view.seat]), None)
        riverford = castle is not None and castle.advantage == "RIVERFORD"
        want = TAKE_DISCARD if riverford else DRAW_TWO
        return want if want in legal else legal[0]
    if phase == "main":
        buys = [a for a in legal if BUY <= a < PAY]
        if buys:
            world = view.sample_world(rng.getrandbits(64))
            named = {a: obs["lineup"][a - BUY] for a in buys}
            return best({a: (gain(world, view.seat, a) + bonus[n]) / price[n] for a, n in named.items()})
        return END_TURN if END_TURN in legal else commonest(DISCARD)
    if phase == "pay":
        return best({a: _thrift(a) for a in legal})
    if phase in ("tax", "draw2_discard"):
        return commonest(DISCARD)
    if phase == "swap_give":
        return commonest(SWAP_GIVE)
    if phase in ("swap_take", "salvage"):
        return best({a: float("/" in k) for a, k in kinds(SWAP_TAKE if phase == "swap_take" else SALVAGE).items()})
    if phase == "steal":
        return best({a: obs["hand_sizes"][a - STEAL] for a in legal})
    # exchange / remove: the most valuable inhabitant, of the leading player first.
    owner = {c: p for p, realm in enumerate(obs["realms"]) for c in realm}
    score: dict[int, float] = {}
    for a in legal:
        name = cards.characters[a - TARGET].name
        score[a] = worth.get(name, 0.0) + 0.01 * obs["scores"][owner.get(name, 0)]
    return best(score)
