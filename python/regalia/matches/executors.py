"""Where the games of a long run are played: in this process, in local worker processes, or
on a Ray cluster (``pip install "regalia[ray]"``).

A run (a tournament, a simulation, a dataset) cuts its games into chunks whose seeds come
from the run's seed alone, so its result does not depend on where the chunks are played nor
on how many workers play them. An executor plays the chunks and hands back their results in
chunk order, keeping only a few of them in memory at once.
"""

from __future__ import annotations

import logging
import math
import os
import socket
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import ExitStack
from multiprocessing import get_all_start_methods, get_context
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from regalia.core.errors import ExecutorError, InvalidArgumentError

__all__ = ["Executor", "LocalExecutor", "RayExecutor", "resolve"]

T = TypeVar("T")
R = TypeVar("R")

#: Called with a chunk's index when that chunk is finished (in any order): progress bars.
OnDone = Callable[[int], None]

#: How many chunks may be in flight (played, or finished and not yet handed back) per worker.
CHUNKS_IN_FLIGHT_PER_WORKER = 2


class Executor:
    """Plays chunks of work; use it as a context manager (``with executor: ...``), which
    starts its workers and stops what it started. Entering it again inside (as a run does
    with an executor it is handed) keeps the same workers."""

    #: How many chunks can be played at once (used to cut a run into chunks).
    workers: int = 1
    _depth: int = 0

    def __enter__(self) -> Executor:
        if self._depth == 0:
            self._start()
        self._depth += 1
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self._depth -= 1
        if self._depth == 0:
            self._stop(failed=kind is not None)

    def _start(self) -> None:
        """Starts the workers (on the outermost ``with``)."""

    def _stop(self, failed: bool) -> None:
        """Stops what ``_start`` started (on leaving the outermost ``with``)."""

    def chunk_ranges(self, games: int, unit: int = 1, largest: int = 64) -> list[tuple[int, int]]:
        """Games ``0 .. games - 1`` cut into ranges ``(start, stop)`` to play as chunks: each a
        multiple of ``unit`` games (the last one excepted) and at most ``largest``; several per
        worker when the work is spread (for balance and progress), else of ``unit`` games."""
        size = unit
        if self.spread:
            size = max(1, min(largest, math.ceil(games / (self.workers * 8))))
            size = math.ceil(size / unit) * unit
        return [(start, min(games, start + size)) for start in range(0, games, size)]

    @property
    def spread(self) -> bool:
        """Whether chunks are played elsewhere than in this process."""
        return False

    def map(self, function: Callable[[T], R], chunks: Sequence[T], done: OnDone | None = None) -> Iterator[R]:
        """``function(chunk)`` for every chunk, in chunk order; ``done(i)`` is called as
        chunk ``i`` finishes. Stopping the iteration early (an error, Ctrl-C) cancels the
        chunks not yet finished."""
        for i, chunk in enumerate(chunks):
            result = function(chunk)
            if done:
                done(i)
            yield result


def _fork_or_spawn() -> Any:
    """Forked where the system can (so agents defined in a script or a notebook work),
    spawned elsewhere."""
    return get_context("fork" if "fork" in get_all_start_methods() else "spawn")


class LocalExecutor(Executor):
    """``workers`` processes on this machine (``1``: this process, no pool)."""

    def __init__(self, workers: int = 1) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise InvalidArgumentError(f"workers must be an int >= 1, got {workers!r}")
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def __repr__(self) -> str:
        return f"LocalExecutor(workers={self.workers})"

    @property
    def spread(self) -> bool:
        return self.workers > 1

    def _start(self) -> None:
        if self.workers > 1:
            self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=_fork_or_spawn())

    def _stop(self, failed: bool) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=not failed, cancel_futures=True)
            self._pool = None

    def map(self, function: Callable[[T], R], chunks: Sequence[T], done: OnDone | None = None) -> Iterator[R]:
        pool = self._pool
        if pool is None:
            yield from super().map(function, chunks, done)
            return

        def submit(i: int) -> Future[R]:
            return pool.submit(function, chunks[i])

        def finished(pending: dict[Any, int]) -> list[Any]:
            ready, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            return list(ready)

        def fetch(future: Any) -> R:
            result: R = future.result()
            return result

        def cancel(pending: dict[Any, int]) -> None:
            for future in pending:
                future.cancel()

        yield from _in_order(len(chunks), self.workers, submit, finished, fetch, cancel, done)


