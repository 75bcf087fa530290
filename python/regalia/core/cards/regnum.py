"""Regnum's card set: reading and validating it, as ``rust/engine/src/games/regnum/cards.rs``.

The default set is the data file ``regalia/data/regnum_cards.json``; the option ``card_set``
takes another set of the same structure. Validation refuses anything the rules cannot play,
with a message naming the faulty entry (both backends accept and refuse the same sets).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from regalia.core.errors import InvalidOptionError

#: The default card set, shipped inside the package (and embedded in the Rust engine).
DEFAULT_PATH = Path(__file__).resolve().parents[2] / "data" / "regnum_cards.json"

#: Resource colours, as letters: green, orange, purple, grey.
COLOURS = "GOPY"
#: Resource kinds: the four singles, then the six duals. A hand is a count per kind.
KIND_NAMES = ("G", "O", "P", "Y", "G/O", "G/P", "G/Y", "O/P", "O/Y", "P/Y")
#: The colours (bit ``c`` = colour ``c``) each kind can pay as.
KIND_MASK = (1, 2, 4, 8, 3, 5, 9, 6, 10, 12)
KINDS = len(KIND_NAMES)
#: Character colours.
CHAR_COLOURS = ("blue", "red", "yellow")
EFFECTS = ("STEAL", "CLEAR", "TAX", "DRAW2", "DRAW1", "SWAP", "SALVAGE", "EXCHANGE", "REMOVE")
SCORE_ICONS = ("+1K", "+2K", "+1Q", "+2Q", "B+", "R+", "Yl+", "J", "W")
ADVANTAGES = ("MONTREAUX", "STONEWALL", "GOLDMINT", "RIVERFORD", "SHADOWFEN", "BANNERHOLD")
CONDITIONS = ("BLUE", "RED", "YELLOW", "INHABITANTS", "HAND", "WIZARDS", "EFFECTS", "FEWEST_COLOUR")

#: Each payment slot as the observations name it (see ``PAIR_FIRST`` below).
SLOT_NAMES = ("G", "O", "P", "Y", "2=", "2=", "1")
#: Wizards owned -> points (more than four score as four).
WIZARD_POINTS = (0, 2, 4, 7, 10)
#: The bonus for the most Jesters, and what a standard is worth (to Bannerhold's owner).
JESTER_BONUS = 2
STANDARD_POINTS = 3
BANNERHOLD_POINTS = 4

#: Payment slots: 0-3 one card of that colour; PAIR_FIRST/PAIR_SECOND the two cards of a
#: ``2=`` icon (the first names the colour, the second must match it); ANY one card of any colour.
PAIR_FIRST, PAIR_SECOND, ANY = 4, 5, 6

MAX_CHARACTERS = 64
MAX_CASTLES = 8
MAX_STANDARDS = 16
MAX_SLOTS = 8
MAX_PAIRS = 2
MAX_RESOURCES = 128
MIN_RESOURCES = 20
MIN_CHARACTERS = 8
MAX_NAME = 40


@dataclass(frozen=True)
class Character:
    """One character card."""

    id: int
    name: str
    colour: int
    slots: tuple[int, ...]
    effect: str | None
    points: int
    score: str | None


@dataclass(frozen=True)
class Castle:
    """One castle card."""

    id: int
    name: str
    advantage: str | None


@dataclass(frozen=True)
class Standard:
    """One standard: what it counts."""

    id: int
    name: str
    counts: str


@dataclass(frozen=True)
class CardSet:
    """A validated card set."""

    resources: tuple[int, ...]
    characters: tuple[Character, ...]
    castles: tuple[Castle, ...]
    standards: tuple[Standard, ...]
    king: int | None
    queen: int | None


class _Bad(Exception):
    pass


def parse_icon(icon: Any) -> list[int]:
    """The slots of one cost icon: ``1``, ``2=``, ``2G`` or ``G+O(+P...)``."""
    if not isinstance(icon, str):
        raise _Bad(f"a cost icon must be a string, got {icon!r}")
    if icon == "1":
        return [ANY]
    if icon == "2=":
        return [PAIR_FIRST, PAIR_SECOND]
    if len(icon) == 2 and icon[0] == "2" and icon[1] in COLOURS:
        c = COLOURS.index(icon[1])
        return [c, c]
    letters = icon.split("+")
    if all(len(x) == 1 and x in COLOURS for x in letters) and len(set(letters)) == len(letters):
        return [COLOURS.index(x) for x in letters]
    raise _Bad(f"unknown cost icon {icon!r} (use 1, 2=, 2G or G+O+P with colours {COLOURS})")


def _int(v: Any, what: str, lo: int, hi: int) -> int:
    if type(v) is not int or not lo <= v <= hi:
        raise _Bad(f"{what} must be an integer from {lo} to {hi}, got {v!r}")
    return v


def _name(v: Any, what: str) -> str:
    ok = (
        isinstance(v, str) and 0 < len(v) <= MAX_NAME and all(" " <= ch <= "~" for ch in v) and " ".join(v.split()) == v
    )
    if not ok:
        raise _Bad(f"{what} must be 1 to {MAX_NAME} printable ASCII characters, single-spaced, got {v!r}")
    return str(v)


def _object(v: Any, what: str, keys: tuple[str, ...], required: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise _Bad(f"{what} must be an object, got {v!r}")
    for k in v:
        if k not in keys:
            raise _Bad(f"{what} has an unknown field {k!r} (fields: {', '.join(keys)})")
    for k in required:
        if k not in v:
            raise _Bad(f"{what} has no field {k!r}")
    return v


def _code(v: Any, what: str, codes: tuple[str, ...], nullable: bool) -> str | None:
    if v is None and nullable:
        return None
    if v not in codes or type(v) is not str:
        raise _Bad(f"{what} must be {'null or ' if nullable else ''}one of {', '.join(codes)}, got {v!r}")
    return str(v)


def _list(v: Any, what: str, lo: int, hi: int) -> list[Any]:
    if not isinstance(v, list) or not lo <= len(v) <= hi:
        raise _Bad(f"{what} must be a list of {lo} to {hi} entries")
    return v


def _unique(items: list[Any], what: str) -> None:
    ids, names = set(), set()
    for it in items:
        if it.id in ids:
            raise _Bad(f"{what}: id {it.id} appears twice")
        if it.name.lower() in names:
            raise _Bad(f"{what}: name {it.name!r} appears twice")
        ids.add(it.id)
        names.add(it.name.lower())


def _character(v: Any, i: int) -> Character:
    what = f"characters[{i}]"
    keys = ("id", "name", "colour", "cost", "effect", "points", "score")
    c = _object(v, what, keys, ("id", "name", "colour", "cost", "points"))
    cid = _int(c["id"], f"{what}.id", 0, 2**32 - 1)
    name = _name(c["name"], f"{what}.name")
    colour = _code(c["colour"], f"{what}.colour", CHAR_COLOURS, False)
    icons = _list(c["cost"], f"{what}.cost", 1, MAX_SLOTS)
    slots: list[int] = []
    for icon in icons:
        try:
            slots += parse_icon(icon)
        except _Bad as e:
            raise _Bad(f"{what}.cost: {e}") from None
    if len(slots) > MAX_SLOTS or slots.count(PAIR_FIRST) > MAX_PAIRS:
        raise _Bad(f"{what}.cost may need at most {MAX_SLOTS} cards and {MAX_PAIRS} '2=' icons")
    return Character(
        cid,
        name,
        CHAR_COLOURS.index(str(colour)),
        tuple(slots),
        _code(c.get("effect"), f"{what}.effect", EFFECTS, True),
        _int(c["points"], f"{what}.points", -100, 100),
        _code(c.get("score"), f"{what}.score", SCORE_ICONS, True),
    )


def _parse(data: Any, players: int) -> CardSet:
    keys = ("resources", "king", "queen", "characters", "castles", "standards")
    d = _object(data, "the card set", keys, ("resources", "characters", "castles", "standards"))
    res = _object(d["resources"], "resources", KIND_NAMES, ())
    resources = tuple(_int(res.get(k, 0), f"resources[{k!r}]", 0, MAX_RESOURCES) for k in KIND_NAMES)
    if not MIN_RESOURCES <= sum(resources) <= MAX_RESOURCES:
        raise _Bad(f"resources must hold {MIN_RESOURCES} to {MAX_RESOURCES} cards in all, not {sum(resources)}")
    chars = [_character(c, i) for i, c in enumerate(_list(d["characters"], "characters", 0, MAX_CHARACTERS))]
    if len(chars) < MIN_CHARACTERS:
        raise _Bad(f"characters must be a list of {MIN_CHARACTERS} to {MAX_CHARACTERS} entries")
    _unique(chars, "characters")
    castles = []
    for i, v in enumerate(_list(d["castles"], "castles", 1, MAX_CASTLES)):
        c = _object(v, f"castles[{i}]", ("id", "name", "advantage"), ("id", "name"))
        castles.append(
            Castle(
                _int(c["id"], f"castles[{i}].id", 0, 2**32 - 1),
                _name(c["name"], f"castles[{i}].name"),
                _code(c.get("advantage"), f"castles[{i}].advantage", ADVANTAGES, True),
            )
        )
    _unique(castles, "castles")
    if len(castles) < players:
        raise _Bad(f"castles must hold at least one castle per player ({players})")
    standards = []
    for i, v in enumerate(_list(d["standards"], "standards", 1, MAX_STANDARDS)):
        s = _object(v, f"standards[{i}]", ("id", "name", "counts"), ("id", "name", "counts"))
        standards.append(
            Standard(
                _int(s["id"], f"standards[{i}].id", 0, 2**32 - 1),
                _name(s["name"], f"standards[{i}].name"),
                str(_code(s["counts"], f"standards[{i}].counts", CONDITIONS, False)),
            )
        )
    _unique(standards, "standards")
    if len(standards) < players + 1:
        raise _Bad(f"standards must hold at least players + 1 ({players + 1}) standards")
    ids = [c.id for c in chars]
    royals = []
    for key in ("king", "queen"):
        v = d.get(key)
        if v is not None and (type(v) is not int or v not in ids):
            raise _Bad(f"{key} must be null or the id of a character, got {v!r}")
        royals.append(None if v is None else ids.index(v))
    return CardSet(resources, tuple(chars), tuple(castles), tuple(standards), royals[0], royals[1])


def parse_card_set(data: Any, players: int) -> CardSet:
    """Validates a card set given as JSON data; raises ``InvalidOptionError`` saying what is wrong."""
    try:
        return _parse(data, players)
    except _Bad as e:
        raise InvalidOptionError(f"regnum: option 'card_set' is not a valid card set: {e}") from None


def default_card_set_data() -> Any:
    """The default card set's JSON data."""
    return json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))


