"""What ``State.action_info(action)`` returns in each game, as typed dictionaries.

An action id is a number; its info says what it means: a ``"kind"`` (what is decided) and
the fields that kind carries (the card by name, as the observations name it, a seat or a
table slot by index, a pile or territory by name). The action's name is made from the same
decoding, on both backends, so the two always agree; read the info instead of parsing names::

    from typing import cast
    from regalia.core.actions import RegineActionInfo

    info = cast(RegineActionInfo, state.action_info(73))
    if info["kind"] == "name_seat":
        info["effect"], info["seat"]     # "knight", 0

Any id in range (``0..num_actions``), legal now or not, has an info; an id out of range
raises ``IllegalActionError``. The info describes the id, from what every seat sees (the
Regnum line-up's character in a buy, the phase that makes a character id an exchange or a
removal), never from hidden cards. ``ACTION_INFOS`` maps each game id to its type (a union
of one class per kind); ``tests/test_action_info.py`` checks every legal action's info along
played games, on both backends.
"""

from __future__ import annotations

from typing import Literal, TypedDict

__all__ = [
    "ACTION_INFOS",
    "DuellDerDrachenActionInfo",
    "DuellDraw",
    "DuellPlay",
    "DuoActionInfo",
    "DuoDraw",
    "DuoEndTurn",
    "DuoPlay",
    "DuoTake",
    "DuoRegnaActionInfo",
    "DuoRegnaDragon",
    "DuoRegnaPlay",
    "RegineActionInfo",
    "RegineCardChoice",
    "RegineDraw",
    "RegineExchange",
    "RegineHerald",
    "RegineHeraldTop",
    "RegineKnightLoss",
    "RegineNameSeat",
    "RegineOnly",
    "ReginePlay",
    "RegineTargetCard",
    "RegnumActionInfo",
    "RegnumBuy",
    "RegnumCard",
    "RegnumCastle",
    "RegnumCharacter",
    "RegnumDrawn",
    "RegnumFirstDiscard",
    "RegnumOnly",
    "RegnumPay",
    "RegnumReveal",
    "RegnumStandard",
    "RegnumSteal",
]


class DuoRegnaPlay(TypedDict):
    """Duo Regna: action ``c`` plays card ``c`` (seat 0 commits it face down, seat 1 shows it)."""

    kind: Literal["play"]
    #: The card's name, as in the observation's hand ("X", "0" ... "6 queen").
    card: str


class DuoRegnaDragon(TypedDict):
    """Duo Regna with explicit chance: at a chance node, outcome ``d`` reveals a dragon card
    showing ``d + 1`` dragons."""

    kind: Literal["dragon"]
    #: Dragons the card shows (1 or 2).
    dragons: int


DuoRegnaActionInfo = DuoRegnaPlay | DuoRegnaDragon


class DuoPlay(TypedDict):
    """Duo: a card from hand onto a pile."""

    kind: Literal["play"]
    card: str
    #: "left" or "right".
    pile: str


class DuoDraw(TypedDict):
    """Duo: draw a card (nothing fitted)."""

    kind: Literal["draw"]


class DuoEndTurn(TypedDict):
    """Duo: end a turn in which cards were played."""

    kind: Literal["end_turn"]


class DuoTake(TypedDict):
    """Duo with explicit chance: at a chance node, outcome ``c`` takes card ``c`` from the draw
    pile for a seat's hand or turns it onto a pile at the deal."""

    kind: Literal["take"]
    #: The card's name (Turbo-Jokers numbered: "turbo-joker 1" to "turbo-joker 4").
    card: str
    #: The seat whose hand it goes to (None: a pile).
    seat: int | None
    #: "left" or "right" at the deal (None: a hand).
    pile: str | None


DuoActionInfo = DuoPlay | DuoDraw | DuoEndTurn | DuoTake


class DuellPlay(TypedDict):
    """Duell der Drachen: a card from hand to a territory."""

    kind: Literal["play"]
    #: "<colour> <value>".
    card: str
    #: The territory's colour (a card face up goes to its own colour's).
    territory: str
    face_up: bool


class DuellDraw(TypedDict):
    """Duell der Drachen with explicit chance: at a chance node, outcome ``c`` deals card ``c``
    to a seat's hand or draws it for a display place."""

    kind: Literal["draw"]
    #: "<colour> <value>".
    card: str
    #: The seat it is dealt to (None: the display).
    seat: int | None
    #: The colour of the territory whose display place it fills (None: a hand).
    display: str | None


DuellDerDrachenActionInfo = DuellPlay | DuellDraw


class RegineOnly(TypedDict):
    """Regine: a decision that chooses nothing but itself."""

    kind: Literal[
        "confirm_exchange", "no_changes", "end_turn", "pass", "mine", "double_down", "all_yours", "we_shall_see"
    ]


class ReginePlay(TypedDict):
    """Regine: a card from hand to the table (face up, its effect fires)."""

    kind: Literal["play"]
    card: str
    face_up: bool


class RegineExchange(TypedDict):
    """Regine: mark a card of the hand for the exchange."""

    kind: Literal["exchange"]
    card: str


class RegineNameSeat(TypedDict):
    """Regine: a Peasant or Knight names an opponent."""

    kind: Literal["name_seat"]
    effect: Literal["peasant", "knight"]
    seat: int


