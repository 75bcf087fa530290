"""Tournaments: many matches with seat rotation, in parallel, with win rates and ratings."""

from __future__ import annotations

import copy
import csv
import io
import json
import math
import sys
from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from statistics import NormalDist
from typing import Any

from regalia.agents import AgentLike, as_agent, make_agent
from regalia.core.errors import InvalidArgumentError
from regalia.core.protocols import GameProtocol
from regalia.core.seeds import derive_seed
from regalia.matches.executors import ExecutorLike, progress_bar, resolve
from regalia.matches.match import OnError, play
from regalia.registry.catalog import make
from regalia.registry.records import MatchRecord

#: An agent in a tournament: a built-in agent's name (with options, e.g. ``"ismcts:iterations=200"``),
#: an agent object (copied afresh for every game) or a plain function of the view.
AgentSpec = AgentLike | str


def wilson_interval(successes: float, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (two-sided, at ``confidence``)."""
    if trials <= 0:
        return (0.0, 1.0)
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo_ratings(pairs: Mapping[tuple[int, int], tuple[float, float]], agents: int) -> list[float]:
    """Elo-scale ratings (mean 1500) fitted to pairwise results by Bradley-Terry.

    ``pairs[(i, j)] = (score of i, games)`` over the games between agents ``i < j`` (a draw
    scores one half). Every pair also counts one virtual draw, so that a clean sweep gives a
    large but finite gap.
    """
    score = [[0.5] * agents for _ in range(agents)]
    games = [[1.0] * agents for _ in range(agents)]
    for (i, j), (s, n) in pairs.items():
        score[i][j] += s
        score[j][i] += n - s
        games[i][j] += n
        games[j][i] += n
    strength = [1.0] * agents
    for _ in range(500):
        new = [
            sum(score[i][j] for j in range(agents) if j != i)
            / sum(games[i][j] / (strength[i] + strength[j]) for j in range(agents) if j != i)
            for i in range(agents)
        ]
        mean_log = sum(math.log(s) for s in new) / agents
        new = [s / math.exp(mean_log) for s in new]
        done = max(abs(a - b) for a, b in zip(new, strength)) < 1e-10
        strength = new
        if done:
            break
    return [1500 + 400 * math.log10(s) for s in strength]


@dataclass
class Standing:
    """One agent's results over a tournament."""

    agent: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    mean_return: float = 0.0
    win_rate: float = 0.0
    win_low: float = 0.0
    win_high: float = 0.0
    draw_rate: float = 0.0
    elo: float = 1500.0


@dataclass
class TournamentResult:
    """Every game of a tournament and the standings computed from them.

    ``seating[g][s]`` is the index (into ``agents``) of the agent at seat ``s`` of game ``g``.
    An agent wins a game when its return is the only highest, draws when it shares the
    highest, and loses otherwise.
    """

    game: str
    options: dict[str, Any]
    seed: int
    agents: list[str]
    records: list[MatchRecord]
    seating: list[list[int]]
    confidence: float = 0.95
    standings: list[Standing] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.standings:
            self.standings = self._standings()

    def _standings(self) -> list[Standing]:
        rows = [Standing(name) for name in self.agents]
        sums = [0.0] * len(self.agents)
        pairs: dict[tuple[int, int], tuple[float, float]] = {}
        for record, seats in zip(self.records, self.seating):
            r = record.returns
            best = max(r)
            for s, i in enumerate(seats):
                row = rows[i]
                row.games += 1
                sums[i] += r[s]
                if r[s] < best:
                    row.losses += 1
                elif r.count(best) == 1:
                    row.wins += 1
                else:
                    row.draws += 1
            for s in range(len(seats)):
                for t in range(s + 1, len(seats)):
                    i, j = seats[s], seats[t]
                    if i == j:
                        continue
                    result = 1.0 if r[s] > r[t] else 0.5 if r[s] == r[t] else 0.0
                    key, result = ((i, j), result) if i < j else ((j, i), 1.0 - result)
                    old = pairs.get(key, (0.0, 0.0))
                    pairs[key] = (old[0] + result, old[1] + 1)
        elo = elo_ratings(pairs, len(self.agents))
        for i, row in enumerate(rows):
            n = max(row.games, 1)
            row.mean_return = sums[i] / n
            row.win_rate = row.wins / n
            row.win_low, row.win_high = wilson_interval(row.wins, row.games, self.confidence)
            row.draw_rate = row.draws / n
            row.elo = elo[i]
        return rows

    def standing(self, agent: str) -> Standing:
        """The standing of the agent called ``agent``."""
        for row in self.standings:
            if row.agent == agent:
                return row
        raise KeyError(agent)

    def table(self) -> Any:
        """The standings as a ``rich`` table."""
        from rich.table import Table

        pct = f"{self.confidence:.0%}"
        table = Table(title=f"{self.game}: {len(self.records)} games, seed {self.seed}")
        for name in ("agent", "games", "wins", "draws", "losses", f"win rate [{pct} CI]", "mean return", "Elo"):
            table.add_column(name, justify="left" if name == "agent" else "right")
        for r in self.standings:
            table.add_row(
                r.agent,
                str(r.games),
                str(r.wins),
                str(r.draws),
                str(r.losses),
                f"{r.win_rate:.1%} [{r.win_low:.1%}, {r.win_high:.1%}]",
                f"{r.mean_return:+.3f}",
                f"{r.elo:.0f}",
            )
        return table

    def __str__(self) -> str:
        from rich.console import Console

        console = Console(file=io.StringIO(), width=120, color_system=None)
        console.print(self.table())
        return str(console.file.getvalue())  # type: ignore[attr-defined]

    def to_dict(self) -> dict[str, Any]:
        """Everything as plain data: settings, standings, and every game's record."""
        return {
            "format": "regalia-tournament",
            "version": 1,
            "game": self.game,
            "options": self.options,
            "seed": self.seed,
            "agents": self.agents,
            "confidence": self.confidence,
            "standings": [asdict(r) for r in self.standings],
            "seating": self.seating,
            "records": [json.loads(r.to_json()) for r in self.records],
        }

    def to_json(self) -> str:
        """``to_dict`` as JSON text."""
        return json.dumps(self.to_dict())

    def to_csv(self) -> str:
        """The standings as CSV text, one row per agent."""
        out = io.StringIO()
        names = list(asdict(self.standings[0])) if self.standings else ["agent"]
        writer = csv.DictWriter(out, fieldnames=names, lineterminator="\n")
        writer.writeheader()
        for r in self.standings:
            writer.writerow(asdict(r))
        return out.getvalue()


def _labels(agents: Sequence[AgentSpec] | Mapping[str, AgentSpec]) -> tuple[list[str], list[AgentSpec]]:
    if isinstance(agents, Mapping):
        return [str(k) for k in agents], list(agents.values())
    specs = list(agents)
    names = [
        s if isinstance(s, str) else str(getattr(s, "name", getattr(s, "__name__", type(s).__name__))) for s in specs
    ]
    labels = [n if names.count(n) == 1 else f"{n}#{names[:i].count(n) + 1}" for i, n in enumerate(names)]
    return labels, specs


def _instance(spec: AgentSpec, seed: int) -> Any:
    if isinstance(spec, str):
        return make_agent(spec, seed)
    return copy.deepcopy(as_agent(spec))


@dataclass(frozen=True)
class _Job:
    """What a worker needs to play games ``start`` to ``stop - 1``."""

    game: GameProtocol
    specs: list[AgentSpec]
    labels: list[str]
    seed: int
    start: int
    stop: int
    on_error: OnError


def seating_of(index: int, players: int) -> list[int]:
    """Which agent sits at each seat in game ``index``: the table turns by one each game."""
    return [(s + index) % players for s in range(players)]


def _play_one(job: _Job, index: int) -> MatchRecord:
    n = job.game.num_players
    seats = seating_of(index, n)
    deal = derive_seed(job.seed, index // n)
    agents = [_instance(job.specs[i], derive_seed(job.seed ^ 0xA6E7_5EED, index * n + i)) for i in seats]
    record = play(job.game, agents, seed=deal, on_error=job.on_error)
    record.agents = [job.labels[i] for i in seats]
    return record


def _play(job: _Job) -> list[MatchRecord]:
    """Plays a chunk of games (in a worker); each game's seeds come from its index alone."""
    return [_play_one(job, i) for i in range(job.start, job.stop)]


def tournament(
    game: GameProtocol | str,
    agents: Sequence[AgentSpec] | Mapping[str, AgentSpec],
    games: int = 100,
    seed: int = 0,
    workers: int = 1,
    progress: bool | None = None,
    on_error: OnError = "raise",
    confidence: float = 0.95,
    executor: ExecutorLike = None,
) -> TournamentResult:
    """Plays ``games`` matches between ``agents`` (one per seat) and returns the results.

    Seats rotate: game ``g`` seats agent ``(s + g) % n`` at seat ``s``, and each deal (seed)
    is played once in every rotation, so every agent gets every seat and the same cards.
    ``agents`` is a list (labels from the names, numbered if repeated) or a dict label to
    agent; an agent is a built-in agent's name (``"ismcts:iterations=200"``), an agent object
    (deep-copied afresh for every game) or a plain function. ``workers > 1`` plays games in
    that many processes (agents must then pickle); ``executor="ray"`` (or a Ray address, or
    an executor from ``regalia.matches.executors``) plays them on Ray. The results depend on neither.
    A progress bar is shown when ``progress`` is true (default: when stderr is a terminal).
    """
    if isinstance(game, str):
        game = make(game)
    labels, specs = _labels(agents)
    if len(specs) != game.num_players:
        raise InvalidArgumentError(f"{game.name} needs {game.num_players} agents, got {len(specs)}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InvalidArgumentError(f"games must be an int >= 1, got {games!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InvalidArgumentError(f"workers must be an int >= 1, got {workers!r}")
    runner = resolve(executor, workers)
    show = sys.stderr.isatty() if progress is None else progress
    records: list[MatchRecord] = []
    with ExitStack() as stack:
        stack.enter_context(runner)
        ranges = runner.chunk_ranges(games)
        jobs = [_Job(game, specs, labels, seed, a, b, on_error) for a, b in ranges]
        done = progress_bar(stack, show, f"{game.name}: {' vs '.join(labels)}", ranges, transient=False)
        for chunk in runner.map(_play, jobs, done):
            records.extend(chunk)
    return TournamentResult(
        game=game.name,
        options=game.options,
        seed=seed,
        agents=labels,
        records=records,
        seating=[seating_of(i, game.num_players) for i in range(games)],
        confidence=confidence,
    )
