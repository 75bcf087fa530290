"""OpenSpiel games: every Regalia game registered with pyspiel (``pip install "regalia[openspiel]"``).

>>> import pyspiel
>>> import regalia.openspiel  # registers regalia_duo_regna, regalia_duell_der_drachen, ...
>>> game = pyspiel.load_game("regalia_duo_regna", {"seed": 7})
>>> state = game.new_initial_state()
>>> while not state.is_terminal():
...     state.apply_action(state.legal_actions()[0])
>>> state.returns()

Each game is sequential, imperfect-information and *sampled-stochastic*: the shuffles happen
inside the state, from a seed drawn for each ``new_initial_state()`` from the game's
parameter ``seed``, so there are no chance nodes. Utilities are zero-sum, in [-1, 1], at the
end. The parameters are ``players``, ``seed`` and every option of the game with a number,
bool or string value (list options keep their defaults). Observations: the seat's
``observation_tensor`` and its ``observation`` as JSON text. ``resample_from_infostate``
is the seat's ``determinize``, for OpenSpiel's information-set search (IS-MCTS).
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

import regalia

__all__ = ["MAX_GAME_LENGTH", "game_name", "register"]

#: Declared bound on a game's length, for algorithms that size buffers by it.
MAX_GAME_LENGTH = 100_000


def game_name(name: str) -> str:
    """The pyspiel short name of a Regalia game, e.g. ``regalia_duo_regna``."""
    return "regalia_" + name.replace("-", "_")


class RegaliaObserver:
    """A seat's observation: the tensor (in ``tensor`` / ``dict["observation"]``) and JSON text."""

    def __init__(self, game: Any, iig_obs_type: Any) -> None:
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            raise ValueError("Regalia games provide observations, not perfect-recall information states")
        size = int(np.prod(game.observation_shape))
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict = {"observation": self.tensor.reshape(game.observation_shape)}

    def set_from(self, state: Any, player: int) -> None:
        """Writes ``player``'s view of ``state`` into ``tensor``."""
        state.inner.observation_tensor(player, self.tensor)

    def string_from(self, state: Any, player: int) -> str:
        """``player``'s observation of ``state`` as JSON text."""
        return json.dumps(state.inner.observation(player), sort_keys=True)


class RegaliaState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state wrapping a Regalia state."""

    def __init__(self, game: Any, inner: Any) -> None:
        super().__init__(game)
        self.inner = inner

    def current_player(self) -> int:
        """The seat to act, or ``pyspiel.PlayerId.TERMINAL``."""
        player = self.inner.current_player
        return int(pyspiel.PlayerId.TERMINAL) if player is None else int(player)

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.inner.legal_actions()) if player == self.inner.current_player else []

    def _apply_action(self, action: int) -> None:
        self.inner.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self.inner.action_name(int(action)))

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return bool(self.inner.is_terminal)

    def returns(self) -> list[float]:
        """Each seat's return (zero until the end)."""
        return [float(r) for r in self.inner.returns()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RegaliaState:
        """A state ``player_id`` cannot tell from this one (hidden cards resampled)."""
        seed = random.getrandbits(64)
        return RegaliaState(self.get_game(), self.inner.determinize(player_id, seed))

    def __str__(self) -> str:
        return str(self.inner.to_json())


def _scalar_options(info: dict[str, Any]) -> dict[str, Any]:
    """The game's options that pyspiel parameters can carry, with their defaults."""
    return {
        o["name"]: o["default"]
        for o in info["options"]
        if o["name"] != "players" and isinstance(o["default"], (bool, int, float, str))
    }


def register(info: dict[str, Any]) -> None:
    """Registers one game (an entry of ``regalia.games()``) with pyspiel."""
    options = _scalar_options(info)
    params: dict[str, Any] = {"players": info["min_players"], "seed": 0, **options}
    game_type = pyspiel.GameType(
        short_name=game_name(info["name"]),
        long_name=f"Regalia {info['title']}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info["max_players"],
        min_num_players=info["min_players"],
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )

    class RegaliaGame(pyspiel.Game):  # type: ignore[misc]
        """A Regalia game as a pyspiel game."""

        def __init__(self, params: dict[str, Any] | None = None) -> None:
            given = {**{"players": info["min_players"], "seed": 0}, **(params or {})}
            chosen = {k: v for k, v in given.items() if k in options or k == "players"}
            self.regalia = regalia.make(info["name"], **chosen)
            game_info = pyspiel.GameInfo(
                num_distinct_actions=self.regalia.num_actions,
                max_chance_outcomes=0,
                num_players=self.regalia.num_players,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0,
                max_game_length=MAX_GAME_LENGTH,
            )
            super().__init__(game_type, game_info, params or {})
            self._seeds = random.Random(int(given["seed"]))

        def new_initial_state(self) -> RegaliaState:
            """A new game, from the next seed of the game's generator."""
            return RegaliaState(self, self.regalia.new_state(self._seeds.getrandbits(64)))

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> RegaliaObserver:
            """The observer of a seat's observation."""
            return RegaliaObserver(self.regalia, iig_obs_type)

    RegaliaGame.__name__ = RegaliaGame.__qualname__ = "Regalia" + info["title"].replace(" ", "") + "Game"
    pyspiel.register_game(game_type, RegaliaGame)


for _info in regalia.games():
    if game_name(_info["name"]) not in pyspiel.registered_names():
        register(_info)
