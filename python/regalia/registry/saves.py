"""Saved games on disk: a state or a match record, written atomically and checked on loading.

A save file holds exactly the object's ``to_json()`` text (a ``regalia-state`` or a
``regalia-match``), so every reader of those formats reads it. It is written to a temporary
file beside the target, flushed to disk and renamed over the target: a reader (or a crash)
sees the old file or the new one, never half of one. ``load_game`` checks everything the
text promises: a state is read by ``load_state`` (format, version, game, options, every
invariant, and its history replayed from its seed: a changed card, action or seed is
caught); a match record is replayed from its seed, and its recorded returns and scores must
be the replay's. A determinized state has no seed to replay, so only its invariants are
checked.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from typing import Union

from regalia.core import jsontext
from regalia.core.errors import IllegalActionError, InvalidStateError, RegaliaError
from regalia.core.kinds import Backend
from regalia.core.protocols import StateProtocol
from regalia.registry.catalog import load_state
from regalia.registry.records import MatchRecord

__all__ = ["MAX_SAVE_BYTES", "save_game", "load_game", "write_atomically"]

#: Larger files are refused unread (a saved game is a few kilobytes).
MAX_SAVE_BYTES = 64 * 1024 * 1024

PathLike = Union[str, "os.PathLike[str]"]


def write_atomically(path: PathLike, text: str) -> None:
    """Writes ``text`` to a temporary file beside ``path``, flushes it to disk and renames it
    over ``path``: a reader sees the old file or the new one, never half of one."""
    target = os.path.abspath(os.fspath(path))
    directory = os.path.dirname(target)
    try:
        mode = os.stat(target).st_mode & 0o777
    except FileNotFoundError:
        mode = 0o644
    fd, tmp = tempfile.mkstemp(prefix=".regalia-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):  # make the rename itself durable where the OS allows
        dir_fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def save_game(path: PathLike, game: StateProtocol | MatchRecord) -> None:
    """Saves a state (of either backend) or a ``MatchRecord`` to ``path``, atomically; anything
    else (from an untyped caller) is refused with ``InvalidStateError``."""
    if not isinstance(game, MatchRecord) and not (hasattr(game, "to_json") and hasattr(game, "legal_actions")):
        raise InvalidStateError(f"can only save a game state or a MatchRecord, not {type(game).__name__}")
    write_atomically(path, game.to_json() + "\n")


def _checked_record(text: str, backend: Backend) -> MatchRecord:
    """A match record whose actions replay legally and whose results are the replay's."""
    record = MatchRecord.from_json(text)
    if (
        not isinstance(record.game, str)
        or not isinstance(record.options, dict)
        or type(record.seed) is not int
        or not isinstance(record.actions, list)
        or not isinstance(record.agents, list)
    ):
        raise InvalidStateError("a match record needs a game name, options, a seed and a list of actions")
    try:
        final = record.replay(backend=backend)
    except IllegalActionError as e:
        raise InvalidStateError(f"the match record's actions do not replay: {e}") from None
    except RegaliaError as e:
        raise InvalidStateError(f"the match record cannot be replayed: {e}") from None
    finished = final.is_terminal and record.returns == final.returns() and record.scores == final.scores()
    if (record.returns or record.scores) and not finished:
        raise InvalidStateError("the match record's returns and scores are not those of its game")
    return record


def load_game(path: PathLike, backend: Backend = "rust") -> StateProtocol | MatchRecord:
    """Reads a file written by ``save_game`` (or any ``to_json()`` text of a state or a match
    record): a state of ``backend``, or a ``MatchRecord``. A malformed, corrupted or tampered file raises
    ``InvalidStateError`` naming the file; a missing or unreadable one raises ``OSError``."""
    name = os.fspath(path)
    with open(name, "rb") as f:
        raw = f.read(MAX_SAVE_BYTES + 1)
    try:
        if len(raw) > MAX_SAVE_BYTES:
            raise InvalidStateError(f"larger than {MAX_SAVE_BYTES} bytes: not a saved game")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise InvalidStateError(f"not valid JSON: {e}") from None
        envelope = jsontext.loads(text, InvalidStateError)
        if not isinstance(envelope, dict):
            raise InvalidStateError("not a Regalia saved game")
        fmt = envelope.get("format")
        if fmt == "regalia-state":
            return load_state(text, backend=backend)
        if fmt == "regalia-match":
            return _checked_record(text, backend)
        raise InvalidStateError(f"not a Regalia saved game (format {fmt!r})")
    except InvalidStateError as e:
        raise InvalidStateError(f"{name}: {e}") from None
