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


def longest_whole_record(game: Any) -> tuple[int, int, int]:
    """Walks every history of ``game`` (explicit chance): at each, each seat's tensor of
    ``slots="all"`` holds its whole record (no entry left out, the record's entries all
    written, the slots after them empty). The longest record, the slots and the longest
    history."""
    (size,) = game.information_state_shape("all")
    entry = game.information_state_shape(1)[0] - 1
    slots = (size - 1) // entry
    longest = deepest = 0
    stack = [game.new_state(0)]
    while stack:
        state = stack.pop()
        deepest = max(deepest, len(state.history()))
        for seat in range(game.num_players):
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
    return longest, slots, deepest


def test_the_whole_record_never_leaves_an_entry_out_over_a_whole_tree() -> None:
    """Every history of the smallest board with explicit chance keeps each seat's whole
    record, and the longest record fills its slots exactly (the bound is tight: all four
    cards are dealt, each seat plays twice and sees every action)."""
    game = regalia.make("duell-der-drachen", chance="explicit", **SMALL_BOARDS[0])  # type: ignore[arg-type]
    longest, slots, _ = longest_whole_record(game)
    assert longest == slots


#: Small variants of the other games with bounded histories, walked whole with explicit
#: chance, and whether their longest record fills the tensor exactly. Duo Regna: one round
#: with a pile of two dragon cards, and two rounds with three (a dragon captured in the
#: second round ends the game, so one card is revealed). Duo: a single round of six cards, one in each hand, where the
#: bound is not reached (turns alternate and a draw ends one, so the seats cannot lay every
#: card it allows for).
BOUNDED_VARIANTS = [
    ("duo-regna", {"dragon_deck": [1, 1], "dragons_to_win": 1, "max_rounds": 1}, True),
    ("duo-regna", {"dragon_deck": [2, 1], "dragons_to_win": 2, "max_rounds": 2}, True),
    ("duo", {"colours": 1, "numbers": 2, "shapes": 3, "jokers": False, "hand_size": 1, "rounds": 1}, False),
]


@pytest.mark.parametrize(("name", "options", "tight"), BOUNDED_VARIANTS)
def test_bounded_games_keep_every_record_over_their_whole_tree(name: str, options: dict[str, Any], tight: bool) -> None:
    """Every history of a small variant stays within its game's bound, and the tensor of
    ``slots="all"`` keeps each seat's whole record (the longest one fills it, where the bound
    is reached); both backends size it alike."""
    game = regalia.make(name, chance="explicit", **options)  # type: ignore[arg-type]
    ref = regalia.make(name, backend="reference", chance="explicit", **options)  # type: ignore[arg-type]
    assert game.information_state_shape("all") == ref.information_state_shape("all")
    longest, slots, deepest = longest_whole_record(game)
    bound = ref.rules.max_history_len()
    if tight:
        assert (longest, deepest) == (slots, bound)
    else:
        assert longest < slots and deepest < bound


@pytest.mark.parametrize("chance", ["seeded", "explicit"])
@pytest.mark.parametrize("name", ["duo", "duo-regna", "regnum"])
def test_random_whole_games_stay_within_their_bounds(name: str, chance: str) -> None:
    """Random whole games with the default options, on the reference: no history is longer
    than the game's bound, no seat acts more often than its own; the engine sizes the
    whole record as the reference does."""
    game = regalia.make(name, backend="reference", chance=chance)  # type: ignore[arg-type]
    rust = regalia.make(name, chance=chance)  # type: ignore[arg-type]
    assert rust.information_state_shape("all") == game.information_state_shape("all")
    rules = game.rules
    rnd = random.Random(f"bounds {name} {chance}")
    for seed in range(4):
        state = game.new_state(seed)
        own = [0] * game.num_players
        while not state.is_terminal:
            if not state.is_chance_node:
                own[state.current_player] += 1
            state.apply(pick_step(state, rnd))
        assert len(state.history()) <= rules.max_history_len()
        assert max(own) <= rules.max_seat_actions()


