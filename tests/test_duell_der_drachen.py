"""Duell der Drachen's rules through the public API, on both backends, from the rulebook's text
and the rulings. Positions are set up as saved states (no seed: nothing to replay)."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

import regalia
from regalia.core.errors import IllegalActionError, InvalidOptionError, InvalidStateError
from regalia.core.outcome import Outcome

GAME = "duell-der-drachen"
COLOURS = ["red", "blue", "green", "yellow", "white"]
VALUES = 9


def cid(name: str, values: int = VALUES) -> int:
    colour, value = name.split()
    return COLOURS.index(colour) * values + int(value) - 1


def mask(names: list[str], values: int = VALUES) -> int:
    m = 0
    for n in names:
        m |= 1 << cid(n, values)
    return m


def position(
    backend: str,
    hands: tuple[list[str], list[str]],
    board: dict[tuple[int, str], list[str]] | None = None,
    display: list[str | None] | None = None,
    deck: list[str] | None = None,
    markers: list[int | None] | None = None,
    known: tuple[list[str], list[str]] = ([], []),
    player: int = 0,
    options: dict[str, Any] | None = None,
) -> Any:
    """A saved state with exactly these cards: ``board[(seat, territory)]`` lists the cards on a
    side (``*`` marks face down); every card not placed goes to the deck when ``deck`` is None,
    else to seat 0's hand. ``options`` makes it a position of that variant (``display`` and
    ``markers`` then list the territories in play)."""
    game = regalia.make(GAME, backend=backend, **(options or {}))  # type: ignore[arg-type]
    values, territories = game.options["values"], game.options["territories"]
    env = json.loads(game.new_state(0).to_json())
    board = board or {}
    if display is None:
        display = [f"{c} 1" if t < territories else None for t, c in enumerate(COLOURS)]
    cells = [[0] * 5, [0] * 5]
    face_down = [0, 0]
    for (seat, colour), names in board.items():
        cells[seat][COLOURS.index(colour)] = mask([n.rstrip("*") for n in names], values)
        face_down[seat] |= mask([n.rstrip("*") for n in names if n.endswith("*")], values)
    hand = [mask(hands[0], values), mask(hands[1], values)]
    placed = hand[0] | hand[1] | mask([d for d in display if d], values) | sum(sum(side) for side in cells)
    rest = ((1 << (territories * values)) - 1) & ~placed
    if deck is None:
        deck_mask = rest
    else:
        deck_mask = mask(deck, values)
        hand[0] |= rest & ~deck_mask
    env["seed"] = None
    env["state"].update(
        board=cells,
        deck=deck_mask,
        display=[None if d is None else cid(d, values) for d in display] + [None] * (5 - len(display)),
        face_down=face_down,
        hands=hand,
        known=[mask(known[0], values), mask(known[1], values)],
        markers=(markers or []) + [None] * (5 - len(markers or [])),
        player=player,
    )
    return game.state_from_json(json.dumps(env))


def play(state: Any, name: str) -> None:
    state.apply(state.parse_action(name))


def names(state: Any) -> set[str]:
    return {state.action_name(a) for a in state.legal_actions()}


def test_face_up_only_on_its_colour_face_down_anywhere(backend: str) -> None:
    s = position(backend, (["red 7", "blue 2"], ["green 3"]))
    want = {"red 7 face up", "blue 2 face up"}
    want |= {f"{card} face down on {c}" for card in ("red 7", "blue 2") for c in COLOURS}
    assert names(s) == want
    assert s.legal_actions() == sorted(s.legal_actions())
    assert s.parse_action("red 7 face up") == cid("red 7")
    assert s.parse_action("red 7 face down on blue") == 45 + cid("red 7") * 5 + 1
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        play(s, "green 3 face up")  # not in seat 0's hand
    assert s.to_json() == before


def test_at_most_three_face_down_cards_per_player(backend: str) -> None:
    board = {(0, "blue"): ["red 2*", "red 3*"], (1, "blue"): ["blue 5", "blue 6"]}
    s = position(backend, (["red 7", "white 4"], ["green 3", "green 4"]), board)
    assert "red 7 face down on white" in names(s)
    play(s, "white 4 face down on green")  # seat 0's third face-down card
    play(s, "green 3 face down on yellow")  # seat 0 takes yellow 1 from the display
    assert names(s) == {"red 7 face up", "yellow 1 face up"}
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        play(s, "red 7 face down on yellow")
    assert s.to_json() == before


def test_full_territories_are_refused_on_ones_own_side_only(backend: str) -> None:
    board = {
        (0, "red"): ["red 1", "red 2", "red 3"],
        (0, "blue"): ["blue 1", "blue 2", "green 9*"],
        (1, "red"): ["red 4", "red 5", "red 6"],
        (1, "green"): ["green 1", "green 2", "green 3"],
    }
    display = ["red 9", "blue 9", "green 8", "yellow 9", "white 9"]
    s = position(backend, (["red 7", "green 7"], ["yellow 1"]), board, display)
    got = names(s)
    assert "red 7 face up" not in got and "red 7 face down on red" not in got
    assert "green 7 face down on blue" not in got
    assert "green 7 face up" in got  # seat 1's full green side does not matter
    assert {"red 7 face down on green", "red 7 face down on yellow", "red 7 face down on white"} <= got
    with pytest.raises(IllegalActionError):
        s.apply(cid("red 7"))


def test_the_opponent_takes_the_display_card_and_the_deck_refills_it(backend: str) -> None:
    s = position(backend, (["red 7", "blue 2"], ["green 3"]))
    state = json.loads(s.to_json())["state"]
    deck_cards = {i for i in range(45) if state["deck"] >> i & 1}
    play(s, "red 7 face up")
    obs = s.observation(1)
    assert obs["hand"] == ["red 1", "green 3"]
    assert obs["known_cards"] == [[], ["red 1"]]
    assert s.observation(0)["known_cards"] == [[], ["red 1"]]
    new = obs["territories"][0]["display"]
    assert new is not None and cid(new) in deck_cards
    assert obs["deck"] == len(deck_cards) - 1
    assert s.observation(0)["hand"] == ["blue 2"]


def test_the_tensor_tells_which_display_card_lies_beside_which_territory(backend: str) -> None:
    """Two positions whose display cards beside red and beside blue are swapped differ in
    what playing there takes, so their observation tensors differ too (ISMCTS keys its
    nodes by the tensor; a union of the display cards made them one node)."""
    game = regalia.make("duell-der-drachen", backend=backend)  # type: ignore[arg-type]
    data = json.loads(game.new_state(1).to_json())
    data["seed"] = None
    state = game.state_from_json(json.dumps(data))
    display = data["state"]["display"]
    data["state"]["display"] = [display[1], display[0], *display[2:]]
    swapped = game.state_from_json(json.dumps(data))
    for seat in (0, 1):
        assert [t["display"] for t in swapped.observation(seat)["territories"][:2]] == [
            t["display"] for t in reversed(state.observation(seat)["territories"][:2])
        ]
        assert not np.array_equal(swapped.observation_tensor(seat), state.observation_tensor(seat))


def test_with_an_empty_deck_the_display_place_stays_empty(backend: str) -> None:
    s = position(backend, (["red 7", "blue 2"], ["red 8", "green 3"]), deck=[])
    play(s, "red 7 face up")
    obs = s.observation(0)
    assert obs["deck"] == 0 and obs["territories"][0]["display"] is None
    assert "red 1" in s.observation(1)["hand"]
    hand0 = s.observation(0)["hand"]
    play(s, "red 8 face up")  # nothing left beside red to take
    assert s.observation(0)["hand"] == hand0
    assert s.observation(0)["territories"][0]["marker"] == 1


def test_marker_moves_only_on_a_strict_lead_and_stays_on_a_tie(backend: str) -> None:
    s = position(backend, (["red 5", "red 6", "red 2"], ["red 8", "red 3", "blue 4"]))
    play(s, "red 2 face up")
    assert s.observation(0)["territories"][0]["marker"] == 0  # 2 > 0
    play(s, "red 3 face up")
    assert s.observation(0)["territories"][0]["marker"] == 1  # 3 > 2
    play(s, "red 5 face down on red")  # face down does not count
    assert s.observation(0)["territories"][0]["marker"] == 1
    assert s.observation(0)["territories"][0]["strength"] == [2, 3]
    play(s, "blue 4 face up")
    play(s, "red 6 face up")  # seat 0's red side is full now: 2, 5 face down, 6
    assert s.observation(0)["territories"][0]["strength"] == [8, 3]
    assert s.observation(0)["territories"][0]["marker"] == 0
    play(s, "red 8 face up")  # 11 > 8
    assert s.observation(0)["territories"][0]["marker"] == 1


def test_a_tie_leaves_the_marker_where_it_is(backend: str) -> None:
    board = {(1, "red"): ["red 5"], (0, "white"): ["white 2"]}
    display = ["red 9", "blue 8", "green 9", "yellow 9", "white 9"]
    s = position(backend, (["red 4", "red 1"], ["blue 9"]), board, display, markers=[1, None, None, None, 0])
    play(s, "red 4 face up")  # 4 < 5: stays with seat 1
    assert s.observation(0)["territories"][0]["marker"] == 1
    play(s, "blue 9 face up")
    play(s, "red 1 face up")  # 5 = 5: stays with seat 1
    assert s.observation(0)["territories"][0]["marker"] == 1
    t = position(backend, (["red 4"], ["red 3"]), {(0, "white"): ["white 2"], (1, "white"): ["white 5"]})
    play(t, "red 4 face up")
    play(t, "red 3 face up")  # the mover is weaker: the marker does not move to her, nor away
    assert t.observation(1)["territories"][0]["marker"] == 0


def test_five_markers_win_at_once(backend: str) -> None:
    board = {
        (0, "red"): ["red 9"],
        (0, "blue"): ["blue 9"],
        (0, "green"): ["green 9"],
        (0, "yellow"): ["yellow 9"],
        (1, "red"): ["red 2"],
        (1, "blue"): ["blue 2"],
        (1, "green"): ["green 2"],
        (1, "yellow"): ["yellow 2"],
    }
    s = position(backend, (["white 9", "white 8"], ["white 7"]), board, markers=[0, 0, 0, 0, None])
    assert not s.is_terminal
    play(s, "white 8 face up")
    assert s.is_terminal and s.current_player is None and s.legal_actions() == []
    assert s.returns() == [1.0, -1.0] and s.scores() == [5, 0]
    assert s.outcome() == Outcome("all_markers", (0,), (5, 0))
    assert s.observation(1)["winner"] == 0 and not s.observation(1)["final_count"]
    tensor = s.observation_tensor(0)  # ends with: my turn, final count made, game over
    assert list(tensor[-3:]) == [0.0, 0.0, 1.0] and tensor.shape == (21 * 45 + 52,)
    with pytest.raises(IllegalActionError):
        s.apply(cid("white 9"))


def stuck_board() -> dict[tuple[int, str], list[str]]:
    return {
        (1, "red"): ["red 1", "red 2", "red 3"],
        (1, "blue"): ["green 1*", "green 2*", "green 3*"],
        (0, "white"): ["white 1", "white 2", "white 3"],
        (0, "green"): ["green 4", "green 5", "green 6"],
    }


@pytest.mark.parametrize(("given", "stuck"), [("blue 8", True), ("green 9", False)])
def test_a_player_without_a_legal_move_loses(backend: str, given: str, stuck: bool) -> None:
    display = ["red 9", "blue 9", "green 8", given, "white 9"]
    s = position(backend, (["yellow 5"], ["red 8", "blue 7"]), stuck_board(), display, markers=[1, None, 0, None, 0])
    play(s, "yellow 5 face up")  # seat 1 takes the display card beside yellow, then must move
    assert given in s.observation(1)["hand"]
    assert s.is_terminal == stuck
    if stuck:
        assert s.current_player is None and s.legal_actions() == []
        assert s.returns() == [1.0, -1.0]
        assert s.outcome() == Outcome("no_legal_move", (0,), (3, 1))  # yellow 5 took yellow
        assert s.observation(0)["opponent_hand"] == ["red 8", "blue 7", "blue 8"]
    else:
        assert s.current_player == 1 and names(s) == {"green 9 face up"}
        assert s.outcome() is None


def final_position(backend: str, blue: tuple[list[str], list[str]], marker: int | None) -> Any:
    """29 cards on the board; seat 1 plays the last one, white."""
    board = {
        (0, "red"): ["red 9", "red 8", "red 6"],
        (1, "red"): ["red 7", "red 1", "red 3"],
        (0, "blue"): blue[0],
        (1, "blue"): blue[1],
        (0, "green"): ["green 8", "green 7", "green 6"],
        (1, "green"): ["white 9*", "white 8*", "yellow 8*"],
        (0, "yellow"): ["yellow 2", "yellow 3", "yellow 4*"],
        (1, "yellow"): ["yellow 5", "yellow 6", "yellow 7"],
        (0, "white"): ["white 2", "white 3", "white 4"],
        (1, "white"): ["white 5", "white 6"],
    }
    markers = [0, marker, 0, 1, None]
    return position(backend, ([], ["white 1", "white 7"]), board, [None] * 5, [], markers, player=1)


def test_the_final_count_reveals_and_applies_the_doubling_rule(backend: str) -> None:
    s = final_position(backend, (["blue 5", "blue 4", "blue 3"], ["blue 7", "blue 6", "blue 2"]), None)
    assert not s.is_terminal
    assert s.observation(0)["territories"][2]["face_down"][1] == ["hidden"] * 3
    play(s, "white 7 face up")
    assert s.is_terminal
    obs = s.observation(0)
    assert obs["final_count"]
    t = obs["territories"]
    assert [x["strength"] for x in t] == [[23, 11], [12, 15], [21, 0], [9, 18], [9, 18]]
    # red: 23 is at least double 11, the weaker side gets it; blue: 15 beats 12; green: a weaker
    # side of 0 does not take it; yellow and white: exactly double, the weaker side gets them.
    assert [x["marker"] for x in t] == [1, 1, 0, 0, 0]
    assert t[2]["face_down"][1] == ["yellow 8", "white 8", "white 9"]  # revealed, none counts
    assert t[3]["face_down"][0] == ["yellow 4"]  # revealed, of the colour: counts
    assert s.scores() == [3, 2] and s.returns() == [1.0, -1.0] and obs["winner"] == 0
    assert s.outcome() == Outcome("board_full", (0,), (3, 2))


@pytest.mark.parametrize(("marker", "returns"), [(None, [0.0, 0.0]), (0, [1.0, -1.0])])
def test_equal_strength_keeps_the_marker_and_equal_markers_draw(
    backend: str, marker: int | None, returns: list[float]
) -> None:
    blue = (["blue 8", "blue 3", "blue 1"], ["blue 6", "blue 4", "blue 2"])  # 12 against 12
    s = final_position(backend, blue, marker)
    play(s, "white 1 face up")  # white: 12 against 9, not double: seat 1
    t = s.observation(1)["territories"]
    assert [x["strength"] for x in t][1] == [12, 12] and t[1]["marker"] == marker
    assert [x["marker"] for x in t] == [1, marker, 0, 0, 1]
    assert s.returns() == returns
    assert s.observation(0)["winner"] == (None if marker is None else 0)
    scores = (2, 2) if marker is None else (3, 2)
    assert s.outcome() == Outcome("board_full", () if marker is None else (0,), scores)


def test_what_each_seat_sees(backend: str) -> None:
    board = {(1, "blue"): ["green 2*"], (0, "blue"): ["red 2*"]}
    s = position(backend, (["red 7", "blue 2"], ["green 3", "red 5"]), board, player=0)
    obs0, obs1 = s.observation(0), s.observation(1)
    assert obs0["territories"][1]["face_down"] == [["red 2"], ["hidden"]]
    assert obs1["territories"][1]["face_down"] == [["hidden"], ["green 2"]]
    assert obs0["hand_sizes"] == [2, 2] and obs0["opponent_hand"] is None
    assert obs0["deck"] == 45 - 4 - 2 - 5


def test_a_known_card_played_face_down_is_not_given_away(backend: str) -> None:
    """Seat 1 took red 1 from the display: seat 0 knows it. Whether seat 1 then plays red 1 or
    green 3 face down, seat 0 must see the same thing (red 1 is in her hand or face down)."""
    seen = set()
    for card in ("red 1", "green 3"):
        s = position(backend, (["red 7", "blue 2"], ["green 3", "green 4"]))
        play(s, "red 7 face up")
        assert s.observation(0)["known_cards"] == [[], ["red 1"]]
        play(s, f"{card} face down on white")
        seen.add((json.dumps(s.observation(0), sort_keys=True), s.observation_tensor(0).tobytes()))
        assert s.observation(0)["known_cards"] == [["white 1"], ["red 1"]]
    assert len(seen) == 1
    s = position(backend, (["red 7", "blue 2"], ["green 3"]))
    play(s, "red 7 face up")
    play(s, "red 1 face up")  # played face up: no longer hidden anywhere
    assert s.observation(0)["known_cards"][1] == []


def test_determinize_resamples_only_what_the_seat_cannot_see(backend: str) -> None:
    s = position(backend, (["red 7", "blue 2"], ["green 3", "green 4"]), {(0, "white"): ["white 9"]}, player=1)
    play(s, "green 3 face down on blue")
    play(s, "red 7 face up")  # seat 1 takes red 1, known to seat 0
    worlds = set()
    for seed in range(40):
        d = s.determinize(0, seed)
        assert d.observation(0) == s.observation(0)
        assert np.array_equal(d.observation_tensor(0), s.observation_tensor(0))
        hidden = json.loads(d.to_json())["state"]
        assert hidden["known"][1] & ~(hidden["hands"][1] | hidden["face_down"][1]) == 0
        worlds.add((hidden["hands"][1], hidden["face_down"][1]))
    assert len(worlds) > 20


def test_determinize_keeps_a_legal_move_for_the_opponent_to_move(backend: str) -> None:
    """Seat 1 has three face-down cards and room only on red: every world must give her a red
    card, as the real one does (else she would already have lost)."""
    board = {
        (1, "red"): ["red 1"],
        (1, "blue"): ["blue 1", "blue 2", "blue 3"],
        (1, "green"): ["green 1", "green 2", "green 3"],
        (1, "yellow"): ["yellow 1", "yellow 2", "yellow 3"],
        (1, "white"): ["white 1*", "white 2*", "white 3*"],
        (0, "red"): ["red 2", "red 3", "red 4"],
        (0, "blue"): ["blue 4", "blue 5", "blue 6"],
        (0, "green"): ["green 4", "green 5", "green 6"],
        (0, "yellow"): ["yellow 4", "yellow 5", "yellow 6"],
        (0, "white"): ["white 4", "white 5"],
    }
    display = ["red 9", "blue 9", "green 9", "yellow 9", "white 9"]
    s = position(backend, (["white 6"], ["red 8", "blue 7"]), board, display, markers=[0, 0, 0, 0, None], player=1)
    for seed in range(30):
        d = s.determinize(0, seed)
        assert d.legal_actions(), seed
        assert d.observation(0) == s.observation(0)


def test_saved_states_round_trip_and_bad_ones_are_refused(backend: str) -> None:
    game = regalia.make(GAME, backend=backend)  # type: ignore[arg-type]
    other = regalia.make(GAME, backend="reference" if backend == "rust" else "rust")  # type: ignore[arg-type]
    s = game.new_state(5)
    for _ in range(7):
        s.apply(s.legal_actions()[len(s.legal_actions()) // 2])
    text = s.to_json()
    assert game.state_from_json(text) == s and other.state_from_json(text).to_json() == text
    board = {(0, "blue"): ["red 2*"], (0, "red"): ["red 3"], (1, "blue"): ["green 2*"], (1, "red"): ["red 4"]}
    good = position(backend, (["red 7", "blue 2"], ["green 3", "red 5"]), board)
    env = json.loads(good.to_json())
    st = env["state"]
    in_deck = st["deck"] & -st["deck"]
    bad_states = {
        "a face-up card of another colour": {**st, "face_down": [0, st["face_down"][1]]},
        "seat 1 to move after as many cards": {**st, "player": 1},
        "a card in two places": {**st, "deck": st["deck"] | mask(["red 7"])},
        "an empty display place with a deck": {**st, "display": [None, *st["display"][1:]], "deck": st["deck"] | 1},
        "a winner in a running game": {**st, "winner": 0},
        "five markers in a running game": {**st, "markers": [0] * 5},
        "a known card in the deck": {**st, "known": [in_deck, 0]},
        "a stuck seat to move": {**st, "hands": [0, st["hands"][0] | st["hands"][1]]},
        "a finished game without a reason": {**st, "over": True, "winner": 1},
    }
    for why, bad in bad_states.items():
        with pytest.raises(InvalidStateError):
            game.state_from_json(json.dumps({**env, "state": bad}))
            pytest.fail(why)


#: The options of the whole board (the defaults): five territories, three cards a side,
#: three face-down cards.
FULL_BOARD = {"territories": 5, "cards_per_side": 3, "face_down_limit": 3}


def test_options_change_the_card_set(backend: str) -> None:
    g = regalia.make(GAME, backend=backend, values=4, hand_size=2)  # type: ignore[arg-type]
    assert g.num_actions == 20 * 6 and g.options == {
        "players": 2,
        "values": 4,
        "hand_size": 2,
        **FULL_BOARD,
        "chance": "seeded",
    }
    s = g.new_state(1)
    obs = s.observation(0)
    assert len(obs["hand"]) == 2 and obs["deck"] == 20 - 4 - 5
    while not s.is_terminal:
        s.apply(s.legal_actions()[0])
    assert regalia.make(GAME, backend=backend, values=3, hand_size=5).new_state(0).observation(0)["deck"] == 0  # type: ignore[arg-type]
    bad_options: list[dict[str, Any]] = [
        {"values": 1},
        {"values": 13},
        {"hand_size": 0},
        {"hand_size": 21},
        {"values": 3, "hand_size": 6},
        {"territories": 1},
        {"territories": 6},
        {"cards_per_side": 0},
        {"cards_per_side": 4},
        {"face_down_limit": -1},
        {"face_down_limit": 4},
        {"territories": "two"},
        # two colours of two values are four cards: one for each hand and two for the display
        {"territories": 2, "values": 2, "hand_size": 2},
        {"territories": 3, "values": 3, "hand_size": 4},
    ]
    for bad in bad_options:
        with pytest.raises(InvalidOptionError):
            regalia.make(GAME, backend=backend, **bad)  # type: ignore[arg-type]
    assert regalia.make("duel-of-dragons", backend=backend).name == GAME  # type: ignore[arg-type]


#: A small board: red and blue valued 1 to 3, a card each, two cards a side, one face down.
SMALL = {"territories": 2, "values": 3, "hand_size": 1, "cards_per_side": 2, "face_down_limit": 1}


def test_a_small_board_has_its_colours_sides_and_face_down_limit(backend: str) -> None:
    """Two territories, two cards a side, one face-down card a player: seat 0's face-down card
    uses up her limit; a side with two cards is full, the opponent's side does not count."""
    board = {(0, "red"): ["blue 1*"], (1, "red"): ["red 3"]}
    s = position(backend, (["red 2", "blue 3"], ["red 1"]), board, ["blue 2", None], [], options=SMALL)
    game = regalia.make(GAME, backend=backend, **SMALL)  # type: ignore[arg-type]
    assert game.num_actions == 6 * 3 and game.observation_shape == ((6 + 3 * 2) * 6 + (2 + 6) * 2 + 7,)
    assert s.observation_tensor(0).shape == game.observation_shape
    assert [t["colour"] for t in s.observation(0)["territories"]] == ["red", "blue"]
    assert names(s) == {"red 2 face up", "blue 3 face up"}
    play(s, "red 2 face up")  # seat 0's red side is full; seat 1 takes blue 2
    assert names(s) == {
        "red 1 face up",
        "blue 2 face up",
        "red 1 face down on red",
        "red 1 face down on blue",
        "blue 2 face down on red",
        "blue 2 face down on blue",
    }
    assert s.parse_action("red 1 face down on blue") == 6 + cid("red 1", 3) * 2 + 1
    play(s, "blue 2 face down on red")
    assert names(s) == {"blue 3 face up"}


