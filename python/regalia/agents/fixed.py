"""Fixed strategies: players that ignore the game and always pick by a fixed order of action
ids. No serious player may lose to them; the gauntlet (``regalia.matches.gauntlet``) checks it."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from regalia.agents.measure import point_mass
from regalia.core.errors import InvalidArgumentError
from regalia.core.protocols import GameProtocol
from regalia.core.seeds import derive_seed
from regalia.core.view import View


class FirstLegal:
    """Always the legal action with the lowest id."""

    name = "first-legal"

    def __init__(self, seed: int | None = None) -> None:
        del seed  # deterministic: it has no use for a seed

    def action_probabilities(self, view: View) -> dict[int, float]:
        """All on its action (a deterministic player)."""
        return point_mass(self.act(view))

    def act(self, view: View) -> int:
        """The first legal action."""
        return view.legal_actions[0]

    def act_batch(self, game: GameProtocol, observations: Any, masks: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
        """The first legal action of each row of ``masks`` (``BatchAgent``)."""
        first: npt.NDArray[np.int64] = np.argmax(masks, axis=1).astype(np.int64)
        return first


class LastLegal:
    """Always the legal action with the highest id."""

    name = "last-legal"

    def __init__(self, seed: int | None = None) -> None:
        del seed

    def action_probabilities(self, view: View) -> dict[int, float]:
        """All on its action (a deterministic player)."""
        return point_mass(self.act(view))

    def act(self, view: View) -> int:
        """The last legal action."""
        return view.legal_actions[-1]

    def act_batch(self, game: GameProtocol, observations: Any, masks: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
        """The last legal action of each row of ``masks`` (``BatchAgent``)."""
        last: npt.NDArray[np.int64] = (masks.shape[1] - 1 - np.argmax(masks[:, ::-1], axis=1)).astype(np.int64)
        return last


class FixedOrder:
    """The first legal action in one fixed shuffled order of all action ids; ``order`` seeds
    the shuffle (the agent's own ``seed`` does not change it, so the same order is played in
    every game)."""

    def __init__(self, seed: int | None = None, order: int = 1) -> None:
        del seed
        if isinstance(order, bool) or not isinstance(order, int) or order < 0:
            raise InvalidArgumentError(f"order must be an int >= 0, got {order!r}")
        self.order = order
        self.name = f"fixed-order:order={order}"

    def action_probabilities(self, view: View) -> dict[int, float]:
        """All on its action (a deterministic player)."""
        return point_mass(self.act(view))

    def act(self, view: View) -> int:
        """The legal action that comes first in this order."""
        return min(view.legal_actions, key=lambda a: derive_seed(self.order, a))

    def act_batch(self, game: GameProtocol, observations: Any, masks: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
        """The legal action of each row of ``masks`` that comes first in this order (``BatchAgent``)."""
        keys = [derive_seed(self.order, a) for a in range(masks.shape[1])]
        rank = np.argsort(np.argsort(np.array(keys, dtype=np.uint64)))
        chosen: npt.NDArray[np.int64] = np.argmin(np.where(masks, rank, masks.shape[1]), axis=1).astype(np.int64)
        return chosen
