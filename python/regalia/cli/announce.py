"""What one seat may be told about another seat's move.

A move is named to an observer only when the observer could tell it from the board anyway:
when no other legal move of that turn would have left the observer's observation the same.
Otherwise (a card chosen in secret, a card drawn face down) the observer only hears that
the seat moved. This works for every game without a list of secret moves.
"""

from __future__ import annotations

from typing import Any


def is_visible(state: Any, action: int, observer: int) -> bool:
    """Whether ``observer`` can tell ``action`` (about to be played in ``state``) from the
    other legal moves by the observation it leaves."""
    if state.current_player == observer:
        return True
    seen = _after(state, action, observer)
    return all(_after(state, other, observer) != seen for other in state.legal_actions() if other != action)


def describe(state: Any, action: int, observer: int, who: str) -> str:
    """``who`` played the move, as ``observer`` may hear it (call before applying it)."""
    if is_visible(state, action, observer):
        return f"{who} played {state.action_name(action)}"
    return f"{who} moved (hidden from you)"


def _after(state: Any, action: int, observer: int) -> dict[str, Any]:
    after = state.clone()
    after.apply(action)
    seen: dict[str, Any] = after.observation(observer)
    return seen
