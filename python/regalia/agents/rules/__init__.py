"""Rule-based players: one simple, sensible policy per game, chosen by the view's game."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

from regalia.agents.measure import SAMPLES, choice_distribution
from regalia.agents.rules import duell_der_drachen, duo, duo_regna, regine, regnum
from regalia.core.errors import InvalidOptionError
from regalia.core.view import View

#: A policy: the view, the agent's generator (for ties) and the agent's memory of the game so
#: far (a dict the policy may fill; empty at the start of each game) to an action.
Policy = Callable[[View, random.Random, dict[str, Any]], int]

#: The rule-based policy of each game, by game id.
POLICIES: dict[str, Policy] = {
    "duo-regna": duo_regna.policy,
    "duell-der-drachen": duell_der_drachen.policy,
    "duo": duo.policy,
    "regine": regine.policy,
    "regnum": regnum.policy,
}


class RulesAgent:
    """Plays the rule-based policy of whatever game it is given (see ``POLICIES``).

    It remembers what it saw during a game (``adaptive``): measured exactly, it is the
    behaviour strategy it plays over its own information states, its memory rebuilt by
    replaying the game to each (``regalia.theory.tree``). ``action_probabilities(view)`` is a
    point mass where the policy draws nothing at random, else the frequencies of ``samples``
    choices (16 unless set) with generators seeded from the agent's seed
    (``regalia.agents.measure``)."""

    name = "rules"
    #: The games it plays: those with a policy.
    games: tuple[str, ...] | None = tuple(POLICIES)
    #: Its choices depend on what it saw earlier in the game.
    adaptive = True

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.samples = SAMPLES
        self._rng = random.Random(seed)
        self._memory: dict[str, Any] = {}

    def game_start(self, view: View) -> None:
        """Forgets the last game."""
        self._memory.clear()

    def act(self, view: View) -> int:
        """The policy's choice."""
        return _policy_of(view)(view, self._rng, self._memory)

    def action_probabilities(self, view: View) -> dict[int, float]:
        """How likely the policy is to choose each legal action with what it remembers now
        (its memory is left as it is)."""
        policy = _policy_of(view)
        return choice_distribution(lambda rng: policy(view, rng, copy.deepcopy(self._memory)), self.seed, self.samples)


def _policy_of(view: View) -> Policy:
    """The rule-based policy of the view's game, or ``InvalidOptionError``."""
    try:
        return POLICIES[view.game]
    except KeyError:
        raise InvalidOptionError(
            f"no rule-based player for {view.game!r} yet; games with one: {', '.join(POLICIES)}"
        ) from None
