"""Training with Stable-Baselines3 on the native batch.

The public path of :mod:`regalia.envs.sb3`, where the code lives.
"""

from regalia.envs.sb3 import *  # noqa: F403  (its public names, as its __all__ lists them)
from regalia.envs.sb3 import __all__ as __all__
