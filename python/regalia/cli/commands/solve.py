"""``regalia solve GAME --algorithm ALG --iterations N | --seconds S --out FILE``: CFR+ over the
whole tree of a small variant, or Monte Carlo CFR on any game, with the average policy saved
to a file that ``cfr:policy=FILE`` plays and ``regalia exploitability`` measures
(``regalia.cfr.solve``)."""

from __future__ import annotations

import enum
import time
from pathlib import Path
from typing import Annotated, Any

import typer

import regalia
from regalia.cli import exits
from regalia.cli.console import emit_json, screen
from regalia.cli.params import GameArg, JsonOpt, NoColorOpt, OptionOpt
from regalia.cli.players import game_info, parse_options
from regalia.core.errors import GameTooLargeError, RegaliaError
from regalia.core.protocols import GameProtocol
from regalia.theory import cfr, exact

EXAMPLES = [
    "regalia solve duo-regna -o dragon_deck=2,1 -o dragons_to_win=2 -o max_rounds=2 --algorithm cfr+"
    " --iterations 1000 --out duo-regna-small.cfr",
    "regalia solve duell-der-drachen -o values=3 -o hand_size=2 --algorithm mccfr-outcome --seconds 60 --out ddd.cfr",
    "regalia solve regine --algorithm mccfr-outcome --seconds 30 --out regine.cfr --json",
]


class Algorithm(str, enum.Enum):
    """The algorithms ``solve`` runs, by their command-line names."""

    CFR_PLUS = "cfr+"
    MCCFR_EXTERNAL = "mccfr-external"
    MCCFR_OUTCOME = "mccfr-outcome"


#: Each algorithm's ``method`` in ``regalia.cfr.solve``.
METHODS = {Algorithm.CFR_PLUS: "cfr+", Algorithm.MCCFR_EXTERNAL: "external", Algorithm.MCCFR_OUTCOME: "outcome"}


class Chance(str, enum.Enum):
    """How a game's random events happen: drawn from its seed, or chance nodes."""

    SEEDED = "seeded"
    EXPLICIT = "explicit"


ChanceOpt = Annotated[
    Chance | None,
    typer.Option(
        "--chance",
        help="seeded: randomness from the game's seed; explicit: every deal and draw a chance node (exact methods)",
        show_default=False,
    ),
]
MaxHistoriesOpt = Annotated[
    int,
    typer.Option(
        "--max-histories", min=1, metavar="N", help="refuse a game whose whole tree has more histories than this"
    ),
]


def theory_game(name: str, options: dict[str, Any], chance: str) -> GameProtocol:
    """The game ``name`` with ``options`` and ``chance`` (``seeded`` or ``explicit``), or the
    command ended with exit 2 saying what is wrong."""
    info = game_info(name)
    if "chance" in options and options["chance"] != chance:
        exits.fail(f"use --chance {options['chance']} rather than -o chance=...", exits.USAGE)
    try:
        return regalia.make(info["name"], **{**options, "chance": str(getattr(chance, "value", chance))})
    except RegaliaError as e:
        exits.fail(str(e), exits.USAGE)


def size_text(error: GameTooLargeError) -> str:
    """The refusal of a game too large to walk, for people."""
    return str(error)


def solve(
    game: GameArg,
    algorithm: Annotated[Algorithm, typer.Option("--algorithm", "-a", help="the solver", show_default=False)],
    out: Annotated[Path, typer.Option("--out", metavar="FILE", help="where to save the policy", dir_okay=False)],
    iterations: Annotated[
        int | None, typer.Option("--iterations", "-n", min=1, metavar="N", help="iterations to run", show_default=False)
    ] = None,
    seconds: Annotated[
        float | None,
        typer.Option("--seconds", min=0.001, metavar="S", help="seconds to run (with -n: whichever ends first)"),
    ] = None,
    seed: Annotated[int, typer.Option(min=0, metavar="SEED", help="MCCFR's seed (CFR+ has no randomness)")] = 0,
    option: OptionOpt = None,
    chance: ChanceOpt = None,
    measure: Annotated[
        bool, typer.Option("--measure", help="also compute the policy's exact exploitability (small games)")
    ] = False,
    max_histories: MaxHistoriesOpt = exact.DEFAULT_MAX_HISTORIES,
    as_json: JsonOpt = False,
    no_color: NoColorOpt = False,
) -> None:
    """Solve a game with counterfactual regret minimisation and save the average policy.

    cfr+ walks the whole tree of a small variant with explicit chance (the default for it);
    mccfr-external and mccfr-outcome sample deals and play any game (seeded unless --chance
    explicit). Give --iterations, --seconds or both. A bar shows the progress; Ctrl-C stops
    the run, keeps what was learnt, saves it and says so (exit code 130). The file plays as the agent cfr:policy=FILE
    and is measured by: regalia exploitability GAME FILE. --measure prints its exact
    exploitability after the run (its game, with explicit chance, must be small enough).
    """
    if iterations is None and seconds is None:
        exits.fail("give --iterations, --seconds or both", exits.USAGE)
    mode = chance or (Chance.EXPLICIT if algorithm == Algorithm.CFR_PLUS else Chance.SEEDED)
    if algorithm == Algorithm.CFR_PLUS and mode != Chance.EXPLICIT:
        exits.fail("cfr+ walks the whole tree, chance nodes included: it needs --chance explicit", exits.USAGE)
    g = theory_game(game, parse_options(option), mode)
    started = time.monotonic()
    try:
        policy = cfr.solve(
            g,
            method=METHODS[algorithm],
            iterations=iterations,
            seconds=seconds,
            seed=seed,
            progress=screen().err.is_terminal,
            max_histories=max_histories,
        )
    except GameTooLargeError as e:
        exits.fail(size_text(e), exits.USAGE)
    except RegaliaError as e:
        exits.fail(str(e), exits.USAGE)
    if len(policy) == 0:
        exits.fail("no iteration ended: nothing was learnt, nothing saved (give it more time)")
    try:
        policy.save(out)
    except OSError as e:
        exits.fail(f"cannot write {out}: {e.strerror or e}")
    result: dict[str, Any] = {**policy.info, "infosets": len(policy), "out": str(out)}
    if measure:
        try:
            result["exploitability"] = policy.exploitability(max_histories)
        except GameTooLargeError as e:
            exits.fail(f"the policy is saved in {out}, but it cannot be measured: {size_text(e)}", exits.USAGE)
    result["wall_seconds"] = round(time.monotonic() - started, 3)
    if as_json:
        emit_json(result)
    else:
        _report(result, algorithm)
    if result["interrupted"]:
        raise typer.Exit(exits.INTERRUPTED)


def _report(result: dict[str, Any], algorithm: Algorithm) -> None:
    say = screen().say
    if result["interrupted"]:
        say(
            f"interrupted: kept what {result['iterations']:,} whole iterations learnt, saved below",
            style="yellow",
            err=True,
        )
    say(
        f"{algorithm.value} on {result['game']}: {result['iterations']:,} iterations, "
        f"{result['updates']:,} information-set updates in {result['seconds']:.2f} s; "
        f"{result['infosets']:,} information sets saved in {result['out']}"
    )
    if "exploitability" in result:
        say(f"exploitability {result['exploitability']:.6g}")
