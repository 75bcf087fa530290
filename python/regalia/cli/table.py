"""One game at the terminal: people prompted in turn, bots asked, with undo, save and quit.

Each person sees only their own seat: their prompt gets a ``View``, the news of every move
is told from their seat's observations only (``narrate``), and when several people share the
terminal a hand-over screen (with the scrollback cleared) stands between two of them. A move
that is the only legal one is played for the person (unless ``ask_forced``), and ``undo``
takes back only moves that showed the person nothing new (``undo``).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from regalia.agents import Agent, View, make_agent, view_of
from regalia.agents.base import call_hook, world_seed
from regalia.cli import narrate
from regalia.cli.console import Screen
from regalia.cli.human import HumanPrompt, Request
from regalia.cli.moves import has_numeric_names
from regalia.cli.players import HUMAN, make_bots, strongest_agent
from regalia.cli.records import write_record
from regalia.cli.undo import told_nothing
from regalia.match import MatchRecord


def default_save(game: str) -> Path:
    """Where ``save`` writes when no file is named: a new file in the user's data folder
    (``~/.local/share/regalia/saves`` on Linux), named after the game and the time."""
    import time

    import platformdirs

    folder = platformdirs.user_data_path("regalia") / "saves"
    with contextlib.suppress(OSError):  # a folder that cannot be made: the write reports it
        folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y-%m-%d-%H%M%S")
    path = folder / f"{game}-{stamp}.json"
    n = 1
    while path.exists():
        n += 1
        path = folder / f"{game}-{stamp}-{n}.json"
    return path


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
        start: Any = None,
        ask_forced: bool = False,
    ) -> None:
        """``start`` (a state, for tests) replaces the deal of ``seed``; ``ask_forced`` asks
        the person even for a move that is the only legal one."""
        self.game, self.seats, self.seed, self.screen = game, seats, seed, screen
        self.bots = make_bots(seats, seed)
        self.humans = [i for i, s in enumerate(seats) if s == HUMAN]
        fresh = game.new_state(0)
        letters = has_numeric_names(fresh.action_name, game.num_actions)
        self.prompt = HumanPrompt(screen, fresh.parse_action, self._hint, letters, read)
        self.read = read
        self._hinter: Agent | None = None
        self.start = start
        self.ask_forced = ask_forced
        self.state = game.new_state(seed) if start is None else start.clone()
        self.actions: list[int] = []
        self.movers: list[int] = []
        self.names: list[str] = []
        #: Where the person's chosen moves start (the moves ``undo`` may take back to).
        self.marks: list[int] = []
        #: Undo goes back no further than this many moves, and ``floor_reason`` says why.
        self.floor = 0
        self.floor_reason = ""
        self.news: dict[int, list[str]] = {h: [] for h in self.humans}
        #: Every line each person was told, one list per move (``log``).
        self.story: dict[int, list[list[str]]] = {h: [] for h in self.humans}
        self.seen = {h: self.state.observation(h) for h in self.humans}
        self.last_human: int | None = None
        self.saved: tuple[Path, int] | None = None
        for a in actions or []:
            self._apply(a)
        self.news = {h: [] for h in self.humans}

    def seats_of(self, viewer: int) -> narrate.Seats:
        """The seats as ``viewer`` calls them."""
        return narrate.Seats(viewer, list(self.seats), dict(self.game.options))

    def introduction(self) -> str:
        """Who sits where, told to the one person at the terminal (or to all of them)."""
        if len(self.humans) == 1:
            return narrate.introduction(self.game.title, self.seats_of(self.humans[0]))
        return narrate.introduction(self.game.title, narrate.Seats(0, list(self.seats), neutral=True))

    def ending(self) -> list[str]:
        """Why the game ended and the score breakdown, from the person's seat (from seat 0,
        naming every seat by number, when several people share the terminal)."""
        if len(self.humans) == 1:
            seats = self.seats_of(self.humans[0])
        else:
            seats = narrate.Seats(0, list(self.seats), dict(self.game.options), neutral=True)
        return narrate.ending(self.game.name, self.state.observation(seats.viewer), seats)

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
            call_hook(bot, "game_start", self.view(seat))
        while not self.state.is_terminal:
            seat = self.state.current_player
            forced = self._forced(seat)
            action = self._choose(seat) if forced is None else forced
            if on_move is not None:
                on_move(seat, action)
            self._apply(action, chosen=forced is None)
        rec = self.record()
        for seat, bot in self.bots.items():
            call_hook(bot, "game_end", self.view(seat), rec.returns)
        return rec

    def left_message(self, reason: str) -> str:
        """What to say when the people leave before the end: where the game is saved, if it is."""
        if self.saved is not None and self.saved[1] == len(self.actions):
            return f"Game left ({reason}); it is saved: regalia resume {self.saved[0]}"
        return f"Game left unfinished ({reason}); 'save' first to continue it later."

    def _choose(self, seat: int) -> int:
        """The move of ``seat``: its bot's, or the person's answer at the prompt."""
        return self._bot_move(seat) if seat in self.bots else self._ask(seat)

    def _bot_move(self, seat: int) -> int:
        """The bot's move, with a spinner on a terminal while it thinks."""
        with self.screen.err.status(f"{self.who(seat)} is thinking..."):
            return self.bots[seat].act(self.view(seat))

    def view(self, seat: int) -> View:
        """What ``seat`` may see now (its sampled worlds seeded as ``regalia.play`` seeds them)."""
        return view_of(
            self.state, seat, self.game.name, self.game.options, world_seed(self.seed, len(self.actions), seat)
        )

    def _forced(self, seat: int) -> int | None:
        """The person's only legal move, to be played for them (None for a bot, a choice,
        or with ``ask_forced``)."""
        if seat in self.bots or self.ask_forced:
            return None
        legal = self.state.legal_actions()
        return legal[0] if len(legal) == 1 else None

    def _apply(self, action: int, chosen: bool = True) -> None:
        """Plays ``action``: tells every person what they see of it and moves the undo floor
        past anything new it showed the one person at the terminal."""
        seat = self.state.current_player
        if seat in self.humans and chosen:
            self.marks.append(len(self.actions))
        name = self.state.action_name(action)
        said = narrate.public(self.game.name, name)
        self._move_floor(seat, action)
        self.state.apply(action)
        self.actions.append(action)
        self.movers.append(seat)
        self.names.append(name)
        for h in self.humans:
            after = self.state.observation(h)
            told = name if seat == h else said
            lines = narrate.news(self.game.name, self.seen[h], after, self.seats_of(h), told)
            if seat == h and not chosen:
                lines = [f"Your only legal move, {name}, is played for you.", *lines]
            self.news[h] += lines
            self.story[h].append(lines)
            self.seen[h] = after

    def _move_floor(self, seat: int, action: int) -> None:
        """Before ``seat`` plays ``action``: undo may not go back past this move if it is
        another seat's choice or shows the person something new (see ``undo``)."""
        if len(self.humans) != 1:
            return
        person = self.humans[0]
        if seat != person:
            why = f"{self.seats_of(person).name(seat)} has moved since"
        elif not told_nothing(self.state, action, person):
            why = "that move showed you something new"
        else:
            return
        self.floor, self.floor_reason = len(self.actions) + 1, why

    def _ask(self, seat: int) -> int:
        self._hand_over(seat)
        show = True
        while True:
            try:
                request = self.prompt.ask(self.view(seat), self.news[seat], show=show)
            except EOFError:
                self.prompt.say("")
                self._offer_to_save()
                raise GameLeft("the input ended") from None
            show = False
            if request.kind == "move":
                self.news[seat] = []
                return request.action
            if request.kind == "quit":
                self._offer_to_save()
                raise GameLeft("you left the game")
            if request.kind == "save":
                self._save(request)
            elif request.kind == "undo":
                show = self._undo()
            elif request.kind == "back":
                show = self._back(seat)
            elif request.kind == "log":
                self._log(seat)

    def _hand_over(self, seat: int) -> None:
        """Between two people at one terminal: clear the screen and wait for the next one."""
        if len(self.humans) > 1 and self.last_human not in (None, seat):
            self._clear()
            self.screen.out.print("\n" * 3)
            self.prompt.say(f"Hand the terminal to {self.who(seat)}; nobody else should look.", style="bold")
            try:
                self.read(f"seat {seat}, press Enter when you are ready ")
            except EOFError:
                raise GameLeft("the input ended") from None
            self._clear()
        self.last_human = seat

    def _clear(self) -> None:
        """Clears the screen and, on a terminal, its scrollback too (nothing of the last
        person's hand can be scrolled back to)."""
        out = self.screen.out
        out.clear()
        if out.is_terminal:
            out.file.write("\x1b[3J")
            out.file.flush()

    def _save(self, request: Request) -> None:
        path = Path(request.path) if request.path else default_save(self.game.name)
        if write_record(path, self.record(), self.prompt.say):
            self.saved = (path, len(self.actions))
            self.screen.say(f"  saved to {path}; continue later with: regalia resume {path}", style="green")

    def _offer_to_save(self) -> None:
        """Before leaving: asks whether to save (unless saved as it stands): ``y`` saves to
        the user's data folder (``default_save``), a file name there; no answer, or the end of
        the input, saves nothing."""
        if self.saved is not None and self.saved[1] == len(self.actions):
            return
        try:
            answer = self.read("Save the game before you go? [y/N, or a file name] ")
        except EOFError:
            self.prompt.say("")
            return
        if not sys.stdin.isatty():
            self.prompt.say(answer)
        answer = answer.strip()
        if answer.lower() in ("y", "yes"):
            self._save(Request("save"))
        elif answer and answer.lower() not in ("n", "no"):
            self._save(Request("save", path=answer))

    def _back(self, seat: int) -> bool:
        """Backs out of a purchase not yet paid for: takes back ``seat``'s moves since its
        last ``buy ...`` in this run of its own moves; True if done."""
        start = len(self.actions)
        while start > 0 and self.movers[start - 1] == seat:
            start -= 1
        buys = [i for i in range(start, len(self.actions)) if self.names[i].startswith("buy ")]
        if not buys or self.state.observation(seat).get("phase") != "pay":
            self.prompt.say("  refused: 'back' backs out of a purchase while you are paying for it", style="yellow")
            return False
        if buys[-1] < self.floor:
            self.prompt.say(f"  refused: {self.floor_reason}, so the purchase stands", style="yellow")
            return False
        self._rewind(buys[-1])
        self.news[seat] = ["you backed out of the purchase"]
        return True

    def _rewind(self, length: int) -> None:
        """The game as it was after its first ``length`` moves."""
        keep = self.actions[:length]
        self.state = self.game.new_state(self.seed) if self.start is None else self.start.clone()
        self.actions, self.movers, self.names = [], [], []
        for a in keep:
            self.movers.append(self.state.current_player)
            self.names.append(self.state.action_name(a))
            self.state.apply(a)
            self.actions.append(a)
        self.marks = [m for m in self.marks if m < length]
        self.story = {h: lines[:length] for h, lines in self.story.items()}
        self.seen = {h: self.state.observation(h) for h in self.humans}

    def _undo(self) -> bool:
        """Takes back the person's last move and the bots' moves after it; True if done."""
        if len(self.humans) != 1:
            self.prompt.say("  refused: undo is for a game against bots (one person at the terminal)", style="yellow")
            return False
        if not self.marks:
            self.prompt.say("  refused: there is no move of yours to take back", style="yellow")
            return False
        if self.marks[-1] < self.floor:
            self.prompt.say(f"  refused: {self.floor_reason}, so your last move stands", style="yellow")
            return False
        self._rewind(self.marks.pop())
        self.news = {h: ["you took back your last move"] for h in self.humans}
        return True

    def _log(self, seat: int) -> None:
        """The whole game so far as ``seat`` was told it, move by move."""
        told = [(k + 1, line) for k, lines in enumerate(self.story[seat]) for line in lines]
        if not told:
            self.prompt.say("  nothing has happened yet")
        for number, line in told:
            self.prompt.say(f"  {number:>3}. {line}")

    def _hint(self, view: View) -> tuple[str, int]:
        name = strongest_agent()
        if self._hinter is None:
            self._hinter = make_agent(name, self.seed)
        return name, self._hinter.act(view)
