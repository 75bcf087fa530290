"""Regnum told from one seat: draws, purchases, effects, discards and the line-up, and at
the end each realm's score in parts (characters, wizards, Jesters, standards)."""

from __future__ import annotations

from typing import Any

from regalia.cards.regnum import card_set_for, score_parts
from regalia.cli.narrate.seats import Seats
from regalia.render.words import count

Obs = dict[str, Any]


def _gained(before: list[str], after: list[str]) -> list[str]:
    left = list(before)
    out = []
    for item in after:
        if item in left:
            left.remove(item)
        else:
            out.append(item)
    return out


def news(before: Obs, after: Obs, mover: int, told: str | None, seats: Seats) -> list[str]:
    """What one move changed on the table, in a line or two (a payment step alone says
    nothing: its purchase is told when it is complete)."""
    lines: list[str] = []
    phase = before["phase"]
    hand = after["hand_sizes"][mover] - before["hand_sizes"][mover]
    if phase == "draw":
        if after["resource_deck"] < before["resource_deck"] and len(after["discard"]) == len(before["discard"]):
            lines.append(f"{seats.Verb(mover, 'draw', 'draws')} {count(hand, 'card')} blind.")
        else:
            taken = before["discard"][-1] if before["discard"] else "a card"
            lines.append(f"{seats.Verb(mover, 'take', 'takes')} the discard pile's top card ({taken}).")
    for k in range(seats.count):
        for name in _gained(before["realms"][k], after["realms"][k]):
            if k == mover and name == before.get("character"):
                cost = " ".join(before["cost"] or [])
                lines.append(f"{seats.Verb(k, 'buy', 'buys')} {name} (cost {cost}); score now {after['scores'][k]}.")
            else:
                lines.append(f"{name} joins {seats.their(k)} realm.")
        for name in _gained(after["realms"][k], before["realms"][k]):
            where = "leaves the game" if name in after["gone"] else "leaves the realm"
            lines.append(f"{name} {where} ({seats.their(k)} realm).")
    for name in _gained(before["gone"], after["gone"]):
        if not any(name in r for r in before["realms"]):
            lines.append(f"{name} leaves the game.")
    if phase in ("main", "tax", "draw2_discard") and len(after["discard"]) > len(before["discard"]):
        why = {"tax": " (TAX)", "draw2_discard": " (the DRAW2 discard)"}.get(phase, "")
        lines.append(f"{seats.Verb(mover, 'discard', 'discards')} {after['discard'][-1]}{why}.")
    if phase == "steal":
        victims = [k for k in range(seats.count) if after["hand_sizes"][k] < before["hand_sizes"][k]]
        for k in victims:
            got = _gained(before["hand"], after["hand"])
            lost = _gained(after["hand"], before["hand"])
            card = f" ({got[0] if got else lost[0]})" if (got or lost) else ""
            lines.append(f"{seats.Verb(mover, 'steal', 'steals')} a card from {seats.name(k)}{card}.")
    if phase == "salvage" and len(after["discard"]) < len(before["discard"]):
        taken = _gained(after["discard"], before["discard"])
        lines.append(f"{seats.Verb(mover, 'take', 'takes')} {taken[0] if taken else 'a card'} from the discard pile.")
    if phase == "swap_give":
        lines.append(f"{seats.Verb(mover, 'swap', 'swaps')} a card with the resource deck.")
    if after["turn"] != before["turn"] and not after["terminal"]:
        fresh = [n for n in after["lineup"] if n is not None and n not in before["lineup"]]
        if fresh:
            lines.append(f"New in the line-up: {', '.join(fresh)}.")
    if after["final_turns"] is not None and before["final_turns"] is None:
        lines.append("A deck is used up: every player takes one final turn.")
    return lines


def breakdown(obs: Obs, seats: Seats) -> list[dict[str, int]]:
    """Each seat's points in parts, from what the final board shows."""
    cards = card_set_for(seats.options, seats.count)
    by_name = {c.name: i for i, c in enumerate(cards.characters)}
    castles = {c.name: c.advantage for c in cards.castles}
    standards = {s.name: i for i, s in enumerate(cards.standards)}
    realms = [sorted(by_name[n] for n in realm) for realm in obs["realms"]]
    chosen = sorted(standards[n] for n in obs["standards"])
    return score_parts(cards, realms, obs["hand_sizes"], [castles[c] for c in obs["castles"]], chosen)


def ending(obs: Obs, seats: Seats) -> list[str]:
    """Each realm's score in parts and who won."""
    parts = breakdown(obs, seats)
    lines = ["Scores (characters + wizards + Jesters bonus + standards):"]
    for k, p in enumerate(parts):
        total = sum(p.values())
        lines.append(
            f"  {seats.name(k):<12} {p['characters']:>3} + {p['wizards']:>2} + {p['jesters']:>2} + {p['standards']:>2}"
            f" = {total:>3}   ({len(obs['realms'][k])} inhabitants)"
        )
    totals = [sum(p.values()) for p in parts]
    best = max(totals)
    if totals.count(best) > 1:
        lines.append("Equal points: the most inhabitants win, then the win is shared.")
    return lines
