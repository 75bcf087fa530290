"""The baseline: a uniformly random legal action."""

from __future__ import annotations

import random

from regalia.core.view import View


class RandomAgent:
    """Plays a uniformly random legal action, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def act(self, view: View) -> int:
        """A random legal action."""
        return self._rng.choice(view.legal_actions)
