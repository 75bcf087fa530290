"""``regalia play GAME`` and ``regalia resume FILE``: a game with people and bots."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Annotated

import typer

import regalia
from regalia.cli import exits
from regalia.cli.console import screen
from regalia.cli.params import GameArg, NoColorOpt, OptionOpt, RecordOpt, SeatsOpt, SeedOpt
from regalia.cli.players import check_seats, make_game, parse_options, parse_seats
from regalia.cli.records import read_record, write_record
from regalia.cli.report import result_table
from regalia.cli.show import Narrator, tell
from regalia.cli.table import GameLeft, TerminalTable
from regalia.core.errors import RegaliaError
from regalia.core.protocols import GameProtocol
from regalia.registry.records import MatchRecord
from regalia.table import Replay, Table, resumed_game
from regalia.table.seating import HUMAN, default_seats

PLAY_EXAMPLES = [
    "regalia play duo-regna                          # you against the strongest bot",
    "regalia play duo-regna --seats random,random --seed 1",
    "regalia play duo --seats human,human,random     # two people at one terminal",
    "regalia play duo-regna -o dragons_to_win=3 --record game.json",
]
RESUME_EXAMPLES = ["regalia resume game.json", "regalia resume game.json --seats human,random"]

#: ``--json``: the match record at the end instead of the report.
RecordJsonOpt = Annotated[bool, typer.Option("--json", help="print the match record at the end, as JSON on one line")]

#: ``--ask-forced``: by default a person's only legal move is played for them.
AskForcedOpt = Annotated[
    bool,
    typer.Option(
        "--ask-forced", help="ask for your move even when it is the only legal one (by default it is played for you)"
    ),
]


def play(
    game: GameArg,
    seats: SeatsOpt = None,
    seed: SeedOpt = None,
    option: OptionOpt = None,
    record: RecordOpt = None,
    as_json: RecordJsonOpt = False,
    ask_forced: AskForcedOpt = False,
    no_color: NoColorOpt = False,
) -> None:
    """Play a game: you (human) against built-in agents, several people, or bots alone.

    At your turn type a move's label or name, or: help, hint, log, undo, save, quit.
    """
    names = parse_seats(seats) if seats else None
    g = make_game(game, parse_options(option), len(names) if names else None)
    names = names or default_seats(g.num_players, HUMAN)
    check_seats(names, g.name)
    if seed is None:
        seed = secrets.randbits(32)
        if HUMAN not in names and not as_json:
            screen().say(f"seed {seed} (play it again with --seed {seed})", err=True)
    if HUMAN in names:
        _run(TerminalTable(Table(g, names, seed, ask_forced=ask_forced), screen()), record, as_json)
    else:
        _bots_only(g, names, seed, record, as_json)


def resume(
    file: Annotated[
        Path, typer.Argument(metavar="FILE", help="a game saved with 'save' (or any match record)", show_default=False)
    ],
    seats: SeatsOpt = None,
    record: RecordOpt = None,
    as_json: RecordJsonOpt = False,
    ask_forced: AskForcedOpt = False,
    no_color: NoColorOpt = False,
) -> None:
    """Continue a saved game where it stopped (the seats as saved, unless --seats is given)."""
    saved = read_record(file)
    if saved.returns:
        exits.fail(f"the game in {file} is over; watch it with: regalia replay {file}")
    names = parse_seats(seats) if seats else saved.agents
    dealt = {k: v for k, v in dict(saved.options).items() if k != "chance"}  # the table's own chance
    check_seats(names, make_game(saved.game, dealt, len(names)).name)
    try:
        g, chance = resumed_game(saved)  # a web table's without a seed draws on from the system
        table = Table.resume(saved, g, names, ask_forced=ask_forced, chance_from=chance)
    except RegaliaError as e:
        exits.fail(f"{file} does not replay: {e}")
    screen().say(f"resuming {g.title} after {len(saved.actions)} moves", err=as_json)  # stdout: the JSON alone
    if table.humans:
        _run(TerminalTable(table, screen()), record, as_json)
    else:
        _bots_finish(table, record, as_json)


def _bots_only(game: GameProtocol, names: list[str], seed: int, record_path: Path | None, as_json: bool) -> None:
    """A game between bots, exactly as ``regalia.play(game, names, seed)`` plays it."""
    try:
        with screen().err.status("the bots are playing..."):
            rec = regalia.play(game, names, seed=seed)
    except RegaliaError as e:
        exits.fail(f"a bot failed: {e}")
    _show_bots(game, rec, record_path, as_json)


def _bots_finish(table: Table, record_path: Path | None, as_json: bool) -> None:
    """A resumed game with bots in every seat: played to the end, then told from the start."""
    try:
        with screen().err.status("the bots are playing..."):
            rec = table.finish()
    except RegaliaError as e:
        exits.fail(f"a bot failed: {e}")
    _show_bots(table.game, rec, record_path, as_json)


def _show_bots(game: GameProtocol, rec: MatchRecord, record_path: Path | None, as_json: bool) -> None:
    """A game the bots played, written to ``record_path`` and told move by move (as JSON
    with ``as_json``)."""
    _write(record_path, rec)
    if as_json:
        screen().out.file.write(rec.to_json() + "\n")
        return
    narrator = Narrator(screen(), rec.agents, boards=False, options=game.options)
    screen().say(narrator.heading(), style="italic")
    tell(Replay(rec), narrator)
    screen().out.print(result_table(rec, game.title))


def _write(record_path: Path | None, rec: MatchRecord) -> None:
    if record_path is not None and not write_record(record_path, rec, lambda m: screen().say(m, err=True)):
        raise typer.Exit(exits.ERROR)


def _report(terminal: TerminalTable, rec: MatchRecord) -> None:
    """The news of the last moves and the final board for the one person (none when several
    people share the screen), why the game ended with its score breakdown, then the result
    table."""
    table, seat = terminal.table, terminal.person
    if seat is not None:
        for line in table.take_news(seat):
            screen().tell(f"  {line}", style="italic")
        screen().rule(f"final board of seat {seat}")
        screen().board(table.game.name, table.observation(seat), table.game.options)
    for line in terminal.ending():
        screen().tell(line, style="bold")
    screen().out.print(result_table(rec, table.game.title))


def _run(terminal: TerminalTable, record_path: Path | None, as_json: bool) -> None:
    """Plays the table to the end and reports; leaving early exits with ``ABANDONED``."""
    if not as_json:
        screen().tell(terminal.introduction(), style="bold")
    try:
        rec = terminal.play()
    except GameLeft as e:
        screen().say(terminal.left_message(str(e)))
        raise typer.Exit(exits.ABANDONED) from None
    except RegaliaError as e:
        exits.fail(f"a bot failed: {e}")
    _write(record_path, rec)
    if as_json:
        screen().out.file.write(rec.to_json() + "\n")
        return
    _report(terminal, rec)