def test_all_markers_of_a_small_board_win_at_once(backend: str) -> None:
    """With two territories, both markers on one side win, as all five do in the game."""
    board = {(0, "blue"): ["blue 2"], (1, "blue"): ["blue 1"]}
    s = position(backend, (["red 2"], ["blue 3"]), board, ["red 1", "red 3"], [], [None, 0], options=SMALL)
    play(s, "red 2 face up")
    assert s.is_terminal and s.returns() == [1.0, -1.0] and s.scores() == [2, 0]
    assert not s.observation(0)["final_count"]


def test_a_small_board_is_counted_when_full_with_the_doubling_rule(backend: str) -> None:
    """One card a side: seat 1's last card fills the board. Red: 1 against a revealed red 3,
    blue: a revealed blue 1 against 3; both at least double, so both markers go to seat 0."""
    options = {**SMALL, "cards_per_side": 1}
    board = {(0, "red"): ["red 1"], (0, "blue"): ["blue 1*"], (1, "red"): ["red 3*"]}
    s = position(backend, ([], ["blue 3"]), board, ["red 2", "blue 2"], [], [0, None], player=1, options=options)
    assert names(s) == {"blue 3 face up"}  # seat 1's face-down card is her limit
    play(s, "blue 3 face up")
    obs = s.observation(0)
    assert s.is_terminal and obs["final_count"]
    assert [t["strength"] for t in obs["territories"]] == [[1, 3], [1, 3]]
    assert [t["marker"] for t in obs["territories"]] == [0, 0]
    assert s.returns() == [1.0, -1.0] and obs["hand"] == ["blue 2"]


