"""Regnum — the reference twin of ``rust/engine/src/games/regnum/mod.rs``.

Rules in ten lines: each player has a castle (an advantage) and four resource cards; 4
characters lie in a line-up, players + 1 standards are on the table. A turn: draw two
resource cards blind or take the discard's top card; then buy characters from the line-up,
one after the other, paying each cost icon with resource cards (a dual card pays as one of
its two colours), or, having bought none, discard one resource card. A bought character's
effect happens at once. The line-up is refilled at the end of the turn. When either deck's
last card is drawn, the turn ends and every player takes one final turn. Score: printed
points, score icons, 3 points per standard won (ties win nothing, except for Montreaux);
most points wins, then most inhabitants, then a shared win.

Rulings, options, encodings and the order of random draws: see the Rust module and
``docs/rules/regnum.md`` and ``docs/games/regnum.md``; this module does exactly the same, step for step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

import numpy as np
import numpy.typing as npt

from regalia.cards.regnum import (
    ANY,
    COLOURS,
    KIND_MASK,
    KIND_NAMES,
    KINDS,
    MAX_CASTLES,
    MAX_CHARACTERS,
    MAX_RESOURCES,
    MAX_SLOTS,
    MAX_STANDARDS,
    PAIR_FIRST,
    PAIR_SECOND,
    SLOT_NAMES,
    CardSet,
    default_card_set_data,
    parse_card_set,
    score_parts,
    standard_winners,
)
from regalia.reference.base import GameInfo, Rules, winner_returns
from regalia.reference.bits import count, iter_bits
from regalia.reference.codec import U8, U16, U32, U64, Items, Maybe, Text
from regalia.reference.options import Choice, Data, Integer, option, read
from regalia.reference.rng import Rng
from regalia.reference.tensor import TensorWriter

# ---- Constants ----
MAX_PLAYERS = 4
LINEUP = 4
HAND_START = 4
#: Tries at resampling a paying player's hand that can still complete her payment.
DETERMINIZE_TRIES = 100

PHASES = (
    "draw",
    "main",
    "pay",
    "steal",
    "tax",
    "draw2_discard",
    "swap_take",
    "swap_give",
    "salvage",
    "exchange",
    "remove",
    "over",
)

# Action ids.
DRAW_TWO = 0
TAKE_DISCARD = 1
BUY = 2
PAY = BUY + LINEUP
DISCARD = PAY + KINDS * 4
END_TURN = DISCARD + KINDS
STEAL = END_TURN + 1
SALVAGE = STEAL + MAX_PLAYERS
SWAP_TAKE = SALVAGE + KINDS
SWAP_GIVE = SWAP_TAKE + KINDS
TARGET = SWAP_GIVE + KINDS
NUM_ACTIONS = TARGET + MAX_CHARACTERS
#: Action names around a resource card's kind, by action kind.
_CARD_VERBS = {
    "discard": ("discard", ""),
    "salvage": ("salvage", ""),
    "take_from_deck": ("take", " from the deck"),
    "give_to_deck": ("give", " to the deck"),
}
#: Action names before a character's name, by action kind.
_CHARACTER_VERBS = {"exchange_for": "exchange for", "remove": "remove", "target": "target"}

SEAT_FEATURES = 1 + MAX_CASTLES + MAX_CHARACTERS + 1 + KINDS
TENSOR_SIZE = (
    KINDS
    + MAX_PLAYERS * SEAT_FEATURES
    + LINEUP * MAX_CHARACTERS
    + 2 * KINDS
    + 2
    + MAX_STANDARDS
    + len(PHASES)
    + MAX_PLAYERS
    + MAX_CHARACTERS
    + MAX_SLOTS
    + 4
    + 5
    + KINDS
)


# ---- Options ----
@dataclass(frozen=True)
class RegnumOptions:
    """Regnum's options."""

    players: int = option(2, Integer(2, MAX_PLAYERS), "number of players")
    card_set: Any = option(
        None, Data(), "the card set as a dict of the structure of regalia/data/regnum_cards.json (null: that file)"
    )
    max_turns: int = option(400, Integer(1, 100_000), "stalemate guard: the game ends after this many turns in all")
    final_round: Literal["equal_turns", "one_each"] = option(
        "equal_turns",
        Choice(("equal_turns", "one_each")),
        "the end once a deck runs out: 'equal_turns' (finish the round, then one more round from seat 0) "
        "or 'one_each' (one more turn each, from the next player)",
        # Saves from before this option were played with one more turn each.
        saved_default="one_each",
    )


