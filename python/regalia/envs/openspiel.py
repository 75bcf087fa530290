"""OpenSpiel games: every Regalia game registered with pyspiel (``pip install "regalia[openspiel]"``).

>>> import pyspiel
>>> import regalia.envs.openspiel  # registers regalia_duo_regna, regalia_duell_der_drachen, ...
>>> game = pyspiel.load_game("regalia_duo_regna", {"rng_seed": 7})
>>> state = game.new_initial_state()
>>> while not state.is_terminal():
...     state.apply_action(state.legal_actions()[0])
>>> state.returns()

Each game is sequential, imperfect-information and *sampled-stochastic*: the shuffles happen
inside the state, from a seed drawn for each ``new_initial_state()`` from the game's
parameter ``rng_seed`` (OpenSpiel's name for a sampled-stochastic game's seed; ``seed`` is not
a parameter), so there are no chance nodes. A pickled game goes on with the seeds where it
was. A game made with the option ``chance="explicit"`` (where the game has it) is
*explicit-stochastic* instead: each random event is an OpenSpiel chance node, its outcomes
from the state's ``chance_outcomes()``. Utilities are zero-sum, in [-1, 1], at the
end. The parameters are ``players``, ``rng_seed``, ``info_state_slots`` and every option of the
game (a list or ``None`` option is given as JSON text, where ``;`` may stand for ``,``, e.g.
``{"dragon_deck": "[1; 0]"}``: then ``pyspiel.load_game(str(game))`` loads the same game).

Observations: the seat's ``observation_tensor`` and its ``observation`` as JSON text.
Information states are perfect recall: the seat's ``information_state_string`` (everything it
saw and played) and ``information_state_tensor`` keeping the newest ``info_state_slots``
entries of that record (``info_state_slots=0``: the whole record, at a size fixed by the
game's longest history, for the games whose histories are bounded, e.g. Duell der Drachen).
``resample_from_infostate`` is the seat's ``determinize``, seeded from the sampler it is
given, for OpenSpiel's information-set search (IS-MCTS). Games and states pickle, and
``serialize()`` / ``game.deserialize_state()`` go through the state's saved form.
"""

from __future__ import annotations

import json
import random
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import pyspiel

from regalia.core.errors import InvalidOptionError
from regalia.core.protocols import GameProtocol, StateProtocol
from regalia.registry.catalog import games, make

__all__ = ["DEFAULT_INFO_STATE_SLOTS", "MAX_GAME_LENGTH", "WHOLE_RECORD_SLOTS", "game_name", "load", "register"]

#: Declared bound on a game's length, for algorithms that size buffers by it.
MAX_GAME_LENGTH = 100_000
#: Record entries an information-state tensor keeps unless the ``info_state_slots``
#: parameter says otherwise.
DEFAULT_INFO_STATE_SLOTS = 16
#: The ``info_state_slots`` that asks for the whole record (``slots="all"`` of the engine).
WHOLE_RECORD_SLOTS = 0


def game_name(name: str) -> str:
    """The pyspiel short name of a Regalia game, e.g. ``regalia_duo_regna``."""
    return "regalia_" + name.replace("-", "_")


def load(name: str, params: dict[str, Any]) -> Any:
    """``pyspiel.load_game(name, params)`` (registering the games first): how pickles load."""
    return pyspiel.load_game(name, params)


class RegaliaObserver:
    """A seat's view: with ``perfect_recall`` its information state, else its observation;
    the tensor (in ``tensor`` / ``dict``) and the text."""

    def __init__(self, game: GameProtocol, iig_obs_type: Any, slots: int | Literal["all"]) -> None:
        self.perfect_recall = iig_obs_type is None or bool(iig_obs_type.perfect_recall)
        self.slots = slots
        if self.perfect_recall:
            shape = tuple(game.information_state_shape(slots))
            self.tensor = np.zeros(int(np.prod(shape)), dtype=np.float32)
            self.dict: dict[str, npt.NDArray[np.float32]] = {"info_state": self.tensor}
        else:
            shape = tuple(game.observation_shape)
            self.tensor = np.zeros(int(np.prod(shape)), dtype=np.float32)
            self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: RegaliaState, player: int) -> None:
        """Writes ``player``'s view of ``state`` into ``tensor``."""
        if self.perfect_recall:
            self.tensor[:] = state.inner.information_state_tensor(player, self.slots)
        else:
            state.inner.observation_tensor(player, self.tensor)

    def string_from(self, state: RegaliaState, player: int) -> str:
        """``player``'s view of ``state`` as text (its observation as JSON)."""
        if self.perfect_recall:
            return str(state.inner.information_state_string(player))
        return json.dumps(state.inner.observation(player), sort_keys=True)


class RegaliaState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state wrapping a Regalia state."""

    def __init__(self, game: Any, inner: StateProtocol) -> None:  # game: the pyspiel game, untyped
        super().__init__(game)
        self.inner = inner

    def current_player(self) -> int:
        """The seat to act, or ``pyspiel.PlayerId.TERMINAL``."""
        player = self.inner.current_player
        return int(pyspiel.PlayerId.TERMINAL) if player is None else int(player)

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.inner.legal_actions()) if player == self.inner.current_player else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node (explicit chance), each outcome with its probability."""
        return [(int(o), float(p)) for o, p in self.inner.chance_outcomes()]

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
        """A state ``player_id`` cannot tell from this one (hidden cards resampled), seeded
        from two draws of ``probability_sampler`` (a callable giving floats in [0, 1), such as
        ``pyspiel.UniformProbabilitySampler``)."""
        high, low = (min(int(float(probability_sampler()) * 2**32), 2**32 - 1) for _ in range(2))
        return RegaliaState(self.get_game(), self.inner.determinize(player_id, high << 32 | low))

    def serialize(self) -> str:
        """The state's saved form (JSON text), read back by ``game.deserialize_state``."""
        return str(self.inner.to_json())

    def __reduce__(self) -> tuple[Any, tuple[Any, str]]:
        return _restore_state, (self.get_game(), self.serialize())

    def __str__(self) -> str:
        return str(self.inner.to_json())


