"""The Duo Regna solver as an agent: it samples its card from the equilibrium strategy."""

from __future__ import annotations

import random

from regalia import solver
from regalia.agents.base import View
from regalia.errors import InvalidArgumentError


class SolverAgent:
    """Plays Duo Regna's equilibrium (``regalia.solver``): at every round it draws its card
    from the equilibrium mixed strategy of the public state, with its own generator seeded by
    ``seed`` (reproducible). No strategy wins more than half the games against it on average
    (up to the measured exploitability, see docs/agents.md). Other games raise
    ``InvalidArgumentError`` naming the games it plays.
    """

    name = "solver"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def game_start(self, view: View) -> None:
        """Refuses other games at once, and loads (or solves, once) the table."""
        self._check(view)
        solver.table(view.options)

    def act(self, view: View) -> int:
        """A card drawn from the equilibrium strategy at this state."""
        self._check(view)
        world = view.sample_world(self._rng.getrandbits(64))
        strategy, _ = solver.policy(world)
        actions = sorted(strategy)
        return self._rng.choices(actions, weights=[strategy[a] for a in actions])[0]

    @staticmethod
    def _check(view: View) -> None:
        if view.game not in solver.SUPPORTED_GAMES:
            raise InvalidArgumentError(
                f"the 'solver' agent plays only {', '.join(solver.SUPPORTED_GAMES)}, not {view.game!r}"
            )
