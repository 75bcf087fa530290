"""The exceptions Regalia raises; all are ``ValueError`` subclasses.

Both backends raise these same classes: the Rust extension looks them up here.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "RegaliaError",
    "IllegalActionError",
    "InvalidOptionError",
    "InvalidStateError",
    "InvalidArgumentError",
    "GameTooLargeError",
    "AgentError",
    "ExecutorError",
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


class GameTooLargeError(InvalidArgumentError):
    """A game whose whole tree is too large for an exact method (best response,
    exploitability, CFR+), refused before the work starts. ``estimate`` is the estimated
    number of histories, ``limit`` the limit it exceeds."""

    def __init__(self, message: str, estimate: float | None = None, limit: int | None = None) -> None:
        super().__init__(message)
        self.estimate = estimate
        self.limit = limit

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (str(self), self.estimate, self.limit))


class AgentError(RegaliaError):
    """An agent raised or chose an illegal action during a match. ``seat`` and ``action``
    say who and what; ``record`` is the match record up to that point."""

    def __init__(self, message: str, record: Any = None, seat: int | None = None, action: Any = None) -> None:
        super().__init__(message)
        self.record = record
        self.seat = seat
        self.action = action

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (str(self), self.record, self.seat, self.action))


class ExecutorError(RegaliaError):
    """Where games were to be played could not be used: Ray is not installed, cannot start,
    or no cluster answers at the address given."""
