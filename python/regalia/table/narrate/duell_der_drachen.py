"""Duell der Drachen told from one seat: each card played, the display card taken, what
became of the territory's marker and why, and at the end the final count territory by
territory."""

from __future__ import annotations

from typing import Any

from regalia.core.outcome import Outcome
from regalia.table.narrate.common import added, score_changes
from regalia.table.narrate.seats import Seats

Obs = dict[str, Any]
#: What the face-down cards of a side show before the end.
HIDDEN = "hidden"


def _played(before: Obs, after: Obs, mover: int) -> tuple[int, str, bool] | None:
    """The territory, the card (``hidden`` when unseen) and face-up-ness of the move: the
    card that is new on the mover's side (its lists are sorted, so never the last one)."""
    for i, (b, a) in enumerate(zip(before["territories"], after["territories"])):
        up = added(b["face_up"][mover], a["face_up"][mover])
        if up:
            return i, up[0], True
        if len(a["face_down"][mover]) > len(b["face_down"][mover]):
            down = added(b["face_down"][mover], a["face_down"][mover])
            # At the end every face-down card is shown: which one is new, the seat cannot tell.
            card = down[0] if len(down) == 1 and HIDDEN not in b["face_down"][mover] else HIDDEN
            return i, card, False
    return None


def _value(card: str) -> int:
    return int(card.split()[-1])


def _side(seats: Seats, seat: int | None) -> str:
    return "the middle" if seat is None else f"{seats.their(seat)} side"


def markers(obs: Obs) -> list[int]:
    """How many markers lie on each seat's side."""
    return [sum(1 for t in obs["territories"] if t["marker"] == k) for k in range(2)]


def news(before: Obs, after: Obs, mover: int, told: str | None, seats: Seats) -> list[str]:
    """The card, the display card the other seat takes, the marker (moved or staying, with
    the face-up strengths), then the markers won or lost; after the last card the final
    count is announced (the ending tells it territory by territory)."""
    found = _played(before, after, mover)
    if found is None:
        return [f"{seats.Name(mover)} moved."]
    i, card, up = found
    b, a = before["territories"][i], after["territories"][i]
    where = a["colour"]
    play = seats.Verb(mover, "play", "plays")
    if up:
        line = f"{play} {card} face up on {where}"
    elif card != HIDDEN:
        line = f"{play} {card} face down on {where}"
    else:
        line = f"{play} a card face down on {where}"
    taker = 1 - mover
    if b["display"] is not None:
        line += f"; {seats.verb(taker, 'take', 'takes')} the display card {b['display']}"
        line += f" (new display card: {a['display']})" if a["display"] is not None else " (the deck is empty)"
    counted = after["final_count"] and not before["final_count"]
    # The face-up strengths right after the card, before any final count.
    strength = [sum(_value(c) for c in a["face_up"][k]) for k in range(2)]
    marker = mover if strength[mover] > strength[taker] else b["marker"]
    versus = f"({strength[mover]} against {strength[taker]} face up)"
    if marker != b["marker"]:
        line += f"; the {where} marker moves to {_side(seats, marker)} {versus}"
    else:
        line += f"; the {where} marker stays {'in' if marker is None else 'on'} {_side(seats, marker)} {versus}"
    lines = [line + "."]
    if counted:
        middle = [markers(before)[k] + (marker == k) - (b["marker"] == k) for k in range(2)]
        lines += score_changes("Markers", markers(before), middle, seats)
        lines.append("Both sides are full: the final count (below) decides every marker.")
        moved = score_changes("Markers by the final count", middle, markers(after), seats)
        lines += moved or ["The final count moves no marker."]
    else:
        lines += score_changes("Markers", markers(before), markers(after), seats)
    return lines


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


def ending(obs: Obs, outcome: Outcome, seats: Seats) -> list[str]:
    """Why the game ended (the outcome's reason, in words); after the final count, each
    territory with the doubling rule."""
    me, other = seats.viewer, 1 - seats.viewer
    winner = outcome.winners[0] if outcome.winners else None
    if outcome.reason == "board_full":
        lines = [
            f"Both sides are full. The final count ({seats.name(me)} : {seats.name(other)}; every card"
            " shown, a face-down card counts in the territory of its colour only):"
        ]
        lines += [_count_line(t, seats) for t in obs["territories"]]
        return [*lines, "The most markers win; equal is a draw."]
    if outcome.reason == "all_markers" and winner is not None:
        return [
            f"{seats.Verb(winner, 'hold', 'holds')} all {outcome.scores[winner]} markers"
            f" and {seats.verb(winner, 'win', 'wins')} at once."
        ]
    if outcome.reason == "no_legal_move" and winner is not None:
        loser = 1 - winner
        return [
            f"{seats.Verb(loser, 'have', 'has')} no legal move at the start of the turn"
            f" and {seats.verb(loser, 'lose', 'loses')}."
        ]
    return [f"The game ends ({outcome.reason})."]
