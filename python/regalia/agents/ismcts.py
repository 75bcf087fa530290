"""ISMCTS in Rust as an agent: it searches worlds sampled from what its seat knows."""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from regalia.agents.measure import SAMPLES, choice_distribution, point_mass
from regalia.core import engine
from regalia.core.errors import InvalidArgumentError, InvalidOptionError
from regalia.core.view import View

if TYPE_CHECKING:
    from regalia.core.kinds import BeliefModel, OpponentModel, Rollout

#: The most threads one search may use (the engine's limit).
MAX_THREADS = 256
#: The most particles a belief may keep (the engine's limit).
MAX_PARTICLES = 100_000


class IsmctsAgent:
    """Information-set Monte Carlo tree search (``State.ismcts``, run natively, GIL released).

    Each move searches ``iterations`` sampled worlds (fewer if ``time_limit`` seconds run out
    first; without a time limit the agent is deterministic for its seed and ``threads``) with
    UCT exploration constant ``exploration``, on ``threads`` cores at once (root-parallel:
    each thread its own tree for its share of the iterations). Rollouts finish each sampled
    game with the game's cheap heuristic mixed with random moves (``rollout="heuristic"``) or
    uniformly at random (``"random"``). Works on either backend: a reference world is searched
    by the Rust engine through its saved form. Bad options are refused here, before any search.

    ``belief`` (``"uniform"`` or ``"rollout"``; default ``"none"``) draws the searched worlds
    from a particle filter of ``particles`` worlds that followed the game seeing only what
    this seat saw, each opponent decision weighed by that opponent model (see docs/agents.md,
    "Belief-weighted search"). It follows the chance outcomes of the game's history, so it
    plays games made with ``chance="explicit"`` (on the Rust backend) and refuses others
    when the game starts (or at its first decision).

    ``opponents`` is how the search has the other seats choose: ``"search"`` (the default:
    each searches for itself, max-n), ``"rollout"`` (the game's rollout policy, so only this
    seat's choices are searched) or ``"first-legal"`` (the first legal action).

    ``action_probabilities(view)`` is the distribution of the search's final choice at this
    budget over its random seeds (the world sampled, the search's own draws): the frequencies
    of ``samples`` searches (16 unless set), each seeded from the agent's seed and its number,
    so the same agent gives the same answer (see ``regalia.agents.measure``). With a time
    limit the budget depends on the machine, and so does that distribution.
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        iterations: int = 1000,
        exploration: float = 1.0,
        time_limit: float | None = None,
        rollout: Rollout = "heuristic",
        threads: int = 1,
        belief: BeliefModel = "none",
        particles: int = 64,
        opponents: OpponentModel = "search",
    ) -> None:
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise InvalidArgumentError(f"iterations must be an int >= 1, got {iterations!r}")
        if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS:
            raise InvalidArgumentError(f"threads must be an int from 1 to {MAX_THREADS}, got {threads!r}")
        if time_limit is not None and not (
            isinstance(time_limit, (int, float)) and not isinstance(time_limit, bool) and 0 < time_limit < math.inf
        ):
            raise InvalidArgumentError(f"time_limit must be None or a positive number of seconds, got {time_limit!r}")
        if not (isinstance(exploration, (int, float)) and 0 <= exploration < math.inf):
            raise InvalidArgumentError(f"exploration must be a finite number >= 0, got {exploration!r}")
        self.iterations = iterations
        self.exploration = float(exploration)
        self.time_limit = time_limit
        self.threads = threads
        if rollout not in engine.ROLLOUTS:
            kinds = " or ".join(repr(r) for r in engine.ROLLOUTS)
            raise InvalidArgumentError(f"rollout must be {kinds}, got {rollout!r}")
        self.rollout: Rollout = rollout
        if belief not in engine.BELIEFS:
            models = ", ".join(repr(m) for m in engine.BELIEFS)
            raise InvalidOptionError(f"belief must be one of {models}, got {belief!r}")
        if isinstance(particles, bool) or not isinstance(particles, int) or not 1 <= particles <= MAX_PARTICLES:
            raise InvalidOptionError(f"particles must be an int from 1 to {MAX_PARTICLES}, got {particles!r}")
        self.belief: BeliefModel = belief
        self.particles = particles
        if opponents not in engine.OPPONENTS:
            kinds = ", ".join(repr(o) for o in engine.OPPONENTS)
            raise InvalidOptionError(f"opponents must be one of {kinds}, got {opponents!r}")
        self.opponents: OpponentModel = opponents
        self.seed = seed
        self.samples = SAMPLES
        self._rng = random.Random(seed)

    def game_start(self, view: View) -> None:
        """Refuses a game its belief cannot follow (see ``check_game``)."""
        self.check_game(view)

    def check_game(self, view: View) -> None:
        """With a belief, the game must be made with explicit chance: else a clear error."""
        if self.belief != "none" and view.options.get("chance") != "explicit":
            raise InvalidOptionError(
                f"ismcts with belief={self.belief!r} follows the chance outcomes of the game's history: "
                f"make {view.game} with chance='explicit' (or use belief='none')"
            )

    def limit_time(self, seconds: float) -> None:
        """Stops each search after at most ``seconds`` (its own limit, if shorter, stays)."""
        self.time_limit = seconds if self.time_limit is None else min(self.time_limit, seconds)

    def act(self, view: View) -> int:
        """The action the search visits most from a world sampled for this seat (the only
        legal action at once, without a search)."""
        if len(view.legal_actions) == 1:
            return view.legal_actions[0]
        self.check_game(view)
        return self._search(view, self._rng)

    def action_probabilities(self, view: View) -> dict[int, float]:
        """How often the search chooses each legal action at this budget, over ``samples``
        searches with seeds derived from the agent's (a point mass where only one action is
        legal)."""
        if len(view.legal_actions) == 1:
            return point_mass(view.legal_actions[0])
        self.check_game(view)
        return choice_distribution(lambda rng: self._search(view, rng), self.seed, self.samples)

    def _search(self, view: View, rng: random.Random) -> int:
        """One search from a world sampled for this seat, its seeds drawn from ``rng``."""
        sampled = view.sample_world(rng.getrandbits(64))
        # The search runs in the engine: a reference world is carried over by its saved form.
        world = sampled if isinstance(sampled, engine.State) else engine.load_state(sampled.to_json())
        action = world.ismcts(
            iterations=self.iterations,
            exploration=self.exploration,
            seed=rng.getrandbits(64),
            time_limit=self.time_limit,
            rollout=self.rollout,
            threads=self.threads,
            belief=self.belief,
            particles=self.particles,
            opponents=self.opponents,
        )
        return action
