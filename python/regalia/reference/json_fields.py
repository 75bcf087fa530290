"""Readers for the fields of a saved state's JSON, shared by every game's ``state_from_json``:
each returns the value when it has the expected type and range, and raises ``ValueError``
saying what was expected otherwise."""

from __future__ import annotations

from typing import Any


def uint(v: Any, hi: int = 255) -> int:
    """An integer from 0 to ``hi``."""
    if type(v) is not int or not 0 <= v <= hi:
        raise ValueError(f"expected an integer from 0 to {hi}, got {v!r}")
    return v


def int32(v: Any) -> int:
    """A signed 32-bit integer."""
    if type(v) is not int or not -(2**31) <= v < 2**31:
        raise ValueError(f"expected a 32-bit integer, got {v!r}")
    return v


def flag(v: Any) -> bool:
    """A bool."""
    if type(v) is not bool:
        raise ValueError(f"expected a bool, got {v!r}")
    return v


def items(v: Any, n: int) -> list[Any]:
    """A list of exactly ``n`` items (not checked further)."""
    if not isinstance(v, list) or len(v) != n:
        raise ValueError(f"expected a list of {n} items")
    return v


def optional_uint(v: Any, hi: int = 255) -> int | None:
    """``None`` or an integer from 0 to ``hi``."""
    return None if v is None else uint(v, hi)


def uint_list(v: Any, n: int, hi: int = 255) -> list[int]:
    """A list of ``n`` integers from 0 to ``hi``."""
    return [uint(x, hi) for x in items(v, n)]


def optional_uint_list(v: Any, n: int, hi: int = 255) -> list[int | None]:
    """A list of ``n`` entries, each ``None`` or an integer from 0 to ``hi``."""
    return [optional_uint(x, hi) for x in items(v, n)]


def uint_grid(v: Any, rows: int, cols: int, hi: int = 255) -> list[list[int]]:
    """``rows`` lists of ``cols`` integers from 0 to ``hi``."""
    return [uint_list(r, cols, hi) for r in items(v, rows)]
