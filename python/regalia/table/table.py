"""One game with people and bots seated at it, run without any terminal or page.

A front-end (the command line, a web page, a notebook) asks the table whose turn it is
(``waiting``), shows a person the moves it offers (``moves``) and the news of what happened
(``take_news``, ``log``), and passes on what the person chose (``play``), or asks the table to
let a bot move (``play_bot``). Everything a seat is shown comes from that seat's view: the
narration is made from its observations, a log event of another seat's move carries no action
id, and undo never goes back past something new to the person (``regalia.table.undo``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal, Protocol

from regalia.agents import Agent, make_agent
from regalia.agents.base import agent_name, as_agent, call_hook
from regalia.core.errors import AgentError, IllegalActionError, InvalidArgumentError, InvalidStateError
from regalia.core.outcome import Outcome
from regalia.core.protocols import GameProtocol, seat_to_act
from regalia.core.seeds import derive_seed
from regalia.core.view import View, action_id, view_of, world_seed
from regalia.registry.records import ChanceDraws, MatchRecord, outcome_fields
from regalia.registry.saves import save_game
from regalia.table import narrate
from regalia.table.events import Event, Refused, Waiting
from regalia.table.seating import HUMAN, strongest_agent
from regalia.table.secret import SystemDraws
from regalia.table.undo import told_nothing

__all__ = ["ChanceFrom", "Table"]

#: Where a table's chance outcomes come from (a game made with explicit chance): the seed
#: (``"seed"``, as ``regalia.play`` draws them), or the operating system's generator as each
#: happens (``"system"``: no seed to search, see ``regalia.table.secret``).
ChanceFrom = Literal["seed", "system"]


class _Draws(Protocol):
    def draw(self, outcomes: list[tuple[int, float]]) -> int: ...
    def skip(self, outcomes: list[tuple[int, float]]) -> None: ...


class Table:
    """A game between ``seats`` (``"human"`` for a person, else a built-in agent's spec or an
    agent object), dealt from ``seed`` and replayed through ``actions`` (a saved game resumes so).

    ``start`` (a state) replaces the deal of ``seed`` (for tests). A person's only legal move
    is played for them unless ``ask_forced``. Chance nodes of a game with explicit chance are
    drawn from the seed, as ``regalia.play`` draws them, or with ``chance_from="system"`` from
    the operating system's generator when they happen; a move and the chance draws after it
    are told to each person as one event, as the seeded game tells them. Bad seats, options
    or actions raise a ``ValueError`` subclass.
    """

    def __init__(
        self,
        game: GameProtocol,
        seats: Sequence[str | Agent],
        seed: int = 0,
        actions: Sequence[int] = (),
        start: Any = None,
        ask_forced: bool = False,
        chance_from: ChanceFrom = "seed",
    ) -> None:
        if chance_from not in ("seed", "system"):
            raise InvalidArgumentError(f"chance_from is 'seed' or 'system', got {chance_from!r}")
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
        #: Who sits at each seat, by seat number: ``"human"`` for a person, else the spec
        #: the bot was given (``"ismcts:iterations=200"``) or an agent object's name. What a
        #: front-end prints beside a seat, and what the record keeps as its ``agents``.
        self.seats = [s if isinstance(s, str) else agent_name(self.bots[i]) for i, s in enumerate(seats)]
        self._start = start
        self.chance_from = chance_from
        self._state = game.new_state(seed) if start is None else start.clone()
        self._chance = self._draws()
        self._hinter: Agent | None = None
        self.actions: list[int] = []
        self._movers: list[int | None] = []
        self._names: list[str] = []
        #: The moves so far that were decisions (not chance draws): the number of the last.
        self._plies = 0
        #: Lines said to everyone of a move (by its number), before what it told them.
        self._notes: dict[int, str] = {}
        #: Recorded moves still to replay (a resumed game's); chance nodes take theirs from it.
        self._script: deque[int] = deque(int(a) for a in actions)
        #: Where each of the person's own chosen moves starts (what ``undo`` takes back to).
        self._marks: list[int] = []
        #: Undo goes back no further than this many moves; ``_floor_reason`` says why.
        self._floor = 0
        self._floor_reason = ""
        self._news: dict[int, list[str]] = {h: [] for h in self.humans}
        self._story: dict[int, list[Event]] = {h: [] for h in self.humans}
        self._handed_to: int | None = None
        self._started = False
        self._draw_chance()  # the deal, when chance is explicit
        self._seen = {h: self._state.observation(h) for h in self.humans}
        self._replay()
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
        """The lines ``seat`` has not been shown yet (what happened since it last looked).
        Once the game is over, what the last moves told it, if not taken yet: the ending
        (``ending``) is never in the news; show it after."""
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
        """Every move so far with every card open, one event a move: who moved, the action
        and its name, no sentences (chance draws are not listed: the cards show what they
        dealt). For an onlooker of a game of bots alone, or of a game that is over; never
        for a seat's page while people play."""
        moves = [(seat, action, name) for seat, action, name in zip(self._movers, self.actions, self._names)]
        decisions = [(seat, action, name) for seat, action, name in moves if seat is not None]
        return [
            Event(ply, seat, action, name, (name, self._notes[ply]) if ply in self._notes else ())
            for ply, (seat, action, name) in enumerate(decisions, 1)
        ]

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
        """What the strongest built-in agent would play for ``seat`` now: ``(agent, action)``,
        the agent's name (``"best"``) and the action id it chose, a legal move of ``seat``
        (its name is the one ``moves(seat)`` pairs with it). The agent sees ``seat``'s view
        only. ``IllegalActionError`` when it is not ``seat``'s turn or the game is over."""
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
        self._move(action, chosen=True)
        self._settle()

    def bot_turn(self) -> tuple[int, Agent, View]:
        """The bot to move: its seat, its agent and its view, for a front-end that lets it
        think elsewhere and then plays its choice (``play_bot(chosen)``); the bots are told
        the game starts first. ``IllegalActionError`` when no bot is to move."""
        seat = self.to_move
        if seat is None or seat not in self.bots:
            raise IllegalActionError("no bot is to move")
        self._begin()
        return seat, self.bots[seat], self.view(seat)

    def play_bot(self, chosen: Any = None) -> int:
        """Lets the bot to move play ``chosen`` (by default, what it chooses now); returns
        its action. ``AgentError`` when it chose no legal move."""
        seat = self.to_move
        if seat is None or seat not in self.bots:
            raise IllegalActionError("no bot is to move")
        self._begin()
        if chosen is None:
            chosen = self.bots[seat].act(self.view(seat))
        try:
            action = action_id(chosen)
        except TypeError:
            action = -1
        if action not in self._state.legal_actions():
            raise AgentError(f"seat {seat} ({self.seats[seat]}) chose {chosen!r}, not a legal move", seat=seat)
        self._move(action, chosen=True)
        self._settle()
        return action

    @property
    def plies(self) -> int:
        """How many moves have been played (chance draws not counted): the last one's number."""
        return self._plies

    def annotate(self, ply: int, line: str) -> None:
        """Says ``line`` to everyone of move ``ply``, before what each person was told of
        it (in their log and ``open_log``): a front-end's word on the move, such as a bot
        that ran out of time. It must say nothing a seat may not know."""
        self._notes[ply] = line
        for events in self._story.values():
            for i, event in enumerate(events):
                if event.ply == ply:
                    events[i] = replace(event, lines=(line, *event.lines))

    def undo(self, seat: int) -> None:
        """Takes back the person's last move and the bots' moves after it. Refused (with
        ``Refused`` saying why) with several people, once the game is over, with no move to
        take back, or past a move that showed the person something new or another seat's
        choice (``can_undo`` says beforehand)."""
        why = self._undo_refusal(seat)
        if why is not None:
            raise Refused(why)
        self._rewind(self._marks.pop())
        self._news = {h: ["you took back your last move"] for h in self.humans}

    def can_undo(self, seat: int) -> bool:
        """Whether ``undo(seat)`` would take a move back now (what a front-end offers)."""
        return self._undo_refusal(seat) is None

    def _undo_refusal(self, seat: int) -> str | None:
        """Why ``undo(seat)`` is refused now, None when it is not."""
        if len(self.humans) != 1 or seat not in self.humans:
            return "undo is for a game against bots (one person at the table)"
        if self.is_over:
            return "the game is over: it stands as played"
        if not self._marks:
            return "there is no move of yours to take back"
        if self._marks[-1] < self._floor:
            return f"{self._floor_reason}, so your last move stands"
        return None

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
        """The game so far (with returns, scores and the outcome once it is over)."""
        over = self.is_over
        outcome = self.outcome
        return MatchRecord(
            game=self.game.name,
            options=dict(self.game.options),
            seed=self.seed,
            agents=list(self.seats),
            actions=list(self.actions),
            returns=self._state.returns() if over else [],
            scores=self._state.scores() if over else [],
            outcome=None if outcome is None else outcome_fields(outcome),
        )

    def save(self, path: str | Path) -> Path:
        """Writes the game so far to ``path`` atomically (``regalia.save_game``): ``regalia
        resume`` or ``Table.resume`` continues it. ``OSError`` when it cannot be written."""
        target = Path(path)
        save_game(target, self.record())
        return target

    @classmethod
    def resume(
        cls,
        record: MatchRecord,
        game: GameProtocol,
        seats: Sequence[str] | None = None,
        ask_forced: bool = False,
        chance_from: ChanceFrom = "seed",
    ) -> Table:
        """The table of a saved game (``record``'s seed and moves) with its seats, or ``seats``;
        its chance to come drawn as ``chance_from`` says."""
        seated = list(record.agents if seats is None else seats)
        return cls(game, seated, record.seed, record.actions, None, ask_forced, chance_from)

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
        """Plays what needs no decision: a person's only legal move (unless ``ask_forced``);
        tells the bots when the game is over."""
        while not self._state.is_terminal:
            seat = seat_to_act(self._state)
            legal = self._state.legal_actions()
            if seat in self.bots or self.ask_forced or len(legal) != 1:
                return
            self._move(legal[0], chosen=False)
        if self._started:
            self._started = False
            returns = self._state.returns()
            for seat, bot in self.bots.items():
                call_hook(bot, "game_end", self.view(seat), returns)

    def _replay(self) -> None:
        """Plays the recorded moves of a resumed game, each told as it was: a person's only
        legal move as played for them (unless ``ask_forced``), the others as chosen."""
        while self._script:
            if self._state.is_terminal:
                raise InvalidStateError(f"the game ended with {len(self._script)} recorded moves still to play")
            action = self._script.popleft()
            seat = seat_to_act(self._state)
            legal = self._state.legal_actions()
            if action not in legal:
                raise IllegalActionError(f"recorded move {action} is not legal for seat {seat} there")
            forced = seat in self.humans and not self.ask_forced and len(legal) == 1
            self._move(action, chosen=not forced)

    def _move(self, action: int, chosen: bool) -> None:
        """Plays the decision ``action`` and the chance draws after it, tells every person
        what they see of both (one event in their log), and moves the undo floor past
        anything new it showed the one person."""
        seat = seat_to_act(self._state)
        if seat in self.humans and chosen:
            self._marks.append(len(self.actions))
        name = self._state.action_name(action)
        said = narrate.public(self.game.name, name)
        self._move_floor(seat, action)
        self._push(seat, action, name)
        self._draw_chance()
        self._plies += 1
        for h in self.humans:
            after = self._state.observation(h)
            own = seat == h
            told = name if own else said
            lines = narrate.news(self.game.name, self._seen[h], after, self.seats_of(h), told)
            if own and not chosen:
                lines = [f"Your only legal move, {name}, is played for you.", *lines]
            self._news[h] += lines
            event = Event(self._plies, seat, action if own else None, told, tuple(lines), own and not chosen)
            self._story[h].append(event)
            self._seen[h] = after

    def _draw_chance(self) -> None:
        """Plays the chance nodes from here on (a game with explicit chance): each outcome
        the recorded one of a resumed game, else drawn (``chance_from``)."""
        while self._state.is_chance_node:
            outcomes = self._state.chance_outcomes()
            if self._script:
                outcome = self._script.popleft()
                self._chance.skip(outcomes)
            else:
                outcome = self._chance.draw(outcomes)
            self._move_floor(None, outcome)
            self._push(None, outcome, self._state.action_name(outcome))

    def _push(self, seat: int | None, action: int, name: str) -> None:
        """Applies ``action`` (of ``seat``, None: chance) and keeps it with its name."""
        self._state.apply(action)
        self.actions.append(action)
        self._movers.append(seat)
        self._names.append(name)

    def _draws(self) -> _Draws:
        """A fresh source of chance outcomes, as ``chance_from`` says."""
        return SystemDraws() if self.chance_from == "system" else ChanceDraws(self.seed)

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
        """The game as it was after its first ``length`` moves (``length`` a decision's
        place: undo never goes back past a chance draw)."""
        keep = self.actions[:length]
        self._state = self.game.new_state(self.seed) if self._start is None else self._start.clone()
        self._chance = self._draws() if self.chance_from == "seed" else self._chance
        self.actions, self._movers, self._names = [], [], []
        for a in keep:
            chance = self._state.is_chance_node
            if chance:
                self._chance.skip(self._state.chance_outcomes())
            self._push(None if chance else seat_to_act(self._state), a, self._state.action_name(a))
        self._plies = sum(seat is not None for seat in self._movers)
        self._marks = [m for m in self._marks if m < length]
        self._story = {h: [e for e in events if e.ply <= self._plies] for h, events in self._story.items()}
        self._notes = {ply: line for ply, line in self._notes.items() if ply <= self._plies}
        self._seen = {h: self._state.observation(h) for h in self.humans}
