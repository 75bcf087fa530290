"""The fixed sets of names some arguments take, as ``Literal`` types for type checkers."""

from __future__ import annotations

from typing import Literal, TypeAlias

__all__ = ["Backend", "BeliefModel", "OpponentModel", "Rollout"]

#: Which implementation plays a game: the Rust engine or the pure-Python reference.
Backend: TypeAlias = Literal["rust", "reference"]
#: How an ISMCTS rollout chooses its moves (``regalia._core.ROLLOUTS`` at run time).
Rollout: TypeAlias = Literal["heuristic", "random"]
#: The opponent model of an ISMCTS belief (``regalia._core.BELIEFS`` at run time): none, or
#: opponents playing uniformly at random, or the game's rollout policy with a tremble.
BeliefModel: TypeAlias = Literal["none", "uniform", "rollout"]
#: How an ISMCTS has the other seats choose (``regalia._core.OPPONENTS`` at run time): each
#: searching for itself, the game's rollout policy, or the first legal action.
OpponentModel: TypeAlias = Literal["search", "rollout", "first-legal"]
