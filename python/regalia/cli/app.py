"""The Typer application: global options, the commands, and what every command shares
(examples in ``--help``, Ctrl-C without a traceback)."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import typer
from typer.core import TyperCommand, TyperGroup, TyperOption

import regalia
from regalia.cli import exits
from regalia.cli.commands import (
    exploitability,
    games,
    gauntlet,
    play,
    replay,
    rules,
    serve,
    simulate,
    solve,
    tournament,
    watch,
)
from regalia.cli.console import screen, set_plain

F = TypeVar("F", bound=Callable[..., Any])


def _flags_without_metavar(params: list[Any]) -> None:
    """Gives every flag an empty metavar, so that ``--help`` shows none beside it (Typer
    shows a type such as ``<bool>`` for any option without one, though a flag takes no value)."""
    for param in params:
        if isinstance(param, TyperOption) and param.is_flag and param.metavar is None:
            param.metavar = ""


class Command(TyperCommand):
    """A command whose ``--help`` lists its flags without a value type."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        """The help of ``TyperCommand``, flags shown bare."""
        _flags_without_metavar(self.get_params(ctx))
        super().format_help(ctx, formatter)


class Group(TyperGroup):
    """The application, whose ``--help`` lists the global flags without a value type."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        """The help of ``TyperGroup``, flags shown bare."""
        _flags_without_metavar(self.get_params(ctx))
        super().format_help(ctx, formatter)


app = typer.Typer(
    cls=Group,
    help="Regalia: five royal card games to play, watch and pit bots against each other.",
    epilog="Start with: regalia games, then: regalia play duo-regna. Every command has --help.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)


def guarded(command: F) -> F:
    """``command`` with Ctrl-C turned into a message and exit code 130."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except KeyboardInterrupt:
            screen().say("\ninterrupted", err=True)
            raise typer.Exit(exits.INTERRUPTED) from None

    return run  # type: ignore[return-value]


def _reflowed(doc: str | None) -> str:
    """A command's docstring as ``--help`` shows it: each paragraph one line, which Rich wraps
    to the terminal (the docstring's own line breaks would break lines at 80 columns twice)."""
    paragraphs = inspect.cleandoc(doc or "").split("\n\n")
    return "\n\n".join(" ".join(line.strip() for line in p.splitlines()) for p in paragraphs)


def _examples(lines: list[str]) -> str:
    return "[bold]Examples[/bold]\n\n" + "\n\n".join(f"  {line}" for line in lines)


#: Every command: its name, its function and the examples shown by its ``--help``.
COMMANDS: list[tuple[str, Callable[..., Any], list[str]]] = [
    ("games", games.games, games.EXAMPLES),
    ("rules", rules.rules, rules.EXAMPLES),
    ("play", play.play, play.PLAY_EXAMPLES),
    ("resume", play.resume, play.RESUME_EXAMPLES),
    ("watch", watch.watch, watch.EXAMPLES),
    ("simulate", simulate.simulate, simulate.EXAMPLES),
    ("tournament", tournament.tournament, tournament.EXAMPLES),
    ("gauntlet", gauntlet.gauntlet, gauntlet.EXAMPLES),
    ("replay", replay.replay, replay.EXAMPLES),
    ("solve", solve.solve, solve.EXAMPLES),
    ("exploitability", exploitability.exploitability, exploitability.EXAMPLES),
    ("serve", serve.serve, serve.EXAMPLES),
]
for name, function, examples in COMMANDS:
    app.command(name, cls=Command, help=_reflowed(function.__doc__), epilog=_examples(examples))(guarded(function))


def _version(value: bool) -> None:
    if value:
        typer.echo(f"regalia {regalia.__version__}")
        raise typer.Exit()


@app.callback()
def options(
    no_color: Annotated[bool, typer.Option("--no-color", help="plain output: no colour, ASCII symbols")] = False,
    version: Annotated[
        bool, typer.Option("--version", help="print the version and exit", callback=_version, is_eager=True)
    ] = False,
) -> None:
    """Regalia: five royal card games to play, watch and pit bots against each other."""
    set_plain(no_color)
