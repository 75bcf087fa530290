"""Regnum by rules: plan each turn's purchases and judge them as a player who knows the game.

The judgement (``Judge.value``) is the seat's expected final score minus its strongest
opponent's: the points the realms already score (counted by the card set's own scoring), the
score icons that still wait for a King or Queen nobody owns yet (part of their worth), every
standard and the Jesters' bonus by how safely each player leads it (a sure thing once the game
is about to end, a lean while many turns remain), the cards in hand as buying power (worth less
as the end nears), and what the next player could take from the line-up left behind.

A turn: draw two blind, or take the discard's top card (with Riverford also a blind card) when
that makes the better turn in worlds sampled for the seat; then try every order of purchases
the hand pays for in such a world (each paid the thrifty way, each effect played by these rules)
and play the first step of the best, ending the turn, or discarding the card the line-up needs
least, when buying more does not pay. Effects: steal from the fullest hand; take from the deck
or the discard pile the card the line-up needs most and give back the one it needs least;
exchange for, or remove, the inhabitant whose move helps the judgement most. It reads what
each action does from its ``action_info`` (remembered by id: it asks only what an id means in
every state), the observation and the card set in force, never names of actions.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

from regalia.agents.rules.infos import IdInfos
from regalia.core.cards.regnum import (
    BANNERHOLD_POINTS,
    COLOURS,
    JESTER_BONUS,
    KIND_MASK,
    KIND_NAMES,
    PAIR_FIRST,
    STANDARD_POINTS,
    CardSet,
    card_set_for,
    score_parts,
    tally,
)
from regalia.core.protocols import StateProtocol, seat_to_act
from regalia.core.view import View, draw_outcome

#: What a card in hand is worth while several turns remain (about the points a card buys).
CARD_WORTH = 0.45
#: The part of a King's or Queen's score icon counted before anyone owns that character.
ROYAL_HOPE = 0.4
#: The part of the next player's best line-up purchase counted against the seat.
THREAT = 0.3
#: Worlds sampled to compare the two ways of drawing (both tried in the same worlds).
DRAW_WORLDS = 1


def _certainty(margin: float, turns_left: float) -> float:
    """How likely a lead of ``margin`` (in counts) is to hold with ``turns_left`` turns of the
    seat's still to play: a sure thing at the end, a lean while the game is young."""
    if turns_left <= 0:
        return 1.0 if margin > 0 else 0.0
    return 1.0 / (1.0 + math.exp(-margin / (0.4 + 0.35 * turns_left)))


def _icon_points(score: str | None, icons: tuple[str, str]) -> int:
    """What a score icon among ``icons`` (``+1K``/``+2K`` or the Queen's) adds with its royal."""
    return int(score[1]) if score in icons and score is not None else 0


