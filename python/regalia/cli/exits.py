"""Exit codes, the same for every command, and the way a command fails."""

from __future__ import annotations

from typing import NoReturn

import typer

from regalia.cli.console import screen

#: The command did what was asked (a game played to its end, a file written, ...).
OK = 0
#: Something could not be used: a missing or corrupt file, a record that does not replay.
ERROR = 1
#: Bad arguments: an unknown game, agent or option (Typer's own usage errors are 2 as well).
USAGE = 2
#: A game was left before its end: ``quit`` at the prompt, or the input ended.
ABANDONED = 3
#: Stopped by Ctrl-C.
INTERRUPTED = 130


def fail(message: str, code: int = ERROR) -> NoReturn:
    """Prints ``error: message`` on stderr and ends the command with ``code``."""
    screen().say(f"error: {message}", style="bold red", err=True)
    raise typer.Exit(code)
