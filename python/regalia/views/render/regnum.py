"""Regnum as text (every line fits 80 columns)."""

from __future__ import annotations

import textwrap
from typing import Any

from regalia.core.cards.regnum import SLOT_NAMES, card_set_for
from regalia.core.observations import RegnumObservation
from regalia.views.render.words import count, seat_name, seat_verb

WIDTH = 80
#: What the deciding seat is asked, by phase.
ASKED = {
    "draw": "draw two cards or take the discard",
    "main": "buy a character, discard a card or end the turn",
    "steal": "choose whom to steal from",
    "tax": "discard a card (TAX)",
    "draw2_discard": "discard a card",
    "swap_take": "take a card from the deck",
    "swap_give": "give a card to the deck",
    "salvage": "take a card from the discard pile",
    "exchange": "choose an inhabitant to take in exchange",
    "remove": "choose an inhabitant to remove",
}


def _wrap(label: str, items: list[str]) -> list[str]:
    text = ", ".join(items) if items else "-"
    return textwrap.wrap(f"{label}{text}", WIDTH, subsequent_indent=" " * len(label)) or [label]


def render(obs: RegnumObservation, options: dict[str, Any] | None = None) -> str:
    """Regnum from one seat: the table, every realm, the hand and the decision pending."""
    seat, n = obs["seat"], len(obs["castles"])
    playing = seat_verb(obs["active"], seat, n, "play", "plays")
    turn = "game over" if obs["terminal"] else f"turn {obs['turn'] + 1} ({playing})"
    lines = [
        f"Regnum: {turn}" + ("" if obs["final_turns"] is None else f" (final turns left: {obs['final_turns']})"),
        f"  resource deck {obs['resource_deck']}, character deck {obs['character_deck']}",
    ]
    lines += _wrap("  standards: ", obs["standards"])
    costs = _costs(options, len(obs["castles"]))
    lineup = [
        f"{i + 1}:{name} ({costs.get(name, '?')})" if name else f"{i + 1}:-" for i, name in enumerate(obs["lineup"])
    ]
    lines += _wrap("  line-up: ", lineup)
    discard = obs["discard"]
    lines.append(f"  discard: {count(len(discard), 'card')}, top {discard[-1] if discard else '-'}")
    for p, castle in enumerate(obs["castles"]):
        cards = obs["hand_sizes"][p]
        castle = castle or "castle not given yet"
        lines.append(f"  {seat_name(p, seat, n)}: {castle}, {count(cards, 'card')}, {count(obs['scores'][p], 'point')}")
        lines += _wrap("    realm: ", obs["realms"][p])
        if obs["known"][p]:
            lines += _wrap("    known in hand: ", obs["known"][p])
    lines += _wrap("  your hand: ", obs["hand"])
    if obs["terminal"]:
        lines.append("  game over")
    elif obs["current_player"] is None:
        lines.append("  waiting for chance: a card to be dealt, drawn or turned up")
    elif obs["phase"] == "pay" and obs["character"] is not None and obs["cost"] is not None:
        cost = " ".join(obs["cost"])
        lines.append(f"  paying for {obs['character']} ({cost}): slot {(obs['pay_step'] or 0) + 1}")
    else:
        asked = ASKED.get(obs["phase"], obs["phase"])
        lines.append(f"  waiting for {seat_name(obs['current_player'], seat, n)} to {asked}")
    if (deck := obs["deck_cards"]) is not None:
        lines += _wrap("  the deck: ", deck)
    return "\n".join(lines)


def _costs(options: dict[str, Any] | None, players: int) -> dict[str, str]:
    """Each character's cost as printed (``G O P``, ``2= 2= G``), by name."""
    return {c.name: " ".join(SLOT_NAMES[x] for x in c.slots) for c in card_set_for(options, players).characters}
