"""Regnum told from one seat: draws (the cards named to the drawer), purchases with what
paid for them, each effect as its character doing it ("Your Spy (STEAL) takes ..."), the
standards and the Jesters' bonus changing hands, every score change with its parts, the
line-up, and at the end each realm's score in parts (characters, wizards, Jesters,
standards).

Every move of Regnum is seen by the whole table except a SWAP's choices (the resource deck
is looked through in secret); the observations show the rest, so other seats' move names
are not needed."""

from __future__ import annotations

from typing import Any

from regalia.core.cards.regnum import CardSet, Character, card_set_for, score_parts, standard_winners, tally
from regalia.core.outcome import Outcome
from regalia.table.narrate.common import added, score_changes
from regalia.table.narrate.seats import Seats
from regalia.views.render.words import count

Obs = dict[str, Any]
#: Each standard in play (an index into the card set's standards) with the seats that hold it.
Held = list[tuple[int, list[int]]]
#: What an effect that found nothing to act on would have done.
NO_TARGET = {
    "STEAL": "there is no hand to steal from",
    "TAX": "nobody has to discard",
    "SWAP": "there is nothing to swap",
    "SALVAGE": "the discard pile is empty",
    "EXCHANGE": "there is no inhabitant to take",
    "REMOVE": "there is no inhabitant to remove",
    "DRAW1": "the resource deck is empty",
    "DRAW2": "the resource deck is empty",
}
#: Names of the parts of a score, as ``score_parts`` keys them.
PARTS = {"characters": "characters", "wizards": "wizards", "jesters": "Jesters' bonus", "standards": "standards"}


def _cards(seats: Seats) -> CardSet:
    return card_set_for(seats.options, seats.count)


def _character(cards: CardSet, name: str) -> Character:
    return next(c for c in cards.characters if c.name == name)


def _listed(cards: list[str]) -> str:
    return ", ".join(cards) if cards else "nothing"


def _by(seats: Seats, seat: int, ch: Character) -> str:
    """``your Spy (STEAL)``: an effect named by its character and its owner."""
    return f"{seats.whose(seat)} {ch.name} ({ch.effect})"


def _capital(text: str) -> str:
    return text[0].upper() + text[1:]


def _draw(before: Obs, after: Obs, mover: int, seats: Seats) -> list[str]:
    """Two cards blind, or the discard pile's top card (and Riverford's blind card)."""
    gained = after["hand_sizes"][mover] - before["hand_sizes"][mover]
    new = added(before["hand"], after["hand"]) if mover == seats.viewer else []
    if len(after["discard"]) < len(before["discard"]):
        taken = before["discard"][-1]
        line = f"{seats.Verb(mover, 'take', 'takes')} the discard pile's top card ({taken})"
        if gained > 1:
            if taken in new:
                new.remove(taken)
            blind = f": {_listed(new)}" if mover == seats.viewer else ""
            line += f" and {seats.verb(mover, 'draw', 'draws')} {count(gained - 1, 'card')} blind (Riverford){blind}"
        return [line + "."]
    if gained == 0:
        return [f"{seats.Verb(mover, 'draw', 'draws')} nothing: the resource deck is empty."]
    blind = f": {_listed(new)}" if mover == seats.viewer else ""
    return [f"{seats.Verb(mover, 'draw', 'draws')} {count(gained, 'card')} blind{blind}."]


def _bought(before: Obs, after: Obs, mover: int, seats: Seats, cards: CardSet) -> list[str]:
    """A completed purchase, what paid for it, and the effect it set off at once."""
    name = before["character"]
    ch = _character(cards, name)
    cost = before["cost"] or []
    paid = after["discard"][len(after["discard"]) - len(cost) :] if cost else []
    lines = [f"{seats.Verb(mover, 'buy', 'buys')} {name} (cost {' '.join(cost)}, paid with {_listed(paid)})."]
    if ch.effect is None:
        return lines
    by = _by(seats, mover, ch)
    drew = before["resource_deck"] - after["resource_deck"]
    if ch.effect in ("DRAW1", "DRAW2") and drew > 0:
        kept = list(before["hand"])
        if mover == seats.viewer and paid:
            kept.remove(paid[-1])  # the last card paid left the hand on this move
        own = added(kept, after["hand"]) if mover == seats.viewer else []
        what = _listed(own) if mover == seats.viewer else count(drew, "card")
        then = f"; {seats.verb(mover, 'discard', 'discards')} one next" if after["phase"] == "draw2_discard" else ""
        lines.append(f"{_capital(by)}: {seats.verb(mover, 'draw', 'draws')} {what}{then}.")
    elif ch.effect == "CLEAR":
        gone = added(before["gone"], after["gone"])
        leave = "leave" if len(gone) > 1 else "leaves"
        lines.append(f"{_capital(by)} clears the line-up: {_listed(gone)} {leave} the game.")
    elif after["phase"] in ("main", "draw", "over") and after["character"] is None:
        lines.append(f"{_capital(by)} does nothing: {NO_TARGET[ch.effect]}.")
    elif ch.effect == "TAX":
        lines.append(f"{_capital(by)}: {_taxed(after, mover, seats, cards)}.")
    return lines


