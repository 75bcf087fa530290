"""The whole game tree of a game with explicit chance, any policy laid over it (one
probability per information set and legal action), and the exact exploitability of that
policy, computed in Rust. ``regalia.theory.exact`` adds best responses as players and is the
public face of this module (``regalia.exact``); CFR+ (``regalia.theory.cfr``) solves over
the same tree.

A game's tree is enumerated only when it has at most ``max_histories`` histories
(``DEFAULT_MAX_HISTORIES`` unless told otherwise): a larger one is refused before any work
with ``GameTooLargeError`` naming its estimated size. See docs/game-theory.md.

An agent whose choices depend on what it saw earlier in the game (its memory: an opponent
model, a read of her bets) says so with a true ``adaptive`` attribute. It is then measured
as the behaviour strategy it is over its own information states: at each information set a
copy of the agent (copied from the one given) has been shown the game from the start along
one history that reaches the set (``game_start``, then ``observe(view)`` if it has that, else
``act(view)``, at each of its seat's earlier decisions, the history's moves played whatever
it chose), and is then asked ``action_probabilities``. Every history of a set shows the seat
the same things, so which one is shown does not matter; each view shown on the way samples
its world from the seat's information state there. Such an agent is asked along the tree, the
sets' histories in order: what it was shown on a prefix the histories share is kept (a copy
at each of the seat's decisions), not replayed from the root for each set.

Any other agent or function is asked with a ``TreeView`` (``regalia.theory.tree_view``): its
seat and legal actions come straight from the tree, and what needs a state (the observation,
the action names, sampled worlds) is built when first read, by replaying one history of the
set from the root, once. Uniform play, a fixed order or a table lookup so never replays.
"""

from __future__ import annotations

import copy
import json
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from regalia.core import engine
from regalia.core.errors import InvalidArgumentError
from regalia.core.protocols import GameProtocol, StateProtocol
from regalia.core.seeds import derive_seed
from regalia.core.view import View, view_of
from regalia.theory.benchmarks import benchmark
from regalia.theory.tree_view import Replayer, TreeView

__all__ = [
    "DEFAULT_MAX_HISTORIES",
    "Exploitability",
    "PolicyLike",
    "ProbabilisticAgent",
    "Progress",
    "TablePolicy",
    "exploitability",
    "game_of",
    "game_tree",
    "table_of",
    "tree_policy",
    "uniform",
]

#: The most histories an exact method enumerates unless told otherwise.
DEFAULT_MAX_HISTORIES = 5_000_000

_TREES: dict[tuple[str, str, int], engine.GameTree] = {}
_LOCK = threading.Lock()


@runtime_checkable
class TablePolicy(Protocol):
    """A policy stored as a table (``regalia.theory.cfr.Policy`` is one): per information-set
    key its legal actions and their probabilities, in flat arrays, for one game."""

    keys: npt.NDArray[np.uint64]
    counts: npt.NDArray[np.uint16]
    actions: npt.NDArray[np.uint16]
    probabilities: npt.NDArray[np.float32]

    def check_game(self, game: str, options: dict[str, Any]) -> None:
        """Raises when the table is not for ``game`` with ``options``."""
        ...


@runtime_checkable
class ProbabilisticAgent(Protocol):
    """An agent that can say how likely it is to play each legal action (the ``cfr`` agent
    can): what ``exploitability`` measures."""

    def action_probabilities(self, view: View) -> Mapping[int, float]:
        """``{action: probability}`` over the view's legal actions."""
        ...


def uniform(view: View) -> dict[int, float]:
    """Every legal action of the view equally likely."""
    return dict.fromkeys(view.legal_actions, 1.0 / len(view.legal_actions))


@dataclass(frozen=True)
class Exploitability:
    """What a policy is worth against best responses, exactly: ``exploitability`` is
    OpenSpiel's (``nash_conv`` over the number of seats); ``best_response_values[i]`` is seat
    ``i``'s expected return when it best-responds to the others playing the policy, and
    ``policy_values[i]`` its expected return when every seat plays the policy."""

    exploitability: float
    nash_conv: float
    best_response_values: list[float]
    policy_values: list[float]


def game_of(game: GameProtocol | str) -> GameProtocol:
    """``game`` itself, or when it is a str the benchmark variant of that name
    (``regalia.theory.benchmarks``; ``InvalidArgumentError`` listing them for another name)."""
    return benchmark(game).make() if isinstance(game, str) else game


def _core_game(game: GameProtocol) -> engine.Game:
    """The extension's game for ``game`` (either backend)."""
    return engine.make(game.name, dict(game.options))


