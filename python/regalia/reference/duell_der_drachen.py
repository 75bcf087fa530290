"""Duell der Drachen (Duel of Dragons) — the reference twin of
``rust/engine/src/games/duell_der_drachen.rs``.

Rules in ten lines: 45 cards, five colours (red, blue, green, yellow, white) valued 1-9; one
territory per colour, its strength marker in the middle. Each player holds 5 cards, one display
card lies face up beside each territory, the rest is the deck. A move puts a card from hand on
one's own side of a territory that holds fewer than 3 of one's cards: face up only on the
territory of its colour, face down on any (at most 3 face down per player on the board). The
opponent then takes that territory's display card, which is replaced from the deck. If the
mover's face-up strength there is now greater, the marker moves to her side. All 5 markers on
one side win at once; a player who cannot play at the start of her turn loses. When both sides
are full, face-down cards are revealed (only those of the territory's colour count); each marker
goes to the stronger side, unless it has at least double a non-zero weaker side (then to the
weaker); equal leaves it. Most markers wins; equal is a draw.

Rulings, options and the order of random draws: see the Rust module and
``docs/rules/duell-der-drachen.md`` (the draws: ``docs/games/duell-der-drachen.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

import numpy as np
import numpy.typing as npt

from regalia.core.outcome import Outcome
from regalia.reference.base import GameInfo, Rules, ended
from regalia.reference.bits import count, iter_bits
from regalia.reference.chance import ChanceMode, chance_option, draw_from_counts
from regalia.reference.codec import U8, U64, Items, Maybe
from regalia.reference.options import Integer, invalid, option, read
from regalia.reference.rng import Rng
from regalia.reference.tensor import TensorWriter, ratio

# ---- Constants ----
TERRITORIES = 5
COLOURS = ("red", "blue", "green", "yellow", "white")
SLOTS = 3
MAX_FACE_DOWN = 3
MAX_VALUES = 12
MAX_CARDS = TERRITORIES * MAX_VALUES
MAX_TRIES = 10_000
MASK64 = (1 << 64) - 1


# ---- Options ----
@dataclass(frozen=True)
class DuellDerDrachenOptions:
    """Duell der Drachen's options."""

    players: int = option(2, Integer(2, 2), "number of players")
    values: int = option(
        9, Integer(2, MAX_VALUES), "cards per colour, valued 1 to this (5 x values must be at least 2 x hand_size + 5)"
    )
    hand_size: int = option(5, Integer(1, 27), "cards dealt to each player (as far as the card set allows)")
    territories: int = option(
        TERRITORIES,
        Integer(2, TERRITORIES),
        "territories in play, one per colour (the first of red, blue, green, yellow, white); "
        "all their markers on one side win at once",
        saved_default=TERRITORIES,
    )
    cards_per_side: int = option(
        SLOTS, Integer(1, SLOTS), "cards a player may place on her side of one territory", saved_default=SLOTS
    )
    face_down_limit: int = option(
        MAX_FACE_DOWN,
        Integer(0, MAX_FACE_DOWN),
        "face-down cards a player may have on the board in all",
        saved_default=MAX_FACE_DOWN,
    )
    chance: ChanceMode = chance_option(
        "'seeded' (cards are shuffled and drawn from the seed) "
        "or 'explicit' (each card dealt or drawn is a chance node)",
    )


