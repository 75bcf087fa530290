"""Exact best responses and exploitability on small variants.

The public path of :mod:`regalia.theory.exact`, where the code lives.
"""

from regalia.theory.exact import *  # noqa: F403  (its public names, as its __all__ lists them)
from regalia.theory.exact import __all__ as __all__
