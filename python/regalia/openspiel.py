"""The games as OpenSpiel games (``pyspiel``).

The public path of :mod:`regalia.envs.openspiel`, where the code lives.
"""

from regalia.envs.openspiel import *  # noqa: F403  (its public names, as its __all__ lists them)
from regalia.envs.openspiel import __all__ as __all__
