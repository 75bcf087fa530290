"""Duo as text, in 80 columns."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from regalia.observations import DuoLastRound, DuoObservation
from regalia.render.colours import coloured
from regalia.render.words import count

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


def _last_round(last: DuoLastRound) -> list[str]:
    if last["winner"] is None:
        points = [f"seat {i} {p}" for i, p in enumerate(last["points"])]
        return _wrapped("  last round: the draw pile ran out: ", points)
    w = last["winner"]
    return [f"  last round: seat {w} played her last card (+{last['points'][w]})"]


def render(obs: DuoObservation, options: dict[str, Any] | None = None) -> Text:
    """Duo from one seat, every card in its colour (see ``board``)."""
    return coloured(board(obs), PATTERNS)


def board(obs: DuoObservation) -> str:
    """Duo from one seat as plain text: scores, hand sizes, the two piles, the turn so far,
    the hand."""
    seat = obs["seat"]
    head = f"Round {obs['round']} (seat {obs['first_player']} began)   target {obs['target']}"
    lines = [f"{head}   draw pile: {obs['draw_pile']}"]
    if obs["last_round"] is not None:
        lines += _last_round(obs["last_round"])
    lines += _wrapped("  scores:     ", [f"seat {i} {x}" for i, x in enumerate(obs["scores"])])
    lines += _wrapped("  hand sizes: ", [f"seat {i} {x}" for i, x in enumerate(obs["hand_sizes"])])
    for name, top, cards in zip(("left ", "right"), obs["pile_tops"], obs["pile_cards"]):
        lines.append(f"  {name} pile: {top:<16} ({count(len(cards), 'card')})")
    if obs["turn_pile"] is not None:
        who = f"seat {obs['current_player']}"
        lines += _wrapped(f"  {who} plays on the {obs['turn_pile']} pile: ", obs["turn_cards"])
    if obs["terminal"]:
        lines.append("  the game is over")
    lines += _wrapped(f"  your hand (seat {seat}): ", obs["hand"])
    return "\n".join(lines)
