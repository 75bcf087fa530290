"""Reading moves typed at the prompt: labels, names, forgiving spellings, clear refusals."""

from __future__ import annotations

from typing import Any

import pytest

import regalia
from regalia.cli.moves import MoveList, MoveRefused, card_initials, has_numeric_names, normalize


def first_moves() -> tuple[MoveList, Any]:
    state = regalia.make("duo-regna").new_state(1)
    legal = state.legal_actions()
    letters = has_numeric_names(state.action_name, 9)
    return MoveList(legal, [state.action_name(a) for a in legal], letters), state


def test_numeric_names_get_letter_labels_so_a_digit_means_the_card() -> None:
    moves, state = first_moves()
    assert moves.labels == list("abcdefghi")
    assert state.action_name(moves.read("5")) == "5"
    assert state.action_name(moves.read("c")) == "1"


def test_letters_stay_when_no_number_is_left_in_the_hand() -> None:
    moves = MoveList([7, 8], ["6 king", "6 queen"], letters=True)
    assert moves.labels == ["a", "b"] and moves.read("b") == 8


def test_a_game_without_numeric_names_is_numbered() -> None:
    assert not has_numeric_names(lambda a: ["draw", "play red 3", "end turn"][a], 3)


def test_word_names_get_number_labels() -> None:
    moves = MoveList([10, 11, 12], ["draw a card", "play red 3", "end turn"])
    assert moves.labels == ["1", "2", "3"]
    assert moves.read("2") == 11
    assert moves.read("  END-turn ") == 12
    assert moves.read("red") == 11
    assert moves.read("dr") == 10


@pytest.mark.parametrize(
    ("text", "name"),
    [("Queen", "6 queen"), ("6-KING", "6 king"), ("6 q", "6 queen"), ("x", "X"), ("k", "6 king")],
)
def test_forgiving_spellings(text: str, name: str) -> None:
    moves, state = first_moves()
    assert state.action_name(moves.read(text, state.parse_action)) == name


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("6", "could be '6 king' or '6 queen'"),
        ("7", "there is no move '7': choose a to i"),
        ("quen", "Did you mean '6 queen'?"),
        ("", "type a move's label"),
        ("castle", "'castle' is not a move here"),
    ],
)
def test_refusals_say_why(text: str, reason: str) -> None:
    moves, state = first_moves()
    with pytest.raises(MoveRefused, match=reason.replace("?", r"\?")):
        moves.read(text, state.parse_action)


def test_a_known_move_that_is_not_legal_now_is_refused_as_such() -> None:
    state = regalia.make("duo-regna").new_state(1)
    state.apply(state.parse_action("5"))
    state.apply(state.parse_action("2"))
    legal = state.legal_actions()
    moves = MoveList(legal, [state.action_name(a) for a in legal], letters=True)
    with pytest.raises(MoveRefused, match="'5' is not allowed now"):
        moves.read("5", state.parse_action)


def test_normalize() -> None:
    assert normalize("  6-King!! ") == "6 king"


def duell_moves() -> tuple[MoveList, Any]:
    state = regalia.make("duell-der-drachen").new_state(1)
    legal = state.legal_actions()
    return MoveList(legal, [state.action_name(a) for a in legal]), state


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("G6 up", "green 6 face up"),
        ("y9 face up", "yellow 9 face up"),
        ("W3 down white", "white 3 face down on white"),
        ("g7 down b", "green 7 face down on blue"),
    ],
)
def test_the_boards_short_card_labels_are_read(text: str, name: str) -> None:
    moves, state = duell_moves()
    assert state.action_name(moves.read(text, state.parse_action)) == name


def test_a_short_card_label_alone_is_ambiguous_and_a_long_list_is_cut_short() -> None:
    moves, state = duell_moves()
    with pytest.raises(MoveRefused, match=r"'G6' could be 'green 6 face up', 'green 6 face down on red' or 4 more:"):
        moves.read("G6", state.parse_action)


def test_card_initials() -> None:
    assert card_initials("Green 6 face down on red") == "g6 face down on red"
    assert card_initials("6 queen") == "6 queen"
