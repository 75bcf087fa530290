"""Where a table's game is saved when nobody names a file: the user's data folder."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

import platformdirs

__all__ = ["default_save", "saves_folder"]


def saves_folder() -> Path:
    """The folder saved games go to unless a file is named: ``saves`` in the user's data
    folder (``~/.local/share/regalia/saves`` on Linux), made when missing if it can be."""
    folder = platformdirs.user_data_path("regalia") / "saves"
    with contextlib.suppress(OSError):  # a folder that cannot be made: the write reports it
        folder.mkdir(parents=True, exist_ok=True)
    return folder


def default_save(game: str) -> Path:
    """A new file in the saves folder (``saves_folder``), named after the game and the time."""
    folder = saves_folder()
    stamp = time.strftime("%Y-%m-%d-%H%M%S")
    path = folder / f"{game}-{stamp}.json"
    n = 1
    while path.exists():
        n += 1
        path = folder / f"{game}-{stamp}-{n}.json"
    return path
