"""Shared fixtures: every game and player count, on both backends."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

import regalia

#: Random games per configuration in the differential test (raise with REGALIA_DIFF_GAMES).
DIFF_GAMES = int(os.environ.get("REGALIA_DIFF_GAMES", "0"))

# Hypothesis: a quick, repeatable amount by default; HYPOTHESIS_PROFILE=long explores.
settings.register_profile(
    "quick", max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("long", max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "quick"))


#: Options the generic suites play a game with (its defaults otherwise). They check every
#: step, and Duo's default game runs to the target, which random players rarely reach: some
#: 10,000 steps to the stalemate guard. So they play Duo one round at a time (every state of a
#: round, its end and the scoring); tests/test_duo.py plays whole games on both backends.
SUITE_OPTIONS: dict[str, dict[str, Any]] = {"duo": {"rounds": 1}}


#: Every game that supports explicit chance, with the options the generic suites play it with
#: in that mode (they walk its chance nodes too).
EXPLICIT_CHANCE_OPTIONS: dict[str, dict[str, Any]] = {
    "duo-regna": {"chance": "explicit"},
    "duell-der-drachen": {"chance": "explicit"},
    "duo": {"chance": "explicit", "rounds": 1},
    "regnum": {"chance": "explicit"},
    "regine": {"chance": "explicit"},
}


def make_explicit(name: str, backend: str = "rust") -> Any:
    """Game ``name`` with explicit chance, as the generic suites play it."""
    return regalia.make(name, backend=backend, **EXPLICIT_CHANCE_OPTIONS[name])  # type: ignore[arg-type]


def pick_step(state: Any, rnd: Any) -> int:
    """A random next step: at a chance node an outcome drawn with its probability, else a
    uniformly random legal action."""
    if state.is_chance_node:
        outcomes, weights = zip(*state.chance_outcomes())
        return int(rnd.choices(outcomes, weights)[0])
    return int(rnd.choice(state.legal_actions()))


def make_game(name: str, players: int | None = None, backend: str = "rust") -> Any:
    """Game ``name`` as the generic suites play it (with :data:`SUITE_OPTIONS`)."""
    options = dict(SUITE_OPTIONS.get(name, {}))
    if players is not None:
        options["players"] = players
    return regalia.make(name, backend=backend, **options)  # type: ignore[arg-type]


def assert_consistent(game: Any, state: Any) -> None:
    """The game's own ``check_state`` holds (the Rust loader runs it on every saved state)."""
    if game.backend == "reference":
        assert game.rules.check_state(state.data) is None
    else:
        assert game.state_from_json(state.to_json()) == state


def configs() -> list[tuple[str, int]]:
    """Every (game, players) pair the library supports."""
    return [(g["name"], n) for g in regalia.games() for n in range(g["min_players"], g["max_players"] + 1)]


def config_ids() -> list[str]:
    return [f"{name}-{n}p" for name, n in configs()]


@pytest.fixture(params=configs(), ids=config_ids())
def config(request: Any) -> tuple[str, int]:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture(params=sorted(EXPLICIT_CHANCE_OPTIONS))
def explicit_name(request: Any) -> str:
    """Each game that supports explicit chance."""
    return request.param  # type: ignore[no-any-return]


@pytest.fixture(params=regalia.BACKENDS)
def backend(request: Any) -> str:
    return request.param  # type: ignore[no-any-return]


def random_positions(game: Any, seed: str, count: int) -> list[Any]:
    """``count`` states of one random game of ``game`` seeded by ``seed``: its start, its end
    and random ones between."""
    rnd = random.Random(seed)
    state = game.new_state(rnd.getrandbits(64))
    states = [state.clone()]
    while not state.is_terminal:
        state.apply(rnd.choice(state.legal_actions()))
        states.append(state.clone())
    inner = sorted(rnd.sample(range(1, len(states) - 1), min(count - 2, len(states) - 2)))
    return [states[0], *(states[i] for i in inner), states[-1]]


@pytest.fixture
def data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Saves go to a folder of the test's own (a module asks for it with ``usefixtures``)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    """A web server in this process on a fresh database, bots moving at once, with the key."""
    from fastapi.testclient import TestClient

    from regalia.web import create_app
    from tests.web_helpers import KEY

    with TestClient(create_app(tmp_path / "web.sqlite3", pace=0, key=KEY), headers={"X-Regalia-Key": KEY}) as c:
        yield c
