"""The conformance harness every game runs, on both backends: random games with the game
contract checked at every step (the game's own invariants, sorted legal actions, every legal
action applying, refusals that change nothing, independent clones, JSON round trips, returns
only at the end and zero-sum), and bad input refused without changing anything."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import numpy as np
import pytest

import regalia
from regalia.core.errors import (
    IllegalActionError,
    InvalidArgumentError,
    InvalidOptionError,
    InvalidStateError,
    RegaliaError,
)
from regalia.core.outcome import Outcome
from regalia.core.protocols import GameProtocol, StateProtocol, seat_to_act
from regalia.reference.base import CHANCE_PLAYER
from tests.conftest import assert_consistent, make_explicit, make_game, pick_step

GAMES_PER_CONFIG = 12
#: Games of hundreds of steps (each checked step replays the history from the seed) run fewer.
GAMES_FOR = {"regine": 4}


def make(config: tuple[str, int], backend: str) -> Any:
    name, players = config
    return make_game(name, players, backend)


def check_step(game: Any, state: Any, rnd: random.Random) -> None:
    if game.backend == "reference":  # the Rust loader below runs check_state for the other
        assert_consistent(game, state)
    legal = state.legal_actions()
    assert legal == sorted(set(legal))
    assert all(0 <= a < game.num_actions for a in legal)
    assert (not legal) == state.is_terminal == (state.current_player is None)
    assert state.current_player in (None, *range(game.num_players)) or (
        state.is_chance_node and state.current_player == CHANCE_PLAYER
    )
    mask = state.legal_action_mask()
    assert mask.dtype == np.bool_ and mask.shape == (game.num_actions,)
    assert list(np.flatnonzero(mask)) == legal
    if not state.is_terminal:
        assert all(r == 0 for r in state.returns())
    check_outcome(state)
    before = state.to_json()
    # Illegal actions and garbage are refused and change nothing.
    illegal = [a for a in range(game.num_actions) if a not in legal]
    for bad in rnd.sample(illegal, min(3, len(illegal))) + [-1, game.num_actions, 2**70, "1", None, 1.0, True]:
        with pytest.raises(IllegalActionError):
            state.apply(bad)
    assert state.to_json() == before
    # Observations: JSON-able dicts; tensors of the declared shape.
    for seat in range(game.num_players):
        obs = state.observation(seat)
        assert isinstance(obs, dict)
        json.dumps(obs)
        t = state.observation_tensor(seat)
        assert t.dtype == np.float32 and t.shape == tuple(game.observation_shape)
        out = np.full(game.observation_shape, 7.0, dtype=np.float32)
        assert state.observation_tensor(seat, out) is out
        assert np.array_equal(out, t)
    # Names parse back; every legal action applies (to a clone, which stays consistent);
    # clones are independent both ways; the saved form round-trips.
    for a in legal:
        assert state.parse_action(state.action_name(a)) == a
        c = state.clone()
        c.apply(a)
        assert c.history() == state.history() + [a]
    if legal:
        c = state.clone()
        c.apply(rnd.choice(legal))
        if game.backend == "reference":  # conformance.rs checks every legal action in Rust
            assert_consistent(game, c)
        assert state.to_json() == before
        original = state.clone()
        copy = original.clone()
        original.apply(legal[0])
        assert copy.to_json() == before
    if game.backend == "rust" or rnd.random() < 0.25:  # the reference replays in Python: slower
        back = game.state_from_json(before)
        assert back.to_json() == before and back == state
    # Determinization is checked in test_hidden_information.py.


def check_outcome(state: Any) -> None:
    """None while the game runs; at the end an immutable ``Outcome`` whose scores are the
    state's and whose winners are the seats with a positive return (none on a draw)."""
    outcome = state.outcome()
    if not state.is_terminal:
        assert outcome is None
        return
    assert isinstance(outcome, Outcome)
    assert isinstance(outcome.reason, str) and outcome.reason
    assert outcome.scores == tuple(state.scores())
    assert outcome.winners == tuple(k for k, r in enumerate(state.returns()) if r > 0)
    assert outcome.is_draw == all(r == 0 for r in state.returns())
    assert outcome.tie_break is None or isinstance(outcome.tie_break, str)
    with pytest.raises(dataclasses.FrozenInstanceError):
        outcome.reason = "changed"  # type: ignore[misc]
    assert state.outcome() == outcome


