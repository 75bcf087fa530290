"""Duo Regna — the reference twin of ``rust/engine/src/games/duo_regna.rs``.

Rules in ten lines: each player holds the nine cards X, 0, 1, 2, 3, 4, 5, 6 (King), 6 (Queen).
Every round both choose a card in secret and reveal together. A shield (X) on either side:
no winner. A Bishop (4): the lower card wins (so the Jester beats it). A Jester (0): beats
a 6 (and the Bishop), loses to 1, 2, 3, 5. Otherwise the higher card wins; equal: no winner.
The winner pulls the dragon one step towards herself, or captures it from her own side;
a captured dragon is replaced from the pile, in the centre. After nine rounds both take
their nine cards back. Whoever has captured 4 dragons (cards show 1 or 2) wins.

Rulings and options: see the Rust module and ``docs/rules/duo-regna.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

import numpy as np
import numpy.typing as npt

from regalia.core.outcome import Outcome
from regalia.reference.base import GameInfo, Rules, ended
from regalia.reference.chance import ChanceMode, chance_option, draw_from_counts
from regalia.reference.codec import U8, U16, U32, Items, Maybe
from regalia.reference.options import Integer, IntegerList, invalid, option, read
from regalia.reference.rng import Rng
from regalia.reference.tensor import TensorWriter, ratio

# ---- Constants ----
CARDS = 9
CARD_NAMES = ("X", "0", "1", "2", "3", "4", "5", "6 king", "6 queen")
FULL_HAND = (1 << CARDS) - 1
MAX_PILE = 32
SHIELD = 0
SEAT0_SIDE, CENTRE, SEAT1_SIDE = 0, 1, 2
TENSOR_SIZE = 3 * CARDS + 1 + 3 + 2 + 3 + 2 * CARDS + 1


# ---- Options ----
@dataclass(frozen=True)
class DuoRegnaOptions:
    """Duo Regna's options."""

    players: int = option(2, Integer(2, 2), "number of players")
    dragon_deck: tuple[int, int] = option(
        (10, 6),
        IntegerList(2, 0, MAX_PILE),
        "two counts: cards showing one dragon, cards showing two (1-32 cards in all)",
    )
    dragons_to_win: int = option(4, Integer(1, 64), "dragons that win the duel")
    max_rounds: int = option(
        180,
        Integer(1, 100_000),
        "stalemate guard: rounds before the game is decided on dragons, then the dragon's side",
    )
    chance: ChanceMode = chance_option(
        "'seeded' (the dragon pile is shuffled from the seed) "
        "or 'explicit' (each dragon card revealed is a chance node)",
    )


# ---- Cards and actions ----
def value(card: int) -> int | None:
    """The value of a card for comparisons (``None`` for the shield)."""
    if card == SHIELD:
        return None
    return card - 1 if card <= 7 else 6


def round_winner(c0: int, c1: int) -> int | None:
    """Who wins a round when seat 0 shows ``c0`` and seat 1 shows ``c1``."""
    v0, v1 = value(c0), value(c1)
    if v0 is None or v1 is None or v0 == v1:
        return None
    higher = 0 if v0 > v1 else 1
    if v0 == 4 or v1 == 4:
        return 1 - higher
    if v0 == 0 or v1 == 0:
        jester, other = (0, v1) if v0 == 0 else (1, v0)
        return jester if other == 6 else 1 - jester
    return higher


def _bits(mask: int) -> list[int]:
    return [i for i in range(CARDS) if mask >> i & 1]


# ---- State ----
@dataclass
class State:
    """The whole game state (field for field the Rust ``State``)."""

    rng: Rng
    hands: Annotated[list[int], Items(U16, 2)]
    pending: Annotated[int | None, Maybe(U8)]
    pile: Annotated[list[int], Items(U8, MAX_PILE)]
    pile_len: Annotated[int, U8]
    next_dragon: Annotated[int, U8]
    dragon: Annotated[int, U8]
    dragon_side: Annotated[int, U8]
    captured: Annotated[list[int], Items(U8, 2)]
    round: Annotated[int, U32]
    last_reveal: Annotated[list[int] | None, Maybe(Items(U8, 2))]
    over: bool = field(default=False)


