"""The pictures of the table shown in docs/pictures.md: one per game, and one for a spectator.

    python benches/pictures.py                    # writes docs/pictures/*.png
    python benches/pictures.py --out /tmp/shots   # somewhere else

Each picture is a fixed position: a game of the listed options started from its seed and
played for its number of moves by a random player seeded alike, drawn for its seat (or for a
spectator, every card open) with ``regalia.views.pictures``. The PNGs are stored with a palette of
64 colours, so that each is a few tens of KB.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from typing import Any, NamedTuple

from PIL import Image

import regalia
from regalia.views.pictures import state_picture

ROOT = Path(__file__).resolve().parent.parent


class Shot(NamedTuple):
    """One picture: its file name, the game and options, the seed, the moves played and the seat
    (``None``: a spectator)."""

    file: str
    game: str
    options: dict[str, Any]
    seed: int
    moves: int
    seat: int | None


SHOTS = [
    Shot("duo-regna.png", "duo-regna", {}, 11, 5, 0),
    Shot("duo.png", "duo", {"players": 4}, 3, 30, 1),
    Shot("duell-der-drachen.png", "duell-der-drachen", {}, 5, 13, 0),
    Shot("regine.png", "regine", {"players": 4}, 8, 40, 2),
    Shot("regnum.png", "regnum", {"players": 3}, 4, 60, 0),
    Shot("duell-der-drachen-spectator.png", "duell-der-drachen", {}, 5, 13, None),
]


def position(shot: Shot) -> tuple[Any, Any]:
    """The game and the state the shot draws."""
    game = regalia.make(shot.game, **shot.options)
    state = game.new_state(shot.seed)
    moves = random.Random(shot.seed)
    for _ in range(shot.moves):
        if state.is_terminal:
            break
        state.apply(moves.choice(state.legal_actions()))
    return game, state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "pictures", help="where to write the PNGs")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for shot in SHOTS:
        game, state = position(shot)
        image = Image.fromarray(state_picture(game, state, shot.seat)).quantize(64, dither=Image.Dither.NONE)
        path = args.out / shot.file
        image.save(path, optimize=True)
        print(f"{path}: {image.width}x{image.height}, {path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
