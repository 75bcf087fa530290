"""Action infos remembered by id, for rule-based players that ask about the same ids over
and over while they search sampled worlds."""

from __future__ import annotations

from typing import Any, Protocol


class Describes(Protocol):
    """What ``IdInfos`` asks: a state of either backend, or a seat's view."""

    def action_info(self, action: int) -> dict[str, Any]:
        """What ``action`` means, as a dict tagged by ``"kind"``."""
        ...


class IdInfos:
    """``state.action_info(action)``, asked once per id and remembered: only for what an id
    means in every state of the game (in Duo all of it; in Regnum all but the character a
    buy names and whether a character id exchanges or removes)."""

    def __init__(self) -> None:
        self.known: dict[int, dict[str, Any]] = {}

    def __call__(self, state: Describes, action: int) -> dict[str, Any]:
        """The info of ``action``, asking ``state`` (a state or a view) the first time."""
        info = self.known.get(action)
        if info is None:
            info = self.known[action] = state.action_info(action)
        return info

    def kind(self, state: Describes, action: int) -> str:
        """The kind of ``action``."""
        kind: str = self(state, action)["kind"]
        return kind