def test_without_face_down_cards_only_face_up_moves_are_legal(backend: str) -> None:
    s = position(backend, (["red 2", "blue 3"], ["red 3"]), options={**SMALL, "face_down_limit": 0})
    assert names(s) == {"red 2 face up", "blue 3 face up"}


def test_saves_from_before_the_board_options_load_as_the_whole_board(backend: str) -> None:
    """A save written before ``territories``, ``cards_per_side`` and ``face_down_limit``
    existed is the whole board; a small board's save loads as itself and only into its game,
    and a territory not in play holding a card is refused."""
    game = regalia.make(GAME, backend=backend)  # type: ignore[arg-type]
    state = game.new_state(5)
    state.apply(state.legal_actions()[3])
    saved = json.loads(state.to_json())
    for name in FULL_BOARD:
        del saved["options"][name]
    assert regalia.load_state(json.dumps(saved), backend=backend).to_json() == state.to_json()  # type: ignore[arg-type]
    small = regalia.make(GAME, backend=backend, **SMALL)  # type: ignore[arg-type]
    position_ = small.new_state(5)
    position_.apply(position_.legal_actions()[0])
    assert small.state_from_json(position_.to_json()) == position_
    with pytest.raises(InvalidStateError, match="options"):
        game.state_from_json(position_.to_json())
    env = json.loads(position_.to_json())
    env["seed"] = None
    deck = env["state"]["deck"]
    env["state"]["board"][1][4] = deck & -deck
    env["state"]["deck"] = deck & ~(deck & -deck)
    with pytest.raises(InvalidStateError):
        small.state_from_json(json.dumps(env))


