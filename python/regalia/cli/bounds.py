"""``regalia exploitability GAME AGENT --approximate``: a lower bound on an agent's
exploitability in a game of any size, from what the search exploiter wins against it
(``regalia.matches.bounds``), with its interval, and the games the agent lost most saved as
records that ``regalia replay`` shows."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

import regalia
from regalia.cli import exits
from regalia.cli.console import CountBar, emit_json, screen
from regalia.cli.players import check_agent, game_info
from regalia.cli.records import write_record
from regalia.core.errors import RegaliaError
from regalia.matches.bounds import EXPLOITERS, ExploitabilityBound, exploitability_bound

__all__ = [
    "ApproximateOpt",
    "ExploiterOpt",
    "GamesOpt",
    "RecordsOpt",
    "RolloutsOpt",
    "WorldsOpt",
    "approximate",
]

ApproximateOpt = Annotated[
    bool,
    typer.Option(
        "--approximate",
        help="play a search exploiter against the agent: a lower bound with its 99% interval, for games of any size",
    ),
]
ExploiterOpt = Annotated[str, typer.Option(metavar="NAME", help="with --approximate: the exploiter (search)")]
GamesOpt = Annotated[
    int, typer.Option(min=2, metavar="N", help="with --approximate: games, half from each seat (even)")
]
WorldsOpt = Annotated[int, typer.Option(min=1, metavar="N", help="with --approximate: worlds the exploiter keeps")]
RolloutsOpt = Annotated[
    int, typer.Option(min=1, metavar="N", help="with --approximate: rollouts per world and legal move")
]
RecordsOpt = Annotated[
    Path | None,
    typer.Option(
        "--records",
        metavar="DIR",
        help="with --approximate: write the 3 games the agent lost most there (see: regalia replay)",
        file_okay=False,
        show_default=False,
    ),
]


def approximate(
    name: str,
    options: dict[str, Any],
    chance: str | None,
    agent: str,
    seed: int,
    exploiter: str,
    games: int,
    worlds: int,
    rollouts: int,
    records: Path | None,
    as_json: bool,
) -> None:
    """Runs ``--approximate``: the bound for ``agent`` in game ``name`` with ``options``
    (``chance`` when given), printed or as JSON; bad input ends the command with exit 2."""
    info = game_info(name)
    if chance is not None:
        if "chance" in options and options["chance"] != chance:
            exits.fail(f"use --chance {options['chance']} rather than -o chance=...", exits.USAGE)
        options = {**options, "chance": chance}
    if exploiter not in EXPLOITERS:
        exits.fail(f"unknown exploiter {exploiter!r}; exploiters: {', '.join(EXPLOITERS)}", exits.USAGE)
    if games % 2:
        exits.fail(f"--games must be even (half of the games from each seat), not {games}", exits.USAGE)
    if _has_players(info):
        options = {"players": 2, **options}
    try:
        game = regalia.make(info["name"], **options)
    except RegaliaError as e:
        exits.fail(str(e), exits.USAGE)
    if game.num_players != 2:
        exits.fail(f"the exploitability bound is for two-player games, not {game.num_players} players", exits.USAGE)
    spec = f"cfr:policy={agent}" if Path(agent).is_file() else agent
    check_agent(spec, game.name)
    try:
        with CountBar("playing the exploiter", games) as progress:
            bound = exploitability_bound(
                game, spec, games, seed, worlds, rollouts, exploiter=exploiter, progress=progress
            )
    except RegaliaError as e:
        exits.fail(str(e), exits.USAGE)
    bound.target = agent
    written = _write(records, bound) if records is not None else []
    if as_json:
        emit_json({**bound.to_dict(), "records": [str(p) for p in written]})
        return
    _report(bound, written)


def _has_players(info: dict[str, Any]) -> bool:
    return any(o["name"] == "players" for o in info["options"])


def _write(folder: Path, bound: ExploitabilityBound) -> list[Path]:
    """The worst games as records in ``folder`` (made if missing); exit 1 when it cannot be."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        exits.fail(f"cannot make {folder}: {e.strerror or e}")
    written = []
    for rank, record in enumerate(bound.worst, 1):
        path = folder / f"{bound.game}-lost-{rank}.json"
        if not write_record(path, record, lambda text: screen().say(text, err=True)):
            exits.fail(f"cannot write the records to {folder}")
        written.append(path)
    return written


def _report(bound: ExploitabilityBound, written: list[Path]) -> None:
    out = screen()
    pct = f"{bound.confidence:.0%}"
    out.say(
        f"{bound.game} {bound.options}: {bound.target} against the {bound.exploiter} exploiter "
        f"({bound.worlds} worlds, {bound.rollouts} rollouts per world and move, {bound.continuation} continuation), "
        f"{bound.games} games, half from each seat, seed {bound.seed}"
    )
    out.say(f"exploitability >= {max(bound.low, 0.0):.3f} (lower end of the {pct} interval)", style="bold")
    out.say(f"the exploiter's mean return {bound.mean:+.3f}, {pct} interval {bound.low:+.3f} to {bound.high:+.3f}")
    table = out.table()
    for column in ("exploiter's seat", "games", "mean return"):
        table.add_column(column, justify="right")
    for seat, mean in enumerate(bound.seat_means):
        table.add_row(str(seat), str(bound.games // 2), f"{mean:+.3f}")
    out.out.print(table)
    for path in written:
        out.say(f"lost game: {path} (regalia replay {path})")
    out.say(f"{bound.seconds:.1f} s; {bound.decisions} decisions, worlds dealt afresh {bound.redeals} times")
