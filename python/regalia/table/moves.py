"""Reading a move typed at the prompt: by its label in the list or by its name, forgivingly.

Moves are labelled 1, 2, 3, ... unless some move of the game is named by a number (Duo
Regna's cards ``0`` to ``6``): then they are labelled a, b, c, ... for the whole game, so
that ``3`` always means the move called 3. A name may be typed in any case, with any
punctuation, shortened to a unique beginning or to some of its words (``queen`` for
``6 queen``), or in the short forms the boards print (``6K``, ``6♛``: a number and the
initials of the words after it; ``G6``, ``Y7``: a colour's initial and the card's value).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass
from string import ascii_lowercase


class MoveRefused(ValueError):
    """The text names no single legal move; the message says why and what to type."""


#: Card symbols the boards print, read as the letters they stand for.
SYMBOLS = {"♚": "k", "♛": "q"}


def normalize(text: str) -> str:
    """Lower case, card symbols as letters, punctuation as spaces, single spaces."""
    for symbol, letter in SYMBOLS.items():
        text = text.replace(symbol, letter)
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text.lower()).split())


def short_form(name: str) -> str:
    """``6 queen`` -> ``6q``: the first word and the initials of the others (as printed on
    the boards in plain mode), for names that begin with a number."""
    words = normalize(name).split()
    if len(words) < 2 or not words[0].isdigit():
        return ""
    return words[0] + "".join(w[0] for w in words[1:])


def card_initials(name: str) -> str:
    """``green 6 face up`` -> ``g6 face up``: every word followed by a number shortened to its
    initial and joined to the number (the way boards print a coloured card)."""
    return re.sub(r"\b([a-z])[a-z]* (\d+)\b", r"\1\2", normalize(name))


def _letters(i: int) -> str:
    label = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        label = ascii_lowercase[r] + label
    return label


def labels(n: int, letters: bool) -> list[str]:
    """The labels of ``n`` listed moves: ``1, 2, ...``, or ``a, b, ...`` when ``letters``."""
    return [_letters(i) for i in range(n)] if letters else [str(i + 1) for i in range(n)]


def has_numeric_names(action_name: Callable[[int], str], num_actions: int) -> bool:
    """Whether any action of the game (ids below ``num_actions``) is named by a number."""
    for action in range(num_actions):
        try:
            if normalize(action_name(action)).isdigit():
                return True
        except ValueError:
            continue
    return False


@dataclass(frozen=True)
class MoveList:
    """The legal moves of one decision, with the labels shown beside them: letters when
    ``letters`` (see ``has_numeric_names``), else numbers; none when not ``numbered`` (the
    moves are listed otherwise, see ``regalia.table.menu``)."""

    actions: list[int]
    names: list[str]
    letters: bool = False
    numbered: bool = True

    @property
    def labels(self) -> list[str]:
        """``1, 2, ...``, or ``a, b, ...`` for a game whose moves may be named by numbers."""
        return labels(len(self.actions), self.letters) if self.numbered else []

    def read(self, text: str, parse: Callable[[str], int] | None = None) -> int:
        """The action ``text`` means; ``MoveRefused`` with the reason when there is none.

        ``parse`` is the game's own ``parse_action`` (it may know other spellings).
        """
        wanted = normalize(text)
        if not wanted:
            raise MoveRefused("type a move's label or its name (or 'help')")
        names = [normalize(n) for n in self.names]
        if wanted in names:
            return self.actions[names.index(wanted)]
        labels = self.labels
        if wanted in labels:
            return self.actions[labels.index(wanted)]
        own = self._parsed(text, parse)
        if own is not None:
            return own
        shorts = [short_form(n) for n in self.names]
        if wanted.replace(" ", "") in shorts and shorts.count(wanted.replace(" ", "")) == 1:
            return self.actions[shorts.index(wanted.replace(" ", ""))]
        forms = [(n, card_initials(n)) for n in names]
        found = [a for a, f in zip(self.actions, forms) if wanted in f]
        found = found or [a for a, f in zip(self.actions, forms) if any(n.startswith(wanted) for n in f)]
        found = found or [a for a, f in zip(self.actions, forms) if any(has_words(n, wanted) for n in f)]
        if len(found) == 1:
            return found[0]
        raise MoveRefused(self._why_not(text, wanted, found, parse))

    def _parsed(self, text: str, parse: Callable[[str], int] | None) -> int | None:
        if parse is None:
            return None
        try:
            action = parse(text.strip())
        except ValueError:
            return None
        return action if action in self.actions else None

    def _why_not(self, text: str, wanted: str, found: list[int], parse: Callable[[str], int] | None) -> str:
        shown = text.strip()
        if found:
            by_action = dict(zip(self.actions, self.names))
            return f"{shown!r} could be {one_of([by_action[a] for a in found])}: type more of the name"
        if parse is not None and _parses(parse, shown):
            return f"{shown!r} is not allowed now: choose one of the moves listed"
        if self.numbered and (wanted.isdigit() or (len(wanted) <= 2 and wanted.isalpha())):
            labels = self.labels
            return f"there is no move {shown!r}: choose {labels[0]} to {labels[-1]}, or type a name"
        names = {normalize(n): n for n in self.names}
        close = difflib.get_close_matches(wanted, list(names), n=3, cutoff=0.6)
        suggestion = f" Did you mean {one_of([names[c] for c in close])}?" if close else ""
        return f"{shown!r} is not a move here.{suggestion} Type 'moves' to see them all"


def _parses(parse: Callable[[str], int], text: str) -> bool:
    """Whether ``text`` names a move of the game, legal now or not (``parse_action`` refuses
    the name of a move that is not legal now, saying so)."""
    try:
        parse(text)
    except ValueError as e:
        return "is not legal now" in str(e)
    return True


def has_words(name: str, wanted: str) -> bool:
    """Whether every word of ``wanted`` begins a different word of ``name``, in order."""
    words = name.split()
    i = 0
    for w in wanted.split():
        while i < len(words) and not words[i].startswith(w):
            i += 1
        if i == len(words):
            return False
        i += 1
    return True


def one_of(names: list[str], most: int = 3) -> str:
    """``'a', 'b' or 'c'``; past ``most`` names, the first ones and how many more."""
    quoted = [f"'{n}'" for n in names]
    if len(quoted) > most:
        return ", ".join(quoted[: most - 1]) + f" or {len(quoted) - most + 1} more"
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]
