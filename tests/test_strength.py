"""How strong the built-in agents are, game by game, on fixed seeds, measured with the
gauntlet (``regalia.matches.gauntlet``): the share of the points an agent wins against an opponent
(a win 1, a draw 1/2), two seats rotated on shared deals. Each claim must hold with
statistical confidence: the one-sided 99% Wilson lower bound of the share is above the line.

The fast claims run by default (CI); the long ones are marked ``slow``: ``pytest -m slow``.
docs/agents.md has the full tables and the claims that are not met, with the reasons.
"""

from __future__ import annotations

from typing import Any

import pytest

import regalia
from regalia.matches.gauntlet import FIXED_STRATEGIES

#: One-sided 99%: the two-sided 98% interval's lower end.
CONFIDENCE = 0.98

GAMES = ("duo-regna", "duo", "duell-der-drachen", "regine", "regnum")


def _options(name: str) -> dict[str, Any]:
    """Two seats, the game's other options stated where the default may change."""
    return {"duo": {"players": 2, "rounds": 1}}.get(name, {"players": 2})


def _lows(
    name: str, agent: str, opponents: list[str], games: int, options: dict[str, Any] | None = None
) -> dict[str, Any]:
    game = regalia.make(name, **(options if options is not None else _options(name)))
    result = regalia.gauntlet(
        game,
        agent,
        games=games,
        seed=7,
        opponents=opponents,
        workers=2,
        progress=False,
        confidence=CONFIDENCE,
        timing=False,
    )
    return {r.opponent: r for r in result.rows}


def _check(rows: dict[str, Any], line: float, agent: str, name: str) -> None:
    for opponent, r in rows.items():
        assert r.low > line, f"{agent} won {r.points}/{r.games} against {opponent} in {name}: lower bound {r.low:.3f}"


#: (game, agent, opponents, games per opponent, the share the agent beats): fast enough for CI.
FAST = [
    ("duo-regna", "rules", list(FIXED_STRATEGIES), 24, 0.6),
    ("duo-regna", "rules", ["random"], 200, 0.5),
    ("duo-regna", "best", ["rules"], 60, 0.5),
    ("duo", "rules", [s for s in FIXED_STRATEGIES if s != "first-legal"], 24, 0.6),
    ("duell-der-drachen", "rules", list(FIXED_STRATEGIES), 60, 0.6),
    ("regine", "rules", list(FIXED_STRATEGIES), 60, 0.6),
    ("regnum", "rules", ["first-legal"], 100, 0.6),
    # Against last-legal and order 2 Regnum's games run to hundreds of turns: fewer games.
    ("regnum", "rules", ["fixed-order:order=1", "fixed-order:order=3"], 40, 0.6),
    ("regnum", "rules", ["last-legal", "fixed-order:order=2"], 20, 0.6),
    ("duo", "rules", ["random"], 40, 0.5),
    ("duell-der-drachen", "rules", ["random"], 40, 0.5),
    ("regine", "rules", ["random"], 40, 0.5),
    ("regnum", "rules", ["random"], 40, 0.5),
]

#: Claims that take more games than CI affords, with the game's options: (game, options,
#: agent, opponents, games, the share the agent beats). Duo's full game against the first
#: legal action (greedy shedding, itself a sound plan: the line is one half for ``rules``,
#: 60% for ``best``), and ``best`` there against the rest of the panel (a full game lasts
#: seconds). Duo Regna against ``random``: no player can win more than 66.8% there,
#: so showing 60% takes many games.
SLOW_WITH_OPTIONS = [
    ("duo", {"players": 2, "rounds": 0}, "rules", ["first-legal"], 300, 0.5),
    ("duo-regna", {"players": 2}, "rules", ["random"], 1000, 0.6),
    ("duo", {"players": 2, "rounds": 0}, "best", ["first-legal"], 200, 0.6),
    (
        "duo",
        {"players": 2, "rounds": 0},
        "best",
        ["random", *[s for s in FIXED_STRATEGIES if s != "first-legal"]],
        60,
        0.75,
    ),
    ("duo", {"players": 2, "rounds": 0}, "best", ["rules"], 400, 0.5),
]

#: ``best``, long: it wins 75% against every fixed strategy and beats ``rules``.
#: (game, opponents, games per opponent, the share it beats). Duo's full game is in
#: ``SLOW_WITH_OPTIONS``.
SLOW: list[Any] = [
    ("duo-regna", list(FIXED_STRATEGIES), 100, 0.75),
    ("duell-der-drachen", list(FIXED_STRATEGIES), 30, 0.75),
    ("duell-der-drachen", ["rules"], 60, 0.5),
    ("regine", list(FIXED_STRATEGIES), 60, 0.75),
    ("regine", ["rules"], 100, 0.5),
    ("regnum", ["first-legal", "last-legal"], 60, 0.75),
    ("regnum", ["fixed-order:order=1", "fixed-order:order=2"], 20, 0.75),
    ("regnum", ["fixed-order:order=3"], 40, 0.75),
    ("regnum", ["rules"], 100, 0.5),
]


#: ``best`` with four players against three copies of an opponent (fair share 0.25): (game,
#: opponents, games per opponent, the share it beats: 1.3 times the fair share where that
#: shows within these games, else the fair share).
FOUR_PLAYERS: list[Any] = [
    ("regine", ["rules"], 160, 0.325),
    ("regine", ["first-legal"], 40, 0.325),
    ("regnum", ["first-legal"], 80, 0.325),
    ("duo", ["rules"], 160, 0.25),
]


@pytest.mark.parametrize(("name", "agent", "opponents", "games", "line"), FAST, ids=lambda x: str(x))
def test_rules_beat_simple_opponents(name: str, agent: str, opponents: list[str], games: int, line: float) -> None:
    _check(_lows(name, agent, opponents, games), line, agent, name)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "options", "agent", "opponents", "games", "line"), SLOW_WITH_OPTIONS, ids=lambda x: str(x)
)
def test_agents_beat_simple_opponents_over_many_games(
    name: str, options: dict[str, Any], agent: str, opponents: list[str], games: int, line: float
) -> None:
    _check(_lows(name, agent, opponents, games, options), line, agent, name)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "opponents", "games", "line"), SLOW, ids=lambda x: str(x))
def test_best_beats_fixed_strategies_and_rules(name: str, opponents: list[str], games: int, line: float) -> None:
    _check(_lows(name, "best", opponents, games), line, "best", name)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "opponents", "games", "line"), FOUR_PLAYERS, ids=lambda x: str(x))
def test_best_beats_its_share_among_four(name: str, opponents: list[str], games: int, line: float) -> None:
    _check(_lows(name, "best", opponents, games, {"players": 4}), line, "best", name)