# ---- Cards and actions ----
def _mask(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


# ---- State ----
@dataclass
class State:
    """The whole game state (field for field the Rust ``State``)."""

    rng: Rng
    player: Annotated[int, U8]
    hands: Annotated[list[int], Items(U64, 2)]
    board: Annotated[list[list[int]], Items(Items(U64, TERRITORIES), 2)]
    face_down: Annotated[list[int], Items(U64, 2)]
    display: Annotated[list[int | None], Items(Maybe(U8), TERRITORIES)]
    deck: Annotated[int, U64]
    known: Annotated[list[int], Items(U64, 2)]
    markers: Annotated[list[int | None], Items(Maybe(U8), TERRITORIES)]
    final_count: bool = False
    over: bool = False
    winner: Annotated[int | None, Maybe(U8)] = None


class DuellDerDrachen(Rules[State, DuellDerDrachenOptions]):
    """Duell der Drachen's rules with validated options."""

    state_type = State

    INFO = GameInfo(
        "duell-der-drachen",
        "Duell der Drachen",
        ("duel-of-dragons", "duell_der_drachen", "duell"),
        DuellDerDrachenOptions,
    )

    # ---- Options ----
    def __init__(self, config: DuellDerDrachenOptions) -> None:
        super().__init__(config)
        values = config.values
        self.territories = config.territories
        self.num_cards = self.territories * values
        self.all_cards = (1 << self.num_cards) - 1
        self._colour_cards = [((1 << values) - 1) << (t * values) for t in range(self.territories)]

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> DuellDerDrachen:
        config = read(cls.INFO.name, DuellDerDrachenOptions, options)
        values, hand_size, territories = config.values, config.hand_size, config.territories
        if territories * values < 2 * hand_size + territories:
            raise invalid(
                cls.INFO.name,
                "hand_size",
                f"of {hand_size} needs {2 * hand_size + territories} cards (two hands and the display), "
                f"but {values} values per colour in {territories} colours make {territories * values}",
            )
        return cls(config)

    # ---- Cards and actions ----
    @property
    def num_actions(self) -> int:
        return self.num_cards * (1 + self.territories)

    def colour(self, card: int) -> int:
        """The colour (territory) of ``card``."""
        return card // self.config.values

    def value(self, card: int) -> int:
        """The value of ``card``, 1 to ``values``."""
        return card % self.config.values + 1

    def card_name(self, card: int) -> str:
        """A card's name, e.g. ``"red 7"``."""
        return f"{COLOURS[self.colour(card) % TERRITORIES]} {self.value(card)}"

    def _names(self, cards: int) -> list[str]:
        return [self.card_name(c) for c in iter_bits(cards)]

    def action(self, card: int, t: int, face_down: bool) -> int:
        """The action that plays ``card`` to territory ``t``."""
        return self.num_cards + card * self.territories + t if face_down else card

    def decode(self, a: int) -> tuple[int, int, bool]:
        """(card, territory, face down) of action ``a`` (an id in range)."""
        n = self.num_cards
        if a < n:
            return a, self.colour(a), False
        i = a - n
        return i // self.territories, i % self.territories, True

    def action_info(self, s: State, action: int) -> dict[str, Any]:
        to = self.drawing_to(s)
        if to is not None and action < self.num_cards:
            kind, where = to
            seat, display = (where, None) if kind == "hand" else (None, COLOURS[where])
            return {"kind": "draw", "card": self.card_name(action), "seat": seat, "display": display}
        card, t, down = self.decode(action)
        return {"kind": "play", "card": self.card_name(card), "territory": COLOURS[t], "face_up": not down}

    def info_name(self, info: dict[str, Any]) -> str:
        if info["kind"] == "draw":
            if info["seat"] is not None:
                return f"deal {info['card']} to seat {info['seat']}"
            return f"draw {info['card']} for {info['display']}"
        if info["face_up"]:
            return f"{info['card']} face up"
        return f"{info['card']} face down on {info['territory']}"

    # ---- Setup ----
    def new_state(self, rng: Rng) -> State:
        if self._explicit:
            return State(
                rng,
                0,
                [0, 0],
                [[0] * TERRITORIES, [0] * TERRITORIES],
                [0, 0],
                [None] * TERRITORIES,
                self.all_cards,
                [0, 0],
                [None] * TERRITORIES,
            )
        cards = list(range(self.num_cards))
        rng.shuffle(cards)
        h, k = self.config.hand_size, self.territories
        display: list[int | None] = [cards[2 * h + t] if t < k else None for t in range(TERRITORIES)]
        return State(
            rng,
            0,
            [_mask(cards[:h]), _mask(cards[h : 2 * h])],
            [[0] * TERRITORIES, [0] * TERRITORIES],
            [0, 0],
            display,
            _mask(cards[2 * h + k :]),
            [0, 0],
            [None] * TERRITORIES,
        )

    # ---- Legal moves ----
    def current_player(self, s: State) -> int | None:
        return None if s.over or self.is_chance_node(s) else s.player

    def is_chance_node(self, s: State) -> bool:
        return self.drawing_to(s) is not None

    def chance_outcomes(self, s: State) -> list[tuple[int, float]]:
        if not self.is_chance_node(s):
            return []
        return draw_from_counts((c, 1) for c in iter_bits(s.deck))

    @property
    def explicit_chance(self) -> bool:
        return self._explicit

    def max_history_len(self) -> int | None:
        """Every move lays a card on the board, which holds ``2 x territories x cards_per_side``;
        with explicit chance every chance node also takes a card out of the deck."""
        moves = 2 * self.territories * self.config.cards_per_side
        return moves + (self.num_cards if self._explicit else 0)

    def max_seat_actions(self) -> int | None:
        """Each of a seat's moves lays a card on her own side of the board."""
        return self.territories * self.config.cards_per_side

    def legal_actions(self, s: State) -> list[int]:
        if self.is_chance_node(s):
            return iter_bits(s.deck)
        seat = self.current_player(s)
        if seat is None:
            return []
        open_ = self._open_territories(s, seat)
        down = self._face_down_room(s, seat)
        out = []
        for card in iter_bits(s.hands[seat]):
            if open_ >> self.colour(card) & 1:
                out.append(self.action(card, self.colour(card), False))
            if down:
                out.extend(self.action(card, t, True) for t in range(self.territories) if open_ >> t & 1)
        return sorted(out)

    def _open_territories(self, s: State, seat: int) -> int:
        """The territories in play where ``seat`` has room, as a bit mask."""
        per_side = self.config.cards_per_side
        return sum(1 << t for t in range(self.territories) if count(s.board[seat][t]) < per_side)

    def _face_down_room(self, s: State, seat: int) -> bool:
        return count(s.face_down[seat]) < self.config.face_down_limit

    def has_legal_move(self, s: State, seat: int) -> bool:
        """Whether ``seat`` could play a card now."""
        open_ = self._open_territories(s, seat)
        if s.hands[seat] == 0 or open_ == 0:
            return False
        if self._face_down_room(s, seat):
            return True
        playable = 0
        for t in range(self.territories):
            if open_ >> t & 1:
                playable |= self._colour_cards[t]
        return s.hands[seat] & playable != 0

    # ---- Apply ----
    def apply(self, s: State, action: int) -> None:
        to = self.drawing_to(s)
        if to is not None:
            self._place_drawn(s, to, action)
            return
        card, t, down = self.decode(action)
        mover = s.player
        bit = 1 << card
        s.hands[mover] &= ~bit
        s.board[mover][t] |= bit
        if down:
            s.face_down[mover] |= bit
        else:
            s.known[mover] &= ~bit
        self._hand_over(s, t, 1 - mover)
        self._compare(s, t, mover)
        s.player = 1 - s.player
        self._end_of_move(s, mover)

    @property
    def _explicit(self) -> bool:
        """Whether cards are dealt and drawn at chance nodes (``chance="explicit"``)."""
        return self.config.chance == "explicit"

    def _dealing(self, s: State) -> bool:
        """Explicit chance, before the first move: the hands are still being dealt."""
        h = self.config.hand_size
        return self._explicit and all(c == 0 for side in s.board for c in side) and any(count(m) < h for m in s.hands)

    def drawing_to(self, s: State) -> tuple[str, int] | None:
        """Where the card of the chance node ``s`` goes, ``("hand", seat)`` or
        ``("display", territory)``, or ``None`` if ``s`` is no chance node: seat 0's hand, seat
        1's, then each empty display place while the deck has cards."""
        if not self._explicit or s.over or s.deck == 0:
            return None
        if self._dealing(s):
            return ("hand", int(count(s.hands[0]) >= self.config.hand_size))
        for t, card in enumerate(s.display[: self.territories]):
            if card is None:
                return ("display", t)
        return None

    @staticmethod
    def _place_drawn(s: State, to: tuple[str, int], card: int) -> None:
        """A chance node's card, out of the deck and into its place."""
        s.deck &= ~(1 << card)
        kind, where = to
        if kind == "hand":
            s.hands[where] |= 1 << card
        else:
            s.display[where] = card

    @staticmethod
    def _draw(s: State) -> int | None:
        n = count(s.deck)
        if n == 0:
            return None
        card = iter_bits(s.deck)[s.rng.index(n)]
        s.deck &= ~(1 << card)
        return card

    def _hand_over(self, s: State, t: int, taker: int) -> None:
        card = s.display[t]
        if card is not None:
            s.hands[taker] |= 1 << card
            s.known[taker] |= 1 << card
            s.display[t] = None if self._explicit else self._draw(s)

    def _compare(self, s: State, t: int, mover: int) -> None:
        if self.territory_strength(s, mover, t) > self.territory_strength(s, 1 - mover, t):
            s.markers[t] = mover

    def _count_finally(self, s: State) -> None:
        s.final_count = True
        for t in range(self.territories):
            a, b = self._strength(s.board[0][t], t), self._strength(s.board[1][t], t)
            if a != b:
                strong, weak = (0, 1) if a > b else (1, 0)
                hi, lo = max(a, b), min(a, b)
                s.markers[t] = weak if lo > 0 and hi >= 2 * lo else strong
        m0, m1 = self._markers_of(s, 0), self._markers_of(s, 1)
        s.winner = None if m0 == m1 else (0 if m0 > m1 else 1)
        s.over = True

    def _end_of_move(self, s: State, mover: int) -> None:
        if self._all_markers(s) == mover:
            s.over = True
            s.winner = mover
        elif self._board_full(s):
            self._count_finally(s)
        elif not self.has_legal_move(s, 1 - mover):
            s.over = True
            s.winner = mover

    # ---- Scoring ----
    def returns(self, s: State) -> list[float]:
        if not s.over or s.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if s.winner == 0 else [-1.0, 1.0]

    def scores(self, s: State) -> list[int]:
        return [self._markers_of(s, 0), self._markers_of(s, 1)]

    def outcome(self, s: State) -> Outcome | None:
        if not s.over:
            return None
        if s.final_count:
            reason = "board_full"
        elif s.winner is not None and self._all_markers(s) == s.winner:
            reason = "all_markers"
        else:
            reason = "no_legal_move"
        return ended(reason, self.scores(s), [k == s.winner for k in range(2)])

    def _strength(self, cards: int, t: int) -> int:
        return sum(self.value(c) for c in iter_bits(cards & self._colour_cards[t]))

    def territory_strength(self, s: State, seat: int, t: int) -> int:
        """``seat``'s strength in territory ``t`` (face up; after the final count, every card
        of the territory's colour)."""
        counted = s.board[seat][t] if s.final_count else s.board[seat][t] & ~s.face_down[seat]
        return self._strength(counted, t)

    def _all_markers(self, s: State) -> int | None:
        """The seat holding the markers of every territory in play (five in the game), if any."""
        first = s.markers[0]
        if first is None or any(m != first for m in s.markers[: self.territories]):
            return None
        return first

    @staticmethod
    def _markers_of(s: State, seat: int) -> int:
        return sum(1 for m in s.markers if m == seat)

    def _board_full(self, s: State) -> bool:
        """Whether both sides of every territory in play are full."""
        per_side = self.config.cards_per_side
        return all(count(cell) == per_side for side in s.board for cell in side[: self.territories])

    # ---- Observation ----
    def observation_shape(self) -> tuple[int, ...]:
        n, k = self.num_cards, self.territories
        return ((6 + 3 * k) * n + (self.config.cards_per_side + 6) * k + 7,)

    def observation(self, s: State, seat: int) -> dict[str, Any]:
        opp = 1 - seat
        territories = []
        for t in range(self.territories):
            face_down = []
            for i in range(2):
                cards = s.board[i][t] & s.face_down[i]
                face_down.append(self._names(cards) if i == seat or s.over else ["hidden"] * count(cards))
            display = s.display[t]
            territories.append(
                {
                    "colour": COLOURS[t],
                    "display": None if display is None else self.card_name(display),
                    "marker": s.markers[t],
                    "face_up": [self._names(s.board[i][t] & ~s.face_down[i]) for i in range(2)],
                    "face_down": face_down,
                    "strength": [self.territory_strength(s, 0, t), self.territory_strength(s, 1, t)],
                }
            )
        return {
            "seat": seat,
            "current_player": self.current_player(s),
            "terminal": s.over,
            "winner": s.winner,
            "final_count": s.final_count,
            "hand": self._names(s.hands[seat]),
            "opponent_hand": self._names(s.hands[opp]) if s.over else None,
            "hand_sizes": [count(s.hands[0]), count(s.hands[1])],
            "deck": count(s.deck),
            "known_cards": [self._names(s.known[0]), self._names(s.known[1])],
            "territories": territories,
        }

    def observation_tensor(self, s: State, seat: int, out: npt.NDArray[np.float32]) -> None:
        opp = 1 - seat
        n, k, per_side = self.num_cards, self.territories, self.config.cards_per_side
        w = TensorWriter(out)

        def shown(mask: int) -> int:
            return mask if s.over else 0

        def face_up(i: int) -> int:
            m = 0
            for cell in s.board[i]:
                m |= cell
            return m & ~s.face_down[i]

        w.mask(s.hands[seat], n)
        w.mask(shown(s.hands[opp]), n)
        w.mask(face_up(seat), n)
        w.mask(face_up(opp), n)
        for t in range(k):
            w.mask(s.board[seat][t] & s.face_down[seat], n)
        for t in range(k):
            w.mask(shown(s.board[opp][t] & s.face_down[opp]), n)
        for card in s.display[:k]:
            w.mask(0 if card is None else 1 << card, n)
        w.mask(s.known[opp], n)
        w.mask(s.known[seat], n)
        for m in s.markers[:k]:
            w.one_hot(3, 1 if m is None else (0 if m == seat else 2))
        for t in range(k):
            w.one_hot(per_side + 1, count(s.board[opp][t] & s.face_down[opp]))
        most = per_side * self.config.values
        for t in range(k):
            w.scalar(ratio(self.territory_strength(s, seat, t), most))
            w.scalar(ratio(self.territory_strength(s, opp, t), most))
        w.scalar(ratio(count(s.deck), n))
        w.scalar(ratio(count(s.hands[opp]), n))
        limit = max(self.config.face_down_limit, 1)
        w.scalar(ratio(count(s.face_down[seat]), limit))
        w.scalar(ratio(count(s.face_down[opp]), limit))
        w.flag(self.current_player(s) == seat)
        w.flag(s.final_count)
        w.flag(s.over)

    def _resample(self, d: State, opp: int, free: int, n_unknown: int, rng: Rng) -> None:
        cards = iter_bits(free)
        rng.shuffle(cards)
        k = min(n_unknown, len(cards))
        pool = d.known[opp] | _mask(cards[:k])
        d.deck = _mask(cards[k:])
        pooled = iter_bits(pool)
        rng.shuffle(pooled)
        old_face_down = d.face_down[opp]
        d.face_down[opp] = 0
        at = 0
        for t in range(TERRITORIES):
            slots = count(d.board[opp][t] & old_face_down)
            dealt = _mask(pooled[at : at + slots])
            at += slots
            d.board[opp][t] = (d.board[opp][t] & ~old_face_down) | dealt
            d.face_down[opp] |= dealt
        d.hands[opp] = _mask(pooled[at:])

    def determinize(self, s: State, seat: int, rng: Rng) -> State:
        d = self.copy_state(s)
        if not s.over:
            opp = 1 - seat
            concealed = s.hands[opp] | s.face_down[opp]
            free = (concealed | s.deck) & ~s.known[opp]
            n_unknown = count(concealed & ~s.known[opp])
            must_move = s.player == opp and not self._dealing(s)
            for _ in range(MAX_TRIES):
                trial = self.copy_state(s)
                self._resample(trial, opp, free, n_unknown, rng)
                if not must_move or self.has_legal_move(trial, opp):
                    d = trial
                    break
        d.rng = rng.fork()
        return d

    # ---- Checks ----
    def check_state(self, s: State) -> str | None:
        if not s.rng.is_valid():
            return "generator increment must be odd"
        if s.player > 1 or (s.winner is not None and s.winner > 1) or any(m is not None and m > 1 for m in s.markers):
            return "seats must be 0 or 1"
        return self._check_cards(s) or self._check_progress(s)

    def _check_cards(self, s: State) -> str | None:
        if any(c is not None and c >= self.num_cards for c in s.display):
            return "a display card is out of range"
        k = self.territories
        if any(
            any(side[t] != 0 for side in s.board) or s.display[t] is not None or s.markers[t] is not None
            for t in range(k, TERRITORIES)
        ):
            return "a territory not in play holds no card, display card or marker"
        seen = 0
        places = [*s.hands, *s.board[0], *s.board[1], *(1 << c for c in s.display if c is not None), s.deck]
        for m in places:
            if m & ~self.all_cards or m & seen:
                return "every card must be in exactly one place"
            seen |= m
        if seen != self.all_cards:
            return "every card must be in exactly one place"
        for seat in range(2):
            on_board = 0
            for cell in s.board[seat]:
                on_board |= cell
            if s.face_down[seat] & ~on_board or count(s.face_down[seat]) > self.config.face_down_limit:
                return "face-down cards must be on their owner's side, within the limit"
            for t in range(k):
                cell = s.board[seat][t]
                if count(cell) > self.config.cards_per_side or cell & ~s.face_down[seat] & ~self._colour_cards[t]:
                    return "a territory side holds more cards than it may or a face-up card of another colour"
            if s.known[seat] & ~(s.hands[seat] | s.face_down[seat]):
                return "known cards must be in their holder's hand or face down"
        display = s.display[:k]
        if any(c is None for c in display) and s.deck != 0 and not self._explicit:
            return "a display place is empty while the deck is not"
        if self._dealing(s):
            h = self.config.hand_size
            if (
                any(c is not None for c in s.display)
                or s.known != [0, 0]
                or (s.hands[1] != 0 and count(s.hands[0]) != h)
                or any(count(m) > h for m in s.hands)
            ):
                return "while the hands are dealt, seat 0's comes first and the display waits"
        elif (
            self._explicit
            and any(c != 0 for side in s.board for c in side)
            and sum(c is None for c in display) > 1
            and s.deck != 0
        ):
            return "one display place at a time is refilled after the deal"
        return None

    def _check_progress(self, s: State) -> str | None:
        played = [sum(count(c) for c in s.board[seat]) for seat in range(2)]
        if played[0] != played[1] + s.player:
            return "seat 0 moves first and the seats alternate"
        every = self._all_markers(s)
        mover = 1 - s.player
        if not s.over:
            if s.winner is not None or s.final_count or every is not None or self._board_full(s):
                return "a running game has no winner, all markers on one side or a full board"
            if not self._dealing(s) and not self.has_legal_move(s, s.player):
                return "the seat to move must have a legal move"
        elif s.final_count:
            m0, m1 = self._markers_of(s, 0), self._markers_of(s, 1)
            want = None if m0 == m1 else (0 if m0 > m1 else 1)
            if not self._board_full(s) or s.winner != want:
                return "the final count needs a full board and names the seat with most markers"
        elif s.winner != mover or not (
            every == mover or (not self._board_full(s) and not self.has_legal_move(s, s.player))
        ):
            return "a game ends by all markers, a stuck player or the final count"
        return None
