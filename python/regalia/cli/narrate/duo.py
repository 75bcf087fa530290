"""Duo told from one seat: cards played onto a pile, turns ended, cards drawn, rounds scored."""

from __future__ import annotations

from typing import Any

from regalia.cli.narrate.seats import Seats

Obs = dict[str, Any]


def _new_cards(before: list[str], after: list[str]) -> list[str]:
    """The cards in ``after`` that ``before`` does not have (as a multiset)."""
    left = list(before)
    found = []
    for card in after:
        if card in left:
            left.remove(card)
        else:
            found.append(card)
    return found


def _round_over(after: Obs, seats: Seats) -> str:
    last = after["last_round"]
    points = ", ".join(f"{seats.name(k)} {p:+d}" for k, p in enumerate(last["points"]))
    if last["winner"] is None:
        head = "The draw pile ran out: everyone loses a point per card in hand"
    else:
        w = last["winner"]
        head = (
            f"{seats.Verb(w, 'play', 'plays')} the last card and {seats.verb(w, 'score', 'scores')}"
            " a point per card left in the other hands"
        )
    return f"{head} ({points})."


def news(before: Obs, after: Obs, mover: int, told: str | None, seats: Seats) -> list[str]:
    """One line per move: a card onto a pile, the end of a turn, a card drawn; then the
    end of the round when it came."""
    lines = []
    round_over = after["last_round"] != before["last_round"] or after["round"] != before["round"]
    pile_cards = [_new_cards(b, a) for b, a in zip(before["pile_cards"], after["pile_cards"])]
    played = [(side, cards) for side, cards in zip(("left", "right"), pile_cards) if cards]
    if played and not round_over:
        side, cards = played[0]
        lines.append(f"{seats.Verb(mover, 'play', 'plays')} {', '.join(cards)} on the {side} pile.")
    elif after["draw_pile"] < before["draw_pile"] and not round_over:
        drawn = _new_cards(before["hand"], after["hand"]) if mover == seats.viewer else []
        card = drawn[0] if drawn else "a card"
        lines.append(f"{seats.Verb(mover, 'draw', 'draws')} {card}; the turn passes.")
    elif before["turn_pile"] is not None and after["turn_pile"] is None and not round_over:
        lines.append(f"{seats.Verb(mover, 'end', 'ends')} the turn.")
    if round_over and after["last_round"] is not None:
        lines.append(_round_over(after, seats))
        if not after["terminal"]:
            scores = ", ".join(f"{seats.name(k)} {x}" for k, x in enumerate(after["scores"]))
            lines.append(f"Round {after['round']} begins; scores: {scores} (target {after['target']}).")
    elif not lines:
        lines.append(f"{seats.Name(mover)} moved.")
    return lines


def ending(obs: Obs, seats: Seats) -> list[str]:
    """The scores, and whether the target or the last round ended the game."""
    scores = obs["scores"]
    listed = ", ".join(f"{seats.name(k)} {x}" for k, x in enumerate(scores))
    best = max(scores)
    if best >= obs["target"]:
        reason = f"the target {obs['target']} is reached"
    else:
        reason = f"the last round is played (target {obs['target']} not reached)"
    winners = [k for k, x in enumerate(scores) if x == best]
    names = " and ".join(seats.name(k) for k in winners)
    return [f"Scores: {listed}. The game ends: {reason}; the highest score wins: {names}."]
