"""Why a Regine Suit went to its winner, in words: the revealed combinations of the
players compared, ranked for the Suit as the rules rank them (``regalia.core.cards.regine``),
and the first thing that told the winner from the best of the others (more Queens, the
higher cards from the top down, a pair of Queens against a pair of Heralds, exactly 31,
or the seat closest to the Dealer's left)."""

from __future__ import annotations

from collections import Counter

from regalia.core.cards.regine import CARD_NAMES, RANK, VALUE, suit_key
from regalia.table.narrate.common import plural
from regalia.table.narrate.seats import Seats

SUIT_TITLES = ("Queens", "Jesters", "Pairs", "Game")
#: What each Suit pays (before chips), for a lone bettor's win.
SUIT_MOST = (1, 1, 2, 2)


def _title(card: str) -> str:
    return card.capitalize()


def _by_rank(cards: list[str], high_first: bool = True) -> list[str]:
    return sorted(cards, key=lambda c: RANK[CARD_NAMES.index(c)], reverse=high_first)


def _plural(card: str, n: int) -> str:
    return plural(_title(card), n)


def combination(cards: list[str]) -> str:
    """The Pairs combination in ``cards``: ``two pairs (Queens and Jesters)``,
    ``three Knights``, ``a pair of Heralds`` or ``no pair``."""
    counts = Counter(cards)
    groups = sorted((c for c, n in counts.items() if n >= 2), key=lambda c: -RANK[CARD_NAMES.index(c)])
    if not groups:
        return "no pair"
    top = groups[0]
    if counts[top] == 4:
        return f"four {_plural(top, 4)} (two pairs)"
    if counts[top] == 3:
        return f"three {_plural(top, 3)}"
    if len(groups) == 2:
        return f"two pairs ({_plural(groups[0], 2)} and {_plural(groups[1], 2)})"
    return f"a pair of {_plural(top, 2)}"


def _others(cards: list[str]) -> list[str]:
    """The cards outside the Pairs combination, highest first."""
    counts = Counter(cards)
    return _by_rank([c for c in cards if counts[c] == 1])


def _higher(mine: list[str], theirs: list[str], lower: bool = False) -> str:
    """The first card, from the top down (from the bottom up with ``lower``), that differs."""
    a, b = _by_rank(mine, not lower), _by_rank(theirs, not lower)
    for x, y in zip(a, b):
        if RANK[CARD_NAMES.index(x)] != RANK[CARD_NAMES.index(y)]:
            return f"the {_title(x)} against the {_title(y)}"
    return "equal cards"


def _difference(suit: int, win: list[str], other: list[str], key: list[int], against: list[int]) -> str:
    """What first told the winner's cards ``win`` from ``other`` for ``suit``."""
    i = next(i for i, (a, b) in enumerate(zip(key, against)) if a != b)
    if suit == 0:
        if i == 0:
            return f"more Queens ({key[0]} against {against[0]})"
        return f"equal Queens ({key[0] or 'none'}); higher cards: {_higher(win, other)}"
    if suit == 1:
        if i == 0:
            return f"more Jesters ({key[0]} against {against[0]})"
        return f"equal Jesters ({key[0] or 'none'}); lower cards: {_higher(win, other, lower=True)}"
    if suit == 2:
        if i < 2 or (i == 2 and key[0] == 3):
            return f"the better combination: {combination(win)} against {combination(other)}"
        both = (
            combination(win)
            if combination(win) == combination(other)
            else f"{combination(win)} and {combination(other)}"
        )
        return f"equal combinations ({both}); higher other cards: {_higher(_others(win), _others(other))}"
    total = sum(VALUE[CARD_NAMES.index(c)] for c in win)
    other_total = sum(VALUE[CARD_NAMES.index(c)] for c in other)
    if i == 0:
        return f"exactly 31 against {other_total}"
    if i == 1:
        return f"a total of {total} against {other_total}"
    if i == 2:
        return f"equal totals ({total}); more Queens ({key[2]} against {against[2]})"
    return f"equal totals ({total}) and Queens; higher cards: {_higher(win, other)}"


def _nobody(suit: int) -> str:
    return "nobody has a pair" if suit == 2 else "nobody reaches 31 or more"


def _qualify(suit: int) -> str:
    return "has a pair" if suit == 2 else "reaches 31 or more"


def ranking(suit: int, compared: list[int], combos: list[list[str]], dealer: int, players: int) -> list[int]:
    """The seats of ``compared`` that can win ``suit``, best first; equal combinations in
    seat priority (the Dealer, then to her left), as the rules break the tie."""
    order = [(dealer + k) % players for k in range(players)]
    keys = {k: suit_key(suit, [CARD_NAMES.index(c) for c in combos[k]]) for k in compared}
    ranked = [(keys[k], -order.index(k), k) for k in compared if keys[k] is not None]
    return [k for _, _, k in sorted(ranked, reverse=True)]


def reason(suit: int, compared: list[int], combos: list[list[str]], dealer: int, seats: Seats) -> str:
    """Why ``suit`` went as it did among the seats ``compared`` (in seat order), with the
    round's ``combos`` and its ``dealer``: ``"over seat 2 with more Queens (2 against 1)"``."""
    ranked = ranking(suit, compared, combos, dealer, seats.count)
    if not ranked:
        return _nobody(suit)
    if len(ranked) == 1:
        return f"as the only one who {_qualify(suit)}"
    best, runner = ranked[0], ranked[1]
    key = suit_key(suit, [CARD_NAMES.index(c) for c in combos[best]])
    against = suit_key(suit, [CARD_NAMES.index(c) for c in combos[runner]])
    assert key is not None and against is not None
    if key == against:
        if best == dealer:
            closer = seats.verb(best, "are", "is") + " the Dealer"
        else:
            closer = seats.verb(best, "sit", "sits") + " closer to the Dealer's left"
        return f"over {seats.name(runner)} with equal cards: {closer}"
    return f"over {seats.name(runner)} with {_difference(suit, combos[best], combos[runner], key, against)}"


def points(suit: int, gain: int, chips: int, doubled: bool) -> str:
    """How a Suit's ``gain`` is made up: ``"+5: 1 for the Suit, 2 chips doubled"``."""
    if chips == 0:
        return f"+{gain}"
    base = gain - chips * (2 if doubled else 1)
    chip_words = f"{chips} chip{'s' if chips != 1 else ''}{' doubled' if doubled else ''}"
    return f"+{gain}: {base} for the Suit, {chip_words}"
