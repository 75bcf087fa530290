"""The exceptions Regalia raises; all are ``ValueError`` subclasses.

Both backends raise these same classes: the Rust extension looks them up here.
"""

from __future__ import annotations

__all__ = [
    "RegaliaError",
    "IllegalActionError",
    "InvalidOptionError",
    "InvalidStateError",
    "InvalidArgumentError",
]


class RegaliaError(ValueError):
    """Base class of every error Regalia raises on bad input."""


class IllegalActionError(RegaliaError):
    """An action that is not legal now, out of range, or not an int; the state is unchanged."""


class InvalidOptionError(RegaliaError):
    """An unknown game, backend or option, or an option value out of range."""


class InvalidStateError(RegaliaError):
    """A saved state that is malformed, tampered with, or of another game or version."""


class InvalidArgumentError(RegaliaError):
    """A bad argument: a seat or seed out of range, a wrong output buffer."""
