"""Pictures of the table.

The public path of :mod:`regalia.views.pictures`, where the code lives.
"""

from regalia.views.pictures import *  # noqa: F403  (its public names, as its __all__ lists them)
from regalia.views.pictures import __all__ as __all__
