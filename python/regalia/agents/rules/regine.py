"""Regine by rules: exchange once the cards that fit nothing (not a Queen, a Jester or part
of a pair), then lock exchanges with "no changes" when the hand is good; use effects against
the opponents; claim every Suit (a chip costs nothing and a lone claim wins at once), double
down on the very strong ones and stay after a Double Down when strong enough to bet, or
whatever the cards when the opponents double down on most Suits. It reads the decision from
the observation and each legal action's ``action_info`` (its kind, card, seat), never names
or id arithmetic."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from regalia.core.cards.regine import CARD_NAMES, suit_key
from regalia.core.engine import regine_bet_strength
from regalia.core.view import View

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
    """0 weak, 1 strong enough to stay after a Double Down, 2 strong enough to double down
    (the engine's rule, which the search's rollouts bet by too)."""
    cards = _own_cards(view)
    return regine_bet_strength(suit, cards) if len(cards) == 4 else 0


#: The Suits in betting order, as the observation names them.
SUITS = ("queens", "jesters", "pairs", "game")
#: A legal action's id by its info.
Infos = dict[int, dict[str, Any]]


def _infos(view: View) -> Infos:
    """Every legal action's info, in id order."""
    return {a: view.action_info(a) for a in view.legal_actions}


def _of_kind(infos: Infos, *kinds: str) -> int | None:
    """The first legal action of the first of ``kinds`` that has one."""
    return next((a for kind in kinds for a, info in infos.items() if info["kind"] == kind), None)


def _for_cards(infos: Infos, kind: str, cards: list[str]) -> int | None:
    """The legal ``kind`` action for the first of ``cards`` that has one."""
    by_card = {info["card"]: a for a, info in infos.items() if info["kind"] == kind}
    return next((by_card[c] for c in cards if c in by_card), None)


def _richest_opponent(view: View, infos: Infos, rng: random.Random) -> int | None:
    """Of the legal actions naming a seat, one naming the opponent with most cards in hand."""
    sizes = view.observation["hand_sizes"]
    named = {a: info["seat"] for a, info in infos.items() if info["kind"] == "name_seat"}
    if not named:
        return None
    most = max(sizes[k] for k in named.values())
    return rng.choice([a for a, k in named.items() if sizes[k] == most])


def _at_opponents(view: View, infos: Infos, rng: random.Random) -> int | None:
    """A random legal action aimed at a card on an opponent's table."""
    found = [a for a, info in infos.items() if info["kind"] == "target_card" and info["seat"] != view.seat]
    return rng.choice(found) if found else None


def _reckless_doubler(view: View, memory: dict[str, Any]) -> bool:
    """Whether the opponents have doubled down on more than half of the Suits seen (then
    their Double Downs say nothing about their cards); remembers the Suits seen so far."""
    obs = view.observation
    seen: dict[tuple[int, int], bool] = memory.setdefault("doubles", {})
    for k, doubler in enumerate(obs["double_down"]):
        if k <= SUITS.index(obs["suit"]) and obs["suit"] is not None:
            seen[(obs["round"], k)] = doubler is not None and doubler != view.seat
    return len(seen) >= 2 and sum(seen.values()) > len(seen) / 2


def _win_chance(view: View, suit: int, rng: random.Random, worlds: int = 24) -> float:
    """How often the seat's four cards beat those of the other bettors on ``suit`` (everyone
    when nobody bet), over worlds sampled for the seat (hidden cards as likely as the others;
    a Suit nobody can win counts half)."""
    me = view.seat
    mine = suit_key(suit, [CARD_NAMES.index(c) for c in _own_cards(view)])
    rivals = [k for k in view.observation["bets"][suit] if k != me] or [
        k for k in range(len(view.observation["scores"])) if k != me
    ]
    total = 0.0
    for _ in range(worlds):
        world = view.sample_world(rng.getrandbits(64))
        best: list[int] | None = None
        for k in rivals:
            seen = world.observation(k)
            cards = list(seen["hand"]) + [c["card"] for c in seen["table"][k]]
            key = suit_key(suit, [CARD_NAMES.index(c) for c in cards]) if len(cards) == 4 else None
            best = key if best is None or (key is not None and key > best) else best
        if mine is None and best is None:
            total += 0.5
        elif mine is not None and (best is None or mine > best):
            total += 1.0
    return total / worlds


#: Against a doubler whose Double Downs say nothing, staying pays from this chance of winning
#: the Suit on: staying risks twice (points + 2 chips) either way, leaving gives away points + 1.
STAY_CHANCE = 1 / 3
#: ... and doubling down from this one (the reckless doubler always stays).
DOUBLE_CHANCE = 0.6
#: Against any other doubler, staying needs this chance against a hand drawn at random.
STRONG_CHANCE = 0.75


def policy(view: View, rng: random.Random, memory: dict[str, Any]) -> int:
    """The rule-based choice for whatever the seat is asked."""
    obs = view.observation
    decision = obs["decision"]
    infos = _infos(view)
    loose = _loose(view)
    worst = [c for c in CARD_NAMES if loose[c]] or list(CARD_NAMES)
    choice: int | None = None
    if decision in ("turn", "exchange"):
        marked = Counter(obs["marked"])
        choice = _for_cards(infos, "exchange", [c for c in CARD_NAMES if loose[c] > marked[c]])
        if choice is None and decision == "exchange":
            choice = _of_kind(infos, "confirm_exchange")
        if choice is None and not loose:
            choice = _of_kind(infos, "no_changes")
        choice = choice if choice is not None else _of_kind(infos, "end_turn")
    elif decision in ("peasant: name an opponent", "knight: name an opponent"):
        choice = _richest_opponent(view, infos, rng)
    elif decision == "peasant: show a card":
        choice = _for_cards(infos, "show_card", worst)
    elif decision == "princess: discard a card":
        choice = _for_cards(infos, "discard", worst)
    elif decision in ("assassin: eliminate a card", "courtesan: flip a face-down card"):
        choice = _at_opponents(view, infos, rng)
    elif decision == "herald: take the top card?":
        good = obs["herald_card"] in KEEP or obs["herald_card"] in obs["hand"]
        choice = next((a for a, info in infos.items() if info["kind"] == "herald" and info["take"] == good), None)
    elif decision == "bet":
        suit = SUITS.index(obs["suit"])
        double = _strength(view, suit) == 2
        if not double and _of_kind(infos, "double_down") is not None and _reckless_doubler(view, memory):
            double = _win_chance(view, suit, rng) >= DOUBLE_CHANCE
        choice = _of_kind(infos, "double_down", "mine", "pass") if double else _of_kind(infos, "mine", "pass")
    elif decision == "reply to the double down":
        suit = SUITS.index(obs["suit"])
        stay = _strength(view, suit) >= 1
        if not stay:
            reckless = _reckless_doubler(view, memory)
            stay = _win_chance(view, suit, rng) >= (STAY_CHANCE if reckless else STRONG_CHANCE)
        choice = _of_kind(infos, "we_shall_see" if stay else "all_yours")
    return choice if choice is not None else rng.choice(view.legal_actions)
