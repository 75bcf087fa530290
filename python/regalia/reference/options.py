"""Reading a game's options, as ``rust/engine/src/options.rs`` does, with the same checks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from regalia.errors import InvalidOptionError


@dataclass(frozen=True)
class OptionSpec:
    """One option a game accepts."""

    name: str
    default: Any
    help: str


#: What ``_take`` returns for an option that takes its default.
_ABSENT: Any = object()


def _is_int(v: Any) -> bool:
    return type(v) is int


class OptionReader:
    """Takes options out of the user's dict one by one; ``finish`` refuses unknown names."""

    def __init__(self, game: str, given: dict[str, Any], allowed: tuple[OptionSpec, ...]) -> None:
        self.game = game
        self.given = given
        self.allowed = allowed
        self.read: list[str] = []

    def _take(self, name: str) -> Any:
        """The value given for ``name``, ``None`` when absent. ``None`` stands for the default
        only where the default itself is ``None``; elsewhere it is returned, to be refused as
        a value of the wrong type (so that ``players=None`` never silently means 2)."""
        self.read.append(name)
        v = self.given.get(name, _ABSENT)
        if v is _ABSENT or (v is None and any(o.name == name and o.default is None for o in self.allowed)):
            return _ABSENT
        return v

    def _bad(self, name: str, want: str, got: Any) -> InvalidOptionError:
        return InvalidOptionError(f"{self.game}: option '{name}' must be {want}, got {got!r}")

    def integer(self, name: str, default: int, lo: int, hi: int) -> int:
        """An integer in ``lo..=hi``, or ``default``."""
        v = self._take(name)
        if v is _ABSENT:
            return default
        if not _is_int(v) or not lo <= v <= hi:
            raise self._bad(name, f"an integer from {lo} to {hi}", v)
        return int(v)

    def boolean(self, name: str, default: bool) -> bool:
        """A boolean, or ``default``."""
        v = self._take(name)
        if v is _ABSENT:
            return default
        if type(v) is not bool:
            raise self._bad(name, "true or false", v)
        return v

    def choice(self, name: str, default: str, choices: tuple[str, ...]) -> str:
        """One of ``choices``, or ``default``."""
        v = self._take(name)
        if v is _ABSENT:
            return default
        if v not in choices or type(v) is not str:
            raise self._bad(name, f"one of {list(choices)}", v)
        return str(v)

    def integer_list(self, name: str, default: list[int], length: int, lo: int, hi: int) -> list[int]:
        """A list of ``length`` integers each in ``lo..=hi``, or ``default``."""
        v = self._take(name)
        if v is _ABSENT:
            return list(default)
        want = f"a list of {length} integers from {lo} to {hi}"
        if not isinstance(v, (list, tuple)) or len(v) != length:
            raise self._bad(name, want, v)
        if not all(_is_int(x) and lo <= x <= hi for x in v):
            raise self._bad(name, want, v)
        return [int(x) for x in v]

    def raw(self, name: str) -> Any:
        """A raw value, or ``None``."""
        v = self._take(name)
        return None if v is _ABSENT else v

    def error(self, name: str, message: str) -> InvalidOptionError:
        """An error about option ``name``."""
        return InvalidOptionError(f"{self.game}: option '{name}' {message}")

    def finish(self) -> None:
        """Refuses every option that was given but never read."""
        for key in self.given:
            if key not in self.read:
                names = ", ".join(o.name for o in self.allowed)
                raise InvalidOptionError(f"{self.game}: unknown option '{key}'; allowed: {names}")
