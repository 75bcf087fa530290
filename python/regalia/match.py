"""Playing a match between agents, and the record that replays it exactly."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from regalia.agents import Agent, view_of
from regalia.errors import IllegalActionError, InvalidStateError


@dataclass
class MatchRecord:
    """Everything needed to replay a match: game, options, seed, agents and every action."""

    game: str
    options: dict[str, Any]
    seed: int
    agents: list[str]
    actions: list[int] = field(default_factory=list)
    returns: list[float] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)

    def to_json(self) -> str:
        """The record as JSON text."""
        return json.dumps({"format": "regalia-match", "version": 1, **asdict(self)})

    @classmethod
    def from_json(cls, text: str) -> MatchRecord:
        """Reads a record written by ``to_json``."""
        try:
            d = json.loads(text)
            if d.pop("format") != "regalia-match" or d.pop("version") != 1:
                raise ValueError
            return cls(**d)
        except (ValueError, KeyError, TypeError, AttributeError):
            raise InvalidStateError("not a Regalia match record") from None

    def replay(self, backend: str = "rust") -> Any:
        """The final state, rebuilt from the seed and the actions."""
        import regalia

        state = regalia.make(self.game, backend=backend, **self.options).new_state(self.seed)  # type: ignore[arg-type]
        for a in self.actions:
            state.apply(a)
        return state


def play(game: Any, agents: list[Agent], seed: int = 0) -> MatchRecord:
    """Plays one game between ``agents`` (one per seat) and returns its record.

    An agent that returns an illegal action raises ``IllegalActionError`` naming the seat.
    """
    if len(agents) != game.num_players:
        raise IllegalActionError(f"{game.name} needs {game.num_players} agents, got {len(agents)}")
    state = game.new_state(seed)
    record = MatchRecord(game.name, game.options, seed, [getattr(a, "name", type(a).__name__) for a in agents])
    options = game.options
    while not state.is_terminal:
        seat = state.current_player
        action = agents[seat].act(view_of(state, seat, game.name, options))
        try:
            state.apply(action)
        except IllegalActionError as e:
            raise IllegalActionError(f"seat {seat} ({record.agents[seat]}) played {action!r}: {e}") from None
        record.actions.append(action)
    record.returns = state.returns()
    record.scores = state.scores()
    return record