def game_tree(game: GameProtocol | str, max_histories: int = DEFAULT_MAX_HISTORIES) -> engine.GameTree:
    """The whole tree of ``game`` (either backend, made with ``chance="explicit"``, or a
    benchmark's name: ``regalia.theory.benchmarks``), kept for
    later calls with the same game. ``GameTooLargeError`` (a ``ValueError``) naming the
    estimated size when it has more than ``max_histories`` histories, before it is built;
    ``InvalidArgumentError`` for a game without explicit chance."""
    if isinstance(max_histories, bool) or not isinstance(max_histories, int) or max_histories < 1:
        raise InvalidArgumentError(f"max_histories must be an int >= 1, not {max_histories!r}")
    core = _core_game(game_of(game))
    key = (core.name, json.dumps(core.options, sort_keys=True), max_histories)
    with _LOCK:
        tree = _TREES.get(key)
        if tree is None:
            tree = engine.GameTree(core, max_histories)
            _TREES.clear()  # one tree at a time: they can be large
            _TREES[key] = tree
        return tree


def _normalised(probs: Any, legal: list[int], where: str) -> list[float]:
    """``probs`` over ``legal`` summing to one; ``InvalidArgumentError`` if it is no distribution."""
    if not isinstance(probs, Mapping):
        hint = (
            " (an action id: a policy gives the probability of every legal action, "
            "{action: probability}; a point mass is {action: 1.0})"
            if isinstance(probs, int | np.integer) and not isinstance(probs, bool)
            else ""
        )
        raise InvalidArgumentError(
            f"{where}: the policy returned {probs!r}{hint}, not a {{action: probability}} mapping"
        )
    extra = set(probs) - set(legal)
    if extra:
        raise InvalidArgumentError(f"{where}: probabilities for actions that are not legal: {sorted(extra)}")
    weights = [float(probs.get(a, 0.0)) for a in legal]
    if any(not np.isfinite(w) or w < 0 for w in weights) or sum(weights) <= 0:
        raise InvalidArgumentError(f"{where}: the probabilities must be finite, >= 0 and not all zero")
    total = sum(weights)
    return [w / total for w in weights]


#: What ``exploitability`` measures (see there).
PolicyLike = Any


#: Told how far a policy has been asked: ``progress(done, total)`` information sets.
Progress = Callable[[int, int], None]


def tree_policy(
    game: GameProtocol | str,
    policy: PolicyLike,
    max_histories: int = DEFAULT_MAX_HISTORIES,
    progress: Progress | None = None,
) -> npt.NDArray[np.float64]:
    """``policy`` (see ``exploitability``) as one probability per information set and legal
    action of ``game``'s tree, in the tree's order. An agent or function is asked once per
    information set, and ``progress(done, total)`` (when given) is called after each."""
    game = game_of(game)
    tree = game_tree(game, max_histories)
    if isinstance(policy, np.ndarray):
        if policy.shape != (len(tree.information_sets()[3]),):
            raise InvalidArgumentError(
                f"an array policy has one probability per information set and legal action of the tree, "
                f"{len(tree.information_sets()[3])}, not an array of shape {policy.shape}"
            )
        return policy.astype(np.float64)
    if isinstance(policy, str):
        raise InvalidArgumentError(
            f"{policy!r} is a name: regalia.exact.exploitability makes a built-in agent from its name "
            "(regalia.theory sits below the agents); here pass the agent itself"
        )
    if isinstance(policy, TablePolicy):
        if len(policy.keys) == 0:
            raise InvalidArgumentError(
                "the policy's table is empty (its run learnt nothing: no iteration ended), so it would be "
                "measured as uniform play; to measure uniform play, pass regalia.exact.uniform"
            )
        if _seeded_for(policy, game):
            return engine.tree_seeded_table_policy(
                tree, policy.keys, policy.counts, policy.actions, policy.probabilities
            )
        policy.check_game(game.name, dict(game.options))
        return tree.table_policy(policy.keys, policy.counts, policy.actions, policy.probabilities)
    keys, _, counts, actions = tree.information_sets()
    out = np.empty(len(actions), dtype=np.float64)
    starts = np.concatenate([[0], np.cumsum(counts, dtype=np.int64)])
    if isinstance(policy, Mapping):
        for i, key in enumerate(keys):
            legal = [int(a) for a in actions[starts[i] : starts[i + 1]]]
            stored = policy.get(int(key))
            probs = _normalised(stored, legal, f"key {int(key)}") if stored else [1.0 / len(legal)] * len(legal)
            out[starts[i] : starts[i + 1]] = probs
        return out
    ask = policy.action_probabilities if isinstance(policy, ProbabilisticAgent) else policy
    if not callable(ask):
        raise InvalidArgumentError(
            "a policy must be a regalia.theory.cfr.Policy, a {key: {action: probability}} table, an agent "
            f"with action_probabilities(view) or a function of a view, not {type(policy).__name__}"
        )
    core = _core_game(game)
    if not getattr(policy, "adaptive", False):
        return _asked_lazily(tree, core, ask, progress)
    name, options = core.name, dict(core.options)
    histories = [tree.history(i) for i in range(len(keys))]
    minds = _Minds(policy, name, options)
    walk = _Walk(core.new_state(0))
    # An adaptive agent is asked along the tree, the histories in order so that each shares
    # the longest prefix with the last.
    for done, i in enumerate(sorted(range(len(keys)), key=histories.__getitem__)):
        walk.to(histories[i])
        state = walk.states[-1]
        seat = int(state.current_player)
        view = view_of(state, seat, name, options, world_seed=i)
        legal = [int(a) for a in actions[starts[i] : starts[i + 1]]]
        ask = minds.at(walk, seat).action_probabilities
        out[starts[i] : starts[i + 1]] = _normalised(ask(view), legal, f"information set {i}")
        if progress is not None:
            progress(done + 1, len(keys))
    return out


