"""Undo at the table (``regalia.table``, no terminal in it) reveals nothing. Whatever a person
was told between a move and taking it back must be what they could have foreseen from their
own view before it: in worlds they cannot tell from the game at that move (``determinize``,
other seeds than the table's own check uses), the same moves tell them the same lines. Undo
is tried at random moments of random games of every game and player count; and the same
check finds leaks when the table's limits on undo are taken away."""

from __future__ import annotations

import random
from typing import Any

import pytest

import regalia
from regalia.table import Refused, Table
from tests.table_helpers import legal, shown, step, table
from tests.test_table_leaks import CONFIGS

#: Games per configuration, moves per game, worlds per accepted undo.
STARTS = 3
MOVES = 60
WORLDS = 8


def state_after(game: Any, start: int, actions: list[int]) -> Any:
    """The game from ``start``'s deal after ``actions``."""
    state = game.new_state(start)
    for a in actions:
        state.apply(a)
    return state


def told_in_world(game: Any, seat: int, world: Any, moves: list[int]) -> list[list[str]] | None:
    """The lines a table at ``world`` tells ``seat`` over ``moves`` (None when a move is not
    legal there: the moves themselves told the seat something)."""
    t = table(game, seat, world)
    for a in moves:
        if a not in legal(t):
            return None
        step(t, a)
    return [list(event.lines) for event in t.log(seat)]


def undone(t: Table, seat: int) -> str | None:
    """Undo at ``t`` for ``seat``: None when done, else why it was refused."""
    try:
        t.undo(seat)
    except Refused as e:
        return str(e)
    return None


def marks(t: Table, seat: int) -> list[int]:
    """Where the person's own moves start, from the log it was handed."""
    return [event.ply - 1 for event in t.log(seat) if event.seat == seat]


def undo_leaks(name: str, players: int, rnd: random.Random) -> tuple[int, list[str]]:
    """Plays random games with a person at a random seat who tries ``undo`` at random
    moments; returns how many undos were accepted and every one that took back something
    the person could not have foreseen."""
    game = regalia.make(name, players=players)
    accepted, leaks = 0, []
    for start in range(STARTS):
        seat = rnd.randrange(players)
        t = table(game, seat, game.new_state(start))
        for _ in range(MOVES):
            if t.is_over:
                break
            own = marks(t, seat)
            if t.to_move == seat and own and rnd.random() < 0.5:
                mark = own[-1]
                moves = t.actions[mark:]
                told = [list(event.lines) for event in t.log(seat)]
                before = state_after(game, start, t.actions[:mark])
                screen_then = shown(table(game, seat, before), seat)
                t.take_news(seat)  # what is on the screen up to now
                if undone(t, seat) is None:
                    accepted += 1
                    for _ in range(WORLDS):
                        world = before.determinize(seat, rnd.getrandbits(64))
                        if told_in_world(game, seat, world, moves) != told[mark:]:
                            leaks.append(f"seed {start}, seat {seat}: undo of {len(moves)} moves after move {mark}")
                            break
                    assert t.take_news(seat) == ["you took back your last move"]
                    assert shown(t, seat) == screen_then, "after undo the seat is shown what it was before the move"
                    continue
            step(t, rnd.choice(legal(t)))
    return accepted, leaks


@pytest.mark.parametrize("config", CONFIGS, ids=[f"{name}-{n}p" for name, n in CONFIGS])
def test_undo_takes_back_only_what_told_the_person_nothing(config: tuple[str, int]) -> None:
    accepted, leaks = undo_leaks(*config, random.Random(f"undo {config}"))
    assert not leaks, leaks


def test_undo_is_used_where_a_turn_has_several_steps() -> None:
    """Duo (a pile chosen, then cards played) and Regine (cards played, then the end of the
    turn) take moves back within a turn: the check above is not vacuous."""
    for name in ("duo", "regine"):
        accepted, _ = undo_leaks(name, 2, random.Random(f"undo used {name}"))
        assert accepted >= 3, (name, accepted)


@pytest.mark.parametrize("name", ["duo-regna", "duell-der-drachen", "duo", "regnum"])
def test_the_check_finds_leaks_when_undo_is_not_limited(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Table, "_move_floor", lambda self, seat, action: None)
    accepted, leaks = undo_leaks(name, 2, random.Random(f"undo unlimited {name}"))
    assert leaks, f"{accepted} undos and no leak found"


def first(t: Table, name: str) -> int:
    """The legal move called ``name`` (or beginning with it)."""
    seat = t.to_move
    assert seat is not None
    return next(a for a, n in t.moves(seat) if n.startswith(name))


def person_table(name: str, seed: int) -> Table:
    game = regalia.make(name)
    return table(game, 0, game.new_state(seed))


@pytest.mark.parametrize(("name", "move"), [("duo", "draw"), ("regnum", "draw two")])
def test_a_draw_cannot_be_taken_back(name: str, move: str) -> None:
    t = person_table(name, 3)
    step(t, first(t, move))
    assert t.to_move == 0 or name == "duo"
    assert undone(t, 0) == "that move showed you something new, so your last move stands"


def test_a_move_that_shows_nothing_can_be_taken_back_until_something_is_shown() -> None:
    """Regnum: taking the discard pile's top card shows nothing hidden (unless Riverford
    Castle's advantage draws a card with it); drawing two blind does."""
    seed = next(
        n for n in range(100) if regalia.make("regnum").new_state(n).observation(0)["castles"][0] != "Riverford Castle"
    )
    t = person_table("regnum", seed)
    step(t, first(t, "take discard"))
    assert undone(t, 0) is None and t.actions == []
    step(t, first(t, "draw two"))
    assert undone(t, 0) is not None
    riverford = next(
        n for n in range(100) if regalia.make("regnum").new_state(n).observation(0)["castles"][0] == "Riverford Castle"
    )
    t = person_table("regnum", riverford)
    step(t, first(t, "take discard"))
    assert undone(t, 0) is not None


def test_duo_regna_reveal_and_the_opponents_choice_stay() -> None:
    """The person in seat 1 sees the opponent's committed card at the reveal; in seat 0 the
    opponent commits after the person: neither can be taken back."""
    game = regalia.make("duo-regna")
    t = table(game, 1, game.new_state(4))
    step(t, legal(t)[0])  # the opponent commits
    step(t, legal(t)[0])  # the person commits: both cards are shown
    assert undone(t, 1) is not None
    t = table(game, 0, game.new_state(4))
    step(t, legal(t)[0])
    step(t, legal(t)[0])
    assert undone(t, 0) == "the opponent has moved since, so your last move stands"
