"""ISMCTS in Rust as an agent: it searches worlds sampled from what its seat knows."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from regalia import _core
from regalia.agents.base import View
from regalia.errors import InvalidArgumentError

if TYPE_CHECKING:
    from regalia.kinds import Rollout


class IsmctsAgent:
    """Information-set Monte Carlo tree search (``State.ismcts``, run natively, GIL released).

    Each move searches ``iterations`` sampled worlds (fewer if ``time_limit`` seconds run out
    first; without a time limit the agent is deterministic for its seed) with UCT exploration
    constant ``exploration``. Rollouts finish each sampled game with the game's cheap
    heuristic mixed with random moves (``rollout="heuristic"``) or uniformly at random
    (``"random"``). Works on either backend: a reference world is searched by the Rust engine
    through its saved form.
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        iterations: int = 1000,
        exploration: float = 1.0,
        time_limit: float | None = None,
        rollout: Rollout = "heuristic",
    ) -> None:
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise InvalidArgumentError(f"iterations must be an int >= 1, got {iterations!r}")
        self.iterations = iterations
        self.exploration = float(exploration)
        self.time_limit = time_limit
        if rollout not in _core.ROLLOUTS:
            kinds = " or ".join(repr(r) for r in _core.ROLLOUTS)
            raise InvalidArgumentError(f"rollout must be {kinds}, got {rollout!r}")
        self.rollout: Rollout = rollout
        self._rng = random.Random(seed)

    def act(self, view: View) -> int:
        """The action the search visits most from a world sampled for this seat (the only
        legal action at once, without a search)."""
        if len(view.legal_actions) == 1:
            return view.legal_actions[0]
        world: Any = view.sample_world(self._rng.getrandbits(64))
        if not hasattr(world, "ismcts"):
            import regalia

            world = regalia.load_state(world.to_json())
        action: int = world.ismcts(
            iterations=self.iterations,
            exploration=self.exploration,
            seed=self._rng.getrandbits(64),
            time_limit=self.time_limit,
            rollout=self.rollout,
        )
        return action
