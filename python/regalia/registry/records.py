"""The record of a match (game, options, seed, agents, every action, and how it ended),
which replays exactly, and the chance draws a match of a game with explicit chance makes."""

from __future__ import annotations

import json
import random
from dataclasses import asdict, dataclass, field
from typing import Any

from regalia.core import jsontext
from regalia.core.errors import InvalidStateError
from regalia.core.outcome import Outcome
from regalia.core.seeds import derive_seed
from regalia.core.view import draw_outcome
from regalia.registry.catalog import make

__all__ = ["ChanceDraws", "MatchRecord", "forfeit_returns", "outcome_fields"]

_FIELDS = ("game", "options", "seed", "agents", "actions", "returns", "scores", "error", "forfeit", "outcome")


@dataclass
class MatchRecord:
    """Everything needed to replay a match: game, options, seed, agents and every action;
    and how it ended: returns, scores and the outcome, or the error that stopped it."""

    game: str
    options: dict[str, Any]
    seed: int
    agents: list[str]
    actions: list[int] = field(default_factory=list)
    returns: list[float] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    #: When an agent failed: ``seat``, ``agent``, ``action`` (or None) and ``message``.
    error: dict[str, Any] | None = None
    #: The seat that forfeited (``on_error="forfeit"``), else None.
    forfeit: int | None = None
    #: How the game ended (``outcome_fields`` of ``State.outcome()``): ``reason``,
    #: ``winners``, ``scores``, ``tie_break``; None while unfinished, after an error, or in
    #: a record written before Regalia kept it.
    outcome: dict[str, Any] | None = None

    def to_json(self) -> str:
        """The record as JSON text."""
        return json.dumps({"format": "regalia-match", "version": 1, **asdict(self)})

    @classmethod
    def from_json(cls, text: str) -> MatchRecord:
        """Reads a record written by ``to_json``; ``InvalidStateError`` says what is wrong."""
        if not isinstance(text, (str, bytes)):
            raise InvalidStateError("not a Regalia match record: a record is JSON text")
        d = jsontext.loads(text, InvalidStateError)
        if not isinstance(d, dict) or d.get("format") != "regalia-match":
            raise InvalidStateError('not a Regalia match record: it has no "format": "regalia-match"')
        if d.get("version") != 1:
            raise InvalidStateError(f"a match record of version {d.get('version')!r}; this Regalia reads version 1")
        fields = {k: v for k, v in d.items() if k not in ("format", "version")}
        unknown = sorted(set(fields) - set(_FIELDS))
        missing = [k for k in ("game", "options", "seed", "agents") if k not in fields]
        if unknown or missing:
            what = f"unknown field {unknown[0]!r}" if unknown else f"no {missing[0]!r}"
            raise InvalidStateError(f"not a Regalia match record: {what}")
        record = cls(**fields)
        if not isinstance(record.actions, list) or not all(type(a) is int for a in record.actions):
            raise InvalidStateError("not a Regalia match record: its actions are not a list of integers")
        if record.outcome is not None and not isinstance(record.outcome, dict):
            raise InvalidStateError("not a Regalia match record: its outcome is not a JSON object")
        return record

    def replay(self, backend: str = "rust") -> Any:
        """The last state, rebuilt from the seed and the actions."""
        state = make(self.game, backend=backend, **self.options).new_state(self.seed)  # type: ignore[arg-type]
        for a in self.actions:
            state.apply(a)
        return state


def outcome_fields(outcome: Outcome) -> dict[str, Any]:
    """``outcome`` as a record keeps it (and JSON carries it): ``reason``, ``winners``,
    ``scores`` and ``tie_break``."""
    return {
        "reason": outcome.reason,
        "winners": list(outcome.winners),
        "scores": list(outcome.scores),
        "tie_break": outcome.tie_break,
    }


def forfeit_returns(players: int, seat: int) -> list[float]:
    """Returns when ``seat`` forfeits: it loses (-1), the others share +1."""
    return [-1.0 if s == seat else 1.0 / (players - 1) for s in range(players)]


class ChanceDraws:
    """The chance outcomes of a match of a game with explicit chance, drawn by their
    probabilities from a generator of the match's seed (its own stream, apart from the
    agents'), so that a seed fixes the match; the record keeps them with the moves."""

    #: The sub-stream of the match's seed the draws come from.
    STREAM = 0x6368_616E_6365

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(derive_seed(seed, self.STREAM))

    def draw(self, outcomes: list[tuple[int, float]]) -> int:
        """One outcome of ``[(outcome, probability), ...]``."""
        return draw_outcome(self._rng, outcomes)

    def skip(self, outcomes: list[tuple[int, float]]) -> None:
        """A recorded outcome stands for a draw: the generator draws anyway, so the draws
        after it are the ones the match made."""
        self.draw(outcomes)