def _taxed(after: Obs, active: int, seats: Seats, cards: CardSet) -> str:
    """Who must discard for a TAX (in turn from the active player's left), and who is spared."""
    castles = {c.name: c.advantage for c in cards.castles}
    order = [(active + k) % seats.count for k in range(1, seats.count)]
    spared = [k for k in order if castles[after["castles"][k]] == "SHADOWFEN"]
    taxed = [k for k in order if k not in spared and after["hand_sizes"][k] > 0]
    line = f"a card to discard for {_who(seats, taxed)}, {'each ' if len(taxed) > 1 else ''}choosing which"
    if spared:
        line += f"; {_who(seats, spared)} spared by Shadowfen Castle"
    return line


def _owner(before: Obs, after: Obs, name: str, seats: Seats) -> int:
    """The seat whose realm held ``name`` before the move and lost it."""
    return next(k for k in range(seats.count) if name in before["realms"][k] and name not in after["realms"][k])


def _effect(before: Obs, after: Obs, mover: int, seats: Seats, cards: CardSet) -> list[str]:
    """A decision of an effect under way, told as its character doing it."""
    phase, active = before["phase"], before["active"]
    ch = _character(cards, before["character"])
    by = _capital(_by(seats, active, ch))
    if phase == "exchange":
        taken = added(before["realms"][mover], after["realms"][mover])[0]
        owner = _owner(before, after, taken, seats)
        return [f"{by} takes {seats.whose(owner)} {taken} and goes to {seats.whose(owner)} realm in its place."]
    if phase == "remove":
        removed = added(before["gone"], after["gone"])
        owner = _owner(before, after, removed[0], seats)
        return [f"{by} removes {seats.whose(owner)} {removed[0]} from the game."]
    if phase == "steal":
        victim = next(k for k in range(seats.count) if after["hand_sizes"][k] < before["hand_sizes"][k])
        card = ""
        if seats.viewer == mover:
            card = f": {_listed(added(before['hand'], after['hand']))}"
        elif seats.viewer == victim:
            card = f": {_listed(added(after['hand'], before['hand']))}"
        return [f"{by} takes a card at random from {seats.whose(victim)} hand{card}."]
    if phase == "salvage":
        salvaged = added(after["discard"], before["discard"])
        return [f"{by}: {seats.verb(mover, 'take', 'takes')} {_listed(salvaged)} from the discard pile."]
    if phase == "swap_take":
        own = f" {_listed(added(before['hand'], after['hand']))}" if mover == seats.viewer else " a card"
        return [f"{by}: {seats.verb(mover, 'take', 'takes')}{own} from the resource deck."]
    if phase == "swap_give":
        own = f" {_listed(added(after['hand'], before['hand']))}" if mover == seats.viewer else " a card"
        return [f"{by}: {seats.verb(mover, 'give', 'gives')}{own} back; the resource deck is shuffled."]
    thrown = added(before["discard"], after["discard"])
    return [f"{seats.Verb(mover, 'discard', 'discards')} {_listed(thrown)} for {_by(seats, active, ch)}."]


def _move(before: Obs, after: Obs, mover: int, seats: Seats, cards: CardSet) -> list[str]:
    """What the move itself did."""
    phase = before["phase"]
    if phase == "draw":
        return _draw(before, after, mover, seats)
    if phase == "pay":
        if after["phase"] != "pay" and before["character"] in after["realms"][mover]:
            return _bought(before, after, mover, seats, cards)
        if after["scores"] == before["scores"]:
            return []  # a purchase is told once it is paid for
        return [f"{seats.Verb(mover, 'pay', 'pays')} {after['discard'][-1]} towards {before['character']}."]
    if phase == "main":
        if len(after["discard"]) > len(before["discard"]):
            return [f"{seats.Verb(mover, 'discard', 'discards')} {after['discard'][-1]}, ending the turn."]
        if after["phase"] == "pay":
            return []  # a purchase is told once it is paid for
        return [f"{seats.Verb(mover, 'end', 'ends')} the turn."]
    return _effect(before, after, mover, seats, cards)


def _standing(obs: Obs, seats: Seats, cards: CardSet) -> tuple[list[dict[str, int]], Held]:
    """Each seat's score in parts, and each standard in play with who holds it."""
    by_name = {c.name: i for i, c in enumerate(cards.characters)}
    castles = {c.name: c.advantage for c in cards.castles}
    standards = {s.name: i for i, s in enumerate(cards.standards)}
    realms = [sorted(by_name[n] for n in realm) for realm in obs["realms"]]
    chosen = sorted(standards[n] for n in obs["standards"])
    advantages = [castles[c] for c in obs["castles"]]
    parts = score_parts(cards, realms, obs["hand_sizes"], advantages, chosen)
    return parts, standard_winners(cards, realms, obs["hand_sizes"], advantages, chosen)


