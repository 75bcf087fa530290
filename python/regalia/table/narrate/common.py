"""Pieces every game's narration shares: which cards came or went between two lists, a
few cards in words, and the line that tells every change of score."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from typing import Any

from regalia.core.outcome import Outcome
from regalia.registry.catalog import make
from regalia.table.narrate.seats import Seats

#: Small counts in words, for "two Queens".
NUMBERS = ("no", "a", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def added(before: Sequence[str], after: Sequence[str]) -> list[str]:
    """The items of ``after`` that ``before`` does not have, counted as a multiset, in the
    order of ``after`` (``added([a, b], [b, c, b])`` is ``[c, b]``)."""
    left = Counter(before)
    out = []
    for item in after:
        if left[item]:
            left[item] -= 1
        else:
            out.append(item)
    return out


def plural(name: str, n: int) -> str:
    """``name`` for ``n`` of it: ``Queen``, ``Queens``, ``Princesses``."""
    if n == 1:
        return name
    return name + ("es" if name.endswith("s") else "s")


def cards_in_words(cards: Sequence[str], capital: bool = False) -> str:
    """``["queen", "queen", "jester"]`` -> ``"two queens and a jester"`` (first seen
    first; ``capital`` names each card with a capital: ``"two Queens"``)."""
    counts = Counter(cards)
    parts = []
    for card, n in counts.items():
        name = card.capitalize() if capital else card
        word = NUMBERS[n] if n < len(NUMBERS) else str(n)
        if n == 1 and name[0].lower() in "aeiou":
            word = "an"
        parts.append(f"{word} {plural(name, n)}")
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def score_changes(
    label: str, before: Sequence[int], after: Sequence[int], seats: Seats, why: str | Sequence[str] = ""
) -> list[str]:
    """``["Scores: you 13 -> 18, seat 2 9 -> 6."]``: every seat whose count changed, with its
    old and new value (nothing when none changed); ``why``, the cause (one for all, or one
    per seat), is added in brackets. A seat given a cause of its own is listed even when its
    parts made up for each other (``you 9 -> 9 (characters +3, standards -3)``)."""
    reasons = [why] * len(after) if isinstance(why, str) else list(why)
    moved = [k for k in range(len(after)) if before[k] != after[k] or not isinstance(why, str) and reasons[k]]
    if not moved:
        return []
    listed = ", ".join(
        f"{seats.name(k)} {before[k]} -> {after[k]}{f' ({reasons[k]})' if reasons[k] else ''}" for k in moved
    )
    return [f"{label}: {listed}."]


def result(outcome: Outcome, seats: Seats, unit: str = "points") -> str:
    """The last line of every ending, from the game's outcome: who won (or that it is a
    draw) and the final scores, ``You win. Final scores (dragons): you 4, the opponent 1.``"""
    winners = outcome.winners
    if not winners:
        said = "It is a draw."
    elif len(winners) == 1:
        said = f"{seats.Verb(winners[0], 'win', 'wins')}."
    else:
        names = [seats.name(k) for k in winners]
        together = ", ".join(names[:-1]) + " and " + names[-1]
        said = f"{together[0].upper()}{together[1:]} share the win."
    listed = ", ".join(f"{seats.name(k)} {x}" for k, x in enumerate(outcome.scores))
    return f"{said} Final scores ({unit}): {listed}."


@cache
def _infos(game: str, options: tuple[tuple[str, Any], ...]) -> dict[str, dict[str, Any]]:
    state = make(game, **dict(options)).new_state(0)
    return {state.action_name(a): state.action_info(a) for a in range(state.num_actions)}


def action_info(game: str, name: str | None, **options: Any) -> dict[str, Any] | None:
    """The action info of the move called ``name`` (None when nothing was said or the name
    is not a move's). A game's names and infos describe the id alone, the same in every
    state, so one state of a game made with ``options`` that has every card and seat
    (Regine with four players, Duo with the Turbo-Jokers) serves every game."""
    return None if name is None else _infos(game, tuple(sorted(options.items()))).get(name)
