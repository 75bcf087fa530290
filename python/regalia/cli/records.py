"""Match records on disk: the saved game of ``play`` and the file of ``replay`` and ``resume``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from regalia.cli import exits
from regalia.core.errors import RegaliaError
from regalia.registry.records import MatchRecord
from regalia.registry.saves import save_game


def read_record(path: Path) -> MatchRecord:
    """The record in ``path``; a missing or unreadable file ends the command (exit 1)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        exits.fail(f"cannot read {path}: {e.strerror or e}")
    try:
        return MatchRecord.from_json(text)
    except RegaliaError as e:
        exits.fail(f"{path}: {e}")


def write_record(path: Path, record: MatchRecord, report: Callable[[str], None]) -> bool:
    """Writes ``record`` to ``path`` atomically (``regalia.save_game``: a crash mid-write
    leaves the old file whole); on failure tells ``report`` why and returns False."""
    try:
        save_game(path, record)
    except OSError as e:
        report(f"  cannot write {path}: {e.strerror or e}")
        return False
    return True
