"""A saved CFR policy as an agent (``cfr:policy=PATH``)."""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

from regalia.core.errors import InvalidOptionError
from regalia.theory.cfr import Policy, PolicyPlayer


@lru_cache(maxsize=4)
def _load(path: str, mtime_ns: int) -> Policy:
    """The policy file at ``path`` as it was at ``mtime_ns`` (read once per version)."""
    return Policy.load(path)


class CfrAgent(PolicyPlayer):
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