def card_set_for(options: dict[str, Any] | None, players: int | None = None) -> CardSet:
    """The card set in force with a game's ``options`` (the default set unless ``card_set`` is
    given), validated for ``players`` (default: the options' ``players``, else 2); cached."""
    options = options or {}
    data = options.get("card_set")
    seats = int(options.get("players", 2)) if players is None else players
    return _parsed(None if data is None else json.dumps(data, sort_keys=True), seats)


@cache
def _parsed(data: str | None, players: int) -> CardSet:
    return parse_card_set(default_card_set_data() if data is None else json.loads(data), players)


# -- scoring: realms are lists of character indices (into ``CardSet.characters``) ----------


def tally(cards: CardSet, realm: Sequence[int], hand: int) -> dict[str, int]:
    """What the standards count in one realm and a hand of ``hand`` cards (and ``JESTERS``)."""
    colours = [0, 0, 0]
    wizards = effects = jesters = 0
    for c in realm:
        ch = cards.characters[c]
        colours[ch.colour] += 1
        wizards += ch.score == "W"
        jesters += ch.score == "J"
        effects += ch.effect is not None
    return {
        "BLUE": colours[0],
        "RED": colours[1],
        "YELLOW": colours[2],
        "INHABITANTS": len(realm),
        "HAND": hand,
        "WIZARDS": wizards,
        "EFFECTS": effects,
        "FEWEST_COLOUR": min(colours),
        "JESTERS": jesters,
    }


