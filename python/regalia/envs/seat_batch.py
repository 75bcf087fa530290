"""One learning seat in each of many native games: the mechanism under the vector envs of
the RL libraries (``regalia.envs.sb3``, ``regalia.envs.gymnasium.RegaliaVectorEnv``).

Every step is one call into Rust for all games (``VectorEnv.step_seats``): the learner's
actions are played, then the other seats'. Opponents the engine plays by itself
(``regalia.agents.native``: ``random``, ``ismcts``, a trained ``policy`` and the fixed
strategies ``first-legal``, ``last-legal`` and ``fixed-order``, by name or as those agents'
objects) move in that same call, natively, on the env's threads. The games left waiting for
another opponent are answered together where that opponent can be: a ``BatchAgent`` of
another kind in one call for all its games from their observation tensors and masks; any
other opponent (a name, an agent object, a function) is asked through Python, one view per
game. Their moves are played natively in further calls until the learner is to move again
in every game.

Opponents are fixed for all games (``set_opponents``) or drawn per game from a pool
(``set_opponent_pool``: each game that starts plays one entry, drawn from its seed), e.g. a
mix of fixed strategies and past checkpoints for self-play.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from regalia.agents import Agent, BatchAgent, make_agent, view_of
from regalia.agents.base import agent_name, call_hook
from regalia.agents.native import native_opponent
from regalia.agents.opponents import Opponents, OpponentSpec, checked_action
from regalia.core.engine import Game, Opponent, VectorEnv
from regalia.core.errors import AgentError, InvalidArgumentError, InvalidOptionError
from regalia.core.seeds import derive_seed
from regalia.core.view import world_seed

__all__ = ["SeatBatch", "SeatStep"]

#: A pool entry's opponent at one seat: one the engine plays, an agent asked for many games
#: at once, or a spec asked game by game through Python.
_Kind = Opponent | BatchAgent | str | Agent


@dataclass
class SeatStep:
    """What one step shows the learner of every game (one row per game)."""

    observations: npt.NDArray[np.float32]
    #: The learner's legal actions (all false where it is not to move: only in a game that
    #: ended before the learner could move).
    masks: npt.NDArray[np.bool_]
    #: The learner's return in each game that ended on this step, else 0.
    rewards: npt.NDArray[np.float32]
    terminated: npt.NDArray[np.bool_]
    #: The learner's observation of the last position of each game that ended (zeros elsewhere).
    final_observations: npt.NDArray[np.float32]


def _kind(spec: str | Agent, game: Game, seed: int) -> _Kind:
    """How ``spec`` is asked: natively where the engine can play it, a ``BatchAgent``
    (given, or made once from a name) for many games at once, anything else game by game."""
    native = native_opponent(spec, game, seed)
    if native is not None:
        return native
    if isinstance(spec, BatchAgent):
        return spec
    if isinstance(spec, str):
        made = make_agent(spec, seed)
        if isinstance(made, BatchAgent):
            return made
    return spec


class SeatBatch:
    """``num_envs`` games of ``game``, the learner at ``seat`` (one seat for all games, or
    one per game) against ``opponents`` (as in ``regalia.envs.gymnasium.RegaliaEnv``). A game
    that ends restarts at once; game ``e`` of slot ``i`` is seeded as in ``VectorEnv``."""

    def __init__(
        self,
        game: str,
        num_envs: int,
        seat: int | Sequence[int] = 0,
        opponents: OpponentSpec | Sequence[OpponentSpec] = "random",
        seed: int = 0,
        threads: int | None = None,
        **options: Any,
    ) -> None:
        self.batch = VectorEnv(game, num_envs, seed=seed, threads=threads, **options)
        self.game = self.batch.game
        self.seed = seed
        n, players = self.batch.num_envs, self.game.num_players
        seats = [seat] * n if isinstance(seat, int) else list(seat)
        if len(seats) != n or any(not isinstance(s, int) or not 0 <= s < players for s in seats):
            raise InvalidArgumentError(f"seat must be a seat from 0 to {players - 1}, or one for each of the {n} games")
        self.seats = np.array(seats, dtype=np.int64)
        #: Each game's opponents (of the pool entry it drew when it started) and how each is
        #: asked; kept up to date while some opponent is asked through Python.
        self._playing: list[tuple[Opponents, dict[int, _Kind]]] = []
        self.set_opponents(opponents)
        seeds = self.batch.seeds()
        self._playing = [self._draw(i, int(seeds[i])) for i in range(n)]
        self._agents: list[dict[int, Agent]] = [{} for _ in range(n)]
        self._last: SeatStep | None = None

    @property
    def num_envs(self) -> int:
        """Number of games."""
        return self.batch.num_envs

    def set_opponents(self, opponents: OpponentSpec | Sequence[OpponentSpec]) -> None:
        """Who plays the other seats from each game's next start on (``reset`` starts all)."""
        self.set_opponent_pool([opponents])

    def set_opponent_pool(self, pool: Sequence[OpponentSpec | Sequence[OpponentSpec]]) -> None:
        """Opponents drawn per game: each game that starts from now on (``reset`` starts all)
        plays one entry of ``pool`` (each entry as ``opponents`` in ``set_opponents``; repeat
        an entry to weigh it), drawn uniformly from the game's seed. Games under way keep
        their opponents."""
        if isinstance(pool, str) or not isinstance(pool, Sequence) or not len(pool):
            raise InvalidOptionError("an opponent pool is a non-empty list of opponents")
        players = self.game.num_players
        learner_seats = sorted(set(self.seats.tolist()))
        opponents = [{s: Opponents(entry, players, s) for s in learner_seats} for entry in pool]
        # Each entry lists its opponents in the order of the other seats, whatever the
        # learner's seat: one kind per listed opponent, shared by every learner seat.
        listed = [list(entry[learner_seats[0]].specs.values()) for entry in opponents]
        kinds = [[_kind(x, self.game, derive_seed(self.seed, k)) for x in entry] for k, entry in enumerate(listed)]
        self.batch.set_opponent_pool([[k if isinstance(k, Opponent) else None for k in entry] for entry in kinds])
        self.pool = opponents
        #: Whether the engine plays every opponent of every entry (no Python between steps).
        self.native = all(isinstance(k, Opponent) for entry in kinds for k in entry)
        #: How each entry's opponent at each seat is asked, by entry and learner seat.
        self._kinds = [{s: dict(zip(o.specs, k)) for s, o in entry.items()} for entry, k in zip(opponents, kinds)]
        #: Whether games under way may still play an earlier entry with an opponent asked
        #: through Python (they keep their opponents), so that steps still ask Python.
        self._draining = self.native and self._asks_python()

    def _asks_python(self) -> bool:
        """Whether some game under way plays an opponent the engine does not (as far as
        known: a game started while only the engine played is counted by its earlier entry)."""
        return any(not isinstance(k, Opponent) for _, kinds in self._playing for k in kinds.values())

    def reset(self, seed: int | None = None) -> SeatStep:
        """Starts every game again (from ``seed`` when given) and plays the opponents until
        the learner is to move."""
        self.batch.reset(seed)
        self._started(np.ones(self.num_envs, dtype=np.bool_))
        self._draining = False
        none = np.full(self.num_envs, -1, dtype=np.int64)
        return self._advance(none)

    def step(self, actions: npt.ArrayLike) -> SeatStep:
        """Plays the learner's ``actions`` (one per game), then the opponents until the
        learner is to move again; an illegal learner action raises ``IllegalActionError``
        naming the game (nothing played), an opponent's raises ``AgentError`` naming the game,
        the seat and the action (then ``reset``)."""
        return self._advance(np.asarray(actions))

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions in every game now, one bool row per game."""
        if self._last is None:
            return np.zeros((self.num_envs, self.game.num_actions), dtype=np.bool_)
        return self._last.masks

    def _draw(self, i: int, game_seed: int) -> tuple[Opponents, dict[int, _Kind]]:
        """The opponents of game ``i``, which started from ``game_seed``: one pool entry."""
        k = derive_seed(game_seed, 0x0990) % len(self.pool) if len(self.pool) > 1 else 0
        seat = int(self.seats[i])
        return self.pool[k][seat], self._kinds[k][seat]

    def _advance(self, actions: npt.NDArray[Any]) -> SeatStep:
        obs, masks, rewards, terminated, players, finals = self.batch.step_seats(self.seats, actions)
        rows = np.arange(self.num_envs)
        mine = rewards[rows, self.seats].copy()
        ended = terminated.copy()
        if not self.native or self._draining:
            self._started(ended)
            while True:
                waiting = (players != self.seats) & (players >= 0)
                if not waiting.any():
                    break
                moves = self._opponent_moves(waiting, players, masks)
                obs, masks, rewards, terminated, players, new_finals = self.batch.step_seats(self.seats, moves)
                mine += rewards[rows, self.seats]
                finals[terminated] = new_finals[terminated]
                ended |= terminated
                self._started(terminated)
            self._draining = self.native and self._asks_python()
        masks = masks & (players == self.seats)[:, None]
        self._last = SeatStep(obs, masks, mine, ended, finals)
        return self._last

    def _started(self, started: npt.NDArray[np.bool_]) -> None:
        """Draws the opponents of every game that has just started."""
        if not started.any():
            return
        seeds = self.batch.seeds()
        for i in np.flatnonzero(started):
            self._agents[i] = {}
            self._playing[i] = self._draw(int(i), int(seeds[i]))

    def _opponent_moves(
        self, waiting: npt.NDArray[np.bool_], players: npt.NDArray[np.int64], masks: npt.NDArray[np.bool_]
    ) -> npt.NDArray[np.int64]:
        """The move of the opponent to play in every waiting game (``-1`` elsewhere), one the
        engine does not play: batched, or asked game by game."""
        moves = np.full(self.num_envs, -1, dtype=np.int64)
        groups: dict[int, tuple[BatchAgent, list[int]]] = {}
        observed: npt.NDArray[np.float32] | None = None
        for i in np.flatnonzero(waiting).tolist():
            seat = int(players[i])
            kind = self._playing[i][1][seat]
            if isinstance(kind, BatchAgent):
                groups.setdefault(id(kind), (kind, []))[1].append(i)
            else:
                moves[i] = self._opponent_move(i, seat)
        for agent, games in groups.values():
            if observed is None:
                observed = self._observe(players)
            chosen = np.asarray(agent.act_batch(self.game, observed[games], masks[games]), dtype=np.int64)
            for g, action in zip(games, chosen.tolist()):
                if not (0 <= action < masks.shape[1] and masks[g, action]):
                    seat = int(players[g])
                    who = f"opponent at seat {seat} ({agent_name(agent)})"
                    raise AgentError(f"game {g}: {who} chose illegal action {action}", seat=seat, action=action)
                moves[g] = action
        return moves

    def _observe(self, players: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
        """Each game's observation tensor for its current player (the learner's where the
        game is over): a step that plays no move (``-1``) shows them."""
        seats = np.where(players >= 0, players, self.seats)
        observations: npt.NDArray[np.float32] = self.batch.step_seats(seats, np.full(self.num_envs, -1))[0]
        return observations

    def _opponent_move(self, i: int, seat: int) -> int:
        state = self.batch.state(i)
        match_seed = int(state.seed or 0)
        if not self._agents[i]:
            opponents = self._playing[i][0]
            agents = opponents.agents([derive_seed(match_seed, s) for s in opponents.seats])
            game, options = self.game.name, self.game.options
            for s, agent in agents.items():
                call_hook(agent, "game_start", view_of(state, s, game, options, world_seed(match_seed, 0, s)))
            self._agents[i] = agents
        try:
            return checked_action(self._agents[i][seat], state, seat, self.game.name, self.game.options, match_seed)
        except AgentError as e:
            raise AgentError(f"game {i}: {e}", seat=e.seat, action=e.action) from e
