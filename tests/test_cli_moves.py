"""Reading moves typed at the prompt: labels, names, forgiving spellings, clear refusals."""

from __future__ import annotations

from typing import Any

import pytest

import regalia
from regalia.table.menu import move_menu
from regalia.table.moves import MoveList, MoveRefused, card_initials, has_numeric_names, normalize


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


def duell_view(seed: int = 3, moves: int = 4) -> Any:
    """Seat to move's view of a Duell der Drachen game after a few random moves."""
    import random

    from regalia.agents import view_of

    state = regalia.make("duell-der-drachen").new_state(seed)
    pick = random.Random(seed)
    for _ in range(moves):
        state.apply(pick.choice(state.legal_actions()))
    return view_of(state, state.current_player, "duell-der-drachen", {})


def test_duell_is_listed_by_card_and_every_move_is_reached_exactly_once() -> None:
    for seed in range(4):
        view = duell_view(seed, moves=2 * seed)
        listed = move_menu(view, letters=False)
        assert [e.title for e in listed.entries] == view.observation["hand"]
        reached = []
        for label, entry in zip(listed.labels, listed.entries):
            for words, action in entry.choices.items():
                assert listed.read(f"{label} {words}") == action
                reached.append(action)
                name = view.action_name(action)
                assert name.startswith(entry.title) and ("face up" in name) == (words == "up")
        assert sorted(reached) == sorted(view.legal_actions)
        assert len(listed.cells()) == len(view.observation["hand"]) < len(view.legal_actions)


def test_duell_reads_the_card_then_up_or_down_in_every_spelling() -> None:
    view = duell_view()
    listed = move_menu(view, letters=False)
    card = listed.entries[1].title
    colour, value = card.split()
    up = view.legal_actions[view.action_names.index(f"{card} face up")]
    down = view.legal_actions[view.action_names.index(f"{card} face down on red")]
    for text in ("2 up", "2 u", f"{card} up", f"{colour[0]}{value} up", f"{card} face up"):
        assert listed.read(text) == up, text
    for text in ("2 down red", "2 d r", "2 red", f"{card} down red", f"{colour[0]}{value} down red"):
        assert listed.read(text) == down, text
    assert listed.read(f"{colour[0]}{value} face down on red") == down
    asked: list[str] = []

    def answer(text: str) -> Any:
        return lambda question, prompt: asked.append(f"{question} / {prompt}") or text

    assert listed.read("2", ask=answer("down red")) == down
    assert listed.read("2", ask=answer("1")) == up  # its first choice, as listed
    assert asked[0].startswith(f"{card}: 1) up, or down on 2) red ") and asked[0].endswith(f" / {card}> ")
    for text, typed, reason in [("2", "", "no move chosen"), ("2", "sideways", "cannot go"), ("9", "", "no 9")]:
        with pytest.raises(MoveRefused, match=reason):
            listed.read(text, ask=answer(typed))


def test_other_games_are_listed_move_by_move() -> None:
    state = regalia.make("duo").new_state(1)
    from regalia.agents import view_of

    view = view_of(state, state.current_player, "duo", {})
    listed = move_menu(view, letters=False)
    assert [e.title for e in listed.entries] == view.action_names
    assert [listed.read(label) for label in listed.labels] == view.legal_actions


def test_any_text_in_duell_is_a_legal_move_or_refused() -> None:
    import random

    view = duell_view()
    listed = move_menu(view, letters=False)
    words = ["1", "2", "9", "up", "down", "d", "u", "red", "blue", "b", "face", "on", "quit", "", "7", "x", "?"]
    pick = random.Random(0)
    for _ in range(2000):
        text = " ".join(pick.choice(words) for _ in range(pick.randint(0, 4)))
        answer = " ".join(pick.choice(words) for _ in range(pick.randint(0, 2)))
        try:
            action = listed.read(text, view_parse(view), ask=lambda q, p, a=answer: a)
        except MoveRefused:
            continue
        assert action in view.legal_actions, text


def view_parse(view: Any) -> Any:
    """The game's own ``parse_action`` (as the prompt gets it)."""
    return regalia.make(view.game).new_state(0).parse_action


def test_duell_without_face_down_plays_left_lists_face_up_cards_only() -> None:
    from dataclasses import replace

    view = duell_view()
    up_only = [a for a in view.legal_actions if view.action_info(a)["face_up"]]
    names = [view.action_name(a) for a in up_only]
    listed = move_menu(replace(view, legal_actions=up_only, action_names=names), letters=False)
    assert all(e.note == "up" and len(e.choices) == 1 for e in listed.entries)
    assert [listed.read(label) for label in listed.labels] == up_only
    assert not any("down" in line for line in listed.footer)
