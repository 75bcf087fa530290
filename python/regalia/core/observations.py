"""What ``State.observation(seat)`` returns in each game, as typed dictionaries.

An observation is plain JSON data: exactly what that seat may know, and nothing else. These
``TypedDict`` classes name every key and its type, so that code reading observations (the
boards in ``regalia.views.render``, agents, your own scripts) is checked by a type checker::

    from typing import cast
    from regalia.core.observations import DuoRegnaObservation

    obs = cast(DuoRegnaObservation, state.observation(0))
    obs["dragons_in_pile"]          # int

``OBSERVATIONS`` maps each game id to its class; ``tests/test_observations.py`` checks every
key and value along played games, on both backends.
"""

from __future__ import annotations

from typing import TypedDict

__all__ = [
    "OBSERVATIONS",
    "DuellDerDrachenObservation",
    "DuellTerritory",
    "DuoLastRound",
    "DuoObservation",
    "DuoRegnaObservation",
    "RegineObservation",
    "RegineTableCard",
    "RegnumObservation",
]


class DuoRegnaObservation(TypedDict):
    """Duo Regna: both hands are public by card counting; only a pending choice is hidden."""

    seat: int
    current_player: int | None
    terminal: bool
    round: int
    hand: list[str]
    opponent_hand: list[str]
    #: Seat 0's own pending card (None for seat 1 and before seat 0 chooses).
    my_choice: str | None
    #: Whether seat 0 has chosen this round.
    committed: bool
    #: Value (1 or 2) of the dragon in play, None when there is none.
    dragon: int | None
    #: The seat on whose side the dragon lies, None for the centre.
    dragon_side: int | None
    dragons_in_pile: int
    captured: list[int]
    #: The two cards of the last reveal, seat 0's first.
    last_reveal: list[str] | None


class DuoLastRound(TypedDict):
    """How the last round of Duo ended."""

    winner: int | None
    points: list[int]


class DuoObservation(TypedDict):
    """Duo: the seat's hand, the two piles, the hand sizes and the scores."""

    seat: int
    current_player: int | None
    terminal: bool
    round: int
    first_player: int
    target: int
    scores: list[int]
    hand: list[str]
    hand_sizes: list[int]
    draw_pile: int
    #: Each pile's top card (None only while the deal of explicit chance has not turned it).
    pile_tops: list[str | None]
    pile_cards: list[list[str]]
    #: The pile chosen this turn (None before a pile is chosen).
    turn_pile: str | None
    turn_cards: list[str]
    last_round: DuoLastRound | None


class DuellTerritory(TypedDict):
    """One territory of Duell der Drachen, as the viewer sees it."""

    colour: str
    #: The display card beside it (None once the deck could not replace it).
    display: str | None
    #: The seat the marker stands with, None in the middle.
    marker: int | None
    #: Face-up strength of each side.
    strength: list[int]
    #: Each side's face-up cards.
    face_up: list[list[str]]
    #: Each side's face-down cards, ``"hidden"`` where the viewer may not see them.
    face_down: list[list[str]]


class DuellDerDrachenObservation(TypedDict):
    """Duell der Drachen: the board, the viewer's hand and the cards it knows."""

    seat: int
    current_player: int | None
    terminal: bool
    hand: list[str]
    hand_sizes: list[int]
    deck: int
    territories: list[DuellTerritory]
    #: Per seat, the cards it took from the display and has not played face up.
    known_cards: list[list[str]]
    #: The opponent's hand, shown once the game is over (else None).
    opponent_hand: list[str] | None
    #: Whether the board was full and counted.
    final_count: bool
    winner: int | None


class RegineTableCard(TypedDict):
    """A card on the table in Regine: its name, or None for a face-down card hidden from the viewer."""

    card: str | None
    face_up: bool


class RegineObservation(TypedDict):
    """Regine: the viewer's hand, the table, the Suit and the bets."""

    seat: int
    current_player: int | None
    terminal: bool
    #: Rounds completed.
    round: int
    dealer: int
    #: ``build``, ``wager`` or ``over``.
    phase: str
    #: What the current player decides (``turn``, ``exchange``, ``bet``, ...; None once over).
    decision: str | None
    turn: int | None
    target: int
    scores: list[int]
    hand: list[str]
    hand_sizes: list[int]
    table: list[list[RegineTableCard]]
    deck_size: int
    discard_size: int
    marked: list[str]
    marked_count: int
    herald_card: str | None
    exchanged: bool
    played: bool
    changed: bool
    no_changes: bool
    passes: int
    suit: str | None
    suit_turns: int
    bets: list[list[int]]
    double_down: list[int | None]
    suit_winners: list[int | None]
    suit_points: list[int]
    last_combinations: list[list[str]] | None


class RegnumObservation(TypedDict):
    """Regnum: the line-up, the realms, the viewer's hand and the turn in progress."""

    seat: int
    current_player: int | None
    terminal: bool
    turn: int
    active: int
    phase: str
    #: Each seat's castle (None while the explicit setup has not given it yet).
    castles: list[str | None]
    standards: list[str]
    lineup: list[str | None]
    realms: list[list[str]]
    scores: list[int]
    hand: list[str]
    hand_sizes: list[int]
    #: Per seat, the cards the viewer knows to be in that hand (empty for its own).
    known: list[list[str]]
    #: The discard pile, bottom first.
    discard: list[str]
    resource_deck: int
    character_deck: int
    #: Characters that left the game.
    gone: list[str]
    bought: int
    final_turns: int | None
    #: The character being paid for, its cost and the payment step.
    character: str | None
    cost: list[str] | None
    pay_step: int | None
    pair_colour: str | None
    wild_used: bool
    #: The resource deck's cards, shown only to the player looking through it for SWAP.
    deck_cards: list[str] | None


#: Each game's observation class, by game id.
OBSERVATIONS: dict[str, type] = {
    "duo-regna": DuoRegnaObservation,
    "duo": DuoObservation,
    "duell-der-drachen": DuellDerDrachenObservation,
    "regine": RegineObservation,
    "regnum": RegnumObservation,
}
