"""Regine told from one seat: cards played and turned, effects and their targets,
exchanges, bets, the Suits won, and each round's and the game's scores.

Besides the observations, a seat hears the public part of another seat's move (see
``public``): the opponent a Knight or Peasant names, the card an Assassin eliminates or a
Courtesan turns, a Herald taken or put back, a declaration or a bet. What is chosen in
secret (a card played face down, the cards exchanged, a Princess's discard) is never named.
A move is read by its action info (``regalia.actions``: kind, effect, seat, slot, card),
found by the name the table says, never by taking the name apart.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from regalia.cli.narrate.seats import Seats
from regalia.render.words import count

Obs = dict[str, Any]
SUITS = ("Queens", "Jesters", "Pairs", "Game")
#: Kinds of move chosen in secret: only the board shows what they did.
SECRET = ("exchange", "discard")
#: What the table hears of a card played face down.
FACE_DOWN = "play a card face down"


@cache
def _infos() -> dict[str, dict[str, Any]]:
    """Every Regine action's info by its name. Names and infos describe the id alone (the
    same in every state), so one state of the largest table serves every game."""
    import regalia

    state = regalia.make("regine", players=4).new_state(0)
    return {state.action_name(a): state.action_info(a) for a in range(state.num_actions)}


def _info(told: str | None) -> dict[str, Any] | None:
    """The info of the move called ``told`` (None: nothing said, or only ``FACE_DOWN``)."""
    return None if told is None else _infos().get(told)


def public(name: str) -> str | None:
    """What everybody at the table learns of a move called ``name`` (None: only what the
    board shows). A card played face down is public only as "face down"."""
    info = _infos()[name]
    if info["kind"] == "play" and not info["face_up"]:
        return FACE_DOWN
    return None if info["kind"] in SECRET else name


def _title(card: str | None) -> str:
    return "a face-down card" if card is None else f"the {card.capitalize()}"


def _slot(obs: Obs, seat: int, slot: int) -> str | None:
    row = obs["table"][seat]
    return row[slot]["card"] if slot < len(row) else None


def _new(before: list[str], after: list[str]) -> list[str]:
    left = list(before)
    out = []
    for card in after:
        if card in left:
            left.remove(card)
        else:
            out.append(card)
    return out


def _table_changes(before: Obs, after: Obs, seats: Seats) -> list[str]:
    """Cards put on the table or turned face up, seat by seat."""
    lines = []
    for k, (b, a) in enumerate(zip(before["table"], after["table"])):
        if len(a) > len(b):
            for slot in a[len(b) :]:
                if slot["face_up"]:
                    lines.append(f"{seats.Verb(k, 'put', 'puts')} {_title(slot['card'])} face up")
                else:
                    own = f" ({slot['card']})" if slot["card"] is not None else ""
                    lines.append(f"{seats.Verb(k, 'put', 'puts')} a card face down{own}")
        elif len(a) == len(b):
            for bs, s in zip(b, a):
                if s["face_up"] and not bs["face_up"]:
                    lines.append(f"{seats.their(k).capitalize()} face-down card is turned face up: {_title(s['card'])}")
    return lines


def _effect(before: Obs, after: Obs, mover: int, info: dict[str, Any], seats: Seats) -> list[str]:
    """The line for an effect's decision, from its info."""
    who = seats.Name(mover)
    whose = seats.their(mover).capitalize()
    effect = info["effect"]
    if info["kind"] == "name_seat" and effect == "knight":
        k = info["seat"]
        line = (
            f"{whose} Knight names {seats.name(k)}: a card of {seats.their(k)} hand is discarded at random and replaced"
        )
        if k == seats.viewer:
            lost, got = _new(after["hand"], before["hand"]), _new(before["hand"], after["hand"])
            if lost:
                line += f" (you lose {lost[0]}, you draw {got[0] if got else 'nothing'})"
        return [line + "."]
    if info["kind"] == "name_seat":
        k = info["seat"]
        return [f"{whose} Peasant names {seats.name(k)}, who must show a card face up."]
    if info["kind"] == "target_card" and effect == "assassin":
        k, slot = info["seat"], info["slot"]
        card = _slot(before, k, slot)
        return [
            f"{whose} Assassin eliminates {seats.their(k)} {'face-down card' if card is None else card.capitalize()};"
            f" {seats.verb(k, 'draw', 'draws')} a card."
        ]
    if info["kind"] == "target_card":
        k, slot = info["seat"], info["slot"]
        card = _slot(after, k, slot)
        return [f"{whose} Courtesan turns {seats.their(k)} face-down card face up: {_title(card)}."]
    if info["kind"] == "herald" and info["take"]:
        return [
            f"{who} {'take' if mover == seats.viewer else 'takes'} the Herald's card: it replaces the Herald face up."
        ]
    if info["kind"] == "herald":
        return [f"{who} {'put' if mover == seats.viewer else 'puts'} the Herald's card at the bottom of the deck."]
    return []