# ---- Cards and actions ----
#: For each non-empty set of colours: the colours in it, and the kinds that can pay one of them.
_SUBSETS = tuple(
    (tuple(c for c in range(4) if S >> c & 1), tuple(k for k in range(KINDS) if KIND_MASK[k] & S)) for S in range(1, 16)
)


def _hall(cnt: list[int], need: list[int], any_slots: int, wild: bool) -> bool:
    """Whether cards ``cnt`` (per kind) fill ``need`` (per colour) plus ``any_slots``; with
    ``wild``, one card may count as any colour (Hall's condition over the colour subsets)."""
    total_need = sum(need) + any_slots
    if sum(cnt) < total_need:
        return False
    if wild and total_need == 0:
        return True
    # With the wildcard, some card x must do: it leaves the subsets it could pay and pays any.
    wildcards = [x for x in range(KINDS) if cnt[x]]
    for colours, kinds in _SUBSETS:
        demand = sum(need[c] for c in colours)
        if demand == 0:
            continue
        supply = sum(cnt[k] for k in kinds)
        if not wild:
            if demand > supply:
                return False
            continue
        wildcards = [x for x in wildcards if demand <= supply - (x in kinds) + 1]
        if not wildcards:
            return False
    return True


def feasible(cnt: list[int], slots: tuple[int, ...], start: int, pair_colour: int | None, wild: bool) -> bool:
    """Whether ``slots[start:]`` can be paid from ``cnt`` (``pair_colour``: the colour of a
    ``2=`` icon whose first card is paid; ``wild``: Goldmint's wildcard is still unused)."""
    need = [0, 0, 0, 0]
    pairs = 0
    any_slots = 0
    i = start
    while i < len(slots):
        slot = slots[i]
        if slot < 4:
            need[slot] += 1
        elif slot == PAIR_FIRST:
            pairs += 1
            i += 1  # its second card goes with it
        elif slot == PAIR_SECOND:
            if pair_colour is None:
                return False
            need[pair_colour] += 1
        else:
            any_slots += 1
        i += 1
    for combo in range(4**pairs):
        n = list(need)
        for _ in range(pairs):
            n[combo % 4] += 2
            combo //= 4
        if _hall(cnt, n, any_slots, wild):
            return True
    return False


# ---- State ----
@dataclass
class State:
    """The whole game state (field for field the Rust ``State``)."""

    rng: Rng
    castles: Annotated[list[int], Items(U8, MAX_PLAYERS)]
    standards: Annotated[int, U16]
    lineup: Annotated[list[int | None], Items(Maybe(U8), LINEUP)]
    char_deck: Annotated[int, U64]
    gone: Annotated[int, U64]
    realms: Annotated[list[int], Items(U64, MAX_PLAYERS)]
    hands: Annotated[list[list[int]], Items(Items(U8, KINDS), MAX_PLAYERS)]
    deck: Annotated[list[int], Items(U8, KINDS)]
    discard: Annotated[list[int], Items(U8, MAX_RESOURCES, at_most=True)]
    known: Annotated[list[list[list[int]]], Items(Items(Items(U8, KINDS), MAX_PLAYERS), MAX_PLAYERS)]
    phase: Annotated[str, Text(PHASES)]
    active: Annotated[int, U8]
    decider: Annotated[int, U8]
    turn: Annotated[int, U32]
    bought: Annotated[int, U8]
    wild_used: bool
    character: Annotated[int | None, Maybe(U8)]
    pay_step: Annotated[int, U8]
    pair_colour: Annotated[int | None, Maybe(U8)]
    final_turns: Annotated[int | None, Maybe(U8)]


