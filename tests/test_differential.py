"""The Rust extension and the pure-Python reference agree at every step of random games:
the whole saved state (generator included), legal actions, current player, every seat's
observation and tensor, and the returns. ``REGALIA_DIFF_GAMES=N`` runs N games per
configuration (the default is a quick amount per game)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import regalia
from regalia.theory.cfr import information_state_key
from tests.conftest import DIFF_GAMES, EXPLICIT_CHANCE_OPTIONS, make_explicit, make_game, pick_step

#: Default games per configuration; Duo Regna's 2,000 is the foundation's bar. Duo plays one
#: round a game here (``SUITE_OPTIONS``; tests/test_duo.py adds whole multi-round games).
DEFAULT_GAMES = {"duo-regna": 2000, "duo": 60, "duell-der-drachen": 300, "regine": 12, "regnum": 25}
#: Compare observations and tensors on every step of the first games, then on one step in this many.
OBS_EVERY = 7


def test_backends_agree_step_by_step(config: tuple[str, int]) -> None:
    name, players = config
    rust = make_game(name, players)
    ref = make_game(name, players, "reference")
    play_both(rust, ref, DIFF_GAMES or DEFAULT_GAMES.get(name, 200), random.Random(name))


def test_backends_agree_at_chance_nodes(explicit_name: str) -> None:
    """Explicit chance: the same chance nodes, outcomes and probabilities, outcomes drawn
    with their probabilities."""
    rust, ref = make_explicit(explicit_name), make_explicit(explicit_name, "reference")
    play_both(rust, ref, DIFF_GAMES or DEFAULT_GAMES.get(explicit_name, 200) // 4, random.Random(explicit_name))


def more_players() -> list[tuple[str, int]]:
    """Each game with explicit chance at each player count but its fewest."""
    return [
        (g["name"], n)
        for g in regalia.games()
        if g["name"] in EXPLICIT_CHANCE_OPTIONS
        for n in range(g["min_players"] + 1, g["max_players"] + 1)
    ]


@pytest.mark.parametrize(("name", "players"), more_players(), ids=[f"{n}-{p}p" for n, p in more_players()])
def test_backends_agree_at_chance_nodes_with_more_players(name: str, players: int) -> None:
    """Explicit chance with every other player count (fewer games each)."""
    options = {**EXPLICIT_CHANCE_OPTIONS[name], "players": players}
    rust, ref = backends(name, options)
    games = DIFF_GAMES or max(DEFAULT_GAMES.get(name, 200) // 8, 3)
    play_both(rust, ref, games, random.Random(f"{name} {players}"))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_regine_backends_agree_at_chance_nodes_for_every_seat_count(players: int) -> None:
    """Regine with explicit chance for each seat count (a short game, to 12 points): the
    harness above, then every seat's information state and its key at chance nodes."""
    options = {"chance": "explicit", "players": players, "target": 12}
    rust, ref = backends("regine", options)
    rnd = random.Random(f"regine explicit {players}")
    play_both(rust, ref, DIFF_GAMES or 2, rnd)
    r, p = rust.new_state(5), ref.new_state(5)
    compared = 0
    while r.legal_actions():
        if r.is_chance_node and rnd.random() < 0.1:
            for seat in range(players):
                assert r.information_state_string(seat) == p.information_state_string(seat)
                assert information_state_key(r, seat) == information_state_key(p, seat)
            compared += 1
        a = pick_step(r, rnd)
        r.apply(a)
        p.apply(a)
    assert compared > 0 and r.returns() == p.returns()


@pytest.mark.parametrize("chance", ["seeded", "explicit"])
def test_regine_small_variant_backends_agree(chance: str) -> None:
    """The small Regine of docs/games/regine.md (a 9-card deck, no Phase 1, two Suits), both
    modes."""
    options = {"players": 2, "deck": [3, 0, 0, 0, 0, 0, 3, 3], "build_phase": False, "suits": 2, "chance": chance}
    rust, ref = backends("regine", options)
    play_both(rust, ref, DIFF_GAMES or 20, random.Random(f"small regine {chance}"))


@pytest.mark.parametrize("chance", ["seeded", "explicit"])
@pytest.mark.parametrize(
    "deck",
    [
        {"colours": 1, "numbers": 1, "shapes": 2, "hand_size": 1},
        {"colours": 2, "numbers": 2, "shapes": 2, "jokers": False, "hand_size": 2},
        {"colours": 2, "numbers": 3, "shapes": 2, "hand_size": 3, "players": 3, "turbo": True},
    ],
)
def test_duo_small_variants_backends_agree(deck: dict[str, Any], chance: str) -> None:
    """The small Duos of docs/games/duo.md (and a three-player one with Turbo-Jokers), whole
    games of many rounds to the target, both modes."""
    options = {**deck, "chance": chance}
    rust, ref = backends("duo", options)
    play_both(rust, ref, DIFF_GAMES or 10, random.Random(f"small duo {deck} {chance}"))


