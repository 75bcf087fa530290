"""Rule-based players: one simple, sensible policy per game, chosen by the view's game."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

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
    """Plays the rule-based policy of whatever game it is given (see ``POLICIES``)."""

    name = "rules"
    #: The games it plays: those with a policy.
    games: tuple[str, ...] | None = tuple(POLICIES)

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)
        self._memory: dict[str, Any] = {}

    def game_start(self, view: View) -> None:
        """Forgets the last game."""
        self._memory.clear()

    def act(self, view: View) -> int:
        """The policy's choice."""
        try:
            policy = POLICIES[view.game]
        except KeyError:
            raise InvalidOptionError(
                f"no rule-based player for {view.game!r} yet; games with one: {', '.join(POLICIES)}"
            ) from None
        return policy(view, self._rng, self._memory)
