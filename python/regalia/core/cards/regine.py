"""Regine's cards, and how a combination of four ranks for each Suit: shared by the reference
rules (``regalia.reference.regine``, twin of ``rust/engine/src/games/regine/``) and the
rule-based player. A card is a kind, 0-7 in ``CARD_NAMES`` order (the names the observations
use); a combination is a list of four kinds."""

from __future__ import annotations

#: Kinds of card, cards in a combination, Suits.
KINDS = 8
COMBO = 4
SUITS = 4

JESTER, PEASANT, ASSASSIN, COURTESAN, HERALD, KNIGHT, PRINCESS, QUEEN = range(KINDS)
#: Each kind's name, as the observations show it.
CARD_NAMES = ("jester", "peasant", "assassin", "courtesan", "herald", "knight", "princess", "queen")
#: Copies of each kind in the deck (40 cards).
COPIES = (8, 4, 4, 4, 4, 4, 4, 8)
#: Each kind's rank (the Knight and the Princess share one) and its value for the Game Suit.
RANK = (0, 1, 2, 3, 4, 5, 5, 6)
VALUE = (1, 4, 5, 6, 7, 10, 10, 10)
#: The Suits in betting order.
SUIT_NAMES = ("queens", "jesters", "pairs", "game")


def ranks_desc(combo: list[int]) -> list[int]:
    """A combination's ranks, highest first."""
    return sorted((RANK[c] for c in combo), reverse=True)


def _other_ranks(combo: list[int], kind: int) -> list[int]:
    r = sorted((RANK[c] for c in combo if c != kind), reverse=True)
    return r + [0] * (COMBO - len(r))


def _pairs_key(combo: list[int]) -> list[int] | None:
    counts = [combo.count(k) for k in range(KINDS)]
    pair: int | None = None
    for kind in range(KINDS - 1, -1, -1):
        rank = RANK[kind]
        c = counts[kind]
        if c == 4:
            return [3, rank, rank, 0, 0, 0, 0]
        if c == 3:
            return [2, rank, _other_ranks(combo, kind)[0], 0, 0, 0, 0]
        if c == 2:
            if pair is not None:
                return [3, RANK[pair], rank, 0, 0, 0, 0]
            pair = kind
    if pair is None:
        return None
    o = _other_ranks(combo, pair)
    return [1, RANK[pair], o[0], o[1], 0, 0, 0]


def suit_key(suit: int, combo: list[int]) -> list[int] | None:
    """How a combination ranks for a Suit (higher is better), or ``None`` if it cannot win it."""
    r = ranks_desc(combo)
    if suit == 0:
        return [combo.count(QUEEN), r[0], r[1], r[2], r[3], 0, 0]
    if suit == 1:
        return [combo.count(JESTER), 6 - r[3], 6 - r[2], 6 - r[1], 6 - r[0], 0, 0]
    if suit == 2:
        return _pairs_key(combo)
    total = sum(VALUE[c] for c in combo)
    if total == 31:
        tier = 2
    elif 32 <= total <= 40:
        tier = 1
    else:
        return None
    return [tier, total, combo.count(QUEEN), r[0], r[1], r[2], r[3]]


def suit_points(suit: int, key: list[int]) -> int:
    """What a Suit pays for the winning key (before chips)."""
    if suit == 2:
        return 1 if key[0] == 1 else 2
    if suit == 3:
        return key[0]
    return 1