def protocol_members(protocol: type) -> dict[str, bool]:
    """Each public member ``protocol`` states, with whether it is a method (else a property)."""
    return {name: callable(member) for name, member in vars(protocol).items() if not name.startswith("_")}


def test_the_protocols_state_the_contract() -> None:
    state = protocol_members(StateProtocol)
    assert {"apply", "clone", "legal_actions", "determinize", "to_json"} <= {m for m, method in state.items() if method}
    assert {"current_player", "is_terminal", "num_actions"} <= {m for m, method in state.items() if not method}
    game = protocol_members(GameProtocol)
    assert {"new_state", "state_from_json"} <= {m for m, method in game.items() if method}
    assert {"name", "title", "options", "num_players", "num_actions"} <= {m for m, method in game.items() if not method}


def test_both_backends_offer_every_member_of_the_protocols(config: tuple[str, int], backend: str) -> None:
    game = make(config, backend)
    state = game.new_state(0)
    for protocol, thing in ((GameProtocol, game), (StateProtocol, state)):
        members = protocol_members(protocol)
        missing = [m for m in members if not hasattr(thing, m)]
        assert missing == [], f"{backend} {type(thing).__name__} lacks {missing}"
        kinds = {m: callable(getattr(thing, m)) for m in members}
        assert kinds == members, f"{backend} {type(thing).__name__}: a method where a property is stated, or back"


@pytest.mark.parametrize("backend", ["rust", "reference"])
def test_seat_to_act_is_the_current_player_while_the_game_goes_on(backend: str) -> None:
    state = regalia.make("duo", players=3, backend=backend).new_state(4)
    rnd = random.Random(4)
    while not state.is_terminal:
        assert seat_to_act(state) == state.current_player
        state.apply(rnd.choice(state.legal_actions()))
    with pytest.raises(InvalidArgumentError, match="game is over"):
        seat_to_act(state)


def test_random_games_keep_the_contract(config: tuple[str, int], backend: str) -> None:
    game = make(config, backend)
    assert game.num_players == config[1]
    rnd = random.Random(f"{config}{backend}")
    for i in range(GAMES_FOR.get(config[0], GAMES_PER_CONFIG)):
        state = game.new_state(i)
        steps = 0
        while not state.is_terminal:
            if steps % 3 == 0 or i < 2:
                check_step(game, state, rnd)
            state.apply(rnd.choice(state.legal_actions()))
            steps += 1
        check_step(game, state, rnd)
        assert len(state.history()) == steps
        r = state.returns()
        assert len(r) == game.num_players and abs(sum(r)) < 1e-9
        assert len(state.scores()) == game.num_players


def test_random_games_keep_the_contract_with_explicit_chance(explicit_name: str, backend: str) -> None:
    """The same harness through the chance nodes of explicit chance: there the current player
    is ``CHANCE_PLAYER``, the legal actions are the outcomes, their probabilities sum to 1,
    and observations, information states, determinization and saves work (at every chance
    node of the first game, then at every third step)."""
    game = make_explicit(explicit_name, backend)
    rnd = random.Random(f"chance{explicit_name}{backend}")
    games, checked = GAMES_FOR.get(explicit_name, GAMES_PER_CONFIG), 0
    for i in range(games):
        state = game.new_state(i)
        steps = 0
        while not state.is_terminal:
            if not state.is_chance_node:
                with pytest.raises(InvalidArgumentError, match="not a chance node"):
                    state.chance_outcomes()
            elif steps % 3 == 0 or i == 0:
                checked += 1
                outcomes = state.chance_outcomes()
                assert state.current_player == CHANCE_PLAYER
                assert [o for o, _ in outcomes] == state.legal_actions()
                assert all(p > 0 for _, p in outcomes) and abs(sum(p for _, p in outcomes) - 1) < 1e-12
                for seat in range(game.num_players):
                    if checked % 8 == 1:  # the reference rebuilds the whole record for it
                        state.information_state_string(seat)
                    world = state.determinize(seat, rnd.getrandbits(64))
                    assert world.is_chance_node and world.observation(seat) == state.observation(seat)
                check_step(game, state, rnd)
            state.apply(pick_step(state, rnd))
            steps += 1
        check_step(game, state, rnd)
    assert checked > games