class Judge:
    """The card set in force and how this seat values positions of one game."""

    def __init__(self, options: dict[str, Any], seat: int) -> None:
        self.cards: CardSet = card_set_for(options)
        self.seat = seat
        self.index = {c.name: i for i, c in enumerate(self.cards.characters)}
        self.advantage = {c.name: c.advantage for c in self.cards.castles}
        self.standard = {s.name: i for i, s in enumerate(self.cards.standards)}
        self._takes: dict[tuple[Any, ...], float] = {}

    def turns_left(self, obs: dict[str, Any]) -> float:
        """About how many more turns each player gets after the current one."""
        players = len(obs["hand_sizes"])
        final: int | None = obs["final_turns"]
        if final is not None:
            return max(final - 1, 0) / players
        rounds = min(int(obs["resource_deck"]) / (2.2 * players), int(obs["character_deck"]) / (1.2 * players))
        return rounds + 1.0

    def estimates(
        self, obs: dict[str, Any], realms: list[list[int]] | None = None, seats: list[int] | None = None
    ) -> list[float]:
        """The expected final score of each of ``seats`` (default: all) as the observation
        stands (``realms`` overrides the realms, as lists of character indices)."""
        cards = self.cards
        realms = [[self.index[n] for n in r] for r in obs["realms"]] if realms is None else realms
        hands = obs["hand_sizes"]
        advantages = [self.advantage[c] for c in obs["castles"]]
        standards = [self.standard[s] for s in obs["standards"]]
        players = len(realms)
        left = self.turns_left(obs)
        seats = list(range(players)) if seats is None else seats
        tallies = [tally(cards, realms[p], hands[p]) for p in range(players)]
        owned = {c for r in realms for c in r}
        gone = {self.index[n] for n in obs["gone"]}
        hope = ROYAL_HOPE * min(1.0, left / 3.0)
        card = CARD_WORTH * min(1.0, left / 2.0)
        out = []
        for p in seats:
            part = score_parts(cards, [realms[p]], [hands[p]], [advantages[p]], [])[0]
            value = part["characters"] + part["wizards"] + card * hands[p] + 0.05 * len(realms[p])
            for royal, icons in ((cards.king, ("+1K", "+2K")), (cards.queen, ("+1Q", "+2Q"))):
                if royal is None or royal in owned or royal in gone:
                    continue
                value += hope * sum(_icon_points(cards.characters[c].score, icons) for c in realms[p])
            for key, points, counts in self._contests(standards, advantages[p]):
                mine = tallies[p][key]
                best_other = max(tallies[o][key] for o in range(players) if o != p)
                margin = float(mine - best_other)
                if margin == 0 and counts and mine >= 1:
                    margin = 0.5
                if mine >= 1:
                    value += points * _certainty(margin, left)
            out.append(value)
        return out

    def _contests(self, standards: list[int], advantage: str | None) -> list[tuple[str, int, bool]]:
        """What is contested (the standards in play and the Jesters' bonus): the tally counted,
        the points for winning it, whether a tie wins it (Montreaux's standards)."""
        won = BANNERHOLD_POINTS if advantage == "BANNERHOLD" else STANDARD_POINTS
        tie = advantage == "MONTREAUX"
        return [(self.cards.standards[i].counts, won, tie) for i in standards] + [("JESTERS", JESTER_BONUS, False)]

    def value(self, state: StateProtocol, threat: bool = False, obs: dict[str, Any] | None = None) -> float:
        """The seat's expected lead over its strongest opponent; with ``threat``, less part of
        what the next player could gain from the line-up as it is (``obs``: the seat's
        observation of ``state``, if at hand)."""
        if state.is_terminal:
            return 1000.0 * float(state.returns()[self.seat]) + self.lead(state)
        obs = state.observation(self.seat) if obs is None else obs
        est = self.estimates(obs)
        me = self.seat
        lead = est[me] - max(e for p, e in enumerate(est) if p != me)
        if threat:
            lead -= THREAT * self.best_take(obs, (me + 1) % len(est), est)
        return lead

    def best_take(self, obs: dict[str, Any], seat: int, est: list[float]) -> float:
        """How much the best character of the line-up would raise ``seat``'s estimate, less
        the cards it costs (remembered for the line-up, realms and hands seen)."""
        key = (seat, tuple(obs["lineup"]), tuple(map(tuple, obs["realms"])), tuple(obs["hand_sizes"]))
        if key in self._takes:
            return self._takes[key]
        realms = [[self.index[n] for n in r] for r in obs["realms"]]
        card = CARD_WORTH * min(1.0, self.turns_left(obs) / 2.0)
        best = 0.0
        for name in obs["lineup"]:
            if name is None:
                continue
            c = self.index[name]
            trial = [list(r) for r in realms]
            trial[seat].append(c)
            gain = self.estimates(obs, trial, [seat])[0] - est[seat] - card * len(self.cards.characters[c].slots)
            best = max(best, gain)
        if len(self._takes) > 4096:
            self._takes.clear()
        self._takes[key] = best
        return best

    def lead(self, state: StateProtocol) -> float:
        """The seat's points minus the best of the others' as the game stands."""
        scores = state.scores()
        return float(scores[self.seat] - max(x for k, x in enumerate(scores) if k != self.seat))

    def needs(self, obs: dict[str, Any]) -> list[float]:
        """How much of each colour the characters in the line-up ask for (the King and Queen,
        and a character whose icons wait for them, twice)."""
        need = [0.0] * len(COLOURS)
        for name in obs["lineup"]:
            if name is None:
                continue
            c = self.index[name]
            weight = 2.0 if c in (self.cards.king, self.cards.queen) else 1.0
            for slot in self.cards.characters[c].slots:
                if slot < PAIR_FIRST:
                    need[slot] += weight
        return need


