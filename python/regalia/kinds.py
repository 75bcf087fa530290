"""The fixed sets of names some arguments take, as ``Literal`` types for type checkers."""

from __future__ import annotations

from typing import Literal, TypeAlias

__all__ = ["Backend", "Rollout"]

#: Which implementation plays a game: the Rust engine or the pure-Python reference.
Backend: TypeAlias = Literal["rust", "reference"]
#: How an ISMCTS rollout chooses its moves (``regalia._core.ROLLOUTS`` at run time).
Rollout: TypeAlias = Literal["heuristic", "random"]
