"""Duo Regna's rules through the public API, on both backends, from the rulebook's text."""

from __future__ import annotations

import json
from typing import Any

import pytest

import regalia
from regalia.core.errors import IllegalActionError, InvalidStateError
from regalia.core.outcome import Outcome

NAMES = ["X", "0", "1", "2", "3", "4", "5", "6 king", "6 queen"]


def value(name: str) -> int | None:
    return None if name == "X" else int(name[0])


def expected_winner(a: str, b: str) -> int | None:
    """The rulebook's comparison, restated independently of both implementations."""
    va, vb = value(a), value(b)
    if va is None or vb is None or va == vb:
        return None  # a shield, or equal cards: nothing happens
    if 4 in (va, vb):  # the Bishop: the lower card wins (the Jester is lower too)
        return 0 if va < vb else 1
    if 0 in (va, vb):  # the Jester beats a 6, loses to anything else
        jester = 0 if va == 0 else 1
        other = vb if va == 0 else va
        return jester if other == 6 else 1 - jester
    return 0 if va > vb else 1


def play_round(state: Any, a: str, b: str) -> None:
    state.apply(state.parse_action(a))
    state.apply(state.parse_action(b))


@pytest.mark.parametrize("a", NAMES)
@pytest.mark.parametrize("b", NAMES)
def test_every_pair_of_cards(backend: str, a: str, b: str) -> None:
    state = regalia.make("duo-regna", backend=backend).new_state(0)  # type: ignore[arg-type]
    play_round(state, a, b)
    side = state.observation(0)["dragon_side"]
    assert side == expected_winner(a, b)
    assert state.observation(0)["last_reveal"] == [a, b]


def test_rulebook_examples_jester_and_bishop(backend: str) -> None:
    game = regalia.make("duo-regna", backend=backend)  # type: ignore[arg-type]
    cases = [("0", "6 king", 0), ("0", "4", 0), ("0", "5", 1), ("4", "1", 1), ("4", "6 queen", 0), ("4", "4", None)]
    for a, b, winner in cases:
        s = game.new_state(0)
        play_round(s, a, b)
        assert s.observation(1)["dragon_side"] == winner, (a, b)


def test_dragon_walks_and_is_captured_from_own_side(backend: str) -> None:
    s = regalia.make("duo-regna", backend=backend).new_state(2)  # type: ignore[arg-type]
    first = s.observation(0)["dragon"]
    play_round(s, "1", "2")  # seat 1 wins: centre -> seat 1's side
    assert s.observation(0)["dragon_side"] == 1
    play_round(s, "3", "1")  # seat 0 wins: seat 1's side -> centre
    assert s.observation(0)["dragon_side"] is None
    play_round(s, "5", "3")  # seat 0: centre -> seat 0's side
    assert s.observation(0)["dragon_side"] == 0
    pile = s.observation(0)["dragons_in_pile"]
    play_round(s, "6 king", "5")  # seat 0 wins on her own side: capture
    obs = s.observation(0)
    assert obs["captured"] == [first, 0]
    assert obs["dragon_side"] is None and obs["dragons_in_pile"] == pile - 1
    assert s.scores() == [first, 0]


def test_hands_recover_after_nine_rounds(backend: str) -> None:
    s = regalia.make("duo-regna", backend=backend).new_state(3)  # type: ignore[arg-type]
    for name in NAMES[:-1]:
        play_round(s, name, name)
        assert name not in s.observation(0)["hand"]
    assert s.observation(1)["hand"] == ["6 queen"]
    play_round(s, "6 queen", "6 queen")
    assert s.observation(0)["hand"] == NAMES and s.observation(1)["hand"] == NAMES
    assert s.legal_actions() == list(range(9))


def test_a_played_card_cannot_be_played_again(backend: str) -> None:
    s = regalia.make("duo-regna", backend=backend).new_state(3)  # type: ignore[arg-type]
    play_round(s, "5", "5")
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        s.apply(s.parse_action("5"))
    assert s.to_json() == before


def test_four_dragons_end_the_game(backend: str) -> None:
    s = regalia.make("duo-regna", backend=backend, dragon_deck=[8, 0]).new_state(1)  # type: ignore[arg-type]
    hand = [("5", "3"), ("6 king", "1"), ("6 queen", "2"), ("4", "5"), ("0", "6 king"), ("1", "4")]
    for a, b in hand:  # six wins for seat 0 in a row: three dragons captured
        play_round(s, a, b)
    assert s.scores() == [3, 0]
    for a, b in [("2", "0"), ("3", "6 queen"), ("X", "X")]:  # to seat 0's side, back to the centre
        play_round(s, a, b)
    assert s.observation(0)["hand"] == NAMES and not s.is_terminal
    play_round(s, "5", "3")
    assert not s.is_terminal
    play_round(s, "6 king", "1")  # the fourth dragon
    assert s.scores() == [4, 0] and s.is_terminal
    assert s.observation(1)["dragon"] is None  # the fourth dragon left the track with its captor
    assert s.returns() == [1.0, -1.0] and s.current_player is None and s.legal_actions() == []
    assert s.outcome() == Outcome("target_reached", (0,), (4, 0))


def test_seat_one_never_sees_seat_zeros_pending_card(backend: str) -> None:
    game = regalia.make("duo-regna", backend=backend)  # type: ignore[arg-type]
    seen = set()
    for card in NAMES:
        s = game.new_state(8)
        s.apply(s.parse_action(card))
        assert s.observation(0)["my_choice"] == card
        seen.add((repr(s.observation(1)), s.observation_tensor(1).tobytes()))
    assert len(seen) == 1


def test_options_change_the_game(backend: str) -> None:
    s = regalia.make("duo-regna", backend=backend, dragon_deck=[1, 0]).new_state(0)  # type: ignore[arg-type]
    play_round(s, "5", "3")
    assert s.outcome() is None
    play_round(s, "6 king", "1")
    assert s.is_terminal and s.returns() == [1.0, -1.0]  # the pile is empty: most dragons wins
    assert s.outcome() == Outcome("dragon_pile_empty", (0,), (1, 0))
    s = regalia.make("duo-regna", backend=backend, max_rounds=2).new_state(0)  # type: ignore[arg-type]
    play_round(s, "1", "2")
    play_round(s, "X", "X")
    assert s.is_terminal and s.returns() == [-1.0, 1.0]  # tie on dragons: the dragon's side wins
    assert s.outcome() == Outcome("round_guard", (1,), (0, 0), "dragon_side")
    s = regalia.make("duo-regna", backend=backend, max_rounds=2).new_state(0)  # type: ignore[arg-type]
    play_round(s, "1", "2")
    play_round(s, "2", "1")  # back to the centre: nothing breaks the tie
    assert s.returns() == [0.0, 0.0] and s.outcome() == Outcome("round_guard", (), (0, 0))
    for bad in ({"dragon_deck": [0, 0]}, {"dragon_deck": [40, 1]}, {"max_rounds": 0}, {"players": 3}):
        with pytest.raises(regalia.InvalidOptionError):
            regalia.make("duo-regna", backend=backend, **bad)  # type: ignore[arg-type]


def test_a_pile_length_beyond_the_pile_is_refused_not_a_crash(backend: str) -> None:
    game = regalia.make("duo-regna", backend=backend)  # type: ignore[arg-type]
    env = json.loads(game.new_state(1).to_json())
    env["seed"], env["history"] = None, []
    for length in (17, 32, 33, 255):
        env["state"]["pile_len"] = length
        with pytest.raises(InvalidStateError, match="dragon pile"):
            game.state_from_json(json.dumps(env))