class Regnum(Rules[State, RegnumOptions]):
    """Regnum's rules with validated options."""

    state_type = State

    INFO = GameInfo("regnum", "Regnum", (), RegnumOptions)

    # ---- Options ----
    def __init__(self, config: RegnumOptions, cards: CardSet) -> None:
        super().__init__(config)
        self.cards = cards

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> Regnum:
        config = read(cls.INFO.name, RegnumOptions, options)
        data = default_card_set_data() if config.card_set is None else config.card_set
        return cls(config, parse_card_set(data, config.players))

    # ---- Cards and actions ----
    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    def _char_name(self, c: int) -> str:
        chars = self.cards.characters
        return chars[c].name if c < len(chars) else f"#{c}"

    def action_info(self, s: State, action: int) -> dict[str, Any]:
        if action == DRAW_TWO:
            return {"kind": "draw_two"}
        if action == TAKE_DISCARD:
            return {"kind": "take_discard"}
        if BUY <= action < PAY:
            c = s.lineup[action - BUY]
            return {"kind": "buy", "slot": action - BUY, "character": None if c is None else self._char_name(c)}
        if PAY <= action < DISCARD:
            k, c = divmod(action - PAY, 4)
            return {"kind": "pay", "card": KIND_NAMES[k], "colour": COLOURS[c], "wild": not KIND_MASK[k] >> c & 1}
        if action == END_TURN:
            return {"kind": "end_turn"}
        if STEAL <= action < SALVAGE:
            return {"kind": "steal", "seat": action - STEAL}
        for kind, base in (
            ("discard", DISCARD),
            ("salvage", SALVAGE),
            ("take_from_deck", SWAP_TAKE),
            ("give_to_deck", SWAP_GIVE),
        ):
            if base <= action < base + KINDS:
                return {"kind": kind, "card": KIND_NAMES[action - base]}
        # The targets, the last ids (the caller has checked that ``action`` is in range).
        kind = {"exchange": "exchange_for", "remove": "remove"}.get(s.phase, "target")
        return {"kind": kind, "character": self._char_name(action - TARGET)}

    def info_name(self, info: dict[str, Any]) -> str:
        kind = info["kind"]
        if kind == "buy":
            slot = info["slot"] + 1
            return f"buy slot {slot} (empty)" if info["character"] is None else f"buy {info['character']} (slot {slot})"
        if kind == "pay":
            card, colour = info["card"], info["colour"]
            if info["wild"]:
                return f"pay {card} as {colour} (wild)"
            return (
                f"pay {card}"
                if KIND_MASK[KIND_NAMES.index(card)] == 1 << COLOURS.index(colour)
                else f"pay {card} as {colour}"
            )
        if kind == "steal":
            return f"steal from seat {info['seat']}"
        if kind in _CARD_VERBS:
            before, after = _CARD_VERBS[kind]
            return f"{before} {info['card']}{after}"
        if kind in _CHARACTER_VERBS:
            return f"{_CHARACTER_VERBS[kind]} {info['character']}"
        return str(kind).replace("_", " ")

    # ---- Setup ----
    def new_state(self, rng: Rng) -> State:
        n = self.config.players
        castles = list(range(len(self.cards.castles)))
        rng.shuffle(castles)
        standards = list(range(len(self.cards.standards)))
        rng.shuffle(standards)
        s = State(
            rng=rng,
            castles=castles[:n] + [0] * (MAX_PLAYERS - n),
            standards=sum(1 << i for i in standards[: n + 1]),
            lineup=[None] * LINEUP,
            char_deck=(1 << len(self.cards.characters)) - 1,
            gone=0,
            realms=[0] * MAX_PLAYERS,
            hands=[[0] * KINDS for _ in range(MAX_PLAYERS)],
            deck=list(self.cards.resources),
            discard=[],
            known=[[[0] * KINDS for _ in range(MAX_PLAYERS)] for _ in range(MAX_PLAYERS)],
            phase="draw",
            active=0,
            decider=0,
            turn=0,
            bought=0,
            wild_used=False,
            character=None,
            pay_step=0,
            pair_colour=None,
            final_turns=None,
        )
        self._refill(s)
        for seat in range(n):
            self._draw(s, seat, HAND_START)
        k = self._draw_kind(s)
        if k is not None:
            s.discard.append(k)
        return s

    def _advantage(self, s: State, seat: int) -> str | None:
        return self.cards.castles[s.castles[seat]].advantage

    def _others(self, seat: int) -> list[int]:
        return [o for o in range(self.config.players) if o != seat]

    def _draw_kind(self, s: State) -> int | None:
        total = sum(s.deck)
        if total == 0:
            return None
        r = s.rng.index(total)
        k = 0
        while r >= s.deck[k]:
            r -= s.deck[k]
            k += 1
        s.deck[k] -= 1
        return k

    def _draw(self, s: State, seat: int, n: int) -> int:
        """Draws up to ``n`` cards blind into ``seat``'s hand (what is left when the deck runs
        out); returns how many were drawn."""
        for drawn in range(n):
            k = self._draw_kind(s)
            if k is None:
                return drawn
            s.hands[seat][k] += 1
            if sum(s.deck) == 0:
                self._trigger_end(s)
        return n

    def _refill(self, s: State) -> None:
        for i in range(LINEUP):
            if s.lineup[i] is None and s.char_deck:
                c = iter_bits(s.char_deck)[s.rng.index(count(s.char_deck))]
                s.char_deck &= ~(1 << c)
                s.lineup[i] = c
                if s.char_deck == 0:
                    self._trigger_end(s)

    # ---- Legal moves ----
    def current_player(self, s: State) -> int | None:
        return None if s.phase == "over" else s.decider

    def legal_actions(self, s: State) -> list[int]:
        me = s.decider
        hand = s.hands[me]
        out: list[int] = []
        if s.phase == "draw":
            out.append(DRAW_TWO)
            if s.discard:
                out.append(TAKE_DISCARD)
        elif s.phase == "main":
            for i, c in enumerate(s.lineup):
                if c is not None and feasible(hand, self.cards.characters[c].slots, 0, None, self._wild(s)):
                    out.append(BUY + i)
            if s.bought == 0:
                out += [DISCARD + k for k in range(KINDS) if hand[k] > 0]
            if s.bought > 0 or sum(hand) == 0:
                out.append(END_TURN)
        elif s.phase == "pay":
            out = [PAY + k * 4 + c for k in range(KINDS) for c in range(4) if self._pay_ok(s, k, c)]
        elif s.phase in ("tax", "draw2_discard"):
            out = [DISCARD + k for k in range(KINDS) if hand[k] > 0]
        elif s.phase == "steal":
            out = [STEAL + o for o in self._steal_victims(s, me)]
        elif s.phase == "salvage":
            out = [SALVAGE + k for k in sorted(set(s.discard))]
        elif s.phase == "swap_take":
            out = [SWAP_TAKE + k for k in range(KINDS) if s.deck[k] > 0]
        elif s.phase == "swap_give":
            out = [SWAP_GIVE + k for k in range(KINDS) if hand[k] > 0]
        elif s.phase in ("exchange", "remove"):
            out = [TARGET + c for c in iter_bits(self._targets(s, me))]
        return out

    def _targets(self, s: State, me: int) -> int:
        """Inhabitants of other realms that EXCHANGE and REMOVE may target."""
        out = 0
        for o in self._others(me):
            if self._advantage(s, o) != "STONEWALL":
                out |= s.realms[o]
        return out

    def _steal_victims(self, s: State, me: int) -> list[int]:
        return [o for o in self._others(me) if sum(s.hands[o]) > 0 and self._advantage(s, o) != "SHADOWFEN"]

    def _wild(self, s: State) -> bool:
        return self._advantage(s, s.active) == "GOLDMINT" and not s.wild_used

    def _pay_ok(self, s: State, k: int, c: int) -> bool:
        """Whether paying the current slot with a card of kind ``k`` as colour ``c`` is legal."""
        assert s.character is not None
        hand = s.hands[s.active]
        slots = self.cards.characters[s.character].slots
        slot = slots[s.pay_step]
        natural = KIND_MASK[k] >> c & 1 == 1
        if hand[k] == 0:
            return False
        if slot == ANY:
            if c != iter_bits(KIND_MASK[k])[0]:
                return False
        elif slot == PAIR_FIRST:
            pass
        else:
            want = s.pair_colour if slot == PAIR_SECOND else slot
            if c != want:
                return False
        wild = self._wild(s)
        if not natural and not wild:
            return False
        rest = list(hand)
        rest[k] -= 1
        pair = c if slot == PAIR_FIRST else None
        return feasible(rest, slots, s.pay_step + 1, pair, wild and natural)

    # ---- Apply ----
    def apply(self, s: State, action: int) -> None:
        me = s.decider
        if action == DRAW_TWO:
            self._draw(s, me, 2)
            s.phase = "main"
        elif action == TAKE_DISCARD:
            k = s.discard.pop()
            s.hands[me][k] += 1
            self._public_gain(s, me, k)
            if self._advantage(s, me) == "RIVERFORD":
                self._draw(s, me, 1)
            s.phase = "main"
        elif BUY <= action < PAY:
            self._buy(s, action - BUY)
        elif PAY <= action < DISCARD:
            self._pay(s, (action - PAY) // 4, (action - PAY) % 4)
        elif DISCARD <= action < END_TURN:
            self._discard(s, action - DISCARD)
        elif action == END_TURN:
            self._end_turn(s)
        elif STEAL <= action < SALVAGE:
            self._steal(s, action - STEAL)
        elif SALVAGE <= action < SWAP_TAKE:
            k = action - SALVAGE
            top = len(s.discard) - 1 - s.discard[::-1].index(k)
            del s.discard[top]
            s.hands[me][k] += 1
            self._public_gain(s, me, k)
            self._back_to_main(s)
        elif SWAP_TAKE <= action < SWAP_GIVE:
            k = action - SWAP_TAKE
            s.deck[k] -= 1
            s.hands[me][k] += 1
            s.phase = "swap_give"
        elif SWAP_GIVE <= action < TARGET:
            k = action - SWAP_GIVE
            s.hands[me][k] -= 1
            s.deck[k] += 1
            self._hidden_loss(s, me)
            self._back_to_main(s)
        else:
            self._target(s, action - TARGET)

    def _trigger_end(self, s: State) -> None:
        """Starts the end when a deck runs out: the turns left, the current one included."""
        if s.final_turns is None:
            n = self.config.players
            s.final_turns = 2 * n - s.active if self.config.final_round == "equal_turns" else n + 1

    def _most_final_turns(self) -> int:
        """The most turns left when the end starts."""
        return 2 * self.config.players if self.config.final_round == "equal_turns" else self.config.players + 1

    def _public_gain(self, s: State, seat: int, k: int) -> None:
        for o in self._others(seat):
            s.known[o][seat][k] += 1

    def _public_loss(self, s: State, seat: int, k: int) -> None:
        for o in self._others(seat):
            s.known[o][seat][k] = max(0, s.known[o][seat][k] - 1)

    def _hidden_loss(self, s: State, seat: int, skip: int | None = None) -> None:
        for o in self._others(seat):
            if o != skip:
                s.known[o][seat] = [max(0, x - 1) for x in s.known[o][seat]]

    def _discard_card(self, s: State, seat: int, k: int) -> None:
        s.hands[seat][k] -= 1
        s.discard.append(k)
        self._public_loss(s, seat, k)

    def _buy(self, s: State, slot: int) -> None:
        s.character = s.lineup[slot]
        s.lineup[slot] = None
        s.phase = "pay"
        s.pay_step = 0
        s.pair_colour = None

    def _pay(self, s: State, k: int, c: int) -> None:
        me = s.active
        assert s.character is not None
        ch = self.cards.characters[s.character]
        if not KIND_MASK[k] >> c & 1:
            s.wild_used = True
        s.pair_colour = c if ch.slots[s.pay_step] == PAIR_FIRST else None
        self._discard_card(s, me, k)
        s.pay_step += 1
        if s.pay_step < len(ch.slots):
            return
        s.realms[me] |= 1 << s.character
        s.bought += 1
        s.pay_step = 0
        s.pair_colour = None
        self._effect(s, ch.effect)

    def _effect(self, s: State, effect: str | None) -> None:
        me = s.active
        s.phase = "main"
        if effect == "STEAL":
            if self._steal_victims(s, me):
                s.phase = "steal"
        elif effect == "CLEAR":
            for c in s.lineup:
                if c is not None:
                    s.gone |= 1 << c
            s.lineup = [None] * LINEUP
        elif effect == "TAX":
            self._next_taxed(s, me)
        elif effect == "DRAW2":
            if self._draw(s, me, 2) > 0:
                s.phase = "draw2_discard"
        elif effect == "DRAW1":
            self._draw(s, me, 1)
        elif effect == "SWAP":
            if sum(s.deck) > 0 and sum(s.hands[me]) > 0:
                s.phase = "swap_take"
        elif effect == "SALVAGE":
            if s.discard:
                s.phase = "salvage"
        elif effect in ("EXCHANGE", "REMOVE") and self._targets(s, me):
            s.phase = "exchange" if effect == "EXCHANGE" else "remove"
        if s.phase == "main":
            s.character = None

    def _next_taxed(self, s: State, after: int) -> None:
        """The next player after ``after`` (in seat order from the active player's left) who
        must discard for TAX, or back to the active player."""
        me = s.active
        o = (after + 1) % self.config.players
        while o != me:
            if sum(s.hands[o]) > 0 and self._advantage(s, o) != "SHADOWFEN":
                s.phase = "tax"
                s.decider = o
                return
            o = (o + 1) % self.config.players
        s.decider = me
        s.phase = "main"

    def _back_to_main(self, s: State) -> None:
        s.phase = "main"
        s.decider = s.active
        s.character = None

    def _discard(self, s: State, k: int) -> None:
        me = s.decider
        self._discard_card(s, me, k)
        if s.phase == "main":
            self._end_turn(s)
        elif s.phase == "tax":
            self._next_taxed(s, me)
            if s.phase == "main":
                s.character = None
        else:
            self._back_to_main(s)

    def _steal(self, s: State, victim: int) -> None:
        me = s.active
        hand = s.hands[victim]
        r = s.rng.index(sum(hand))
        k = 0
        while r >= hand[k]:
            r -= hand[k]
            k += 1
        hand[k] -= 1
        s.hands[me][k] += 1
        s.known[me][victim][k] = max(0, s.known[me][victim][k] - 1)
        self._hidden_loss(s, victim, skip=me)
        s.known[victim][me][k] += 1
        self._back_to_main(s)

    def _target(self, s: State, c: int) -> None:
        me = s.active
        owner = next(o for o in range(self.config.players) if s.realms[o] >> c & 1)
        s.realms[owner] &= ~(1 << c)
        if s.phase == "remove":
            s.gone |= 1 << c
        else:
            assert s.character is not None
            s.realms[me] = (s.realms[me] & ~(1 << s.character)) | (1 << c)
            s.realms[owner] |= 1 << s.character
        self._back_to_main(s)

    def _end_turn(self, s: State) -> None:
        self._refill(s)
        s.turn += 1
        s.bought = 0
        s.wild_used = False
        s.character = None
        over = s.turn >= self.config.max_turns
        if s.final_turns is not None:
            s.final_turns -= 1
            over = over or s.final_turns == 0
        if over:
            s.phase = "over"
            return
        s.active = (s.active + 1) % self.config.players
        s.decider = s.active
        s.phase = "draw"

    # ---- Scoring ----
    def returns(self, s: State) -> list[float]:
        n = self.config.players
        if s.phase != "over":
            return [0.0] * n
        points = self.scores(s)
        key = [(points[p], count(s.realms[p])) for p in range(n)]
        best = max(key)
        return winner_returns([k == best for k in key])

    def scores(self, s: State) -> list[int]:
        return [sum(parts.values()) for parts in self._parts(s)]

    def _parts(self, s: State) -> list[dict[str, int]]:
        n = self.config.players
        return score_parts(
            self.cards,
            [iter_bits(r) for r in s.realms[:n]],
            [sum(s.hands[p]) for p in range(n)],
            [self._advantage(s, p) for p in range(n)],
            iter_bits(s.standards),
        )

    def standard_winners(self, s: State) -> list[tuple[int, list[int]]]:
        """Each standard in play with the seats that win it."""
        n = self.config.players
        return standard_winners(
            self.cards,
            [iter_bits(r) for r in s.realms[:n]],
            [sum(s.hands[p]) for p in range(n)],
            [self._advantage(s, p) for p in range(n)],
            iter_bits(s.standards),
        )

    # ---- Observation ----
    def observation_shape(self) -> tuple[int, ...]:
        return (TENSOR_SIZE,)

    def _cards_list(self, counts: list[int]) -> list[str]:
        return [KIND_NAMES[k] for k in range(KINDS) for _ in range(counts[k])]

    def observation(self, s: State, seat: int) -> dict[str, Any]:
        n = self.config.players
        cards = self.cards
        ch = None if s.character is None else cards.characters[s.character]
        return {
            "seat": seat,
            "current_player": self.current_player(s),
            "active": s.active,
            "turn": s.turn,
            "phase": s.phase,
            "character": None if ch is None else ch.name,
            "cost": None if ch is None else [SLOT_NAMES[x] for x in ch.slots],
            "pay_step": s.pay_step if s.phase == "pay" else None,
            "pair_colour": None if s.pair_colour is None else COLOURS[s.pair_colour],
            "bought": s.bought,
            "wild_used": s.wild_used,
            "hand": self._cards_list(s.hands[seat]),
            "castles": [cards.castles[s.castles[p]].name for p in range(n)],
            "realms": [[cards.characters[c].name for c in iter_bits(s.realms[p])] for p in range(n)],
            "hand_sizes": [sum(s.hands[p]) for p in range(n)],
            "known": [[] if p == seat else self._cards_list(s.known[seat][p]) for p in range(n)],
            "lineup": [None if c is None else cards.characters[c].name for c in s.lineup],
            "discard": [KIND_NAMES[k] for k in s.discard],
            "resource_deck": sum(s.deck),
            "character_deck": count(s.char_deck),
            "gone": [cards.characters[c].name for c in iter_bits(s.gone)],
            "deck_cards": self._cards_list(s.deck) if self._sees_deck(s, seat) else None,
            "standards": [cards.standards[i].name for i in iter_bits(s.standards)],
            "final_turns": s.final_turns,
            "scores": self.scores(s),
            "terminal": s.phase == "over",
        }

    def observation_tensor(self, s: State, seat: int, out: npt.NDArray[np.float32]) -> None:
        n = self.config.players
        w = TensorWriter(out)
        for k in range(KINDS):
            w.scalar(s.hands[seat][k])
        for r in range(MAX_PLAYERS):
            p = (seat + r) % n
            present = r < n
            w.flag(present)
            w.one_hot(MAX_CASTLES, s.castles[p] if present else None)
            w.mask(s.realms[p] if present else 0, MAX_CHARACTERS)
            w.scalar(sum(s.hands[p]) if present else 0)
            for k in range(KINDS):
                w.scalar(s.known[seat][p][k] if present and r > 0 else 0)
        for c in s.lineup:
            w.one_hot(MAX_CHARACTERS, c)
        for k in range(KINDS):
            w.scalar(s.discard.count(k))
        w.one_hot(KINDS, s.discard[-1] if s.discard else None)
        w.scalar(sum(s.deck))
        w.scalar(count(s.char_deck))
        w.mask(s.standards, MAX_STANDARDS)
        w.one_hot(len(PHASES), PHASES.index(s.phase))
        w.one_hot(MAX_PLAYERS, None if s.phase == "over" else (s.decider - seat) % n)
        w.one_hot(MAX_CHARACTERS, s.character)
        w.one_hot(MAX_SLOTS, s.pay_step if s.phase == "pay" else None)
        w.one_hot(4, s.pair_colour)
        w.flag(s.wild_used)
        w.scalar(s.bought)
        w.flag(s.final_turns is not None)
        w.scalar(s.final_turns or 0)
        w.flag(self.current_player(s) == seat)
        for k in range(KINDS):
            w.scalar(s.deck[k] if self._sees_deck(s, seat) else 0)

    def determinize(self, s: State, seat: int, rng: Rng) -> State:
        for _ in range(DETERMINIZE_TRIES):
            d = self._resample(s, seat, rng)
            if d.phase != "pay" or d.active == seat or self._payment_open(d):
                break
        else:
            d = self.copy_state(s)
        d.rng = rng.fork()
        return d

    def _payment_open(self, d: State) -> bool:
        assert d.character is not None
        slots = self.cards.characters[d.character].slots
        return feasible(d.hands[d.active], slots, d.pay_step, d.pair_colour, self._wild(d))

    @staticmethod
    def _sees_deck(s: State, seat: int) -> bool:
        """Whether ``seat`` is looking through the resource deck (SWAP)."""
        return s.phase == "swap_take" and s.active == seat

    def _resample(self, s: State, seat: int, rng: Rng) -> State:
        """Other seats' unknown cards and the deck, dealt again from the cards ``seat`` has not
        seen (the deck stays as it is while ``seat`` looks through it)."""
        d = self.copy_state(s)
        others = self._others(seat)
        keep_deck = self._sees_deck(s, seat)
        pool = [0] * KINDS if keep_deck else list(d.deck)
        for o in others:
            for k in range(KINDS):
                pool[k] += d.hands[o][k] - d.known[seat][o][k]
        for o in others:
            unknown = sum(d.hands[o]) - sum(d.known[seat][o])
            d.hands[o] = list(d.known[seat][o])
            for _ in range(unknown):
                r = rng.index(sum(pool))
                k = 0
                while r >= pool[k]:
                    r -= pool[k]
                    k += 1
                pool[k] -= 1
                d.hands[o][k] += 1
        if not keep_deck:
            d.deck = pool
        for x in range(MAX_PLAYERS):
            for o in range(MAX_PLAYERS):
                d.known[x][o] = [min(a, b) for a, b in zip(d.known[x][o], d.hands[o])]
        return d

    # ---- Checks ----
    def check_state(self, s: State) -> str | None:
        n = self.config.players
        cards = self.cards
        nchars = len(cards.characters)
        if not s.rng.is_valid():
            return "generator increment must be odd"
        seats = s.castles[:n]
        if any(c >= len(cards.castles) for c in seats) or len(set(seats)) != n or any(s.castles[n:]):
            return "each seat must hold a different castle of the card set"
        if s.standards >> len(cards.standards) or count(s.standards) != n + 1:
            return "players + 1 standards of the card set must be in play"
        places = [s.char_deck, s.gone, *s.realms[:n]] + [1 << c for c in s.lineup if c is not None]
        if s.character is not None and s.phase == "pay":
            places.append(1 << s.character if s.character < nchars else 1 << 64)
        seen = 0
        if s.character is not None and s.character >= nchars:
            return "unknown character"
        for m in places:
            if seen & m or m >> nchars:
                return "every character must be in one place at most"
            seen |= m
        if seen != (1 << nchars) - 1:
            return "every character must be somewhere"
        if any(s.realms[n:]):
            return "empty seats must have no realm"
        if any(k >= KINDS for k in s.discard):
            return "the discard pile holds unknown cards"
        for k in range(KINDS):
            held = sum(h[k] for h in s.hands[:n]) + s.deck[k] + s.discard.count(k)
            if held != cards.resources[k]:
                return f"the {KIND_NAMES[k]} cards do not add up to the card set's"
        for p in range(n, MAX_PLAYERS):
            if any(s.hands[p]):
                return "empty seats must have no hand"
        for x in range(MAX_PLAYERS):
            for o in range(MAX_PLAYERS):
                if x >= n or o >= n or x == o:
                    if any(s.known[x][o]):
                        return "knowledge of an empty seat or of one's own hand"
                elif any(a > b for a, b in zip(s.known[x][o], s.hands[o])):
                    return "a seat knows of cards that are not in the hand"
        if s.active >= n or s.decider >= n:
            return "the active player and the decider must be seats"
        if s.turn > self.config.max_turns or (s.final_turns is not None and s.final_turns > self._most_final_turns()):
            return "the turn count or the final turns are out of range"
        running = s.phase != "over"
        if (
            self.config.final_round == "equal_turns"
            and running
            and s.final_turns is not None
            and (s.active + s.final_turns) % n
        ):
            return "the final turns must end with a full round"
        if (s.phase == "over") != (s.turn == self.config.max_turns or s.final_turns == 0):
            return "the end of the game does not agree with the turns played"
        return self._check_phase(s)

    def _check_phase(self, s: State) -> str | None:
        me = s.active
        hand = s.hands[s.decider]
        ph = s.phase
        if s.bought > MAX_CHARACTERS:
            return "too many characters bought"
        if ((s.deck == [0] * KINDS and ph != "swap_give") or s.char_deck == 0) and s.final_turns is None:
            return "a deck is empty but the end is not triggered"
        if ph != "tax" and s.decider != me:
            return "only a taxed player decides out of turn"
        needs_char = ph in (
            "pay",
            "exchange",
            "remove",
            "steal",
            "tax",
            "draw2_discard",
            "swap_take",
            "swap_give",
            "salvage",
        )
        if needs_char != (s.character is not None):
            return "the character being bought does not fit the phase"
        if ph != "pay" and (s.pay_step != 0 or s.pair_colour is not None):
            return "payment fields outside a payment"
        if ph in ("draw", "over") and (s.bought or s.wild_used):
            return "turn fields outside a turn"
        if ph == "pay":
            assert s.character is not None
            slots = self.cards.characters[s.character].slots
            if s.pay_step >= len(slots):
                return "payment step out of range"
            if (slots[s.pay_step] == PAIR_SECOND) != (s.pair_colour is not None) or (s.pair_colour or 0) >= 4:
                return "the pair colour does not fit the payment"
            if not self._payment_open(s):
                return "the payment cannot be completed"
        elif needs_char:
            assert s.character is not None
            if not s.realms[me] >> s.character & 1 or s.bought == 0:
                return "the character whose effect resolves is not the active player's"
        stuck = {
            "exchange": lambda: not self._targets(s, me),
            "remove": lambda: not self._targets(s, me),
            "steal": lambda: not self._steal_victims(s, me),
            "tax": lambda: s.decider == me or not sum(hand) or self._advantage(s, s.decider) == "SHADOWFEN",
            "draw2_discard": lambda: not sum(hand),
            "swap_give": lambda: not sum(hand),
            "swap_take": lambda: not sum(s.deck) or not sum(hand),
            "salvage": lambda: not s.discard,
        }.get(ph)
        if stuck is not None and stuck():
            return f"nobody can act in phase {ph}"
        return None
