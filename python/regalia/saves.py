"""Saved games on disk: a state or a match record, written atomically and checked on loading.

A save file is JSON: ``{"format": "regalia-save", "version": 1, "kind": "state" | "match",
"sha256": ..., "data": ...}``, where ``data`` is the state's ``to_json()`` or the match
record's, and ``sha256`` is the digest of ``data`` in canonical form (sorted keys, no spaces),
so that a file damaged on disk is refused as corrupted. ``load_game`` also checks everything
the data itself promises: a state is read by ``load_state`` (format, version, game, options,
every invariant, and its history replayed from its seed); a match record is replayed from its
seed, and its recorded returns and scores must be the replay's. ``load_game`` also reads a
bare ``State.to_json()`` or ``MatchRecord.to_json()`` text.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from typing import Any, Literal, Union

from regalia.errors import IllegalActionError, InvalidStateError, RegaliaError
from regalia.match import MatchRecord

__all__ = ["SAVE_FORMAT", "SAVE_VERSION", "MAX_SAVE_BYTES", "save_game", "load_game"]

SAVE_FORMAT = "regalia-save"
SAVE_VERSION = 1
#: Larger files are refused unread (a saved game is a few kilobytes).
MAX_SAVE_BYTES = 64 * 1024 * 1024

PathLike = Union[str, "os.PathLike[str]"]


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), allow_nan=False)


def _digest(data: Any) -> str:
    return hashlib.sha256(_canonical(data).encode()).hexdigest()


def _write_atomically(path: PathLike, text: str) -> None:
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


def save_game(path: PathLike, game: Any) -> None:
    """Saves a state (of either backend) or a ``MatchRecord`` to ``path``, atomically."""
    if isinstance(game, MatchRecord):
        kind, data = "match", json.loads(game.to_json())
    elif hasattr(game, "to_json") and hasattr(game, "legal_actions"):
        kind, data = "state", json.loads(game.to_json())
    else:
        raise InvalidStateError(f"can only save a game state or a MatchRecord, not {type(game).__name__}")
    envelope = {"format": SAVE_FORMAT, "version": SAVE_VERSION, "kind": kind, "sha256": _digest(data), "data": data}
    _write_atomically(path, json.dumps(envelope, sort_keys=True, indent=1, allow_nan=False) + "\n")


def _unwrap(envelope: dict[str, Any]) -> tuple[str, Any]:
    """The kind and the data of a save file, checked against its digest."""
    if envelope.get("version") != SAVE_VERSION or type(envelope.get("version")) is not int:
        raise InvalidStateError(f"save file version {envelope.get('version')!r} is not supported (this reads 1)")
    kind, data, digest = envelope.get("kind"), envelope.get("data"), envelope.get("sha256")
    if kind not in ("state", "match") or not isinstance(data, dict) or not isinstance(digest, str):
        raise InvalidStateError("a save file needs 'kind' ('state' or 'match'), 'data' and 'sha256'")
    if _digest(data) != digest:
        raise InvalidStateError("the save file is corrupted: its data does not match its checksum")
    return kind, data


def _checked_record(text: str, backend: Literal["rust", "reference"]) -> MatchRecord:
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


def load_game(path: PathLike, backend: Literal["rust", "reference"] = "rust") -> Any:
    """Reads a file written by ``save_game`` (or a bare saved state or match record): a state
    of ``backend``, or a ``MatchRecord``. A malformed, corrupted or tampered file raises
    ``InvalidStateError`` naming the file; a missing or unreadable one raises ``OSError``."""
    from regalia import load_state

    name = os.fspath(path)
    with open(name, "rb") as f:
        raw = f.read(MAX_SAVE_BYTES + 1)
    try:
        if len(raw) > MAX_SAVE_BYTES:
            raise InvalidStateError(f"larger than {MAX_SAVE_BYTES} bytes: not a saved game")
        try:
            envelope = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            raise InvalidStateError(f"not valid JSON: {e}") from None
        if not isinstance(envelope, dict):
            raise InvalidStateError("not a Regalia saved game")
        fmt = envelope.get("format")
        if fmt == SAVE_FORMAT:
            kind, data = _unwrap(envelope)
            text = _canonical(data)
        elif fmt in ("regalia-state", "regalia-match"):
            kind, text = ("state" if fmt == "regalia-state" else "match"), raw.decode("utf-8")
        else:
            raise InvalidStateError(f"not a Regalia saved game (format {fmt!r})")
        if kind == "state":
            return load_state(text, backend=backend)
        return _checked_record(text, backend)
    except InvalidStateError as e:
        raise InvalidStateError(f"{name}: {e}") from None
