"""The PettingZoo environments.

The public path of :mod:`regalia.envs.pettingzoo`, where the code lives.
"""

from regalia.envs.pettingzoo import *  # noqa: F403  (its public names, as its __all__ lists them)
from regalia.envs.pettingzoo import __all__ as __all__
