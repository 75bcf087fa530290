"""What a page is sent: a seat's payload, made from what that seat may see and nothing else
(its picture, its moves, its log, the introduction and the ending told to it), a
watcher's, of a game of bots alone, with every card open, or the one of a screen several
people share, which is one of theirs or a hand-over that shows no seat's view.

The pages, the JSON answers and the live updates all send these dicts, so a test that finds
a seat's payload the same in every world the seat cannot tell apart covers every byte the
seat's page receives.

A log grows by a move or two a version and is sent whole every time: each table keeps, for
each seat (None: the open log), the log it was last sent as dicts and as JSON text, and a new
version makes only the new events' (``payload_json`` joins the kept text in). What is kept is
that seat's own log, under that seat, and goes with the table.
"""

from __future__ import annotations

import json
import threading
import weakref
from dataclasses import dataclass, field
from typing import Any

from regalia.registry.records import outcome_fields
from regalia.table import Event, Table
from regalia.views.pictures import picture_svg_json, spectator_svg

__all__ = ["Sent", "payload_json", "screen_holder", "seat_payload", "shared_payload", "watcher_payload"]


class Sent(dict[str, Any]):
    """A payload (a plain dict to every reader), with the JSON texts of its largest values
    (the picture, the log) made as they were made (``payload_json`` joins them in)."""

    def __init__(self, fields: dict[str, Any], texts: dict[str, str]) -> None:
        super().__init__(fields)
        #: The JSON text of some values, by key.
        self.texts = texts


@dataclass
class _Log:
    """A log as last sent: its events, their dicts and their JSON texts."""

    events: list[Event] = field(default_factory=list)
    dicts: list[dict[str, object]] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)


_logs: weakref.WeakKeyDictionary[Table, dict[int | None, _Log]] = weakref.WeakKeyDictionary()
_logs_lock = threading.Lock()


def _log(table: Table, seat: int | None, events: list[Event]) -> tuple[list[dict[str, object]], str]:
    """``events``, ``seat``'s log at ``table`` (None: the open log), as dicts and as JSON
    text, made for the events not sent before (the whole log again when it is not the last
    one sent and more: after an undo)."""
    with _logs_lock:
        kept = _logs.setdefault(table, {}).setdefault(seat, _Log())
        known = len(kept.events)
        if known > len(events) or events[:known] != kept.events:
            kept.events, kept.dicts, kept.texts, known = [], [], [], 0
        for event in events[known:]:
            data = event.to_dict()
            kept.events.append(event)
            kept.dicts.append(data)
            kept.texts.append(json.dumps(data))
        return list(kept.dicts), "[" + ", ".join(kept.texts) + "]"


def payload_json(payload: dict[str, Any]) -> str:
    """``json.dumps(payload)``, with the JSON texts a ``Sent`` payload holds joined in."""
    texts = payload.texts if isinstance(payload, Sent) else {}
    if not texts:
        return json.dumps(payload)
    parts: list[str] = []
    run: dict[str, Any] = {}
    for key, value in payload.items():
        if key in texts:
            if run:
                parts.append(json.dumps(run)[1:-1])
                run = {}
            parts.append(f"{json.dumps(key)}: {texts[key]}")
        else:
            run[key] = value
    if run:
        parts.append(json.dumps(run)[1:-1])
    return "{" + ", ".join(parts) + "}"


def _common(table: Table, version: int) -> dict[str, Any]:
    """What every seat sees alike: the game, who sits where, whose turn, the version, and once
    the game is over its outcome (why it ended, the winners, the final scores), which is
    public at the end: it reveals nothing hidden beyond the final scores."""
    waiting = table.waiting()
    outcome = table.outcome
    return {
        "game": table.game.name,
        "title": table.game.title,
        "version": version,
        "agents": list(table.seats),
        "waiting": {"kind": waiting.kind, "seat": waiting.seat},
        "over": table.is_over,
        "outcome": None if outcome is None else outcome_fields(outcome),
    }


def seat_payload(table: Table, seat: int, version: int) -> dict[str, Any]:
    """What the person at ``seat`` is sent at ``version``: their view alone."""
    game = table.game
    names = table.seats_of(seat)
    observation = table.observation(seat)
    moves = table.moves(seat)
    log, log_json = _log(table, seat, table.log(seat))
    picture, picture_json = picture_svg_json(game.name, observation, game.options)
    return Sent(
        {
            **_common(table, version),
            "seat": seat,
            "names": [names.name(k) for k in range(game.num_players)],
            "picture": picture,
            "moves": [{"n": n, "action": action, "name": name} for n, (action, name) in enumerate(moves, 1)],
            "log": log,
            "introduction": table.introduction(seat),
            "ending": table.ending(seat) if table.is_over else [],
            "undo": table.can_undo(seat),
            "back": bool(moves) and observation.get("phase") == "pay",
            "shared": False,
            "hand_over": None,
        },
        {"picture": picture_json, "log": log_json},
    )


def watcher_payload(table: Table, version: int) -> dict[str, Any]:
    """What the watcher of a game of bots alone is sent at ``version``: every card open."""
    game = table.game
    observations = [table.observation(k) for k in range(game.num_players)]
    log, log_json = _log(table, None, table.open_log())
    return Sent(
        {
            **_common(table, version),
            "seat": None,
            "names": [f"seat {k}" for k in range(game.num_players)],
            "picture": spectator_svg(game.name, observations, game.options),
            "moves": [],
            "log": log,
            "introduction": table.introduction(None),
            "ending": table.ending(None) if table.is_over else [],
            "undo": False,
            "back": False,
            "shared": False,
            "hand_over": None,
        },
        {"log": log_json},
    )


def screen_holder(table: Table) -> int | None:
    """The person the screen several people share was last handed to (None: nobody yet)."""
    holders = [seat for seat in table.humans if not table.needs_hand_over(seat)]
    return holders[0] if len(holders) == 1 and len(table.humans) > 1 else None


def shared_payload(table: Table, version: int) -> dict[str, Any]:
    """What the screen several people share (hot-seat) is sent at ``version``: the view of
    the person who has it while they play and while the bots move; when another person is
    to move, a hand-over that shows nothing of any seat until that person takes the screen
    (``Table.handed_over``), as at the command line."""
    waiting, holder = table.waiting(), screen_holder(table)
    seat = waiting.seat if waiting.kind == "person" else holder
    if seat is not None and seat == holder:
        mine = seat_payload(table, seat, version)
        return Sent({**mine, "shared": True}, mine.texts if isinstance(mine, Sent) else {})
    return {
        **_common(table, version),
        "seat": None,
        "names": [f"seat {k}" for k in range(table.game.num_players)],
        "picture": "",
        "moves": [],
        "log": [],
        "introduction": table.introduction(None),
        "ending": table.ending(None) if table.is_over else [],
        "undo": False,
        "back": False,
        "shared": True,
        "hand_over": seat,
    }
