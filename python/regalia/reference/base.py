"""The game contract in pure Python: what each reference game implements (``Rules``) and
the session layer written once on top of it (``Game``, ``State``), mirroring
``rust/engine/src/game.rs`` and ``rust/engine/src/session.rs``.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

import numpy as np
import numpy.typing as npt

from regalia.core import jsontext
from regalia.core.errors import (
    IllegalActionError,
    InvalidArgumentError,
    InvalidStateError,
)
from regalia.core.outcome import Outcome
from regalia.core.seeds import MASK64, derive_seed
from regalia.reference import codec, recall
from regalia.reference import options as game_options
from regalia.reference.options import GameOptions, listing, seats
from regalia.reference.rng import Rng

STATE_FORMAT = "regalia-state"
#: The most record entries an information-state tensor may keep.
MAX_SLOTS = 1 << 16
STATE_VERSION = 1
#: ``State.current_player`` at a chance node (OpenSpiel's ``PlayerId.CHANCE``).
CHANCE_PLAYER = -1

S = TypeVar("S")
C = TypeVar("C", bound=GameOptions)


@dataclass(frozen=True)
class GameInfo:
    """What ``regalia.games()`` lists about a game: its names, stated by the game, and its
    seats and options, read from its options dataclass."""

    name: str
    title: str
    aliases: tuple[str, ...]
    options: type[GameOptions]

    @property
    def min_players(self) -> int:
        """Fewest seats (the smallest ``players``)."""
        return seats(self.options)[0]

    @property
    def max_players(self) -> int:
        """Most seats (the largest ``players``)."""
        return seats(self.options)[1]

    def to_json(self) -> dict[str, Any]:
        """The listing, as the extension's ``games()`` gives it."""
        return {
            "name": self.name,
            "title": self.title,
            "aliases": list(self.aliases),
            "min_players": self.min_players,
            "max_players": self.max_players,
            "options": listing(self.options),
        }


class Rules(ABC, Generic[S, C]):
    """One game's rules, generic in its state and options dataclasses; the instance holds
    the validated options (``config``). States are plain data."""

    INFO: ClassVar[GameInfo]
    #: The game's state dataclass; the types of its fields say how each is saved.
    state_type: type[S]

    def __init__(self, config: C) -> None:
        #: The options in force (those that depend on others filled in).
        self.config = config

    @classmethod
    def saved_options(cls, saved: dict[str, Any]) -> dict[str, Any]:
        """The options a saved state means: its own, with the ``saved_default`` of every
        option it lacks."""
        return game_options.saved(cls.INFO.options, saved)

    @classmethod
    @abstractmethod
    def from_options(cls, options: dict[str, Any]) -> Rules[S, C]:
        """Validates the user's options."""

    def options(self) -> dict[str, Any]:
        """Every option in force."""
        return game_options.echo(self.config)

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return self.config.players

    @property
    @abstractmethod
    def num_actions(self) -> int:
        """Size of the action space."""

    @abstractmethod
    def observation_shape(self) -> tuple[int, ...]:
        """Shape of the observation tensor."""

    @abstractmethod
    def new_state(self, rng: Rng) -> S:
        """A fresh game whose randomness comes from ``rng``."""

    @abstractmethod
    def current_player(self, s: S) -> int | None:
        """The seat to decide, or ``None`` when over."""

    @abstractmethod
    def legal_actions(self, s: S) -> list[int]:
        """Legal actions, sorted; empty exactly when over."""

    @abstractmethod
    def apply(self, s: S, action: int) -> None:
        """Plays a legal action (in place; at a chance node, a possible outcome)."""

    def is_chance_node(self, s: S) -> bool:
        """Whether ``s`` is a chance node (explicit chance): never, by default."""
        return False

    def chance_outcomes(self, s: S) -> list[tuple[int, float]]:
        """At a chance node, every possible outcome with its probability, sorted; else empty."""
        return []

    @property
    def explicit_chance(self) -> bool:
        """Whether the game was made with ``chance="explicit"``."""
        return False

    def max_history_len(self) -> int | None:
        """A bound on the actions (chance outcomes included) of any history from the start,
        where the game has a simple, provable one (``None``: none known); it sizes the
        information-state tensor that keeps a seat's whole record."""
        return None

    def max_seat_actions(self) -> int | None:
        """A bound on the actions one seat takes in any history, where the game has one (by
        default ``max_history_len()``, the bound on all of them)."""
        return self.max_history_len()

    @abstractmethod
    def returns(self, s: S) -> list[float]:
        """Per-seat returns."""

    @abstractmethod
    def scores(self, s: S) -> list[int]:
        """Per-seat game points."""

    @abstractmethod
    def outcome(self, s: S) -> Outcome | None:
        """How the game ended (see ``regalia.core.outcome``), None while it runs."""

    @abstractmethod
    def action_info(self, s: S, action: int) -> dict[str, Any]:
        """What ``action`` means: any id in range (below ``num_actions``, which the caller
        has checked), legal now or not; a dict tagged by ``"kind"`` (see
        ``regalia.core.actions``). It reads only what every seat sees."""

    @abstractmethod
    def info_name(self, info: dict[str, Any]) -> str:
        """The readable, unique name of the action ``info`` describes."""

    def action_name(self, s: S, action: int) -> str:
        """The readable, unique name of ``action``, made from its ``action_info``."""
        return self.info_name(self.action_info(s, action))

    @abstractmethod
    def observation(self, s: S, seat: int) -> dict[str, Any]:
        """Exactly what ``seat`` sees."""

    @abstractmethod
    def observation_tensor(self, s: S, seat: int, out: npt.NDArray[np.float32]) -> None:
        """The observation as floats written into the zeroed flat ``out``."""

    @abstractmethod
    def determinize(self, s: S, seat: int, rng: Rng) -> S:
        """A state ``seat`` cannot tell from ``s``, hidden cards resampled from ``rng``."""

    @abstractmethod
    def check_state(self, s: S) -> str | None:
        """``None`` if ``s`` is consistent, else what is wrong."""

    def copy_state(self, s: S) -> S:
        """An independent copy."""
        return codec.copy(s)

    def state_to_json(self, s: S) -> dict[str, Any]:
        """The state's saved form (the same JSON as the Rust ``Serialize``)."""
        return codec.to_json(s)

    def state_from_json(self, data: Any) -> S:
        """Reads the saved form; may raise anything on malformed data."""
        return codec.from_json(self.state_type, data)


