"""The workloads every benchmark times, shared by the pytest-benchmark files and ``report.py``.

A *step* is one decision by one player (one ``apply``). OpenSpiel's chance events are not
counted as steps (Regalia's randomness lives inside its states), but their cost is timed;
a simultaneous OpenSpiel move of ``n`` players counts as ``n`` steps.
"""

from __future__ import annotations

import random
from typing import Any

import regalia

#: Every registered game, in the order ``regalia.games()`` lists them.
GAMES: list[str] = [g["name"] for g in regalia.games()]

#: Options every benchmark plays a game with (the defaults otherwise): Duo's rulebook game
#: runs to the target, which random players rarely reach (thousands of steps to the
#: stalemate guard), so its benchmarks play single rounds, like the OpenSpiel game beside it.
BENCH_OPTIONS: dict[str, dict[str, Any]] = {"duo": {"rounds": 1}}


def make(name: str, backend: str = "rust") -> Any:
    """The game ``name`` as every benchmark plays it (with :data:`BENCH_OPTIONS`)."""
    return regalia.make(name, backend=backend, **BENCH_OPTIONS.get(name, {}))  # type: ignore[arg-type]


#: Games per round of the Python-loop playouts (the same seeds for every implementation).
LOOP_GAMES = 8
#: Games per round of the native playouts.
NATIVE_GAMES = 400
#: Games per round of the reference's own playout loop.
REFERENCE_NATIVE_GAMES = 8
#: VectorEnv batch sizes, threads, and steps per round.
VECTOR_SIZES = (64, 1024, 8192)
VECTOR_THREADS = (1, 2)
VECTOR_STEPS = 20


def default_players(name: str) -> int:
    """The default value of a game's ``players`` option."""
    info = next(g for g in regalia.games() if g["name"] == name)
    return int(next(o["default"] for o in info["options"] if o["name"] == "players"))


def openspiel_pair(name: str) -> str | None:
    """The OpenSpiel game measured next to ``name`` (the closest one), if any."""
    if name == "duo-regna":
        return "goofspiel(num_cards=13)"
    if name == "duo":
        return f"crazy_eights(players={default_players(name)})"
    return None


def python_loop(game: Any, seeds: range) -> int:
    """Random games through the Python API (``legal_actions`` / ``apply``); returns the steps.

    Works on both backends, which play the very same games from the same seeds."""
    steps = 0
    for seed in seeds:
        pick = random.Random(seed)
        state = game.new_state(seed)
        while not state.is_terminal:
            state.apply(pick.choice(state.legal_actions()))
            steps += 1
    return steps


class NullState:
    """A state whose calls do nothing and cost next to nothing (C builtins): what the Python
    loop costs with no game behind it."""

    __slots__ = ("apply", "legal_actions")

    def __init__(self, legal: list[int]) -> None:
        self.legal_actions = legal.copy
        self.apply = set().discard


def python_loop_floor(game: Any, seeds: range) -> tuple[list[tuple[list[int], int]], int]:
    """The work of :func:`run_floor` for the games of :func:`python_loop`: each game's first
    legal actions and its number of steps; and the steps in all."""
    plan = [(game.new_state(seed).legal_actions(), len(recorded_game(game, seed))) for seed in seeds]
    return plan, sum(n for _, n in plan)


def run_floor(plan: list[tuple[list[int], int]]) -> int:
    """The loop of :func:`python_loop`, as many steps, over a :class:`NullState`: the fastest
    any binding could make that loop (``random.choice`` and two calls a step); the steps."""
    steps = 0
    for seed, (legal, length) in enumerate(plan):
        pick = random.Random(seed)
        state = NullState(legal)
        for _ in range(length):
            state.apply(pick.choice(state.legal_actions()))
            steps += 1
    return steps


def mid_game_state(game: Any, seed: int = 1, steps: int = 12) -> Any:
    """A state a few random steps into a game (not over), for the per-call benchmarks."""
    pick = random.Random(seed)
    state = game.new_state(seed)
    for _ in range(steps):
        after = state.clone()
        after.apply(pick.choice(after.legal_actions()))
        if after.is_terminal:
            break
        state = after
    return state


def recorded_game(game: Any, seed: int) -> list[int]:
    """The actions of one random game."""
    pick = random.Random(seed)
    state = game.new_state(seed)
    while not state.is_terminal:
        state.apply(pick.choice(state.legal_actions()))
    return list(state.history())


def replay(game: Any, seed: int, actions: list[int]) -> None:
    """Applies a recorded game's actions to a new state (times ``apply``)."""
    state = game.new_state(seed)
    for a in actions:
        state.apply(a)


class VectorWorkload:
    """Steps a ``VectorEnv`` with a uniformly random legal action per game, drawn by the env
    itself (``sample_actions``, in Rust on the same threads). Without ``copy`` the env writes
    the same arrays every step (no allocation)."""

    def __init__(self, name: str, num_envs: int, threads: int, copy: bool = False) -> None:
        self.env = regalia.VectorEnv(make(name), num_envs, seed=0, threads=threads, copy=copy)
        self.env.reset()
        # As many steps as a game lasts on average: the games are then spread over every
        # phase and restart all the time (a fresh batch is all in its cheap opening moves).
        playouts = self.env.game.random_playouts(64, seed=0)
        self.run(round(playouts["steps"] / playouts["games"]))

    def run(self, steps: int) -> int:
        """Plays ``steps`` steps in every game; returns the steps played in all."""
        for _ in range(steps):
            self.env.step(self.env.sample_actions())
        return steps * self.env.num_envs


def openspiel_python_loop(game: Any, seeds: range) -> int:
    """Random OpenSpiel games through its Python API; returns the decisions made."""
    steps = 0
    n = game.num_players()
    for seed in seeds:
        pick = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(pick.choices(outcomes, probs)[0])
            elif state.is_simultaneous_node():
                state.apply_actions([pick.choice(state.legal_actions(p)) for p in range(n)])
                steps += n
            else:
                state.apply_action(pick.choice(state.legal_actions()))
                steps += 1
    return steps


def openspiel_cpp_loop(pyspiel: Any, game: Any, seeds: range) -> int:
    """Random OpenSpiel games played by its C++ loop (``evaluate_bots`` with uniform random
    bots, one call per game); returns the games played."""
    bots = [pyspiel.make_uniform_random_bot(p, 1000 + p) for p in range(game.num_players())]
    for seed in seeds:
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
    return len(seeds)
