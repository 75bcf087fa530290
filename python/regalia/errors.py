"""The exceptions Regalia raises.

The public path of :mod:`regalia.core.errors`, where the code lives.
"""

from regalia.core.errors import *  # noqa: F403  (its public names, as its __all__ lists them)
from regalia.core.errors import __all__ as __all__
