"""Compact information-state keys: the extension and the reference compute the same key,
a seat's determinized worlds keep its key, and on small variants no key stands for two
information states."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

import regalia
from regalia import _core
from regalia.core.errors import InvalidArgumentError, InvalidStateError
from regalia.theory.cfr import information_state_key
from tests.conftest import make_game

#: Random games per configuration for the differential test.
GAMES = {"duo-regna": 6, "duo": 3, "duell-der-drachen": 6, "regine": 2, "regnum": 3}
#: Keys compared every this many steps (and at the end): Regine's games are long, and the
#: reference builds each key from the whole record.
EVERY = {"regine": 15}


def test_backends_agree_on_every_key(config: tuple[str, int]) -> None:
    name, players = config
    rust, ref = make_game(name, players), make_game(name, players, "reference")
    rnd = random.Random(f"keys {name} {players}")
    for _ in range(GAMES[name]):
        seed = rnd.getrandbits(64)
        r, p = rust.new_state(seed), ref.new_state(seed)
        step = 0
        while True:
            if step % EVERY.get(name, 5) == 0 or r.is_terminal:
                for seat in range(players):
                    assert _core.information_state_key(r, seat) == p.information_state_key(seat), (seed, step, seat)
            if r.is_terminal:
                break
            a = rnd.choice(r.legal_actions())
            r.apply(a)
            p.apply(a)
            step += 1


@pytest.mark.parametrize("backend", ["rust", "reference"])
def test_a_seats_worlds_keep_its_key(config: tuple[str, int], backend: str) -> None:
    name, players = config
    game = make_game(name, players, backend)
    rnd = random.Random(f"worlds {name}")
    state = game.new_state(rnd.getrandbits(64))
    for _ in range(rnd.randrange(3, 25)):
        if state.is_terminal:
            break
        state.apply(rnd.choice(state.legal_actions()))
    for seat in range(players):
        key = information_state_key(state, seat)
        for _ in range(3):
            world = state.determinize(seat, rnd.getrandbits(64))
            assert information_state_key(world, seat) == key
            if world.current_player == seat:
                # The world goes on with the seat's move as the seat's record does, while the
                # seat sees the same.
                a = rnd.choice(world.legal_actions())
                after = state.clone()
                after.apply(a)
                world.apply(a)
                same = world.observation(seat) == after.observation(seat)
                assert (information_state_key(world, seat) == information_state_key(after, seat)) == same


#: Small variants and how many random games to key; the first three are small enough that
#: many information states come up in more than one game (the others check the keys of
#: every game on few, mostly distinct, information states).
SMALL: list[tuple[str, dict[str, Any], int, bool]] = [
    ("duo-regna", {"dragon_deck": [1, 1], "dragons_to_win": 1, "max_rounds": 4}, 400, True),
    ("duo-regna", {"dragon_deck": [2, 1], "dragons_to_win": 2, "max_rounds": 6}, 300, True),
    ("duell-der-drachen", {"values": 2, "hand_size": 1}, 600, True),
    ("duell-der-drachen", {"values": 3, "hand_size": 2}, 300, False),
    ("regnum", {"max_turns": 6}, 200, False),
    ("duo", {"rounds": 1, "players": 2}, 40, False),
    ("regine", {"players": 2, "target": 3}, 20, False),
    ("duo", {"rounds": 1, "players": 3}, 20, False),
    ("regine", {"players": 4, "target": 3}, 10, False),
    ("regnum", {"max_turns": 6, "players": 3}, 50, False),
]


@pytest.mark.parametrize(
    ("name", "options", "games", "repeats"), SMALL, ids=[f"{n}-{i}" for i, (n, *_) in enumerate(SMALL)]
)
def test_no_key_stands_for_two_information_states(
    name: str, options: dict[str, Any], games: int, repeats: bool
) -> None:
    game = regalia.make(name, **options)
    rnd = random.Random(f"collisions {name} {options}")
    by_key: dict[int, bytes] = {}
    by_text: dict[bytes, int] = {}
    seen = 0
    for _ in range(games):
        state = game.new_state(rnd.getrandbits(64))
        while True:
            for seat in range(state.num_players):
                text = hashlib.sha256(state.information_state_string(seat).encode()).digest()
                key = _core.information_state_key(state, seat)
                assert by_key.setdefault(key, text) == text, f"key {key} stands for two information states"
                assert by_text.setdefault(text, key) == key, "one information state has two keys"
                seen += 1
            if state.is_terminal:
                break
            state.apply(rnd.choice(state.legal_actions()))
    if repeats:
        assert len(by_key) < seen, "the variant is small: information states come up again"


def test_keys_refuse_bad_input() -> None:
    state = regalia.make("duo-regna").new_state(1)
    for bad in (2, -1, "0"):
        with pytest.raises(InvalidArgumentError):
            information_state_key(state, bad)
    with pytest.raises(InvalidArgumentError):
        information_state_key("not a state", 0)
    with pytest.raises(InvalidArgumentError):
        _core.information_state_key(regalia.make("duo-regna", backend="reference").new_state(1), 0)
    saved = state.to_json().replace('"seed":1', '"seed":null')  # no history: loads, without a record
    for backend in ("rust", "reference"):
        loaded = regalia.load_state(saved, backend=backend)  # type: ignore[arg-type]
        with pytest.raises(InvalidStateError):
            information_state_key(loaded, 0)
