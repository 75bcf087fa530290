"""The Gymnasium vector environment over the native batch.

The public path of :mod:`regalia.envs.gymnasium_vector`, where the code lives.
"""

from regalia.envs.gymnasium_vector import *  # noqa: F403  (its public names, as its __all__ lists them)
from regalia.envs.gymnasium_vector import __all__ as __all__