def _explicit_type(sampled: Any) -> Any:
    """The game type of a game made with ``chance="explicit"``: registered games are
    sampled-stochastic, this one's chance nodes are explicit (``EXPLICIT_STOCHASTIC``)."""
    return pyspiel.GameType(
        short_name=sampled.short_name,
        long_name=sampled.long_name,
        dynamics=sampled.dynamics,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=sampled.information,
        utility=sampled.utility,
        reward_model=sampled.reward_model,
        max_num_players=sampled.max_num_players,
        min_num_players=sampled.min_num_players,
        provides_information_state_string=sampled.provides_information_state_string,
        provides_information_state_tensor=sampled.provides_information_state_tensor,
        provides_observation_string=sampled.provides_observation_string,
        provides_observation_tensor=sampled.provides_observation_tensor,
        parameter_specification=sampled.parameter_specification,
    )


def _restore_game(name: str, params: dict[str, Any], seeds: Any) -> Any:
    """A pickled game: loaded from its parameters, its sequence of seeds where it was."""
    game = load(name, params)
    game._seeds.setstate(seeds)
    return game


def _restore_state(game: Any, text: str) -> RegaliaState:
    return game.deserialize_state(text)  # type: ignore[no-any-return]


def _is_scalar(value: Any) -> bool:
    return isinstance(value, (bool, int, float, str))


def _parameters(info: dict[str, Any]) -> dict[str, Any]:
    """The game's options as pyspiel parameters, with their defaults (a list or ``None``
    option, which pyspiel parameters cannot carry, is JSON text; ``""`` is its default)."""
    return {
        o["name"]: o["default"] if _is_scalar(o["default"]) else "" for o in info["options"] if o["name"] != "players"
    }


def _decode(name: str, text: str) -> Any:
    """A list or ``None`` option from JSON text, where ``;`` may stand for ``,`` (a game's
    name lists its parameters separated by commas, so ``str(game)`` loads again)."""
    for candidate in (text, text.replace(";", ",")):
        try:
            return json.loads(candidate)
        except ValueError:
            pass
    raise InvalidOptionError(f"{name} must be JSON text (';' may stand for ','), got {text!r}")


def _options(info: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    """The ``regalia.make`` options for pyspiel parameters ``given``."""
    options: dict[str, Any] = {"players": given.get("players", info["min_players"])}
    for o in info["options"]:
        name = o["name"]
        if name in given and name != "players":
            value = given[name]
            if not _is_scalar(o["default"]) and isinstance(value, str):
                if not value:
                    continue
                value = _decode(name, value)
            options[name] = value
    return options


def register(info: dict[str, Any]) -> None:
    """Registers one game (an entry of ``regalia.games()``) with pyspiel."""
    params: dict[str, Any] = {
        "players": info["min_players"],
        "rng_seed": 0,
        "info_state_slots": DEFAULT_INFO_STATE_SLOTS,
        **_parameters(info),
    }
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
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )

    class RegaliaGame(pyspiel.Game):  # type: ignore[misc]
        """A Regalia game as a pyspiel game."""

        def __init__(self, params: dict[str, Any] | None = None) -> None:
            given = {**{"players": info["min_players"], "rng_seed": 0}, **(params or {})}
            self.regalia = make(info["name"], **_options(info, given))
            slots = int(given.get("info_state_slots", DEFAULT_INFO_STATE_SLOTS))
            self.slots: int | Literal["all"] = "all" if slots == WHOLE_RECORD_SLOTS else slots
            explicit = self.regalia.options.get("chance") == "explicit"
            game_info = pyspiel.GameInfo(
                num_distinct_actions=self.regalia.num_actions,
                # Chance outcomes are ids below num_actions (regalia's explicit chance).
                max_chance_outcomes=self.regalia.num_actions if explicit else 0,
                num_players=self.regalia.num_players,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0,
                max_game_length=MAX_GAME_LENGTH,
            )
            super().__init__(_explicit_type(game_type) if explicit else game_type, game_info, params or {})
            self._params = dict(params or {})
            self._seeds = random.Random(int(given["rng_seed"]))

        def new_initial_state(self) -> RegaliaState:
            """A new game, from the next seed of the game's generator."""
            return RegaliaState(self, self.regalia.new_state(self._seeds.getrandbits(64)))

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> RegaliaObserver:
            """The observer of a seat's information state (``perfect_recall``) or observation."""
            return RegaliaObserver(self.regalia, iig_obs_type, self.slots)

        def deserialize_state(self, text: str) -> RegaliaState:
            """A state from ``state.serialize()``, its moves replayed so that OpenSpiel's
            ``history()`` is whole (a determinized world has none to replay)."""
            saved = self.regalia.state_from_json(text)
            if saved.seed is None:
                return RegaliaState(self, saved)
            state = RegaliaState(self, self.regalia.new_state(saved.seed))
            for action in saved.history():
                state.apply_action(action)
            return state

        def __reduce__(self) -> tuple[Any, tuple[str, dict[str, Any], Any]]:
            return _restore_game, (game_type.short_name, self._params, self._seeds.getstate())

    RegaliaGame.__name__ = RegaliaGame.__qualname__ = "Regalia" + info["title"].replace(" ", "") + "Game"
    pyspiel.register_game(game_type, RegaliaGame)


for _info in games():
    if game_name(_info["name"]) not in pyspiel.registered_names():
        register(_info)
