"""A person at the terminal: shows the board of their seat only and reads a move or a command.

The prompt sees a ``View`` (what the seat may see), never the game's state. Besides a move
(by label or name, see ``moves``) it understands ``help``, ``moves``, ``board``, ``hint``,
``log``, ``undo``, ``back``, ``save [FILE]`` and ``quit``; the last five are carried out by the
table.
On a terminal the line can be edited, earlier lines come back with the arrow keys, and Tab
completes move names and commands (``readline``, where Python has it).
"""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass

from rich.text import Text

from regalia.agents import View
from regalia.cli.console import Screen
from regalia.table.menu import move_menu
from regalia.table.moves import MoveRefused

#: What the person may type: ``(command, what it does)``; the first has no command.
HELP = [
    ("", "Type a move's label from the list, or its name (a unique beginning will do)."),
    ("hint", "what the strongest built-in agent would play here"),
    ("log", "the whole game so far, as you were told it"),
    ("undo", "take back your last move, if it showed you nothing new (against bots)"),
    ("back", "back out of a purchase you have not paid for yet (Regnum)"),
    ("save [FILE]", "save the game (without FILE, in your data folder); continue it later with: regalia resume FILE"),
    ("moves, board", "show the moves, or the whole board, again"),
    ("quit", "leave the game, offering to save it first (Ctrl-D too; Ctrl-C at once)"),
    ("", "Tab completes move names and commands; the arrow keys edit the line and recall earlier ones."),
]


def help_text(width: int) -> str:
    """``HELP`` in lines of at most ``width`` columns, each description wrapped under itself."""
    lines = []
    for command, text in HELP:
        first, rest = (f"  {command:<14}", " " * 16) if command else ("  ", "  ")
        lines += textwrap.wrap(text, width, initial_indent=first, subsequent_indent=rest, break_long_words=False)
    return "\n".join(lines)


#: The commands, for completion.
COMMANDS = ("help", "moves", "board", "hint", "log", "undo", "back", "save", "quit")


@dataclass(frozen=True)
class Request:
    """What the person asked for: ``move`` (with ``action``), ``log``, ``undo``, ``back``,
    ``save`` or ``quit``."""

    kind: str
    action: int = -1
    path: str = ""


class HumanPrompt:
    """Asks one person for their move; ``hint`` gives the move an agent would choose, and
    ``letters`` labels the moves a, b, c (see ``moves``)."""

    def __init__(
        self,
        screen: Screen,
        parse: Callable[[str], int],
        hint: Callable[[View], tuple[str, int]],
        letters: bool,
        read: Callable[[str], str] = input,
    ) -> None:
        self.screen = screen
        self.letters = letters
        self.parse = parse
        self.hint = hint
        self.read = read
        self.completions: list[str] = []
        if read is input and sys.stdin.isatty():
            _line_editing(self._complete)

    def say(self, message: str, style: str = "") -> None:
        """One message to the person, wrapped to the screen (see ``Screen.tell``)."""
        self.screen.tell(message, style=style)

    def _answer(self, question: str, prompt: str) -> str:
        """Says ``question`` and reads the person's answer at ``prompt`` (echoed when the
        input is not a terminal, as the moves are); ``EOFError`` passes through."""
        self.say(f"  {question}")
        text = self.read(prompt)
        if not sys.stdin.isatty():
            self.say(text)
        return text

    def _complete(self, text: str, state: int) -> str | None:
        """readline's completer: the move names and commands that begin with ``text``."""
        found = [c for c in self.completions if c.startswith(text.lower())]
        return found[state] if state < len(found) else None

    def show(self, view: View, news: list[str]) -> None:
        """What happened since this seat's last move, its board and its moves."""
        out = self.screen.out
        out.print()
        for line in news:
            self.say(f"  {line}", style="italic")
        self.screen.rule(f"{view.game}: seat {view.seat}, your move")
        self.screen.board(view.game, view.observation, view.options)
        self.show_moves(view)

    def show_moves(self, view: View) -> None:
        """The legal moves with their labels, in columns that fit the screen."""
        listed = move_menu(view, self.letters)
        cells = listed.cells()
        width = max(len(c) for c in cells) + 2
        per_row = max(1, (self.screen.out.width - 2) // width)
        for start in range(0, len(cells), per_row):
            row = "".join(c.ljust(width) for c in cells[start : start + per_row]).rstrip()
            self.screen.out.print(Text(row, style="bold"))
        for line in listed.footer:
            self.say(f"  {line}")

    def ask(self, view: View, news: list[str], show: bool = True) -> Request:
        """Shows the seat's screen (unless ``show`` is false) and reads until the person
        asks for something valid. ``EOFError`` and ``KeyboardInterrupt`` pass through."""
        if show:
            self.show(view, news)
        moves = move_menu(view, self.letters)
        self.completions = sorted({*COMMANDS, *(n.lower() for n in view.action_names)})
        while True:
            text = self.read(f"seat {view.seat}> ")
            if not sys.stdin.isatty():
                self.say(text)
            word, _, rest = text.strip().partition(" ")
            command = word.lower()
            if command in ("help", "?"):
                self.screen.say(help_text(self.screen.out.width))
            elif command == "moves":
                self.show_moves(view)
            elif command == "board":
                self.show(view, [])
            elif command == "hint":
                with self.screen.err.status("thinking..."):
                    agent, action = self.hint(view)
                self.say(f"  hint ({agent}): {view.action_names[view.legal_actions.index(action)]}", style="green")
            elif command in ("log", "undo", "back", "quit", "exit") and not rest:
                return Request("quit" if command == "exit" else command)
            elif command == "save":
                return Request("save", path=rest.strip())
            else:
                try:
                    return Request("move", action=moves.read(text, self.parse, self._answer))
                except MoveRefused as e:
                    self.say(f"  refused: {e}", style="yellow")


def _line_editing(completer: Callable[[str, int], str | None]) -> None:
    """Turns on ``readline`` for ``input``: editing, history and Tab completion with
    ``completer`` (whole move names: the only word break is the end of the line). Nothing
    where Python has no ``readline``."""
    try:
        import readline
    except ImportError:
        return
    readline.set_completer(completer)
    readline.set_completer_delims("")
    readline.parse_and_bind("tab: complete")
