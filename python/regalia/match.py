"""Playing a match between agents, and the record that replays it exactly."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from regalia import jsontext
from regalia.agents import AgentLike, as_agent, make_agent
from regalia.agents.base import action_id, agent_name, call_hook, draw_outcome, view_of, world_seed
from regalia.errors import AgentError, InvalidArgumentError, InvalidStateError
from regalia.seeds import derive_seed

#: What ``play`` does when an agent raises or chooses an illegal action.
OnError = Literal["raise", "forfeit"]

_FIELDS = ("game", "options", "seed", "agents", "actions", "returns", "scores", "error", "forfeit")


@dataclass
class MatchRecord:
    """Everything needed to replay a match: game, options, seed, agents and every action;
    and how it ended: returns and scores, or the error that stopped it."""

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
        return record

    def replay(self, backend: str = "rust") -> Any:
        """The last state, rebuilt from the seed and the actions."""
        import regalia

        state = regalia.make(self.game, backend=backend, **self.options).new_state(self.seed)  # type: ignore[arg-type]
        for a in self.actions:
            state.apply(a)
        return state


def forfeit_returns(players: int, seat: int) -> list[float]:
    """Returns when ``seat`` forfeits: it loses (-1), the others share +1."""
    return [-1.0 if s == seat else 1.0 / (players - 1) for s in range(players)]


def _agents(players: Sequence[AgentLike | str], seed: int) -> list[Any]:
    return [
        make_agent(p, derive_seed(seed ^ 0xA6E7, seat)) if isinstance(p, str) else as_agent(p)
        for seat, p in enumerate(players)
    ]


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


def play(game: Any, agents: Sequence[AgentLike | str], seed: int = 0, on_error: OnError = "raise") -> MatchRecord:
    """Plays one game between ``agents`` (one per seat) and returns its record.

    A game made with explicit chance (``chance="explicit"``) has its chance outcomes drawn
    by their probabilities from the seed (``ChanceDraws``) and recorded with the moves.

    ``game`` is a game or a game id (made for as many players as there are agents, where
    the game allows that count, as the command line does); an agent is an object with ``act(view)``, a plain
    function of the view, or a built-in agent's name (seeded from ``seed`` and its seat).
    An agent that raises or chooses an illegal action stops the match: with
    ``on_error="raise"`` an ``AgentError`` names the seat and the action and carries the
    record (complete up to that point) as ``.record``; with ``"forfeit"`` that seat loses and
    the record says so (``record.forfeit``, ``record.error``).
    """
    if isinstance(game, str):
        import regalia

        info = next((g for g in regalia.games() if game in (g["name"], *g["aliases"])), None)
        varies = info is not None and info["min_players"] != info["max_players"]
        fits = varies and info is not None and info["min_players"] <= len(agents) <= info["max_players"]
        game = regalia.make(game, players=len(agents)) if fits else regalia.make(game)
    if on_error not in ("raise", "forfeit"):
        raise InvalidArgumentError(f"on_error must be 'raise' or 'forfeit', got {on_error!r}")
    if len(agents) != game.num_players:
        raise InvalidArgumentError(f"{game.name} needs {game.num_players} agents, got {len(agents)}")
    players = _agents(agents, seed)
    options = game.options
    record = MatchRecord(game.name, options, seed, [agent_name(a) for a in players])
    state = game.new_state(seed)

    def view(seat: int) -> Any:
        return view_of(state, seat, game.name, options, world_seed(seed, len(record.actions), seat))

    def fail(seat: int, action: Any, message: str, cause: BaseException | None) -> MatchRecord:
        record.error = {"seat": seat, "agent": record.agents[seat], "action": action, "message": message}
        record.scores = state.scores()
        if on_error == "forfeit":
            record.forfeit = seat
            record.returns = forfeit_returns(game.num_players, seat)
            return record
        raise AgentError(message, record=record, seat=seat, action=action) from cause

    chance = ChanceDraws(seed)
    for seat, agent in enumerate(players):
        call_hook(agent, "game_start", view(seat))
    while not state.is_terminal:
        if state.is_chance_node:
            outcome = chance.draw(state.chance_outcomes())
            state.apply(outcome)
            record.actions.append(outcome)
            continue
        seat = state.current_player
        who = f"seat {seat} ({record.agents[seat]})"
        v = view(seat)
        try:
            chosen = players[seat].act(v)
        except Exception as e:
            return fail(seat, None, f"{who} raised {type(e).__name__}: {e}", e)
        try:
            action = action_id(chosen)
        except TypeError:
            return fail(seat, repr(chosen), f"{who} chose {chosen!r}, which is not an action id", None)
        if action not in v.legal_actions:
            name = state.action_name(action) if 0 <= action < game.num_actions else "out of range"
            legal = ", ".join(f"{a} ({n})" for a, n in zip(v.legal_actions, v.action_names))
            return fail(seat, action, f"{who} chose illegal action {action} ({name}); legal: {legal}", None)
        state.apply(action)
        record.actions.append(action)
    record.returns = state.returns()
    record.scores = state.scores()
    for seat, agent in enumerate(players):
        call_hook(agent, "game_end", view(seat), record.returns)
    return record
