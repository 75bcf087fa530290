"""No seat learns what it may not see. For every game, player count, backend and seat: the
true state and its determinizations for that seat (states that differ only in what the seat
cannot see) show the seat the same observation, the same tensor bit for bit, on its turn the
same legal actions with the same names, the same agent view and, at the end, the same
outcome (public once the game is over); and determinizing really
resamples the hidden cards (every seat has something hidden at some point of a game)."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

import regalia
from regalia.agents import view_of
from tests.conftest import make_game

GAMES_PER_CONFIG = 4
#: Determinizations compared with the truth per seat at a checked step.
SEEDS = 3


def make(config: tuple[str, int], backend: str) -> Any:
    name, players = config
    return make_game(name, players, backend)


def public_view(game: Any, state: Any, seat: int) -> dict[str, Any]:
    """The agent view's public fields (the sampler is private: it holds the true state)."""
    view = view_of(state, seat, game.name, game.options)
    return {f.name: getattr(view, f.name) for f in dataclasses.fields(view) if not f.name.startswith("_")}


def shown(game: Any, state: Any, seat: int) -> tuple[Any, ...]:
    """Everything ``seat`` is shown of ``state``."""
    legal = state.legal_actions() if state.current_player == seat else []
    return (
        state.observation(seat),
        state.observation_tensor(seat).tobytes(),
        legal,
        [state.action_name(a) for a in legal],
        public_view(game, state, seat),
        state.outcome(),  # public at the end: nothing hidden beyond the final scores
    )


def cards(state: Any) -> Any:
    """The rules state without its generator: what determinizing may change."""
    data = json.loads(state.to_json())["state"]
    data.pop("rng", None)
    return data


def test_a_seat_cannot_tell_the_truth_from_its_determinizations(config: tuple[str, int], backend: str) -> None:
    assert_determinizations_hide(make(config, backend), random.Random(f"leak{config}{backend}"))


@pytest.mark.parametrize("chance", ["seeded", "explicit"])
@pytest.mark.parametrize(
    "board",
    [
        {"territories": 2, "values": 3, "hand_size": 1, "cards_per_side": 2, "face_down_limit": 1},
        {"territories": 3, "values": 4, "hand_size": 2, "cards_per_side": 2, "face_down_limit": 0},
    ],
)
def test_duell_der_drachen_small_boards_hide_the_same(board: dict[str, Any], chance: str, backend: str) -> None:
    game = regalia.make("duell-der-drachen", backend=backend, chance=chance, **board)  # type: ignore[arg-type]
    assert_determinizations_hide(game, random.Random(f"leak small duell {board}{chance}{backend}"))


#: Games that end by their guards or a set number of rounds, whose outcomes read the most state.
GUARDED = [
    ("duo-regna", {"max_rounds": 5}),
    ("duo", {"rounds": 1, "players": 3}),
    ("regine", {"max_rounds": 1}),
    ("regnum", {"max_turns": 7}),
]


@pytest.mark.parametrize(("name", "options"), GUARDED, ids=[n for n, _ in GUARDED])
def test_an_outcome_is_the_same_in_every_world_a_seat_cannot_tell_apart(
    name: str, options: dict[str, Any], backend: str
) -> None:
    game = regalia.make(name, backend=backend, **options)  # type: ignore[arg-type]
    assert_determinizations_hide(game, random.Random(f"leak ending {name}{backend}"))


def assert_determinizations_hide(game: Any, rnd: random.Random) -> None:
    """The module's check on random games of ``game``."""
    varied: set[int] = set()
    for i in range(GAMES_PER_CONFIG):
        state = game.new_state(i)
        while True:
            if state.is_terminal or rnd.random() < 0.3:
                for seat in range(game.num_players):
                    truth = shown(game, state, seat)
                    for _ in range(SEEDS):
                        d = state.determinize(seat, rnd.getrandbits(64))
                        assert shown(game, d, seat) == truth, f"seat {seat} can tell (seed {i})"
                        assert d.seed is None and d.history() == []
                        assert game.state_from_json(d.to_json()) == d
                        if cards(d) != cards(state):
                            varied.add(seat)
                    world = view_of(state, seat, game.name, game.options).sample_world(rnd.getrandbits(64))
                    assert shown(game, world, seat) == truth
            if state.is_terminal:
                break
            state.apply(rnd.choice(state.legal_actions()))
    hidden_from = set(range(game.num_players))
    assert varied == hidden_from, f"determinize resampled hidden cards only for seats {varied}"
