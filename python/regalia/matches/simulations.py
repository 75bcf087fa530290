"""Many games between bots, summed up per seat, and optionally written as a trajectory
dataset (``regalia.simulate``); played here, in local processes or on Ray."""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from typing import Any

from regalia.agents import AgentLike
from regalia.core.errors import AgentError, InvalidArgumentError
from regalia.core.protocols import GameProtocol
from regalia.matches import datasets
from regalia.matches.executors import ExecutorLike, progress_bar, resolve
from regalia.matches.match import play
from regalia.registry.catalog import VERSION, make
from regalia.registry.records import MatchRecord

__all__ = ["SeatTotals", "Simulation", "simulate"]

#: An agent of a simulation: a built-in agent's name or an agent object / function.
AgentSpec = AgentLike | str


@dataclass
class SeatTotals:
    """One seat's results over a simulation."""

    seat: int
    agent: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    total_return: float = 0.0
    total_score: int = 0


@dataclass
class Simulation:
    """A whole simulation: its settings, games, moves and time, each seat's results, and the
    dataset written (``out``, ``rows``), if any."""

    game: str
    options: dict[str, Any]
    seed: int
    games: int
    seats: list[SeatTotals]
    moves: int = 0
    seconds: float = 0.0
    native: bool = False
    out: str | None = None
    rows: int = 0
    played: int = field(default=0, repr=False)

    def add(self, returns: Sequence[float], scores: Sequence[int], moves: int) -> None:
        """Counts one finished game (a win is the only highest return)."""
        self.played += 1
        self.moves += moves
        best = max(returns)
        for row, ret, score in zip(self.seats, returns, scores):
            row.total_return += ret
            row.total_score += score
            if ret < best:
                row.losses += 1
            elif list(returns).count(best) == 1:
                row.wins += 1
            else:
                row.draws += 1

    def as_json(self) -> dict[str, Any]:
        """Plain data, with the means worked out."""
        n = max(self.games, 1)
        seats = [
            {**asdict(r), "win_rate": r.wins / n, "mean_return": r.total_return / n, "mean_score": r.total_score / n}
            for r in self.seats
        ]
        data: dict[str, Any] = {
            "game": self.game,
            "options": self.options,
            "seed": self.seed,
            "games": self.games,
            "mean_moves": self.moves / n,
            "seconds": round(self.seconds, 3),
            "seats": seats,
        }
        if self.out is not None:
            data.update(out=self.out, rows=self.rows, native=self.native)
        return data


@dataclass(frozen=True)
class _Games:
    """A chunk of a simulation: games ``start`` to ``stop - 1``."""

    game: GameProtocol
    agents: list[AgentSpec]
    seed: int
    start: int
    stop: int
    rows: bool
    native: bool
    #: Whether the chunk is played in this process, so that its rows may be handed on a few
    #: games at a time instead of all at once.
    stream: bool


@dataclass
class _Outcomes:
    """What a chunk hands back without a dataset: each game's returns, scores and moves."""

    returns: list[list[float]]
    scores: list[list[int]]
    moves: list[int]


def _play_game(job: _Games, index: int) -> MatchRecord:
    """Game ``index`` of the run; an agent's failure names the game and its seed."""
    try:
        return play(job.game, job.agents, seed=job.seed + index)
    except AgentError as e:
        raise AgentError(f"game {index} (seed {job.seed + index}): {e}", e.record, e.seat, e.action) from None


