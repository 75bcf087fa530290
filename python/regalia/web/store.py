"""Where the web tables live: one SQLite database (the standard library's ``sqlite3``, WAL
mode) holding every table's match record and the private links of its seats.

Every change is one transaction that checks the table's ``version`` (compare and swap), so
several server processes may share one database: a process whose copy of a table is stale
finds out when it writes, and nothing is lost or mixed. A record is written whole on every
move, so a server stopped or killed at any moment restarts with every game as it last stood.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields
from pathlib import Path

import platformdirs

from regalia.registry.records import MatchRecord

__all__ = ["SHARED", "Link", "Row", "Store", "default_db", "new_token", "record_json"]

#: The seat a hot-seat link is stored under: the screen the people at the table share.
SHARED = -1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    record TEXT NOT NULL,
    version INTEGER NOT NULL,
    over INTEGER NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS links (
    token TEXT PRIMARY KEY,
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER
);
CREATE TABLE IF NOT EXISTS notes (
    table_id TEXT NOT NULL REFERENCES tables(id),
    ply INTEGER NOT NULL,
    line TEXT NOT NULL,
    PRIMARY KEY (table_id, ply)
);
CREATE TABLE IF NOT EXISTS screens (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    seat INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS claims (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    owner TEXT NOT NULL,
    until REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


def record_json(record: MatchRecord) -> str:
    """``record.to_json()``, the same text, without its deep copy of every action first (a
    table's record is written on every move)."""
    return json.dumps(
        {"format": "regalia-match", "version": 1, **{f.name: getattr(record, f.name) for f in fields(record)}}
    )


def default_db() -> Path:
    """The database in the user's data folder (``~/.local/share/regalia/web.sqlite3`` on Linux)."""
    return platformdirs.user_data_path("regalia") / "web.sqlite3"


def new_token() -> str:
    """An unguessable token (128 random bits), safe in a URL."""
    return secrets.token_urlsafe(16)


@dataclass(frozen=True)
class Row:
    """A table as stored: its id, its record (the game so far), and its version (how many
    changes it has had: a move, a bot's move, an undo)."""

    id: str
    record: MatchRecord
    version: int
    updated: float


@dataclass(frozen=True)
class Link:
    """A private link: the table it opens and the seat it plays (None: watch a game of bots,
    or, ``shared``, the screen several people at the table share, hot-seat)."""

    table_id: str
    seat: int | None
    shared: bool = False

    @property
    def key(self) -> int | None:
        """The link's kind at its table: its seat, ``SHARED``, or None (a watcher's)."""
        return SHARED if self.shared else self.seat


class Store:
    """The database at ``path`` (made, with its folder, when missing)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        self._guard = threading.Lock()
        #: The writers of this process take turns here, not in SQLite's lock (whose waiting
        #: sleeps and polls); other processes still wait on SQLite's.
        self._writing = threading.Lock()
        self._all: list[sqlite3.Connection] = []
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(_SCHEMA)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """This thread's connection (in autocommit mode: every statement sees the database as
        it stands). It is kept open: closing the last connection to a WAL database folds the
        log back into it, a write to disk on every move."""
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA busy_timeout=30000")
            db.execute("PRAGMA synchronous=NORMAL")
            self._local.db = db
            with self._guard:
                self._all.append(db)
        yield db

    def close(self) -> None:
        """Closes every connection this store opened (in any thread)."""
        with self._guard:
            for db in self._all:
                db.close()
            self._all.clear()
        self._local = threading.local()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction, taken at once (``BEGIN IMMEDIATE``), so that two processes
        never interleave their changes; one at a time in this process."""
        with self._writing, self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise

    def setting(self, name: str, make: str) -> str:
        """The value of setting ``name``, set to ``make`` the first time it is asked for."""
        with self._write() as db:
            db.execute("INSERT OR IGNORE INTO settings (name, value) VALUES (?, ?)", (name, make))
            row = db.execute("SELECT value FROM settings WHERE name = ?", (name,)).fetchone()
        return str(row[0])

    def create(self, record: MatchRecord, seats: list[int | None]) -> tuple[str, dict[int | None, str]]:
        """Stores a new table and a private link for each of ``seats`` (None: a watcher's,
        ``SHARED``: the people's shared screen);
        returns the table's id and the links' tokens by seat."""
        table_id = new_token()
        links = {seat: new_token() for seat in seats}
        now = time.time()
        with self._write() as db:
            db.execute(
                "INSERT INTO tables (id, record, version, over, created, updated) VALUES (?, ?, 0, ?, ?, ?)",
                (table_id, record_json(record), int(bool(record.returns)), now, now),
            )
            db.executemany(
                "INSERT INTO links (token, table_id, seat) VALUES (?, ?, ?)",
                [(token, table_id, seat) for seat, token in links.items()],
            )
        return table_id, links

    def load(self, table_id: str) -> Row | None:
        """The table ``table_id`` as stored, None when there is none."""
        with self._connect() as db:
            row = db.execute("SELECT record, version, updated FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            return None
        return Row(table_id, MatchRecord.from_json(row[0]), int(row[1]), float(row[2]))

    def version(self, table_id: str) -> int | None:
        """The table's version as stored (None when there is no such table)."""
        with self._connect() as db:
            row = db.execute("SELECT version FROM tables WHERE id = ?", (table_id,)).fetchone()
        return None if row is None else int(row[0])

    def versions(self, table_ids: list[str]) -> dict[str, int]:
        """The versions of the tables ``table_ids`` as stored (those that exist)."""
        found: dict[str, int] = {}
        with self._connect() as db:
            for start in range(0, len(table_ids), 500):
                chunk = table_ids[start : start + 500]
                marks = ", ".join("?" * len(chunk))
                rows = db.execute(f"SELECT id, version FROM tables WHERE id IN ({marks})", chunk).fetchall()
                found.update((str(i), int(v)) for i, v in rows)
        return found

    def save(self, table_id: str, record: MatchRecord, version: int) -> bool:
        """Writes ``record`` as the table's version ``version + 1`` if the table is still at
        ``version``; False (nothing written) when another writer got there first."""
        with self._write() as db:
            done = db.execute(
                "UPDATE tables SET record = ?, version = version + 1, over = ?, updated = ? "
                "WHERE id = ? AND version = ?",
                (record_json(record), int(bool(record.returns)), time.time(), table_id, version),
            ).rowcount
        return done == 1

    def note(self, table_id: str, ply: int, line: str) -> None:
        """Keeps ``line``, said to everyone of move ``ply`` of the table (``Table.annotate``)."""
        with self._write() as db:
            db.execute("INSERT OR REPLACE INTO notes (table_id, ply, line) VALUES (?, ?, ?)", (table_id, ply, line))

    def notes(self, table_id: str) -> dict[int, str]:
        """The lines kept of the table's moves, by move number."""
        with self._connect() as db:
            rows = db.execute("SELECT ply, line FROM notes WHERE table_id = ?", (table_id,)).fetchall()
        return {int(ply): str(line) for ply, line in rows}

    def hand_over(self, table_id: str, seat: int) -> None:
        """Keeps that the screen the people of the table share was handed to ``seat``."""
        with self._write() as db:
            db.execute("INSERT OR REPLACE INTO screens (table_id, seat) VALUES (?, ?)", (table_id, seat))

    def screen(self, table_id: str) -> int | None:
        """The seat the table's shared screen was last handed to (None: nobody yet)."""
        with self._connect() as db:
            row = db.execute("SELECT seat FROM screens WHERE table_id = ?", (table_id,)).fetchone()
        return None if row is None else int(row[0])

    def claim(self, table_id: str, owner: str, seconds: float) -> bool:
        """Whether ``owner`` (a server process) plays the table's bots for the next
        ``seconds``: yes when nobody else holds the claim, or theirs has run out (one process
        at a time plays a table's bots)."""
        now = time.time()
        with self._write() as db:
            db.execute(
                "INSERT INTO claims (table_id, owner, until) VALUES (?, ?, ?) ON CONFLICT (table_id) DO UPDATE "
                "SET owner = excluded.owner, until = excluded.until WHERE owner = excluded.owner OR until < ?",
                (table_id, owner, now + seconds, now),
            )
            row = db.execute("SELECT owner FROM claims WHERE table_id = ?", (table_id,)).fetchone()
        return row is not None and row[0] == owner

    def release(self, table_id: str, owner: str) -> None:
        """Gives up ``owner``'s claim on the table's bots (if it holds it)."""
        with self._write() as db:
            db.execute("DELETE FROM claims WHERE table_id = ? AND owner = ?", (table_id, owner))

    def orphans(self) -> list[str]:
        """The unfinished tables whose bots' claim has run out (its process stopped)."""
        with self._connect() as db:
            rows = db.execute(
                "SELECT claims.table_id FROM claims JOIN tables ON tables.id = claims.table_id "
                "WHERE claims.until < ? AND tables.over = 0",
                (time.time(),),
            ).fetchall()
        return [str(row[0]) for row in rows]

    def link(self, token: str) -> Link | None:
        """What the private link ``token`` opens (None for a token that is no link)."""
        with self._connect() as db:
            row = db.execute("SELECT table_id, seat FROM links WHERE token = ?", (token,)).fetchone()
        if row is None:
            return None
        if row[1] == SHARED:
            return Link(str(row[0]), None, shared=True)
        return Link(str(row[0]), None if row[1] is None else int(row[1]))

    def links(self, table_id: str) -> dict[int | None, str]:
        """Every private link of a table, by seat (None: the watcher's, ``SHARED``: the
        people's shared screen)."""
        with self._connect() as db:
            rows = db.execute("SELECT seat, token FROM links WHERE table_id = ?", (table_id,)).fetchall()
        return {(None if seat is None else int(seat)): str(token) for seat, token in rows}

    def tables(self, over: bool | None = None, limit: int = 100) -> list[Row]:
        """The tables, the last changed first (only those over, or not, when ``over`` says)."""
        where = "" if over is None else f"WHERE over = {int(over)}"
        with self._connect() as db:
            rows = db.execute(
                f"SELECT id, record, version, updated FROM tables {where} ORDER BY updated DESC LIMIT ?", (limit,)
            ).fetchall()
        return [Row(str(i), MatchRecord.from_json(r), int(v), float(u)) for i, r, v, u in rows]
