"""A lower bound on an agent's exploitability in a game too large to walk whole: what the
search exploiter (``regalia.agents.exploiter``) wins against it over many games, from both
seats, with an interval.

In a two-player zero-sum game the exploitability of a policy ``pi`` is
``(BR_0 + BR_1) / 2``, where ``BR_i`` is the most seat ``i`` can expect against ``pi`` (the
policy's own returns cancel, as the two seats' returns sum to zero). Any player ``E`` expects
``v_i(E) <= BR_i`` from seat ``i``, so ``(v_0(E) + v_1(E)) / 2 <= exploitability``. Half of
the games seat the exploiter at seat 0 and half at seat 1, each game with a deal of its own,
so its mean return estimates ``(v_0(E) + v_1(E)) / 2`` without bias, from games independent
of each other; the lower end of its interval is a lower bound on the exploitability at that
confidence (two-sided ``0.99``: the bound holds with probability ``0.995``). See
docs/game-theory.md.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from regalia.agents import make_agent
from regalia.agents.base import Agent, agent_name
from regalia.agents.exploiter import SearchExploiter
from regalia.core.errors import InvalidArgumentError
from regalia.core.protocols import GameProtocol
from regalia.core.seeds import derive_seed
from regalia.matches.gauntlet import game_points
from regalia.matches.match import play
from regalia.matches.tournaments import wilson_interval
from regalia.registry.catalog import make_for
from regalia.registry.records import MatchRecord

__all__ = ["ExploitabilityBound", "exploitability_bound"]

#: The exploiters ``exploitability_bound`` can play, by name.
EXPLOITERS = ("search",)


@dataclass
class ExploitabilityBound:
    """What the search exploiter won against ``target`` over ``games`` games (half from each
    seat): ``mean`` is its mean return (+1 a win, -1 a loss), an estimate of a lower bound on
    the target's exploitability, ``low`` to ``high`` its interval at ``confidence``; ``low``
    is the bound itself. ``seat_means[i]`` is its mean return from seat ``i``. ``worst``
    holds the records of the games the target lost most (lowest return, then lowest score
    margin), ``keep`` of them, which ``regalia replay`` shows."""

    game: str
    options: dict[str, Any]
    target: str
    exploiter: str
    worlds: int
    rollouts: int
    continuation: str
    games: int
    seed: int
    confidence: float
    mean: float
    low: float
    high: float
    seat_means: list[float]
    seconds: float
    #: Exploiter decisions made, and the times its worlds were dealt afresh (all died).
    decisions: int
    redeals: int
    worst: list[MatchRecord] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """Everything as plain data; the worst games as the seats, seeds and returns that find them."""
        return {
            "format": "regalia-exploitability-bound",
            "version": 1,
            **{k: v for k, v in self.__dict__.items() if k != "worst"},
            "worst": [
                {"seed": r.seed, "agents": r.agents, "returns": r.returns, "scores": r.scores} for r in self.worst
            ],
        }


def _margin(record: MatchRecord, seat: int) -> tuple[float, float]:
    """How well ``seat`` did in ``record``: its return, then its score less the best other's."""
    scores = list(record.scores or [])
    margin = float(scores[seat] - max(s for i, s in enumerate(scores) if i != seat)) if len(scores) > 1 else 0.0
    return (float(record.returns[seat]), margin)


def exploitability_bound(
    game: GameProtocol | str,
    target: str | Agent,
    games: int = 20,
    seed: int = 0,
    worlds: int = 8,
    rollouts: int = 2,
    continuation: str = "random",
    exploiter: str = "search",
    confidence: float = 0.99,
    keep: int = 3,
    progress: Callable[[int, int], None] | None = None,
) -> ExploitabilityBound:
    """Plays the search exploiter against ``target`` (a built-in agent's spec, or an agent
    object, copied afresh for every game) for ``games`` games (even: half from each seat, each
    game its own deal) of ``game`` (a two-player game, or a game id), and returns what it won with its
    interval (see ``ExploitabilityBound``). The exploiter's model of the target is a separate
    instance (another seed: it knows the target's policy, not its draws). ``progress(done,
    total)`` is told after each game. Bad arguments raise ``InvalidArgumentError``."""
    if isinstance(game, str):
        game = make_for(game, 2)
    if game.num_players != 2:
        raise InvalidArgumentError(f"the exploitability bound is for two-player games, not {game.num_players} players")
    if exploiter not in EXPLOITERS:
        raise InvalidArgumentError(f"unknown exploiter {exploiter!r}; exploiters: {', '.join(EXPLOITERS)}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 2 or games % 2:
        raise InvalidArgumentError(f"games must be an even int >= 2 (half of them from each seat), got {games!r}")
    if not 0.0 < confidence < 1.0:
        raise InvalidArgumentError(f"confidence must be between 0 and 1, got {confidence!r}")
    if isinstance(keep, bool) or not isinstance(keep, int) or keep < 0:
        raise InvalidArgumentError(f"keep must be an int >= 0, got {keep!r}")
    label = target if isinstance(target, str) else agent_name(target)
    SearchExploiter(_target(target, 0), 0, worlds, rollouts, continuation)  # bad options fail here, before any game
    started = time.monotonic()
    points = 0.0
    sums, counts = [0.0, 0.0], [0, 0]
    decisions = redeals = 0
    played: list[tuple[tuple[float, float], int, MatchRecord]] = []
    for i in range(games):
        seat = i % 2
        model = _target(target, derive_seed(seed ^ 0x7A46_E7, i))
        hunter = SearchExploiter(model, derive_seed(seed ^ 0xE9_1017, i), worlds, rollouts, continuation)
        opponent = _target(target, derive_seed(seed ^ 0x0B_0E17, i))
        players: list[Any] = [hunter, opponent] if seat == 0 else [opponent, hunter]
        record = play(game, players, seed=derive_seed(seed, i))
        record.agents = [f"{exploiter}-exploiter" if s == seat else label for s in range(2)]
        points += game_points(record.returns, seat)
        sums[seat] += record.returns[seat]
        counts[seat] += 1
        decisions += hunter.decisions
        redeals += hunter.redeals
        played.append((_margin(record, 1 - seat), i, record))
        if progress is not None:
            progress(i + 1, games)
    share_low, share_high = wilson_interval(points, games, confidence)
    worst = [r for _, _, r in sorted(played, key=lambda t: (t[0], t[1]))[:keep]]
    return ExploitabilityBound(
        game=game.name,
        options=dict(game.options),
        target=label,
        exploiter=exploiter,
        worlds=worlds,
        rollouts=rollouts,
        continuation=continuation,
        games=games,
        seed=seed,
        confidence=confidence,
        mean=2 * points / games - 1,
        low=2 * share_low - 1,
        high=2 * share_high - 1,
        seat_means=[s / max(n, 1) for s, n in zip(sums, counts)],
        seconds=time.monotonic() - started,
        decisions=decisions,
        redeals=redeals,
        worst=worst,
    )


def _target(target: str | Agent, seed: int) -> Any:
    """A fresh instance of the target: made from its spec with ``seed``, or copied."""
    return make_agent(target, seed) if isinstance(target, str) else copy.deepcopy(target)
