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
