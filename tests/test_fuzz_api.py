"""Property-based fuzzing of the Python API with hypothesis, every game, both backends: any
argument of any type, huge numbers, random text, truncated, tampered and other games' saved
states. Every failure is a ``RegaliaError`` (a ``ValueError``) with a message, never another
exception, an engine panic or a hang, and a refused call changes nothing. A tampered state
that is accepted is accepted by both backends alike and then plays to the end consistently.
``HYPOTHESIS_PROFILE=long`` explores far more examples (see docs/testing.md)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import event, given
from hypothesis import strategies as st

import regalia
from regalia.core.errors import IllegalActionError, InvalidStateError, RegaliaError
from tests.conftest import assert_consistent, make_game

NAMES = [g["name"] for g in regalia.games()]
PLAYERS = {g["name"]: (g["min_players"], g["max_players"]) for g in regalia.games()}
#: Runs a test for every game on each backend.
every_game_on_both_backends = pytest.mark.parametrize(
    ("name", "backend"), [(name, backend) for name in NAMES for backend in regalia.BACKENDS]
)

#: Values of every kind a caller might pass by mistake.
GARBAGE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True),
    st.text(max_size=12),
    st.binary(max_size=12),
    st.lists(st.integers(-3, 600), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.sampled_from([object(), np.int64(3), np.float32(1.0), 1 + 2j, np.zeros(3, dtype=np.float32), ...]),
)


def state_after(name: str, backend: str, data: st.DataObject) -> tuple[Any, Any]:
    """A game of ``name`` (players drawn) and a state after a drawn number of random moves."""
    lo, hi = PLAYERS[name]
    game = make_game(name, data.draw(st.integers(lo, hi)), backend)
    state = game.new_state(data.draw(st.integers(0, 2**64 - 1)))
    rnd = random.Random(data.draw(st.integers(0, 2**32)))
    for _ in range(data.draw(st.integers(0, 60))):
        if state.is_terminal:
            break
        state.apply(rnd.choice(state.legal_actions()))
    return game, state


def refused_cleanly(call: Callable[[], Any], error: type[RegaliaError] = RegaliaError) -> bool:
    """Runs ``call``: True if it raised ``error`` with a real message, False if it returned."""
    try:
        call()
    except error as e:
        assert str(e) and "internal error" not in str(e), str(e)
        return True
    return False


def as_int(value: Any) -> int | None:
    """The int an API taking an int accepts ``value`` as (``__index__``, never a bool)."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        return None
    try:
        return int(value.__index__())
    except TypeError:
        return None


@every_game_on_both_backends
@given(data=st.data())
def test_any_action_is_played_or_refused_leaving_the_state_unchanged(name: str, backend: str, data: Any) -> None:
    game, state = state_after(name, backend, data)
    for _ in range(5):
        action = data.draw(st.one_of(GARBAGE, st.integers(-2, game.num_actions + 2)))
        before = state.to_json()
        legal = state.legal_actions()
        if refused_cleanly(lambda: state.apply(action), IllegalActionError):  # noqa: B023
            assert state.to_json() == before
        else:
            assert as_int(action) in legal
            assert_consistent(game, state)


@every_game_on_both_backends
@given(data=st.data())
def test_any_argument_to_any_method_is_used_or_refused(name: str, backend: str, data: Any) -> None:
    game, state = state_after(name, backend, data)
    before = state.to_json()
    x, y = data.draw(GARBAGE), data.draw(GARBAGE)
    small = x if as_int(x) is None or abs(as_int(x) or 0) < 20 else 3  # a huge count would take forever
    calls: list[Callable[[], Any]] = [
        lambda: state.observation(x),
        lambda: state.observation_tensor(x),
        lambda: state.observation_tensor(0, x),
        lambda: state.determinize(x, y),
        lambda: state.action_name(x),
        lambda: state.action_info(x),
        lambda: state.parse_action(x),
        lambda: game.new_state(x),
        lambda: game.state_from_json(x),
        lambda: regalia.load_state(x, backend=backend),
        lambda: game.random_playouts(small, y, 1),
        lambda: game.random_playouts(1, 0, small),
        lambda: regalia.make(name, backend=backend, players=x),
        lambda: regalia.make(x, backend=backend),
    ]
    for call in calls:
        refused_cleanly(call)
    assert state.to_json() == before