def test_bad_arguments_are_clear_value_errors(config: tuple[str, int], backend: str) -> None:
    game = make(config, backend)
    state = game.new_state(1)
    before = state.to_json()
    for seat in (-1, game.num_players, "0", None, 2**80):
        with pytest.raises(InvalidArgumentError):
            state.observation(seat)
        with pytest.raises(InvalidArgumentError):
            state.observation_tensor(seat)
    for seed in (-1, 2**64, "seed", 1.5):
        with pytest.raises(InvalidArgumentError):
            game.new_state(seed)
        with pytest.raises(InvalidArgumentError):
            state.determinize(0, seed)
    with pytest.raises(InvalidArgumentError):
        state.observation_tensor(0, np.zeros(3, dtype=np.float32))
    for text in (5, "", "no such move at all"):
        with pytest.raises(IllegalActionError):
            state.parse_action(text)
    assert state.to_json() == before


def test_bad_saved_states_are_refused(config: tuple[str, int], backend: str) -> None:
    game = make(config, backend)
    state = game.new_state(3)
    state.apply(state.legal_actions()[-1])
    text = state.to_json()
    env = json.loads(text)
    variants = [
        "",
        "[]",
        "{",
        text[: len(text) // 2],
        text.replace('"regalia-state"', '"other"'),
        json.dumps({**env, "version": 2}),
        json.dumps({**env, "game": "nope"}),
        json.dumps({**env, "history": [10**6]}),
        json.dumps({**env, "seed": env["seed"] + 1}),
        json.dumps({**env, "state": {}}),
        json.dumps({**env, "state": [1, 2]}),
        json.dumps({**env, "options": {**env["options"], "players": 99}}),
    ]
    for key in env["state"]:
        variants.append(json.dumps({**env, "state": {**env["state"], key: "garbage"}}))
        variants.append(json.dumps({**env, "seed": None, "state": {**env["state"], key: 10**9}}))
    for bad in variants:
        with pytest.raises(InvalidStateError):
            game.state_from_json(bad)
    with pytest.raises(InvalidStateError):
        regalia.load_state("{}", backend=backend)  # type: ignore[arg-type]


def test_loads_across_backends(config: tuple[str, int]) -> None:
    rust, ref = make(config, "rust"), make(config, "reference")
    s = rust.new_state(11)
    for _ in range(5):
        if not s.is_terminal:
            s.apply(s.legal_actions()[0])
    assert ref.state_from_json(s.to_json()).to_json() == s.to_json()
    assert regalia.load_state(s.to_json()).to_json() == s.to_json()


def test_unknown_games_options_and_backends() -> None:
    for backend in regalia.BACKENDS:
        with pytest.raises(InvalidOptionError, match="duo-regna"):
            regalia.make("chess", backend=backend)  # type: ignore[arg-type]
        for g in regalia.games():
            with pytest.raises(InvalidOptionError, match="allowed"):
                regalia.make(g["name"], backend=backend, no_such_option=1)  # type: ignore[arg-type]
            with pytest.raises(InvalidOptionError):
                regalia.make(g["name"], backend=backend, players=g["max_players"] + 1)  # type: ignore[arg-type]
            with pytest.raises(InvalidOptionError):
                regalia.make(g["name"], backend=backend, players="two")  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError):
        regalia.make("duo-regna", backend="java")  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError):
        regalia.make("duo-regna", players=object())
    assert issubclass(RegaliaError, ValueError)


def test_both_backends_list_the_same_games() -> None:
    from regalia import reference

    assert regalia.games() == [json.loads(json.dumps(i.to_json())) for i in reference.games()]
    for g in regalia.games():
        for alias in g["aliases"]:
            assert regalia.make(alias).name == g["name"]


def out_of_range(allowed: dict[str, Any]) -> list[Any]:
    """Values that the declaration ``allowed`` (a listing's) refuses."""
    kind = allowed["type"]
    if kind == "integer":
        return [allowed["min"] - 1, allowed["max"] + 1, True, 1.5, "3"]
    if kind == "integer_list":
        n, lo, hi = allowed["length"], allowed["min"], allowed["max"]
        return [[lo] * (n + 1), [hi + 1] * n, [lo - 1] * n, lo]
    if kind == "choice":
        return ["no such choice", 1, [allowed["choices"][0]]]
    if kind == "boolean":
        return [1, "true", None]
    return []