def _play_chunk(job: _Games) -> Any:
    """Plays a chunk (in a worker): its trajectory rows, or only its games' outcomes."""
    if job.native:
        size = datasets.BLOCK
        blocks = [(b, min(size, job.stop - b * size)) for b in range(job.start // size, math.ceil(job.stop / size))]
        chunks = (c for b, n in blocks for c in datasets.random_games(job.game, job.seed, b, n))
        return chunks if job.stream else list(chunks)
    if job.rows:
        records = [_play_game(job, i) for i in range(job.start, job.stop)]
        return [datasets.agent_games(job.game, records, job.start)]
    records = [_play_game(job, i) for i in range(job.start, job.stop)]
    return _Outcomes([r.returns for r in records], [r.scores for r in records], [len(r.actions) for r in records])


def simulate(
    game: GameProtocol | str,
    agents: Sequence[AgentSpec] | None = None,
    games: int = 100,
    seed: int = 0,
    out: str | os.PathLike[str] | None = None,
    overwrite: bool = False,
    executor: ExecutorLike = None,
    workers: int = 1,
    progress: bool | None = None,
) -> Simulation:
    """Plays ``games`` games between ``agents`` (one per seat; default: random everywhere)
    and sums them up per seat.

    Without ``out``, game ``i`` is ``regalia.play(game, agents, seed=seed + i)``. With
    ``out``, every step is also written as a row of a Parquet file (see
    ``regalia.matches.datasets.COLUMNS``), atomically when the run ends; an existing file is
    refused unless ``overwrite``. There, games with only random seats are played natively
    (far faster; each row carries its game's seed, from which the game's actions replay it),
    others as without ``out``. ``executor`` says where the games are played: ``"local"``
    (``workers`` processes), ``"ray"`` or a Ray address (see ``regalia.matches.executors``); the
    result does not depend on it. Bad arguments, an unusable output path or an executor
    that cannot start raise a ``RegaliaError`` before any game is played.
    """
    if isinstance(game, str):
        game = make(game)
    specs: list[AgentSpec] = list(agents) if agents is not None else ["random"] * game.num_players
    if len(specs) != game.num_players:
        raise InvalidArgumentError(f"{game.name} needs {game.num_players} agents, got {len(specs)}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InvalidArgumentError(f"games must be an int >= 1, got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise InvalidArgumentError(f"seed must be an int from 0 to 2**64 - 1, got {seed!r}")
    target = datasets.check_output(out, overwrite) if out is not None else None
    native = target is not None and all(isinstance(a, str) and a == "random" for a in specs)
    labels = [a if isinstance(a, str) else str(getattr(a, "name", type(a).__name__)) for a in specs]
    result = Simulation(
        game.name, game.options, seed, games, [SeatTotals(i, n) for i, n in enumerate(labels)], native=native
    )
    runner = resolve(executor, workers)
    show = sys.stderr.isatty() if progress is None else progress
    start = time.perf_counter()
    with ExitStack() as stack:
        stack.enter_context(runner)
        # A native chunk is one seeding block: its rows cross to this process at once.
        unit, largest = (datasets.BLOCK, datasets.BLOCK) if native else (1, 64)
        ranges = runner.chunk_ranges(games, unit, largest)
        jobs = [_Games(game, specs, seed, a, b, target is not None, native, not runner.spread) for a, b in ranges]
        writer = None
        if target is not None:
            metadata = {
                "format": "regalia-trajectories",
                "version": 2,  # 2: the game column
                "regalia": VERSION,
                "game": game.name,
                "options": game.options,
                "seed": seed,
                "games": games,
                "agents": labels,
                "native": native,
                "observation_shape": list(game.observation_shape),
                "num_actions": game.num_actions,
                "num_players": game.num_players,
            }
            writer = stack.enter_context(datasets.DatasetWriter(target, game, metadata))
        done = progress_bar(stack, show, f"{game.name}: {' vs '.join(labels)}", ranges)
        for outcome in runner.map(_play_chunk, jobs, done):
            if isinstance(outcome, _Outcomes):
                for r, s, m in zip(outcome.returns, outcome.scores, outcome.moves):
                    result.add(r, s, m)
                continue
            for chunk in outcome:
                if writer is not None:
                    writer.write(chunk)
                for r, s, m in zip(chunk.game_returns, chunk.game_scores, chunk.game_moves):
                    result.add(r, s, m)
        if writer is not None:
            result.rows = writer.rows
    result.seconds = time.perf_counter() - start
    result.out = target
    return result
