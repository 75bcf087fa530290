"""Screens: every line fits 80 columns, plain mode is plain, colour mode has colour."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from rich.cells import cell_len

import regalia
from regalia.cli import console
from regalia.cli.app import COMMANDS
from regalia.views.render import RENDERERS, render, render_plain
from tests.cli_helpers import run

ESCAPE = re.compile(r"\x1b\[")


def too_wide(text: str) -> list[str]:
    return [line for line in text.splitlines() if cell_len(line) > console.WIDTH]


def observations(game: str, players: int, games: int = 3) -> list[tuple[dict, int]]:
    """Every seat's observation at every step of a few random games."""
    seen = []
    for seed in range(games):
        state = regalia.make(game, players=players).new_state(seed)
        pick = random.Random(seed)
        while True:
            seen += [(state.observation(s), s) for s in range(players)]
            if state.is_terminal:
                break
            state.apply(pick.choice(state.legal_actions()))
    return seen


@pytest.fixture(autouse=True)
def plain_screen() -> None:
    console.set_plain(True)


@pytest.mark.parametrize(
    ("game", "players"),
    [(g["name"], n) for g in regalia.games() for n in sorted({g["min_players"], g["max_players"]})],
)
def test_every_board_fits_80_columns(game: str, players: int) -> None:
    for obs, _ in observations(game, players):
        assert not too_wide(render(game, obs)), render(game, obs)


@pytest.mark.parametrize(
    ("game", "players"),
    [(g["name"], n) for g in regalia.games() for n in sorted({g["min_players"], g["max_players"]})],
)
def test_boards_call_their_seat_you_and_the_others_as_the_narration_does(game: str, players: int) -> None:
    """A board never names its own seat by number; with two seats it names no seat by number
    (you and the opponent), with more it names the others "seat K"."""
    said_you = False
    for obs, seat in observations(game, players, games=2):
        board = render(game, obs)
        assert f"seat {seat}" not in board, board
        if players == 2:
            assert not re.search(r"seat \d", board), board
        said_you |= bool(re.search(r"\byou(r)?\b", board, re.I))
    assert said_you


def test_duell_der_drachens_marker_points_to_the_side_that_holds_it() -> None:
    for obs, seat in observations("duell-der-drachen", 2, games=2):
        rows = render("duell-der-drachen", obs).splitlines()[2:7]
        for territory, row in zip(obs["territories"], rows):
            held = territory["marker"]
            word = "--" if held is None else ("< yours" if held == seat else "theirs >")
            assert f" {word} " in row, row
            assert "1 ->" not in row and "<- 0" not in row


def test_the_plain_fallback_fits_and_shows_every_field() -> None:
    obs, _ = observations("duo-regna", 2, games=1)[-1]
    text = render_plain(obs)
    assert not too_wide(text)
    assert all(key.replace("_", " ") in text for key in obs)


def test_boards_asked_for_ascii_are_ascii_and_others_have_card_symbols() -> None:
    boards = [
        (render("duo-regna", obs, symbols=False), render("duo-regna", obs))
        for obs, _ in observations("duo-regna", 2, games=1)
    ]
    assert all(ascii_board.isascii() for ascii_board, _ in boards)
    assert any("6♛" in board for _, board in boards) and all("6Q" not in board for _, board in boards)


def test_colour_mode_has_colours_and_card_symbols() -> None:
    result = run("play", "duo-regna", "--seats", "human,random", "--seed", "1", input="quit\n", FORCE_COLOR="1")
    assert ESCAPE.search(result.stdout) and "6♛" in result.stdout
    plain = run(
        "play", "duo-regna", "--seats", "human,random", "--seed", "1", "--no-color", input="quit\n", FORCE_COLOR="1"
    )
    assert not ESCAPE.search(plain.stdout) and "6Q" in plain.stdout


def test_commands_fit_80_columns(tmp_path: Path) -> None:
    record = tmp_path / "m.json"
    outputs = [
        run("games"),
        run("rules", "duo-regna"),
        run(
            "play",
            "duo-regna",
            "--seats",
            "human,random",
            "--seed",
            "2",
            "--record",
            str(record),
            input="help\nzz\nhint\n" + "a\n" * 400,
        ),
        run("watch", "duo-regna", "--seats", "random,random", "--seed", "2", "--delay", "0"),
        run("simulate", "duo-regna", "-n", "3"),
        run("tournament", "duo-regna", "--agents", "rules,random", "-n", "2"),
        run("replay", str(record), "--boards"),
        *[run(name, "--help") for name, _, _ in COMMANDS],
        run("--help"),
    ]
    for result in outputs:
        assert result.exit_code == 0, result.output
        assert not too_wide(result.stdout), too_wide(result.stdout)
        assert not ESCAPE.search(result.stdout)


def test_renderers_are_registered_for_known_games_only() -> None:
    names = {g["name"] for g in regalia.games()}
    assert set(RENDERERS) <= names