def test_both_backends_declare_the_same_options_and_hold_to_them(backend: str) -> None:
    """The reference declares every game's options as the engine does (names, defaults,
    help, accepted values, saved defaults: the two listings are equal, seats included, and
    the seats are the range of ``players``, declared first), and each backend refuses what
    the declaration refuses, naming the option and what it accepts, and takes every saved
    default."""
    from regalia import reference

    for ours, theirs in zip(regalia.games(), reference.games(), strict=True):
        assert ours == json.loads(json.dumps(theirs.to_json())), ours["name"]
        players = ours["options"][0]
        assert players["name"] == "players" and players["allowed"]["type"] == "integer"
        assert (ours["min_players"], ours["max_players"]) == (players["allowed"]["min"], players["allowed"]["max"])
    saved = [(g["name"], o) for g in regalia.games() for o in g["options"] if "saved_default" in o]
    assert ("regnum", "final_round", "one_each") in [(g, o["name"], o["saved_default"]) for g, o in saved]
    for name, o in saved:
        made = regalia.make(name, backend=backend, **{o["name"]: o["saved_default"]})  # type: ignore[arg-type]
        assert made.options[o["name"]] == o["saved_default"], (name, o["name"])
    for g in regalia.games():
        defaults = {o["name"]: o["default"] for o in g["options"]}
        made = regalia.make(g["name"], backend=backend, **defaults)  # type: ignore[arg-type]
        assert {k: v for k, v in made.options.items() if defaults[k] is not None} == {
            k: v for k, v in defaults.items() if v is not None
        }
        for option in g["options"]:
            for bad in out_of_range(option["allowed"]):
                with pytest.raises(InvalidOptionError, match=f"option '{option['name']}' must be "):
                    regalia.make(g["name"], backend=backend, **{option["name"]: bad})  # type: ignore[arg-type]


def test_a_declaration_without_players_first_has_no_seats() -> None:
    """A reference game's seats come from ``players``, which its options declare first as
    an integer range; any other declaration is refused when the seats are read."""
    from dataclasses import dataclass

    from regalia.reference.options import Boolean, Integer, option, seats

    @dataclass(frozen=True)
    class Seated:
        players: int = option(2, Integer(2, 5), "number of players")
        fast: bool = option(False, Boolean(), "a switch")

    @dataclass(frozen=True)
    class Unseated:
        fast: bool = option(False, Boolean(), "a switch")
        players: int = option(2, Integer(2, 5), "number of players")

    assert seats(Seated) == (2, 5)
    with pytest.raises(TypeError, match="must declare 'players' first"):
        seats(Unseated)


def test_pickling_a_rust_state_round_trips() -> None:
    import pickle

    s = regalia.make("duo-regna").new_state(4)
    s.apply(s.legal_actions()[0])
    back = pickle.loads(pickle.dumps(s))
    assert back == s and back.history() == s.history()
    assert pickle.loads(pickle.dumps(regalia.make("duo-regna", max_rounds=9))).options["max_rounds"] == 9


@pytest.mark.parametrize("backend", ["rust", "reference"])
def test_is_terminal_follows_the_game_and_cannot_be_set(backend: str) -> None:
    """``is_terminal`` (in the extension, a value kept in the object and read by the
    interpreter itself) changes with ``apply`` only, goes with clones and loads, and refuses
    to be set."""
    state = make_game("duo", None, backend).new_state(2)
    pick = random.Random(2)
    with pytest.raises(AttributeError):
        state.is_terminal = True
    while state.legal_actions():
        assert state.is_terminal is False
        with pytest.raises(IllegalActionError):
            state.apply(-1)
        assert state.is_terminal is False
        state.apply(pick.choice(state.legal_actions()))
    assert state.is_terminal is True
    assert state.clone().is_terminal is True
    assert regalia.load_state(state.to_json()).is_terminal is True
    with pytest.raises(AttributeError):
        state.is_terminal = False
    assert state.is_terminal is True
    assert type(state).is_terminal.__doc__


