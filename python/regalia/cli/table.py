"""One game at the terminal: the table (``regalia.table.Table``) drawn on a ``Screen``.

The table decides everything (whose turn, forced moves, undo, the news each seat is told);
this module only shows it and reads what the person types: a person's prompt gets a
``View`` and the news of their own seat, and when several people share the terminal a
hand-over screen (with the scrollback cleared) stands between two of them.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from regalia.cli.console import Screen
from regalia.cli.human import HumanPrompt, Request
from regalia.cli.records import write_record
from regalia.core.view import View
from regalia.registry.records import MatchRecord
from regalia.table import Refused, Table
from regalia.table.moves import has_numeric_names
from regalia.table.saves import default_save


class GameLeft(Exception):
    """The people left the game before its end (``quit``, or the input ended)."""


class TerminalTable:
    """``table`` at the terminal ``screen``, reading the people's input with ``read``."""

    def __init__(self, table: Table, screen: Screen, read: Callable[[str], str] = input) -> None:
        self.table = table
        self.screen = screen
        self.read = read
        fresh = table.game.new_state(0)
        letters = has_numeric_names(fresh.action_name, table.game.num_actions)
        self.prompt = HumanPrompt(screen, fresh.parse_action, self._hint, letters, read)
        #: Where the game was last saved, and after how many moves.
        self.saved: tuple[Path, int] | None = None

    @property
    def person(self) -> int | None:
        """The one person at the terminal (None with several, or none)."""
        humans = self.table.humans
        return humans[0] if len(humans) == 1 else None

    def introduction(self) -> str:
        """Who sits where, told to the one person at the terminal (or to all of them)."""
        return self.table.introduction(self.person)

    def ending(self) -> list[str]:
        """Why the game ended and the score breakdown, from the person's seat (from seat 0,
        naming every seat by number, when several people share the terminal)."""
        return self.table.ending(self.person)

    def who(self, seat: int) -> str:
        """``seat 1 (random)``."""
        return f"seat {seat} ({self.table.seats[seat]})"

    def play(self) -> MatchRecord:
        """Plays to the end. Raises ``GameLeft`` when the people quit or the input ends."""
        while True:
            waiting = self.table.waiting()
            if waiting.seat is None:
                return self.table.record()
            if waiting.kind == "bot":
                with self.screen.err.status(f"{self.who(waiting.seat)} is thinking..."):
                    self.table.play_bot()
            else:
                self._ask(waiting.seat)

    def left_message(self, reason: str) -> str:
        """What to say when the people leave before the end: where the game is saved, if it is."""
        if self.saved is not None and self.saved[1] == len(self.table.actions):
            return f"Game left ({reason}); it is saved: regalia resume {self.saved[0]}"
        return f"Game left unfinished ({reason}); 'save' first to continue it later."

    def _ask(self, seat: int) -> None:
        """Reads the person at ``seat`` until they move (or leave)."""
        self._hand_over(seat)
        show = True
        while True:
            try:
                news = self.table.take_news(seat) if show else []
                request = self.prompt.ask(self.table.view(seat), news, show=show)
            except EOFError:
                self.prompt.say("")
                self._offer_to_save()
                raise GameLeft("the input ended") from None
            show = False
            if request.kind == "move":
                self.table.play(seat, request.action)
                return
            if request.kind == "quit":
                self._offer_to_save()
                raise GameLeft("you left the game")
            if request.kind == "save":
                self._save(request)
            elif request.kind in ("undo", "back"):
                show = self._refusable(request.kind, seat)
            elif request.kind == "log":
                self._log(seat)

    def _refusable(self, kind: str, seat: int) -> bool:
        """Asks the table to ``undo`` or go ``back``; says why when it refuses."""
        try:
            (self.table.undo if kind == "undo" else self.table.back)(seat)
        except Refused as e:
            self.prompt.say(f"  refused: {e}", style="yellow")
            return False
        return True

    def _hand_over(self, seat: int) -> None:
        """Between two people at one terminal: clear the screen and wait for the next one."""
        if self.table.needs_hand_over(seat):
            self._clear()
            self.screen.out.print("\n" * 3)
            self.prompt.say(f"Hand the terminal to {self.who(seat)}; nobody else should look.", style="bold")
            try:
                self.read(f"seat {seat}, press Enter when you are ready ")
            except EOFError:
                raise GameLeft("the input ended") from None
            self._clear()
        self.table.handed_over(seat)

    def _clear(self) -> None:
        """Clears the screen and, on a terminal, its scrollback too (nothing of the last
        person's hand can be scrolled back to)."""
        out = self.screen.out
        out.clear()
        if out.is_terminal:
            out.file.write("\x1b[3J")
            out.file.flush()

    def _save(self, request: Request) -> None:
        path = Path(request.path) if request.path else default_save(self.table.game.name)
        if write_record(path, self.table.record(), self.prompt.say):
            self.saved = (path, len(self.table.actions))
            self.screen.say(f"  saved to {path}; continue later with: regalia resume {path}", style="green")

    def _offer_to_save(self) -> None:
        """Before leaving: asks whether to save (unless saved as it stands): ``y`` saves to
        the user's data folder (``default_save``), a file name there; no answer, or the end of
        the input, saves nothing."""
        if self.saved is not None and self.saved[1] == len(self.table.actions):
            return
        try:
            answer = self.read("Save the game before you go? [y/N, or a file name] ")
        except EOFError:
            self.prompt.say("")
            return
        if not sys.stdin.isatty():
            self.prompt.say(answer)
        answer = answer.strip()
        if answer.lower() in ("y", "yes"):
            self._save(Request("save"))
        elif answer and answer.lower() not in ("n", "no"):
            self._save(Request("save", path=answer))

    def _log(self, seat: int) -> None:
        """The whole game so far as ``seat`` was told it, move by move."""
        told = [(event.ply, line) for event in self.table.log(seat) for line in event.lines]
        if not told:
            self.prompt.say("  nothing has happened yet")
        for number, line in told:
            self.prompt.say(f"  {number:>3}. {line}")

    def _hint(self, view: View) -> tuple[str, int]:
        return self.table.hint(view.seat)
