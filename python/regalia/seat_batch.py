"""One learning seat in each of many native games: the mechanism under the vector envs of
the RL libraries (``regalia.sb3``, ``regalia.gymnasium.RegaliaVectorEnv``).

Every step is one call into Rust for all games (``VectorEnv.step_seats``): the learner's
actions are played, then the other seats'. Where every opponent is the built-in ``random``
the other seats are played in that same call, natively; any other opponent (a name, an
agent object, a function, a trained ``policy``) is asked through Python, one view per game
waiting for it, and its moves are played natively in further calls until the learner is to
move again in every game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from regalia._core import VectorEnv
from regalia.agents import Agent, view_of
from regalia.agents.base import call_hook, world_seed
from regalia.agents.opponents import Opponents, OpponentSpec, checked_action
from regalia.errors import AgentError, InvalidArgumentError
from regalia.seeds import derive_seed

__all__ = ["SeatBatch", "SeatStep"]


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


class SeatBatch:
    """``num_envs`` games of ``game``, the learner at ``seat`` (one seat for all games, or
    one per game) against ``opponents`` (as in ``regalia.gymnasium.RegaliaEnv``). A game
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
        n, players = self.batch.num_envs, self.game.num_players
        seats = [seat] * n if isinstance(seat, int) else list(seat)
        if len(seats) != n or any(not isinstance(s, int) or not 0 <= s < players for s in seats):
            raise InvalidArgumentError(f"seat must be a seat from 0 to {players - 1}, or one for each of the {n} games")
        self.seats = np.array(seats, dtype=np.int64)
        self.set_opponents(opponents)
        self._agents: list[dict[int, Agent]] = [{} for _ in range(n)]
        self._last: SeatStep | None = None

    @property
    def num_envs(self) -> int:
        """Number of games."""
        return self.batch.num_envs

    def set_opponents(self, opponents: OpponentSpec | Sequence[OpponentSpec]) -> None:
        """Who plays the other seats from each game's next start on (``reset`` starts all)."""
        players = self.game.num_players
        self.opponents = {int(s): Opponents(opponents, players, int(s)) for s in set(self.seats.tolist())}
        self.native = all(o.is_native_random() for o in self.opponents.values())

    def reset(self, seed: int | None = None) -> SeatStep:
        """Starts every game again (from ``seed`` when given) and plays the opponents until
        the learner is to move."""
        self.batch.reset(seed)
        self._agents = [{} for _ in range(self.num_envs)]
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

    def _advance(self, actions: npt.NDArray[Any]) -> SeatStep:
        obs, masks, rewards, terminated, players, finals = self.batch.step_seats(self.seats, actions, self.native)
        rows = np.arange(self.num_envs)
        mine = rewards[rows, self.seats].copy()
        ended = terminated.copy()
        if not self.native:
            for i in np.flatnonzero(ended):
                self._agents[i] = {}
            while True:
                waiting = np.flatnonzero((players != self.seats) & (players >= 0))
                if not len(waiting):
                    break
                moves = np.full(self.num_envs, -1, dtype=np.int64)
                for i in waiting:
                    moves[i] = self._opponent_move(int(i), int(players[i]))
                obs, masks, rewards, terminated, players, new_finals = self.batch.step_seats(self.seats, moves, False)
                mine += rewards[rows, self.seats]
                finals[terminated] = new_finals[terminated]
                ended |= terminated
                for i in np.flatnonzero(terminated):
                    self._agents[i] = {}
        masks = masks & (players == self.seats)[:, None]
        self._last = SeatStep(obs, masks, mine, ended, finals)
        return self._last

    def _opponent_move(self, i: int, seat: int) -> int:
        state = self.batch.state(i)
        match_seed = int(state.seed or 0)
        if not self._agents[i]:
            opponents = self.opponents[int(self.seats[i])]
            agents = opponents.agents([derive_seed(match_seed, s) for s in opponents.seats])
            game, options = self.game.name, self.game.options
            for s, agent in agents.items():
                call_hook(agent, "game_start", view_of(state, s, game, options, world_seed(match_seed, 0, s)))
            self._agents[i] = agents
        try:
            return checked_action(self._agents[i][seat], state, seat, self.game.name, self.game.options, match_seed)
        except AgentError as e:
            raise AgentError(f"game {i}: {e}", seat=e.seat, action=e.action) from e
