"""Regine — the reference twin of ``rust/engine/src/games/regine/``.

Rules in ten lines: 40 cards (8 Jesters, 4 each of Peasant, Assassin, Courtesan, Herald,
Knight, Princess, 8 Queens); 4 dealt to each of 2-4 players. Phase 1, from the Dealer to the
left: on her turn a player may once exchange cards with the deck (or declare "no changes",
which locks exchanges until a Jester is played face up) and once play a card face up (its
effect applies) or face down, in either order, or pass; the phase ends when everyone passes
in a row, and hands go face down: everyone has 4 cards in front of her. Phase 2, for each
Suit (Queens, Jesters, Pairs, Game), from the Dealer to the right: pass, "mine" (one chip),
Double Down (answered by "all yours" / "we shall see"); a lone bettor wins at once. Phase 3:
each remaining Suit goes to the best combination among its bettors (or everybody). First to
31 points (checked at round end) wins.

Rulings, options and the order of random draws: see the Rust module and
``docs/rules/regine.md`` (the draws: ``docs/games/regine.md``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import numpy as np
import numpy.typing as npt

from regalia.core.cards.regine import (
    ASSASSIN,
    CARD_NAMES,
    COMBO,
    COPIES,
    COURTESAN,
    HERALD,
    JESTER,
    KINDS,
    KNIGHT,
    PEASANT,
    PRINCESS,
    SUIT_NAMES,
    SUITS,
    suit_key,
    suit_points,
)
from regalia.core.outcome import Outcome
from regalia.reference.base import GameInfo, Rules, ended, winner_returns
from regalia.reference.chance import ChanceMode, chance_option, draw_from_counts
from regalia.reference.codec import U8, U16, Items, Maybe
from regalia.reference.options import Boolean, Choice, Integer, IntegerList, invalid, option, read
from regalia.reference.rng import Rng
from regalia.reference.tensor import TensorWriter, ratio

# ---- Constants ----
MAX_PLAYERS = 4
DECK = 40
SUIT_MAX = (1, 1, 2, 2)
MAX_ROUND_GAIN = 40
#: A deck entry nobody has seen yet (explicit chance): its kind is drawn at a chance node.
UNSEEN = KINDS

BUILD, WAGER, OVER = 0, 1, 2
PHASE_NAMES = ("build", "wager", "over")

NO_EFFECT = 0
PEASANT_NAME = 1
PEASANT_SHOW = 2
ASSASSIN_TARGET = 3
COURTESAN_TARGET = 4
HERALD_CHOICE = 5
KNIGHT_NAME = 6
PRINCESS_DISCARD = 7
KNIGHT_DISCARD = 8
DECISIONS = (
    "turn",
    "exchange",
    "peasant: name an opponent",
    "peasant: show a card",
    "assassin: eliminate a card",
    "courtesan: flip a face-down card",
    "herald: take the top card?",
    "knight: name an opponent",
    "princess: discard a card",
    "bet",
    "reply to the double down",
)

PLAY_UP = 0
PLAY_DOWN = 8
MARK = 16
CONFIRM_EXCHANGE = 24
NO_CHANGES = 25
END_TURN = 26
PEASANT_SEAT = 27
PEASANT_CARD = 31
ASSASSIN_AT = 39
COURTESAN_AT = 55
HERALD_TAKE = 71
HERALD_DECLINE = 72
KNIGHT_SEAT = 73
PRINCESS_CARD = 77
BET_PASS = 85
BET_MINE = 86
DOUBLE_DOWN = 87
ALL_YOURS = 88
WE_SHALL_SEE = 89
NUM_ACTIONS = 90
#: The actions that choose nothing more than their kind, and their names.
_PLAIN_ACTIONS = {
    CONFIRM_EXCHANGE: "confirm_exchange",
    NO_CHANGES: "no_changes",
    END_TURN: "end_turn",
    BET_PASS: "pass",
    BET_MINE: "mine",
    DOUBLE_DOWN: "double_down",
    ALL_YOURS: "all_yours",
    WE_SHALL_SEE: "we_shall_see",
}
_PLAIN_NAMES = {
    "confirm_exchange": "confirm exchange",
    "no_changes": "there are no changes",
    "end_turn": "end turn",
    "pass": "pass",
    "mine": "mine",
    "double_down": "double down",
    "all_yours": "all yours",
    "we_shall_see": "we shall see",
}

#: The names of the kinds of action info that carry fields, each made from its info.
_INFO_NAMES: dict[str, Callable[[dict[str, Any]], str]] = {
    "play": lambda i: f"play {i['card']} face {'up' if i['face_up'] else 'down'}",
    "exchange": lambda i: f"exchange {i['card']}",
    "name_seat": lambda i: f"{i['effect']}: seat {i['seat']}",
    "show_card": lambda i: f"{i['effect']}: show {i['card']}",
    "target_card": lambda i: f"{i['effect']}: seat {i['seat']} slot {i['slot']}",
    "herald": lambda i: f"{i['effect']}: {'take the top card' if i['take'] else 'put it at the bottom'}",
    "discard": lambda i: f"{i['effect']}: discard {i['card']}",
    "draw": lambda i: f"draw {i['card']} for seat {i['seat']}",
    "herald_top": lambda i: f"the top card is {i['card']}",
    "knight_loss": lambda i: f"seat {i['seat']} loses {i['card']}",
}

SEAT_BLOCK = 2 + COMBO * (2 + KINDS) + 1 + 3 + 3 * SUITS
TENSOR_SIZE = 3 * KINDS + MAX_PLAYERS * SEAT_BLOCK + 3 + len(DECISIONS) + 5 + 2 + SUITS + 1 + SUITS


# ---- Options ----
@dataclass(frozen=True)
class RegineOptions:
    """Regine's options."""

    players: int = option(4, Integer(2, MAX_PLAYERS), "number of players")
    dealer_rotation: Literal["left", "right"] = option(
        "left", Choice(("left", "right")), "who deals next: 'left' (the rulings' default) or 'right' of the Dealer"
    )
    target: int = option(31, Integer(1, 1000), "points that end the game")
    max_rounds: int = option(100, Integer(1, 10_000), "stalemate guard: rounds before the game ends on points")
    deck: tuple[int, ...] = option(
        COPIES,
        IntegerList(KINDS, 0, 8),
        "copies of each card, Jester to Queen (a small deck: 4 cards a player to 40 in all)",
        saved_default=COPIES,
    )
    suits: int = option(
        SUITS,
        Integer(1, SUITS),
        "Suits played, in order (a short game: 1 plays Queens alone, 2 Queens and Jesters)",
        saved_default=SUITS,
    )
    build_phase: bool = option(
        True,
        Boolean(),
        "play Phase 1 (building the hands); false: the hands go face down as dealt",
        saved_default=True,
    )
    chance: ChanceMode = chance_option(
        "'seeded' (cards are shuffled from the seed) or 'explicit' (each card dealt or drawn, "
        "each card a Herald turns and each card a Knight takes is a chance node)",
    )


