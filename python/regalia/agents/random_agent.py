"""The baseline: a uniformly random legal action."""

from __future__ import annotations

import random

from regalia.core.view import View


class RandomAgent:
    """Plays a uniformly random legal action, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def action_probabilities(self, view: View) -> dict[int, float]:
        """Every legal action equally likely."""
        return dict.fromkeys(view.legal_actions, 1.0 / len(view.legal_actions))

    def act(self, view: View) -> int:
        """A random legal action."""
        return self._rng.choice(view.legal_actions)
