"""The one door to the Rust engine: this module alone imports the extension ``regalia._core``
and hands on what the package uses of it. Every other module gets the engine from here, so the
seam between the package and the extension is one file (``tests/test_layers.py`` checks it).
Users may still import ``regalia._core`` itself; its types are in ``regalia/_core.pyi``."""

from __future__ import annotations

from regalia._core import (
    BELIEFS,
    CHANCE_PLAYER,
    OPPONENTS,
    ROLLOUTS,
    CfrPlus,
    DuoRegnaPlanner,
    DuoRegnaSolver,
    Game,
    GameTree,
    Mccfr,
    Opponent,
    Policy,
    State,
    VectorEnv,
    __version__,
    games,
    information_state_key,
    load_state,
    make,
    regine_bet_strength,
    rules_page,
    tree_best_response,
    tree_principal_line,
    tree_seeded_keys,
    tree_seeded_table_policy,
)

__all__ = [
    "BELIEFS",
    "CHANCE_PLAYER",
    "OPPONENTS",
    "ROLLOUTS",
    "CfrPlus",
    "DuoRegnaPlanner",
    "DuoRegnaSolver",
    "Game",
    "GameTree",
    "Mccfr",
    "Opponent",
    "Policy",
    "State",
    "VectorEnv",
    "__version__",
    "games",
    "information_state_key",
    "load_state",
    "make",
    "regine_bet_strength",
    "rules_page",
    "tree_best_response",
    "tree_principal_line",
    "tree_seeded_keys",
    "tree_seeded_table_policy",
]