#: The fields of a saved state's envelope, every one required and no other allowed.
ENVELOPE_FIELDS = ("format", "version", "game", "options", "seed", "history", "state")


def field_mismatch(given: Any, written: Any, path: str) -> str | None:
    """Where the objects of ``given`` (read from a file) have other fields than those of
    ``written`` (the same state written back), or ``None``: a field the game does not know
    is refused, not ignored. Walks both without recursion."""
    stack = [(given, written, path)]
    while stack:
        g, w, at = stack.pop()
        if isinstance(g, dict) and isinstance(w, dict):
            for key in g:
                if key not in w:
                    return f"'{at}' has an unknown field {key!r}"
            for key in w:
                if key not in g:
                    return f"'{at}' has no field {key!r}"
            stack.extend((g[k], w[k], f"{at}.{k}") for k in w)
        elif isinstance(g, list) and isinstance(w, list) and len(g) == len(w):
            stack.extend((a, b, f"{at}[{i}]") for i, (a, b) in enumerate(zip(g, w)))
    return None


def _normalize(text: str) -> str:
    return " ".join(text.split()).lower()


def _int_arg(value: Any, what: str, error: type[Exception]) -> int:
    if isinstance(value, bool):
        raise error(f"{what} must be an int, not a bool")
    try:
        return int(value.__index__())
    except (AttributeError, TypeError):
        raise error(f"{what} must be an int, got {value!r}") from None


def _count_arg(value: Any, what: str, least: int) -> int:
    n = _int_arg(value, what, InvalidArgumentError)
    if n < least:
        raise InvalidArgumentError(f"{what} must be at least {least}, got {n}")
    return n


def _slots_arg(slots: Any, rules: Rules[Any, Any]) -> int:
    """The record entries an information-state tensor keeps (``"all"``: the whole record)."""
    if slots is None:
        return recall.DEFAULT_SLOTS
    if isinstance(slots, str) and slots == recall.WHOLE_RECORD:
        whole = recall.whole_record_slots(rules)
        if whole is None:
            raise InvalidArgumentError(
                f"{rules.INFO.name} with these options has no known bound on its histories, so no tensor "
                "holds every record: give slots as a number"
            )
        if whole > MAX_SLOTS:
            raise InvalidArgumentError(
                f"{rules.INFO.name} with these options has records of up to {whole} entries, more than a "
                f"tensor may keep ({MAX_SLOTS}): give slots as a number"
            )
        return whole
    n = _count_arg(slots, "slots", 1)
    if n > MAX_SLOTS:
        raise InvalidArgumentError(f"slots must be at most {MAX_SLOTS}")
    return n


