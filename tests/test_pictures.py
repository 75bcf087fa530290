"""Pictures of the table (``regalia.views.pictures``) and the adapters' ``rgb_array`` render mode:
a seat's picture shows only what the seat sees (it does not change when the cards hidden from
it are resampled, while a spectator's picture of the same states does), every game and player
count draws at its fixed size, bad input is a clear error, and the PettingZoo and Gymnasium
environments render frames."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import regalia
from tests.conftest import make_game, random_positions

pytest.importorskip("PIL", reason='pictures need Pillow (pip install "regalia[pictures]")')

from regalia.views.pictures import PICTURES, picture, size, spectator_picture, state_picture  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
#: Random positions checked per game and player count, and determinizations per seat there.
POSITIONS = 5
SEEDS = 2


def positions(game: Any, seed: str) -> list[Any]:
    """``POSITIONS`` states of one random game (its start, its end and random ones between)."""
    return random_positions(game, seed, POSITIONS)


def test_a_seats_picture_does_not_change_when_its_hidden_cards_are_resampled(config: tuple[str, int]) -> None:
    game = make_game(*config)
    rnd = random.Random(f"pictures{config}")
    spectator_saw_hidden = False
    for state in positions(game, f"game{config}"):
        for seat in range(game.num_players):
            truth = state_picture(game, state, seat)
            assert truth.shape == size(game.name) and truth.dtype == np.uint8
            for _ in range(SEEDS):
                world = state.determinize(seat, rnd.getrandbits(64))
                assert np.array_equal(state_picture(game, world, seat), truth), f"seat {seat} can tell"
                if not np.array_equal(state_picture(game, world, None), state_picture(game, state, None)):
                    spectator_saw_hidden = True
    # The same states drawn for a spectator (every card open) do differ: what the seat's
    # picture leaves out would show if it were drawn.
    assert spectator_saw_hidden


def test_every_picture_of_a_game_has_its_size_and_shows_the_seat(config: tuple[str, int]) -> None:
    game = make_game(*config)
    state = game.new_state(5)
    shots = [state_picture(game, state, seat) for seat in range(game.num_players)]
    shots.append(state_picture(game, state, None))
    for shot in shots:
        assert shot.shape == size(game.name) and shot.dtype == np.uint8
        colours = (shot[..., 0].astype(np.uint32) << 16) | (shot[..., 1].astype(np.uint32) << 8) | shot[..., 2]
        assert shot.flags.c_contiguous and len(np.unique(colours)) > 8  # a drawing, not a blank
    # Every view is a picture of its own (each says whose view it is).
    assert len({shot.tobytes() for shot in shots}) == len(shots)


def test_pictures_are_drawn_from_observations_alone() -> None:
    game = regalia.make("duell-der-drachen")
    state = game.new_state(3)
    obs = [state.observation(s) for s in range(2)]
    assert np.array_equal(picture(game.name, obs[1], game.options), state_picture(game, state, 1))
    assert np.array_equal(spectator_picture(game.name, obs, game.options), state_picture(game, state, None))


def test_bad_input_is_a_clear_error() -> None:
    obs = regalia.make("duo").new_state(1).observation(0)
    with pytest.raises(regalia.InvalidOptionError, match="no picture for game"):
        picture("poker", obs)
    with pytest.raises(regalia.InvalidArgumentError, match="not an observation of duo"):
        picture("duo", {"seat": 0})
    with pytest.raises(regalia.InvalidArgumentError, match="not an observation"):
        picture("duo", "seat 0")  # type: ignore[arg-type]
    with pytest.raises(regalia.InvalidArgumentError, match="not an observation of regnum"):
        picture("regnum", obs)
    with pytest.raises(regalia.InvalidArgumentError, match="every seat's observation"):
        spectator_picture("duo", [obs, obs])
    with pytest.raises(regalia.InvalidArgumentError, match="every seat's observation"):
        spectator_picture("duo", [])


def test_every_game_has_a_picture() -> None:
    assert set(PICTURES) == {g["name"] for g in regalia.games()}


def test_gymnasium_renders_frames_of_a_whole_episode(config: tuple[str, int]) -> None:
    RegaliaEnv = pytest.importorskip("regalia.envs.gymnasium").RegaliaEnv
    from gymnasium.wrappers import RenderCollection

    name, players = config
    seat = players - 1
    options = {"rounds": 1} if name == "duo" else {}
    env = RenderCollection(RegaliaEnv(name, seat=seat, players=players, render_mode="rgb_array", **options))
    _, info = env.reset(seed=4)
    done, steps = False, 0
    while not done and steps < 30:
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        done, steps = terminated or truncated, steps + 1
    frames = env.render()
    assert len(frames) == steps + 1
    for frame in frames:
        assert frame.shape == size(name) and frame.dtype == np.uint8
    # The last frame is the seat's view of the game as it stands.
    assert np.array_equal(frames[-1], state_picture(env.unwrapped.game, env.unwrapped.state, seat))


def test_gymnasium_check_env_passes_with_rgb_array() -> None:
    RegaliaEnv = pytest.importorskip("regalia.envs.gymnasium").RegaliaEnv
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # advice only (spec)
        check_env(RegaliaEnv("regine", render_mode="rgb_array"), skip_render_check=False)


def test_pettingzoo_renders_the_whole_table_every_card_open() -> None:
    pz = pytest.importorskip("regalia.envs.pettingzoo")
    from pettingzoo.test import api_test

    api_test(pz.env("duo", render_mode="rgb_array", players=3, rounds=1), num_cycles=20)
    env = pz.raw_env("regnum", render_mode="rgb_array", players=3)
    env.reset(seed=2)
    for _ in range(5):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    frame = env.render()
    assert np.array_equal(frame, state_picture(env.game, env.game_state, None))
    parallel = pz.parallel_env("duo-regna", render_mode="rgb_array")
    parallel.reset(seed=1)
    assert parallel.render().shape == size("duo-regna")


def test_an_unknown_render_mode_is_refused() -> None:
    pz = pytest.importorskip("regalia.envs.pettingzoo")
    RegaliaEnv = pytest.importorskip("regalia.envs.gymnasium").RegaliaEnv

    for make in (
        lambda: RegaliaEnv("duo", render_mode="rgb"),
        lambda: pz.env("duo", render_mode="video"),
        lambda: pz.parallel_env("duo-regna", render_mode="window"),
    ):
        with pytest.raises(regalia.InvalidOptionError, match="one of human, ansi, rgb_array"):
            make()


def test_without_pillow_the_error_names_the_extra() -> None:
    pytest.importorskip("regalia.envs.gymnasium")
    code = """
