"""Exact best responses and exploitability on small variants.

The public path of :mod:`regalia.theory.exact`, where the code lives; here, above the agents,
``exploitability`` and ``best_response`` also take a built-in agent by its name or spec
(``"rules"``, ``"ismcts:iterations=200"``, ``"cfr:policy=PATH"``), made with ``seed``.
Every function that takes a game also takes a benchmark variant's name
(``regalia.theory.benchmarks``: ``benchmark(name)``, ``BENCHMARKS``).
"""

from typing import Any

from regalia.agents import make_agent
from regalia.core.protocols import GameProtocol
from regalia.theory import exact as _exact
from regalia.theory.exact import (
    BENCHMARKS,
    DEFAULT_MAX_HISTORIES,
    Benchmark,
    BestResponse,
    Exploitability,
    Measured,
    PolicyLike,
    ProbabilisticAgent,
    Progress,
    TablePolicy,
    benchmark,
    benchmarks,
    game_tree,
    table_of,
    tree_policy,
    uniform,
)

__all__ = [
    "BENCHMARKS",
    "DEFAULT_MAX_HISTORIES",
    "BestResponse",
    "Benchmark",
    "Exploitability",
    "Measured",
    "PolicyLike",
    "ProbabilisticAgent",
    "Progress",
    "TablePolicy",
    "benchmark",
    "benchmarks",
    "best_response",
    "exploitability",
    "game_tree",
    "table_of",
    "tree_policy",
    "uniform",
]


def _policy(policy: Any, seed: int) -> Any:
    return make_agent(policy, seed) if isinstance(policy, str) else policy


def exploitability(
    game: GameProtocol | str,
    policy: Any,
    max_histories: int = DEFAULT_MAX_HISTORIES,
    progress: Progress | None = None,
    seed: int = 0,
) -> Exploitability:
    """:func:`regalia.theory.exact.exploitability`; ``policy`` may also be a built-in agent's
    name or spec, made with ``seed``."""
    return _exact.exploitability(game, _policy(policy, seed), max_histories, progress)


def best_response(
    game: GameProtocol | str, policy: Any, seat: int, max_histories: int = DEFAULT_MAX_HISTORIES, seed: int = 0
) -> BestResponse:
    """:func:`regalia.theory.exact.best_response`; ``policy`` may also be a built-in agent's
    name or spec, made with ``seed`` (the best response is seeded with it too)."""
    return _exact.best_response(game, _policy(policy, seed), seat, max_histories, seed)