def _seed_arg(seed: Any) -> int:
    s = _int_arg(seed, "seed", InvalidArgumentError)
    if not 0 <= s <= MASK64:
        raise InvalidArgumentError("seed must be an integer in [0, 2**64)")
    return s


class Game:
    """A configured reference game: the same interface as ``regalia._core.Game``."""

    backend = "reference"

    def __init__(self, rules: Rules[Any, Any]) -> None:
        self.rules = rules
        self.name = rules.INFO.name
        self.title = rules.INFO.title
        self.num_players = rules.num_players
        self.num_actions = rules.num_actions
        self.observation_shape = rules.observation_shape()

    @property
    def options(self) -> dict[str, Any]:
        """Every option in force."""
        return self.rules.options()

    def information_state_shape(self, slots: Any = None) -> tuple[int, ...]:
        """Shape of ``State.information_state_tensor(seat, slots)`` (``"all"``: the game's
        longest record, where its histories are bounded)."""
        n = _slots_arg(slots, self.rules)
        return (1 + n * recall.entry_size(self.rules),)

    def new_state(self, seed: Any = None) -> State:
        """A new game from ``seed`` (random when omitted)."""
        s = random.getrandbits(64) if seed is None else _seed_arg(seed)
        return State(self, self.rules.new_state(Rng.new(s)), [], s)

    def state_from_json(self, text: Any) -> State:
        """Reads a saved state, checking it as the engine does."""
        if not isinstance(text, str):
            raise InvalidStateError("a saved state must be JSON text")
        v = jsontext.loads(text, InvalidStateError)
        if not isinstance(v, dict):
            raise InvalidStateError("a saved state must be a JSON object")
        for key in ENVELOPE_FIELDS:
            if key not in v:
                raise InvalidStateError(f"saved state has no '{key}' field")
        for key in v:
            if key not in ENVELOPE_FIELDS:
                raise InvalidStateError(f"saved state has an unknown field {key!r}")
        if v["format"] != STATE_FORMAT:
            raise InvalidStateError(f"not a Regalia saved state (format must be '{STATE_FORMAT}')")
        if v["version"] != STATE_VERSION or type(v["version"]) is not int:
            raise InvalidStateError(f"saved state version {v['version']} is not supported")
        if v["game"] != self.name:
            raise InvalidStateError(f"saved state is of game {v['game']!r}, not '{self.name}'")
        if not isinstance(v["options"], dict) or self.rules.saved_options(v["options"]) != self.options:
            raise InvalidStateError(f"saved state has options {v['options']}, but this game has {self.options}")
        seed = v["seed"]
        if seed is not None and (type(seed) is not int or not 0 <= seed <= MASK64):
            raise InvalidStateError("'seed' must be null or an integer in [0, 2**64)")
        history = v["history"]
        if not isinstance(history, list) or not all(type(a) is int and 0 <= a < self.num_actions for a in history):
            raise InvalidStateError(f"'history' must hold action ids from 0 to {self.num_actions - 1}")
        if seed is None and history:
            raise InvalidStateError(
                "a state saved without its seed must have an empty 'history': "
                "a history that cannot be replayed cannot be checked"
            )
        try:
            state = self.rules.state_from_json(v["state"])
            mismatch = field_mismatch(v["state"], self.rules.state_to_json(state), "state")
            problem = None if mismatch else self.rules.check_state(state)
        except Exception as e:  # malformed data of any shape is refused, never crashes
            raise InvalidStateError(f"bad 'state': {e!r}") from None
        if mismatch is not None:
            raise InvalidStateError(f"bad saved state: {mismatch}")
        if problem is not None:
            raise InvalidStateError(f"inconsistent 'state': {problem}")
        if seed is not None:
            replay = self.new_state(seed)
            for a in history:
                try:
                    replay.apply(a)
                except IllegalActionError:
                    raise InvalidStateError("'history' is not a legal game from 'seed'") from None
            if self.rules.state_to_json(replay.data) != self.rules.state_to_json(state):
                raise InvalidStateError("'state' does not match replaying 'history' from 'seed'")
        return State(self, state, list(history), seed)

    def random_playouts(self, games: Any, seed: Any = None, threads: Any = None) -> dict[str, Any]:
        """Plays random games exactly as the engine's native playouts do (one thread)."""
        games = _count_arg(games, "games", 0)
        if self.rules.explicit_chance:
            raise InvalidArgumentError(
                f"native random playouts play seeded games: {self.name} was made with chance='explicit' "
                "(drive its chance nodes yourself, or make it with chance='seeded')"
            )
        _count_arg(1 if threads is None else threads, "threads", 1)
        s = 0 if seed is None else _seed_arg(seed)
        n = self.num_players
        stats: dict[str, Any] = {"games": 0, "steps": 0, "wins": [0] * n, "draws": 0, "returns_sum": [0.0] * n}
        rules = self.rules
        for i in range(games):
            state = rules.new_state(Rng.new(derive_seed(s, i)))
            picker = Rng.new(derive_seed(s ^ MASK64, i))
            while True:
                legal = rules.legal_actions(state)
                if not legal:
                    break
                rules.apply(state, legal[picker.index(len(legal))])
                stats["steps"] += 1
            r = rules.returns(state)
            stats["games"] += 1
            best = max(r)
            winners = [i for i, x in enumerate(r) if x == best]
            if len(winners) == 1:
                stats["wins"][winners[0]] += 1
            else:
                stats["draws"] += 1
            stats["returns_sum"] = [a + b for a, b in zip(stats["returns_sum"], r)]
        return stats

    def __repr__(self) -> str:
        return f"<Game {self.name} {self.options} (reference)>"