def _asked_lazily(
    tree: engine.GameTree, core: Any, ask: Callable[[View], Any], progress: Progress | None
) -> npt.NDArray[np.float64]:
    """A non-adaptive policy ``ask`` asked at each information set of ``tree`` in order, with a
    ``TreeView`` (no replay unless it reads what needs a state). Exactly ``_normalised``'s
    numbers, at less cost per set: the weights of a dict over exactly the legal actions are
    gathered in one flat list with their set's sum, then checked and divided in one pass at
    the end; any other answer goes through ``_normalised`` at once."""
    _, seat_of, counts, actions = tree.information_sets()
    flat, seats, sizes = actions.tolist(), seat_of.tolist(), counts.tolist()
    name, options, total = core.name, dict(core.options), len(sizes)
    replayer = Replayer(core, tree)
    weights: list[Any] = []
    sums: list[Any] = []
    normalised: list[int] = []  # the sets _normalised answered for (their sums are 1.0)
    extend, append = weights.extend, sums.append
    start = 0
    for i, size in enumerate(sizes):
        end = start + size
        probs = ask(TreeView(name, options, seats[i], flat[start:end], (replayer, i)))
        try:
            if type(probs) is not dict or len(probs) != size:
                raise TypeError
            these = list(map(probs.__getitem__, flat[start:end]))
            added = sum(these)
        except (TypeError, KeyError):
            these, added = _normalised(probs, flat[start:end], f"information set {i}"), 1.0
            normalised.append(i)
        extend(these)
        append(added)
        start = end
        if progress is not None:
            progress(i + 1, total)
    if not total:
        return np.empty(0, dtype=np.float64)
    if not set(map(type, weights)) <= {float}:
        # Sums of anything but floats (ints, numpy scalars) are redone as _normalised does them.
        weights = [float(w) for w in weights]
        bounds = np.concatenate([[0], np.cumsum(counts, dtype=np.int64)]).tolist()
        sums = [sum(weights[bounds[i] : bounds[i + 1]]) for i in range(total)]
        for i in normalised:
            sums[i] = 1.0
    return _divided(np.array(weights, dtype=np.float64), np.array(sums, dtype=np.float64), counts)


def _divided(
    weights: npt.NDArray[np.float64], sums: npt.NDArray[np.float64], counts: npt.NDArray[np.uint16]
) -> npt.NDArray[np.float64]:
    """``weights`` divided by their set's sum (``counts`` weights a set, at least one set), or
    ``InvalidArgumentError`` naming the first set whose weights are no distribution."""
    bad = ~np.isfinite(weights) | (weights < 0)
    starts = np.concatenate([[0], np.cumsum(counts[:-1], dtype=np.int64)])
    refused = np.logical_or.reduceat(bad, starts) | ~(sums > 0)
    if refused.any():
        i = int(np.argmax(refused))
        raise InvalidArgumentError(f"information set {i}: the probabilities must be finite, >= 0 and not all zero")
    divided: npt.NDArray[np.float64] = weights / np.repeat(sums, counts)
    return divided


class _Walk:
    """One path down the tree from ``root``: ``states[d]`` is the state after the path's first
    ``d`` moves. Moving it to another history keeps the prefix they share and replays only
    the rest."""

    def __init__(self, root: Any) -> None:
        self.path: list[int] = []
        self.states = [root]

    def to(self, history: list[int]) -> None:
        """Moves the path to ``history``."""
        keep = _shared(self.path, history)
        del self.path[keep:], self.states[keep + 1 :]
        for a in history[keep:]:
            state = self.states[-1].clone()
            state.apply(a)
            self.path.append(a)
            self.states.append(state)