@pytest.mark.parametrize("chance", ["seeded", "explicit"])
@pytest.mark.parametrize(
    "board",
    [
        {"territories": 2, "values": 2, "hand_size": 1, "cards_per_side": 1, "face_down_limit": 1},
        {"territories": 2, "values": 3, "hand_size": 1, "cards_per_side": 2, "face_down_limit": 1},
        {"territories": 3, "values": 4, "hand_size": 2, "cards_per_side": 2, "face_down_limit": 0},
        {"territories": 4, "values": 12, "hand_size": 3, "cards_per_side": 3, "face_down_limit": 2},
    ],
)
def test_duell_der_drachen_small_boards_backends_agree(board: dict[str, Any], chance: str) -> None:
    """Duell der Drachen's small boards (docs/games/duell-der-drachen.md), both modes."""
    options = {**board, "chance": chance}
    rust, ref = backends("duell-der-drachen", options)
    play_both(rust, ref, DIFF_GAMES or 40, random.Random(f"small duell {board} {chance}"))


def backends(name: str, options: dict[str, Any]) -> tuple[Any, Any]:
    """Game ``name`` with ``options`` on the Rust backend and on the reference."""
    return regalia.make(name, **options), regalia.make(name, backend="reference", **options)


def play_both(rust: Any, ref: Any, games: int, rnd: random.Random) -> None:
    """Plays ``games`` random games on both backends, comparing them at every step."""
    name, players = rust.name, rust.num_players
    for i in range(games):
        seed = rnd.getrandbits(64)
        r, p = rust.new_state(seed), ref.new_state(seed)
        step = 0
        while True:
            assert r.to_json() == p.to_json(), f"{name} seed {seed} step {step}"
            assert r.current_player == p.current_player
            assert r.is_chance_node == p.is_chance_node
            if r.is_chance_node:
                assert r.chance_outcomes() == p.chance_outcomes()
            legal = r.legal_actions()
            assert legal == p.legal_actions()
            if i < 20 or step % OBS_EVERY == 0 or not legal:
                for seat in range(players):
                    assert r.observation(seat) == p.observation(seat)
                    assert np.array_equal(r.observation_tensor(seat), p.observation_tensor(seat))
                assert r.returns() == p.returns() and r.scores() == p.scores()
                assert r.outcome() == p.outcome()
                if legal:
                    a = legal[0]
                    assert r.action_name(a) == p.action_name(a)
                    assert r.action_info(a) == p.action_info(a)
                    d_seed = rnd.getrandbits(64)
                    seat = rnd.randrange(players)
                    assert r.determinize(seat, d_seed).to_json() == p.determinize(seat, d_seed).to_json()
            if not legal:
                check_outcome(r, p)
                break
            a = pick_step(r, rnd)
            r.apply(a)
            p.apply(a)
            step += 1


def test_native_playouts_agree_with_the_reference(config: tuple[str, int]) -> None:
    name, players = config
    rust = make_game(name, players)
    ref = make_game(name, players, "reference")
    assert rust.random_playouts(30, seed=5) == ref.random_playouts(30, seed=5)
    assert rust.random_playouts(30, seed=5, threads=2) == rust.random_playouts(30, seed=5)


def check_outcome(rust_state: Any, ref_state: Any) -> str:
    """At the end both backends give the same outcome, which agrees with the scores and the
    returns (the winners are the seats with a positive return); its reason."""
    outcome = rust_state.outcome()
    assert outcome is not None and outcome == ref_state.outcome()
    assert list(outcome.scores) == rust_state.scores()
    assert outcome.winners == tuple(k for k, r in enumerate(rust_state.returns()) if r > 0)
    return str(outcome.reason)


#: Option sets whose games end in each way the game can end, and the reasons random games
#: with them reach (a small pile runs out, the guards stop short games, a short target).
ENDINGS: list[tuple[str, dict[str, Any], set[str]]] = [
    ("duo-regna", {"dragon_deck": [2, 1], "dragons_to_win": 3}, {"target_reached", "dragon_pile_empty"}),
    ("duo-regna", {"dragon_deck": [3, 3], "dragons_to_win": 3, "max_rounds": 8}, {"target_reached", "round_guard"}),
    ("duo-regna", {"max_rounds": 3, "chance": "explicit"}, {"round_guard"}),
    ("duell-der-drachen", {}, {"all_markers", "board_full", "no_legal_move"}),
    ("duo", {"rounds": 1}, {"rounds_played"}),
    ("duo", {"target": 3, "rounds": 0}, {"target_reached", "round_guard"}),
    ("regine", {"max_rounds": 1}, {"round_guard"}),
    ("regine", {"target": 8}, {"target_reached"}),
    ("regnum", {"max_turns": 6}, {"turn_guard"}),
    ("regnum", {"players": 3}, {"final_round"}),
]


@pytest.mark.parametrize(("name", "options", "reasons"), ENDINGS, ids=[f"{n}-{sorted(o)}" for n, o, _ in ENDINGS])
def test_backends_agree_on_every_kind_of_ending(name: str, options: dict[str, Any], reasons: set[str]) -> None:
    """Random games of option sets that end in different ways: the same outcome on both
    backends, and every reason listed is reached."""
    rust, ref = backends(name, options)
    rnd = random.Random(f"endings {name} {options}")
    seen = set()
    games = 200 if name == "duell-der-drachen" else 30
    for _ in range(games):
        seed = rnd.getrandbits(64)
        r, p = rust.new_state(seed), ref.new_state(seed)
        while not r.is_terminal:
            assert r.outcome() is None and p.outcome() is None
            a = pick_step(r, rnd)
            r.apply(a)
            p.apply(a)
        seen.add(check_outcome(r, p))
    assert seen == reasons
