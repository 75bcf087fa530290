"""Duo Regna told from one seat: the secret choices, each reveal and where the dragon goes."""

from __future__ import annotations

from typing import Any

from regalia.core.outcome import Outcome
from regalia.table.narrate.common import score_changes
from regalia.table.narrate.seats import Seats
from regalia.views.render.words import count

Obs = dict[str, Any]


def _value(card: str) -> int | None:
    """A card's value for comparing (the shield has none)."""
    return None if card == "X" else int(card.split()[0])


def why(cards: list[str], winner: int | None) -> str:
    """Why the reveal went as it did (the outcome itself is read from the board)."""
    values = [_value(c) for c in cards]
    if None in values:
        return "a shield stops the round"
    if values[0] == values[1]:
        return "equal cards"
    if 4 in values:
        return "the Bishop (4) makes the lower card win"
    if 0 in values and 6 in values:
        return "the Jester (0) beats a 6"
    return "the higher card wins" if winner is not None else "nobody wins"


def _reveal(before: Obs, after: Obs, seats: Seats) -> str:
    me, other = seats.viewer, 1 - seats.viewer
    cards = after["last_reveal"]
    took = [after["captured"][k] - before["captured"][k] for k in range(2)]
    winner: int | None = None
    if any(took):
        winner = 0 if took[0] else 1
    elif after["dragon_side"] != before["dragon_side"]:
        side = after["dragon_side"]
        winner = side if side is not None else 1 - before["dragon_side"]
    head = f"{seats.Name(me)} played {cards[me]}, {seats.name(other)} {cards[other]}: "
    reason = why(cards, winner)
    if winner is None:
        return head + f"nobody wins the round ({reason}); the dragon stays where it is."
    line = head + seats.verb(winner, "win", "wins") + f" the round ({reason}); "
    if any(took):
        target = seats.options.get("dragons_to_win")
        of = f" of {target}" if target else ""
        line += f"{seats.verb(winner, 'capture', 'captures')} the dragon ({count(took[winner], 'dragon')}): "
        line += f"{seats.verb(winner, 'have', 'has')} {after['captured'][winner]}{of}."
        if after["dragon"] is not None:
            line += f" A new dragon ({after['dragon']}) appears in the centre."
        return line
    place = "the centre" if after["dragon_side"] is None else f"{seats.their(after['dragon_side'])} side"
    return line + f"the dragon moves to {place}."


def news(before: Obs, after: Obs, mover: int, told: str | None, seats: Seats) -> list[str]:
    """A choice made (named to its maker only), then the reveal it completes, if any."""
    lines = []
    own = told if mover == seats.viewer else None
    if after["last_reveal"] != before["last_reveal"] or after["round"] != before["round"]:
        if own is not None:
            lines.append(f"You chose {own}.")
        lines.append(_reveal(before, after, seats))
        lines += score_changes("Dragons", before["captured"], after["captured"], seats)
        if len(after["hand"]) > len(before["hand"]):
            lines.append("Nine rounds are over: both take all nine cards back.")
    elif own is not None:
        lines.append(f"You chose {own}, face down; the opponent chooses now.")
    else:
        lines.append(f"{seats.Name(mover)} chose a card, face down.")
    return lines


#: What ended the duel, by the outcome's reason.
REASONS = {
    "target_reached": "a kingdom captured the dragons that win the duel",
    "dragon_pile_empty": "the dragon pile ran out: most dragons wins",
    "round_guard": "the round limit was reached: most dragons wins, then the side the dragon lies on",
}


def ending(obs: Obs, outcome: Outcome, seats: Seats) -> list[str]:
    """What ended the duel and, when the dragons were level, what decided it (the outcome's
    reason and tie-break, in words)."""
    reason = REASONS.get(outcome.reason, outcome.reason)
    target = seats.options.get("dragons_to_win")
    if outcome.reason == "target_reached" and target is not None:
        reason = f"{count(target, 'dragon')} win the duel"
    lines = [f"The duel ends: {reason}."]
    if outcome.tie_break == "dragon_side" and outcome.winners:
        w = outcome.winners[0]
        lines.append(f"Equal dragons: the dragon lies on {seats.whose(w)} side.")
    return lines
