"""The tables a web server keeps: each one a ``regalia.table.Table`` held in memory and in
the database (``Store``), changed one request at a time and saved on every change.

Every change checks the version the request saw and the version in the database (another
server process may have moved since): a stale request is refused and the table read again.
What a link is sent (``payload``) is made once per version, when first asked, under the
table's lock.

Memory is bounded: at most ``capacity`` tables are held, the least recently used dropped
first; a table unused for ``idle`` seconds is dropped by ``sweep``, and a finished one once
every link of it has been sent its last payload. A dropped table is read back from the
database on its next request, replayed with what was said of its moves and whose the
shared screen is, so every link sees what it saw before.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from regalia.agents import Agent, View
from regalia.agents.bounds import check_served, limit_time
from regalia.core.errors import RegaliaError
from regalia.core.protocols import GameProtocol
from regalia.registry import MatchRecord, games
from regalia.table import HUMAN, Refused, Table, check_bot, resumed_game, table_game
from regalia.table.secret import secret_seed
from regalia.web.payload import payload_json, screen_holder, seat_payload, shared_payload, watcher_payload
from regalia.web.store import SHARED, Link, Store

__all__ = ["BotTurn", "Live", "NotFound", "Stale", "Tables", "WebError"]


class WebError(Exception):
    """A request refused with a message: ``status`` is its HTTP status."""

    status = 400


class NotFound(WebError):
    """No table, link or game by that name."""

    status = 404


class Stale(WebError):
    """The request was made on a version of the table that has moved on."""

    status = 409


class Forbidden(WebError):
    """The link may not do that (a watcher's link moves no card)."""

    status = 403


@dataclass
class Live:
    """A table in memory: the ``Table``, the version it is at, and what each kind of link
    (``Link.key``) is sent at that version, made when first asked."""

    id: str
    table: Table
    version: int
    lock: threading.Lock = field(default_factory=threading.Lock)
    payloads: dict[int | None, dict[str, Any]] = field(default_factory=dict)
    #: Those payloads as JSON text, made when first sent.
    texts: dict[int | None, str] = field(default_factory=dict)
    used: float = field(default_factory=time.monotonic)
    #: Kept in memory for good: a table the database cannot give back (``Tables.adopt``).
    pinned: bool = False


def _game(name: str, options: dict[str, Any], secret: bool = False) -> GameProtocol:
    """The game ``name`` with ``options`` for a table (``regalia.table.table_game``):
    seeded chance, or with ``secret`` explicit chance (the table draws it from the operating
    system). A person chooses no ``chance``."""
    try:
        return table_game(name, options, seeded=not secret)
    except RegaliaError as e:
        raise WebError(str(e)) from None


@dataclass(frozen=True)
class BotTurn:
    """A bot's turn at a table, taken at ``version``: the seat, its agent and its view (what
    the bot thinks over, away from the table and its lock)."""

    table_id: str
    version: int
    seat: int
    agent: Agent
    view: View


def _check_bot(spec: str, game: str) -> None:
    """Refuses an agent spec past a served table's bounds (``regalia.agents.bounds``), or
    one that makes no agent or does not play ``game`` (``regalia.table.check_bot``)."""
    try:
        check_served(spec)
        check_bot(spec, game)
    except RegaliaError as e:
        raise WebError(str(e)) from None


def _limit_bots(table: Table) -> None:
    """Every bot's search at the table stops after ``SEARCH_SECONDS`` a move."""
    for bot in table.bots.values():
        limit_time(bot)


#: How many tables a server holds in memory at most, by default (about 20 KiB each).
CAPACITY = 2000
#: How long a table nobody asks for stays in memory, by default, in seconds.
IDLE = 600.0


class Tables:
    """The tables of ``store``; ``changed(table_id)`` is called after every change (the
    server wakes the pages and the bots with it). At most ``capacity`` tables are held in
    memory, and ``sweep`` drops those unused for ``idle`` seconds."""

    def __init__(
        self,
        store: Store,
        changed: Callable[[str], None] = lambda table_id: None,
        *,
        capacity: int = CAPACITY,
        idle: float = IDLE,
    ) -> None:
        if capacity < 1 or not idle > 0:
            raise ValueError("a server holds at least one table, for a positive idle time")
        self.store = store
        self.changed = changed
        self.capacity = capacity
        self.idle = idle
        self._live: OrderedDict[str, Live] = OrderedDict()
        self._guard = threading.Lock()

    # --- starting a table --------------------------------------------------------------

    def create(
        self, game: str, options: dict[str, Any], seats: list[str], seed: int | None, hot_seat: bool = False
    ) -> tuple[str, dict[int | None, str]]:
        """A new table of ``game`` with ``options``, ``seats`` (``"human"`` or an agent spec)
        and ``seed``; returns its id and its private links by seat (a game of bots alone has
        one link, a watcher's, under None; ``hot_seat``, people at one screen, one link under
        ``SHARED``). Without a seed every deal and draw comes from the operating system's
        generator as it happens (``regalia.table.secret``): no seat can recover the deck.
        Bad input raises ``WebError``."""
        known = {g["name"] for g in games()}
        if game not in known:
            raise NotFound(f"unknown game {game!r}; games: {', '.join(sorted(known))}")
        if "players" not in options:
            options = {**options, "players": len(seats)}
        secret = seed is None
        g = _game(game, options, secret)
        for spec in seats:
            if spec != HUMAN:
                _check_bot(spec, g.name)
        try:
            table = Table(g, seats, secret_seed(), chance_from="system") if secret else Table(g, seats, seed or 0)
        except RegaliaError as e:
            raise WebError(str(e)) from None
        _limit_bots(table)
        people: list[int | None] = list(table.humans) or [None]
        if hot_seat:
            if len(table.humans) < 2:
                raise WebError("a hot-seat table is for two people or more at one screen")
            people = [SHARED]
        table_id, links = self.store.create(table.record(), people)
        self._keep(Live(table_id, table, 0))
        self.changed(table_id)
        return table_id, links

    def resume(self, record: MatchRecord) -> tuple[str, dict[int | None, str]]:
        """A new table continuing the game of ``record`` with its seats as saved."""
        try:
            table = self._resume(record)
        except RegaliaError as e:
            raise WebError(f"the saved game does not replay: {e}") from None
        table_id, links = self.store.create(table.record(), list(table.humans) or [None])
        self._keep(Live(table_id, table, 0))
        self.changed(table_id)
        return table_id, links

    def adopt(self, table: Table, seats: list[int | None]) -> tuple[str, dict[int | None, str]]:
        """Keeps ``table`` (one made in Python, e.g. from a chosen position) as a new table
        with a link for each of ``seats``; its record is stored, but a table dealt from a
        chosen start lives only in this process, and stays in its memory."""
        table_id, links = self.store.create(table.record(), seats)
        self._keep(Live(table_id, table, 0, pinned=True))
        return table_id, links

    # --- reading -----------------------------------------------------------------------

    def link(self, token: str) -> Link:
        """What ``token`` opens; ``NotFound`` when it is no link."""
        found = self.store.link(token) if 8 <= len(token) <= 64 else None
        if found is None:
            raise NotFound("no table has this link (it may be mistyped, or from another database)")
        return found

    def live(self, table_id: str) -> Live:
        """The table as it stands in the database, read again when another process changed it."""
        with self._guard:
            live = self._live.get(table_id)
            if live is not None:
                self._live.move_to_end(table_id)
                live.used = time.monotonic()
        version = self.store.version(table_id)
        if version is None:
            raise NotFound("no such table")
        if live is not None and live.version == version:
            return live
        if live is not None:
            with live.lock:
                self._reload(live)
            return live
        row = self.store.load(table_id)
        if row is None:
            raise NotFound("no such table")
        fresh = Live(table_id, self._resume(row.record, table_id), row.version)
        with self._guard:
            live = self._live.setdefault(table_id, fresh)
            self._trim()
        return live

    @property
    def held(self) -> int:
        """How many tables are in memory now."""
        return len(self._live)

    def forget(self, table_id: str) -> None:
        """Drops the table from memory (it is read back from the database when next asked
        for), unless it is pinned (``adopt``)."""
        with self._guard:
            live = self._live.get(table_id)
            if live is not None and not live.pinned:
                del self._live[table_id]

    def sweep(self) -> int:
        """Drops the tables nobody asked for in ``idle`` seconds; how many were dropped."""
        old = time.monotonic() - self.idle
        with self._guard:
            stale = [t for t, live in self._live.items() if live.used < old and not live.pinned]
            for table_id in stale:
                del self._live[table_id]
        return len(stale)

    def _trim(self) -> None:
        """Drops the least recently used tables past ``capacity``, pinned ones aside (under
        the guard)."""
        excess = len(self._live) - self.capacity
        if excess <= 0:
            return
        victims: list[str] = []
        for table_id, live in self._live.items():
            if len(victims) == excess:
                break
            if not live.pinned:
                victims.append(table_id)
        for table_id in victims:
            del self._live[table_id]

    def known_version(self, table_id: str) -> int | None:
        """The version of the table in this process's memory (None when not loaded)."""
        live = self._live.get(table_id)
        return None if live is None else live.version

    def payload(self, link: Link) -> dict[str, Any]:
        """What the link's page is sent now: the seat's view (or a watcher's, of bots alone,
        or the people's shared screen)."""
        live = self.live(link.table_id)
        with live.lock:
            payload = self._payload(live, link)
            done = live.table.is_over and _all_served(live)
        if done:
            self.forget(live.id)
        return payload

    def payload_since(self, link: Link, seen: int) -> dict[str, Any] | None:
        """The link's payload, or None when the table is still at version ``seen`` (asked of
        the database alone: a table out of memory stays out)."""
        version = self.store.version(link.table_id)
        if version is None:
            raise NotFound("no such table")
        return None if version == seen else self.payload(link)

    def as_json(self, link: Link, payload: dict[str, Any]) -> str:
        """``payload``, one made for ``link``, as JSON text: made once per version and link
        kind, then the same text for every answer and page that follows the table."""
        live = self._live.get(link.table_id)
        if live is None:
            return payload_json(payload)
        with live.lock:
            if live.payloads.get(link.key) is not payload:  # an older version's payload
                return payload_json(payload)
            text = live.texts.get(link.key)
            if text is None:
                text = live.texts[link.key] = payload_json(payload)
            return text

    # --- changing ----------------------------------------------------------------------

    def play(self, link: Link, version: int, action: int) -> dict[str, Any]:
        """The person of ``link`` plays ``action`` on the table at ``version``."""
        return self._change(link, version, lambda t, seat: t.play(seat, action))

    def undo(self, link: Link, version: int) -> dict[str, Any]:
        """The person of ``link`` takes back their last move (``Refused`` says why not)."""
        return self._change(link, version, lambda t, seat: t.undo(seat))

    def back(self, link: Link, version: int) -> dict[str, Any]:
        """The person of ``link`` backs out of a purchase not yet paid (Regnum)."""
        return self._change(link, version, lambda t, seat: t.back(seat))

    def hand_over(self, link: Link, version: int, seat: int) -> dict[str, Any]:
        """On the people's shared screen, ``seat`` takes it: the person to move, and only
        then is their view shown. Nothing in the game changes (nor its version)."""
        if not link.shared:
            raise Forbidden("only the screen several people share is handed over")
        live = self.live(link.table_id)
        with live.lock:
            if version != live.version:
                raise Stale(f"the table has moved on (you saw version {version}, it is at {live.version}): look again")
            waiting = live.table.waiting()
            if waiting.kind != "person" or waiting.seat != seat:
                raise Stale(f"seat {seat} is not the person to move")
            live.table.handed_over(seat)
            self.store.hand_over(live.id, seat)
            live.payloads.pop(SHARED, None)
            live.texts.pop(SHARED, None)
            return self._payload(live, link)

    def bot_move(self, table_id: str) -> bool:
        """Lets the bot to move think here and play, if a bot is to move; whether the table
        changed. (The server lets bots think in workers of their own: ``bot_turn``, then
        ``bot_play``.)"""
        turn = self.bot_turn(table_id)
        return turn is not None and self.bot_play(turn, turn.agent.act(turn.view))

    def bot_turn(self, table_id: str) -> BotTurn | None:
        """The bot to move and what it sees, None when no bot is to move."""
        live = self.live(table_id)
        with live.lock:
            if live.table.waiting().kind != "bot":
                return None
            seat, agent, view = live.table.bot_turn()
            return BotTurn(table_id, live.version, seat, agent, view)

    def bot_play(self, turn: BotTurn, chosen: Any, ran_out: float | None = None) -> bool:
        """Plays what the bot of ``turn`` chose, unless the table has moved on since (then
        nothing changes: False). ``ran_out`` (seconds) says the bot thought that long and
        chose nothing: it plays a random legal move, and every log says so."""
        live = self.live(turn.table_id)
        with live.lock:
            table = live.table
            if live.version != turn.version or table.to_move != turn.seat or table.waiting().kind != "bot":
                return False
            if ran_out is not None:
                chosen = secrets.choice(turn.view.legal_actions)
            try:
                table.play_bot(chosen)
            except RegaliaError:
                self._reload(live)
                raise
            if ran_out is not None:
                who = f"Seat {turn.seat} ({table.seats[turn.seat]})"
                line = f"{who} ran out of time ({ran_out:g} s) and played a random legal move."
                table.annotate(table.plies, line)
                self.store.note(live.id, table.plies, line)
            self._save(live)
        self.changed(turn.table_id)
        return True

    def waiting_for_bot(self, table_id: str) -> bool:
        """Whether the table waits for a bot's move."""
        return self.live(table_id).table.waiting().kind == "bot"

    # --- inside ------------------------------------------------------------------------

    def _person(self, link: Link, table: Table) -> int:
        """The seat the link plays now: its own, or on a shared screen, the person to move
        once the screen is theirs."""
        if link.shared:
            waiting = table.waiting()
            if waiting.kind != "person" or waiting.seat is None:
                raise Stale("no person is to move now")
            if screen_holder(table) != waiting.seat:
                raise Stale(f"the screen is not seat {waiting.seat}'s yet: hand it over first")
            return waiting.seat
        if link.seat is None:
            raise Forbidden("a watcher's link plays no move")
        return link.seat

    def _change(self, link: Link, version: int, change: Callable[[Table, int], None]) -> dict[str, Any]:
        """Applies ``change`` to the table at ``version`` and saves it; a refused change (an
        illegal move, a refused undo) leaves the table as it was."""
        if link.seat is None and not link.shared:
            raise Forbidden("a watcher's link plays no move")
        live = self.live(link.table_id)
        with live.lock:
            if version != live.version:
                raise Stale(f"the table has moved on (you saw version {version}, it is at {live.version}): look again")
            seat = self._person(link, live.table)
            try:
                change(live.table, seat)
            except Refused as e:
                raise Stale(str(e)) from None
            except RegaliaError as e:  # an illegal move: the table is as it was
                raise WebError(str(e)) from None
            self._save(live)
            payload = self._payload(live, link)
        self.changed(link.table_id)
        return payload

    def _save(self, live: Live) -> None:
        """Writes the changed table; when another process wrote first, reads its table and
        refuses the change as stale (under the table's lock)."""
        if not self.store.save(live.id, live.table.record(), live.version):
            self._reload(live)
            raise Stale("the table was changed elsewhere at the same moment: look again")
        live.version += 1
        self._refresh(live)

    def _reload(self, live: Live) -> None:
        """The table read again from the database (under the table's lock)."""
        row = self.store.load(live.id)
        if row is None:
            raise NotFound("no such table")
        live.table, live.version = self._resume(row.record, live.id), row.version
        self._refresh(live)

    def _refresh(self, live: Live) -> None:
        """Forgets what the links were sent: the table changed (under the table's lock)."""
        live.payloads, live.texts = {}, {}

    def _payload(self, live: Live, link: Link) -> dict[str, Any]:
        """What ``link`` is sent at the table's version, made once (under the table's lock)."""
        key = link.key
        payload = live.payloads.get(key)
        if payload is None:
            table = live.table
            if key == SHARED:
                payload = shared_payload(table, live.version)
            elif key is None or key not in table.humans:
                if table.humans:
                    raise Forbidden("this link plays no seat of the table")
                payload = watcher_payload(table, live.version)
            else:
                payload = seat_payload(table, key, live.version)
            live.payloads[key] = payload
        return payload

    def _resume(self, record: MatchRecord, table_id: str | None = None) -> Table:
        """The table of ``record``, replayed (with what was said of its moves, when it is
        the stored table ``table_id``); a table without a seed draws on from the system. A
        bot past the served bounds is refused."""
        for spec in record.agents:
            if spec != HUMAN:
                try:
                    check_served(spec)
                except RegaliaError as e:
                    raise WebError(f"the game's bot {spec!r} is not allowed on this server: {e}") from None
        try:
            game, chance = resumed_game(record)
        except RegaliaError as e:
            raise WebError(str(e)) from None
        table = Table.resume(record, game, record.agents, chance_from=chance)
        _limit_bots(table)
        if table_id is not None:
            for ply, line in self.store.notes(table_id).items():
                if ply <= table.plies:
                    table.annotate(ply, line)
            holder = self.store.screen(table_id)
            if holder is not None:
                table.handed_over(holder)
        return table

    def _keep(self, live: Live) -> None:
        with live.lock:
            self._refresh(live)
        with self._guard:
            self._live[live.id] = live
            self._trim()


def _all_served(live: Live) -> bool:
    """Whether every kind of link the table has was sent its payload at this version (the
    watcher's of bots alone, the shared screen, or every person's own)."""
    sent = live.payloads.keys()
    return None in sent or SHARED in sent or set(live.table.humans) <= sent
