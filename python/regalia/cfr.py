"""Counterfactual regret minimization and its policies.

The public path of :mod:`regalia.theory.cfr`, where the code lives.
"""

from regalia.theory.cfr import *  # noqa: F403  (its public names, as its __all__ lists them)
from regalia.theory.cfr import __all__ as __all__
