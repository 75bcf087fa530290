"""The caches of the SVG pictures (``regalia.views.pictures.canvas``): a picture drawn with
them warm is byte for byte the one drawn without them, for every seat and a spectator at many
positions of every game and player count; a seat's picture drawn after the caches were filled
by every other seat's pictures, and by worlds the seat cannot tell apart, is still the one
its own view alone draws (no kept piece carries another seat's hidden cards); and the caches
are used, and bounded."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("PIL", reason='pictures need Pillow (pip install "regalia[pictures]")')

from regalia.views.pictures import canvas as drawing  # noqa: E402
from regalia.views.pictures import picture, picture_svg, picture_svg_json, spectator_svg  # noqa: E402
from tests.conftest import make_game, random_positions  # noqa: E402

#: Positions drawn per game and player count, and worlds per seat there.
POSITIONS = 6
WORLDS = 2


def positions(game: Any, seed: str) -> list[Any]:
    """``POSITIONS`` states of one random game (its start, its end and random ones between)."""
    return random_positions(game, seed, POSITIONS)


def uncached_svg(game: Any, state: Any, seat: int | None) -> str:
    """``seat``'s SVG picture (None: a spectator's) drawn without any cache."""
    with drawing.caches(False):
        if seat is None:
            return spectator_svg(game.name, [state.observation(s) for s in range(game.num_players)], game.options)
        return picture_svg(game.name, state.observation(seat), game.options)


def test_pictures_drawn_with_the_caches_are_the_pictures_drawn_without(config: tuple[str, int]) -> None:
    game = make_game(*config)
    drawing.clear_caches()
    for _ in range(2):  # the caches cold, then warm with the same pictures
        for state in positions(game, f"caches{config}"):
            observations = [state.observation(s) for s in range(game.num_players)]
            for seat in range(game.num_players):
                svg, text = picture_svg_json(game.name, observations[seat], game.options)
                assert (
                    svg == picture_svg(game.name, observations[seat], game.options) == uncached_svg(game, state, seat)
                )
                assert text == json.dumps(svg)
            assert spectator_svg(game.name, observations, game.options) == uncached_svg(game, state, None)


def test_a_seats_picture_from_warm_caches_shows_nothing_of_other_seats(config: tuple[str, int]) -> None:
    game = make_game(*config)
    rnd = random.Random(f"cache leaks{config}")
    drawing.clear_caches()
    for state in positions(game, f"cache leaks{config}"):
        for seat in range(game.num_players):
            truth = uncached_svg(game, state, seat)
            for _ in range(WORLDS):
                world = state.determinize(seat, rnd.getrandbits(64))
                # Every other seat's picture and the spectator's of this world fill the caches
                # with cards the seat cannot see; its own picture must not change.
                for other in range(game.num_players):
                    picture_svg(game.name, world.observation(other), game.options)
                spectator_svg(game.name, [world.observation(s) for s in range(game.num_players)], game.options)
                assert picture_svg(game.name, world.observation(seat), game.options) == truth, f"seat {seat} can tell"


def test_raster_pictures_are_the_same_with_the_caches() -> None:
    game = make_game("regnum", 3)
    state = positions(game, "raster")[2]
    warm = picture(game.name, state.observation(1), game.options)
    with drawing.caches(False):
        assert np.array_equal(picture(game.name, state.observation(1), game.options), warm)


def test_the_caches_are_used_and_bounded() -> None:
    game = make_game("duo", 4)
    drawing.clear_caches()
    states = positions(game, "bounded")
    for state in states * 2:
        picture_svg_json(game.name, state.observation(0), game.options)
    kept = [
        drawing._fragments,
        drawing._kept_text,
        drawing._kept_json,
        drawing._kept_rounded,
        drawing._kept_polygon,
        drawing._measured,
    ]
    for cache in kept:
        info = cache.cache_info()
        assert info.hits > 0, cache
        assert info.maxsize is not None and info.currsize <= info.maxsize
    # Off, they are not touched.
    before = [cache.cache_info() for cache in kept]
    with drawing.caches(False):
        svg, text = picture_svg_json(game.name, states[1].observation(2), game.options)
    assert text == json.dumps(svg)
    assert [cache.cache_info() for cache in kept] == before
