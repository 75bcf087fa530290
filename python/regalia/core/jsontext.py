"""Reading JSON text from outside (saved games, match records, options) as the engine reads
it: nesting deeper than :data:`MAX_DEPTH` arrays and objects is refused, like any other
malformed text, with a ``RegaliaError`` of the caller's choosing, never a ``RecursionError``."""

from __future__ import annotations

import json
from typing import Any

from regalia.core.errors import RegaliaError

__all__ = ["MAX_DEPTH", "depth", "loads", "too_deep"]

#: The deepest nesting of arrays and objects accepted (the engine's JSON reader's limit).
MAX_DEPTH = 127


def depth(value: Any) -> int:
    """How deeply arrays and objects nest in ``value`` (0 for a scalar), computed without
    recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict):
            children: Any = v.values()
        elif isinstance(v, (list, tuple)):
            children = v
        else:
            continue
        deepest = max(deepest, d + 1)
        if deepest > MAX_DEPTH:
            break
        stack.extend((c, d + 1) for c in children)
    return deepest


def too_deep(value: Any) -> bool:
    """Whether arrays and objects nest in ``value`` deeper than :data:`MAX_DEPTH`."""
    return depth(value) > MAX_DEPTH


def loads(text: str | bytes, error: type[RegaliaError]) -> Any:
    """The JSON value of ``text``; malformed or too deeply nested text raises ``error``
    (``"not valid JSON: ..."``)."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise error(f"not valid JSON: nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as e:
        raise error(f"not valid JSON: {e}") from None
    if too_deep(value):
        raise error(f"not valid JSON: nested more than {MAX_DEPTH} levels deep")
    return value