class State:
    """A reference game position: the same interface as ``regalia._core.State``."""

    def __init__(self, game: Game, data: Any, history: list[int], seed: int | None) -> None:
        self._game = game
        self._rules = game.rules
        self.data = data
        self._history = history
        self._seed = seed
        #: Where the history starts when not from the seed: a world determinized for a seat,
        #: ``(start data, parent state, seat)`` (see ``recall``).
        self._origin: tuple[Any, State, int] | None = None

    @property
    def current_player(self) -> int | None:
        """The seat to decide, ``CHANCE_PLAYER`` (-1) at a chance node, ``None`` once over."""
        if self._rules.is_chance_node(self.data):
            return CHANCE_PLAYER
        return self._rules.current_player(self.data)

    @property
    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return not self._rules.legal_actions(self.data)

    @property
    def is_chance_node(self) -> bool:
        """Whether the next step is a chance outcome to apply (explicit chance)."""
        return self._rules.is_chance_node(self.data)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node, each possible outcome with its probability (sorted by outcome);
        refused elsewhere, saying why (a seeded game has no chance nodes)."""
        if self._rules.is_chance_node(self.data):
            return self._rules.chance_outcomes(self.data)
        if not self._rules.explicit_chance:
            raise InvalidArgumentError(
                f"{self._game.name} draws its random events from its seed (chance='seeded'): it has no chance "
                "nodes; make it with chance='explicit' to draw them yourself"
            )
        seat = self._rules.current_player(self.data)
        if seat is None:
            raise InvalidArgumentError("not a chance node: the game is over")
        raise InvalidArgumentError(f"not a chance node: seat {seat} is to act")

    @property
    def game_name(self) -> str:
        """The game's id."""
        return self._game.name

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return self._game.num_players

    @property
    def num_actions(self) -> int:
        """Size of the action space."""
        return self._game.num_actions

    @property
    def seed(self) -> int | None:
        """The seed the game started from."""
        return self._seed

    def legal_actions(self) -> list[int]:
        """The legal actions, sorted."""
        return self._rules.legal_actions(self.data)

    def legal_action_mask(self, out: npt.NDArray[np.bool_] | None = None) -> npt.NDArray[np.bool_]:
        """A bool array, true at the legal actions; with ``out`` it is written there."""
        if out is None:
            mask = np.zeros(self.num_actions, dtype=np.bool_)
        elif (
            not isinstance(out, np.ndarray)
            or out.dtype != np.bool_
            or out.shape != (self.num_actions,)
            or not out.flags.c_contiguous
            or not out.flags.writeable
        ):
            raise InvalidArgumentError(f"out must be a writable, C-contiguous bool array of {self.num_actions} flags")
        else:
            mask = out
            mask.fill(False)
        mask[self.legal_actions()] = True
        return mask

    def _action(self, action: Any) -> int:
        a = _int_arg(action, "action", IllegalActionError)
        if not 0 <= a < self.num_actions:
            raise IllegalActionError(f"action {a} is out of range 0..{self.num_actions}")
        return a

    def _seat(self, seat: Any) -> int:
        s = _int_arg(seat, "seat", InvalidArgumentError)
        if not 0 <= s < self.num_players:
            raise InvalidArgumentError(f"seat must be from 0 to {self.num_players - 1}, got {s}")
        return s

    def apply(self, action: Any, /) -> None:
        """Plays ``action``; an illegal one raises ``IllegalActionError`` and changes nothing."""
        a = self._action(action)
        legal = self._rules.legal_actions(self.data)
        if a not in legal:
            if not legal:
                raise IllegalActionError(f"action {a}: the game is over")
            name = self._rules.action_name(self.data, a)
            if self._rules.is_chance_node(self.data):
                outcomes = ", ".join(f"{o} ({self._rules.action_name(self.data, o)})" for o in legal)
                raise IllegalActionError(
                    f"{a} ({name}) is not a possible outcome of this chance node; outcomes: {outcomes}"
                )
            raise IllegalActionError(f"action {a} ({name}) is not legal now")
        self._rules.apply(self.data, a)
        self._history.append(a)

    def clone(self) -> State:
        """An independent copy."""
        copy = State(self._game, self._rules.copy_state(self.data), list(self._history), self._seed)
        copy._origin = self._origin
        return copy

    __copy__ = clone

    def __deepcopy__(self, memo: Any) -> State:
        return self.clone()

    def returns(self) -> list[float]:
        """Per-seat returns."""
        return self._rules.returns(self.data)

    def scores(self) -> list[int]:
        """Per-seat game points."""
        return self._rules.scores(self.data)

    def outcome(self) -> Outcome | None:
        """How the game ended: why, the winners, the final scores and the tie-break that
        decided (``regalia.core.outcome.Outcome``), None while it runs. Public once over."""
        return self._rules.outcome(self.data) if self.is_terminal else None

    def history(self) -> list[int]:
        """Every action since the start."""
        return list(self._history)

    def action_name(self, action: Any) -> str:
        """The readable name of ``action``."""
        return self._rules.action_name(self.data, self._action(action))

    def action_info(self, action: Any) -> dict[str, Any]:
        """What ``action`` means, as a dict tagged by ``"kind"`` (see ``regalia.core.actions``)."""
        return self._rules.action_info(self.data, self._action(action))

    def parse_action(self, text: Any) -> int:
        """The legal action named by ``text``: its exact name or a unique prefix of it,
        ignoring case and runs of spaces. The exact name of an action that is not legal now
        is refused, with the legal actions listed."""
        if not isinstance(text, str):
            raise IllegalActionError("an action name must be a str")
        want = _normalize(text)
        if not want:
            raise IllegalActionError("empty action name")
        legal = self.legal_actions()
        # Names are unique, so an exact match among the legal actions (looked at first, as the
        # cheap common case) is the only exact match.
        for a in legal:
            if _normalize(self._rules.action_name(self.data, a)) == want:
                return a
        for a in range(self.num_actions):
            name = self._rules.action_name(self.data, a)
            if _normalize(name) == want:
                if not legal:
                    raise IllegalActionError(f"'{name}' is not legal now: the game is over")
                names = ", ".join(self._rules.action_name(self.data, b) for b in legal)
                raise IllegalActionError(f"'{name}' is not legal now; legal: {names}")
        matches = [a for a in legal if _normalize(self._rules.action_name(self.data, a)).startswith(want)]
        if len(matches) == 1:
            return matches[0]
        if not matches:
            raise IllegalActionError(f"no action is called '{text}'")
        names = ", ".join(self._rules.action_name(self.data, a) for a in matches)
        raise IllegalActionError(f"'{text}' could be any of: {names}")

    def observation(self, seat: Any) -> dict[str, Any]:
        """Exactly what ``seat`` may see."""
        return self._rules.observation(self.data, self._seat(seat))

    def observation_tensor(self, seat: Any, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """What ``seat`` may see, as a float32 array of ``game.observation_shape``."""
        s = self._seat(seat)
        shape = self._game.observation_shape
        if out is None:
            out = np.zeros(shape, dtype=np.float32)
        elif not isinstance(out, np.ndarray) or out.dtype != np.float32 or out.size != int(np.prod(shape)):
            raise InvalidArgumentError(f"out must be a float32 array of {int(np.prod(shape))} floats")
        elif not out.flags.c_contiguous or not out.flags.writeable:
            raise InvalidArgumentError("out must be writable and C-contiguous")
        flat = out.reshape(-1)
        flat.fill(0.0)
        self._rules.observation_tensor(self.data, s, flat)
        return out

    def determinize(self, seat: Any, seed: Any) -> State:
        """A state consistent with what ``seat`` has seen, hidden cards resampled from ``seed``."""
        s = self._seat(seat)
        rng = Rng.new(_seed_arg(seed))
        world = State(self._game, self._rules.determinize(self.data, s, rng), [], None)
        world._origin = (self._rules.copy_state(world.data), self.clone(), s)
        return world

    def _record(self, seat: int) -> recall.Progress:
        if self._origin is not None:
            start, parent, world_seat = self._origin
            progress = recall.Progress(self._rules, start, parent._record(seat) if world_seat == seat else None)
        elif self._seed is not None:
            progress = recall.Progress(self._rules, self._rules.new_state(Rng.new(self._seed)))
        else:
            raise InvalidStateError("this state was loaded without its seed: its information states are unknown")
        progress.extend(self._history, seat)
        return progress

    def information_state_string(self, seat: Any) -> str:
        """``seat``'s perfect-recall information state as text (see ``recall``)."""
        s = self._seat(seat)
        return recall.to_string(s, self._record(s).record)

    def information_state_tensor(self, seat: Any, slots: Any = None) -> npt.NDArray[np.float32]:
        """The same as a float32 array keeping the newest ``slots`` record entries (``"all"``:
        the whole record, where the game's histories are bounded)."""
        s = self._seat(seat)
        n = _slots_arg(slots, self._rules)
        return recall.tensor(self._rules, s, self._record(s).record, n)

    def information_state_key(self, seat: Any) -> int:
        """``seat``'s perfect-recall information state as a 64-bit key: a hash of its record,
        the observation tensors it saw and the actions it played (see ``recall.key_of_record``)."""
        s = self._seat(seat)
        return recall.key_of_record(self._rules, s, self._record(s).record)

    def to_json(self) -> str:
        """The saved form: the same text the extension writes. A state without its seed saves
        as a position: its history, which nothing could replay or check, is not written."""
        envelope = {
            "format": STATE_FORMAT,
            "version": STATE_VERSION,
            "game": self._game.name,
            "options": self._game.options,
            "seed": self._seed,
            "history": self._history if self._seed is not None else [],
            "state": self._rules.state_to_json(self.data),
        }
        return json.dumps(envelope, sort_keys=True, separators=(",", ":"))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and other.to_json() == self.to_json()

    def __repr__(self) -> str:
        cp = self.current_player
        who = "over" if cp is None else f"seat {cp} to act"
        return f"<State {self.game_name} after {len(self._history)} actions, {who}>"


def ended(reason: str, scores: list[int], won: list[bool], tie_break: str | None = None) -> Outcome:
    """The outcome of a game that ended for ``reason`` with ``scores``, won by the seats
    flagged in ``won``; all of them winning is a draw (no winners)."""
    winners = tuple(k for k, w in enumerate(won) if w)
    return Outcome(reason, () if len(winners) == len(won) else winners, tuple(scores), tie_break)


def best_of(keys: list[Any]) -> list[bool]:
    """Which seats have the highest of ``keys`` (compared whole)."""
    best = max(keys)
    return [k == best for k in keys]


def winner_returns(winners: list[bool]) -> list[float]:
    """Zero-sum returns, as ``winner_returns`` in ``game.rs``: each of ``k`` winners gets
    ``+1/k`` and each other seat ``-1/(n-k)``; all zero when everybody or nobody wins."""
    n, k = len(winners), sum(winners)
    if k in (0, n):
        return [0.0] * n
    return [1.0 / k if w else -1.0 / (n - k) for w in winners]
