"""The saved form of a reference game's state, derived from its dataclass's field types.

Each field of a game's ``State`` is annotated with how it is saved, e.g.
``hands: Annotated[list[int], Items(U16, 2)]``; ``state_to_json``, ``state_from_json`` and
``copy_state`` are then written once here (the engine derives the same with serde). Reading
checks every value's type and range and raises ``ValueError`` saying what was expected.
Writing and copying are compiled once per class from the fields' codecs, as ``dataclasses``
compiles ``__init__``, so that they cost what hand-written code would.
"""

from __future__ import annotations

import dataclasses
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from regalia.core.seeds import MASK64
from regalia.reference.bits import iter_bits
from regalia.reference.rng import Rng

#: Card sets (``Set128``) hold ids below this.
SET128_LIMIT = 128

T = TypeVar("T")


class Codec(ABC):
    """How one field is saved, read back and copied."""

    @abstractmethod
    def load(self, data: Any) -> Any:
        """The value from its saved form; raises ``ValueError`` when malformed."""

    def dump_code(self, x: str, depth: int) -> str:
        """A Python expression for the saved form of the value the expression ``x`` gives
        (``depth`` numbers the loop variables of nested lists)."""
        return x

    def copy_code(self, x: str, depth: int) -> str:
        """A Python expression for an independent copy of the value ``x`` gives."""
        return x


@dataclass(frozen=True)
class Uint(Codec):
    """An integer from 0 to ``hi``."""

    hi: int = 255

    def load(self, data: Any) -> int:
        if type(data) is not int or not 0 <= data <= self.hi:
            raise ValueError(f"expected an integer from 0 to {self.hi}, got {data!r}")
        return data


@dataclass(frozen=True)
class Int32(Codec):
    """A signed 32-bit integer."""

    def load(self, data: Any) -> int:
        if type(data) is not int or not -(2**31) <= data < 2**31:
            raise ValueError(f"expected a 32-bit integer, got {data!r}")
        return data


@dataclass(frozen=True)
class Flag(Codec):
    """A bool."""

    def load(self, data: Any) -> bool:
        if type(data) is not bool:
            raise ValueError(f"expected a bool, got {data!r}")
        return data


@dataclass(frozen=True)
class Text(Codec):
    """One of a few names."""

    choices: tuple[str, ...]

    def load(self, data: Any) -> str:
        if data not in self.choices:
            raise ValueError(f"expected one of {self.choices}, got {data!r}")
        return str(data)


@dataclass(frozen=True)
class Set128(Codec):
    """A set of card ids below 128 kept as a bit mask, saved as its members in ascending order."""

    def load(self, data: Any) -> int:
        if not isinstance(data, list):
            raise ValueError("a card set must be a list of card ids")
        mask, last = 0, -1
        for x in data:
            if type(x) is not int or not last < x < SET128_LIMIT:
                raise ValueError(f"a card set must list distinct ids below {SET128_LIMIT} in ascending order")
            mask |= 1 << x
            last = x
        return mask

    def dump_code(self, x: str, depth: int) -> str:
        return f"iter_bits({x})"


@dataclass(frozen=True)
class Maybe(Codec):
    """``None`` or a value of ``inner``."""

    inner: Codec

    def load(self, data: Any) -> Any:
        return None if data is None else self.inner.load(data)

    def dump_code(self, x: str, depth: int) -> str:
        inner = self.inner.dump_code(x, depth)
        return x if inner == x else f"(None if {x} is None else {inner})"

    def copy_code(self, x: str, depth: int) -> str:
        inner = self.inner.copy_code(x, depth)
        return x if inner == x else f"(None if {x} is None else {inner})"


@dataclass(frozen=True)
class Items(Codec):
    """A list of exactly ``n`` values of ``inner`` (with ``at_most``: up to ``n``)."""

    inner: Codec
    n: int
    at_most: bool = False

    def load(self, data: Any) -> list[Any]:
        if not isinstance(data, list) or (len(data) > self.n if self.at_most else len(data) != self.n):
            raise ValueError(f"expected a list of {'at most ' if self.at_most else ''}{self.n} items")
        return [self.inner.load(x) for x in data]

    def dump_code(self, x: str, depth: int) -> str:
        v = f"v{depth}"
        inner = self.inner.dump_code(v, depth + 1)
        return f"list({x})" if inner == v else f"[{inner} for {v} in {x}]"

    def copy_code(self, x: str, depth: int) -> str:
        v = f"v{depth}"
        inner = self.inner.copy_code(v, depth + 1)
        return f"list({x})" if inner == v else f"[{inner} for {v} in {x}]"


@dataclass(frozen=True)
class Generator(Codec):
    """The state's random generator."""

    def load(self, data: Any) -> Rng:
        return Rng.from_json(data)

    def dump_code(self, x: str, depth: int) -> str:
        return f"{x}.to_json()"

    def copy_code(self, x: str, depth: int) -> str:
        return f"{x}.copy()"


U8 = Uint(255)
U16 = Uint(0xFFFF)
U32 = Uint(0xFFFFFFFF)
U64 = Uint(MASK64)


@dataclass(frozen=True)
class _Compiled:
    """A dataclass's fields with their codecs, and its writer and copier."""

    fields: tuple[tuple[str, Codec], ...]
    dump: Callable[[Any], dict[str, Any]]
    copy: Callable[[Any], Any]


_COMPILED: dict[type, _Compiled] = {}


def _field_codecs(cls: type) -> tuple[tuple[str, Codec], ...]:
    """Each field of ``cls`` with its codec: the ``Codec`` in its ``Annotated`` type, or the
    one its plain type implies (``Rng``, ``bool``)."""
    hints = typing.get_type_hints(cls, include_extras=True)
    out = []
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        codecs = [m for m in getattr(hint, "__metadata__", ()) if isinstance(m, Codec)]
        if codecs:
            out.append((f.name, codecs[0]))
        elif hint is Rng:
            out.append((f.name, Generator()))
        elif hint is bool:
            out.append((f.name, Flag()))
        else:
            raise TypeError(f"{cls.__name__}.{f.name} has no codec in its type")
    return tuple(out)


def _compiled(cls: type) -> _Compiled:
    """``cls``'s codecs, with its writer and copier compiled the first time it is asked for."""
    known = _COMPILED.get(cls)
    if known is None:
        fields = _field_codecs(cls)
        dump = ", ".join(f"{name!r}: {c.dump_code('s.' + name, 0)}" for name, c in fields)
        copy = ", ".join(c.copy_code("s." + name, 0) for name, c in fields)
        source = f"def dump(s):\n    return {{{dump}}}\n\ndef copy(s):\n    return cls({copy})\n"
        space: dict[str, Any] = {"cls": cls, "iter_bits": iter_bits}
        exec(source, space)  # noqa: S102 - compiled from the field types, as dataclasses does
        known = _COMPILED[cls] = _Compiled(fields, space["dump"], space["copy"])
    return known


def to_json(s: Any) -> dict[str, Any]:
    """The saved form of the dataclass instance ``s`` (the same JSON as the engine's serde)."""
    return _compiled(type(s)).dump(s)


def from_json(cls: type[T], data: Any) -> T:
    """Reads an instance of the dataclass ``cls`` from its saved form; raises ``ValueError``
    (or ``KeyError`` for a missing field) when it is malformed."""
    if not isinstance(data, dict):
        raise ValueError("the state must be an object")
    return cls(*(codec.load(data[name]) for name, codec in _compiled(cls).fields))


def copy(s: T) -> T:
    """An independent copy of the dataclass instance ``s``."""
    return typing.cast(T, _compiled(type(s)).copy(s))
