"""The gauntlet: one agent against a panel of simple opponents (random play, fixed orders of
action ids, the rule-based player), from every seat, with the share of points it wins.

A game scores one point to its winner; a win shared by ``k`` seats scores ``1/k`` to each
(two seats: a win is 1, a draw 1/2). With more than two seats the agent plays against copies
of the opponent, so its fair share is ``1 / players``.
"""

from __future__ import annotations

import io
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from regalia.agents import as_agent, make_agent
from regalia.agents.base import agent_name
from regalia.core.errors import InvalidArgumentError
from regalia.core.protocols import GameProtocol
from regalia.core.seeds import derive_seed
from regalia.matches.match import play
from regalia.matches.tournaments import AgentSpec, tournament, wilson_interval
from regalia.registry.catalog import make
from regalia.registry.records import MatchRecord

#: Strategies that ignore the game: the first, the last, or the first in a fixed shuffled order
#: of the legal action ids (three orders).
FIXED_STRATEGIES = (
    "first-legal",
    "last-legal",
    "fixed-order:order=1",
    "fixed-order:order=2",
    "fixed-order:order=3",
)

#: The gauntlet's opponents: random play, the fixed strategies and the rule-based player.
PANEL = ("random", *FIXED_STRATEGIES, "rules")


def game_points(returns: Sequence[float], seat: int) -> float:
    """What one game is worth to ``seat``: 1 for the only highest return, ``1/k`` for a
    highest shared by ``k`` seats, else 0."""
    best = max(returns)
    return 1.0 / list(returns).count(best) if returns[seat] == best else 0.0


@dataclass
class GauntletRow:
    """The agent's results against one opponent."""

    opponent: str
    games: int
    #: Points won (see ``game_points``), and their share of the games with its interval.
    points: float
    share: float
    low: float
    high: float
    #: The share won from each seat (games the agent played in that seat).
    seat_shares: list[float]
    #: The agent's mean return.
    mean_return: float


@dataclass
class GauntletResult:
    """A gauntlet's rows, one per opponent, and how fast the agent decided."""

    game: str
    options: dict[str, Any]
    agent: str
    seed: int
    games: int
    confidence: float
    rows: list[GauntletRow] = field(default_factory=list)
    #: Mean seconds the agent took per decision (from a few games timed apart), or None.
    seconds_per_decision: float | None = None

    def row(self, opponent: str) -> GauntletRow:
        """The row of ``opponent`` (as named in the panel)."""
        for r in self.rows:
            if r.opponent == opponent:
                return r
        raise KeyError(opponent)

    def worst(self) -> GauntletRow:
        """The row where the agent's interval reaches lowest."""
        return min(self.rows, key=lambda r: r.low)

    def table(self, plain: bool = False) -> Any:
        """The rows as a ``rich`` table (ASCII borders when ``plain``)."""
        from rich import box
        from rich.table import Table

        timing = "" if self.seconds_per_decision is None else f", {self.seconds_per_decision * 1000:.2f} ms a decision"
        table = Table(
            title=f"{self.game}: {self.agent}, {self.games} games per opponent, seed {self.seed}{timing}",
            title_justify="left",
            box=box.ASCII2 if plain else box.HEAVY_HEAD,
        )
        for column in ("opponent", "points", "share", f"{self.confidence:.0%} interval", "by seat (%)"):
            table.add_column(column, justify="left" if column == "opponent" else "right", no_wrap=True)
        for r in self.rows:
            table.add_row(
                r.opponent,
                f"{r.points:g}",
                f"{r.share:.1%}",
                f"{100 * r.low:.1f} to {100 * r.high:.1f}",
                " ".join(f"{100 * s:.0f}" for s in r.seat_shares),
            )
        return table

    def __str__(self) -> str:
        from rich.console import Console

        console = Console(file=io.StringIO(), width=100, color_system=None)
        console.print(self.table(plain=True))
        return str(console.file.getvalue())  # type: ignore[attr-defined]

    def to_dict(self) -> dict[str, Any]:
        """Everything as plain data."""
        return {"format": "regalia-gauntlet", "version": 1, **asdict(self)}


def _row(opponent: str, records: list[MatchRecord], seating: list[list[int]], confidence: float) -> GauntletRow:
    """The agent's (index 0 of every seating) results in ``records``."""
    players = len(seating[0]) if seating else 1
    per_seat = [[0.0, 0] for _ in range(players)]
    points = returns = 0.0
    for record, seats in zip(records, seating):
        seat = seats.index(0)
        p = game_points(record.returns, seat)
        points += p
        returns += record.returns[seat]
        per_seat[seat][0] += p
        per_seat[seat][1] += 1
    n = len(records)
    low, high = wilson_interval(points, n, confidence)
    return GauntletRow(
        opponent=opponent,
        games=n,
        points=points,
        share=points / n,
        low=low,
        high=high,
        seat_shares=[p / max(k, 1) for p, k in per_seat],
        mean_return=returns / n,
    )


def decision_seconds(game: GameProtocol, agent: AgentSpec, seed: int = 0, decisions: int = 40) -> float:
    """The agent's mean seconds per decision over at least ``decisions`` of its decisions
    (at most 20 games) against random play, timed in this process."""
    player = make_agent(agent, seed) if isinstance(agent, str) else as_agent(agent)
    spent, count = 0.0, 0

    def timed(view: Any) -> int:
        nonlocal spent, count
        start = time.perf_counter()
        action = player.act(view)
        spent += time.perf_counter() - start
        count += 1
        return action

    for g in range(20):
        others = ["random"] * (game.num_players - 1)
        play(game, [timed, *others], seed=derive_seed(seed ^ 0x7143, g))
        if count >= decisions:
            break
    return spent / max(count, 1)


def gauntlet(
    game: GameProtocol | str,
    agent: AgentSpec,
    games: int = 24,
    seed: int = 0,
    opponents: Sequence[str] = PANEL,
    workers: int = 1,
    progress: bool | None = None,
    confidence: float = 0.99,
    timing: bool = True,
) -> GauntletResult:
    """Plays ``agent`` against each of ``opponents`` (the panel by default) for ``games``
    games, seats rotating on the same deals for every opponent (``regalia.tournament``): with ``n`` seats the
    agent sits with ``n - 1`` copies of the opponent and takes every seat in turn (use a
    multiple of ``n`` for as many games from each). Returns the agent's share of the points
    against each, with a Wilson interval at ``confidence`` (two-sided), and, with ``timing``,
    its mean time per decision from a few games timed apart in this process.
    """
    if isinstance(game, str):
        game = make(game)
    if not opponents:
        raise InvalidArgumentError("a gauntlet needs at least one opponent")
    if not 0.0 < confidence < 1.0:
        raise InvalidArgumentError(f"confidence must be between 0 and 1, got {confidence!r}")
    label = agent if isinstance(agent, str) else agent_name(as_agent(agent))
    result = GauntletResult(game.name, game.options, label, seed, games, confidence)
    for opponent in opponents:
        others = {f"{opponent}#{i + 1}": opponent for i in range(game.num_players - 1)}
        if game.num_players == 2:
            others = {opponent: opponent}
        lineup: dict[str, AgentSpec] = {f"{label} (agent)": agent, **others}
        played = tournament(game, lineup, games=games, seed=seed, workers=workers, progress=progress)
        result.rows.append(_row(opponent, played.records, played.seating, confidence))
    if timing:
        result.seconds_per_decision = decision_seconds(game, agent, seed)
    return result
