"""Playing one match between agents; its record (``MatchRecord``) replays it exactly."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from regalia.agents import AgentLike, as_agent, make_agent
from regalia.agents.base import agent_name, call_hook
from regalia.core.errors import AgentError, InvalidArgumentError
from regalia.core.protocols import GameProtocol, seat_to_act
from regalia.core.seeds import derive_seed
from regalia.core.view import action_id, view_of, world_seed
from regalia.registry.catalog import make_for
from regalia.registry.records import ChanceDraws, MatchRecord, forfeit_returns, outcome_fields

__all__ = ["OnError", "play"]

#: What ``play`` does when an agent raises or chooses an illegal action.
OnError = Literal["raise", "forfeit"]


def _agents(players: Sequence[AgentLike | str], seed: int) -> list[Any]:
    return [
        make_agent(p, derive_seed(seed ^ 0xA6E7, seat)) if isinstance(p, str) else as_agent(p)
        for seat, p in enumerate(players)
    ]


def play(
    game: GameProtocol | str, agents: Sequence[AgentLike | str], seed: int = 0, on_error: OnError = "raise"
) -> MatchRecord:
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
        game = make_for(game, len(agents))
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
        seat = seat_to_act(state)
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
    ended = state.outcome()  # never None here: the game is over
    record.outcome = None if ended is None else outcome_fields(ended)
    for seat, agent in enumerate(players):
        call_hook(agent, "game_end", view(seat), record.returns)
    return record
