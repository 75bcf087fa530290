"""Duo Regna solved: the equilibrium strategy and value at any state.

>>> import regalia
>>> from regalia import solver
>>> state = regalia.make("duo-regna").new_state(seed=1)
>>> strategy, value = solver.policy(state)   # {action: probability}, expected return

The first use for a set of options solves the game (the default game takes well under a
minute on one core; a progress bar shows on a terminal) and keeps the table in the user's
cache directory (``REGALIA_CACHE_DIR`` overrides it); later uses read the file, whose checksum
is verified: a damaged, cut-off or outdated file is solved again and replaced, never trusted.
See "The Duo Regna solver" in docs/agents.md for what is solved, and how exactly.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from regalia.core import engine
from regalia.core.errors import InvalidArgumentError, InvalidOptionError, InvalidStateError
from regalia.core.protocols import StateProtocol
from regalia.registry.catalog import make

__all__ = ["SUPPORTED_GAMES", "MatrixGame", "against_uniform", "cache_dir", "matrix_game", "policy", "table"]

#: The games the solver plays.
SUPPORTED_GAMES = ("duo-regna",)

_TABLES: dict[str, engine.DuoRegnaSolver] = {}
_PLANNERS: dict[str, engine.DuoRegnaPlanner] = {}
_LOCK = threading.Lock()


def cache_dir() -> Path:
    """Where solved tables are kept: ``$REGALIA_CACHE_DIR``, else the platform's user cache
    directory (``~/.cache/regalia``, ``~/Library/Caches/regalia``, ``%LOCALAPPDATA%\\regalia\\Cache``)."""
    if os.environ.get("REGALIA_CACHE_DIR"):
        return Path(os.environ["REGALIA_CACHE_DIR"])
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local") / "regalia" / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "regalia"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "regalia"


def _full_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """The game's full options (defaults filled in, checked)."""
    return make("duo-regna", **(options or {})).options


def supports(options: dict[str, Any] | None = None) -> bool:
    """Whether Duo Regna with ``options`` can be solved (``table`` would build it)."""
    try:
        engine.DuoRegnaSolver.horizon_for(_full_options(options))
    except InvalidOptionError:
        return False
    return True


def table(options: dict[str, Any] | None = None, progress: bool | None = None) -> engine.DuoRegnaSolver:
    """The solved table of Duo Regna with ``options``: kept in memory, read from the cache
    directory, or solved now and saved there (with a progress bar on stderr when ``progress``
    is true; default: when stderr is a terminal). Options that cannot be solved raise
    ``InvalidOptionError`` saying why."""
    full = _full_options(options)
    key = json.dumps(full, sort_keys=True)
    with _LOCK:
        if key in _TABLES:
            return _TABLES[key]
        engine.DuoRegnaSolver.horizon_for(full)  # unsolvable options fail here, before any work
        path = cache_dir() / f"duo-regna-{hashlib.sha256(key.encode()).hexdigest()[:16]}.solved"
        solved = _read(full, path)
        if solved is None:
            solved = _solve(full, path, sys.stderr.isatty() if progress is None else progress)
            _write(path, solved)
        _TABLES[key] = solved
        return solved


def _read(options: dict[str, Any], path: Path) -> engine.DuoRegnaSolver | None:
    """The table in ``path``, or None if there is none or it cannot be trusted."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    try:
        return engine.DuoRegnaSolver.from_bytes(options, data)
    except InvalidStateError:
        return None


def _solve(options: dict[str, Any], path: Path, show: bool) -> engine.DuoRegnaSolver:
    """Solves the game, with a progress bar when ``show``."""
    if not show:
        return engine.DuoRegnaSolver.build(options)
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.percentage:>3.0f}%"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(f"Solving Duo Regna once (kept in {path.parent})", total=None)

        def step(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return engine.DuoRegnaSolver.build(options, step)


def _write(path: Path, solved: engine.DuoRegnaSolver) -> None:
    """Saves the table atomically; a cache that cannot be written only costs a warning."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(solved.to_bytes())
        os.replace(tmp, path)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        warnings.warn(f"could not keep the solved Duo Regna table in {path}: {e}", stacklevel=3)


def policy(state: StateProtocol) -> tuple[dict[int, float], float]:
    """The equilibrium strategy of the seat to move in ``state`` (a Duo Regna state of
    either backend) as ``{action: probability}`` over its legal actions, and its expected
    return (+1 win, -1 loss) if both seats play the equilibrium from here. Only what both
    seats see is used: seat 1's answer does not depend on the card seat 0 has committed."""
    saved = json.loads(state.to_json())
    if saved.get("game") not in SUPPORTED_GAMES:
        raise InvalidArgumentError(f"the solver plays only {', '.join(SUPPORTED_GAMES)}, not {saved.get('game')!r}")
    if saved.get("state", {}).get("over"):
        raise InvalidArgumentError("the game is over: there is no move to choose")
    strategy, value = table(saved["options"]).policy(state)
    return strategy, value


@dataclass(frozen=True)
class MatrixGame:
    """The matrix game of one Duo Regna round for the seat to move: its kinds of card against
    the other seat's (card ids 0-6; 7 stands for both 6s), each entry the mover's expected
    return once the round is revealed and both seats play the equilibrium after it."""

    #: The mover's kinds (rows) and the other seat's (columns), ascending.
    mine: tuple[int, ...]
    theirs: tuple[int, ...]
    #: ``payoff[i][j]``: the mover's expected return after ``mine[i]`` meets ``theirs[j]``.
    payoff: tuple[tuple[float, ...], ...]
    #: The equilibrium strategies over ``mine`` and ``theirs``, and the game's value.
    row: tuple[float, ...]
    col: tuple[float, ...]
    value: float


def matrix_game(observation: dict[str, Any], options: dict[str, Any] | None = None) -> MatrixGame:
    """The matrix game of the round for the seat to move in Duo Regna with ``options``, from
    that seat's ``observation`` alone (the opponent's committed card is not used: it is still
    in her hand there). ``InvalidStateError`` if ``observation`` is not one of a seat to move
    with these options; options that cannot be solved raise ``InvalidOptionError``."""
    mine, theirs, payoff, row, col, value = table(options).matrix_game(observation)
    return MatrixGame(tuple(mine), tuple(theirs), tuple(map(tuple, payoff)), tuple(row), tuple(col), value)


def against_uniform(observation: dict[str, Any], options: dict[str, Any] | None = None) -> dict[int, float]:
    """``{card: expected return}`` for each card in the hand of the seat to move in Duo Regna
    with ``options``, from that seat's ``observation`` alone, against an opponent who draws
    her card uniformly from her hand: the rest of the current hand is planned exactly (both
    hands are public by counting the cards), and where the hands are taken back a race model
    values the captures still to come (see "Planning against a mixing opponent" in
    docs/agents.md). No table is needed; a call takes milliseconds (most at a hand's start).
    ``InvalidStateError`` if ``observation`` is not one of a seat to move with these options."""
    key = json.dumps(options or {}, sort_keys=True)
    planner = _PLANNERS.get(key)
    if planner is None:
        planner = _PLANNERS.setdefault(key, engine.DuoRegnaPlanner(_full_options(options)))
    return planner.card_values(observation)
