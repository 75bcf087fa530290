"""Exact game theory on games with explicit chance: the whole game tree, exact best responses
and exploitability of any policy, best responses as players, and CFR+ (in Rust, over the tree).

>>> import regalia
>>> from regalia import cfr, exact
>>> game = regalia.make("duo-regna", dragon_deck=[2, 1], dragons_to_win=2, max_rounds=2, chance="explicit")
>>> tree = exact.game_tree(game)                       # every history, ~0.2 s
>>> exact.exploitability(game, exact.uniform).exploitability
>>> policy = cfr.solve(game, method="cfr+", iterations=200)
>>> policy.exploitability()
>>> answer = exact.best_response(game, exact.uniform, seat=0)
>>> answer.value, answer.line                          # what it wins, and how
>>> regalia.play(game, [answer, "random"], seed=1)     # it plays as an agent

A game's tree is enumerated only when it has at most ``max_histories`` histories
(``DEFAULT_MAX_HISTORIES`` unless told otherwise): a larger one is refused before any work
with ``GameTooLargeError`` naming its estimated size. See docs/game-theory.md.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from regalia.core import engine
from regalia.core.errors import InvalidArgumentError
from regalia.core.protocols import GameProtocol
from regalia.registry.catalog import make
from regalia.theory.benchmarks import BENCHMARKS, Benchmark, Measured, benchmark, benchmarks
from regalia.theory.cfr import Policy, PolicyPlayer
from regalia.theory.tree import (
    DEFAULT_MAX_HISTORIES,
    Exploitability,
    PolicyLike,
    ProbabilisticAgent,
    Progress,
    TablePolicy,
    exploitability,
    game_of,
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

#: The ``method`` a best response's policy file names.
METHOD = "best-response"


@dataclass
class BestResponse(PolicyPlayer):
    """Seat ``seat``'s best response to a policy, as a player: at each of the seat's
    information sets the one action a best response plays there (``action_probabilities``
    is that point mass). ``value`` is what it is worth against the policy (the seat's
    expected return), ``policy_value`` what the seat gets playing the policy itself, so
    ``value - policy_value`` is what the policy gives away from that seat.

    ``line`` is the principal line: of the ways the game can go when it plays against the
    policy (chance and the policy's moves drawn by their probabilities), the most probable
    of those that end best for it, written in the game's own move names (``"seat 0: ..."``,
    ``"chance: ..."``), with its probability ``line_probability`` and ``line_returns``.

    It is an agent (``act``, ``action_probabilities``): it plays in matches, tournaments,
    the gauntlet and the environments, in the game it was computed for (with
    ``chance="explicit"``; other options are refused). At an information set that is not
    its seat's it has no answer and plays uniformly at random. ``save`` writes it as a CFR
    policy file (``cfr:policy=PATH`` plays it too); ``BestResponse.load`` reads it back.
    """

    policy: Policy
    seat: int
    value: float
    policy_value: float
    line: list[str]
    line_actions: list[int]
    line_probability: float
    line_returns: list[float]
    seed: int | None = None
    name: str = "best-response"
    _rng: random.Random = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    @property
    def gain(self) -> float:
        """What the policy gives away from this seat: ``value - policy_value``."""
        return self.value - self.policy_value

    def save(self, path: str | Path) -> None:
        """Writes it as a CFR policy file; its header keeps the seat, the values and the line."""
        self.policy.save(path)

    @classmethod
    def load(cls, path: str | Path, game: GameProtocol | None = None, seed: int | None = None) -> BestResponse:
        """A best response saved by ``save`` (``PolicyFileError`` for a damaged file or, with
        ``game``, one for another game or options; ``InvalidArgumentError`` for a policy file
        that holds no best response)."""
        policy = Policy.load(path, game)
        info = policy.info
        if info.get("method") != METHOD:
            raise InvalidArgumentError(f"{path} holds a {info.get('method')!r} policy, not a best response")
        line = info["line"]
        return cls(
            policy=policy,
            seat=int(info["seat"]),
            value=float(info["value"]),
            policy_value=float(info["policy_value"]),
            line=[str(m) for m in line["moves"]],
            line_actions=[int(a) for a in line["actions"]],
            line_probability=float(line["probability"]),
            line_returns=[float(r) for r in line["returns"]],
            seed=seed,
        )


def best_response(
    game: GameProtocol | str,
    policy: PolicyLike,
    seat: int,
    max_histories: int = DEFAULT_MAX_HISTORIES,
    seed: int | None = None,
) -> BestResponse:
    """Seat ``seat``'s exact best response to ``policy`` (anything ``exploitability``
    measures) in ``game`` (made with ``chance="explicit"``, its tree at most
    ``max_histories`` histories, or a benchmark's name), as a player (see ``BestResponse``) seeded with ``seed``.
    Its value is the one ``exploitability`` reports for the seat."""
    game = game_of(game)
    if isinstance(seat, bool) or not isinstance(seat, int | np.integer) or not 0 <= seat < game.num_players:
        raise InvalidArgumentError(f"seat must be from 0 to {game.num_players - 1}, not {seat!r}")
    seat = int(seat)
    tree = game_tree(game, max_histories)
    aligned = tree_policy(game, policy, max_histories)
    value, choices = engine.tree_best_response(tree, aligned, seat)
    keys, seats, counts, actions = tree.information_sets()
    starts = np.concatenate([[0], np.cumsum(counts, dtype=np.int64)])
    profile = aligned.copy()
    for i in np.flatnonzero(seats == seat):
        profile[starts[i] : starts[i + 1]] = 0.0
        profile[starts[i] + int(choices[i])] = 1.0
    policy_value = float(tree.exploitability(aligned)["policy_values"][seat])
    found = engine.tree_principal_line(tree, profile, seat)
    history, probability, returns = found if found is not None else ([], 0.0, [])
    moves = _move_names(game, history)
    own = seats == seat
    answer = np.where(_action_mask(counts, own), profile, 0.0)
    table_keys, table_counts, table_actions, table_probs = table_of(tree, answer)
    keep = np.isin(table_keys, keys[own])
    action_keep = np.repeat(keep, table_counts.astype(np.int64))
    core = engine.make(game.name, dict(game.options))
    info = {
        "game": core.name,
        "options": dict(core.options),
        "method": METHOD,
        "seed": 0,
        "iterations": 0,
        "updates": 0,
        "seconds": 0.0,
        "interrupted": False,
        "seat": seat,
        "value": float(value),
        "policy_value": policy_value,
        "line": {"moves": moves, "actions": list(history), "probability": probability, "returns": list(returns)},
    }
    table = Policy(info, table_keys[keep], table_counts[keep], table_actions[action_keep], table_probs[action_keep])
    return BestResponse(
        policy=table,
        seat=seat,
        value=float(value),
        policy_value=policy_value,
        line=moves,
        line_actions=[int(a) for a in history],
        line_probability=float(probability),
        line_returns=[float(r) for r in returns],
        seed=seed,
    )


def _action_mask(counts: Any, sets: Any) -> Any:
    """``sets`` (one bool per information set) repeated over each set's actions."""
    return np.repeat(sets, counts.astype(np.int64))


def _move_names(game: GameProtocol, history: list[int]) -> list[str]:
    """``history`` from the start of ``game``, each move in the game's own words."""
    state = make(game.name, **dict(game.options)).new_state(0)
    names = []
    for a in history:
        who = "chance" if state.is_chance_node else f"seat {state.current_player}"
        names.append(f"{who}: {state.action_name(a)}")
        state.apply(a)
    return names
