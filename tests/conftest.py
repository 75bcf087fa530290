"""Shared fixtures: every game and player count, on both backends."""

from __future__ import annotations

import os
from typing import Any

import pytest

import regalia

#: Random games per configuration in the differential test (raise with REGALIA_DIFF_GAMES).
DIFF_GAMES = int(os.environ.get("REGALIA_DIFF_GAMES", "0"))


def configs() -> list[tuple[str, int]]:
    """Every (game, players) pair the library supports."""
    return [(g["name"], n) for g in regalia.games() for n in range(g["min_players"], g["max_players"] + 1)]


def config_ids() -> list[str]:
    return [f"{name}-{n}p" for name, n in configs()]


@pytest.fixture(params=configs(), ids=config_ids())
def config(request: Any) -> tuple[str, int]:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture(params=regalia.BACKENDS)
def backend(request: Any) -> str:
    return request.param  # type: ignore[no-any-return]