# ---- Cards and actions ----
def _size(counts: list[int]) -> int:
    return sum(counts) & 0xFF


def _popcount(x: int) -> int:
    return bin(x).count("1")


#: What a chance node decides (explicit chance): ``("draw", seat)``, ``("herald_top", None)``
#: or ``("knight_loss", seat)``.
ChanceEvent = tuple[Literal["draw", "herald_top", "knight_loss"], int | None]


# ---- State ----
@dataclass
class State:
    """The whole game state (field for field the Rust ``State``)."""

    rng: Rng
    deck: Annotated[list[int], Items(U8, DECK)]
    deck_len: Annotated[int, U8]
    discard: Annotated[list[int], Items(U8, KINDS)]
    hands: Annotated[list[list[int]], Items(Items(U8, KINDS), MAX_PLAYERS)]
    table: Annotated[list[list[int]], Items(Items(U8, COMBO), MAX_PLAYERS)]
    table_len: Annotated[list[int], Items(U8, MAX_PLAYERS)]
    face_up: Annotated[list[int], Items(U8, MAX_PLAYERS)]
    marked: Annotated[list[int], Items(U8, KINDS)]
    scores: Annotated[list[int], Items(U16, MAX_PLAYERS)]
    round: Annotated[int, U16]
    dealer: Annotated[int, U8]
    phase: Annotated[int, U8]
    turn: Annotated[int, U8]
    no_changes: bool
    changed: bool
    exchanged: bool
    played: bool
    passes: Annotated[int, U8]
    effect: Annotated[int, U8]
    effect_seat: Annotated[int, U8]
    effect_slot: Annotated[int, U8]
    suit: Annotated[int, U8]
    suit_turns: Annotated[int, U8]
    bets: Annotated[list[int], Items(U8, SUITS)]
    doubled: Annotated[list[int | None], Items(Maybe(U8), SUITS)]
    won: Annotated[list[int | None], Items(Maybe(U8), SUITS)]
    gain: Annotated[list[int], Items(U8, SUITS)]
    last_cards: Annotated[list[list[int]], Items(Items(U8, COMBO), MAX_PLAYERS)]


