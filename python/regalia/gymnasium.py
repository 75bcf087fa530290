"""The Gymnasium environments (and their ids, ``regalia/<game>-v0``).

The public path of :mod:`regalia.envs.gymnasium`, where the code lives.
"""

from regalia.envs.gymnasium import *  # noqa: F403  (its public names, as its __all__ lists them)
from regalia.envs.gymnasium import __all__ as __all__
