"""What the table tells one seat: who sits where, a line after every move saying what
happened and why, and at the end the reason, the score breakdown and who won.

Everything here is a function of what the seat itself may know: its observations before
and after each move, the name of its own move, the seats' agent names, the game's options
and, at the end, the game's outcome (``State.outcome()``), which is public once the game is
over: its reason, winners and tie-break follow from the final scores and the open board,
and reveal nothing hidden beyond the final scores. The true state never reaches this
package, so nothing hidden can leak through it (``tests/test_cli_leaks.py`` checks the
whole screen of a seat across determinized worlds).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from regalia.core.outcome import Outcome
from regalia.table.narrate import duell_der_drachen, duo, duo_regna, regine, regnum
from regalia.table.narrate.common import result
from regalia.table.narrate.seats import Seats

__all__ = ["Seats", "ending", "introduction", "news", "public"]

Obs = dict[str, Any]
#: ``news(before, after, mover, told, seats)``: the lines after one move.
News = Callable[[Obs, Obs, int, "str | None", Seats], list[str]]
#: ``ending(obs, outcome, seats)``: the reason the game ended (the outcome's, in words) and
#: the score breakdown.
Ending = Callable[[Obs, Outcome, Seats], list[str]]

NARRATORS: dict[str, tuple[News, Ending]] = {
    "duo-regna": (duo_regna.news, duo_regna.ending),
    "duo": (duo.news, duo.ending),
    "duell-der-drachen": (duell_der_drachen.news, duell_der_drachen.ending),
    "regine": (regine.news, regine.ending),
    "regnum": (regnum.news, regnum.ending),
}
#: What each game's final scores count.
UNITS = {"duo-regna": "dragons", "duell-der-drachen": "markers"}


def public(game: str, name: str) -> str | None:
    """What every seat hears of a move called ``name`` besides what its board shows: said
    aloud at a real table (a Knight's target in Regine, a card played onto a pile in Duo,
    which a new deal may clear from the board at once), never a secret choice. None for a
    game whose boards show all that is public."""
    if game == "duo":
        return duo.public(name)
    return regine.public(name) if game == "regine" else None


def news(game: str, before: Obs, after: Obs, seats: Seats, told: str | None = None) -> list[str]:
    """What ``seats.viewer`` is told of one move, from its observations ``before`` and
    ``after`` it; ``told`` is the move's name when the viewer made it, else its public part
    (see ``public``)."""
    mover = before["current_player"]
    if mover is None:
        return []
    if game in NARRATORS:
        return NARRATORS[game][0](before, after, mover, told, seats)
    if mover == seats.viewer and told is not None:
        return [f"You played {told}."]
    return [f"{seats.Name(mover)} moved."]


def ending(game: str, obs: Obs, outcome: Outcome, seats: Seats) -> list[str]:
    """Why the game ended, how the score came about and who won, as ``seats.viewer`` sees
    it (``obs``, its observation at the end) from the game's ``outcome``."""
    lines = NARRATORS[game][1](obs, outcome, seats) if game in NARRATORS else []
    return [*lines, result(outcome, seats, UNITS.get(game, "points"))]


def introduction(title: str, seats: Seats) -> str:
    """``Duo Regna: you are seat 0; the opponent (seat 1) is ismcts (...)``."""
    if seats.neutral:
        return f"{title}: " + "; ".join(f"seat {k} is {seats.agent_title(k)}" for k in range(seats.count)) + "."
    who = [
        f"{seats.name(k)}{'' if seats.count > 2 else f' (seat {k})'} is {seats.agent_title(k)}"
        for k in range(seats.count)
        if k != seats.viewer
    ]
    return f"{title}: you are seat {seats.viewer}; " + "; ".join(who) + "."
