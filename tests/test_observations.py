"""The observation of every game matches its ``TypedDict`` in ``regalia.core.observations``: the
same keys, every value of the declared type, along random games, every seat, both backends."""

from __future__ import annotations

import random
import types
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

import regalia
from regalia.core.observations import OBSERVATIONS
from tests.conftest import make_game


def mismatch(value: Any, expected: Any, at: str) -> str | None:
    """Where ``value`` is not of type ``expected`` (a TypedDict, list, union, literal or plain
    type)."""
    origin = get_origin(expected)
    if origin is Literal:
        return None if value in get_args(expected) else f"{at}: {value!r} is none of {get_args(expected)}"
    if origin in (Union, types.UnionType):
        found = [mismatch(value, option, at) for option in get_args(expected)]
        return None if None in found else f"{at}: {value!r} is none of {expected}"
    if is_typeddict(expected):
        if not isinstance(value, dict):
            return f"{at}: {value!r} is not a dict"
        hints = get_type_hints(expected)
        if set(value) != set(hints):
            return f"{at}: keys {sorted(set(value) ^ set(hints))} differ from {expected.__name__}"
        for key, hint in hints.items():
            if (why := mismatch(value[key], hint, f"{at}.{key}")) is not None:
                return why
        return None
    if origin is list:
        if not isinstance(value, list):
            return f"{at}: {value!r} is not a list"
        (item,) = get_args(expected)
        return next((w for i, x in enumerate(value) if (w := mismatch(x, item, f"{at}[{i}]")) is not None), None)
    if expected is type(None):
        return None if value is None else f"{at}: {value!r} is not None"
    if expected is int and isinstance(value, bool):
        return f"{at}: {value!r} is a bool, not an int"
    return None if isinstance(value, expected) else f"{at}: {value!r} is not {expected.__name__}"


def test_every_game_has_its_observation_type() -> None:
    assert set(OBSERVATIONS) == {g["name"] for g in regalia.games()}


@pytest.mark.parametrize("players", ["min", "max"])
@pytest.mark.parametrize("game_name", sorted(OBSERVATIONS))
def test_observations_match_their_type(game_name: str, players: str, backend: str) -> None:
    info = next(g for g in regalia.games() if g["name"] == game_name)
    game = make_game(game_name, info[f"{players}_players"], backend)
    expected = OBSERVATIONS[game_name]
    for seed in range(2):
        state, pick = game.new_state(seed), random.Random(seed)
        while True:
            for seat in range(game.num_players):
                why = mismatch(
                    state.observation(seat), expected, f"seed {seed} step {len(state.history())} seat {seat}"
                )
                assert why is None, why
            if state.is_terminal:
                break
            state.apply(pick.choice(state.legal_actions()))


def test_a_wrong_value_is_found() -> None:
    obs = regalia.make("duo-regna").new_state(1).observation(0)
    assert mismatch(obs, OBSERVATIONS["duo-regna"], "obs") is None
    assert "is not a list" in str(mismatch({**obs, "hand": "X"}, OBSERVATIONS["duo-regna"], "obs"))
    assert "differ" in str(mismatch({**obs, "extra": 1}, OBSERVATIONS["duo-regna"], "obs"))
    assert "is a bool" in str(mismatch({**obs, "round": True}, OBSERVATIONS["duo-regna"], "obs"))
