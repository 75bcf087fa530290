"""A saved CFR policy as an agent (``cfr:policy=PATH``)."""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

from regalia.core.errors import InvalidOptionError
from regalia.core.view import View
from regalia.theory.cfr import Policy


@lru_cache(maxsize=4)
def _load(path: str, mtime_ns: int) -> Policy:
    """The policy file at ``path`` as it was at ``mtime_ns`` (read once per version)."""
    return Policy.load(path)


class CfrAgent:
    """Plays a policy saved by ``regalia.theory.cfr`` (``Policy.save``): at each decision it draws
    its action from the policy's strategy at its information set, with its own generator
    seeded by ``seed``. At an information set the policy never met it plays uniformly at
    random over the legal actions: the strategy CFR gives every information set before it
    has learnt anything there, so the agent plays exactly the saved average strategy.
    A policy for another game or other options is refused when the game starts
    (``PolicyFileError``)."""

    name = "cfr"

    def __init__(self, seed: int | None = None, policy: str | None = None) -> None:
        if not policy:
            raise InvalidOptionError("the 'cfr' agent needs a policy file: cfr:policy=PATH")
        path = Path(str(policy))
        mtime = path.stat().st_mtime_ns if path.exists() else 0
        self.policy = _load(str(path), mtime)
        self._rng = random.Random(seed)

    def game_start(self, view: View) -> None:
        """Refuses a game the policy was not computed for."""
        self.policy.check_game(view.game, dict(view.options))

    def action_probabilities(self, view: View) -> dict[int, float]:
        """How likely each legal action is (what ``regalia.theory.exact.exploitability`` measures)."""
        return self.policy.action_probabilities(view)

    def act(self, view: View) -> int:
        """An action drawn from the policy at this information set."""
        probs = self.action_probabilities(view)
        actions = list(probs)
        return self._rng.choices(actions, weights=[probs[a] for a in actions])[0]