@pytest.mark.parametrize("options", [{"values": 4, "hand_size": 2}, {"values": 12, "hand_size": 8}])
def test_backends_agree_with_other_options(options: dict[str, int]) -> None:
    rust = regalia.make(GAME, **options)
    ref = regalia.make(GAME, backend="reference", **options)
    for seed in range(25):
        r, p = rust.new_state(seed), ref.new_state(seed)
        step = 0
        while True:
            assert r.to_json() == p.to_json(), (seed, step)
            assert r.observation(step % 2) == p.observation(step % 2)
            assert np.array_equal(r.observation_tensor(0), p.observation_tensor(0))
            assert r.determinize(1, step).to_json() == p.determinize(1, step).to_json()
            legal = r.legal_actions()
            assert legal == p.legal_actions()
            if not legal:
                break
            a = legal[(seed * 7 + step * 3) % len(legal)]
            r.apply(a)
            p.apply(a)
            step += 1
        assert r.returns() == p.returns()


def test_the_text_board_fits_80_columns_and_hides_what_it_should() -> None:
    from regalia.views.render import render

    game = regalia.make(GAME, values=12, hand_size=8)
    for seed in range(20):
        s = game.new_state(seed)
        while True:
            for seat in (0, 1):
                text = render(GAME, s.observation(seat))
                assert all(len(line) <= 80 for line in text.splitlines()), text
                hidden = sum(len(t["face_down"][1 - seat]) for t in s.observation(seat)["territories"])
                assert text.count("[??]") == (0 if s.is_terminal else hidden)
            if s.is_terminal:
                break
            s.apply(s.legal_actions()[seed % len(s.legal_actions())])


def test_a_small_board_is_drawn_with_its_territories_and_places() -> None:
    """The text board of a small board lists its territories only, each side with as many
    places as ``cards_per_side``."""
    from regalia.views.render import render

    game = regalia.make(GAME, **SMALL)
    obs = game.new_state(3).observation(0)
    rows = [line for line in render(GAME, obs, game.options).splitlines() if line.split()[0] in COLOURS]
    assert [r.split()[0] for r in rows] == ["red", "blue"]
    assert all(r.split()[1:3] == [".", "."] and r.count(".") == 4 for r in rows), rows
