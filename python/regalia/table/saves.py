"""Where a table's game is saved when nobody names a file: the user's data folder."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

import platformdirs

__all__ = ["default_save"]


def default_save(game: str) -> Path:
    """A new file in the user's data folder (``~/.local/share/regalia/saves`` on Linux),
    named after the game and the time."""
    folder = platformdirs.user_data_path("regalia") / "saves"
    with contextlib.suppress(OSError):  # a folder that cannot be made: the write reports it
        folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y-%m-%d-%H%M%S")
    path = folder / f"{game}-{stamp}.json"
    n = 1
    while path.exists():
        n += 1
        path = folder / f"{game}-{stamp}-{n}.json"
    return path
