"""Showing a game move by move to an onlooker (``watch``, ``replay``, a game between bots).

An onlooker is not a player: it may see every move by name. The board is drawn from the
seat about to move, or always from ``view`` when one is chosen; then each move is followed by
what the table says of it (who won the reveal, what the purchase did) and the game ends with
its reason and score breakdown, in the words of that seat's board ("you", "the opponent").
"""

from __future__ import annotations

import time
from typing import Any

from regalia.cli import narrate
from regalia.cli.console import Screen


class Narrator:
    """Prints each move (and, with ``boards``, the board before it) at a pace."""

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
        #: The view's observation before the last move told, its mover and what was said.
        self._before: tuple[dict[str, Any], int, str | None] | None = None

    def _seats(self, view: int) -> narrate.Seats:
        return narrate.Seats(view, self.agents, self.options)

    def _news(self, game: str, after: dict[str, Any]) -> None:
        """What the table said of the last move, from ``view``'s observations around it
        (``after``: the view's observation now)."""
        if self._before is None or self.view is None:
            return
        before, mover, told = self._before
        for line in narrate.news(game, before, after, self._seats(self.view), told):
            self.screen.tell(f"      {line}")
        self._before = None

    def move(self, state: Any, seat: int, action: int) -> None:
        """Tells the move ``seat`` is about to play in ``state``; waits as asked.
        ``EOFError`` (no more Enter to wait for) stops the waiting, not the game."""
        game = state.game_name
        # The view's observation now: after the last move told, before this one, and the board.
        seen = None if self.view is None else state.observation(self.view)
        if seen is not None:
            self._news(game, seen)
        self.count += 1
        if self.boards:
            board_seat = seat if self.view is None else self.view
            self.screen.rule(f"move {self.count}: board of seat {board_seat}")
            self.screen.board(game, seen if seen is not None else state.observation(board_seat), self.options)
        name = state.action_name(action)
        line = f"{self.count:>4}. seat {seat} ({self.agents[seat]}) plays {name}"
        self.screen.say(line, style="bold" if self.boards else "")
        if seen is not None:
            told = name if seat == self.view else narrate.public(game, name)
            self._before = (seen, seat, told)
        if self.step:
            try:
                input("press Enter for the next move ")
            except EOFError:
                self.step = False
        elif self.delay:
            time.sleep(self.delay)

    def final(self, state: Any) -> None:
        """The final board, from ``view`` or seat 0, and why the game ended."""
        seat = 0 if self.view is None else self.view
        obs = state.observation(seat)
        self._news(state.game_name, obs)
        self.screen.rule(f"final board of seat {seat}")
        self.screen.board(state.game_name, obs, self.options)
        for line in narrate.ending(state.game_name, obs, self._seats(seat)):
            self.screen.tell(line)


class BrokenRecord(ValueError):
    """A recorded move that is not legal where it stands."""


def walk(record: Any, narrator: Narrator | None = None) -> tuple[Any, list[dict[str, Any]]]:
    """Plays ``record``'s moves from its seed, telling each one to ``narrator``; returns the
    last state and the moves (seat, action, name). ``BrokenRecord`` names the first
    illegal move; a bad game or option raises ``RegaliaError``."""
    import regalia

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
