"""Duo as text, in 80 columns."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from regalia.core.observations import DuoLastRound, DuoObservation
from regalia.views.render.colours import coloured
from regalia.views.render.words import count, seat_name, seat_verb

#: Each colour's cards (``blue 2 circle``, ``blue joker``).
PATTERNS = {c: rf"\b{c} (\d \w+|joker)" for c in ("red", "blue", "green", "yellow")}

WIDTH = 80


def _wrapped(label: str, items: list[str]) -> list[str]:
    """``label`` then the items, comma-separated, in lines of at most 80 columns; an item is
    never split, continuation lines are indented under the first item."""
    if not items:
        return [label + "-"]
    lines, line, fresh = [], label, True
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        if not fresh and len(line) + 1 + len(piece) > WIDTH:
            lines.append(line)
            line, fresh = " " * len(label), True
        line += piece if fresh else " " + piece
        fresh = False
    lines.append(line)
    return lines


def _by_seat(values: list[int], seat: int) -> list[str]:
    """``you 3``, ``seat 1 4``, ...: a number per seat, named as ``seat``'s board names them."""
    return [f"{seat_name(i, seat, len(values))} {x}" for i, x in enumerate(values)]


def _last_round(last: DuoLastRound, seat: int) -> list[str]:
    if last["winner"] is None:
        return _wrapped("  last round: the draw pile ran out: ", _by_seat(last["points"], seat))
    w, players = last["winner"], len(last["points"])
    played = seat_verb(w, seat, players, "played your", "played their")
    return [f"  last round: {played} last card (+{last['points'][w]})"]


def render(obs: DuoObservation, options: dict[str, Any] | None = None) -> Text:
    """Duo from one seat, every card in its colour (see ``board``)."""
    return coloured(board(obs), PATTERNS)


def board(obs: DuoObservation) -> str:
    """Duo from one seat as plain text: scores, hand sizes, the two piles, the turn so far,
    the hand."""
    seat, players = obs["seat"], len(obs["scores"])
    began = seat_verb(obs["first_player"], seat, players, "began", "began")
    head = f"Round {obs['round']} ({began})   target {obs['target']}"
    lines = [f"{head}   draw pile: {obs['draw_pile']}"]
    if obs["last_round"] is not None:
        lines += _last_round(obs["last_round"], seat)
    lines += _wrapped("  scores:     ", _by_seat(obs["scores"], seat))
    lines += _wrapped("  hand sizes: ", _by_seat(obs["hand_sizes"], seat))
    for name, top, cards in zip(("left ", "right"), obs["pile_tops"], obs["pile_cards"]):
        lines.append(f"  {name} pile: {top:<16} ({count(len(cards), 'card')})")
    if obs["turn_pile"] is not None:
        who = seat_verb(obs["current_player"], seat, players, "play", "plays")
        lines += _wrapped(f"  {who} on the {obs['turn_pile']} pile: ", obs["turn_cards"])
    if obs["terminal"]:
        lines.append("  the game is over")
    lines += _wrapped("  your hand: ", obs["hand"])
    return "\n".join(lines)
