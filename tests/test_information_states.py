"""Perfect-recall information states (``State.information_state_string`` / ``_tensor``), for
every game and player count: the record only grows (a seat forgets nothing), lists each of
the seat's own actions, is the same on both backends, hides what the seat may not see, and
has a tensor of a fixed size per game, options and slots."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

import regalia
from tests.conftest import pick_step

#: Plies of a random game checked per configuration (the record is rebuilt at each).
PLIES = 40


def random_game(game: Any, seed: int, plies: int) -> list[Any]:
    """The states of the first ``plies`` plies of a random game from ``seed``."""
    rnd = random.Random(seed)
    state = game.new_state(seed)
    states = [state.clone()]
    while not state.is_terminal and len(states) <= plies:
        state.apply(rnd.choice(state.legal_actions()))
        states.append(state.clone())
    return states


def test_the_record_only_grows_and_holds_each_own_action(config: tuple[str, int]) -> None:
    name, players = config
    game = regalia.make(name, players=players)
    states = random_game(game, 1, PLIES)
    for seat in range(players):
        before = ""
        for i, state in enumerate(states):
            text = state.information_state_string(seat)
            assert text.startswith(before + "\n" if before else f"seat {seat}\n")
            lines = text.split("\n")[1:]
            assert all(line.startswith(("saw {", "played ")) for line in lines)
            mine = [states[j].action_name(a) for j, a in enumerate(state.history()) if states[j].current_player == seat]
            assert [line[len("played ") :] for line in lines if line.startswith("played ")] == mine, i
            assert replay_observation(lines) == state.observation(seat), "the text gives what the seat sees now"
            before = text


def replay_observation(lines: list[str]) -> Any:
    """The observation a record ends at: each ``saw`` line is all of it or its changed fields."""
    seen: Any = None
    for line in lines:
        if line.startswith("saw "):
            change = json.loads(line[len("saw ") :])
            same_fields = isinstance(seen, dict) and isinstance(change, dict) and change.keys() <= seen.keys()
            seen = {**seen, **change} if same_fields else change
    return seen


def test_the_backends_give_the_same_information_states(config: tuple[str, int]) -> None:
    name, players = config
    rust, ref = regalia.make(name, players=players), regalia.make(name, backend="reference", players=players)
    assert rust.information_state_shape() == ref.information_state_shape()
    assert rust.information_state_shape(3) == ref.information_state_shape(3)
    rust_states, ref_states = random_game(rust, 2, PLIES // 2), random_game(ref, 2, PLIES // 2)
    for a, b in list(zip(rust_states, ref_states))[::5]:
        for seat in range(players):
            assert a.information_state_string(seat) == b.information_state_string(seat)
            assert np.array_equal(a.information_state_tensor(seat), b.information_state_tensor(seat))
            assert np.array_equal(a.information_state_tensor(seat, 2), b.information_state_tensor(seat, 2))
    a, b = rust_states[-1].determinize(0, 9), ref_states[-1].determinize(0, 9)
    for seat in range(players):
        assert a.information_state_string(seat) == b.information_state_string(seat)


def test_the_tensor_keeps_the_newest_entries_in_a_fixed_size(config: tuple[str, int], backend: str) -> None:
    name, players = config
    game = regalia.make(name, backend=backend, players=players)  # type: ignore[arg-type]
    state = random_game(game, 3, PLIES)[-1]
    (size,) = game.information_state_shape()
    entry = (size - 1) // 16
    for seat in range(players):
        entries = len(state.information_state_string(seat).split("\n")) - 1
        full = state.information_state_tensor(seat, entries)
        assert full.dtype == np.float32 and full.shape == game.information_state_shape(entries) and full[0] == 0
        small = state.information_state_tensor(seat)
        assert small.shape == (size,)
        kept = min(entries, 16)
        assert small[0] == entries - kept
        assert np.array_equal(small[1 : 1 + kept * entry], full[1 + (entries - kept) * entry :])
        assert not small[1 + kept * entry :].any()
        flags = full[1:].reshape(entries, entry)[:, :2]
        assert (flags.sum(axis=1) == 1).all(), "each entry is either seen or played"


def test_a_determinized_world_keeps_the_seats_information_state(config: tuple[str, int], backend: str) -> None:
    name, players = config
    game = regalia.make(name, backend=backend, players=players)  # type: ignore[arg-type]
    rnd = random.Random(4)
    for state in random_game(game, 4, PLIES)[5::10]:
        seat = state.current_player
        if seat is None:
            continue
        world = state.determinize(seat, rnd.getrandbits(64))
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert np.array_equal(world.information_state_tensor(seat), state.information_state_tensor(seat))
        before = world.information_state_string(seat)
        world.apply(world.legal_actions()[0])  # play goes on in the world: its record grows
        assert world.information_state_string(seat).startswith(before + "\nplayed ")
        for other in range(players):  # another seat's record in the world starts there
            if other != seat:
                assert world.information_state_string(other).startswith(f"seat {other}\nsaw ")


def test_duo_regna_hides_the_card_the_other_seat_committed() -> None:
    game = regalia.make("duo-regna")
    texts = set()
    for card in range(9):
        state = game.new_state(5)
        state.apply(card)  # seat 0 commits, in secret
        texts.add(state.information_state_string(1))
        assert f"played {state.action_name(card)}" in state.information_state_string(0)
    assert len(texts) == 1


def test_bad_arguments_and_unknown_histories_raise(backend: str) -> None:
    game = regalia.make("duo", backend=backend)  # type: ignore[arg-type]
    state = game.new_state(1)
    with pytest.raises(regalia.InvalidArgumentError):
        state.information_state_string(2)
    with pytest.raises(regalia.InvalidArgumentError):
        state.information_state_tensor(0, 0)
    with pytest.raises(regalia.InvalidArgumentError):
        game.information_state_shape(-1)
    loaded = game.state_from_json(state.determinize(0, 3).to_json())
    with pytest.raises(regalia.InvalidStateError):
        loaded.information_state_string(0)
    assert loaded.to_json() == state.determinize(0, 3).to_json()


#: Duell der Drachen's small boards: the smallest (905 histories with explicit chance) and one
#: whose board fills up (two cards a side, three values).
SMALL_BOARDS = [
    {"territories": 2, "values": 2, "hand_size": 1, "cards_per_side": 1, "face_down_limit": 1},
    {"territories": 2, "values": 3, "hand_size": 1, "cards_per_side": 2, "face_down_limit": 1},
]


def record_entries(state: Any, seat: int) -> int:
    """The entries of ``seat``'s record (the lines of its information-state string)."""
    return len(state.information_state_string(seat).split("\n")) - 1