class RegineTargetCard(TypedDict):
    """Regine: an Assassin eliminates, or a Courtesan turns face up, a card on the table."""

    kind: Literal["target_card"]
    effect: Literal["assassin", "courtesan"]
    #: Whose table, and the slot in it (the observation's ``table[seat][slot]``).
    seat: int
    slot: int


class RegineCardChoice(TypedDict):
    """Regine: the named seat shows a card for a Peasant, or a Princess's owner discards one."""

    kind: Literal["show_card", "discard"]
    effect: Literal["peasant", "princess"]
    card: str


class RegineHerald(TypedDict):
    """Regine: the Herald's owner takes the deck's top card or puts it at the bottom."""

    kind: Literal["herald"]
    effect: Literal["herald"]
    take: bool


class RegineDraw(TypedDict):
    """Regine with explicit chance: at a chance node, outcome ``k`` gives a seat a card of kind
    ``k`` from the deck (the deal, an exchange, a card replaced)."""

    kind: Literal["draw"]
    card: str
    #: The seat that draws it.
    seat: int


class RegineHeraldTop(TypedDict):
    """Regine with explicit chance: at a chance node, outcome ``k`` is the deck's top card, of
    kind ``k``, which the Herald's owner looks at."""

    kind: Literal["herald_top"]
    card: str


class RegineKnightLoss(TypedDict):
    """Regine with explicit chance: at a chance node, outcome ``k`` is the card of kind ``k``
    the Knight's victim loses at random."""

    kind: Literal["knight_loss"]
    card: str
    #: The victim.
    seat: int


RegineActionInfo = (
    RegineOnly
    | ReginePlay
    | RegineExchange
    | RegineNameSeat
    | RegineTargetCard
    | RegineCardChoice
    | RegineHerald
    | RegineDraw
    | RegineHeraldTop
    | RegineKnightLoss
)


class RegnumOnly(TypedDict):
    """Regnum: a decision that chooses nothing but itself."""

    kind: Literal["draw_two", "take_discard", "end_turn"]


class RegnumBuy(TypedDict):
    """Regnum: buy the character in a line-up slot."""

    kind: Literal["buy"]
    #: The line-up slot from 0 (the observation's ``lineup[slot]``; the name counts from 1).
    slot: int
    #: The character there, None for an empty slot.
    character: str | None


class RegnumPay(TypedDict):
    """Regnum: pay the current payment slot with a resource card as a colour."""

    kind: Literal["pay"]
    #: The resource card's kind ("G" ... "P/Y").
    card: str
    #: The colour it pays as ("G", "O", "P" or "Y").
    colour: str
    #: Whether it pays as a colour it does not show.
    wild: bool


class RegnumCard(TypedDict):
    """Regnum: discard a resource card, take one from the discard pile (salvage) or the deck,
    or give one to the deck."""

    kind: Literal["discard", "salvage", "take_from_deck", "give_to_deck"]
    card: str


class RegnumSteal(TypedDict):
    """Regnum: steal a random resource card from a seat."""

    kind: Literal["steal"]
    seat: int


class RegnumCharacter(TypedDict):
    """Regnum: exchange the character just bought for one in a realm, or remove one
    (``"target"``: a character id where no effect waits for one, never legal)."""

    kind: Literal["exchange_for", "remove", "target"]
    character: str


class RegnumCastle(TypedDict):
    """Regnum with explicit chance: at a setup chance node, outcome ``c`` gives castle ``c``
    to a seat."""

    kind: Literal["castle"]
    castle: str
    seat: int


class RegnumStandard(TypedDict):
    """Regnum with explicit chance: at a setup chance node, outcome ``i`` puts standard ``i``
    in play."""

    kind: Literal["standard"]
    standard: str


class RegnumReveal(TypedDict):
    """Regnum with explicit chance: outcome ``c`` turns character ``c`` up into a line-up slot
    (at the setup or at the end of a turn)."""

    kind: Literal["reveal"]
    character: str
    #: The line-up slot from 0 (the name counts from 1).
    slot: int


class RegnumDrawn(TypedDict):
    """Regnum with explicit chance: outcome ``k`` is a resource card of kind ``k`` drawn blind
    for a seat (``"blind"``, dealt or drawn) or taken at random from a seat's hand by STEAL
    (``"stolen"``, ``seat`` the seat robbed)."""

    kind: Literal["blind", "stolen"]
    card: str
    seat: int


class RegnumFirstDiscard(TypedDict):
    """Regnum with explicit chance: outcome ``k`` turns a card of kind ``k`` up as the first
    discard."""

    kind: Literal["first_discard"]
    card: str


RegnumActionInfo = (
    RegnumOnly
    | RegnumBuy
    | RegnumPay
    | RegnumCard
    | RegnumSteal
    | RegnumCharacter
    | RegnumCastle
    | RegnumStandard
    | RegnumReveal
    | RegnumDrawn
    | RegnumFirstDiscard
)

#: Each game's action info type, by game id.
ACTION_INFOS: dict[str, object] = {
    "duo-regna": DuoRegnaActionInfo,
    "duo": DuoActionInfo,
    "duell-der-drachen": DuellDerDrachenActionInfo,
    "regine": RegineActionInfo,
    "regnum": RegnumActionInfo,
}
