"""Duell der Drachen told from one seat: each card played, the display card taken, the
markers won, and at the end the final count territory by territory."""

from __future__ import annotations

from typing import Any

from regalia.cli.narrate.seats import Seats

Obs = dict[str, Any]


def _played(before: Obs, after: Obs, mover: int) -> tuple[int, str, bool] | None:
    """The territory, the card (``hidden`` when unseen) and face-up-ness of the move."""
    for i, (b, a) in enumerate(zip(before["territories"], after["territories"])):
        if len(a["face_up"][mover]) > len(b["face_up"][mover]):
            return i, a["face_up"][mover][-1], True
        if len(a["face_down"][mover]) > len(b["face_down"][mover]):
            return i, a["face_down"][mover][-1], False
    return None


def _side(seats: Seats, seat: int | None) -> str:
    return "the middle" if seat is None else f"{seats.their(seat)} side"


def news(before: Obs, after: Obs, mover: int, told: str | None, seats: Seats) -> list[str]:
    """One line: the card, the display card taken by the other seat, the marker."""
    found = _played(before, after, mover)
    if found is None:
        return [f"{seats.Name(mover)} moved."]
    i, card, up = found
    b, a = before["territories"][i], after["territories"][i]
    where = a["colour"]
    if up:
        line = f"{seats.Verb(mover, 'play', 'plays')} {card} face up on {where}"
    elif card != "hidden":
        line = f"{seats.Verb(mover, 'play', 'plays')} {card} face down on {where}"
    else:
        line = f"{seats.Verb(mover, 'play', 'plays')} a card face down on {where}"
    taker = 1 - mover
    if b["display"] is not None:
        line += f"; {seats.verb(taker, 'take', 'takes')} the display card {b['display']}"
    if a["marker"] != b["marker"]:
        mine, theirs = a["strength"][mover], a["strength"][taker]
        line += f"; the {where} marker moves to {_side(seats, a['marker'])} ({mine} against {theirs} face up)"
    return [line + "."]


def _count_line(t: Obs, seats: Seats) -> str:
    """One territory of the final count: strengths, the doubling rule, the marker."""
    me, other = seats.viewer, 1 - seats.viewer
    s = t["strength"]
    line = f"  {t['colour']:<7} {s[me]:>2} : {s[other]:<2}  "
    strong = 0 if s[0] > s[1] else 1
    weak = 1 - strong
    if s[0] == s[1]:
        why = "equal, the marker stays"
    elif s[weak] > 0 and s[strong] >= 2 * s[weak]:
        why = "at least double, so the weaker side takes it"
    else:
        why = "the stronger side takes it"
    return line + f"{why} -> {_side(seats, t['marker'])}"


def ending(obs: Obs, seats: Seats) -> list[str]:
    """Why the game ended; after a final count, each territory with the doubling rule."""
    winner = obs["winner"]
    markers = [sum(1 for t in obs["territories"] if t["marker"] == k) for k in range(2)]
    me, other = seats.viewer, 1 - seats.viewer
    tally = f"markers: {seats.name(me)} {markers[me]}, {seats.name(other)} {markers[other]}"
    if obs["final_count"]:
        lines = [
            f"Both sides are full: the final count ({seats.name(me)} : {seats.name(other)}; a face-down card"
            " counts in the territory of its colour only)."
        ]
        lines += [_count_line(t, seats) for t in obs["territories"]]
        result = "a draw" if winner is None else seats.verb(winner, "win", "wins")
        return [*lines, f"Final {tally}: {result}."]
    if winner is not None and markers[winner] == len(obs["territories"]):
        return [
            f"{seats.Verb(winner, 'hold', 'holds')} all {markers[winner]} markers"
            f" and {seats.verb(winner, 'win', 'wins')} at once."
        ]
    if winner is not None:
        loser = 1 - winner
        return [
            f"{seats.Verb(loser, 'have', 'has')} no legal move at the start of the turn"
            f" and {seats.verb(loser, 'lose', 'loses')} ({tally})."
        ]
    return [f"The game ended in a draw ({tally})."]
