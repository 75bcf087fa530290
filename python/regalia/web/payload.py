"""What a page is sent: a seat's payload, made from what that seat may see and nothing else
(its picture, its moves, its log, the introduction and the ending told to it), a
watcher's, of a game of bots alone, with every card open, or the one of a screen several
people share, which is one of theirs or a hand-over that shows no seat's view.

The pages, the JSON answers and the live updates all send these dicts, so a test that finds
a seat's payload the same in every world the seat cannot tell apart covers every byte the
seat's page receives.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from regalia.table import Table
from regalia.views.pictures import picture_svg, spectator_svg

__all__ = ["screen_holder", "seat_payload", "shared_payload", "watcher_payload"]


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
        "outcome": None if outcome is None else asdict(outcome),
    }


def seat_payload(table: Table, seat: int, version: int) -> dict[str, Any]:
    """What the person at ``seat`` is sent at ``version``: their view alone."""
    game = table.game
    names = table.seats_of(seat)
    observation = table.observation(seat)
    moves = table.moves(seat)
    return {
        **_common(table, version),
        "seat": seat,
        "names": [names.name(k) for k in range(game.num_players)],
        "picture": picture_svg(game.name, observation, game.options),
        "moves": [{"n": n, "action": action, "name": name} for n, (action, name) in enumerate(moves, 1)],
        "log": [event.to_dict() for event in table.log(seat)],
        "introduction": table.introduction(seat),
        "ending": table.ending(seat) if table.is_over else [],
        "undo": table.can_undo(seat),
        "back": bool(moves) and observation.get("phase") == "pay",
        "shared": False,
        "hand_over": None,
    }


def watcher_payload(table: Table, version: int) -> dict[str, Any]:
    """What the watcher of a game of bots alone is sent at ``version``: every card open."""
    game = table.game
    observations = [table.observation(k) for k in range(game.num_players)]
    return {
        **_common(table, version),
        "seat": None,
        "names": [f"seat {k}" for k in range(game.num_players)],
        "picture": spectator_svg(game.name, observations, game.options),
        "moves": [],
        "log": [event.to_dict() for event in table.open_log()],
        "introduction": table.introduction(None),
        "ending": table.ending(None) if table.is_over else [],
        "undo": False,
        "back": False,
        "shared": False,
        "hand_over": None,
    }


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
        return {**seat_payload(table, seat, version), "shared": True}
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
