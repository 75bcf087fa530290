"""Duo — the reference twin of ``rust/engine/src/games/duo/``.

Rules in ten lines: 64 Symbol cards (colour x number x shape), 12 Jokers of one characteristic
each, and with ``turbo`` 4 Turbo-Jokers. Each of 2-6 players gets 7 cards (``hand_size``); two
cards start two discard piles. On her turn a player chooses one pile and plays one or more cards
onto it, one at a time, each matching the pile's new top card, then ends her turn; or she plays
nothing and draws one card. Symbol on Symbol: exactly 2 of 3 characteristics equal; with a Joker:
its one characteristic; never Joker on Joker; a Turbo-Joker matches anything both ways. The round
stops when a player plays her last card (she scores a point per card left in the other hands) or
when the last card of the draw pile is drawn (every player loses a point per card in hand). The
next round is dealt afresh; its first player is the previous one's left neighbour. Reaching the
target (10 / 15 / 20 points for 2 / 3-4 / 5-6 players) wins. Small variants: ``colours``,
``numbers``, ``shapes`` and ``jokers`` keep part of the deck (``deck_of``).

Rulings, options and the order of random draws: see the Rust module,
``docs/rules/duo.md`` and ``docs/games/duo.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Annotated, Any

import numpy as np
import numpy.typing as npt

from regalia.core.outcome import Outcome
from regalia.reference.base import GameInfo, Rules, best_of, ended, winner_returns
from regalia.reference.bits import count, iter_bits, nth_bit
from regalia.reference.chance import ChanceMode, chance_option, draw_from_counts
from regalia.reference.codec import U8, U32, Int32, Items, Maybe, Set128
from regalia.reference.options import Boolean, Integer, invalid, option, read
from regalia.reference.rng import Rng
from regalia.reference.tensor import TensorWriter, ratio

# ---- Constants ----
MAX_PLAYERS = 6
HAND_SIZE = 7
MAX_HAND_SIZE = 38
VALUES = 4
SYMBOLS = 64
FIRST_JOKER = 64
FIRST_TURBO = 76
TURBO_CARDS = 80
KINDS = 77
TURBO_KIND = 76
PILES = 2
PILE_NAMES = ("left", "right")
DRAW = PILES * KINDS
END_TURN = DRAW + 1
NUM_ACTIONS = END_TURN + 1
MAX_ROUNDS = 10_000
STALEMATE_ROUNDS = 100
MAX_TARGET = 10_000
COLOURS = ("blue", "red", "yellow", "green")
NUMBERS = ("1", "2", "3", "4")
SHAPES = ("circle", "square", "triangle", "cross")
TENSOR_SIZE = 5 * KINDS + PILES + 4 * MAX_PLAYERS + 1


# ---- Options ----
@dataclass(frozen=True)
class DuoOptions:
    """Duo's options."""

    players: int = option(2, Integer(2, MAX_PLAYERS), "number of players")
    target: int | None = option(
        None, Integer(1, MAX_TARGET), "points that win the game (null: 10, 15 or 20 by player count)"
    )
    rounds: int = option(
        0,
        Integer(0, MAX_ROUNDS),
        "0: the rulebook's game, rounds until someone reaches the target (stopped after "
        f"{STALEMATE_ROUNDS} rounds at most); otherwise at most this many rounds, highest score winning "
        "(1: a single round)",
    )
    turbo: bool = option(False, Boolean(), "add the 4 Turbo-Jokers (Turbo-Duo)")
    switch_piles: bool = option(False, Boolean(), "variant: each card of a turn may go onto either pile")
    colours: int = option(
        VALUES,
        Integer(1, VALUES),
        "small deck: only the first this many colours (blue, red, yellow, green) are in play",
        saved_default=VALUES,
    )
    numbers: int = option(
        VALUES, Integer(1, VALUES), "small deck: only the numbers 1 to this are in play", saved_default=VALUES
    )
    shapes: int = option(
        VALUES,
        Integer(1, VALUES),
        "small deck: only the first this many shapes (circle, square, triangle, cross) are in play",
        saved_default=VALUES,
    )
    jokers: bool = option(
        True,
        Boolean(),
        "the Jokers are in play (those of the colours, numbers and shapes in play)",
        saved_default=True,
    )
    hand_size: int = option(
        HAND_SIZE,
        Integer(1, MAX_HAND_SIZE),
        "cards dealt to each player (the deck must hold players x hand_size + 3 cards)",
        saved_default=HAND_SIZE,
    )
    chance: ChanceMode = chance_option(
        "'seeded' (cards are drawn from the seed) or 'explicit' (each card dealt, turned or drawn is a chance node)",
    )


