"""Showing a game move by move to an onlooker (``watch``, ``replay``, a game between bots).

An onlooker sees the game one of two ways, never both at once (``regalia.table.Replay``
walks the record and decides what each one knows; this module only prints it):

- **from one seat** (``view``): that seat's board, its own moves by name, the others' moves
  only as that seat sees them (what the table says of each move, in the words of its board:
  "you", "the opponent"), and at the end its final board, why the game ended and the score;
- **all hands shown** (no ``view``): every move by name, every seat's board (when boards are
  drawn), and at the end every seat's final board, the seats named by number.
"""

from __future__ import annotations

import time
from typing import Any

from regalia.cli.console import Screen
from regalia.table import Frame, Replay, ReplayMove, narrate


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

    def _draw(self, game: str, frame: Frame, title: str) -> None:
        """The board of each seat ``frame`` shows (the view's, or every seat's when all
        hands are shown), each under ``title`` with its seat (``final board of {seat}``)."""
        for seat, observation in frame.observations.items():
            who = f"seat {seat}" if self.view is not None else f"seat {seat} ({self.agents[seat]})"
            self.screen.rule(title.format(seat=who))
            self.screen.board(game, observation, self.options)

    def move(self, game: str, frame: Frame, move: ReplayMove) -> None:
        """Tells ``move``, about to be played from ``frame`` (as the onlooker knows it: a
        chance draw named only with all hands shown); waits as asked. ``EOFError`` (no
        more Enter to wait for) stops the waiting, not the game."""
        # The view's observation now: after the last move told, before this one.
        seen = None if self.view is None else frame.observations[self.view]
        if move.seat is None:  # a chance draw: the next move's news tells what it showed
            if self.view is None:
                self.screen.say(f"      chance: {move.name}")
            return
        if seen is not None:
            self._news(game, seen)
        self.count += 1
        if self.boards:
            self._draw(game, frame, f"move {self.count}: board of {{seat}}")
        style = "bold" if self.boards else ""
        seat = move.seat
        if seen is None or self.view is None:
            self.screen.say(f"{self.count:>4}. seat {seat} ({self.agents[seat]}) plays {move.name}", style=style)
        else:
            said = f": {move.name}" if seat == self.view else " moves"
            who = self._seats(self.view).Name(seat)
            self.screen.say(f"{self.count:>4}. {who} ({self.agents[seat]}){said}", style=style)
            self._before = (seen, move.name)
        self._wait()

    def _wait(self) -> None:
        if self.step:
            try:
                input("press Enter for the next move ")
            except EOFError:
                self.step = False
        elif self.delay:
            time.sleep(self.delay)

    def final(self, game: str, frame: Frame) -> None:
        """The last board (of ``view``, or of every seat) and, once the game is over, why it
        ended and the score breakdown; an unfinished game is left for the caller to say so."""
        if self.view is not None:
            self._news(game, frame.observations[self.view])
        outcome = frame.outcome  # public at the end: nothing hidden beyond the final scores
        self._draw(game, frame, "final board of {seat}" if outcome else f"board of {{seat}} after move {self.count}")
        if outcome is None:
            return
        viewer = 0 if self.view is None else self.view
        seats = self._seats(viewer, neutral=self.view is None)
        for line in narrate.ending(game, frame.observations[viewer], outcome, seats):
            self.screen.tell(line)


def tell(replay: Replay, narrator: Narrator) -> Frame:
    """Tells ``replay`` move by move to ``narrator``, then its last board and ending;
    returns the last frame."""
    game = replay.game.name
    frames = replay.frames()
    frame = next(frames)  # the deal
    for after in frames:
        narrator.move(game, frame, replay.moves[frame.ply])
        frame = after
    narrator.final(game, frame)
    return frame