def _suits(before: Obs, after: Obs, seats: Seats) -> list[str]:
    lines = []
    for i, suit in enumerate(SUITS):
        won, points = after["suit_winners"][i], after["suit_points"][i]
        if won is not None and (before["suit_winners"][i] != won or before["suit_points"][i] != points):
            lines.append(f"{suit}: {seats.verb(won, 'win', 'wins')} the Suit (+{points}).")
    return lines


def news(before: Obs, after: Obs, mover: int, told: str | None, seats: Seats) -> list[str]:
    """The lines of one move (``told``: its whole name for the viewer's own move, else
    its public part)."""
    lines: list[str] = []
    decision = before["decision"] or ""
    who = seats.Name(mover)
    info = _info(told)
    kind = None if info is None else info["kind"]
    if info is not None and "effect" in info:
        lines += _effect(before, after, mover, info, seats)
        if kind in ("discard", "show_card") and mover == seats.viewer:
            lines.append(f"You {'discard' if kind == 'discard' else 'show'} {info['card']}.")
    elif decision.startswith("princess"):
        lines.append(f"{who} discards a card for the Princess and draws one.")
    elif decision in ("bet", "reply to the double down") and told is not None:
        on = f" on {before['suit']}" if before.get("suit") else ""
        lines.append(f'{who} {"say" if mover == seats.viewer else "says"} "{told}"{on}.')
    elif kind == "no_changes":
        says = "declare" if mover == seats.viewer else "declares"
        lines.append(f"{who} {says}: there are no changes (no exchanges until a Jester is played face up).")
    elif kind == "confirm_exchange" or (
        after["marked_count"] < before["marked_count"] and before["decision"] == "exchange"
    ):
        n = before["marked_count"]
        line = f"{seats.Verb(mover, 'exchange', 'exchanges')} {count(n, 'card')} with the deck"
        if mover == seats.viewer:
            line += (
                f" ({', '.join(before['marked'])} for {', '.join(_new(before['hand'], after['hand'])) or 'the same'})"
            )
        lines.append(line + ".")
    elif kind == "end_turn" and after["passes"] > before["passes"]:
        lines.append(f"{seats.Verb(mover, 'pass', 'passes')} (nothing exchanged or played this turn).")
    if info is None or info.get("effect") != "courtesan":
        lines += [line + "." for line in _table_changes(before, after, seats)]
    if not after["no_changes"] and before["no_changes"] and after["phase"] == "build":
        lines.append("A Jester face up: exchanges are allowed again.")
    if before["phase"] == "build" and after["phase"] != "build" and not after["terminal"]:
        lines.append("Everyone passed: the hands go face down on the table; the wagers begin (Queens first).")
    lines += _suits(before, after, seats)
    if after["round"] != before["round"] or (after["terminal"] and not before["terminal"]):
        lines += _round_scores(after, seats)
    return lines


def _round_scores(obs: Obs, seats: Seats) -> list[str]:
    combos = obs["last_combinations"] or []
    lines = ["The round is scored:"]
    for k, combo in enumerate(combos):
        lines.append(f"  {seats.name(k)}: {' '.join(combo)}")
    won = [
        f"{suit} {seats.name(w)} +{p}"
        for suit, w, p in zip(SUITS, obs["suit_winners"], obs["suit_points"])
        if w is not None
    ]
    lines.append("  " + ("; ".join(won) if won else "no Suit won"))
    lines.append("  scores: " + ", ".join(f"{seats.name(k)} {x}" for k, x in enumerate(obs["scores"])))
    return lines


def ending(obs: Obs, seats: Seats) -> list[str]:
    """The last round's Suits and the reason the game ended."""
    scores = obs["scores"]
    best = max(scores)
    reached = [k for k, x in enumerate(scores) if x >= obs["target"]]
    reason = (
        f"{' and '.join(seats.name(k) for k in reached)} reached the target {obs['target']}"
        if reached
        else "the round limit was reached"
    )
    tied = [k for k, x in enumerate(scores) if x == best]
    tie = " (a tie: the seat closest to the Dealer's left wins it)" if len(tied) > 1 else ""
    return [f"The game ends: {reason}; the most points win{tie}."]
