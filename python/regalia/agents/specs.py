"""Agent specs: a built-in agent named as on the command line (``"ismcts:iterations=200"``),
made from a table of makers with its options checked before it plays."""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Mapping
from typing import Any

from regalia.agents.base import Agent
from regalia.core.errors import InvalidOptionError

__all__ = ["build_agent", "maker_options", "parse_spec"]


def _spec_value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def build_agent(
    makers: Mapping[str, Callable[..., Agent]], name: str, seed: int | None, options: dict[str, Any]
) -> Agent:
    """The agent ``name`` of ``makers`` (options may follow the name after colons, and
    ``options`` add to them), seeded with ``seed``; an unknown name or option, or options its
    maker refuses, raise ``InvalidOptionError`` saying what is allowed."""
    base, given = parse_spec(name)
    for key, value in given.items():
        options.setdefault(key, value)
    try:
        maker = makers[base]
    except KeyError:
        raise InvalidOptionError(f"unknown agent {base!r}; agents: {', '.join(makers)}") from None
    allowed = maker_options(maker)
    unknown = [key for key in options if allowed is not None and key not in allowed]
    if allowed is not None and unknown:
        listed = ", ".join(allowed) or "none"
        raise InvalidOptionError(f"unknown option {unknown[0]!r} for agent {base!r}; its options: {listed}")
    try:
        return maker(seed, **options)
    except TypeError as e:
        raise InvalidOptionError(f"bad options for agent {base!r}: {e}") from None


def parse_spec(name: str) -> tuple[str, dict[str, Any]]:
    """The agent's name and the options written after it (``"ismcts:iterations=200"`` ->
    ``("ismcts", {"iterations": 200})``, values read as JSON where they are);
    ``InvalidOptionError`` for a part that is not ``key=value``."""
    base, *pairs = str(name).split(":")
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise InvalidOptionError(f"agent options are key=value after a colon, got {pair!r} in {name!r}")
        options.setdefault(key.strip(), _spec_value(value.strip()))
    return base.strip(), options


def maker_options(maker: Callable[..., Agent]) -> list[str] | None:
    """The keyword options ``maker`` takes (besides the seed); None for one that passes any
    options on."""
    params = inspect.signature(maker).parameters.values()
    if any(p.kind == p.VAR_KEYWORD for p in params):
        return None
    return [p.name for p in params if p.name != "seed" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