def _who(seats: Seats, holders: list[int]) -> str:
    """``you``, ``you and seat 2``, ``seat 1, seat 2 and seat 3``."""
    names = [seats.name(k) for k in holders]
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _standards(held_before: Held, held_after: Held, after: Obs, seats: Seats, cards: CardSet) -> list[str]:
    """Each standard that changed hands, from whom to whom, with what it counts now."""
    by_name = {c.name: i for i, c in enumerate(cards.characters)}
    lines = []
    for (i, old), (_, new) in zip(held_before, held_after):
        if old == new:
            continue
        standard = cards.standards[i]
        counts = [
            tally(cards, [by_name[n] for n in after["realms"][k]], after["hand_sizes"][k])[standard.counts]
            for k in range(seats.count)
        ]
        now = ", ".join(f"{seats.name(k)} {c}" for k, c in enumerate(counts))
        head = f'The standard "{standard.name}"'
        if not old:
            lines.append(f"{head} goes to {_who(seats, new)} ({now}).")
        elif not new:
            lines.append(f"{head} is lost by {_who(seats, old)}: nobody leads it now ({now}).")
        else:
            lines.append(f"{head} passes from {_who(seats, old)} to {_who(seats, new)} ({now}).")
    return lines


def _scores(before: Obs, after: Obs, seats: Seats, cards: CardSet) -> list[str]:
    """The standards and the Jesters' bonus that changed hands, then every score change
    with the parts that made it."""
    parts_before, held_before = _standing(before, seats, cards)
    parts_after, held_after = _standing(after, seats, cards)
    lines = _standards(held_before, held_after, after, seats, cards)
    bonus_before = [k for k, p in enumerate(parts_before) if p["jesters"]]
    bonus_after = [k for k, p in enumerate(parts_after) if p["jesters"]]
    if bonus_before != bonus_after:
        moves = f"passes from {_who(seats, bonus_before)}" if bonus_before else "goes"
        to = _who(seats, bonus_after) or "nobody: the most Jesters are tied"
        lines.append(f"The Jesters' bonus (most Jesters) {moves} to {to}.")
    why = [
        ", ".join(f"{PARTS[key]} {a[key] - b[key]:+d}" for key in PARTS if a[key] != b[key])
        for b, a in zip(parts_before, parts_after)
    ]
    return lines + score_changes("Scores", before["scores"], after["scores"], seats, why)


def news(before: Obs, after: Obs, mover: int, told: str | None, seats: Seats) -> list[str]:
    """What one move did, in a line or two (a payment step alone says nothing: its purchase
    is told when it is paid for), then the scores it changed and the turn's end."""
    cards = _cards(seats)
    lines = _move(before, after, mover, seats, cards) + _scores(before, after, seats, cards)
    if after["turn"] != before["turn"] and not after["terminal"]:
        fresh = added([n for n in before["lineup"] if n], [n for n in after["lineup"] if n])
        if fresh:
            lines.append(f"New in the line-up: {', '.join(fresh)}.")
    if after["final_turns"] is not None and before["final_turns"] is None:
        lines.append(f"A deck is used up: {count(after['final_turns'], 'more turn')} to play, then the game ends.")
    return lines


def breakdown(obs: Obs, seats: Seats) -> list[dict[str, int]]:
    """Each seat's points in parts, from what the final board shows."""
    return _standing(obs, seats, _cards(seats))[0]


#: What ended the game, by the outcome's reason.
REASONS = {
    "final_round": "a deck ran out and the final round was played",
    "turn_guard": "the turn limit was reached",
}
#: What decided between seats level on points, by the outcome's tie-break.
TIE_BREAKS = {"inhabitants": "Equal points: the most inhabitants win."}


def ending(obs: Obs, outcome: Outcome, seats: Seats) -> list[str]:
    """Why the game ended, each realm's score in parts and what decided a tie (the outcome's
    reason and tie-break, in words)."""
    parts = breakdown(obs, seats)
    lines = [f"The game ends: {REASONS.get(outcome.reason, outcome.reason)}."]
    lines.append("Scores (characters + wizards + Jesters bonus + standards):")
    for k, p in enumerate(parts):
        total = sum(p.values())
        lines.append(
            f"  {seats.name(k):<12} {p['characters']:>3} + {p['wizards']:>2} + {p['jesters']:>2} + {p['standards']:>2}"
            f" = {total:>3}   ({len(obs['realms'][k])} inhabitants)"
        )
    if outcome.tie_break in TIE_BREAKS:
        lines.append(TIE_BREAKS[outcome.tie_break])
    elif len(outcome.winners) != 1:
        lines.append("Equal points and inhabitants: the win is shared.")
    return lines
