"""Regine told from one seat: cards played and turned, effects and their targets,
exchanges, bets, the Suits won, and each round's and the game's scores.

Besides the observations, a seat hears the public part of another seat's move (see
``public``): the opponent a Knight or Peasant names, the card an Assassin eliminates or a
Courtesan turns, a Herald taken or put back, a declaration or a bet. What is chosen in
secret (a card played face down, the cards exchanged, a Princess's discard) is never named.
A move is read by its action info (``regalia.core.actions``: kind, effect, seat, slot, card),
found by the name the table says, never by taking the name apart.
"""

from __future__ import annotations

from typing import Any

from regalia.core.outcome import Outcome
from regalia.table.narrate import regine_suits
from regalia.table.narrate.common import action_info, added, cards_in_words, score_changes
from regalia.table.narrate.seats import Seats
from regalia.views.render.words import count

Obs = dict[str, Any]
SUITS = ("Queens", "Jesters", "Pairs", "Game")
#: Kinds of move chosen in secret: only the board shows what they did.
SECRET = ("exchange", "discard")
#: What the table hears of a card played face down.
FACE_DOWN = "play a card face down"


def _info(told: str | None) -> dict[str, Any] | None:
    """The info of the move called ``told`` (None: nothing said, or only ``FACE_DOWN``)."""
    return action_info("regine", told, players=4)


def public(name: str) -> str | None:
    """What everybody at the table learns of a move called ``name`` (None: only what the
    board shows). A card played face down is public only as "face down"."""
    info = _info(name)
    assert info is not None, name
    if info["kind"] == "play" and not info["face_up"]:
        return FACE_DOWN
    return None if info["kind"] in SECRET else name


def _title(card: str | None) -> str:
    return "a face-down card" if card is None else f"the {card.capitalize()}"


def _slot(obs: Obs, seat: int, slot: int) -> str | None:
    row = obs["table"][seat]
    return row[slot]["card"] if slot < len(row) else None


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
                    lines.append(f"{seats.whose(k).capitalize()} face-down card is turned face up: {_title(s['card'])}")
    return lines


def _effect(before: Obs, after: Obs, mover: int, info: dict[str, Any], seats: Seats) -> list[str]:
    """The line for an effect's decision, from its info."""
    whose = seats.whose(mover).capitalize()
    effect = info["effect"]
    if info["kind"] == "name_seat" and effect == "knight":
        k = info["seat"]
        line = (
            f"{whose} Knight names {seats.name(k)}: a card of {seats.whose(k)} hand is discarded at random and replaced"
        )
        if k == seats.viewer:
            lost, got = added(after["hand"], before["hand"]), added(before["hand"], after["hand"])
            if lost:
                line += f" (you lose {lost[0]}, you draw {got[0] if got else 'nothing'})"
            else:
                line += " (you draw the same card you lose)"
        return [line + "."]
    if info["kind"] == "name_seat":
        k = info["seat"]
        return [f"{whose} Peasant names {seats.name(k)}, who must show a card face up."]
    if info["kind"] == "target_card" and effect == "assassin":
        k, slot = info["seat"], info["slot"]
        card = _slot(before, k, slot)
        drawn = added(before["hand"], after["hand"]) if k == seats.viewer else []
        return [
            f"{whose} Assassin eliminates {seats.whose(k)} {'face-down card' if card is None else card.capitalize()};"
            f" {seats.verb(k, 'draw', 'draws')} {drawn[0] if drawn else 'a card'}."
        ]
    if info["kind"] == "target_card":
        k, slot = info["seat"], info["slot"]
        card = _slot(after, k, slot)
        return [f"{whose} Courtesan turns {seats.whose(k)} face-down card face up: {_title(card)}."]
    seen = before["herald_card"]  # shown to the Herald's player alone
    if info["kind"] == "herald" and info["take"]:
        card = seen or next(
            (a["card"] for b, a in zip(before["table"][mover], after["table"][mover]) if b["card"] != a["card"]),
            "herald",
        )
        return [
            f"{seats.Verb(mover, 'take', 'takes')} the Herald's card, {_title(card)}: it replaces the Herald face up."
        ]
    if info["kind"] == "herald":
        card = f" ({_title(seen)})" if seen else ""
        return [f"{seats.Verb(mover, 'put', 'puts')} the Herald's card{card} at the bottom of the deck."]
    return []


