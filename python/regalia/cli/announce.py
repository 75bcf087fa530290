"""What one seat may be told about another seat's move.

A move is named to an observer only when the observer could tell it from the board anyway:
when no other legal move of that turn would have left the observer's observation the same.
When every other move would have left it the same (a card chosen in secret), the observer
hears only that the seat moved; in between (a card laid face down where all can see), that
part of it is hidden. This works for every game without a list of secret moves.
"""

from __future__ import annotations

from typing import Any


def describe(state: Any, action: int, observer: int, who: str) -> str:
    """``who`` played ``action``, as ``observer`` may hear it (call before applying it)."""
    if state.current_player == observer:
        return f"{who} played {state.action_name(action)}"
    seen = _after(state, action, observer)
    same = [_after(state, other, observer) == seen for other in state.legal_actions() if other != action]
    if not any(same):
        return f"{who} played {state.action_name(action)}"
    if all(same):
        return f"{who} moved (hidden from you)"
    return f"{who} moved (partly hidden from you: see the board)"


def _after(state: Any, action: int, observer: int) -> dict[str, Any]:
    after = state.clone()
    after.apply(action)
    seen: dict[str, Any] = after.observation(observer)
    return seen