def _held(hand: Counter[int]) -> list[int]:
    """Per colour, the cards of ``hand`` that can pay it."""
    return [sum(n for k, n in hand.items() if KIND_MASK[k] >> c & 1) for c in range(len(COLOURS))]


def _usefulness(kind: int, held: list[int], need: list[float]) -> float:
    """How much a card of ``kind`` helps pay for what the line-up asks, the hand holding
    ``held`` cards per colour (duals a little more: they pay either colour)."""
    mask = KIND_MASK[kind]
    fit = max(need[c] - held[c] for c in range(len(COLOURS)) if mask >> c & 1)
    return fit + 0.5 * (kind >= len(COLOURS))


def _hand(obs: dict[str, Any]) -> Counter[int]:
    return Counter(KIND_NAMES.index(k) for k in obs["hand"])


def _by_kind(
    legal: list[int],
    kind: str,
    infos: IdInfos,
    state: StateProtocol,
    obs: dict[str, Any],
    need: list[float],
    keep: bool,
) -> int:
    """Of the legal actions of ``kind`` (each with a resource card), the card the line-up needs
    least (``keep`` false: to give away) or most (``keep`` true: to take); among equals the
    commonest to give."""
    hand = _hand(obs)
    held = _held(hand)
    kinds = {a: KIND_NAMES.index(info["card"]) for a in legal if (info := infos(state, a))["kind"] == kind}
    sign = 1.0 if keep else -1.0
    return max(kinds, key=lambda a: (sign * _usefulness(kinds[a], held, need), -sign * hand[kinds[a]], -a))


def _thrift(info: dict[str, Any], held: list[int], need: list[float]) -> tuple[float, ...]:
    """Paying as ``info`` says from a hand holding ``held`` cards per colour: never the
    wildcard needlessly, single cards before duals, and the card the line-up needs least
    (weighed in the hand without it)."""
    kind = KIND_NAMES.index(info["card"])
    mask = KIND_MASK[kind]
    rest = [h - (mask >> c & 1) for c, h in enumerate(held)]
    return (-float(info["wild"]), -float(kind >= len(COLOURS)), -_usefulness(kind, rest, need))


