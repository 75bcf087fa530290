"""Showing a game move by move to an onlooker (``watch``, ``replay``, a game between bots).

An onlooker sees the game one of two ways, never both at once:

- **from one seat** (``view``): that seat's board, its own moves by name, the others' moves
  only as that seat sees them (what the table says of each move, in the words of its board:
  "you", "the opponent"), and at the end its final board, why the game ended and the score;
- **all hands shown** (no ``view``): every move by name, every seat's board (when boards are
  drawn), and at the end every seat's final board, the seats named by number.
"""

from __future__ import annotations

import time
from typing import Any

import regalia
from regalia.cli.console import Screen
from regalia.table import narrate


class Narrator:
    """Prints each move (and, with ``boards``, the board or boards before it) at a pace."""

    def __init__(
        self,
        screen: Screen,
        agents: list[str],
        boards: bool = True,
        view: int | None = None,
        delay: float = 0.0,
        step: bool = False,
        options: dict[str, Any] | None = None,
    ) -> None:
        self.screen, self.agents, self.boards, self.view = screen, agents, boards, view
        self.options = options or {}
        self.delay, self.step = delay, step
        self.count = 0
        #: The view's observation before the last move told, and what its seat was told of it.
        self._before: tuple[dict[str, Any], str | None] | None = None

    def _seats(self, view: int, neutral: bool = False) -> narrate.Seats:
        return narrate.Seats(view, self.agents, self.options, neutral=neutral)

    def heading(self) -> str:
        """How the game is shown: ``all hands shown`` or from which seat."""
        if self.view is None:
            return "all hands shown: every move named" + (", every seat's board" if self.boards else "")
        return f"told from seat {self.view} ({self.agents[self.view]}): its board, the others' moves as it sees them"

    def _news(self, game: str, after: dict[str, Any]) -> None:
        """What the table said of the last move, from ``view``'s observations around it
        (``after``: the view's observation now)."""
        if self._before is None or self.view is None:
            return
        before, told = self._before
        for line in narrate.news(game, before, after, self._seats(self.view), told):
            self.screen.tell(f"      {line}")
        self._before = None

    def _draw(self, state: Any, title: str, seen: dict[str, Any] | None) -> None:
        """The view's board (``seen``), or every seat's board when all hands are shown,
        each under ``title`` with its seat (``final board of {seat}``)."""
        game = state.game_name
        if seen is not None:
            self.screen.rule(title.format(seat=f"seat {self.view}"))
            self.screen.board(game, seen, self.options)
            return
        for seat in range(len(self.agents)):
            self.screen.rule(title.format(seat=f"seat {seat} ({self.agents[seat]})"))
            self.screen.board(game, state.observation(seat), self.options)

    def move(self, state: Any, seat: int, action: int) -> None:
        """Tells the move ``seat`` is about to play in ``state``; waits as asked.
        ``EOFError`` (no more Enter to wait for) stops the waiting, not the game."""
        game = state.game_name
        # The view's observation now: after the last move told, before this one.
        seen = None if self.view is None else state.observation(self.view)
        if seen is not None:
            self._news(game, seen)
        self.count += 1
        if self.boards:
            self._draw(state, f"move {self.count}: board of {{seat}}", seen)
        name = state.action_name(action)
        style = "bold" if self.boards else ""
        if seen is None or self.view is None:
            self.screen.say(f"{self.count:>4}. seat {seat} ({self.agents[seat]}) plays {name}", style=style)
        else:
            mine = seat == self.view
            said = f": {name}" if mine else " moves"
            who = self._seats(self.view).Name(seat)
            self.screen.say(f"{self.count:>4}. {who} ({self.agents[seat]}){said}", style=style)
            self._before = (seen, name if mine else narrate.public(game, name))
        self._wait()

    def _wait(self) -> None:
        if self.step:
            try:
                input("press Enter for the next move ")
            except EOFError:
                self.step = False
        elif self.delay:
            time.sleep(self.delay)

    def final(self, state: Any) -> None:
        """The last board (of ``view``, or of every seat) and, once the game is over, why it
        ended and the score breakdown; an unfinished game is left for the caller to say so."""
        seen = None if self.view is None else state.observation(self.view)
        if seen is not None:
            self._news(state.game_name, seen)
        outcome = state.outcome()  # public at the end: nothing hidden beyond the final scores
        over = outcome is not None
        self._draw(state, "final board of {seat}" if over else f"board of {{seat}} after move {self.count}", seen)
        if outcome is None:
            return
        viewer = 0 if self.view is None else self.view
        obs = state.observation(viewer) if seen is None else seen
        for line in narrate.ending(state.game_name, obs, outcome, self._seats(viewer, neutral=self.view is None)):
            self.screen.tell(line)


class BrokenRecord(ValueError):
    """A recorded move that is not legal where it stands."""


def walk(record: Any, narrator: Narrator | None = None) -> tuple[Any, list[dict[str, Any]]]:
    """Plays ``record``'s moves from its seed, telling each one to ``narrator``; returns the
    last state and the moves (seat, action, name). ``BrokenRecord`` names the first
    illegal move; a bad game or option raises ``RegaliaError``."""
    state = regalia.make(record.game, **record.options).new_state(record.seed)
    moves: list[dict[str, Any]] = []
    for ply, action in enumerate(record.actions, 1):
        seat = state.current_player
        if seat is None or action not in state.legal_actions():
            raise BrokenRecord(f"move {ply} ({action}) is not legal there; the record is corrupt")
        moves.append({"seat": seat, "action": action, "name": state.action_name(action)})
        if narrator is not None:
            narrator.move(state, seat, action)
        state.apply(action)
    return state, moves