def deck_of(config: DuoOptions) -> int:
    """The cards the options put in play (a bit mask): the Symbol cards of the first
    ``colours`` colours, ``numbers`` numbers and ``shapes`` shapes; with ``jokers`` the Jokers
    of those values; with ``turbo`` the Turbo-Jokers. The defaults give the whole deck."""
    limits = (config.colours, config.numbers, config.shapes)
    deck = 0
    for card in range(TURBO_CARDS):
        wanted = True if card < SYMBOLS else (config.jokers if card < FIRST_TURBO else config.turbo)
        within = all((v := characteristic(card, k)) is None or v < limits[k] for k in range(3))
        if wanted and within:
            deck |= 1 << card
    return deck


def default_target(players: int) -> int:
    """The rulebook's target: 10 points for 2 players, 15 for 3-4, 20 for 5-6."""
    return 10 if players == 2 else (15 if players <= 4 else 20)


# ---- Cards and actions ----
def characteristic(card: int, kind: int) -> int | None:
    """Characteristic ``kind`` (0 colour, 1 number, 2 shape) of ``card``: 0-3, or ``None``
    when the card does not have it (a Joker of another characteristic, a Turbo-Joker)."""
    if card < SYMBOLS:
        return (card >> (4 - 2 * kind)) & 3
    if card < FIRST_TURBO and (card - FIRST_JOKER) // 4 == kind:
        return (card - FIRST_JOKER) % 4
    return None


def matches(card: int, top: int) -> bool:
    """Whether ``card`` may be played onto ``top``."""
    if card >= FIRST_TURBO or top >= FIRST_TURBO:
        return True
    if card >= SYMBOLS and top >= SYMBOLS:
        return False
    same = 0
    for k in range(3):
        mine = characteristic(card, k)
        if mine is not None and mine == characteristic(top, k):
            same += 1
    return same == 2 if card < SYMBOLS and top < SYMBOLS else same == 1


#: For each top card, the set of cards that may be played onto it (as a bit mask).
MATCHES = tuple(sum(1 << c for c in range(TURBO_CARDS) if c != top and matches(c, top)) for top in range(TURBO_CARDS))


def card_name(card: int) -> str:
    """``"red 3 triangle"``, ``"blue joker"``, ``"3 joker"``, ``"circle joker"``, ``"turbo-joker"``."""
    if card < SYMBOLS:
        return f"{COLOURS[card >> 4]} {NUMBERS[(card >> 2) & 3]} {SHAPES[card & 3]}"
    if card < FIRST_TURBO:
        j = card - FIRST_JOKER
        return f"{(COLOURS, NUMBERS, SHAPES)[j // 4][j % 4]} joker"
    return "turbo-joker"


def outcome_name(card: int) -> str:
    """The name of ``card`` as a chance outcome: its name, a Turbo-Joker numbered."""
    return f"turbo-joker {card - FIRST_TURBO + 1}" if card >= FIRST_TURBO else card_name(card)


#: ``turn_pile`` while the seat to move waits for the card she draws (explicit chance).
DRAWING = PILES


def kind_of(card: int) -> int:
    """The action kind of a card: its id, all Turbo-Jokers sharing one kind."""
    return min(card, TURBO_KIND)


def _names(mask: int) -> list[str]:
    return [card_name(c) for c in iter_bits(mask)]


