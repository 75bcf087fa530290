"""How likely an agent is to play each legal action (``action_probabilities``), for agents
that choose by drawing from a generator: the distribution of their choice over generators.

Where a choice draws nothing from its generator it is a point mass, exactly. Where it draws
(ties broken at random, worlds sampled, a search's seed), the distribution is estimated from
``samples`` choices, each made with a generator of its own derived from the agent's seed, so
a measurement is reproducible and has the granularity ``1 / samples``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from regalia.core.seeds import derive_seed

__all__ = ["SAMPLES", "Watched", "choice_distribution", "point_mass"]

#: Choices behind an estimated distribution, unless the agent says otherwise (its ``samples``).
SAMPLES = 16


class Watched(random.Random):
    """A generator that remembers whether anything was drawn from it."""

    drew = False

    def random(self) -> float:
        self.drew = True
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        self.drew = True
        return super().getrandbits(k)


def point_mass(action: int) -> dict[int, float]:
    """All the probability on ``action``."""
    return {int(action): 1.0}


def choice_distribution(choose: Callable[[random.Random], int], seed: int | None, samples: int) -> dict[int, float]:
    """The distribution of ``choose(generator)``: a point mass when the first choice draws
    nothing from its generator, else the frequencies of ``samples`` choices, each with a
    generator seeded from ``seed`` and the sample's number."""
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise ValueError(f"samples must be an int >= 1, not {samples!r}")
    base = 0 if seed is None else seed
    first = Watched(derive_seed(base, 0))
    counts = Counter([int(choose(first))])
    if not first.drew:
        return point_mass(next(iter(counts)))
    for k in range(1, samples):
        counts[int(choose(random.Random(derive_seed(base, k))))] += 1
    return {a: n / samples for a, n in sorted(counts.items())}
