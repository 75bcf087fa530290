"""A recorded game walked move by move for an onlooker: what the command line's ``regalia
replay`` (and ``watch``) tells and the web's replay page draws, made once, here.

An onlooker sees the game one of two ways: with every card open (``viewer=None``: every
seat's observation, every move and chance draw named), or from one seat (``viewer``: that
seat's observation alone, its own moves named, another seat's move only by what the whole
table hears of it, ``narrate.public``, and a chance draw not named). At the end, how the
game ended (``Outcome``), which is public.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from regalia.core.errors import InvalidArgumentError, InvalidStateError
from regalia.core.outcome import Outcome
from regalia.core.protocols import StateProtocol, seat_to_act
from regalia.registry.catalog import make
from regalia.registry.records import MatchRecord, outcome_fields
from regalia.table import narrate

__all__ = ["BrokenRecord", "Frame", "Replay", "ReplayMove", "onlooker_frame", "onlooker_move"]


class BrokenRecord(InvalidStateError):
    """A record that does not replay: a move not legal where it stands, the wrong number of
    agents, or an ending other than the game's."""


@dataclass(frozen=True)
class ReplayMove:
    """One recorded move as the onlooker may know it: its number (from 1, chance draws
    counted), the seat that made it (None: a chance draw), its action id and name (None
    when the onlooker may not know them; a name may be None where the action is not,
    as another seat's move in a game whose boards show all that is public of it)."""

    ply: int
    seat: int | None
    action: int | None
    name: str | None


@dataclass(frozen=True)
class Frame:
    """The game after its first ``ply`` moves as the onlooker sees it: the observation of
    each seat shown (every seat with every card open, else the viewer's alone; what a
    board or picture is drawn from), and ``outcome`` once the game is over."""

    ply: int
    observations: dict[int, dict[str, Any]]
    outcome: Outcome | None


class Replay:
    """``record`` replayed from its seed for the onlooker ``viewer`` (None: every card
    open). Every move is checked on the way in: ``BrokenRecord`` names the first that does
    not replay; a bad game or option raises its ``ValueError``; ``moves`` are then the
    moves as the onlooker knows them, ``frame(ply)`` the game after ``ply`` of them."""

    def __init__(self, record: MatchRecord, viewer: int | None = None) -> None:
        if not isinstance(record.options, dict):
            raise BrokenRecord("the record's options are not a JSON object")
        if type(record.seed) is not int or not 0 <= record.seed < 2**64 or not isinstance(record.agents, list):
            raise BrokenRecord("the record's seed is not an integer of 0 to 2**64 - 1, or its agents not a list")
        self.record = record
        self.game = make(record.game, **record.options)
        if len(record.agents) != self.game.num_players:
            raise BrokenRecord(f"{len(record.agents)} agents for {self.game.num_players} seats")
        if viewer is not None and not 0 <= viewer < self.game.num_players:
            raise InvalidArgumentError(f"there is no seat {viewer}: seats are 0 to {self.game.num_players - 1}")
        self.viewer = viewer
        state = self.game.new_state(record.seed)
        #: Every recorded move, as the onlooker knows it.
        self.moves: list[ReplayMove] = []
        for ply, action in enumerate(record.actions, 1):
            if state.is_terminal or action not in state.legal_actions():
                raise BrokenRecord(f"move {ply} ({action}) is not legal there; the record is corrupt")
            self.moves.append(onlooker_move(state, action, viewer, ply))
            state.apply(action)
        self._last = state
        self._check_ending()

    @property
    def total(self) -> int:
        """How many moves the record holds (chance draws counted)."""
        return len(self.moves)

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, None when the record stops before the end."""
        outcome: Outcome | None = self._last.outcome()
        return outcome

    @property
    def returns(self) -> list[float]:
        """Each seat's return at the end (none while unfinished)."""
        return list(self._last.returns()) if self._last.is_terminal else []

    @property
    def scores(self) -> list[int]:
        """Each seat's final points (none while unfinished)."""
        return list(self._last.scores()) if self._last.is_terminal else []

    def frame(self, ply: int) -> Frame:
        """The game after its first ``ply`` moves (0: the deal); ``InvalidArgumentError``
        past the record's end."""
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= self.total:
            raise InvalidArgumentError(f"a replay's move is 0 to {self.total}, got {ply!r}")
        if ply == self.total:
            return onlooker_frame(self._last, self.viewer, ply)
        state = self.game.new_state(self.record.seed)
        for action in self.record.actions[:ply]:
            state.apply(action)
        return onlooker_frame(state, self.viewer, ply)

    def frames(self) -> Iterator[Frame]:
        """The game after each move in turn, from the deal (ply 0) to the last (``total``)."""
        state = self.game.new_state(self.record.seed)
        yield onlooker_frame(state, self.viewer, 0)
        for ply, action in enumerate(self.record.actions, 1):
            state.apply(action)
            yield onlooker_frame(state, self.viewer, ply)

    def _check_ending(self) -> None:
        """``BrokenRecord`` when the record's returns or outcome are not the game's."""
        record = self.record
        if not self._last.is_terminal:
            return
        if record.returns and list(record.returns) != self.returns:
            raise BrokenRecord(f"the recorded returns {record.returns} are not the game's {self.returns}")
        outcome = self.outcome
        if record.outcome is not None and outcome is not None and record.outcome != outcome_fields(outcome):
            raise BrokenRecord(f"the recorded outcome {record.outcome} is not the game's {outcome_fields(outcome)}")


def onlooker_frame(state: StateProtocol, viewer: int | None, ply: int = 0) -> Frame:
    """``state`` (after ``ply`` moves) as the onlooker ``viewer`` sees it (None: every card
    open): the observations of the seats shown, and the outcome once over."""
    seats = range(state.num_players) if viewer is None else [viewer]
    outcome: Outcome | None = state.outcome()
    return Frame(ply, {s: dict(state.observation(s)) for s in seats}, outcome)


def onlooker_move(state: StateProtocol, action: int, viewer: int | None, ply: int = 0) -> ReplayMove:
    """The move ``action`` about to be played in ``state`` (the ``ply``-th), as the onlooker
    ``viewer`` knows it: all of it with every card open or for the viewer's own move; of
    another seat's move only what the whole table hears (``narrate.public``); of a chance
    draw, from a seat, nothing."""
    seat = None if state.is_chance_node else seat_to_act(state)
    name = state.action_name(action)
    if viewer is None or seat == viewer:
        return ReplayMove(ply, seat, action, name)
    if seat is None:
        return ReplayMove(ply, None, None, None)
    return ReplayMove(ply, seat, None, narrate.public(state.game_name, name))