@every_game_on_both_backends
@given(data=st.data(), text=st.one_of(st.text(), st.binary().map(lambda b: b.decode("latin-1"))))
def test_random_text_is_not_a_saved_state(name: str, backend: str, data: Any, text: str) -> None:
    game, _ = state_after(name, backend, data)
    assert refused_cleanly(lambda: game.state_from_json(text), InvalidStateError)
    assert refused_cleanly(lambda: regalia.load_state(text, backend=backend), InvalidStateError)


@every_game_on_both_backends
@given(data=st.data())
def test_a_truncated_saved_state_is_refused(name: str, backend: str, data: Any) -> None:
    game, state = state_after(name, backend, data)
    text = state.to_json()
    cut = data.draw(st.integers(0, len(text) - 1))
    assert refused_cleanly(lambda: game.state_from_json(text[:cut]), InvalidStateError)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a node below ``value`` (dict keys and list indices)."""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
    out: list[tuple[Any, ...]] = []
    for k, v in items:
        out.append((*prefix, k))
        out.extend(paths(v, (*prefix, k)))
    return out


def replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    """A copy of ``value`` with the node at ``path`` replaced by ``new``."""
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = replaced(value[path[0]], path[1:], new)
    return copy


@pytest.mark.parametrize("name", NAMES)
@given(data=st.data())
def test_tampered_saved_states_are_refused_or_play_on_alike(name: str, data: Any) -> None:
    _, state = state_after(name, "rust", data)
    envelope = json.loads(state.to_json())
    if data.draw(st.booleans()):  # without a seed only the game's own invariants can object
        envelope = {**envelope, "seed": None, "history": []}
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths(envelope)))
        old = envelope
        for k in path:
            old = old[k]
        nudges = [old + 1, old - 1] if type(old) is int else []
        new = data.draw(st.one_of(st.sampled_from([*nudges, 0, 1, -1, 2**32, 2**64, None, True, "x", [], {}]), GARBAGE))
        try:
            envelope = replaced(envelope, path, json.loads(json.dumps(new)))
        except (TypeError, ValueError):
            continue  # not JSON: nothing to save
    refused_alike_or_played_on_alike(envelope, "tampered state")


def refused_alike_or_played_on_alike(envelope: Any, what: str) -> None:
    """Both backends load the saved state ``envelope``: both refuse it with an
    ``InvalidStateError`` (no internal error), or both accept the same state, which then keeps
    every invariant, and the two alike, at every step of a random game to the end. ``what``
    names it in the hypothesis events."""
    text = json.dumps(envelope, sort_keys=True, separators=(",", ":"))
    loaded = []
    for backend in regalia.BACKENDS:
        try:
            loaded.append(regalia.load_state(text, backend=backend))  # type: ignore[arg-type]
        except InvalidStateError as e:
            assert "internal error" not in str(e)
    assert len(loaded) in (0, 2), "one backend accepted what the other refused"
    event(f"{what} accepted" if loaded else f"{what} refused")
    if loaded:
        rust, ref = loaded
        assert rust.to_json() == ref.to_json() == text
        game = regalia.make(rust.game_name, backend="reference", **json.loads(text)["options"])
        rnd = random.Random(0)
        while not ref.is_terminal:
            action = rnd.choice(ref.legal_actions())
            rust.apply(action)
            ref.apply(action)
            assert_consistent(game, ref)
            assert rust.to_json() == ref.to_json()


#: Numbers a field is set to: the edges of the integer types fields are read as, and the
#: sizes of card sets, piles and hands around them.
FIELD_NUMBERS = [
    0,
    1,
    2,
    3,
    4,
    5,
    7,
    8,
    9,
    10,
    16,
    31,
    32,
    33,
    40,
    64,
    76,
    80,
    127,
    128,
    255,
    256,
    2**16,
    2**32,
    2**64 - 1,
    -1,
]


def node_at(value: Any, path: tuple[Any, ...]) -> Any:
    """The node at ``path`` below ``value``, or ``None`` where there is none."""
    for k in path:
        if isinstance(value, dict) and k in value or isinstance(value, list) and isinstance(k, int) and k < len(value):
            value = value[k]
        else:
            return None
    return value


def nested(value: Any, levels: int) -> Any:
    for _ in range(levels):
        value = [value]
    return value


def field_change(data: st.DataObject, old: Any, donor: Any) -> Any:
    """A new value for a field of a saved state: a length, index, card id or count at an
    edge, the donor's value of the same field, a list cut, grown, reordered or given a
    duplicate or out-of-range entry, or the old value nested in lists (deeper than allowed)."""
    kind = data.draw(st.sampled_from(["number", "donor", "list", "nest", "deep", "type"]))
    if kind == "number" and type(old) is int:
        return data.draw(st.sampled_from([old + 1, old - 1, old + 32, 2 * old, *FIELD_NUMBERS]))
    if kind == "donor" and donor is not None:
        return donor
    if kind == "list" and isinstance(old, list):
        items = list(old)
        op = data.draw(st.sampled_from(["cut", "dup", "append", "reverse", "drop"]))
        if op == "cut":
            return items[: data.draw(st.integers(0, len(items)))]
        if op == "dup" and items:
            return [*items, data.draw(st.sampled_from(items))]
        if op == "append":
            return [*items, data.draw(st.sampled_from(FIELD_NUMBERS))]
        if op == "drop" and items:
            del items[data.draw(st.integers(0, len(items) - 1))]
            return items
        return items[::-1]
    if kind == "nest":
        return nested(old, data.draw(st.integers(1, 2)))
    if kind == "deep":
        return nested(0, data.draw(st.integers(120, 140)))
    return data.draw(st.sampled_from([None, True, "x", [], {}, *FIELD_NUMBERS]))


@pytest.mark.parametrize("name", NAMES)
@given(data=st.data())
def test_saved_states_changed_field_by_field_are_refused_or_play_on_alike(name: str, data: Any) -> None:
    """Structure-aware tampering: a field of the saved ``state`` is chosen (each as likely as
    any other), then a node inside it, and changed as a damaged or hand-edited file would be.
    Both backends refuse it with an ``InvalidStateError``, or both accept the same state,
    which then keeps every invariant at every step of a random game to the end."""
    game, state = state_after(name, "rust", data)
    _, donor = state_after(name, "rust", data)
    envelope = json.loads(state.to_json())
    if data.draw(st.integers(0, 3)) > 0:  # mostly without a seed: only the game's checks object
        envelope = {**envelope, "seed": None, "history": []}
    for _ in range(data.draw(st.integers(1, 3))):
        field = data.draw(st.sampled_from(sorted(envelope["state"])))
        path = data.draw(st.sampled_from([(field,), *((field, *p) for p in paths(envelope["state"][field]))]))
        old = node_at(envelope["state"], path)
        other = node_at(json.loads(donor.to_json())["state"], path)
        envelope = replaced(envelope, ("state", *path), field_change(data, old, other))
    refused_alike_or_played_on_alike(envelope, "changed state")


def test_another_games_saved_state_is_refused(backend: str) -> None:
    """Every game refuses the saved states of every other game and of other options."""
    states = []
    for g in regalia.games():
        for players in range(g["min_players"], g["max_players"] + 1):
            game = regalia.make(g["name"], backend=backend, players=players)  # type: ignore[arg-type]
            s = game.new_state(5)
            s.apply(s.legal_actions()[0])
            states.append((game, s.to_json()))
    for game, _ in states:
        for other, text in states:
            if other is not game:
                assert refused_cleanly(lambda: game.state_from_json(text), InvalidStateError)  # noqa: B023
            assert regalia.load_state(text, backend=backend).to_json() == text  # type: ignore[arg-type]
