"""The list of moves a person chooses from: one entry per move, or, where a game has many
variants of a few moves, one entry per thing chosen first (a card) leading to its variants.

Duell der Drachen is listed by card: ``2) green 6: up or down``; a card is played by its label
or its name and the variant's words (``2 up``, ``2 down blue``, ``green 6 up``, ``g6 down
red``), and a card alone asks which variant. Every other game lists its moves one by one.
Only the presentation and the reading change: the moves are the game's own actions, by id.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from regalia.agents import View
from regalia.table.moves import MoveList, MoveRefused, card_initials, has_words, labels, normalize, one_of

#: Asks a question (said on its own lines) and reads the answer at a prompt.
Ask = Callable[[str, str], str]


@dataclass(frozen=True)
class Entry:
    """One line of the list: its title (a move's name, or a card) and the moves it leads
    to, each by the words that choose it (``""`` for an entry that is one move)."""

    title: str
    choices: dict[str, int]
    #: What the list shows after the title (``up or down``), empty for one move.
    note: str = ""
    #: The choices' labels (``1, 2, ...`` or ``a, b, ...``), to pick one by its place.
    letters: bool = False
    #: The choices as asked, with their labels (``1) up, or down on 2) red 3) blue``).
    question: str = ""


@dataclass(frozen=True)
class Menu:
    """The entries of one decision, labelled 1, 2, ... (a, b, ... when ``letters``), with
    every legal move (``moves``) still readable by its name, and lines said below the list."""

    entries: list[Entry]
    moves: MoveList
    letters: bool = False
    footer: list[str] = field(default_factory=list)

    @property
    def labels(self) -> list[str]:
        """The entries' labels."""
        return labels(len(self.entries), self.letters)

    def cells(self) -> list[str]:
        """``  1) red 1: up or down``: each entry as the list shows it."""
        return [
            f"{label:>3}) {e.title}" + (f": {e.note}" if e.note else "") for label, e in zip(self.labels, self.entries)
        ]

    def read(self, text: str, parse: Callable[[str], int] | None = None, ask: Ask | None = None) -> int:
        """The action ``text`` means; an entry chosen without its variant asks ``ask`` which
        one (refused without ``ask``). ``MoveRefused`` says why a text names no move."""
        wanted = normalize(text)
        if not wanted:
            raise MoveRefused("type a move's label or its name (or 'help')")
        if wanted in (normalize(n) for n in self.moves.names):
            return self.moves.read(text, parse)
        found = self._entry(wanted)
        if found is None:
            if wanted.isdigit() and not self.moves.numbered:
                raise MoveRefused(f"there is no {wanted}: choose {self.labels[0]} to {self.labels[-1]}, or type a move")
            return self.moves.read(text, parse)
        entry, rest = found
        if rest:
            try:
                return _choice(entry, rest)
            except MoveRefused:
                try:  # a longer spelling of a whole move: g6 face down on red
                    return self.moves.read(text, parse)
                except MoveRefused:
                    pass
                raise
        if len(entry.choices) == 1:
            return _choice(entry, "")
        if ask is None:
            raise MoveRefused(f"{entry.title}: choose {entry.question}")
        answer = normalize(ask(f"{entry.title}: {entry.question}", f"{entry.title}> "))
        if not answer:
            raise MoveRefused(f"no move chosen for {entry.title}")
        return _choice(entry, answer)

    def _entry(self, wanted: str) -> tuple[Entry, str] | None:
        """The entry ``wanted`` begins with (by label, or by title for an entry of several
        moves) and the words after it; None when it begins with none."""
        first, _, rest = wanted.partition(" ")
        if first in self.labels:
            entry = self.entries[self.labels.index(first)]
            if rest and len(entry.choices) == 1:
                return None
            return entry, rest
        for entry in self.entries:
            if len(entry.choices) == 1:
                continue
            title = normalize(entry.title)
            for form in (title, card_initials(title)):
                if wanted == form or wanted.startswith(form + " "):
                    return entry, wanted[len(form) :].strip()
        return None


def _choice(entry: Entry, rest: str) -> int:
    """The move of ``entry`` that the words ``rest`` choose (the only one, when ``rest`` is
    empty): every word typed begins a word of the variant, in order."""
    if not rest and len(entry.choices) == 1:
        return next(iter(entry.choices.values()))
    places = labels(len(entry.choices), entry.letters)
    if rest in places:
        return list(entry.choices.values())[places.index(rest)]
    exact = entry.choices.get(rest)
    if exact is not None:
        return exact
    found = [words for words in entry.choices if has_words(words, rest)]
    if len(found) == 1:
        return entry.choices[found[0]]
    if found:
        raise MoveRefused(f"{rest!r} could be {one_of(found)} for {entry.title}: type more")
    raise MoveRefused(f"{entry.title} cannot go {rest!r}: choose {entry.question}")


def listed(words: list[str]) -> str:
    """``red, blue or white``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def duell_der_drachen(view: View, letters: bool) -> Menu:
    """Duell der Drachen by card: each card in hand with ``up`` (on its own territory) and
    ``down TERRITORY`` (face down there); the territories open to face-down cards are said
    once below the list when they are the same for every card (and always in the choices)."""
    by_card: dict[str, dict[str, int]] = {}
    territories: dict[str, list[str]] = {}
    for action in view.legal_actions:
        info = view.action_info(action)
        card = info["card"]
        if info["face_up"]:
            by_card.setdefault(card, {})["up"] = action
        else:
            by_card.setdefault(card, {})[f"down {info['territory']}"] = action
            territories.setdefault(card, []).append(info["territory"])
    entries = []
    for card, choices in by_card.items():
        ways = [w for w in ("up", "down") if any(c.split()[0] == w for c in choices)]
        places = labels(len(choices), letters)
        asked = [f"{place}) up" for place, words in zip(places, choices) if words == "up"]
        downs = [f"{place}) {words.split()[1]}" for place, words in zip(places, choices) if words != "up"]
        asked += [f"down on {' '.join(downs)}"] if downs else []
        entries.append(Entry(card, choices, " or ".join(ways), letters, ", or ".join(asked)))
    shared = {tuple(t) for t in territories.values()}
    footer = []
    if len(shared) == 1:
        footer.append(f"up: on its own colour; down: face down on {listed(list(next(iter(shared))))}")
    label = labels(1, letters)[0]
    if territories:
        card, where = next(iter(territories)), next(iter(territories.values()))[0]
        footer.append(f"Type a card's label, then choose; or at once: {label} up, {card} down {where}")
    elif entries:
        footer.append(f"Type a card's label or the card: {label}, {entries[0].title} up")
    return Menu(entries, MoveList(view.legal_actions, view.action_names, letters, numbered=False), letters, footer)


def one_by_one(view: View, letters: bool) -> Menu:
    """Every legal move an entry of its own, labelled in order."""
    entries = [Entry(name, {"": action}) for action, name in zip(view.legal_actions, view.action_names)]
    return Menu(entries, MoveList(view.legal_actions, view.action_names, letters), letters)


#: The games listed otherwise than move by move, by game id.
MENUS: dict[str, Callable[[View, bool], Menu]] = {"duell-der-drachen": duell_der_drachen}


def move_menu(view: View, letters: bool) -> Menu:
    """The list of moves of ``view``'s decision (see ``MENUS``)."""
    return MENUS.get(view.game, one_by_one)(view, letters)