#: Options that move each term of a game's bounds: players, deck and hands, rounds or turns.
BOUND_OPTIONS = [
    ("duo-regna", {"dragon_deck": [0, 3], "dragons_to_win": 64, "max_rounds": 10_000}),
    ("duo-regna", {"dragon_deck": [5, 0], "dragons_to_win": 2, "max_rounds": 7}),
    ("duo-regna", {"dragon_deck": [32, 0], "dragons_to_win": 64, "max_rounds": 40}),
    ("duo", {"players": 6, "hand_size": 3, "turbo": True, "rounds": 3}),
    ("duo", {"players": 3, "colours": 2, "jokers": False, "hand_size": 2, "switch_piles": True}),
    ("regnum", {"players": 4, "max_turns": 7}),
    ("regnum", {"players": 3, "max_turns": 1}),
]


@pytest.mark.parametrize("chance", ["seeded", "explicit"])
@pytest.mark.parametrize(("name", "options"), BOUND_OPTIONS)
def test_both_backends_size_the_whole_record_alike(name: str, options: dict[str, Any], chance: str) -> None:
    """Over options that change every term of the bounds, the engine sizes the whole record
    as the reference does (which counts it from its own bounds)."""
    rust = regalia.make(name, chance=chance, **options)  # type: ignore[arg-type]
    ref = regalia.make(name, backend="reference", chance=chance, **options)  # type: ignore[arg-type]
    rules = ref.rules
    entry = ref.information_state_shape(1)[0] - 1
    slots = 1 + rules.max_history_len() + rules.max_seat_actions()
    assert rust.information_state_shape("all") == ref.information_state_shape("all") == (1 + slots * entry,)


#: Every small variant whose whole record both backends give, with its game.
WHOLE_RECORDS = [
    *(("duell-der-drachen", board) for board in SMALL_BOARDS),
    *((name, options) for name, options, _ in BOUNDED_VARIANTS),
    ("regnum", {"max_turns": 2}),
]


@pytest.mark.parametrize("chance", ["seeded", "explicit"])
@pytest.mark.parametrize(("name", "options"), WHOLE_RECORDS)
def test_the_whole_record_is_the_same_on_both_backends_and_hides_what_it_should(
    name: str, options: dict[str, Any], chance: str
) -> None:
    """Random games of small variants: both backends give the same whole-record tensor,
    which keeps every entry, and a seat's world from ``determinize`` gives it the same
    tensor."""
    rust = regalia.make(name, chance=chance, **options)  # type: ignore[arg-type]
    ref = regalia.make(name, backend="reference", chance=chance, **options)  # type: ignore[arg-type]
    assert rust.information_state_shape("all") == ref.information_state_shape("all")
    rnd = random.Random(f"whole record {name} {options} {chance}")
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
    """A game with no known bound on its histories refuses ``slots="all"``, and so does one
    whose bound needs more slots than a tensor may keep; Duell der Drachen's full board has
    one."""
    regine = regalia.make("regine", backend=backend)  # type: ignore[arg-type]
    with pytest.raises(regalia.InvalidArgumentError, match="no known bound on its histories"):
        regine.information_state_shape("all")
    with pytest.raises(regalia.InvalidArgumentError, match="no known bound on its histories"):
        regine.new_state(1).information_state_tensor(0, "all")
    for name, options in (("duo", {"rounds": 10_000}), ("regnum", {"max_turns": 100_000})):
        long = regalia.make(name, backend=backend, **options)  # type: ignore[arg-type]
        with pytest.raises(regalia.InvalidArgumentError, match="more than a tensor may keep"):
            long.information_state_shape("all")
        with pytest.raises(regalia.InvalidArgumentError, match="more than a tensor may keep"):
            long.new_state(1).information_state_tensor(0, "all")
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
    import regalia.envs.openspiel  # noqa: F401  (registers the games)

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