def standard_winners(
    cards: CardSet,
    realms: Sequence[Sequence[int]],
    hands: Sequence[int],
    advantages: Sequence[str | None],
    standards: Sequence[int],
) -> list[tuple[int, list[int]]]:
    """Each standard in play (indices into ``CardSet.standards``) with the seats that win it."""
    players = len(realms)
    tallies = [tally(cards, realms[p], hands[p]) for p in range(players)]
    out = []
    for i in standards:
        key = cards.standards[i].counts
        values = [t[key] for t in tallies]
        best = max(values)
        tied = [p for p in range(players) if values[p] == best] if best >= 1 else []
        if len(tied) > 1:
            tied = [p for p in tied if advantages[p] == "MONTREAUX"]
        out.append((i, tied))
    return out


def score_parts(
    cards: CardSet,
    realms: Sequence[Sequence[int]],
    hands: Sequence[int],
    advantages: Sequence[str | None],
    standards: Sequence[int],
) -> list[dict[str, int]]:
    """Each seat's points in parts: ``characters`` (printed points and score icons),
    ``wizards``, ``jesters`` (the bonus for most Jesters) and ``standards``. ``hands``: cards
    in hand, ``advantages``: each castle's advantage, ``standards``: those in play."""
    n = len(realms)
    tallies = [tally(cards, realms[p], hands[p]) for p in range(n)]
    king, queen = cards.king, cards.queen
    parts = []
    for p in range(n):
        t = tallies[p]
        has_king = king is not None and king in realms[p]
        has_queen = queen is not None and queen in realms[p]
        total = 0
        for c in realms[p]:
            ch = cards.characters[c]
            total += ch.points
            icon = ch.score
            if icon in ("+1K", "+2K") and has_king:
                total += 1 if icon == "+1K" else 2
            elif icon in ("+1Q", "+2Q") and has_queen:
                total += 1 if icon == "+1Q" else 2
            elif icon == "B+":
                total += t["BLUE"]
            elif icon == "R+":
                total += t["RED"]
            elif icon == "Yl+":
                total += t["YELLOW"]
        jesters = JESTER_BONUS if all(t["JESTERS"] > tallies[o]["JESTERS"] for o in range(n) if o != p) else 0
        wizards = WIZARD_POINTS[min(t["WIZARDS"], len(WIZARD_POINTS) - 1)]
        parts.append({"characters": total, "wizards": wizards, "jesters": jesters, "standards": 0})
    for _, winners in standard_winners(cards, realms, hands, advantages, standards):
        for p in winners:
            parts[p]["standards"] += BANNERHOLD_POINTS if advantages[p] == "BANNERHOLD" else STANDARD_POINTS
    return parts