# ---- State ----
@dataclass
class State:
    """The whole game state (field for field the Rust ``State``)."""

    rng: Rng
    hands: Annotated[list[int], Items(Set128(), MAX_PLAYERS)]
    draw: Annotated[int, Set128()]
    piles: Annotated[list[int], Items(Set128(), PILES)]
    tops: Annotated[list[int], Items(U8, PILES)]
    current: Annotated[int, U8]
    round: Annotated[int, U32]
    scores: Annotated[list[int], Items(Int32(), MAX_PLAYERS)]
    turn_pile: Annotated[int | None, Maybe(U8)]
    turn_cards: Annotated[int, Set128()]
    last_points: Annotated[list[int] | None, Maybe(Items(Int32(), MAX_PLAYERS))]
    last_winner: Annotated[int | None, Maybe(U8)]
    over: bool


class Duo(Rules[State, DuoOptions]):
    """Duo's rules with validated options."""

    state_type = State

    INFO = GameInfo("duo", "Duo", (), DuoOptions)

    # ---- Options ----
    def __init__(self, config: DuoOptions) -> None:
        super().__init__(config)
        self.deck = deck_of(config)
        self.deck_size = count(self.deck)
        self.round_limit = STALEMATE_ROUNDS if config.rounds == 0 else config.rounds

    @property
    def target(self) -> int:
        """Points that win."""
        return default_target(self.config.players) if self.config.target is None else self.config.target

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> Duo:
        config = read(cls.INFO.name, DuoOptions, options)
        if config.target is None:
            config = replace(config, target=default_target(config.players))
        cards, needed = count(deck_of(config)), config.players * config.hand_size + PILES + 1
        if cards < needed:
            raise invalid(
                cls.INFO.name,
                "hand_size",
                f"of {config.hand_size} for {config.players} players needs {needed} cards "
                f"(the hands, two pile cards and one to draw), but the deck holds {cards}",
            )
        return cls(config)

    # ---- Cards and actions ----
    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    def action_info(self, s: State, action: int) -> dict[str, Any]:
        to = self.taking_to(s)
        if to is not None and self.deck >> action & 1:
            kind, where = to
            seat = where if kind == "deal" else (s.current if kind == "draw" else None)
            pile = PILE_NAMES[where] if kind == "pile" else None
            return {"kind": "take", "card": outcome_name(action), "seat": seat, "pile": pile}
        if action == DRAW:
            return {"kind": "draw"}
        if action == END_TURN:
            return {"kind": "end_turn"}
        return {"kind": "play", "card": card_name(action % KINDS), "pile": PILE_NAMES[action // KINDS]}

    def info_name(self, info: dict[str, Any]) -> str:
        if info["kind"] == "take":
            if info["seat"] is not None:
                return f"take {info['card']} for seat {info['seat']}"
            return f"turn {info['card']} onto {info['pile']}"
        if info["kind"] == "play":
            return f"play {info['card']} on {info['pile']}"
        return "draw" if info["kind"] == "draw" else "end turn"

    # ---- Setup ----
    def new_state(self, rng: Rng) -> State:
        s = State(rng, [0] * MAX_PLAYERS, 0, [0, 0], [0, 0], 0, 1, [0] * MAX_PLAYERS, None, 0, None, None, False)
        self._deal(s)
        return s

    def first_player(self, s: State) -> int:
        """The seat that started the current round: seat 0, then one seat to the left a round."""
        return (s.round - 1) % self.config.players

    @property
    def _explicit(self) -> bool:
        """Whether cards are taken at chance nodes (``chance="explicit"``)."""
        return self.config.chance == "explicit"

    def _in_hands(self, s: State) -> int:
        """Cards in the hands (all of a round's deal so far while the deal is on)."""
        return sum(count(h) for h in s.hands[: self.config.players])

    @staticmethod
    def _dealing(s: State) -> bool:
        """Whether a round's deal is on: the right pile has no card yet (it never is empty later)."""
        return not s.over and s.piles[PILES - 1] == 0

    def taking_to(self, s: State) -> tuple[str, int] | None:
        """The chance interface: where the next card taken from the draw pile goes,
        ``("deal", seat)``, ``("pile", pile)`` or ``("draw", seat to move)``, or ``None`` when
        nothing is to be taken."""
        n = self.config.players
        dealt = self._in_hands(s)
        if s.over or s.draw == 0:
            return None
        if not self._dealing(s):
            return ("draw", s.current) if s.turn_pile == DRAWING else None
        if s.piles[0] != 0:
            return ("pile", 1)
        if dealt < self.config.hand_size * n:
            return ("deal", (self.first_player(s) + dealt) % n)
        return ("pile", 0)

    def _settle(self, s: State) -> None:
        """Seeded: the generator answers every card the chance interface asks for, a
        uniformly random card of the draw pile (explicit: the game waits at the chance node)."""
        if self._explicit:
            return
        while (to := self.taking_to(s)) is not None:
            card = nth_bit(s.draw, s.rng.index(count(s.draw)))
            assert card is not None
            self._take_card(s, to, card)

    def _take_card(self, s: State, to: tuple[str, int], card: int) -> None:
        """Card ``card`` out of the draw pile and to where the chance interface said it goes."""
        s.draw &= ~(1 << card)
        kind, where = to
        if kind == "deal":
            s.hands[where] |= 1 << card
        elif kind == "pile":
            s.tops[where] = card
            s.piles[where] = 1 << card
        else:
            s.hands[s.current] |= 1 << card
            s.turn_pile = None
            if s.draw == 0:
                self._end_round(s, None)
            else:
                self._next_seat(s)

    def _deal(self, s: State) -> None:
        s.draw = self.deck
        s.hands = [0] * MAX_PLAYERS
        s.piles = [0] * PILES
        s.current = self.first_player(s)
        s.turn_pile = None
        s.turn_cards = 0
        self._settle(s)

    # ---- Legal moves ----
    def current_player(self, s: State) -> int | None:
        return None if s.over or self.taking_to(s) is not None else s.current

    def is_chance_node(self, s: State) -> bool:
        return self.taking_to(s) is not None

    def chance_outcomes(self, s: State) -> list[tuple[int, float]]:
        if not self.is_chance_node(s):
            return []
        return draw_from_counts((c, 1) for c in iter_bits(s.draw))

    @property
    def explicit_chance(self) -> bool:
        return self._explicit

    def max_history_len(self) -> int | None:
        """At most ``round_limit`` rounds, each of at most ``round_moves`` moves of all the
        seats and, with explicit chance, a chance node for each card of the deck at most."""
        n = self.config.players
        chance = self.deck_size if self._explicit else 0
        return self.round_limit * (self.round_moves(n * self.config.hand_size, n) + chance)

    def max_seat_actions(self) -> int | None:
        """At most ``round_moves`` moves of a seat's own in each round."""
        return self.round_limit * self.round_moves(self.config.hand_size, 1)

    def round_moves(self, dealt: int, seats: int) -> int:
        """The most moves ``seats`` seats, dealt ``dealt`` cards in all, make in one round (the
        engine's ``Duo::round_moves`` proves it): ``D`` draws at most (the draw pile after the
        deal), and twice the cards they can lay, ``dealt + D - seats - 1``, in lays and turn
        ends."""
        draws = self.deck_size - self.config.players * self.config.hand_size - PILES
        return draws + 2 * (dealt + draws - seats - 1)

    def legal_actions(self, s: State) -> list[int]:
        if s.over:
            return []
        if self.is_chance_node(s):
            return iter_bits(s.draw)
        hand = s.hands[s.current]
        out = []
        for p in self._open_piles(s):
            for card in iter_bits(hand & MATCHES[s.tops[p]]):
                out.append(p * KINDS + kind_of(card))
                if card >= FIRST_TURBO:
                    break  # one action plays any of the Turbo-Jokers
        out.append(DRAW if s.turn_pile is None else END_TURN)
        return out

    def _open_piles(self, s: State) -> range:
        if s.turn_pile is None or self.config.switch_piles:
            return range(PILES)
        return range(s.turn_pile, s.turn_pile + 1)

    # ---- Apply ----
    def apply(self, s: State, action: int) -> None:
        to = self.taking_to(s)
        if to is not None:
            self._take_card(s, to, action)
        elif action == DRAW:
            self._draw(s)
        elif action == END_TURN:
            self._end_turn(s)
        else:
            self._play(s, action // KINDS, action % KINDS)

    def _next_seat(self, s: State) -> None:
        s.current = (s.current + 1) % self.config.players
        s.turn_pile = None
        s.turn_cards = 0

    def _play(self, s: State, pile: int, kind: int) -> None:
        hand = s.hands[s.current]
        card = kind if kind < TURBO_KIND else FIRST_TURBO + iter_bits(hand >> FIRST_TURBO)[0]
        s.hands[s.current] = hand & ~(1 << card)
        s.piles[pile] |= 1 << card
        s.tops[pile] = card
        s.turn_pile = pile
        s.turn_cards |= 1 << card
        if s.hands[s.current] == 0:
            self._end_round(s, s.current)

    def _end_turn(self, s: State) -> None:
        self._next_seat(s)

    def _draw(self, s: State) -> None:
        s.turn_pile = DRAWING
        self._settle(s)

    # ---- Scoring ----
    def returns(self, s: State) -> list[float]:
        if not s.over:
            return [0.0] * self.config.players
        scores = s.scores[: self.config.players]
        best = max(scores)
        return winner_returns([x == best for x in scores])

    def scores(self, s: State) -> list[int]:
        return list(s.scores[: self.config.players])

    def outcome(self, s: State) -> Outcome | None:
        if not s.over:
            return None
        scores = self.scores(s)
        if max(scores) >= self.target:
            reason = "target_reached"
        else:
            reason = "rounds_played" if self.config.rounds > 0 else "round_guard"
        return ended(reason, scores, best_of(scores))

    def _end_round(self, s: State, winner: int | None) -> None:
        held = [count(h) for h in s.hands]
        if winner is None:
            points = [-h for h in held]
        else:
            points = [0] * MAX_PLAYERS
            points[winner] = sum(held)
        s.scores = [a + b for a, b in zip(s.scores, points)]
        s.last_points = points
        s.last_winner = winner
        s.turn_pile = None
        s.turn_cards = 0
        if max(s.scores) >= self.target or s.round >= self.round_limit:
            s.over = True
        else:
            s.round += 1
            self._deal(s)

    # ---- Observation ----
    def observation_shape(self) -> tuple[int, ...]:
        return (TENSOR_SIZE,)

    def observation(self, s: State, seat: int) -> dict[str, Any]:
        n = self.config.players
        return {
            "seat": seat,
            "current_player": self.current_player(s),
            "round": s.round,
            "first_player": self.first_player(s),
            "target": self.target,
            "scores": list(s.scores[:n]),
            "hand": _names(s.hands[seat]),
            "hand_sizes": [count(h) for h in s.hands[:n]],
            "draw_pile": count(s.draw),
            "pile_tops": [card_name(t) if s.piles[p] else None for p, t in enumerate(s.tops)],
            "pile_cards": [_names(p) for p in s.piles],
            "turn_pile": None if s.turn_pile in (None, DRAWING) else PILE_NAMES[s.turn_pile],
            "turn_cards": _names(s.turn_cards),
            "last_round": None
            if s.last_points is None
            else {"winner": s.last_winner, "points": list(s.last_points[:n])},
            "terminal": s.over,
        }

    def _write_cards(self, w: TensorWriter, mask: int) -> None:
        w.mask(mask & ((1 << SYMBOLS) - 1), SYMBOLS)
        w.mask(mask >> SYMBOLS, FIRST_TURBO - SYMBOLS)
        w.scalar(ratio(count(mask >> FIRST_TURBO), TURBO_CARDS - FIRST_TURBO))

    def observation_tensor(self, s: State, seat: int, out: npt.NDArray[np.float32]) -> None:
        n = self.config.players
        w = TensorWriter(out)
        self._write_cards(w, s.hands[seat])
        for p in range(PILES):
            w.one_hot(KINDS, kind_of(s.tops[p]) if s.piles[p] else None)
        for p in range(PILES):
            self._write_cards(w, s.piles[p])
        w.one_hot(PILES, None if s.turn_pile == DRAWING else s.turn_pile)
        for k in range(MAX_PLAYERS):
            w.scalar(ratio(count(s.hands[(seat + k) % n]), self.config.hand_size) if k < n else 0.0)
        for k in range(MAX_PLAYERS):
            w.scalar(ratio(s.scores[(seat + k) % n], self.target) if k < n else 0.0)
        w.scalar(ratio(count(s.draw), self.deck_size))
        current = self.current_player(s)
        w.one_hot(MAX_PLAYERS, None if current is None else (current - seat) % n)
        w.one_hot(MAX_PLAYERS, (self.first_player(s) - seat) % n)

    def determinize(self, s: State, seat: int, rng: Rng) -> State:
        d = self.copy_state(s)
        unseen = d.draw
        for i in range(self.config.players):
            if i != seat:
                unseen |= d.hands[i]
        for i in range(self.config.players):
            if i == seat:
                continue
            size, hand = count(d.hands[i]), 0
            for _ in range(size):
                card = nth_bit(unseen, rng.index(count(unseen)))
                assert card is not None
                unseen &= ~(1 << card)
                hand |= 1 << card
            d.hands[i] = hand
        d.draw = unseen
        d.rng = rng.fork()
        return d

    # ---- Checks ----
    def check_state(self, s: State) -> str | None:
        n = self.config.players
        if not s.rng.is_valid():
            return "generator increment must be odd"
        if any(h != 0 for h in s.hands[n:]) or any(x != 0 for x in s.scores[n:]):
            return "seats beyond the players must have no cards and no points"
        everything = s.draw
        total = count(s.draw)
        for part in s.hands[:n] + s.piles:
            everything |= part
            total += count(part)
        if everything != self.deck or total != self.deck_size:
            return "every card of the deck must be in exactly one hand, pile or the draw pile"
        dealing = self._dealing(s)
        if any(not s.piles[p] >> s.tops[p] & 1 and not (dealing and s.piles[p] == 0) for p in range(PILES)):
            return "each pile's top card must be in that pile"
        if (dealing or s.turn_pile == DRAWING) and not self._explicit:
            return "a card is waiting to be taken, but this game takes them from its seed"
        if dealing:
            in_hands = self._in_hands(s)
            first = self.first_player(s)
            if (
                any(
                    count(s.hands[(first + i) % n]) != (min(in_hands, self.config.hand_size * n) + n - 1 - i) // n
                    for i in range(n)
                )
                or (s.piles[0] != 0 and in_hands != self.config.hand_size * n)
                or count(s.piles[0]) > 1
                or s.turn_pile is not None
                or s.current != first
            ):
                return "a deal in progress gives cards in turn from the first player, then the piles"
        if s.current >= n:
            return "the current seat is out of range"
        if not 1 <= s.round <= self.round_limit:
            return "the round number is out of range"
        if any(abs(x) > 80 * s.round for x in s.scores):
            return "a score is out of range for the rounds played"
        if not s.over and not dealing and (s.draw == 0 or any(h == 0 for h in s.hands[:n])):
            return "a running round must have a draw pile and no empty hand"
        if s.turn_pile is None:
            if s.turn_cards != 0:
                return "cards played this turn without a chosen pile"
        elif s.turn_pile == DRAWING:
            if s.turn_cards != 0 or s.over or dealing:
                return "a seat draws only at the start of her turn, in a running round"
        elif s.turn_pile >= PILES or not s.turn_cards >> s.tops[s.turn_pile] & 1 or s.over:
            return "the turn's pile must be a pile whose top was played this turn, in a running game"
        elif s.turn_cards & ~(s.piles[0] | s.piles[1]) or (
            not self.config.switch_piles and s.turn_cards & ~s.piles[s.turn_pile]
        ):
            return "the cards played this turn must lie on the turn's pile"
        if (s.last_points is None) != (s.round == 1 and not s.over):
            return "the last round's points must be given exactly when a round has ended"
        if s.last_points is not None and any(x != 0 for x in s.last_points[n:]):
            return "seats beyond the players must have no points"
        if s.last_winner is not None and (s.last_winner >= n or s.last_points is None):
            return "the last round's winner is out of range"
        decided = max(s.scores[:n]) >= self.target or (s.over and s.round >= self.round_limit)
        if s.over != decided:
            return "'over' does not agree with the scores and the rounds"
        return None
