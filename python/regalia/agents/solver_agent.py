"""The Duo Regna solver as an agent: it samples its card from the equilibrium strategy, or,
with ``exploit``, from the equilibrium moved safely towards the best response to the
opponent it has seen (``regalia.agents.duo_regna_model``)."""

from __future__ import annotations

import copy
import random

from regalia.agents import duo_regna_model
from regalia.core.errors import InvalidArgumentError
from regalia.core.view import View
from regalia.theory import solver


class SolverAgent:
    """Plays Duo Regna's equilibrium (``regalia.theory.solver``): at every round it draws its card
    from the equilibrium mixed strategy of the public state, with its own generator seeded by
    ``seed`` (reproducible). No strategy wins more than half the games against it on average
    (up to the measured exploitability, see docs/agents.md). Other games raise
    ``InvalidArgumentError`` naming the games it plays.

    With ``exploit=True`` it watches the opponent's reveals during a game, weighs a few
    kinds of player against them and leaves the equilibrium towards the best response to
    what it predicts only as far as her mistakes so far pay for (see "Exploiting safely" in
    docs/agents.md): still never below the game's value on average, whoever she is.
    """

    name = "solver"
    #: The games it plays (``regalia.theory.solver.SUPPORTED_GAMES``).
    games: tuple[str, ...] | None = tuple(solver.SUPPORTED_GAMES)

    def __init__(self, seed: int | None = None, exploit: bool = False) -> None:
        self._rng = random.Random(seed)
        self.exploit = bool(exploit)
        self.memory = duo_regna_model.Memory()

    @property
    def adaptive(self) -> bool:
        """Whether its choices depend on what it saw earlier in the game (with ``exploit``)."""
        return self.exploit

    def action_probabilities(self, view: View) -> dict[int, float]:
        """The mixed strategy it draws its card from here, exactly: the equilibrium's, or
        with ``exploit`` the safe response to what it remembers (its memory is left as it
        is)."""
        self._check(view)
        if self.exploit:
            return duo_regna_model.distribution(view, copy.deepcopy(self._memory_for(view)))
        strategy, _ = solver.policy(view.sample_world(0))
        return {a: float(strategy.get(a, 0.0)) for a in view.legal_actions}

    def _memory_for(self, view: View) -> duo_regna_model.Memory:
        """Its memory, forgotten first when the view is of a new game."""
        last = self.memory.last
        if last is not None and view.observation["round"] <= last[0]:  # a new game
            self.memory = duo_regna_model.Memory()
        return self.memory

    def game_start(self, view: View) -> None:
        """Refuses other games at once, loads (or solves, once) the table and forgets the
        last game's opponent."""
        self._check(view)
        solver.table(view.options)
        self.memory = duo_regna_model.Memory()

    def act(self, view: View) -> int:
        """A card drawn from the equilibrium strategy at this state (moved towards the best
        response with ``exploit``)."""
        self._check(view)
        if self.exploit:
            return duo_regna_model.decide(view, self._memory_for(view), self._rng)
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
