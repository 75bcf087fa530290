"""What a served table (``regalia serve``) allows of each built-in agent's options: every
option has a bound here, so that no table's bot can think without end and stop the server.

The bounds are a search budget a person would wait for at the table. The web's lobby states
them (``served_help``) and the server refuses a seat past them (``check_served``: an
``InvalidOptionError``, over HTTP a 400); an option with no bound here is refused on a
served table, so a new option must be given one. A bot's search is also stopped after
``SEARCH_SECONDS`` a move (``limit_time``), playing its best so far.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Any, Literal

from regalia.agents.base import Agent
from regalia.agents.specs import parse_spec
from regalia.core.errors import InvalidOptionError

__all__ = ["SEARCH_SECONDS", "SERVED", "Bound", "check_served", "limit_time", "served_help"]

#: The longest a served bot's search thinks over one move, in seconds: then it plays its
#: best so far (``limit_time``).
SEARCH_SECONDS = 10.0


@dataclass(frozen=True)
class Bound:
    """One option's bound on a served table: a ``"number"`` from ``low`` to ``high``, a
    ``"word"`` (a short name or a flag, which the agent itself checks against its list), or
    a ``"file"`` on the server of at most ``high`` bytes."""

    kind: Literal["number", "word", "file"]
    low: float = 0
    high: float = 0
    unit: str = ""

    def check(self, agent: str, option: str, value: Any) -> None:
        """Refuses ``value`` past the bound, naming the bound."""
        if self.kind == "number":
            number = isinstance(value, (int, float)) and not isinstance(value, bool)
            if value is not None and not (number and math.isfinite(value) and self.low <= value <= self.high):
                raise InvalidOptionError(
                    f"{agent}'s {option} on this server is a number from {_number(self.low)} to "
                    f"{_number(self.high)}{self.unit}, got {value!r}"
                )
        elif self.kind == "word":
            if not (isinstance(value, bool) or (isinstance(value, str) and len(value) <= 40)):
                raise InvalidOptionError(f"{agent}'s {option} is a short name, got {value!r}")
        elif not (isinstance(value, str) and os.path.isfile(value) and os.path.getsize(value) <= self.high):
            raise InvalidOptionError(
                f"{agent}'s {option} on this server is a file on it of at most {_number(self.high / 2**20)} MiB, "
                f"got {value!r}"
            )


def _number(x: float) -> str:
    return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"


#: The options of a search (``ismcts``, and ``best``, which passes them on to its search).
SEARCH: dict[str, Bound] = {
    "iterations": Bound("number", 1, 100_000),
    "threads": Bound("number", 1, 4),
    "time_limit": Bound("number", 0.01, SEARCH_SECONDS, " seconds"),
    "particles": Bound("number", 1, 1024),
    "exploration": Bound("number", 0, 100),
    "rollout": Bound("word"),
    "belief": Bound("word"),
    "opponents": Bound("word"),
}

#: A model file read by an agent: at most 256 MiB.
MODEL_FILE = Bound("file", high=256 * 2**20)

#: Each built-in agent's options and their bounds on a served table.
SERVED: dict[str, dict[str, Bound]] = {
    "random": {},
    "rules": {},
    "ismcts": SEARCH,
    "solver": {"exploit": Bound("word")},
    "best": SEARCH,
    "policy": {"path": MODEL_FILE, "sample": Bound("word"), "exploit": Bound("word")},
    "cfr": {"policy": MODEL_FILE},
    "first-legal": {},
    "last-legal": {},
    "fixed-order": {"order": Bound("number", 0, 2**32)},
}


def check_served(spec: str) -> None:
    """Refuses (``InvalidOptionError``) an agent spec a served table may not seat: an agent
    or option with no bound in ``SERVED``, or a value past its bound."""
    name, options = parse_spec(spec)
    bounds = SERVED.get(name)
    if bounds is None:
        raise InvalidOptionError(f"unknown agent {name!r}; agents: {', '.join(SERVED)}")
    for option, value in options.items():
        bound = bounds.get(option)
        if bound is None:
            allowed = ", ".join(bounds) or "none"
            raise InvalidOptionError(f"unknown option {option!r} for agent {name!r}; its options: {allowed}")
        bound.check(name, option, value)


def served_help() -> str:
    """The bounds in a sentence, for the lobby."""
    search = ", ".join(
        f"{option} {_number(b.low)} to {_number(b.high)}{b.unit}" for option, b in SEARCH.items() if b.kind == "number"
    )
    return (
        f"Bots' options on this server: ismcts and best: {search}; fixed-order: order up to "
        f"{_number(SERVED['fixed-order']['order'].high)}; policy and cfr: a model file on this server of at "
        f"most {_number(MODEL_FILE.high / 2**20)} MiB. A bot's search stops after {_number(SEARCH_SECONDS)} "
        "seconds a move and plays its best so far."
    )


def limit_time(agent: Agent, seconds: float = SEARCH_SECONDS) -> None:
    """Has ``agent`` stop its search after at most ``seconds`` a move and play its best so
    far, if it can (an agent with ``limit_time``, such as ``ismcts`` and ``best``)."""
    limit = getattr(agent, "limit_time", None)
    if callable(limit):
        limit(seconds)