class Regine(Rules[State, RegineOptions]):
    """Regine's rules with validated options."""

    state_type = State

    INFO = GameInfo("regine", "Regine", (), RegineOptions)

    # ---- Options ----
    @classmethod
    def from_options(cls, options: dict[str, Any]) -> Regine:
        config = read(cls.INFO.name, RegineOptions, options)
        cards, least = sum(config.deck), COMBO * config.players
        if not least <= cards <= DECK:
            raise invalid(cls.INFO.name, "deck", f"must hold 4 cards a player ({least}) to {DECK} in all, not {cards}")
        return cls(config)

    # ---- Cards and actions ----
    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    def action_info(self, s: State, action: int) -> dict[str, Any]:
        a = action
        event = self.chance_event(s)
        if event is not None and a < KINDS:
            kind, seat = event
            info: dict[str, Any] = {"kind": kind, "card": CARD_NAMES[a]}
            return info if seat is None else {**info, "seat": seat}
        if 0 <= a < PLAY_DOWN:
            return {"kind": "play", "card": CARD_NAMES[a], "face_up": True}
        if PLAY_DOWN <= a < MARK:
            return {"kind": "play", "card": CARD_NAMES[a - PLAY_DOWN], "face_up": False}
        if MARK <= a < CONFIRM_EXCHANGE:
            return {"kind": "exchange", "card": CARD_NAMES[a - MARK]}
        if a in _PLAIN_ACTIONS:
            return {"kind": _PLAIN_ACTIONS[a]}
        if PEASANT_SEAT <= a < PEASANT_CARD:
            return {"kind": "name_seat", "effect": "peasant", "seat": a - PEASANT_SEAT}
        if PEASANT_CARD <= a < ASSASSIN_AT:
            return {"kind": "show_card", "effect": "peasant", "card": CARD_NAMES[a - PEASANT_CARD]}
        if ASSASSIN_AT <= a < HERALD_TAKE:
            effect, base = ("assassin", ASSASSIN_AT) if a < COURTESAN_AT else ("courtesan", COURTESAN_AT)
            seat, slot = divmod(a - base, 4)
            return {"kind": "target_card", "effect": effect, "seat": seat, "slot": slot}
        if a in (HERALD_TAKE, HERALD_DECLINE):
            return {"kind": "herald", "effect": "herald", "take": a == HERALD_TAKE}
        if KNIGHT_SEAT <= a < PRINCESS_CARD:
            return {"kind": "name_seat", "effect": "knight", "seat": a - KNIGHT_SEAT}
        # The ids left, PRINCESS_CARD..BET_PASS (the caller has checked that ``a`` is in range).
        return {"kind": "discard", "effect": "princess", "card": CARD_NAMES[a - PRINCESS_CARD]}

    def info_name(self, info: dict[str, Any]) -> str:
        named = _INFO_NAMES.get(info["kind"])
        return named(info) if named is not None else _PLAIN_NAMES[info["kind"]]

    # ---- Setup ----
    def new_state(self, rng: Rng) -> State:
        s = State(
            rng,
            [0] * DECK,
            0,
            [0] * KINDS,
            [[0] * KINDS for _ in range(MAX_PLAYERS)],
            [[0] * COMBO for _ in range(MAX_PLAYERS)],
            [0] * MAX_PLAYERS,
            [0] * MAX_PLAYERS,
            [0] * KINDS,
            [0] * MAX_PLAYERS,
            0,
            0,
            BUILD,
            0,
            False,
            False,
            False,
            False,
            0,
            NO_EFFECT,
            0,
            0,
            0,
            0,
            [0] * SUITS,
            [None] * SUITS,
            [None] * SUITS,
            [0] * SUITS,
            [[0] * COMBO for _ in range(MAX_PLAYERS)],
        )
        self._deal(s)
        return s

    def _left(self, seat: int) -> int:
        return (seat + 1) % self.config.players

    def _right(self, seat: int) -> int:
        return (seat + self.config.players - 1) % self.config.players

    def _deal(self, s: State) -> None:
        cards = self._cards
        if self._explicit:
            s.deck = [UNSEEN] * cards + [0] * (DECK - cards)
        else:
            s.deck = [kind for kind in range(KINDS) for _ in range(self.config.deck[kind])] + [0] * (DECK - cards)
            s.rng.shuffle(s.deck, 0, cards)
        s.deck_len = cards
        s.discard = [0] * KINDS
        s.hands = [[0] * KINDS for _ in range(MAX_PLAYERS)]
        s.table = [[0] * COMBO for _ in range(MAX_PLAYERS)]
        s.table_len = [0] * MAX_PLAYERS
        s.face_up = [0] * MAX_PLAYERS
        s.marked = [0] * KINDS
        for k in range(1, self.config.players + 1):
            seat = (s.dealer + k) % self.config.players
            for _ in range(COMBO):
                self._draw(s, seat)
        s.phase = BUILD
        s.turn = s.dealer
        s.no_changes = s.changed = s.exchanged = s.played = False
        s.passes = 0
        s.effect = s.effect_seat = s.effect_slot = 0
        s.suit = s.suit_turns = 0
        s.bets = [0] * SUITS
        s.doubled = [None] * SUITS
        if not self.config.build_phase and self._short_seat(s) is None:
            self._start_wagers(s)

    @property
    def _cards(self) -> int:
        """Cards in the game (40 unless the option ``deck`` says otherwise)."""
        return sum(self.config.deck)

    def _refill(self, s: State) -> None:
        if s.deck_len > 0:
            return
        if self._explicit:
            n = _size(s.discard)
            s.deck[:n] = [UNSEEN] * n
            s.discard = [0] * KINDS
            s.deck_len = n
            return
        n = 0
        for kind in range(KINDS):
            for _ in range(s.discard[kind]):
                s.deck[n] = kind
                n += 1
        s.discard = [0] * KINDS
        s.deck_len = n
        s.rng.shuffle(s.deck, 0, n)

    def _draw(self, s: State, seat: int) -> None:
        if self._explicit:
            return
        self._refill(s)
        if s.deck_len > 0:
            s.deck_len -= 1
            card = s.deck[s.deck_len]
            s.deck[s.deck_len] = 0
            s.hands[seat][card] += 1

    # ---- Legal moves ----
    def current_player(self, s: State) -> int | None:
        if s.phase == OVER or self.is_chance_node(s):
            return None
        if s.phase == BUILD and s.effect != NO_EFFECT:
            return s.effect_seat
        return s.turn

    def is_chance_node(self, s: State) -> bool:
        return self.chance_event(s) is not None

    def chance_outcomes(self, s: State) -> list[tuple[int, float]]:
        event = self.chance_event(s)
        if event is None:
            return []
        return draw_from_counts(enumerate(self._outcome_counts(s, event)))

    @property
    def explicit_chance(self) -> bool:
        return self._explicit

    def legal_actions(self, s: State) -> list[int]:
        event = self.chance_event(s)
        if event is not None:
            return [k for k, c in enumerate(self._outcome_counts(s, event)) if c > 0]
        if s.phase == BUILD:
            return self._legal_build(s)
        if s.phase == WAGER:
            if s.doubled[s.suit] is not None:
                return [ALL_YOURS, WE_SHALL_SEE]
            out = [BET_PASS]
            if not s.bets[s.suit] >> s.turn & 1:
                out.append(BET_MINE)
            elif s.suit_turns >= self.config.players:
                out.append(DOUBLE_DOWN)
            return out
        return []

    def _legal_build(self, s: State) -> list[int]:
        d = s.effect_seat

        def cards(base: int, seat: int) -> list[int]:
            return [base + k for k in range(KINDS) if s.hands[seat][k] > 0]

        def opponents(base: int) -> list[int]:
            return [base + k for k in range(self.config.players) if k != d and _size(s.hands[k]) > 0]

        e = s.effect
        if e == PEASANT_NAME:
            return opponents(PEASANT_SEAT)
        if e == PEASANT_SHOW:
            return cards(PEASANT_CARD, d)
        if e in (ASSASSIN_TARGET, COURTESAN_TARGET):
            base = ASSASSIN_AT if e == ASSASSIN_TARGET else COURTESAN_AT
            return [
                base + 4 * k + j
                for k in range(self.config.players)
                for j in range(s.table_len[k])
                if e == ASSASSIN_TARGET or not s.face_up[k] >> j & 1
            ]
        if e == HERALD_CHOICE:
            return [HERALD_TAKE, HERALD_DECLINE]
        if e == KNIGHT_NAME:
            return opponents(KNIGHT_SEAT)
        if e == PRINCESS_DISCARD:
            return cards(PRINCESS_CARD, d)
        p = s.turn
        hand = s.hands[p]
        if _size(s.marked) > 0:
            low = max(k for k in range(KINDS) if s.marked[k] > 0)
            return [MARK + k for k in range(low, KINDS) if s.marked[k] < hand[k]] + [CONFIRM_EXCHANGE]
        out: list[int] = []
        if not s.played:
            out += cards(PLAY_UP, p) + cards(PLAY_DOWN, p)
        if not s.changed and not s.no_changes:
            out += cards(MARK, p) + [NO_CHANGES]
        return out + [END_TURN]

    # ---- Apply ----
    def apply(self, s: State, action: int) -> None:
        event = self.chance_event(s)
        if event is not None:
            self._apply_chance(s, event, action)
        elif s.phase == BUILD:
            self._apply_build(s, action)
        else:
            self._apply_wager(s, action)

    def _put_on_table(self, s: State, seat: int, card: int, up: bool) -> int:
        s.hands[seat][card] -= 1
        slot = s.table_len[seat]
        s.table[seat][slot] = card
        s.table_len[seat] += 1
        if up:
            s.face_up[seat] |= 1 << slot
        return slot

    def _has_opponent_with_cards(self, s: State, seat: int) -> bool:
        return any(k != seat and _size(s.hands[k]) > 0 for k in range(self.config.players))

    def _any_face_down(self, s: State) -> bool:
        return any(_face_down(s, k) > 0 for k in range(self.config.players))

    def _set_effect(self, s: State, effect: int, seat: int, slot: int) -> None:
        s.effect, s.effect_seat, s.effect_slot = effect, seat, slot

    def _clear_effect(self, s: State) -> None:
        self._set_effect(s, NO_EFFECT, 0, 0)

    def _trigger(self, s: State, seat: int, slot: int) -> None:
        card = s.table[seat][slot]
        if card == JESTER:
            s.no_changes = False
        elif card == PEASANT and self._has_opponent_with_cards(s, seat):
            self._set_effect(s, PEASANT_NAME, seat, 0)
        elif card == ASSASSIN:
            self._set_effect(s, ASSASSIN_TARGET, seat, 0)
        elif card == COURTESAN and self._any_face_down(s):
            self._set_effect(s, COURTESAN_TARGET, seat, 0)
        elif card == HERALD:
            self._refill(s)
            if s.deck_len > 0:
                self._set_effect(s, HERALD_CHOICE, seat, slot)
        elif card == KNIGHT and self._has_opponent_with_cards(s, seat):
            self._set_effect(s, KNIGHT_NAME, seat, 0)
        elif card == PRINCESS and _size(s.hands[seat]) > 0:
            self._set_effect(s, PRINCESS_DISCARD, seat, 0)

    def _can_act(self, s: State) -> bool:
        change = not s.changed and not s.no_changes
        play = not s.played and _size(s.hands[s.turn]) > 0
        return change or play

    def _settle(self, s: State) -> None:
        if self._explicit:
            self._complete_draws(s)
            if self.is_chance_node(s):
                return
            if s.phase == BUILD and not self.config.build_phase:
                self._start_wagers(s)
                return
        if s.phase == BUILD and s.effect == NO_EFFECT and _size(s.marked) == 0 and not self._can_act(s):
            self._end_turn(s)

    def _end_turn(self, s: State) -> None:
        while True:
            if s.exchanged or s.played:
                s.passes = 0
            else:
                s.passes += 1
            if s.passes >= self.config.players:
                self._start_wagers(s)
                return
            s.turn = self._left(s.turn)
            s.changed = s.exchanged = s.played = False
            if self._can_act(s):
                return

    def _start_wagers(self, s: State) -> None:
        for seat in range(self.config.players):
            for kind in range(KINDS):
                while s.hands[seat][kind] > 0:
                    self._put_on_table(s, seat, kind, False)
        s.phase = WAGER
        s.turn = s.dealer
        s.no_changes = False
        s.changed = s.exchanged = s.played = False
        s.passes = 0
        s.suit = s.suit_turns = 0
        s.won = [None] * SUITS
        s.gain = [0] * SUITS

    def _apply_build(self, s: State, a: int) -> None:
        turn, decider = s.turn, s.effect_seat
        if a < PLAY_DOWN:
            slot = self._put_on_table(s, turn, a - PLAY_UP, True)
            s.played = True
            self._trigger(s, turn, slot)
        elif a < MARK:
            self._put_on_table(s, turn, a - PLAY_DOWN, False)
            s.played = True
        elif a < CONFIRM_EXCHANGE:
            s.marked[a - MARK] += 1
        elif a == CONFIRM_EXCHANGE:
            self._exchange(s)
        elif a == NO_CHANGES:
            s.no_changes = True
            s.changed = True
        elif a == END_TURN:
            self._end_turn(s)
        elif a < PEASANT_CARD:
            self._set_effect(s, PEASANT_SHOW, a - PEASANT_SEAT, 0)
        elif a < ASSASSIN_AT:
            self._clear_effect(s)
            slot = self._put_on_table(s, decider, a - PEASANT_CARD, True)
            self._trigger(s, decider, slot)
        elif a < COURTESAN_AT:
            self._clear_effect(s)
            self._eliminate(s, (a - ASSASSIN_AT) // 4, (a - ASSASSIN_AT) % 4)
        elif a < HERALD_TAKE:
            self._clear_effect(s)
            seat, slot = (a - COURTESAN_AT) // 4, (a - COURTESAN_AT) % 4
            s.face_up[seat] |= 1 << slot
            self._trigger(s, seat, slot)
        elif a == HERALD_TAKE:
            slot = s.effect_slot
            self._clear_effect(s)
            s.discard[HERALD] += 1
            s.deck_len -= 1
            top = s.deck[s.deck_len]
            s.deck[s.deck_len] = 0
            s.table[decider][slot] = top
            self._trigger(s, decider, slot)
        elif a == HERALD_DECLINE:
            self._clear_effect(s)
            n = s.deck_len
            if n > 0:
                s.deck[:n] = [s.deck[n - 1]] + s.deck[: n - 1]
        elif a < PRINCESS_CARD and self._explicit:
            self._set_effect(s, KNIGHT_DISCARD, a - KNIGHT_SEAT, 0)
        elif a < PRINCESS_CARD:
            self._clear_effect(s)
            victim = a - KNIGHT_SEAT
            hand = s.hands[victim]
            pick = s.rng.below(_size(hand))
            lost = 0
            for kind, count in enumerate(hand):
                if pick < count:
                    lost = kind
                    break
                pick -= count
            self._discard_and_draw(s, victim, lost)
        else:
            self._clear_effect(s)
            self._discard_and_draw(s, decider, a - PRINCESS_CARD)
        self._settle(s)

    def _exchange(self, s: State) -> None:
        p = s.turn
        count = _size(s.marked)
        for kind in range(KINDS):
            s.hands[p][kind] -= s.marked[kind]
            s.discard[kind] += s.marked[kind]
        s.marked = [0] * KINDS
        for _ in range(count):
            self._draw(s, p)
        s.changed = True
        s.exchanged = True

    def _discard_and_draw(self, s: State, seat: int, card: int) -> None:
        s.hands[seat][card] -= 1
        s.discard[card] += 1
        self._draw(s, seat)

    def _eliminate(self, s: State, seat: int, slot: int) -> None:
        n = s.table_len[seat]
        row = s.table[seat]
        s.discard[row[slot]] += 1
        s.table[seat] = row[:slot] + row[slot + 1 : n] + [0] * (COMBO - n + 1)
        up = s.face_up[seat]
        s.face_up[seat] = (up & ((1 << slot) - 1)) | ((up >> (slot + 1)) << slot)
        s.table_len[seat] -= 1
        self._draw(s, seat)

    @property
    def _explicit(self) -> bool:
        """Whether random events are chance nodes (``chance="explicit"``)."""
        return self.config.chance == "explicit"

    def _short_seat(self, s: State) -> int | None:
        """The first seat from the Dealer's left short of its 4 cards (explicit chance: owed a
        card of the deck)."""
        n = self.config.players
        for k in range(1, n + 1):
            seat = (s.dealer + k) % n
            if _size(s.hands[seat]) + s.table_len[seat] < COMBO:
                return seat
        return None

    def chance_event(self, s: State) -> ChanceEvent | None:
        """The chance node ``s`` is, if it is one: the Knight's victim's loss, a card a short
        seat draws, or the unseen top card a Herald's owner is about to look at."""
        if not self._explicit or s.phase != BUILD:
            return None
        if s.effect == KNIGHT_DISCARD:
            return ("knight_loss", s.effect_seat)
        seat = self._short_seat(s)
        if seat is not None:
            return ("draw", seat)
        if s.effect == HERALD_CHOICE and s.deck_len > 0 and s.deck[s.deck_len - 1] == UNSEEN:
            return ("herald_top", None)
        return None

    def _outcome_counts(self, s: State, event: ChanceEvent) -> list[int]:
        """How many cards of each kind the outcomes of ``event`` are drawn from: the victim's
        hand, or the unseen cards (those of the 40 in no hand, on no table, in no discard pile
        and not known in the deck)."""
        kind, seat = event
        if kind == "knight_loss" and seat is not None:
            return list(s.hands[seat])
        left = list(self.config.deck)

        def take(card: int) -> None:
            if card < KINDS:
                left[card] = max(left[card] - 1, 0)

        for c in s.deck[: s.deck_len]:
            take(c)
        for k in range(MAX_PLAYERS):
            for c in s.table[k][: s.table_len[k]]:
                take(c)
            for card in range(KINDS):
                for _ in range(s.hands[k][card]):
                    take(card)
        for card in range(KINDS):
            for _ in range(s.discard[card]):
                take(card)
        return left

    def _apply_chance(self, s: State, event: ChanceEvent, card: int) -> None:
        """A chance outcome: the card ``card`` where ``event`` puts it, then what follows."""
        kind, seat = event
        if kind == "draw" and seat is not None:
            s.deck_len -= 1
            s.deck[s.deck_len] = 0
            s.hands[seat][card] += 1
        elif kind == "herald_top":
            s.deck[s.deck_len - 1] = card
        elif seat is not None:
            self._clear_effect(s)
            self._discard_and_draw(s, seat, card)
        self._settle(s)

    def _complete_draws(self, s: State) -> None:
        """Explicit chance: the cards owed that are no chance (a known card on top of the
        deck, a deck rebuilt from the discard pile) are drawn at once."""
        while (seat := self._short_seat(s)) is not None:
            self._refill(s)
            if s.deck_len == 0 or s.deck[s.deck_len - 1] == UNSEEN:
                return
            top = s.deck_len - 1
            s.hands[seat][s.deck[top]] += 1
            s.deck[top] = 0
            s.deck_len -= 1

    def _apply_wager(self, s: State, a: int) -> None:
        p, suit = s.turn, s.suit
        if a in (BET_PASS, BET_MINE):
            if a == BET_MINE:
                s.bets[suit] |= 1 << p
                s.passes = 0
            else:
                s.passes += 1
            s.suit_turns = min(s.suit_turns + 1, self.config.players)
            if s.passes >= self.config.players:
                self._close_suit(s)
            else:
                s.turn = self._right(p)
        elif a == DOUBLE_DOWN:
            s.doubled[suit] = p
            self._next_reply(s, p)
        elif a == ALL_YOURS:
            s.bets[suit] &= ~(1 << p)
            self._next_reply(s, p)
        else:
            self._next_reply(s, p)

    def _next_reply(self, s: State, start: int) -> None:
        doubler = s.doubled[s.suit]
        if doubler is None:
            doubler = start
        k = self._right(start)
        while k != doubler:
            if s.bets[s.suit] >> k & 1:
                s.turn = k
                return
            k = self._right(k)
        self._close_suit(s)

    def _close_suit(self, s: State) -> None:
        suit = s.suit
        if _popcount(s.bets[suit]) == 1:
            w = s.bets[suit].bit_length() - 1
            s.won[suit] = w
            s.gain[suit] = 1 + SUIT_MAX[suit]
            s.scores[w] += s.gain[suit]
        s.passes = 0
        s.suit_turns = 0
        s.turn = s.dealer
        if suit + 1 < self.config.suits:
            s.suit += 1
        else:
            self._resolve(s)

    # ---- Scoring ----
    def returns(self, s: State) -> list[float]:
        if s.phase != OVER:
            return [0.0] * self.config.players
        w = self._winner(s)
        return winner_returns([k == w for k in range(self.config.players)])

    def scores(self, s: State) -> list[int]:
        return list(s.scores[: self.config.players])

    def outcome(self, s: State) -> Outcome | None:
        if s.phase != OVER:
            return None
        scores = self.scores(s)
        top = max(scores)
        reason = "target_reached" if top >= self.config.target else "round_guard"
        tie_break = "nearest_dealer" if scores.count(top) > 1 else None
        w = self._winner(s)
        return ended(reason, scores, [k == w for k in range(self.config.players)], tie_break)

    def suit_winner(self, s: State, suit: int, mask: int) -> tuple[int, int] | None:
        """The winner of ``suit`` among the seats in ``mask``, with the Suit's points."""
        best: tuple[int, list[int]] | None = None
        for k in range(self.config.players):
            seat = (s.dealer + k) % self.config.players
            if not mask >> seat & 1:
                continue
            key = suit_key(suit, s.table[seat])
            if key is not None and (best is None or key > best[1]):
                best = (seat, key)
        return None if best is None else (best[0], suit_points(suit, best[1]))

    def _resolve(self, s: State) -> None:
        for suit in range(self.config.suits):
            if s.won[suit] is not None:
                continue
            mask = s.bets[suit] if s.bets[suit] else (1 << self.config.players) - 1
            result = self.suit_winner(s, suit, mask)
            if result is not None:
                w, points = result
                mult = 2 if s.doubled[suit] is not None else 1
                s.won[suit] = w
                s.gain[suit] = points + _popcount(s.bets[suit]) * mult
                s.scores[w] += s.gain[suit]
        for seat in range(self.config.players):
            s.last_cards[seat] = sorted(s.table[seat])
        s.round += 1
        if max(s.scores) >= self.config.target or s.round >= self.config.max_rounds:
            s.phase = OVER
            s.turn = 0
            s.suit = 0
        else:
            s.dealer = self._right(s.dealer) if self.config.dealer_rotation == "right" else self._left(s.dealer)
            self._deal(s)

    def _winner(self, s: State) -> int:
        best = s.dealer
        for k in range(1, self.config.players):
            seat = (s.dealer + k) % self.config.players
            if s.scores[seat] > s.scores[best]:
                best = seat
        return best

    # ---- Observation ----
    def observation_shape(self) -> tuple[int, ...]:
        return (TENSOR_SIZE,)

    def _decision(self, s: State) -> int | None:
        if self.is_chance_node(s):
            return None
        if s.phase == BUILD:
            if s.effect != NO_EFFECT:
                return 1 + s.effect
            return 1 if _size(s.marked) > 0 else 0
        if s.phase == WAGER:
            return 10 if s.doubled[s.suit] is not None else 9
        return None

    def _sees(self, s: State, seat: int, owner: int, slot: int) -> bool:
        return owner == seat or bool(s.face_up[owner] >> slot & 1)

    def _herald_card_for(self, s: State, seat: int) -> int | None:
        top = s.deck[s.deck_len - 1] if s.deck_len > 0 else None
        if top != UNSEEN and s.effect == HERALD_CHOICE and s.effect_seat == seat:
            return top
        return None

    def _marked_for(self, s: State, seat: int) -> list[int]:
        return list(s.marked) if s.phase == BUILD and s.turn == seat else [0] * KINDS

    def observation(self, s: State, seat: int) -> dict[str, Any]:
        n = self.config.players

        def names(counts: list[int]) -> list[str]:
            return [CARD_NAMES[k] for k in range(KINDS) for _ in range(counts[k])]

        table = [
            [
                {
                    "card": CARD_NAMES[s.table[k][j]] if self._sees(s, seat, k, j) else None,
                    "face_up": bool(s.face_up[k] >> j & 1),
                }
                for j in range(s.table_len[k])
            ]
            for k in range(n)
        ]
        decision = self._decision(s)
        herald = self._herald_card_for(s, seat)
        return {
            "seat": seat,
            "current_player": self.current_player(s),
            "phase": PHASE_NAMES[s.phase],
            "decision": None if decision is None else DECISIONS[decision],
            "round": s.round,
            "dealer": s.dealer,
            "turn": s.turn if s.phase != OVER else None,
            "scores": list(s.scores[:n]),
            "target": self.config.target,
            "hand": names(s.hands[seat]),
            "hand_sizes": [_size(s.hands[k]) for k in range(n)],
            "table": table,
            "deck_size": s.deck_len,
            "discard_size": _size(s.discard),
            "no_changes": s.no_changes,
            "changed": s.changed,
            "exchanged": s.exchanged,
            "played": s.played,
            "passes": s.passes,
            "marked": names(self._marked_for(s, seat)),
            "marked_count": _size(s.marked),
            "herald_card": None if herald is None else CARD_NAMES[herald],
            "suit": SUIT_NAMES[s.suit] if s.phase == WAGER else None,
            "suit_turns": s.suit_turns,
            "bets": [[k for k in range(n) if b >> k & 1] for b in s.bets],
            "double_down": list(s.doubled),
            "suit_winners": list(s.won),
            "suit_points": list(s.gain),
            "last_combinations": (
                [[CARD_NAMES[c] for c in s.last_cards[k]] for k in range(n)] if s.round > 0 else None
            ),
            "terminal": s.phase == OVER,
        }

    def observation_tensor(self, s: State, seat: int, out: npt.NDArray[np.float32]) -> None:
        n = self.config.players
        w = TensorWriter(out)
        for c in s.hands[seat]:
            w.scalar(float(c))
        for c in self._marked_for(s, seat):
            w.scalar(float(c))
        w.one_hot(KINDS, self._herald_card_for(s, seat))
        current = self.current_player(s)
        for k in range(MAX_PLAYERS):
            if k >= n:
                for _ in range(SEAT_BLOCK):
                    w.scalar(0.0)
                continue
            j = (seat + k) % n
            w.flag(True)
            w.scalar(float(_size(s.hands[j])))
            for slot in range(COMBO):
                occupied = slot < s.table_len[j]
                w.flag(occupied)
                w.flag(occupied and bool(s.face_up[j] >> slot & 1))
                seen = occupied and self._sees(s, seat, j, slot)
                w.one_hot(KINDS, s.table[j][slot] if seen else None)
            w.scalar(ratio(s.scores[j], self.config.target))
            w.flag(s.dealer == j)
            w.flag(s.phase != OVER and s.turn == j)
            w.flag(current == j)
            for suit in range(SUITS):
                w.flag(bool(s.bets[suit] >> j & 1))
            for suit in range(SUITS):
                w.flag(s.doubled[suit] == j)
            for suit in range(SUITS):
                w.flag(s.won[suit] == j)
        w.one_hot(3, s.phase)
        w.one_hot(len(DECISIONS), self._decision(s))
        w.flag(s.no_changes)
        w.flag(s.changed)
        w.flag(s.played)
        w.scalar(float(s.passes))
        w.scalar(float(_size(s.marked)))
        w.scalar(float(s.deck_len))
        w.scalar(float(_size(s.discard)))
        w.one_hot(SUITS, s.suit if s.phase == WAGER else None)
        w.scalar(float(s.suit_turns))
        for g in s.gain:
            w.scalar(float(g))

    def determinize(self, s: State, seat: int, rng: Rng) -> State:
        d = self.copy_state(s)
        fixed_top = self._herald_card_for(s, seat) is not None
        deck_hidden = d.deck_len - int(fixed_top)
        others = [k for k in range(self.config.players) if k != seat]
        unseen = [0] * KINDS
        for k in others:
            for kind in range(KINDS):
                unseen[kind] += d.hands[k][kind]
            for j in range(d.table_len[k]):
                if not d.face_up[k] >> j & 1:
                    unseen[d.table[k][j]] += 1
        for c in d.deck[:deck_hidden]:
            if c != UNSEEN:
                unseen[c] += 1
        for kind in range(KINDS):
            unseen[kind] += d.discard[kind]
        pool = [kind for kind in range(KINDS) for _ in range(unseen[kind])]
        rng.shuffle(pool)
        it = iter(pool)
        for k in others:
            size = _size(d.hands[k])
            d.hands[k] = [0] * KINDS
            for _ in range(size):
                d.hands[k][next(it)] += 1
            for j in range(d.table_len[k]):
                if not d.face_up[k] >> j & 1:
                    d.table[k][j] = next(it)
        for i in range(deck_hidden):
            if d.deck[i] != UNSEEN:
                d.deck[i] = next(it)
        discard_size = _size(d.discard)
        d.discard = [0] * KINDS
        for _ in range(discard_size):
            d.discard[next(it)] += 1
        p = d.turn
        if p != seat and _size(d.marked) > 0:
            left = _size(d.marked)
            d.marked = [0] * KINDS
            for kind in range(KINDS):
                m = min(left, d.hands[p][kind])
                d.marked[kind] = m
                left -= m
        d.rng = rng.fork()
        return d

    # ---- Checks ----
    def check_state(self, s: State) -> str | None:
        n = self.config.players
        if not s.rng.is_valid():
            return "generator increment must be odd"
        if s.phase > OVER:
            return "phase must be 0, 1 or 2"
        if not (s.dealer < n and s.turn < n and s.effect_seat < n):
            return "dealer, turn and effect seat must be seats"
        length = s.deck_len
        if length > DECK:
            return "the deck holds at most 40 cards"
        if not (
            all(c < KINDS or (c == UNSEEN and self._explicit) for c in s.deck[:length])
            and all(c == 0 for c in s.deck[length:])
        ):
            return "deck entries must be card kinds (or unseen, with explicit chance), zeros past its length"
        for k in range(MAX_PLAYERS):
            tl = s.table_len[k]
            if tl > COMBO:
                return "a table holds at most 4 cards"
            if not (
                all(c < KINDS for c in s.table[k][:tl])
                and all(c == 0 for c in s.table[k][tl:])
                and s.face_up[k] >> tl == 0
            ):
                return "table entries must be card kinds, zeros (and face-down) past its length"
            here = sum(s.hands[k]) + tl
            if not (here == (COMBO if k < n else 0) or (self._explicit and k < n and here < COMBO)):
                return "each seat must hold exactly 4 cards in hand and on the table (none for absent seats)"
        owed = self._check_owed(s)
        if owed is not None:
            return owed
        total = [0] * KINDS
        unseen = 0
        for c in s.deck[:length]:
            if c < KINDS:
                total[c] += 1
            else:
                unseen += 1
        for kind in range(KINDS):
            total[kind] += s.discard[kind] + sum(s.hands[k][kind] for k in range(MAX_PLAYERS))
        for k in range(MAX_PLAYERS):
            for c in s.table[k][: s.table_len[k]]:
                total[c] += 1
        fits = all(t <= c for t, c in zip(total, self.config.deck, strict=True))
        if not (fits and sum(total) + unseen == self._cards):
            return "the cards do not add up to the game's deck"
        top = max(s.scores)
        if (
            any(x != 0 for x in s.scores[n:])
            or top >= self.config.target + MAX_ROUND_GAIN
            or s.round > self.config.max_rounds
        ):
            return "scores or rounds out of range"
        ended = top >= self.config.target or s.round >= self.config.max_rounds
        if not ((s.phase == OVER) == ended or (s.phase == WAGER and s.round < self.config.max_rounds)):
            return "the phase does not agree with the scores and rounds"
        if s.phase == BUILD and top >= self.config.target:
            return "a round cannot start with a score at the target"
        for suit in range(SUITS):
            d, w = s.doubled[suit], s.won[suit]
            if not (
                s.bets[suit] >> n == 0
                and (d is None or bool(s.bets[suit] >> d & 1))
                and (w is None or w < n)
                and s.gain[suit] <= 2 + 8
            ):
                return "bets, Double Downs and Suit results must name seats"
        flat = [c for row in s.last_cards for c in row]
        if not (
            all(c < KINDS for c in flat)
            and all(c == 0 for row in s.last_cards[n:] for c in row)
            and (s.round > 0 or all(c == 0 for c in flat))
        ):
            return "last round's combinations must be card kinds"
        if not (s.passes < n and s.suit_turns <= n):
            return "passes and turns must be below the number of seats"
        return self._check_build(s) if s.phase == BUILD else self._check_wager(s)

    def _check_owed(self, s: State) -> str | None:
        """Explicit chance: the seats short of cards (each owed cards of the deck) and the
        deck's unseen cards, as play leaves them."""
        deck = s.deck[: s.deck_len]
        herald_top = s.effect == HERALD_CHOICE and len(deck) > 0 and deck[-1] != UNSEEN
        below = deck[: len(deck) - int(herald_top)]
        first_unseen = next((i for i, c in enumerate(below) if c == UNSEEN), len(below))
        if any(c != UNSEEN for c in below[first_unseen:]):
            return "the cards a Herald put back lie under the unseen cards"
        n = self.config.players
        held = [_size(s.hands[(s.dealer + k) % n]) + s.table_len[(s.dealer + k) % n] for k in range(1, n + 1)]
        short = sum(c < COMBO for c in held)
        if short == 0:
            return None
        if not (s.phase == BUILD and s.effect == NO_EFFECT and _size(s.marked) == 0 and deck and deck[-1] == UNSEEN):
            return "a seat is owed a card only in Phase 1, with no effect pending, from an unseen deck"
        dealing = all(a == COMBO or b == 0 for a, b in zip(held, held[1:], strict=False))
        if not (
            short == 1
            or (
                dealing
                and s.table_len == [0] * MAX_PLAYERS
                and s.turn == s.dealer
                and not (s.no_changes or s.changed or s.exchanged or s.played)
                and s.passes == 0
                and s.discard == [0] * KINDS
            )
        ):
            return "only the deal leaves several seats short of cards, in the order it deals"
        return None

    def _check_build(self, s: State) -> str | None:
        if not (s.bets == [0] * SUITS and s.doubled == [None] * SUITS and s.suit == 0 and s.suit_turns == 0):
            return "no bets during Phase 1"
        if s.exchanged and not s.changed:
            return "an exchange uses the turn's change"
        if not (self.config.build_phase or self._short_seat(s) is not None):
            return "without Phase 1 the hands go face down as dealt"
        p = s.turn
        marking = _size(s.marked) > 0
        if marking and not (
            s.effect == NO_EFFECT
            and not s.changed
            and not s.no_changes
            and all(s.marked[k] <= s.hands[p][k] for k in range(KINDS))
        ):
            return "marked cards must be in the hand of a player free to exchange"
        d, e = s.effect_seat, s.effect
        if e == NO_EFFECT:
            valid = d == 0 and s.effect_slot == 0
        elif e in (PEASANT_NAME, KNIGHT_NAME):
            valid = self._has_opponent_with_cards(s, d) and s.effect_slot == 0
        elif e in (PEASANT_SHOW, PRINCESS_DISCARD):
            valid = _size(s.hands[d]) > 0 and s.effect_slot == 0
        elif e == ASSASSIN_TARGET:
            valid = any(x > 0 for x in s.table_len) and s.effect_slot == 0
        elif e == COURTESAN_TARGET:
            valid = self._any_face_down(s) and s.effect_slot == 0
        elif e == KNIGHT_DISCARD:
            valid = self._explicit and _size(s.hands[d]) > 0 and s.effect_slot == 0
        elif e == HERALD_CHOICE:
            j = s.effect_slot
            valid = s.deck_len > 0 and j < s.table_len[d] and bool(s.face_up[d] >> j & 1) and s.table[d][j] == HERALD
        else:
            valid = False
        if not valid:
            return "the pending effect is not possible here"
        if not (e != NO_EFFECT or marking or self._can_act(s) or self._short_seat(s) is not None):
            return "the turn's player must have something to do"
        return None

    def _check_wager(self, s: State) -> str | None:
        if not (
            all(_size(h) == 0 for h in s.hands)
            and s.marked == [0] * KINDS
            and s.effect == NO_EFFECT
            and s.effect_seat == 0
            and s.effect_slot == 0
            and not s.no_changes
            and not s.changed
            and not s.exchanged
            and not s.played
        ):
            return "after Phase 1 all cards are on the table and no turn is open"
        suit = s.suit
        if suit >= self.config.suits:
            return "the Suit must be one of the Suits played"
        if s.phase == OVER:
            if not (s.turn == 0 and s.suit == 0 and s.passes == 0 and s.suit_turns == 0):
                return "a finished game has no turn"
            return None
        for later in range(suit + 1, SUITS):
            if not (s.bets[later] == 0 and s.doubled[later] is None and s.won[later] is None and s.gain[later] == 0):
                return "Suits not yet bet on carry no bets"
        for earlier in range(suit):
            w = s.won[earlier]
            if not (
                (w is None) == (_popcount(s.bets[earlier]) != 1)
                and (w is None or s.bets[earlier] == 1 << w)
                and s.gain[earlier] == (0 if w is None else 1 + SUIT_MAX[earlier])
            ):
                return "a Suit closed with one chip is won by that chip"
        if not (s.won[suit] is None and s.gain[suit] == 0):
            return "the current Suit is not won yet"
        doubler = s.doubled[suit]
        if doubler is not None and not (
            s.turn != doubler and bool(s.bets[suit] >> s.turn & 1) and s.suit_turns == self.config.players
        ):
            return "after a Double Down only another bettor replies"
        return None


# ---- Apply ----
def _face_down(s: State, seat: int) -> int:
    full = (1 << s.table_len[seat]) - 1
    return _popcount(full & ~s.face_up[seat])
