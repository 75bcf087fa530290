"""One game with people and bots seated at it, run without any terminal or page.

A front-end (the command line, a web page, a notebook) asks the table whose turn it is
(``waiting``), shows a person the moves it offers (``moves``) and the news of what happened
(``take_news``, ``log``), and passes on what the person chose (``play``), or asks the table to
let a bot move (``play_bot``). Everything a seat is shown comes from that seat's view: the
narration is made from its observations, a log event of another seat's move carries no action
id, and undo never goes back past something new to the person (``regalia.table.undo``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from regalia.agents import Agent, make_agent
from regalia.agents.base import agent_name, as_agent, call_hook
from regalia.core.errors import AgentError, IllegalActionError, InvalidArgumentError
from regalia.core.outcome import Outcome
from regalia.core.seeds import derive_seed
from regalia.core.view import View, action_id, view_of, world_seed
from regalia.registry.records import ChanceDraws, MatchRecord
from regalia.registry.saves import save_game
from regalia.table import narrate
from regalia.table.events import Event, Refused, Waiting
from regalia.table.seating import HUMAN, strongest_agent
from regalia.table.undo import told_nothing

__all__ = ["Table"]


class Table:
    """A game between ``seats`` (``"human"`` for a person, else a built-in agent's spec or an
    agent object), dealt from ``seed`` and replayed through ``actions`` (a saved game resumes so).

    ``start`` (a state) replaces the deal of ``seed`` (for tests). A person's only legal move
    is played for them unless ``ask_forced``. Chance nodes of a game with explicit chance are
    drawn from the seed, as ``regalia.play`` draws them. Bad seats, options or actions raise a
    ``ValueError`` subclass.
    """

    def __init__(
        self,
        game: Any,
        seats: Sequence[str | Agent],
        seed: int = 0,
        actions: Sequence[int] = (),
        start: Any = None,
        ask_forced: bool = False,
    ) -> None:
        if len(seats) != game.num_players:
            raise InvalidArgumentError(f"{game.title} needs {game.num_players} seats, got {len(seats)}")
        self.game = game
        self.seed = seed
        self.ask_forced = ask_forced
        self.humans = [i for i, s in enumerate(seats) if s == HUMAN]
        self.bots: dict[int, Agent] = {
            i: make_agent(s, derive_seed(seed, i)) if isinstance(s, str) else as_agent(s)
            for i, s in enumerate(seats)
            if s != HUMAN
        }
        #: Who sits at each seat: ``"human"``, or the agent's name.
        self.seats = [s if isinstance(s, str) else agent_name(self.bots[i]) for i, s in enumerate(seats)]
        self._start = start
        self._state = game.new_state(seed) if start is None else start.clone()
        self._chance = ChanceDraws(seed)
        self._hinter: Agent | None = None
        self.actions: list[int] = []
        self._movers: list[int | None] = []
        self._names: list[str] = []
        #: Where each of the person's own chosen moves starts (what ``undo`` takes back to).
        self._marks: list[int] = []
        #: Undo goes back no further than this many moves; ``_floor_reason`` says why.
        self._floor = 0
        self._floor_reason = ""
        self._news: dict[int, list[str]] = {h: [] for h in self.humans}
        self._story: dict[int, list[Event]] = {h: [] for h in self.humans}
        self._seen = {h: self._state.observation(h) for h in self.humans}
        self._handed_to: int | None = None
        self._started = False
        for a in actions:
            self._apply(int(a), chosen=True)
        self._news = {h: [] for h in self.humans}
        self._settle()

    # --- whose turn --------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return bool(self._state.is_terminal)

    @property
    def to_move(self) -> int | None:
        """The seat to move, None once the game is over."""
        seat = self._state.current_player
        return None if seat is None else int(seat)

    def waiting(self) -> Waiting:
        """What the table waits for: a person's move, a bot's, or nothing (the game is over)."""
        seat = self.to_move
        if seat is None:
            return Waiting("over", None)
        return Waiting("bot" if seat in self.bots else "person", seat)

    def needs_hand_over(self, seat: int) -> bool:
        """Whether a hand-over must stand before ``seat`` is shown anything: several people
        share one screen and another person was shown it last (see ``handed_over``)."""
        return len(self.humans) > 1 and self._handed_to not in (None, seat)

    def handed_over(self, seat: int) -> None:
        """``seat`` now has the screen (after a hand-over, or as the first person to look)."""
        self._handed_to = seat

    # --- what a seat is shown ----------------------------------------------------------

    def view(self, seat: int) -> View:
        """What ``seat`` may see now (its sampled worlds seeded as ``regalia.play`` seeds them)."""
        state = self._state
        return view_of(state, seat, self.game.name, self.game.options, world_seed(self.seed, len(self.actions), seat))

    def observation(self, seat: int) -> dict[str, Any]:
        """``seat``'s observation now (what its board shows)."""
        return dict(self._state.observation(seat))

    def moves(self, seat: int) -> list[tuple[int, str]]:
        """The moves offered to ``seat``: ``(action, name)`` for each legal one at its turn,
        none otherwise."""
        if self.to_move != seat:
            return []
        return [(a, self._state.action_name(a)) for a in self._state.legal_actions()]

    def take_news(self, seat: int) -> list[str]:
        """The lines ``seat`` has not been shown yet (what happened since it last looked)."""
        news = self._news.get(seat, [])
        self._news[seat] = []
        return news

    def peek_news(self, seat: int) -> list[str]:
        """The lines ``seat`` has not been shown yet, left for ``take_news``."""
        return list(self._news.get(seat, []))

    def log(self, seat: int) -> list[Event]:
        """The whole game so far as ``seat`` (a person) was told it, one event a move."""
        return list(self._story.get(seat, []))

    def open_log(self) -> list[Event]:
        """Every move so far with every card open, one event a move: who moved (None for a
        chance draw), the action and its name, no sentences. For an onlooker of a game of
        bots alone, or of a game that is over; never for a seat's page while people play."""
        moves = zip(self._movers, self.actions, self._names)
        return [Event(ply, seat, action, name, ()) for ply, (seat, action, name) in enumerate(moves, 1)]

    def seats_of(self, viewer: int, neutral: bool = False) -> narrate.Seats:
        """The seats as ``viewer`` calls them (``neutral``: every seat by its number)."""
        return narrate.Seats(viewer, list(self.seats), dict(self.game.options), neutral=neutral)

    def introduction(self, viewer: int | None = None) -> str:
        """Who sits where, told to ``viewer`` (None: to everyone, each seat by its number)."""
        seats = self.seats_of(0, neutral=True) if viewer is None else self.seats_of(viewer)
        return narrate.introduction(self.game.title, seats)

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (``State.outcome()``), None while it runs. Public once over: its
        reason, winners and scores reveal nothing hidden beyond the final scores, so every seat
        (and a watcher) may be shown it."""
        outcome: Outcome | None = self._state.outcome()
        return outcome

    def ending(self, viewer: int | None = None) -> list[str]:
        """Why the game ended, the score breakdown and who won, told to ``viewer`` (None:
        from seat 0, naming every seat by its number); none while the game runs. Made from
        the viewer's own observation and the public outcome only."""
        outcome = self.outcome
        if outcome is None:
            return []
        seats = self.seats_of(0, neutral=True) if viewer is None else self.seats_of(viewer)
        return narrate.ending(self.game.name, self._state.observation(seats.viewer), outcome, seats)

    def hint(self, seat: int) -> tuple[str, int]:
        """The strongest built-in agent's name and the move it would play for ``seat`` now."""
        self._expect(seat)
        name = strongest_agent()
        if self._hinter is None:
            self._hinter = make_agent(name, self.seed)
        return name, action_id(self._hinter.act(self.view(seat)))

    # --- moves -------------------------------------------------------------------------

    def play(self, seat: int, action: int) -> None:
        """A person at ``seat`` plays ``action``; then the forced moves that follow play
        themselves. A move out of turn or not legal raises ``IllegalActionError`` and changes
        nothing."""
        self._expect(seat)
        if seat in self.bots:
            raise IllegalActionError(f"seat {seat} is played by {self.seats[seat]}, not by a person")
        if isinstance(action, bool) or not isinstance(action, int) or action not in self._state.legal_actions():
            raise IllegalActionError(f"{action!r} is not a legal move of seat {seat} now")
        self._begin()
        self._apply(action, chosen=True)
        self._settle()

    def play_bot(self) -> int:
        """Lets the bot to move play; returns its action. ``AgentError`` when it fails."""
        seat = self.to_move
        if seat is None or seat not in self.bots:
            raise IllegalActionError("no bot is to move")
        self._begin()
        chosen = self.bots[seat].act(self.view(seat))
        try:
            action = action_id(chosen)
        except TypeError:
            action = -1
        if action not in self._state.legal_actions():
            raise AgentError(f"seat {seat} ({self.seats[seat]}) chose {chosen!r}, not a legal move", seat=seat)
        self._apply(action, chosen=True)
        self._settle()
        return action

    def undo(self, seat: int) -> None:
        """Takes back the person's last move and the bots' moves after it. Refused (with
        ``Refused`` saying why) with several people, with no move to take back, or past a move
        that showed the person something new or another seat's choice."""
        if len(self.humans) != 1 or seat not in self.humans:
            raise Refused("undo is for a game against bots (one person at the table)")
        if not self._marks:
            raise Refused("there is no move of yours to take back")
        if self._marks[-1] < self._floor:
            raise Refused(f"{self._floor_reason}, so your last move stands")
        self._rewind(self._marks.pop())
        self._news = {h: ["you took back your last move"] for h in self.humans}

    def back(self, seat: int) -> None:
        """Backs out of a purchase not yet paid for (Regnum): takes back ``seat``'s moves
        since its last ``buy ...`` in this run of its own moves. ``Refused`` says why not."""
        start = len(self.actions)
        while start > 0 and self._movers[start - 1] == seat:
            start -= 1
        buys = [i for i in range(start, len(self.actions)) if self._names[i].startswith("buy ")]
        if not buys or self._state.observation(seat).get("phase") != "pay":
            raise Refused("'back' backs out of a purchase while you are paying for it")
        if buys[-1] < self._floor:
            raise Refused(f"{self._floor_reason}, so the purchase stands")
        self._rewind(buys[-1])
        self._news[seat] = ["you backed out of the purchase"]

    def finish(self) -> MatchRecord:
        """Plays the bots to the end (a game with no person waiting) and returns the record."""
        while not self.is_over:
            if self.waiting().kind != "bot":
                raise IllegalActionError(f"seat {self.to_move} (a person) is to move")
            self.play_bot()
        return self.record()

    # --- keeping the game --------------------------------------------------------------

    def record(self) -> MatchRecord:
        """The game so far (with returns and scores once it is over)."""
        over = self.is_over
        return MatchRecord(
            game=self.game.name,
            options=dict(self.game.options),
            seed=self.seed,
            agents=list(self.seats),
            actions=list(self.actions),
            returns=self._state.returns() if over else [],
            scores=self._state.scores() if over else [],
        )

    def save(self, path: str | Path) -> Path:
        """Writes the game so far to ``path`` atomically (``regalia.save_game``): ``regalia
        resume`` or ``Table.resume`` continues it. ``OSError`` when it cannot be written."""
        target = Path(path)
        save_game(target, self.record())
        return target

    @classmethod
    def resume(
        cls, record: MatchRecord, game: Any, seats: Sequence[str] | None = None, ask_forced: bool = False
    ) -> Table:
        """The table of a saved game (``record``'s seed and moves) with its seats, or ``seats``."""
        return cls(game, list(record.agents if seats is None else seats), record.seed, record.actions, None, ask_forced)

    # --- inside ------------------------------------------------------------------------

    def _expect(self, seat: int) -> None:
        if self.to_move is None:
            raise IllegalActionError("the game is over")
        if seat != self.to_move:
            raise IllegalActionError(f"it is seat {self.to_move}'s turn, not seat {seat}'s")

    def _begin(self) -> None:
        """Tells the bots the game starts, once, before the first move."""
        if not self._started:
            self._started = True
            for seat, bot in self.bots.items():
                call_hook(bot, "game_start", self.view(seat))

    def _settle(self) -> None:
        """Plays what needs no decision: chance draws, and a person's only legal move (unless
        ``ask_forced``); tells the bots when the game is over."""
        while not self._state.is_terminal:
            if self._state.is_chance_node:
                self._apply(None, chosen=False)
                continue
            seat = int(self._state.current_player)
            legal = self._state.legal_actions()
            if seat in self.bots or self.ask_forced or len(legal) != 1:
                return
            self._apply(legal[0], chosen=False)
        if self._started:
            self._started = False
            returns = self._state.returns()
            for seat, bot in self.bots.items():
                call_hook(bot, "game_end", self.view(seat), returns)

    def _apply(self, action: int | None, chosen: bool) -> None:
        """Plays ``action``: tells every person what they see of it (an event in their log)
        and moves the undo floor past anything new it showed the one person. At a chance
        node the outcome is drawn from the seed (``action``, when given, is the outcome a
        saved game recorded: the draw still advances the generator)."""
        chance = bool(self._state.is_chance_node)
        if chance:
            drawn = self._chance.draw(self._state.chance_outcomes())
            action = drawn if action is None else action
        assert action is not None
        seat = None if chance else int(self._state.current_player)
        if seat in self.humans and chosen:
            self._marks.append(len(self.actions))
        name = self._state.action_name(action)
        said = None if chance else narrate.public(self.game.name, name)
        self._move_floor(seat, action)
        self._state.apply(action)
        self.actions.append(action)
        self._movers.append(seat)
        self._names.append(name)
        for h in self.humans:
            after = self._state.observation(h)
            own = seat == h
            told = name if own else said
            lines = [] if chance else narrate.news(self.game.name, self._seen[h], after, self.seats_of(h), told)
            if own and not chosen:
                lines = [f"Your only legal move, {name}, is played for you.", *lines]
            self._news[h] += lines
            event = Event(len(self.actions), seat, action if own else None, told, tuple(lines), own and not chosen)
            self._story[h].append(event)
            self._seen[h] = after

    def _move_floor(self, seat: int | None, action: int) -> None:
        """Before ``seat`` plays ``action``: undo may not go back past this move if it is
        another seat's choice, chance, or shows the person something new."""
        if len(self.humans) != 1:
            return
        person = self.humans[0]
        if seat is None:
            why = "a card was drawn since"
        elif seat != person:
            why = f"{self.seats_of(person).name(seat)} has moved since"
        elif not told_nothing(self._state, action, person):
            why = "that move showed you something new"
        else:
            return
        self._floor, self._floor_reason = len(self.actions) + 1, why

    def _rewind(self, length: int) -> None:
        """The game as it was after its first ``length`` moves."""
        keep = self.actions[:length]
        self._state = self.game.new_state(self.seed) if self._start is None else self._start.clone()
        self._chance = ChanceDraws(self.seed)
        self.actions, self._movers, self._names = [], [], []
        for a in keep:
            chance = self._state.is_chance_node
            if chance:
                self._chance.draw(self._state.chance_outcomes())
            self._movers.append(None if chance else int(self._state.current_player))
            self._names.append(self._state.action_name(a))
            self._state.apply(a)
            self.actions.append(a)
        self._marks = [m for m in self._marks if m < length]
        self._story = {h: events[:length] for h, events in self._story.items()}
        self._seen = {h: self._state.observation(h) for h in self.humans}
