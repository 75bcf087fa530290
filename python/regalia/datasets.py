"""Trajectory datasets.

The public path of :mod:`regalia.matches.datasets`, where the code lives.
"""

from regalia.matches.datasets import *  # noqa: F403  (its public names, as its __all__ lists them)
from regalia.matches.datasets import __all__ as __all__