def _at_once(suit: int, won: int, gain: int, seats: Seats) -> list[str]:
    """A Suit won with the only chip left on it."""
    return [
        f"{SUITS[suit]}: {seats.verb(won, 'win', 'wins')} at once, with the only chip left on it"
        f" (+{gain}: the chip and {regine_suits.SUIT_MOST[suit]} for the Suit; the cards stay unseen)."
    ]


def _won_at_once(before: Obs, after: Obs, seats: Seats) -> list[str]:
    """A Suit won during the wagers: a single chip left on it."""
    lines = []
    for i in range(len(SUITS)):
        won = after["suit_winners"][i]
        if after["phase"] == "wager" and won is not None and before["suit_winners"][i] is None:
            lines += _at_once(i, won, after["suit_points"][i], seats)
    return lines


def _resolved(before: Obs, after: Obs, mover: int, told: str | None, seats: Seats) -> list[str]:
    """The round's end: every combination shown, each Suit not yet won with why it went
    where it did and what it paid."""
    combos = after["last_combinations"] or []
    lines = ["The round is scored; the combinations:"]
    lines += [f"  {seats.name(k)}: {' '.join(combo)}" for k, combo in enumerate(combos)]
    for i, suit in enumerate(SUITS):
        won = after["suit_winners"][i]
        if before["suit_winners"][i] is not None:
            lines.append(f"{suit}: won at once by {seats.name(won)} (+{before['suit_points'][i]}).")
            continue
        bets = set(before["bets"][i])
        if before["suit"] == suit.lower() and told == "all yours":
            bets.discard(mover)  # the last reply took its chip back
        if won is not None and len(bets) == 1:
            lines += _at_once(i, won, after["suit_points"][i], seats)
            continue
        why = regine_suits.reason(i, sorted(bets) or list(range(seats.count)), combos, before["dealer"], seats)
        among = "" if bets else "; nobody bet, so everybody was compared"
        if won is None:
            lines.append(f"{suit}: nobody wins: {why}{among}.")
            continue
        chips, doubled = len(bets), before["double_down"][i] is not None
        gain = regine_suits.points(i, after["suit_points"][i], chips, doubled)
        lines.append(f"{suit}: {seats.verb(won, 'win', 'wins')} ({gain}) {why}{among}.")
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
        if kind == "show_card" and mover == seats.viewer:
            lines.append(f"You show {info['card']}.")
        elif kind == "discard" and mover == seats.viewer:
            kept = list(before["hand"])
            kept.remove(info["card"])
            drawn = added(kept, after["hand"])
            lines.append(f"You discard {info['card']} for the Princess and draw {drawn[0] if drawn else 'nothing'}.")
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
            kept = list(before["hand"])
            for card in before["marked"]:
                kept.remove(card)
            drawn = added(kept, after["hand"])
            line += f": {cards_in_words(before['marked'], True)} out, {cards_in_words(drawn, True)} in"
        lines.append(line + ".")
    elif kind == "end_turn" and (after["passes"] > before["passes"] or after["phase"] != before["phase"]):
        lines.append(f"{seats.Verb(mover, 'pass', 'passes')} (nothing exchanged or played this turn).")
    if info is None or info.get("effect") != "courtesan":
        lines += [line + "." for line in _table_changes(before, after, seats)]
    if not after["no_changes"] and before["no_changes"] and after["phase"] == "build":
        lines.append("A Jester face up: exchanges are allowed again.")
    if before["phase"] == "build" and after["phase"] != "build" and not after["terminal"]:
        lines.append("Everyone passed: the hands go face down on the table; the wagers begin (Queens first).")
    round_over = after["round"] != before["round"] or (after["terminal"] and not before["terminal"])
    lines += _resolved(before, after, mover, told, seats) if round_over else _won_at_once(before, after, seats)
    lines += score_changes("Scores", before["scores"], after["scores"], seats)
    if round_over and not after["terminal"]:
        lines.append(f"Round {after['round'] + 1} begins; {seats.name(after['dealer'])} deals.")
    return lines


def ending(obs: Obs, outcome: Outcome, seats: Seats) -> list[str]:
    """The reason the game ended and the tie-break that decided (the outcome's, in words)."""
    if outcome.reason == "target_reached":
        reached = [k for k, x in enumerate(outcome.scores) if x >= obs["target"]]
        reason = f"{' and '.join(seats.name(k) for k in reached)} reached the target {obs['target']}"
    else:
        reason = "the round limit was reached"
    tie = ""
    if outcome.tie_break == "nearest_dealer":
        tie = " (equal points: the tied seat nearest the last Dealer wins, the Dealer first, then to her left)"
    return [f"The game ends: {reason}; the most points win{tie}."]