class _Minds:
    """An adaptive agent's memory along a ``_Walk``, for each seat: ``game_start``, then at each
    of the seat's decisions on the path ``observe(view)`` where it has one, else ``act(view)``
    (what it chose is not played: the path's move is), as a match would show it. The memory at
    each depth is kept, copied only where the seat was shown something, so the next history
    goes on from the prefix it shares with the path instead of replaying from the root. A view
    shown on the way samples its world from the seat's information state there
    (``world_seed``), so what the agent remembers depends only on what its seat saw."""

    def __init__(self, agent: Any, name: str, options: dict[str, Any]) -> None:
        self.pristine = copy.deepcopy(agent)
        self.name, self.options = name, options
        self.by_seat: dict[int, tuple[list[int], list[Any]]] = {}

    def _view(self, state: StateProtocol, seat: int, ply: int) -> View:
        seed = derive_seed(int(engine.information_state_key(state, seat)), ply)
        return view_of(state, seat, self.name, self.options, world_seed=seed)

    def at(self, walk: _Walk, seat: int) -> Any:
        """A copy of ``seat``'s agent that has been shown the path's moves."""
        path, memory = self.by_seat.setdefault(seat, ([], []))
        if not memory:
            first = copy.deepcopy(self.pristine)
            start = getattr(first, "game_start", None)
            if callable(start):
                start(self._view(walk.states[0], seat, 0))
            memory.append(first)
        keep = _shared(path, walk.path)
        del path[keep:], memory[keep + 1 :]
        for ply in range(keep, len(walk.path)):
            state, mind = walk.states[ply], memory[-1]
            if not state.is_chance_node and state.current_player == seat:
                mind = copy.deepcopy(mind)
                shown = getattr(mind, "observe", None)
                (shown if callable(shown) else mind.act)(self._view(state, seat, ply + 1))
            path.append(walk.path[ply])
            memory.append(mind)
        return copy.deepcopy(memory[-1])


def _shared(a: list[int], b: list[int]) -> int:
    """How many first moves ``a`` and ``b`` share."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _seeded_for(policy: Any, game: GameProtocol) -> bool:
    """Whether ``policy`` was computed on the seeded mode of ``game`` (made with explicit
    chance, its options otherwise the same): then it is looked up by the keys the seeded game
    gives each information set (``regalia._core.tree_seeded_keys``)."""
    theirs = getattr(policy, "options", None)
    mine = dict(game.options)
    if not isinstance(theirs, Mapping) or mine.get("chance") != "explicit" or theirs.get("chance") == "explicit":
        return False
    if getattr(policy, "game", None) != game.name:
        return False
    rest = {k: v for k, v in theirs.items() if k != "chance"}
    return rest == {k: v for k, v in mine.items() if k != "chance"}


def exploitability(
    game: GameProtocol | str,
    policy: PolicyLike,
    max_histories: int = DEFAULT_MAX_HISTORIES,
    progress: Progress | None = None,
) -> Exploitability:
    """The exact exploitability of ``policy`` in ``game`` (either backend, made with
    ``chance="explicit"``, whose tree has at most ``max_histories`` histories, or a benchmark's
    name: ``regalia.theory.benchmarks``), computed in Rust. ``policy`` is a
    ``regalia.theory.cfr.Policy`` (uniform where it never met an information set, as the
    ``cfr`` agent plays), a table ``{key: {action: probability}}`` keyed by
    ``regalia.theory.cfr.information_state_key`` (uniform where a key is missing), an agent with
    ``action_probabilities(view)``, an array aligned with the tree (``tree_policy``'s, so that
    a slow agent is asked once for several measurements), or a function of an agent's ``View`` giving
    ``{action: probability}`` (asked once per information set, with a view of one of its
    states, built lazily for a policy that is not adaptive: it sees only what that seat sees;
    ``progress(done, total)`` is told after each)."""
    game = game_of(game)
    tree = game_tree(game, max_histories)
    worth = tree.exploitability(tree_policy(game, policy, max_histories, progress))
    return Exploitability(
        exploitability=float(worth["exploitability"]),
        nash_conv=float(worth["nash_conv"]),
        best_response_values=[float(v) for v in worth["best_response_values"]],
        policy_values=[float(v) for v in worth["policy_values"]],
    )


def table_of(tree: engine.GameTree, aligned: npt.NDArray[np.float64]) -> tuple[Any, Any, Any, Any]:
    """A tree-aligned policy as a table, keys ascending: ``(keys, counts, actions,
    probabilities)`` as uint64, uint16, uint16 and float32 arrays (``Policy``'s)."""
    keys, _, counts, actions = tree.information_sets()
    starts = np.concatenate([[0], np.cumsum(counts, dtype=np.int64)])
    order = np.argsort(keys, kind="stable")
    index = np.concatenate([np.arange(starts[i], starts[i + 1]) for i in order]) if len(order) else np.array([], int)
    return (
        keys[order].astype(np.uint64),
        counts[order].astype(np.uint16),
        actions[index].astype(np.uint16),
        aligned[index].astype(np.float32),
    )