def _in_order(
    count: int,
    workers: int,
    submit: Callable[[int], Any],
    finished: Callable[[dict[Any, int]], list[Any]],
    fetch: Callable[[Any], R],
    cancel: Callable[[dict[Any, int]], None],
    done: OnDone | None,
) -> Iterator[R]:
    """The results of ``count`` chunks in order, with at most ``workers *
    CHUNKS_IN_FLIGHT_PER_WORKER`` submitted and not yet handed back (so memory stays
    bounded when one chunk is slow); a chunk's error is raised in its turn; whatever is
    still running when the iteration stops is cancelled."""
    window = max(1, workers * CHUNKS_IN_FLIGHT_PER_WORKER)
    pending: dict[Any, int] = {}
    # A chunk's result, or the error it raised: raised in its turn, as a local run would.
    results: dict[int, tuple[R | None, Exception | None]] = {}
    submitted = handed = 0
    try:
        while handed < count:
            while submitted < count and submitted - handed < window:
                pending[submit(submitted)] = submitted
                submitted += 1
            while handed not in results:
                for handle in finished(pending):
                    i = pending.pop(handle)
                    try:
                        results[i] = (fetch(handle), None)
                    except Exception as e:
                        results[i] = (None, e)
                    if done:
                        done(i)
            while handed in results:
                result, error = results.pop(handed)
                if error is not None:
                    raise error
                yield result  # type: ignore[misc]
                handed += 1
    finally:
        if pending:
            cancel(pending)


#: Seconds to wait for a Ray cluster's address to answer before giving up.
CONNECT_TIMEOUT = 5.0
#: Seconds to wait for a Ray head to accept or refuse the token (Ray itself retries for longer).
HANDSHAKE_TIMEOUT = 15.0


def _probe(address: str) -> None:
    """Refuses an address that is malformed or where nothing answers, before Ray tries (and
    retries for a long time)."""
    if address == "auto":
        return
    hostport = address.removeprefix("ray://")
    host, sep, port = hostport.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ExecutorError(f"a Ray address is HOST:PORT, ray://HOST:PORT or auto, got {address!r}")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT).close()
    except OSError as e:
        raise ExecutorError(f"no Ray cluster answers at {address}: {e.strerror or e}") from None


def _token_source() -> str | None:
    """Where Ray takes its token from, in Ray's own order: the ``RAY_AUTH_TOKEN`` variable,
    the file named by ``RAY_AUTH_TOKEN_PATH``, or ``~/.ray/auth_token``; None without one."""
    if os.environ.get("RAY_AUTH_TOKEN"):
        return "RAY_AUTH_TOKEN"
    if os.environ.get("RAY_AUTH_TOKEN_PATH"):
        return os.environ["RAY_AUTH_TOKEN_PATH"]
    default = Path.home() / ".ray" / "auth_token"
    return str(default) if default.is_file() else None


def _authenticate(ray: Any, address: str) -> None:
    """Makes Ray send its token to the head at ``address`` (``HOST:PORT``), as it does itself
    for ``auto``: with a token at hand and ``RAY_AUTH_MODE`` unset, the mode becomes
    ``token`` for this process. Then asks the head once, so that a refused or missing token
    fails at once with a message that says which (Ray would retry for some 20 s and then
    only say that it could not connect)."""
    source = _token_source()
    if source and "RAY_AUTH_MODE" not in os.environ:
        os.environ["RAY_AUTH_MODE"] = "token"
        ray._raylet.Config.initialize("")  # Ray reads its configuration once; read it again
    outcome: list[BaseException | None] = []

    def handshake() -> None:
        try:
            ray._raylet.GcsClient(address=address)
            outcome.append(None)
        except BaseException as e:
            outcome.append(e)

    # Ray's client blocks for up to 40 s where something that is not a Ray head answers.
    thread = threading.Thread(target=handshake, name="ray-handshake", daemon=True)
    thread.start()
    thread.join(HANDSHAKE_TIMEOUT)
    if not outcome:
        raise ExecutorError(f"no Ray cluster answers at {address} (something listens there, but not a Ray head)")
    error = outcome[0]
    if error is None:
        return
    if isinstance(error, ray.exceptions.AuthenticationError):
        mode = os.environ.get("RAY_AUTH_MODE", "token")
        if not source:
            problem = "asks for a token, and this machine has none"
        elif mode != "token":
            problem = f"asks for a token, and RAY_AUTH_MODE is {mode!r} here (unset it or set it to token)"
        else:
            problem = f"refuses the token (from {source})"
        raise ExecutorError(
            f"the Ray cluster at {address} {problem}: give this machine the head's token "
            "(`ray get-auth-token` there) as RAY_AUTH_TOKEN or in ~/.ray/auth_token"
        )
    raise ExecutorError(f"no Ray cluster answers at {address}: {type(error).__name__}: {error}")


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ExecutorError('Ray is not installed; install it with: pip install "regalia[ray]"') from None
    return ray


