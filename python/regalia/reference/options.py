"""A game's options, declared once, as ``rust/engine/src/options.rs`` declares them: a frozen
dataclass whose fields carry their default, the values they accept and a line of help
(written with ``option``).

From that one declaration come the validation of the user's options (``read``), the options
echoed back with defaults filled in (``echo``), the ``regalia.games()`` listing
(``listing``) and the options a saved game means (``saved``). Checks that span several
options (and defaults that depend on other options, declared with default ``None``) stay
with the game, in its ``from_options``.
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

from regalia.core.errors import InvalidOptionError


def _is_int(v: Any) -> bool:
    return type(v) is int


@dataclass(frozen=True)
class Integer:
    """An integer in ``lo..=hi``."""

    lo: int
    hi: int

    def accepts(self, v: Any) -> bool:
        """Whether ``v`` is accepted."""
        return _is_int(v) and self.lo <= v <= self.hi

    def describe(self) -> str:
        """The accepted values in words."""
        return f"an integer from {self.lo} to {self.hi}"

    def to_json(self) -> dict[str, Any]:
        """As the listing gives it."""
        return {"type": "integer", "min": self.lo, "max": self.hi}


@dataclass(frozen=True)
class Boolean:
    """``True`` or ``False``."""

    def accepts(self, v: Any) -> bool:
        """Whether ``v`` is accepted."""
        return type(v) is bool

    def describe(self) -> str:
        """The accepted values in words."""
        return "true or false"

    def to_json(self) -> dict[str, Any]:
        """As the listing gives it."""
        return {"type": "boolean"}


@dataclass(frozen=True)
class Choice:
    """One of these strings."""

    choices: tuple[str, ...]

    def accepts(self, v: Any) -> bool:
        """Whether ``v`` is accepted."""
        return type(v) is str and v in self.choices

    def describe(self) -> str:
        """The accepted values in words."""
        return f"one of {list(self.choices)}"

    def to_json(self) -> dict[str, Any]:
        """As the listing gives it."""
        return {"type": "choice", "choices": list(self.choices)}


@dataclass(frozen=True)
class IntegerList:
    """A list of exactly ``length`` integers, each in ``lo..=hi``."""

    length: int
    lo: int
    hi: int

    def accepts(self, v: Any) -> bool:
        """Whether ``v`` is accepted."""
        return (
            isinstance(v, (list, tuple))
            and len(v) == self.length
            and all(_is_int(x) and self.lo <= x <= self.hi for x in v)
        )

    def describe(self) -> str:
        """The accepted values in words."""
        return f"a list of {self.length} integers from {self.lo} to {self.hi}"

    def to_json(self) -> dict[str, Any]:
        """As the listing gives it."""
        return {"type": "integer_list", "length": self.length, "min": self.lo, "max": self.hi}


@dataclass(frozen=True)
class Data:
    """Structured data that the game checks itself (e.g. a card set)."""

    def accepts(self, v: Any) -> bool:
        """Every value: the game checks it."""
        return True

    def describe(self) -> str:
        """The accepted values in words."""
        return "data the game checks"

    def to_json(self) -> dict[str, Any]:
        """As the listing gives it."""
        return {"type": "data"}


#: Which values an option accepts.
Allowed = Integer | Boolean | Choice | IntegerList | Data


class GameOptions(Protocol):
    """A game's options: a frozen dataclass whose fields are declared with ``option``, among
    them every game's ``players``."""

    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]

    @property
    def players(self) -> int:
        """Number of seats."""


OptionsT = TypeVar("OptionsT", bound=GameOptions)


def option(default: Any, allowed: Allowed, help: str, *, saved_default: Any = dataclasses.MISSING) -> Any:
    """Declares one option: a dataclass field with its default, accepted values and help,
    and for an option added after saves were written, ``saved_default``: the value those
    saves, which lack it, were played with."""
    metadata = {"allowed": allowed, "help": help}
    if saved_default is not dataclasses.MISSING:
        metadata["saved_default"] = saved_default
    return dataclasses.field(default=default, metadata=metadata)


def _fields(cls: type[GameOptions]) -> tuple[dataclasses.Field[Any], ...]:
    return dataclasses.fields(cls)


def _plain(v: Any) -> Any:
    """A copy of a value as JSON gives it (tuples become lists)."""
    return [_plain(x) for x in v] if isinstance(v, tuple) else copy.deepcopy(v)


def read(game: str, cls: type[OptionsT], given: dict[str, Any]) -> OptionsT:
    """The typed options of ``game`` from the user's ``given`` ones: every value checked
    against its declaration (in declaration order), then any unknown name refused. ``None``
    stands for the default only where the default itself is ``None``; elsewhere it is refused
    as a value of the wrong type (so that ``players=None`` never silently means 2)."""
    values: dict[str, Any] = {}
    for f in _fields(cls):
        allowed: Allowed = f.metadata["allowed"]
        if f.name not in given or (given[f.name] is None and f.default is None):
            continue
        v = given[f.name]
        if not allowed.accepts(v):
            raise InvalidOptionError(f"{game}: option '{f.name}' must be {allowed.describe()}, got {v!r}")
        values[f.name] = tuple(v) if isinstance(allowed, IntegerList) else copy.deepcopy(v)
    names = [f.name for f in _fields(cls)]
    for key in given:
        if key not in names:
            raise InvalidOptionError(f"{game}: unknown option '{key}'; allowed: {', '.join(names)}")
    return cls(**values)


def echo(options: GameOptions) -> dict[str, Any]:
    """The options as a JSON-ready dict, every field present."""
    return {f.name: _plain(getattr(options, f.name)) for f in _fields(type(options))}


def saved(cls: type[GameOptions], saved: dict[str, Any]) -> dict[str, Any]:
    """The options a saved game means: its own ``saved`` ones, with the ``saved_default`` of
    every option it lacks."""
    added = {f.name: _plain(f.metadata["saved_default"]) for f in _fields(cls) if "saved_default" in f.metadata}
    return {**{k: v for k, v in added.items() if k not in saved}, **saved}


def seats(cls: type[GameOptions]) -> tuple[int, int]:
    """The fewest and most seats of a game: the range of its options' ``players``, declared
    first as an ``Integer``."""
    first = _fields(cls)[0]
    allowed = first.metadata["allowed"]
    if first.name != "players" or not isinstance(allowed, Integer):
        raise TypeError(f"{cls.__name__} must declare 'players' first, as an Integer")
    return allowed.lo, allowed.hi


def listing(cls: type[GameOptions]) -> list[dict[str, Any]]:
    """The options as ``regalia.games()`` lists them: name, default, help, accepted values
    and, where declared, the saved default."""
    return [
        {
            "name": f.name,
            "default": _plain(f.default),
            "help": f.metadata["help"],
            "allowed": f.metadata["allowed"].to_json(),
            **({"saved_default": _plain(f.metadata["saved_default"])} if "saved_default" in f.metadata else {}),
        }
        for f in _fields(cls)
    ]


def invalid(game: str, name: str, message: str) -> InvalidOptionError:
    """An error about option ``name`` of ``game`` (for checks that span several options)."""
    return InvalidOptionError(f"{game}: option '{name}' {message}")
