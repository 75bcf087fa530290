"""The terminal of one run: a Rich console for the screen, one for messages, and plain mode.

Plain mode (``--no-color``, or automatically when the output is not a terminal) prints no
colour and no escape codes, and boards use ASCII instead of card symbols.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import textwrap
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from regalia.views.render import render_text

#: Screens are laid out for this many columns (and never wider).
WIDTH = 80


@dataclass
class Screen:
    """Where a command writes: ``out`` for results, ``err`` for messages and progress."""

    out: Console
    err: Console
    plain: bool

    def say(self, message: str, style: str = "", err: bool = False) -> None:
        """One message as it is (no markup), on stdout or ``err``; long lines are left to
        the terminal to wrap, so that paths and commands stay whole."""
        (self.err if err else self.out).print(message, style=style, markup=False, highlight=False, soft_wrap=True)

    def tell(self, message: str, style: str = "") -> None:
        """A message in lines that fit the screen, each wrapped line indented under its
        beginning (for sentences; ``say`` keeps paths and commands whole)."""
        width = self.out.width
        lines = []
        for line in message.splitlines() or [""]:
            indent = " " * (len(line) - len(line.lstrip()))
            lines += textwrap.wrap(line, width, subsequent_indent=indent + "  ", break_long_words=False) or [line]
        self.say("\n".join(lines), style=style)

    def rule(self, title: str) -> None:
        """A dim line across the screen with ``title`` in it (dashes in plain mode)."""
        self.out.rule(title, style="dim", characters="-" if self.plain else "─")

    def board(self, game: str, obs: dict[str, Any], options: dict[str, Any]) -> None:
        """The board ``obs``'s seat sees, drawn with ASCII instead of card symbols in plain mode."""
        self.out.print(render_text(game, obs, options, symbols=not self.plain), highlight=False)

    def table(self, **options: Any) -> Table:
        """A Rich table, drawn with ASCII in plain mode."""
        return Table(box=box.ASCII2 if self.plain else box.HEAVY_HEAD, **options)


def _console(stream_is_tty: bool, plain: bool, stderr: bool) -> Console:
    width = min(WIDTH, shutil.get_terminal_size().columns) if stream_is_tty else WIDTH
    if plain:
        return Console(stderr=stderr, no_color=True, color_system=None, highlight=False, width=width, emoji=False)
    return Console(stderr=stderr, highlight=False, width=width, emoji=False)


def make_screen(no_color: bool = False) -> Screen:
    """The screen for this run: plain when asked, when ``NO_COLOR`` is set, or when not a
    terminal (unless ``FORCE_COLOR`` is set)."""
    tty = sys.stdout.isatty() or bool(os.environ.get("FORCE_COLOR"))
    plain = no_color or not tty or bool(os.environ.get("NO_COLOR"))
    return Screen(
        out=_console(tty, plain, stderr=False),
        err=_console(sys.stderr.isatty(), plain, stderr=True),
        plain=plain,
    )


_screen: Screen | None = None


def screen() -> Screen:
    """The current run's screen (made on first use)."""
    global _screen
    if _screen is None:
        _screen = make_screen()
    return _screen


def set_plain(no_color: bool) -> Screen:
    """Makes a new screen for this run (called once per command line)."""
    global _screen
    _screen = make_screen(no_color)
    return _screen


def emit_json(value: Any) -> None:
    """``value`` as indented JSON on stdout, with no styling (for scripts)."""
    sys.stdout.write(json.dumps(value, indent=2) + "\n")


class CountBar:
    """A progress bar counting ``total`` things (``label`` says what is being done), on
    stderr when it is a terminal; as a context manager it gives the ``(done, total)``
    callback the library's long runs report to, or None where no bar is drawn."""

    def __init__(self, label: str, total: int) -> None:
        self.label = label
        self.total = total
        self.progress: Progress | None = None
        self.task: Any = None

    def __enter__(self) -> Any:
        if not screen().err.is_terminal:
            return None
        self.progress = Progress(
            TextColumn(self.label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=screen().err
        )
        self.progress.start()
        self.task = self.progress.add_task(self.label, total=self.total)
        return self.update

    def update(self, done: int, total: int) -> None:
        """Moves the bar to ``done`` of ``total``."""
        if self.progress is not None:
            self.progress.update(self.task, completed=done, total=total)

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()
