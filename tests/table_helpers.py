"""Tables for tests: one person at a chosen seat, the other seats played by the test itself."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console

from regalia.cli.console import Screen
from regalia.cli.human import HumanPrompt
from regalia.core.view import View
from regalia.table import HUMAN, Table


class Scripted:
    """A seat the test moves for: it plays whatever ``next`` says."""

    name = "scripted"

    def __init__(self) -> None:
        self.next = -1

    def act(self, view: View) -> int:
        return self.next


def table(game: Any, seat: int, start: Any) -> Table:
    """A table at ``start`` with a person at ``seat`` (asked even for a forced move) and
    scripted seats elsewhere."""
    seats: list[Any] = [HUMAN if k == seat else Scripted() for k in range(game.num_players)]
    return Table(game, seats, 0, start=start, ask_forced=True)


def legal(t: Table) -> list[int]:
    """The legal moves of the seat to move (none once the game is over)."""
    seat = t.to_move
    return [] if seat is None else [a for a, _ in t.moves(seat)]


def step(t: Table, action: int) -> None:
    """Plays ``action`` for whichever seat is to move."""
    seat = t.to_move
    assert seat is not None
    if seat in t.humans:
        t.play(seat, action)
    else:
        bot = t.bots[seat]
        assert isinstance(bot, Scripted)
        bot.next = action
        t.play_bot()


def text_screen() -> Screen:
    def console() -> Console:
        return Console(file=io.StringIO(), width=80, no_color=True, color_system=None, emoji=False)

    return Screen(out=console(), err=console(), plain=True)


def shown(t: Table, seat: int) -> str:
    """Everything ``seat`` is shown at its turn, as the table hands it over (its news, its
    view's observation and moves) and as the terminal draws it (its board and its moves)."""
    view = t.view(seat)
    screen = text_screen()
    fresh = t.game.new_state(0)
    HumanPrompt(screen, fresh.parse_action, lambda v: ("none", v.legal_actions[0]), False).show(view, t.peek_news(seat))
    out = screen.out.file
    assert isinstance(out, io.StringIO)
    handed = repr((t.peek_news(seat), view.observation, view.legal_actions, view.action_names, t.moves(seat)))
    return handed + "\n" + out.getvalue()