class RayExecutor(Executor):
    """Chunks played as Ray tasks: on the cluster at ``address`` (``HOST:PORT`` of its head,
    ``ray://HOST:PORT`` for Ray Client, or ``"auto"``: the cluster ``ray start`` runs on
    this machine), or, without one, on a local Ray started for the run with ``workers`` CPUs
    (default: every core), never on a cluster that happens to run here. A head that asks for
    Ray's token gets the one Ray finds (``RAY_AUTH_TOKEN``, ``RAY_AUTH_TOKEN_PATH``,
    ``~/.ray/auth_token``). When Ray is already initialised in this process, that connection
    is used and left open.

    A task whose worker dies is retried by Ray (``max_retries``); a chunk's result is taken
    once, so no game is lost or counted twice. Stopping early cancels the tasks still
    running."""

    def __init__(self, address: str | None = None, workers: int | None = None, max_retries: int = 3) -> None:
        if address is not None and (not isinstance(address, str) or not address.strip()):
            raise ExecutorError(f"a Ray address must be a non-empty str, got {address!r}")
        if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
            raise InvalidArgumentError(f"workers must be an int >= 1, got {workers!r}")
        self.address = address.strip() if address else None
        self.max_retries = max_retries
        self._requested = workers
        self.workers = workers or 1
        self._started = False
        self._ray: Any = None

    def __repr__(self) -> str:
        return f"RayExecutor(address={self.address!r}, workers={self._requested!r})"

    @property
    def spread(self) -> bool:
        return True

    def _start(self) -> None:
        ray = _import_ray()
        if not ray.is_initialized():
            options: dict[str, Any]
            if self.address:
                _probe(self.address)
                if self.address != "auto" and not self.address.startswith("ray://"):
                    _authenticate(ray, self.address)
                where, options = f"at {self.address}", {"address": self.address}
            else:
                # "local": a Ray of our own, even where `ray start` runs a cluster on this machine.
                where, options = "locally", {"address": "local", "num_cpus": self._requested}
            try:
                ray.init(**options, include_dashboard=False, logging_level=logging.WARNING, log_to_driver=False)
            except Exception as e:
                raise ExecutorError(f"Ray could not start {where}: {type(e).__name__}: {e}") from None
            self._started = True
        self._ray = ray
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.workers = min(self._requested, cpus) if self._requested and self.address else cpus

    def _stop(self, failed: bool) -> None:
        if self._started:
            self._ray.shutdown()
            self._started = False
        self._ray = None

    def map(self, function: Callable[[T], R], chunks: Sequence[T], done: OnDone | None = None) -> Iterator[R]:
        ray = self._ray
        if ray is None:
            raise ExecutorError("a RayExecutor is used inside its with-block")
        remote = ray.remote(function).options(max_retries=self.max_retries, retry_exceptions=False)

        def submit(i: int) -> Any:
            return remote.remote(chunks[i])

        def finished(pending: dict[Any, int]) -> list[Any]:
            ready, _ = ray.wait(list(pending), num_returns=1)
            return list(ready)

        def fetch(ref: Any) -> R:
            try:
                result: R = ray.get(ref)
            except ray.exceptions.RayTaskError as e:
                cause = e.cause if isinstance(getattr(e, "cause", None), BaseException) else None
                if cause is not None:
                    raise cause from None
                raise
            except ray.exceptions.RayError as e:
                raise ExecutorError(f"a Ray task failed: {e}") from None
            return result

        def cancel(pending: dict[Any, int]) -> None:
            for ref in pending:
                ray.cancel(ref, force=True)

        yield from _in_order(len(chunks), self.workers, submit, finished, fetch, cancel, done)


#: What ``executor=`` accepts: ``None`` or ``"local"`` (processes here, ``workers`` of them),
#: ``"ray"`` (a local Ray of the run's own, or the connection already open), ``"ray://..."``,
#: ``"HOST:PORT"`` or ``"auto"`` (that cluster), or an executor object.
ExecutorLike = Executor | str | None


def resolve(executor: ExecutorLike, workers: int = 1) -> Executor:
    """The executor that ``executor=`` names (see ``ExecutorLike``)."""
    if isinstance(executor, Executor):
        return executor
    if executor is None or executor == "local":
        return LocalExecutor(workers)
    if executor == "ray":
        return RayExecutor(workers=workers if workers > 1 else None)
    if isinstance(executor, str):
        return RayExecutor(executor, workers=workers if workers > 1 else None)
    raise InvalidArgumentError(f"executor must be 'local', 'ray', a Ray address or an Executor, got {executor!r}")


def progress_bar(
    stack: ExitStack, show: bool, title: str, ranges: Sequence[tuple[int, int]], transient: bool = True
) -> OnDone | None:
    """A progress bar of every game in ``ranges`` on stderr (entered into ``stack``), as an
    ``OnDone`` that advances it by a chunk's games; None when not ``show``."""
    if not show:
        return None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    bar = stack.enter_context(Progress(*columns, console=Console(stderr=True), transient=transient))
    task = bar.add_task(title, total=sum(b - a for a, b in ranges))

    def done(i: int) -> None:
        bar.advance(task, ranges[i][1] - ranges[i][0])

    return done