def test_the_whole_record_never_leaves_an_entry_out_over_a_whole_tree() -> None:
    """Every history of the smallest board with explicit chance: the tensor of ``slots="all"``
    holds each seat's whole record (no entry left out, the record's entries all written, the
    slots after them empty), and the longest record fills its slots exactly (the bound is
    tight: all four cards are dealt, each seat plays twice and sees every action)."""
    game = regalia.make("duell-der-drachen", chance="explicit", **SMALL_BOARDS[0])  # type: ignore[arg-type]
    (size,) = game.information_state_shape("all")
    entry = game.information_state_shape(1)[0] - 1
    slots = (size - 1) // entry
    longest = 0
    stack = [game.new_state(0)]
    while stack:
        state = stack.pop()
        for seat in (0, 1):
            tensor = state.information_state_tensor(seat, "all")
            entries = record_entries(state, seat)
            assert tensor.shape == (size,) and tensor[0] == 0 and entries <= slots
            flags = tensor[1:].reshape(slots, entry)[:, :2]
            assert (flags[:entries].sum(axis=1) == 1).all() and not tensor[1 + entries * entry :].any()
            longest = max(longest, entries)
        for a in state.legal_actions():
            child = state.clone()
            child.apply(a)
            stack.append(child)
    assert longest == slots


