"""Duo told from one seat: cards played onto a pile, turns ended, cards drawn (the card
named to its drawer only), and each round's end: the last card, the piles as they were
left, the cards left in hand and the points they give."""

from __future__ import annotations

from typing import Any

from regalia.core.outcome import Outcome
from regalia.table.narrate.common import action_info, added, score_changes
from regalia.table.narrate.seats import Seats
from regalia.views.render.words import count

Obs = dict[str, Any]
SIDES = ("left", "right")


def public(name: str) -> str:
    """Every Duo move is seen by the whole table (a card onto a pile, a draw, the end of a
    turn); a drawn card is not in the move's name."""
    return name


def _played(before: Obs, after: Obs, told: str | None) -> tuple[str, int] | None:
    """The card played and its pile (0 left, 1 right), from the move's name (a round's last
    card is gone from the new round's piles) or else from the piles."""
    info = action_info("duo", told, turbo=True)
    if info is not None and info["kind"] == "play":
        return info["card"], SIDES.index(info["pile"])
    if after["round"] == before["round"]:
        for side, (b, a) in enumerate(zip(before["pile_cards"], after["pile_cards"])):
            new = added(b, a)
            if new:
                return new[0], side
    return None


def _round_over(before: Obs, after: Obs, mover: int, played: tuple[str, int] | None, seats: Seats) -> list[str]:
    """The last card or the last draw, the piles as left, what each hand kept and the points."""
    last = after["last_round"]
    sizes = list(before["hand_sizes"])
    lines = []
    # A pile's cards are listed by id, so its top card is read from ``pile_tops``.
    piles = [len(p) for p in before["pile_cards"]]
    tops = list(before["pile_tops"])
    if last["winner"] is not None:
        sizes[mover] -= 1
        what = "the last card"
        if played is not None:
            card, side = played
            piles[side] += 1
            tops[side] = card
            what = f"{card} on the {SIDES[side]} pile, {seats.their(mover)} last card"
        lines.append(f"{seats.Verb(mover, 'play', 'plays')} {what}: the round is over.")
    else:
        sizes[mover] += 1
        # The drawn card is seen only when no new round replaced the hand (the game is over).
        drawn = added(before["hand"], after["hand"]) if mover == seats.viewer and after["terminal"] else []
        card = f" ({drawn[0]})" if drawn else ""
        lines.append(f"{seats.Verb(mover, 'draw', 'draws')} the last card of the draw pile{card}: the round is over.")
    left = "; ".join(f"{side} {count(n, 'card')}, {top} on top" for side, n, top in zip(SIDES, piles, tops) if n)
    lines.append(f"The piles as left: {left}.")
    kept = []
    own = after["hand"] if after["terminal"] else before["hand"]  # a new deal replaced the hand
    for k in range(seats.count):
        if sizes[k] == 0:
            continue
        if k == seats.viewer and sizes[k] == len(own):
            kept.append(f"{seats.name(k)} {count(sizes[k], 'card')} ({', '.join(own)})")
        else:
            kept.append(f"{seats.name(k)} {count(sizes[k], 'card')}")
    lines.append(f"Left in hand: {'; '.join(kept)}.")
    if last["winner"] is None:
        points = ", ".join(f"{seats.name(k)} {p:+d}" for k, p in enumerate(last["points"]) if p)
        lines.append(f"Everyone loses a point per card in hand ({points or 'no points'}).")
    else:
        w = last["winner"]
        counted = [str(n) for k, n in enumerate(sizes) if k != w and n]
        sum_up = " + ".join(counted) + " = " if len(counted) > 1 else ""
        gain = f"{sum_up}{last['points'][w]:+d}"
        lines.append(f"{seats.Verb(w, 'score', 'scores')} a point per card left in the other hands: {gain}.")
    return lines


def news(before: Obs, after: Obs, mover: int, told: str | None, seats: Seats) -> list[str]:
    """One line per move: a card onto a pile, the end of a turn, a card drawn; at the end of
    a round its last card, the piles, the hands and the points; then the scores."""
    round_over = after["last_round"] != before["last_round"] or after["round"] != before["round"]
    played = _played(before, after, told)
    lines = []
    if round_over and after["last_round"] is not None:
        lines += _round_over(before, after, mover, played, seats)
    elif played is not None:
        card, side = played
        lines.append(f"{seats.Verb(mover, 'play', 'plays')} {card} on the {SIDES[side]} pile.")
    elif after["draw_pile"] < before["draw_pile"]:
        drawn = added(before["hand"], after["hand"]) if mover == seats.viewer else []
        card = drawn[0] if drawn else "a card"
        lines.append(f"{seats.Verb(mover, 'draw', 'draws')} {card}; the turn passes.")
    elif before["turn_pile"] is not None and after["turn_pile"] is None:
        lines.append(f"{seats.Verb(mover, 'end', 'ends')} the turn.")
    else:
        lines.append(f"{seats.Name(mover)} moved.")
    lines += score_changes("Scores", before["scores"], after["scores"], seats)
    if round_over and not after["terminal"]:
        first = seats.name(after["first_player"])
        lines.append(f"Round {after['round']} begins, {first} first (target {after['target']}).")
    return lines


#: What ended the game, by the outcome's reason (``{target}``: the points that win).
REASONS = {
    "target_reached": "the target {target} is reached",
    "rounds_played": "the last of the rounds it was set to is played (target {target} not reached)",
    "round_guard": "the round limit is reached (target {target} not reached)",
}


def ending(obs: Obs, outcome: Outcome, seats: Seats) -> list[str]:
    """What ended the game (the outcome's reason, in words): the target or the last round."""
    reason = REASONS.get(outcome.reason, outcome.reason).format(target=obs["target"])
    return [f"The game ends: {reason}; the highest score wins, equal scores share."]