class Planner:
    """Plays out the seat's turn in a sampled world by these rules."""

    def __init__(self, judge: Judge, infos: IdInfos, rng: random.Random) -> None:
        self.judge = judge
        self.seat = judge.seat
        self.infos = infos
        self.rng = rng

    def _pay(self, state: StateProtocol, legal: list[int], hand: Counter[int], need: list[float]) -> int:
        """The thriftiest of the legal payments (weighed once per card kind and wildcard use:
        a long game's hand offers hundreds of payments of a few kinds)."""
        held = _held(hand)
        weighed: dict[tuple[str, bool], tuple[float, ...]] = {}

        def thrift(action: int) -> tuple[float, ...]:
            info = self.infos(state, action)
            key = (info["card"], bool(info["wild"]))
            if key not in weighed:
                weighed[key] = _thrift(info, held, need)
            return weighed[key]

        return max(legal, key=thrift)

    def choose(self, state: StateProtocol, obs: dict[str, Any]) -> int:
        """These rules' choice at ``state`` for whoever decides (the seat itself in a search)."""
        legal: list[int] = state.legal_actions()
        phase = obs["phase"]
        need = self.judge.needs(obs)
        infos = self.infos
        if phase == "pay":
            return self._pay(state, legal, _hand(obs), need)
        if phase in ("tax", "draw2_discard") or (phase == "main" and infos.kind(state, legal[-1]) == "discard"):
            return _by_kind(legal, "discard", infos, state, obs, need, keep=False)
        if phase == "swap_give":
            return _by_kind(legal, "give_to_deck", infos, state, obs, need, keep=False)
        if phase == "swap_take":
            return _by_kind(legal, "take_from_deck", infos, state, obs, need, keep=True)
        if phase == "salvage":
            return _by_kind(legal, "salvage", infos, state, obs, need, keep=True)
        if phase == "steal":
            return max(legal, key=lambda a: (obs["hand_sizes"][infos(state, a)["seat"]], -a))
        if phase in ("exchange", "remove"):
            return max(legal, key=lambda a: (self._after(state, a), -a))
        return legal[0]

    def _after(self, state: StateProtocol, action: int) -> float:
        after = state.clone()
        after.apply(action)
        return self.judge.value(after)

    def settle(self, state: StateProtocol) -> None:
        """Plays on by these rules (for every seat deciding; in a game with explicit chance,
        each card drawn by its odds) until a main or draw phase."""
        paying: tuple[Counter[int], list[float]] | None = None
        while not state.is_terminal:
            if state.is_chance_node:
                state.apply(draw_outcome(self.rng, state.chance_outcomes()))
                paying = None
                continue
            legal: list[int] = state.legal_actions()
            if self.infos.kind(state, legal[0]) == "pay" == self.infos.kind(state, legal[-1]):  # paying
                if paying is None:
                    obs = state.observation(seat_to_act(state))
                    paying = (_hand(obs), self.judge.needs(obs))
                hand, need = paying
                paid = self._pay(state, legal, hand, need)
                hand[KIND_NAMES.index(self.infos(state, paid)["card"])] -= 1
                state.apply(paid)
                continue
            paying = None
            obs = state.observation(seat_to_act(state))
            if obs["phase"] in ("main", "draw"):
                return
            state.apply(self.choose(state, obs))

    def best_turn(self, state: StateProtocol, depth: int = 0) -> tuple[float, int | None]:
        """The value of the best way to finish the seat's turn from its main phase in
        ``state``, and its first action."""
        if state.is_terminal or state.current_player != self.seat:
            return self.judge.value(state), None
        obs = state.observation(self.seat)
        if obs["phase"] != "main":
            return self.judge.value(state, obs=obs), None
        legal = state.legal_actions()
        options: dict[int, float] = {}
        kinds = {action: self.infos.kind(state, action) for action in legal}
        for action in legal:
            if kinds[action] == "buy" and depth < 4:
                after = state.clone()
                after.apply(action)
                self.settle(after)
                options[action] = self.best_turn(after, depth + 1)[0]
        end = next((a for a in legal if kinds[a] == "end_turn"), None)
        if end is not None:
            options[end] = self.judge.value(state, threat=True, obs=obs)
        elif "discard" in kinds.values():
            discard = self.choose(state, obs)
            after = state.clone()
            after.apply(discard)
            options[discard] = self.judge.value(after)
            options[discard] -= THREAT * self.judge.best_take(
                obs, (self.seat + 1) % len(obs["hand_sizes"]), self.judge.estimates(obs)
            )
        if not options:
            return self.judge.value(state, obs=obs), None
        best = max(options, key=lambda a: (options[a], -a))
        return options[best], best


def _draw(view: View, rng: random.Random, planner: Planner) -> int:
    """Two blind cards, or the discard's top card when that makes the better turn in worlds
    sampled for the seat."""
    legal = view.legal_actions
    by_kind = {planner.infos.kind(view, a): a for a in legal}
    if "take_discard" not in by_kind:
        return by_kind.get("draw_two", legal[0])
    totals = dict.fromkeys((by_kind["draw_two"], by_kind["take_discard"]), 0.0)
    for _ in range(DRAW_WORLDS):
        world = view.sample_world(rng.getrandbits(64))
        for action in totals:
            after = world.clone()
            after.apply(action)
            planner.settle(after)
            totals[action] += planner.best_turn(after)[0]
    return max(totals, key=lambda a: (totals[a], -a))


def policy(view: View, rng: random.Random, memory: dict[str, Any]) -> int:
    """The action these rules choose."""
    judge = memory.get("judge")
    if not isinstance(judge, Judge) or judge.seat != view.seat:
        judge = memory["judge"] = Judge(view.options, view.seat)
    planner = Planner(judge, memory.setdefault("infos", IdInfos()), rng)
    obs = view.observation
    if obs["phase"] == "draw":
        return _draw(view, rng, planner)
    world = view.sample_world(rng.getrandbits(64))
    if obs["phase"] == "main":
        action = planner.best_turn(world)[1]
        if action is not None and action in view.legal_actions:
            return action
    action = planner.choose(world, obs)
    return action if action in view.legal_actions else view.legal_actions[0]