@pytest.mark.parametrize("chance", ["seeded", "explicit"])
@pytest.mark.parametrize("board", SMALL_BOARDS)
def test_the_whole_record_is_the_same_on_both_backends_and_hides_what_it_should(
    board: dict[str, Any], chance: str
) -> None:
    """Random games on small boards: both backends give the same whole-record tensor, which
    keeps every entry, and a seat's world from ``determinize`` gives it the same tensor."""
    rust = regalia.make("duell-der-drachen", chance=chance, **board)  # type: ignore[arg-type]
    ref = regalia.make("duell-der-drachen", backend="reference", chance=chance, **board)  # type: ignore[arg-type]
    assert rust.information_state_shape("all") == ref.information_state_shape("all")
    rnd = random.Random(f"whole record {board} {chance}")
    for seed in range(6):
        r, p = rust.new_state(seed), ref.new_state(seed)
        while True:
            for seat in (0, 1):
                whole = r.information_state_tensor(seat, "all")
                assert whole[0] == 0 and np.array_equal(whole, p.information_state_tensor(seat, "all"))
                if not r.is_terminal and not r.is_chance_node:
                    world = r.determinize(seat, rnd.getrandbits(64))
                    assert np.array_equal(world.information_state_tensor(seat, "all"), whole)
            if r.is_terminal:
                break
            a = pick_step(r, rnd)
            r.apply(a)
            p.apply(a)


def test_the_whole_record_does_not_tell_apart_what_the_seat_cannot_see() -> None:
    """Seat 1 is dealt red 1 or blue 2 and plays it face down, with every public card the
    same: seat 0's whole record is the same either way, seat 1's is not."""
    game = regalia.make("duell-der-drachen", chance="explicit", **SMALL_BOARDS[1])  # type: ignore[arg-type]
    seen: dict[int, set[bytes]] = {0: set(), 1: set()}
    for card in ("red 1", "blue 2"):
        state = game.new_state(0)
        for step in (
            "deal red 3 to seat 0",
            f"deal {card} to seat 1",
            "draw red 2 for red",
            "draw blue 1 for blue",
            "red 3 face up",  # seat 1 takes red 2
            "draw blue 3 for red",
            f"{card} face down on blue",  # seat 0 takes blue 1
        ):
            state.apply(state.parse_action(step))
        for seat in (0, 1):
            seen[seat].add(state.information_state_tensor(seat, "all").tobytes())
    assert len(seen[0]) == 1 and len(seen[1]) == 2


def test_the_whole_record_needs_bounded_histories(backend: str) -> None:
    """A game with no known bound on its histories refuses ``slots="all"``; Duell der
    Drachen's full board has one."""
    duo = regalia.make("duo", backend=backend)  # type: ignore[arg-type]
    with pytest.raises(regalia.InvalidArgumentError, match="bound"):
        duo.information_state_shape("all")
    with pytest.raises(regalia.InvalidArgumentError, match="bound"):
        duo.new_state(1).information_state_tensor(0, "all")
    full = regalia.make("duell-der-drachen", backend=backend)  # type: ignore[arg-type]
    for bad in ("every", "ALL", 0):
        with pytest.raises(regalia.InvalidArgumentError):
            full.information_state_shape(bad)  # type: ignore[arg-type]
    state = random_game(full, 5, 60)[-1]
    assert state.is_terminal and state.information_state_tensor(1, "all")[0] == 0


def test_openspiel_gets_the_whole_record_with_zero_slots() -> None:
    """``info_state_slots=0``: the adapter's information-state tensor is the engine's
    ``slots="all"`` tensor, of the size it declares."""
    pyspiel = pytest.importorskip("pyspiel")
    import regalia.openspiel  # noqa: F401  (registers the games)

    params = {**SMALL_BOARDS[1], "chance": "explicit", "info_state_slots": 0}
    game = pyspiel.load_game("regalia_duell_der_drachen", params)
    ours = regalia.make("duell-der-drachen", chance="explicit", **SMALL_BOARDS[1])  # type: ignore[arg-type]
    assert game.information_state_tensor_shape() == list(ours.information_state_shape("all"))
    state = game.new_initial_state()
    rnd = random.Random(7)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes())
            state.apply_action(rnd.choices(outcomes, weights)[0])
            continue
        seat = state.current_player()
        tensor = np.asarray(state.information_state_tensor(seat), dtype=np.float32)
        assert np.array_equal(tensor, state.inner.information_state_tensor(seat, "all"))
        state.apply_action(rnd.choice(state.legal_actions()))
