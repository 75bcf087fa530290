"""Regnum by rules: buy the most valuable character the hand pays for (printed points, plus a
point for a score icon and half a point for an effect), as often as possible; pay with single
cards before dual ones and never spend the wildcard needlessly; draw two blind (Riverford
takes the discard, which draws a blind card too); discard, give away and lose the card held
most often; steal from the fullest hand; take dual cards; exchange for and remove the most
valuable inhabitants of the leading player."""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from regalia.agents.base import View
from regalia.reference.regnum_cards import CardSet, default_card_set_data, parse_card_set


@lru_cache(maxsize=8)
def _default_values(players: int) -> dict[str, float]:
    return _values(parse_card_set(default_card_set_data(), players))


def _values(cards: CardSet) -> dict[str, float]:
    return {
        c.name: c.points + (1.0 if c.score is not None else 0.0) + (0.5 if c.effect is not None else 0.0)
        for c in cards.characters
    }


def values(options: dict[str, Any]) -> dict[str, float]:
    """Each character's worth to this policy, by name."""
    players = int(options.get("players", 2))
    given = options.get("card_set")
    return _default_values(players) if given is None else _values(parse_card_set(given, players))


def _card(name: str, prefix: str, suffix: str = "") -> str:
    return name[len(prefix) : len(name) - len(suffix)]


def policy(view: View, rng: random.Random, memory: dict[str, Any]) -> int:
    """The action these rules choose (random among equals)."""
    obs = view.observation
    names = dict(zip(view.legal_actions, view.action_names))
    worth = values(view.options)
    hand = obs["hand"]

    def best(score: dict[int, float]) -> int:
        top = max(score.values())
        return rng.choice(sorted(a for a, s in score.items() if s == top))

    def commonest(prefix: str, suffix: str = "") -> int:
        return best({a: hand.count(_card(n, prefix, suffix)) for a, n in names.items() if n.startswith(prefix)})

    phase = obs["phase"]
    if phase == "draw":
        riverford = obs["castles"][view.seat].startswith("Riverford")
        want = "take discard" if riverford else "draw two"
        return next((a for a, n in names.items() if n == want), view.legal_actions[0])
    if phase == "main":
        buys = {a: worth.get(n[4:].rsplit(" (", 1)[0], 0.0) for a, n in names.items() if n.startswith("buy ")}
        if buys:
            return best(buys)
        ends = [a for a, n in names.items() if n == "end turn"]
        return ends[0] if ends else commonest("discard ")
    if phase == "pay":
        return best({a: -("/" in n) - 2 * ("(wild)" in n) for a, n in names.items()})
    if phase in ("tax", "draw2_discard"):
        return commonest("discard ")
    if phase == "swap_give":
        return commonest("give ", " to the deck")
    if phase in ("swap_take", "salvage"):
        return best({a: float("/" in n) for a, n in names.items()})
    if phase == "steal":
        return best({a: obs["hand_sizes"][int(n.rsplit(" ", 1)[1])] for a, n in names.items()})
    # exchange / remove: the most valuable inhabitant, of the leading player first.
    owner = {c: p for p, realm in enumerate(obs["realms"]) for c in realm}
    verb = "exchange for " if phase == "exchange" else "remove "
    score: dict[int, float] = {}
    for a, n in names.items():
        c = _card(n, verb)
        score[a] = worth.get(c, 0.0) + 0.01 * obs["scores"][owner.get(c, 0)]
    return best(score)