@pytest.mark.parametrize("backend", ["rust", "reference"])
def test_apply_takes_the_action_alone_and_by_place(backend: str) -> None:
    """``apply(action, /)`` on both backends: the extension's is called by the interpreter
    with its one argument as it is (no argument parsing), so a keyword is refused alike."""
    state = make_game("duo", None, backend).new_state(3)
    first = state.legal_actions()[0]
    with pytest.raises(TypeError):
        state.apply(action=first)
    with pytest.raises(TypeError):
        state.apply()
    with pytest.raises(TypeError):
        state.apply(first, first)
    assert state.history() == []
    type(state).apply(state, first)
    assert state.history() == [first]
    if backend == "rust":
        with pytest.raises(TypeError):
            type(state).apply(object(), first)


def test_unknown_and_missing_fields_are_refused(config: tuple[str, int], backend: str) -> None:
    """A typo in a hand-edited file is refused, not ignored: at the top level, inside
    ``"state"`` and inside its objects (the generator)."""
    game = make(config, backend)
    state = game.new_state(3)
    env = json.loads(state.to_json())
    env["seed"], env["history"] = None, []
    assert game.state_from_json(json.dumps(env)).to_json() == json.dumps(env, sort_keys=True, separators=(",", ":"))
    st = env["state"]
    some = sorted(st)[0]
    for bad, what in [
        ({**env, "comment": "mine"}, "unknown field 'comment'"),
        ({**env, "state": {**st, "scroes": [1]}}, "unknown field 'scroes'"),
        ({**env, "state": {**st, "rng": {**st["rng"], "x": 1}}}, "unknown field 'x'"),
        ({**env, "state": {k: v for k, v in st.items() if k != some}}, some),
    ]:
        with pytest.raises(InvalidStateError, match=what):
            game.state_from_json(json.dumps(bad))
        with pytest.raises(InvalidStateError):
            regalia.load_state(json.dumps(bad), backend=backend)  # type: ignore[arg-type]


def test_a_history_without_its_seed_is_refused(config: tuple[str, int], backend: str) -> None:
    """A save whose history cannot be replayed (no seed) cannot be checked, and the seats'
    information states are built from it: refused, while the same save without its history
    (a position set up by hand) loads."""
    game = make(config, backend)
    state = game.new_state(4)
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    env = {**json.loads(state.to_json()), "seed": None}
    with pytest.raises(InvalidStateError, match="without its seed must have an empty 'history'"):
        game.state_from_json(json.dumps(env))
    assert game.state_from_json(json.dumps({**env, "history": []})).history() == []


def test_deep_nesting_is_invalid_json_never_a_recursion_error(backend: str) -> None:
    game = regalia.make("regnum", backend=backend)  # type: ignore[arg-type]
    env = json.loads(game.new_state(1).to_json())
    deep = json.dumps(
        {**env, "seed": None, "history": [], "state": {**env["state"], "rng": json.loads("[" * 130 + "]" * 130)}}
    )
    for text in ["[" * 1000, "[" * 100_000 + "]" * 100_000, '{"a":' * 5000, deep]:
        with pytest.raises(InvalidStateError, match="not valid JSON"):
            game.state_from_json(text)
        with pytest.raises(InvalidStateError, match="not valid JSON"):
            regalia.load_state(text, backend=backend)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError):
        regalia.make("regnum", backend=backend, card_set=json.loads("[" * 500 + "]" * 500))  # type: ignore[arg-type]


def test_none_stands_for_the_default_only_where_the_default_is_none(backend: str) -> None:
    for g in regalia.games():
        with pytest.raises(InvalidOptionError, match="option 'players' must be an integer"):
            regalia.make(g["name"], backend=backend, players=None)  # type: ignore[arg-type]
    assert regalia.make("duo", backend=backend, players=3, target=None).options["target"] == 15  # type: ignore[arg-type]
    assert regalia.make("regnum", backend=backend, card_set=None).options["card_set"] is None  # type: ignore[arg-type]


def test_huge_action_ids_are_out_of_range(backend: str) -> None:
    state = regalia.make("duo-regna", backend=backend).new_state(1)  # type: ignore[arg-type]
    for action in (10**30, -(10**30), 2**63, np.uint64(2**64 - 1)):
        with pytest.raises(IllegalActionError, match="out of range"):
            state.apply(action)
        with pytest.raises(IllegalActionError, match="out of range"):
            state.action_name(action)
    assert state.history() == []
