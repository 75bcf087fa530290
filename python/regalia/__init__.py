"""Regalia: five royal card games with a Rust core, for play, scripting and AI search.

>>> import regalia
>>> game = regalia.make("duo-regna")
>>> state = game.new_state(seed=1)
>>> state.apply(state.legal_actions()[0])

This module is the front door: it only re-exports. The code lives in subpackages, in layers
that import only downward (``docs/developing.md`` draws them): ``core``, ``reference``,
``registry``, ``views``, ``theory``, ``agents``, ``matches``, ``envs``, ``table``, ``cli``.
"""

from __future__ import annotations

from regalia.core.engine import Game, State, VectorEnv
from regalia.core.errors import (
    AgentError,
    ExecutorError,
    GameTooLargeError,
    IllegalActionError,
    InvalidArgumentError,
    InvalidOptionError,
    InvalidStateError,
    RegaliaError,
)
from regalia.core.outcome import Outcome
from regalia.matches.gauntlet import GauntletResult, gauntlet
from regalia.matches.match import play
from regalia.matches.simulations import Simulation, simulate
from regalia.matches.tournaments import TournamentResult, tournament
from regalia.registry import (
    BACKENDS,
    VERSION,
    AnyGame,
    AnyState,
    MatchRecord,
    games,
    load_game,
    load_state,
    make,
    save_game,
)

__version__: str = VERSION

__all__ = [
    "AgentError",
    "AnyGame",
    "AnyState",
    "BACKENDS",
    "ExecutorError",
    "Game",
    "GameTooLargeError",
    "IllegalActionError",
    "InvalidArgumentError",
    "InvalidOptionError",
    "InvalidStateError",
    "MatchRecord",
    "Outcome",
    "GauntletResult",
    "RegaliaError",
    "Simulation",
    "State",
    "VectorEnv",
    "TournamentResult",
    "games",
    "gauntlet",
    "load_game",
    "load_state",
    "make",
    "save_game",
    "play",
    "simulate",
    "tournament",
]