import sys
sys.modules["PIL"] = None
import regalia
from regalia.envs.gymnasium import RegaliaEnv
try:
    RegaliaEnv("duo-regna", render_mode="rgb_array")
except regalia.InvalidOptionError as error:
    print("env:", error)
try:
    import regalia.views.pictures
except ModuleNotFoundError as error:
    print("module:", error)
text = RegaliaEnv("duo-regna", render_mode="ansi")
text.reset(seed=1)
print("text:", "Round" in text.render())
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    assert lines[0].startswith("env: render_mode 'rgb_array' is not available") and "regalia[pictures]" in lines[0]
    assert lines[1].startswith("module:") and 'pip install "regalia[pictures]"' in lines[1]
    assert lines[2] == "text: True"  # the text modes work without Pillow


def test_the_pictures_page_examples_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "pictures.md").read_text(), flags=re.S)
    assert len(blocks) == 2
    scope: dict[str, Any] = {"__name__": "docs_example"}
    for code in blocks:
        exec(compile(code, "docs/pictures.md:example", "exec"), scope)
    assert len(scope["frames"]) > 1 and scope["frames"][-1].shape == size("regnum")


def test_the_docs_script_draws_a_small_png_of_every_game(tmp_path: Path) -> None:
    from PIL import Image

    subprocess.run([sys.executable, str(ROOT / "benches" / "pictures.py"), "--out", str(tmp_path)], check=True)
    drawn = {path.name: path for path in tmp_path.glob("*.png")}
    for info in regalia.games():
        path = drawn[f"{info['name']}.png"]
        with Image.open(path) as image:
            assert (image.height, image.width, 3) == size(info["name"])
        assert path.stat().st_size < 60_000
    assert sorted(drawn) == sorted(path.name for path in (ROOT / "docs" / "pictures").glob("*.png"))


def test_long_rows_of_cards_stay_inside_their_places() -> None:
    from regalia.views.pictures.canvas import FELT

    obs = regalia.make("duo", players=6).new_state(1).observation(0)
    names = [f"{c} {n} {s}" for c in ("blue", "red") for n in "1234" for s in ("circle", "square", "triangle", "cross")]
    obs["hand"] = names + names + ["turbo-joker"] * 12  # 76 cards: more than a row shows overlapped
    obs["hand_sizes"] = [76, 76, 0, 1, 40, 76]
    shot = picture("duo", obs)
    assert shot.shape == size("duo")
    assert (shot[40:, -10:] == FELT).all(), "something was drawn past the right edge of the places"
