"""Regnum — the reference twin of ``rust/engine/src/games/regnum/mod.rs``.

Rules in ten lines: each player has a castle (an advantage) and four resource cards; 4
characters lie in a line-up, players + 1 standards are on the table. A turn: draw two
resource cards blind or take the discard's top card; then buy characters from the line-up,
one after the other, paying each cost icon with resource cards (a dual card pays as one of
its two colours), or, having bought none, discard one resource card. A bought character's
effect happens at once. The line-up is refilled at the end of the turn. When either deck's
last card is drawn, the round in progress is finished and one more full round is played
from seat 0, so that everybody has had as many turns (``final_round``). Score: printed
points, score icons, 3 points per standard won (ties win nothing, except for Montreaux);
most points wins, then most inhabitants, then a shared win.

Rulings, options, encodings and the order of random draws: see the Rust module and
``docs/rules/regnum.md`` and ``docs/games/regnum.md``; this module does exactly the same, step for step.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import Annotated, Any, Literal

import numpy as np
import numpy.typing as npt

from regalia.core.cards.regnum import (
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
from regalia.core.outcome import Outcome
from regalia.reference.base import GameInfo, Rules, best_of, ended, winner_returns
from regalia.reference.bits import count, iter_bits
from regalia.reference.chance import ChanceMode, chance_option, draw_from_counts
from regalia.reference.codec import U8, U16, U32, U64, Codec, Items, Maybe, Text
from regalia.reference.options import Choice, Data, Integer, option, read
from regalia.reference.rng import Rng
from regalia.reference.tensor import TensorWriter

# ---- Constants ----
MAX_PLAYERS = 4
LINEUP = 4
HAND_START = 4
#: Chance nodes of a turn at most (explicit chance): two blind cards at its draw, two for each
#: purchase's effect, the line-up's refill.
TURN_CHANCE = 2 + 2 * LINEUP + LINEUP
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
#: Chance outcomes' names (explicit chance), by action kind.
_OUTCOME_NAMES = {
    "castle": "give {castle} to seat {seat}",
    "standard": "put up standard {standard}",
    "blind": "draw {card} for seat {seat}",
    "first_discard": "turn up {card} onto the discard pile",
    "stolen": "steal {card} from seat {seat}",
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
    chance: ChanceMode = chance_option(
        "'seeded' (cards are shuffled and drawn from the seed) or 'explicit' (each castle, standard, "
        "character and resource card dealt, drawn or stolen is a chance node)",
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
#: The field in which each kind of random event under way saves its number (none for the refill).
_PENDING_FIELDS = {"setup": "castles", "draw": "left", "steal": "victim", "refill": None}


@dataclass(frozen=True)
class Pending:
    """A random event under way (explicit chance), the Rust ``Pending``: ``setup`` (``number``
    castles given so far), ``draw`` (``number`` blind cards still to draw for the active
    player), ``steal`` (the card taken at random from seat ``number``) or ``refill`` (the end
    of a turn: the empty line-up slots refilled, then the next turn)."""

    kind: str
    number: int = 0

    def to_json(self) -> dict[str, Any]:
        """The saved form, tagged by ``kind`` as serde writes it."""
        field = _PENDING_FIELDS[self.kind]
        return {"kind": self.kind} if field is None else {"kind": self.kind, field: self.number}


class PendingCodec(Codec):
    """How ``State.pending`` is saved: ``None`` or the event's tagged object."""

    def load(self, data: Any) -> Pending | None:
        if data is None:
            return None
        if not isinstance(data, dict) or data.get("kind") not in _PENDING_FIELDS:
            raise ValueError(f"expected a random event tagged by one of {tuple(_PENDING_FIELDS)}, got {data!r}")
        field = _PENDING_FIELDS[data["kind"]]
        return Pending(data["kind"], 0 if field is None else U8.load(data.get(field)))

    def dump_code(self, x: str, depth: int) -> str:
        return f"(None if {x} is None else {x}.to_json())"


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
    #: The random event under way, whose next outcome the game waits for (explicit chance;
    #: saved only when there is one).
    pending: Annotated[Pending | None, PendingCodec()] = None


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
        info = self._outcome_info(s, action)
        if info is not None:
            return info
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

    def _outcome_info(self, s: State, o: int) -> dict[str, Any] | None:
        """At a chance node, what outcome ``o`` means, if it is an id of what is drawn there
        (any castle, standard, character or resource kind of the card set, drawable now or not)."""
        t = self._waiting(s)
        if t is None:
            return None
        kind, where = t
        cards = self.cards
        if kind == "castle":
            castles = cards.castles
            return {"kind": "castle", "castle": castles[o].name, "seat": where} if o < len(castles) else None
        if kind == "standard":
            standards = cards.standards
            return {"kind": "standard", "standard": standards[o].name} if o < len(standards) else None
        if kind == "character":
            chars = cards.characters
            return {"kind": "reveal", "character": chars[o].name, "slot": where} if o < len(chars) else None
        if o >= KINDS:
            return None
        if kind == "resource":
            return {"kind": "blind", "card": KIND_NAMES[o], "seat": where}
        if kind == "discard":
            return {"kind": "first_discard", "card": KIND_NAMES[o]}
        return {"kind": "stolen", "card": KIND_NAMES[o], "seat": where}

    def info_name(self, info: dict[str, Any]) -> str:
        kind = info["kind"]
        if kind in _OUTCOME_NAMES:
            return _OUTCOME_NAMES[kind].format(**info)
        if kind == "reveal":
            return f"reveal {info['character']} (slot {info['slot'] + 1})"
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
        s = State(
            rng=rng,
            castles=[0] * MAX_PLAYERS,
            standards=0,
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
            pending=Pending("setup", 0),
        )
        if not self._explicit:
            # Seeded: one shuffle of the castles (seat i gets the i-th) and one of the
            # standards (the first players + 1 are in play), as every seed always dealt.
            castles = list(range(len(self.cards.castles)))
            s.rng.shuffle(castles)
            standards = list(range(len(self.cards.standards)))
            s.rng.shuffle(standards)
            s.castles[:n] = castles[:n]
            s.standards = sum(1 << i for i in standards[: n + 1])
            s.pending = Pending("setup", n)
        self._resume(s)
        return s

    def _advantage(self, s: State, seat: int) -> str | None:
        return self.cards.castles[s.castles[seat]].advantage

    def _others(self, seat: int) -> list[int]:
        return [o for o in range(self.config.players) if o != seat]

    @property
    def _explicit(self) -> bool:
        """Whether random events are chance nodes (``chance="explicit"``)."""
        return self.config.chance == "explicit"

    @staticmethod
    def _castles_dealt(s: State, players: int) -> int:
        """Seats whose castle is given (all but while the explicit setup gives them)."""
        return s.pending.number if s.pending is not None and s.pending.kind == "setup" else players

    def _draw(self, s: State, n: int) -> None:
        """Draws up to ``n`` cards blind into the active player's hand (what is left when the
        deck runs out)."""
        s.pending = Pending("draw", n)
        self._resume(s)

    @staticmethod
    def _empty_slot(s: State) -> int | None:
        """The first empty line-up slot, while the character deck has cards to fill it."""
        if not s.char_deck:
            return None
        return next((i for i, c in enumerate(s.lineup) if c is None), None)

    def taking(self, s: State) -> tuple[str, int] | None:
        """The chance interface: what the next outcome of the event under way is for, as
        ``(kind, seat or slot)`` (``castle``, ``standard``, ``character``, ``resource``,
        ``discard``, ``stolen``), or ``None`` when nothing is left of it."""
        p = s.pending
        if p is None:
            return None
        n = self.config.players
        if p.kind == "setup":
            deck = sum(s.deck) > 0
            if p.number < n:
                return ("castle", p.number)
            if count(s.standards) <= n:
                return ("standard", 0)
            slot = self._empty_slot(s)
            if slot is not None:
                return ("character", slot)
            seat = next((q for q in range(n) if sum(s.hands[q]) < HAND_START), None)
            if seat is not None:
                return ("resource", seat) if deck else None
            return ("discard", 0) if deck and not s.discard else None
        if p.kind == "draw":
            return ("resource", s.active) if p.number > 0 and sum(s.deck) > 0 else None
        if p.kind == "steal":
            return ("stolen", p.number)
        slot = self._empty_slot(s)
        return None if slot is None else ("character", slot)

    def _waiting(self, s: State) -> tuple[str, int] | None:
        """Where the game waits for a chance outcome (only with explicit chance)."""
        return None if s.pending is None else self.taking(s)

    def _pool(self, s: State, t: tuple[str, int]) -> tuple[list[int] | None, int]:
        """What the outcome of ``t`` is drawn from: copies per outcome id (resource kinds, or
        the standards drawn as a set, smallest first: the next is ``j`` weighted by the sets
        after it that hold it, C(len - 1 - j, need - 1)), or (``None`` and) a set of ids."""
        kind, where = t
        if kind == "castle":
            given = sum(1 << c for c in s.castles[:where])
            return None, ((1 << len(self.cards.castles)) - 1) & ~given
        if kind == "standard":
            first, size = s.standards.bit_length(), len(self.cards.standards)
            need = self.config.players + 1 - count(s.standards)
            return [0] * first + [comb(size - 1 - j, max(need - 1, 0)) for j in range(first, size)], 0
        if kind == "character":
            return None, s.char_deck
        if kind == "stolen":
            return list(s.hands[where]), 0
        return list(s.deck), 0

    def _pool_counts(self, s: State, t: tuple[str, int]) -> list[tuple[int, int]]:
        """Each outcome of ``t`` with its copies."""
        kinds, ids = self._pool(s, t)
        if kinds is None:
            return [(i, 1) for i in iter_bits(ids)]
        return list(enumerate(kinds))

    def _resume(self, s: State) -> None:
        """Goes on with the event under way: seeded, the generator answers each outcome at
        once; explicit, the game waits at the chance node. When nothing is left of it, it
        ends (the end of a turn goes on to the next turn)."""
        while (t := self.taking(s)) is not None:
            if self._explicit:
                return
            kinds, ids = self._pool(s, t)
            if kinds is None:
                o = iter_bits(ids)[s.rng.index(count(ids))]
            else:
                r = s.rng.index(sum(kinds))
                o = 0
                while r >= kinds[o]:
                    r -= kinds[o]
                    o += 1
            self._take(s, t, o)
        done, s.pending = s.pending, None
        if done is not None and done.kind == "refill":
            self._next_turn(s)

    def _take(self, s: State, t: tuple[str, int], o: int) -> None:
        """Outcome ``o`` of ``t``, to where it goes."""
        kind, where = t
        if kind == "castle":
            s.castles[where] = o
            s.pending = Pending("setup", where + 1)
        elif kind == "standard":
            s.standards |= 1 << o
        elif kind == "character":
            s.char_deck &= ~(1 << o)
            s.lineup[where] = o
            if s.char_deck == 0:
                self._trigger_end(s)
        elif kind == "resource":
            s.deck[o] -= 1
            s.hands[where][o] += 1
            if sum(s.deck) == 0:
                self._trigger_end(s)
            if s.pending is not None and s.pending.kind == "draw":
                s.pending = Pending("draw", s.pending.number - 1)
        elif kind == "discard":
            s.deck[o] -= 1
            s.discard.append(o)
        else:
            me, victim = s.active, where
            s.hands[victim][o] -= 1
            s.hands[me][o] += 1
            s.known[me][victim][o] = max(0, s.known[me][victim][o] - 1)
            self._hidden_loss(s, victim, skip=me)
            s.known[victim][me][o] += 1
            s.pending = None
            self._back_to_main(s)

    # ---- Legal moves ----
    def current_player(self, s: State) -> int | None:
        return None if s.phase == "over" or s.pending is not None else s.decider

    def is_chance_node(self, s: State) -> bool:
        return self._waiting(s) is not None

    def chance_outcomes(self, s: State) -> list[tuple[int, float]]:
        t = self._waiting(s)
        return [] if t is None else draw_from_counts(self._pool_counts(s, t))

    @property
    def explicit_chance(self) -> bool:
        return self._explicit

    # Bounds on a game's length (the engine's ``regnum/bounds.rs`` proves them).
    def max_history_len(self) -> int | None:
        """At most ``max_turns`` turns of at most ``turn_moves()`` moves and, with explicit
        chance, ``TURN_CHANCE`` chance nodes, after the setup's ``setup_chance()``."""
        setup, turn = (self.setup_chance(), TURN_CHANCE) if self._explicit else (0, 0)
        return setup + self.config.max_turns * (self.turn_moves() + turn)

    def max_seat_actions(self) -> int | None:
        """A seat's own turns, of at most ``own_turn_moves()`` moves, and a TAX discard at most
        for each character bought in the others' turns."""
        turns = self.config.max_turns
        own = -(-turns // self.config.players)
        return own * self.own_turn_moves() + (turns - own) * LINEUP

    def _most_slots(self) -> int:
        return max((len(c.slots) for c in self.cards.characters), default=0)

    def turn_moves(self) -> int:
        """Moves of all the seats in one turn at most: the draw, ``LINEUP`` purchases of a buy,
        the payments and the most moves an effect asks for (TAX: one a seat but the active one;
        SWAP: two), and the turn's end."""
        effect = max(self.config.players - 1, 2)
        return 2 + LINEUP * (1 + self._most_slots() + effect)

    def own_turn_moves(self) -> int:
        """Moves of the active seat in one turn at most (an effect: two of hers at most)."""
        return 2 + LINEUP * (1 + self._most_slots() + 2)

    def setup_chance(self) -> int:
        """Chance nodes of the setup (explicit chance): a castle a seat, ``players + 1``
        standards, the line-up, ``HAND_START`` cards a seat, the discard pile's first card."""
        n = self.config.players
        return n + (n + 1) + LINEUP + n * HAND_START + 1

    def legal_actions(self, s: State) -> list[int]:
        t = self._waiting(s)
        if t is not None:
            return [o for o, copies in self._pool_counts(s, t) if copies > 0]
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
        t = self._waiting(s)
        if t is not None:
            self._take(s, t, action)
            self._resume(s)
            return
        me = s.decider
        if action == DRAW_TWO:
            s.phase = "main"
            self._draw(s, 2)
        elif action == TAKE_DISCARD:
            k = s.discard.pop()
            s.hands[me][k] += 1
            self._public_gain(s, me, k)
            s.phase = "main"
            if self._advantage(s, me) == "RIVERFORD":
                self._draw(s, 1)
        elif BUY <= action < PAY:
            self._buy(s, action - BUY)
        elif PAY <= action < DISCARD:
            self._pay(s, (action - PAY) // 4, (action - PAY) % 4)
        elif DISCARD <= action < END_TURN:
            self._discard(s, action - DISCARD)
        elif action == END_TURN:
            self._end_turn(s)
        elif STEAL <= action < SALVAGE:
            s.pending = Pending("steal", action - STEAL)
            self._resume(s)
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
            # "Draw 2, then discard 1": the discard follows only a card drawn.
            if sum(s.deck) > 0:
                s.phase = "draw2_discard"
            self._draw(s, 2)
        elif effect == "DRAW1":
            self._draw(s, 1)
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
        """The turn ends: the line-up is refilled, then the next turn begins. With explicit
        chance the refill after the game's last turn, which changes nothing, is skipped."""
        last = s.turn + 1 >= self.config.max_turns or s.final_turns == 1
        if self._explicit and last:
            self._next_turn(s)
            return
        s.pending = Pending("refill")
        self._resume(s)

    def _next_turn(self, s: State) -> None:
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
        if s.phase != "over":
            return [0.0] * self.config.players
        return winner_returns(best_of(self._final_keys(s)))

    def scores(self, s: State) -> list[int]:
        return [sum(parts.values()) for parts in self._parts(s)]

    def outcome(self, s: State) -> Outcome | None:
        if s.phase != "over":
            return None
        reason = "final_round" if s.final_turns == 0 else "turn_guard"
        scores = self.scores(s)
        won = best_of(self._final_keys(s))
        tie_break = "inhabitants" if won != best_of(scores) else None
        return ended(reason, scores, won, tie_break)

    def _final_keys(self, s: State) -> list[tuple[int, int]]:
        """What decides the winner, per seat: points, then inhabitants."""
        points = self.scores(s)
        return [(points[p], count(s.realms[p])) for p in range(self.config.players)]

    def _standing(self, s: State) -> tuple[Any, ...]:
        """What scoring reads of ``s``: the card set, each seat's realm, hand size and
        advantage, and the standards in play."""
        n = self.config.players
        return (
            self.cards,
            [iter_bits(r) for r in s.realms[:n]],
            [sum(s.hands[p]) for p in range(n)],
            [self._advantage(s, p) for p in range(n)],
            iter_bits(s.standards),
        )

    def _parts(self, s: State) -> list[dict[str, int]]:
        return score_parts(*self._standing(s))

    def standard_winners(self, s: State) -> list[tuple[int, list[int]]]:
        """Each standard in play with the seats that win it."""
        return standard_winners(*self._standing(s))

    # ---- Observation ----
    def observation_shape(self) -> tuple[int, ...]:
        return (TENSOR_SIZE,)

    def _cards_list(self, counts: list[int]) -> list[str]:
        return [KIND_NAMES[k] for k in range(KINDS) for _ in range(counts[k])]

    def observation(self, s: State, seat: int) -> dict[str, Any]:
        n = self.config.players
        cards = self.cards
        ch = None if s.character is None else cards.characters[s.character]
        dealt = self._castles_dealt(s, n)
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
            "castles": [cards.castles[s.castles[p]].name if p < dealt else None for p in range(n)],
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
        dealt = self._castles_dealt(s, n)
        w = TensorWriter(out)
        for k in range(KINDS):
            w.scalar(s.hands[seat][k])
        for r in range(MAX_PLAYERS):
            p = (seat + r) % n
            present = r < n
            w.flag(present)
            w.one_hot(MAX_CASTLES, s.castles[p] if present and p < dealt else None)
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

    def state_to_json(self, s: State) -> dict[str, Any]:
        data = super().state_to_json(s)
        if data["pending"] is None:
            del data["pending"]  # seeded states at rest save as they always did
        return data

    def state_from_json(self, data: Any) -> State:
        if isinstance(data, dict) and "pending" not in data:
            data = {**data, "pending": None}
        return super().state_from_json(data)

    # ---- Checks ----
    def check_state(self, s: State) -> str | None:
        n = self.config.players
        cards = self.cards
        nchars = len(cards.characters)
        if not s.rng.is_valid():
            return "generator increment must be odd"
        problem = self._check_pending(s)
        if problem is not None:
            return problem
        dealt = self._castles_dealt(s, n)
        seats = s.castles[:dealt]
        if any(c >= len(cards.castles) for c in seats) or len(set(seats)) != dealt or any(s.castles[dealt:]):
            return "each seat must hold a different castle of the card set"
        setup = s.pending is not None and s.pending.kind == "setup"
        standards = count(s.standards)
        if s.standards >> len(cards.standards) or standards > n + 1 or (standards < n + 1 and not setup):
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

    def _check_pending(self, s: State) -> str | None:
        """The random event under way: only with explicit chance, with an outcome left to draw,
        in the phase it belongs to; the setup deals in its order."""
        n = self.config.players
        p = s.pending
        if p is None:
            return None
        if not self._explicit:
            return "a random event waits to be drawn, but this game draws from its seed"
        if p.kind == "setup":
            fits = p.number <= n
        elif p.kind == "draw":
            fits = 1 <= p.number <= 2 and s.phase in ("main", "draw2_discard")
        elif p.kind == "steal":
            fits = s.phase == "steal" and p.number < n and p.number in self._steal_victims(s, s.active)
        else:
            fits = s.phase == "main" and s.character is None
        if not fits:
            return "the random event under way does not fit the state"
        problem = self._check_setup(s)
        if problem is not None:
            return problem
        t = self.taking(s)
        if t is None or not any(n for _, n in self._pool_counts(s, t)):
            return "a random event waits with nothing left to draw"
        return None

    def _check_setup(self, s: State) -> str | None:
        """While the explicit setup deals: nothing has happened yet, and the castles, the
        standards, the line-up, the hands (seat by seat) and the first discard come in turn."""
        n = self.config.players
        p = s.pending
        if p is None or p.kind != "setup":
            return None
        hands = [sum(s.hands[q]) for q in range(n)]
        lineup_full = self._empty_slot(s) is None
        filled = [c is not None for c in s.lineup]
        fresh = (
            s.phase == "draw"
            and s.turn == 0
            and s.active == 0
            and s.decider == 0
            and s.final_turns is None
            and s.gone == 0
            and not any(s.realms)
            and not any(k for x in s.known for o in x for k in o)
        )
        ordered = (
            (p.number == n or s.standards == 0)
            and (count(s.standards) == n + 1 or not any(filled))
            and all(a or not b for a, b in zip(filled, filled[1:]))
            and (lineup_full or not any(hands))
            and all(h <= HAND_START for h in hands)
            and all(hands[q] == 0 or hands[q - 1] == HAND_START for q in range(1, n))
            and (not s.discard or all(h == HAND_START for h in hands))
        )
        if not fresh or not ordered:
            return (
                "the setup deals the castles, the standards, the line-up, the hands seat by seat, "
                "then the first discard, before anything else"
            )
        return None

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
        needs_char = ph not in ("draw", "main", "over")  # a purchase's phases, as the engine checks
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
            # A DRAW2 whose cards are still to be drawn (explicit chance) is not stuck.
            "draw2_discard": lambda: not sum(hand) and s.pending is None,
            "swap_give": lambda: not sum(hand),
            "swap_take": lambda: not sum(s.deck) or not sum(hand),
            "salvage": lambda: not s.discard,
        }.get(ph)
        if stuck is not None and stuck():
            return f"nobody can act in phase {ph}"
        return None
