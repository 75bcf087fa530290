"""Regine by rules: exchange once the cards that fit nothing (not a Queen, a Jester or part
of a pair), then lock exchanges with "no changes" when the hand is good; use effects against
the opponents; claim every Suit (a chip costs nothing and a lone claim wins at once), double
down on the very strong ones and stay after a Double Down when strong enough to bet."""

from __future__ import annotations

import random
from collections import Counter

from regalia.agents.base import View
from regalia.reference.regine import CARD_NAMES, suit_key

KEEP = ("queen", "jester")


def _own_cards(view: View) -> list[str]:
    """Every card of the seat: its hand and its table (its own face-down cards included)."""
    obs = view.observation
    return list(obs["hand"]) + [c["card"] for c in obs["table"][view.seat]]


def _loose(view: View) -> Counter[str]:
    """Hand cards that fit nothing: not a Queen or Jester and not paired with an own card."""
    own = Counter(_own_cards(view))
    return Counter(c for c in view.observation["hand"] if c not in KEEP and own[c] < 2)


def _strength(view: View, suit: int) -> int:
    """0 weak, 1 strong enough to stay after a Double Down, 2 strong enough to double down."""
    cards = _own_cards(view)
    if len(cards) != 4:
        return 0
    key = suit_key(suit, [CARD_NAMES.index(c) for c in cards])
    if key is None:
        return 0
    if suit in (0, 1):
        return 2 if key[0] >= 3 else (1 if key[0] >= 2 else 0)
    if suit == 2:
        return 2 if key[0] == 3 else (1 if key[0] == 2 else 0)
    return 2 if key[0] == 2 else (1 if key[1] >= 37 else 0)


def _pick(view: View, rng: random.Random, *prefixes: str) -> int | None:
    """A random legal action whose name starts with the first prefix that has one."""
    for p in prefixes:
        found = [a for a, n in zip(view.legal_actions, view.action_names) if n.startswith(p)]
        if found:
            return rng.choice(found)
    return None


def _richest_opponent(view: View, prefix: str, rng: random.Random) -> int:
    sizes = view.observation["hand_sizes"]
    named = {a: int(n.split()[-1]) for a, n in zip(view.legal_actions, view.action_names) if n.startswith(prefix)}
    most = max(sizes[k] for k in named.values())
    return rng.choice([a for a, k in named.items() if sizes[k] == most])


def _by_name(view: View, name: str) -> int | None:
    return next((a for a, n in zip(view.legal_actions, view.action_names) if n == name), None)


def policy(view: View, rng: random.Random) -> int:
    """The rule-based choice for whatever the seat is asked."""
    obs, me = view.observation, view.seat
    decision = obs["decision"]
    loose = _loose(view)
    others = tuple(f"seat {k} " for k in range(len(obs["scores"])) if k != me)
    choice: int | None = None
    if decision in ("turn", "exchange"):
        marked = Counter(obs["marked"])
        wanted = [c for c in CARD_NAMES if loose[c] > marked[c]]
        for card in wanted:
            choice = choice if choice is not None else _by_name(view, f"exchange {card}")
        if choice is None and decision == "exchange":
            choice = _by_name(view, "confirm exchange")
        if choice is None and not loose:
            choice = _by_name(view, "there are no changes")
        choice = choice if choice is not None else _by_name(view, "end turn")
    elif decision in ("peasant: name an opponent", "knight: name an opponent"):
        choice = _richest_opponent(view, decision.split(":")[0], rng)
    elif decision in ("peasant: show a card", "princess: discard a card"):
        verb = "show" if decision.startswith("peasant") else "discard"
        worst = [c for c in CARD_NAMES if loose[c]] or list(CARD_NAMES)
        choice = _pick(view, rng, *(f"{decision.split(':')[0]}: {verb} {c}" for c in worst))
    elif decision in ("assassin: eliminate a card", "courtesan: flip a face-down card"):
        kind = decision.split(":")[0]
        choice = _pick(view, rng, *(f"{kind}: {o}" for o in others))
    elif decision == "herald: take the top card?":
        good = obs["herald_card"] in KEEP or obs["herald_card"] in obs["hand"]
        choice = _by_name(view, "herald: take the top card" if good else "herald: put it at the bottom")
    elif decision == "bet":
        strength = _strength(view, ("queens", "jesters", "pairs", "game").index(obs["suit"]))
        if strength == 2:
            choice = _by_name(view, "double down")
        if choice is None:
            choice = _by_name(view, "mine")  # a chip costs nothing, and a lone chip wins
        choice = choice if choice is not None else _by_name(view, "pass")
    elif decision == "reply to the double down":
        strength = _strength(view, ("queens", "jesters", "pairs", "game").index(obs["suit"]))
        choice = _by_name(view, "we shall see" if strength >= 1 else "all yours")
    return choice if choice is not None else rng.choice(view.legal_actions)
