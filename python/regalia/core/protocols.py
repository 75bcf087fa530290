"""The game contract as types: what a game (``GameProtocol``) and a position
(``StateProtocol``) of either backend offer, the Rust extension's ``Game`` / ``State`` and
the pure-Python reference's alike. Code that works with both takes these, never ``Any``; the
members only one backend has (the engine's searches, the reference's rule objects) are not
here, so a function that needs one of them says which backend it takes.

Both backends are checked against these by mypy (``tests/typing_protocols.py``) and at run
time for every game (``tests/test_contract.py``).
"""

from __future__ import annotations

from typing import Any, Literal, Protocol

import numpy as np
import numpy.typing as npt

from regalia.core.errors import InvalidArgumentError
from regalia.core.outcome import Outcome

__all__ = ["GameProtocol", "StateProtocol", "seat_to_act"]


class StateProtocol(Protocol):
    """A game position of either backend."""

    @property
    def current_player(self) -> int | None:
        """The seat to decide, ``CHANCE_PLAYER`` (-1) at a chance node, ``None`` once over."""
        ...

    @property
    def is_chance_node(self) -> bool:
        """Whether the next step is a chance outcome to apply (explicit chance)."""
        ...

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node, each possible outcome with its probability."""
        ...

    @property
    def is_terminal(self) -> bool:
        """Whether the game is over."""
        ...

    @property
    def game_name(self) -> str:
        """The game's id."""
        ...

    @property
    def num_players(self) -> int:
        """Number of seats."""
        ...

    @property
    def num_actions(self) -> int:
        """Size of the action space."""
        ...

    @property
    def seed(self) -> int | None:
        """The seed the game started from."""
        ...

    def legal_actions(self) -> list[int]:
        """The legal actions, sorted."""
        ...

    def legal_action_mask(self, out: npt.NDArray[np.bool_] | None = None) -> npt.NDArray[np.bool_]:
        """A bool array, true at the legal actions; with ``out`` it is written there."""
        ...

    def apply(self, action: int, /) -> None:
        """Plays ``action``; an illegal one raises ``IllegalActionError`` and changes nothing."""
        ...

    def clone(self) -> StateProtocol:
        """An independent copy."""
        ...

    def returns(self) -> list[float]:
        """Per-seat returns."""
        ...

    def scores(self) -> list[int]:
        """Per-seat game points."""
        ...

    def outcome(self) -> Outcome | None:
        """How the game ended, None while it runs."""
        ...

    def history(self) -> list[int]:
        """Every action since the start."""
        ...

    def action_name(self, action: int) -> str:
        """The readable name of ``action``."""
        ...

    def action_info(self, action: int) -> dict[str, Any]:
        """What ``action`` means, as a dict tagged by ``"kind"``."""
        ...

    def parse_action(self, text: str) -> int:
        """The legal action named by ``text`` (its name or a unique prefix of it)."""
        ...

    def observation(self, seat: int) -> dict[str, Any]:
        """A JSON-able dict of exactly what ``seat`` may see."""
        ...

    def observation_tensor(self, seat: int, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """The observation as numpy float32 of the game's fixed shape."""
        ...

    def determinize(self, seat: int, seed: int) -> StateProtocol:
        """A full state consistent with what ``seat`` has seen, the hidden cards resampled."""
        ...

    def information_state_string(self, seat: int) -> str:
        """Everything ``seat`` has seen and done, as text."""
        ...

    def information_state_tensor(self, seat: int, slots: int | Literal["all"] | None = None) -> npt.NDArray[np.float32]:
        """Everything ``seat`` has seen and done, as numpy float32."""
        ...

    def to_json(self) -> str:
        """The state as JSON text that ``GameProtocol.state_from_json`` reads back exactly."""
        ...


class GameProtocol(Protocol):
    """A game of either backend, its options fixed; makes states."""

    @property
    def name(self) -> str:
        """The game's id."""
        ...

    @property
    def title(self) -> str:
        """The game's display name."""
        ...

    @property
    def backend(self) -> str:
        """``"rust"`` or ``"reference"``."""
        ...

    @property
    def num_players(self) -> int:
        """Number of seats."""
        ...

    @property
    def num_actions(self) -> int:
        """Size of the action space."""
        ...

    @property
    def options(self) -> dict[str, Any]:
        """Every option in force."""
        ...

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """Shape of ``StateProtocol.observation_tensor``."""
        ...

    def information_state_shape(self, slots: int | Literal["all"] | None = None) -> tuple[int, ...]:
        """Shape of ``StateProtocol.information_state_tensor(seat, slots)``."""
        ...

    def new_state(self, seed: int | None = None) -> StateProtocol:
        """A new game from ``seed`` (random when omitted)."""
        ...

    def state_from_json(self, text: str) -> StateProtocol:
        """Reads a state saved by ``StateProtocol.to_json``, checking it."""
        ...

    def random_playouts(self, games: int, seed: int | None = None, threads: int | None = None) -> dict[str, Any]:
        """Plays ``games`` uniformly random games and sums up how they ended."""
        ...


def seat_to_act(state: StateProtocol) -> int:
    """``state.current_player`` where the caller knows the game goes on (at a chance node,
    ``CHANCE_PLAYER``); a game that is over raises ``InvalidArgumentError`` rather than hand
    on ``None`` as a seat."""
    seat = state.current_player
    if seat is None:
        raise InvalidArgumentError("no seat is to act: the game is over")
    return seat
