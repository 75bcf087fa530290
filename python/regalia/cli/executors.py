"""Where a long command plays its games: ``--workers N`` local processes, or on Ray with
``--ray`` (a local Ray) or ``--ray-address ADDRESS`` (that cluster)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import typer

from regalia.cli import exits
from regalia.cli.console import screen
from regalia.core.errors import RegaliaError
from regalia.matches.executors import Executor, LocalExecutor, RayExecutor

T = TypeVar("T")

RayOpt = Annotated[
    bool,
    typer.Option(
        "--ray",
        help="play on a local Ray started for the run, never on a cluster already running here "
        '(needs pip install "regalia\\[ray]")',
    ),
]
RayAddressOpt = Annotated[
    str | None,
    typer.Option(
        "--ray-address",
        metavar="ADDRESS",
        help="play on the Ray cluster at ADDRESS: HOST:PORT of its head, ray://HOST:PORT, or auto (the one "
        "`ray start` runs here); implies --ray; a head that asks for Ray's token gets RAY_AUTH_TOKEN "
        "or ~/.ray/auth_token",
        show_default=False,
    ),
]
WorkersOpt = Annotated[
    int, typer.Option(min=1, metavar="N", help="processes playing games at once (with --ray: CPUs of the local Ray)")
]


def executor_of(ray: bool, address: str | None, workers: int) -> Executor:
    """The executor that ``--ray``, ``--ray-address`` and ``--workers`` ask for."""
    if not ray and address is None:
        return LocalExecutor(workers)
    return RayExecutor(address, workers=workers if workers > 1 else None)


def run_games(run: Callable[..., T], ray: bool, address: str | None, workers: int, *args: Any, **kwargs: Any) -> T:
    """``run(*args, **kwargs)`` (``regalia.simulate``, ``regalia.tournament``) on the executor
    that ``--ray``, ``--ray-address`` and ``--workers`` ask for, with a progress bar where the
    terminal shows one; a refusal ends the command with its message."""
    try:
        return run(*args, executor=executor_of(ray, address, workers), progress=screen().err.is_terminal, **kwargs)
    except RegaliaError as e:
        exits.fail(str(e))
