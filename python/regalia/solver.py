"""The exact Duo Regna solver.

The public path of :mod:`regalia.theory.solver`, where the code lives.
"""

from regalia.theory.solver import *  # noqa: F403  (its public names, as its __all__ lists them)
from regalia.theory.solver import __all__ as __all__
