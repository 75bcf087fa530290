"""One game at the terminal: people prompted in turn, bots asked, with undo, save and quit.

Each person sees only their own seat: their prompt gets a ``View``, news of the other seats'
moves is filtered by ``announce``, and when several people share the terminal a hand-over
screen stands between two of them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from regalia.agents import Agent, View, make_agent, view_of
from regalia.agents.base import call_hook, world_seed
from regalia.cli.announce import describe
from regalia.cli.console import Screen
from regalia.cli.human import HumanPrompt, Request
from regalia.cli.moves import has_numeric_names
from regalia.cli.players import HUMAN, make_bots, strongest_agent
from regalia.cli.records import write_record
from regalia.match import MatchRecord

#: Where ``save`` writes when no file is named.
DEFAULT_SAVE = "regalia-save.json"


class GameLeft(Exception):
    """The people left the game before its end (``quit``, or the input ended)."""


class Table:
    """A game between the seats (``human`` or an agent name), from ``seed``, after ``actions``."""

    def __init__(
        self,
        game: Any,
        seats: list[str],
        seed: int,
        screen: Screen,
        actions: list[int] | None = None,
        read: Callable[[str], str] = input,
    ) -> None:
        self.game, self.seats, self.seed, self.screen = game, seats, seed, screen
        self.bots = make_bots(seats, seed)
        self.humans = [i for i, s in enumerate(seats) if s == HUMAN]
        fresh = game.new_state(0)
        letters = has_numeric_names(fresh.action_name, game.num_actions)
        self.prompt = HumanPrompt(screen, fresh.parse_action, self._hint, letters, read)
        self.read = read
        self._hinter: Agent | None = None
        self.state = game.new_state(seed)
        self.actions: list[int] = []
        self.marks: list[int] = []
        self.news: dict[int, list[str]] = {h: [] for h in self.humans}
        self.last_human: int | None = None
        self.saved: tuple[Path, int] | None = None
        for a in actions or []:
            self._apply(a)
        self.news = {h: [] for h in self.humans}

    def who(self, seat: int) -> str:
        """``seat 1 (random)``."""
        return f"seat {seat} ({self.seats[seat]})"

    def record(self) -> MatchRecord:
        """The game so far (with returns and scores once it is over)."""
        over = self.state.is_terminal
        return MatchRecord(
            game=self.game.name,
            options=self.game.options,
            seed=self.seed,
            agents=list(self.seats),
            actions=list(self.actions),
            returns=self.state.returns() if over else [],
            scores=self.state.scores() if over else [],
        )

    def play(self, on_move: Callable[[int, int], None] | None = None) -> MatchRecord:
        """Plays to the end; ``on_move(seat, action)`` is called before each move is applied.
        Raises ``GameLeft`` when the people quit or the input ends."""
        for seat, bot in self.bots.items():
            call_hook(bot, "game_start", self._view(seat))
        while not self.state.is_terminal:
            seat = self.state.current_player
            action = self._bot_move(seat) if seat in self.bots else self._ask(seat)
            if on_move is not None:
                on_move(seat, action)
            self._apply(action)
        rec = self.record()
        for seat, bot in self.bots.items():
            call_hook(bot, "game_end", self._view(seat), rec.returns)
        return rec

    def left_message(self, reason: str) -> str:
        """What to say when the people leave before the end: where the game is saved, if it is."""
        if self.saved is not None and self.saved[1] == len(self.actions):
            return f"Game left ({reason}); it is saved: regalia resume {self.saved[0]}"
        return f"Game left unfinished ({reason}); 'save' first to continue it later."

    def _bot_move(self, seat: int) -> int:
        """The bot's move, with a spinner on a terminal while it thinks."""
        with self.screen.err.status(f"{self.who(seat)} is thinking..."):
            return self.bots[seat].act(self._view(seat))

    def _view(self, seat: int) -> View:
        """What ``seat`` may see now (its sampled worlds seeded as ``regalia.play`` seeds them)."""
        return view_of(
            self.state, seat, self.game.name, self.game.options, world_seed(self.seed, len(self.actions), seat)
        )

    def _apply(self, action: int) -> None:
        seat = self.state.current_player
        if seat in self.humans:
            self.marks.append(len(self.actions))
        for h in self.humans:
            if h != seat:
                self.news[h].append(describe(self.state, action, h, self.who(seat)))
        self.state.apply(action)
        self.actions.append(action)

    def _ask(self, seat: int) -> int:
        self._hand_over(seat)
        show = True
        while True:
            try:
                request = self.prompt.ask(self._view(seat), self.news[seat], show=show)
            except EOFError:
                self.prompt.say("")
                raise GameLeft("the input ended") from None
            show = False
            if request.kind == "move":
                self.news[seat] = []
                return request.action
            if request.kind == "quit":
                raise GameLeft("you left the game")
            if request.kind == "save":
                self._save(request)
            elif request.kind == "undo":
                show = self._undo()

    def _hand_over(self, seat: int) -> None:
        """Between two people at one terminal: clear the screen and wait for the next one."""
        if len(self.humans) > 1 and self.last_human not in (None, seat):
            self.screen.out.clear()
            self.screen.out.print("\n" * 3)
            self.prompt.say(f"Hand the terminal to {self.who(seat)}; nobody else should look.", style="bold")
            try:
                self.read(f"seat {seat}, press Enter when you are ready ")
            except EOFError:
                raise GameLeft("the input ended") from None
            self.screen.out.clear()
        self.last_human = seat

    def _save(self, request: Request) -> None:
        path = Path(request.path or DEFAULT_SAVE)
        if write_record(path, self.record(), self.prompt.say):
            self.saved = (path, len(self.actions))
            self.prompt.say(f"  saved to {path}; continue later with: regalia resume {path}", style="green")

    def _undo(self) -> bool:
        """Takes back the person's last move and the bots' moves after it; True if done."""
        if len(self.humans) != 1:
            self.prompt.say("  refused: undo is for a game against bots (one person at the terminal)", style="yellow")
            return False
        if not self.marks:
            self.prompt.say("  refused: there is no move of yours to take back", style="yellow")
            return False
        keep = self.actions[: self.marks.pop()]
        self.state, self.actions = self.game.new_state(self.seed), []
        for a in keep:
            self.state.apply(a)
            self.actions.append(a)
        self.news = {h: ["you took back your last move"] for h in self.humans}
        return True

    def _hint(self, view: View) -> tuple[str, int]:
        name = strongest_agent()
        if self._hinter is None:
            self._hinter = make_agent(name, self.seed)
        return name, self._hinter.act(view)