class DuoRegna(Rules[State, DuoRegnaOptions]):
    """Duo Regna's rules with validated options."""

    state_type = State

    INFO = GameInfo("duo-regna", "Duo Regna", ("duoregna", "duo_regna"), DuoRegnaOptions)

    # ---- Options ----
    @property
    def single_dragons(self) -> int:
        """Cards showing one dragon."""
        return self.config.dragon_deck[0]

    @property
    def double_dragons(self) -> int:
        """Cards showing two dragons."""
        return self.config.dragon_deck[1]

    @property
    def _explicit(self) -> bool:
        """Whether dragon cards are chance outcomes (``chance="explicit"``)."""
        return self.config.chance == "explicit"

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> DuoRegna:
        config = read(cls.INFO.name, DuoRegnaOptions, options)
        if not 1 <= sum(config.dragon_deck) <= MAX_PILE:
            raise invalid(cls.INFO.name, "dragon_deck", f"must hold 1 to {MAX_PILE} cards in all")
        return cls(config)

    # ---- Cards and actions ----
    @property
    def num_actions(self) -> int:
        return CARDS

    def action_info(self, s: State, action: int) -> dict[str, Any]:
        if self.is_chance_node(s) and action < 2:
            return {"kind": "dragon", "dragons": action + 1}
        return {"kind": "play", "card": CARD_NAMES[action]}

    def info_name(self, info: dict[str, Any]) -> str:
        if info["kind"] == "dragon":
            return "reveal 1 dragon" if info["dragons"] == 1 else f"reveal {info['dragons']} dragons"
        return str(info["card"])

    # ---- Setup ----
    def new_state(self, rng: Rng) -> State:
        n: int = self.single_dragons + self.double_dragons
        pile = [1 if i < self.single_dragons else 2 for i in range(n)] + [0] * (MAX_PILE - n)
        if not self._explicit:
            rng.shuffle(pile, 0, n)
        s = State(rng, [FULL_HAND, FULL_HAND], None, pile, n, 0, 0, CENTRE, [0, 0], 0, None)
        self._next_dragon_card(s)
        return s

    # ---- Legal moves ----
    def current_player(self, s: State) -> int | None:
        if s.over or s.dragon == 0:
            return None
        return 0 if s.pending is None else 1

    def is_chance_node(self, s: State) -> bool:
        return not s.over and s.dragon == 0

    def chance_outcomes(self, s: State) -> list[tuple[int, float]]:
        if not self.is_chance_node(s):
            return []
        unrevealed = s.pile[s.next_dragon : s.pile_len]
        return draw_from_counts((d, unrevealed.count(d + 1)) for d in range(2))

    @property
    def explicit_chance(self) -> bool:
        return self._explicit

    def max_history_len(self) -> int | None:
        """A round is two plays, one a seat, and the stalemate guard ends the game after
        ``max_rounds`` rounds; with explicit chance a history also holds a chance node for each
        dragon card revealed, at most ``max_reveals()``."""
        plays = 2 * self.config.max_rounds
        return plays + (self.max_reveals() if self._explicit else 0)

    def max_seat_actions(self) -> int | None:
        """A seat plays once a round, in at most ``max_rounds`` rounds."""
        return self.config.max_rounds

    def max_reveals(self) -> int:
        """The most dragon cards a game reveals (the engine's ``DuoRegna::max_reveals`` proves
        it): the first, then one after each capture the game goes on from, of which the rounds
        allow ``(max_rounds - 1) // 2`` and the dragons that win ``2 * (dragons_to_win - 1)``;
        never more than the pile holds."""
        pile = self.single_dragons + self.double_dragons
        by_rounds = (self.config.max_rounds - 1) // 2
        by_wins = 2 * (self.config.dragons_to_win - 1)
        return min(pile, 1 + min(by_rounds, by_wins))

    def legal_actions(self, s: State) -> list[int]:
        if self.is_chance_node(s):
            return [d for d, _ in self.chance_outcomes(s)]
        seat = self.current_player(s)
        return [] if seat is None else _bits(s.hands[seat])

    # ---- Apply ----
    def apply(self, s: State, action: int) -> None:
        if self.is_chance_node(s):
            self._reveal_drawn_dragon(s, action + 1)
        elif s.pending is None:
            s.hands[0] &= ~(1 << action)
            s.pending = action
        else:
            s.hands[1] &= ~(1 << action)
            self._reveal(s, s.pending, action)

    def _next_dragon_card(self, s: State) -> None:
        """A dragon card is needed: the pile's next one (seeded), or a chance node
        (explicit); an empty pile ends the game."""
        if self._explicit and s.next_dragon < s.pile_len:
            s.dragon = 0
            s.dragon_side = CENTRE
        else:
            self._reveal_next_dragon(s)

    def _reveal_drawn_dragon(self, s: State, dragons: int) -> None:
        """Explicit chance: reveals a card showing ``dragons``, moved to the top of the
        unrevealed pile (the rest of it keeps no order that matters)."""
        nxt = s.next_dragon
        i = s.pile.index(dragons, nxt, s.pile_len)
        s.pile[nxt], s.pile[i] = s.pile[i], s.pile[nxt]
        self._reveal_next_dragon(s)

    def _reveal_next_dragon(self, s: State) -> None:
        if s.next_dragon < s.pile_len:
            s.dragon = s.pile[s.next_dragon]
            s.next_dragon += 1
            s.dragon_side = CENTRE
        else:
            s.dragon = 0
            s.over = True

    def _move_dragon(self, s: State, winner: int) -> None:
        own_side = SEAT0_SIDE if winner == 0 else SEAT1_SIDE
        if s.dragon_side == own_side:
            s.captured[winner] = min(255, s.captured[winner] + s.dragon)
            if s.captured[winner] >= self.config.dragons_to_win:
                s.dragon = 0  # captured: no dragon is left on the track
                s.over = True
            else:
                self._next_dragon_card(s)
        elif winner == 0:
            s.dragon_side -= 1
        else:
            s.dragon_side += 1

    def _reveal(self, s: State, c0: int, c1: int) -> None:
        s.pending = None
        s.last_reveal = [c0, c1]
        s.round += 1
        w = round_winner(c0, c1)
        if w is not None:
            self._move_dragon(s, w)
        if s.hands == [0, 0]:
            s.hands = [FULL_HAND, FULL_HAND]
        if s.round >= self.config.max_rounds:
            s.over = True

    # ---- Scoring ----
    def returns(self, s: State) -> list[float]:
        if not s.over:
            return [0.0, 0.0]
        w = self._winner(s)
        return [0.0, 0.0] if w is None else ([1.0, -1.0] if w == 0 else [-1.0, 1.0])

    def scores(self, s: State) -> list[int]:
        return list(s.captured)

    def outcome(self, s: State) -> Outcome | None:
        if not s.over:
            return None
        if max(s.captured) >= self.config.dragons_to_win:
            reason = "target_reached"
        elif s.dragon == 0 and s.next_dragon >= s.pile_len:
            reason = "dragon_pile_empty"
        else:
            reason = "round_guard"
        w = self._winner(s)
        tie_break = "dragon_side" if w is not None and s.captured[0] == s.captured[1] else None
        return ended(reason, self.scores(s), [k == w for k in range(2)], tie_break)

    def _winner(self, s: State) -> int | None:
        a, b = s.captured
        if a != b:
            return 0 if a > b else 1
        if s.dragon > 0 and s.dragon_side == SEAT0_SIDE:
            return 0
        if s.dragon > 0 and s.dragon_side == SEAT1_SIDE:
            return 1
        return None

    # ---- Observation ----
    def observation_shape(self) -> tuple[int, ...]:
        return (TENSOR_SIZE,)

    def _opponent_hand(self, s: State, seat: int) -> int:
        opp = 1 - seat
        pending = (1 << s.pending) if (opp == 0 and s.pending is not None) else 0
        return s.hands[opp] | pending

    def observation(self, s: State, seat: int) -> dict[str, Any]:
        side = None
        if s.dragon > 0 and s.dragon_side != CENTRE:
            side = 0 if s.dragon_side == SEAT0_SIDE else 1
        return {
            "seat": seat,
            "current_player": self.current_player(s),
            "round": s.round,
            "hand": [CARD_NAMES[c] for c in _bits(s.hands[seat])],
            "opponent_hand": [CARD_NAMES[c] for c in _bits(self._opponent_hand(s, seat))],
            "committed": s.pending is not None,
            "my_choice": CARD_NAMES[s.pending] if seat == 0 and s.pending is not None else None,
            "dragon": s.dragon if s.dragon > 0 else None,
            "dragon_side": side,
            "captured": list(s.captured),
            "dragons_in_pile": s.pile_len - s.next_dragon,
            "last_reveal": None if s.last_reveal is None else [CARD_NAMES[c] for c in s.last_reveal],
            "terminal": s.over,
        }

    def observation_tensor(self, s: State, seat: int, out: npt.NDArray[np.float32]) -> None:
        opp = 1 - seat
        w = TensorWriter(out)
        w.mask(s.hands[seat], CARDS)
        w.mask(self._opponent_hand(s, seat), CARDS)
        w.mask((1 << s.pending) if seat == 0 and s.pending is not None else 0, CARDS)
        w.flag(s.pending is not None)
        mine = SEAT0_SIDE if seat == 0 else SEAT1_SIDE
        pos = None
        if s.dragon > 0:
            pos = 0 if s.dragon_side == mine else (1 if s.dragon_side == CENTRE else 2)
        w.one_hot(3, pos)
        w.one_hot(2, s.dragon - 1 if s.dragon > 0 else None)
        w.scalar(ratio(s.captured[seat], self.config.dragons_to_win))
        w.scalar(ratio(s.captured[opp], self.config.dragons_to_win))
        w.scalar(ratio(s.pile_len - s.next_dragon, max(s.pile_len, 1)))
        w.one_hot(CARDS, None if s.last_reveal is None else s.last_reveal[seat])
        w.one_hot(CARDS, None if s.last_reveal is None else s.last_reveal[opp])
        w.flag(self.current_player(s) == seat)

    def determinize(self, s: State, seat: int, rng: Rng) -> State:
        d = self.copy_state(s)
        rng.shuffle(d.pile, d.next_dragon, d.pile_len)
        if seat == 1 and d.pending is not None:
            pool = d.hands[0] | (1 << d.pending)
            cards = _bits(pool)
            pick = cards[rng.index(len(cards))]
            d.pending = pick
            d.hands[0] = pool & ~(1 << pick)
        d.rng = rng.fork()
        return d

    # ---- Checks ----
    def check_state(self, s: State) -> str | None:
        if not s.rng.is_valid():
            return "generator increment must be odd"
        if any(h > FULL_HAND for h in s.hands) or s.hands[1] == 0:
            return "hands must hold up to 9 cards, seat 1's at least one"
        if s.pending is not None and (s.pending >= CARDS or s.hands[0] >> s.pending & 1 or s.over):
            return "seat 0's pending card must be a card not in her hand, in a running game"
        played0 = CARDS - bin(s.hands[0]).count("1") - (s.pending is not None)
        if played0 != CARDS - bin(s.hands[1]).count("1"):
            return "both seats must have played the same number of cards"
        n = s.pile_len
        pile = s.pile[:n]
        if (
            n != self.single_dragons + self.double_dragons
            or pile.count(1) != self.single_dragons
            or pile.count(2) != self.double_dragons
            or any(d != 0 for d in s.pile[n:])
        ):
            return "the dragon pile does not match the 'dragon_deck' option"
        drawing = self.is_chance_node(s)
        if (s.next_dragon == 0 and not drawing) or s.next_dragon > s.pile_len or s.dragon_side > 2 or s.dragon > 2:
            return "the dragon track is out of range"
        if drawing and (
            not self._explicit or s.pending is not None or s.next_dragon == s.pile_len or s.dragon_side != CENTRE
        ):
            return (
                "a running game must have a dragon, but for a dragon card to draw "
                "(explicit chance, nobody to play, cards left)"
            )
        if s.dragon > 0 and s.dragon != s.pile[s.next_dragon - 1]:
            return "the current dragon is not the last card revealed"
        if (
            sum(s.captured) > 2 * MAX_PILE
            or s.round > self.config.max_rounds
            or (s.last_reveal is not None and any(c >= CARDS for c in s.last_reveal))
            or (s.last_reveal is not None) != (s.round > 0)
        ):
            return "captures, rounds or the last reveal are out of range"
        decided = (
            any(c >= self.config.dragons_to_win for c in s.captured)
            or s.round >= self.config.max_rounds
            or (s.dragon == 0 and not drawing)
        )
        if s.over != decided:
            return "'over' does not agree with the captures, the rounds and the pile"
        return None
