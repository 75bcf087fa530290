"""From the command line to a game and its players: ``--option``, ``--seats`` and agents."""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable
from typing import Any

import regalia
from regalia.agents import AGENTS
from regalia.cli import exits
from regalia.core.errors import RegaliaError
from regalia.core.protocols import GameProtocol
from regalia.table import HUMAN, check_bot, refuse_chosen_chance


def parse_option(text: str) -> tuple[str, Any]:
    """``key=value``: the value read as JSON when it is JSON (``3``, ``true``, ``[10,6]``),
    as a list when it has commas (``10,6``), else as a string."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        exits.fail(f"an option is key=value, got {text!r}", exits.USAGE)
    try:
        value: Any = json.loads(raw)
    except ValueError:
        try:
            value = [json.loads(x) for x in raw.split(",")] if "," in raw else raw.strip()
        except ValueError:
            value = raw.strip()
    return key.strip(), value


def parse_options(texts: list[str] | None) -> dict[str, Any]:
    """Every ``--option key=value`` as a dict."""
    return dict(parse_option(t) for t in texts or [])


def parse_seats(text: str) -> list[str]:
    """``human,random`` or ``random*4``: one agent per seat, each one checked. An agent may
    carry options after colons (``ismcts:iterations=200``)."""
    names: list[str] = []
    for part in text.split(","):
        name, _, count = part.strip().partition("*")
        base, colon, agent_options = name.partition(":")
        name = base.lower() + colon + agent_options  # an option may be a path: its case kept
        if count and not count.strip().isdigit():
            exits.fail(f"a repeated seat is NAME*COUNT, got {part.strip()!r}", exits.USAGE)
        names += [name.strip()] * (int(count) if count else 1)
    known = [HUMAN, *AGENTS]
    for name in names:
        base = name.split(":")[0]
        if base not in known:
            close = did_you_mean(base, known)
            hint = f" did you mean {close!r}?" if close else ""
            exits.fail(f"unknown agent {base!r};{hint} seats can be: {', '.join(known)}", exits.USAGE)
        if name != HUMAN:
            check_agent(name)
    return names


def did_you_mean(typed: str, known: list[str]) -> str:
    """The known name closest to ``typed``; empty when none is close."""
    close = difflib.get_close_matches(typed.strip().lower(), known, n=1, cutoff=0.6)
    return close[0] if close else ""


def check_agent(spec: str, game: str | None = None) -> None:
    """Ends the command (exit 2) unless ``spec`` makes an agent, and (when ``game`` is given)
    one that plays ``game`` (an agent that plays another agent per game, like ``best``,
    checks its options there; ``regalia.table.check_bot``, as the web lobby checks a seat):
    a bad seat is caught here, before any game starts."""
    try:
        check_bot(spec, game)
    except RegaliaError as e:
        exits.fail(str(e), exits.USAGE)


def check_seats(names: list[str], game: str) -> None:
    """Every bot of ``names`` checked for ``game`` (see ``check_agent``)."""
    for name in names:
        if name != HUMAN:
            check_agent(name, game)


def _seats(n: int) -> str:
    return f"{n} seat" + ("s were" if n != 1 else " was")


def game_info(name: str) -> dict[str, Any]:
    """The listing entry (see ``regalia.games()``) of a game id or alias."""
    wanted = name.strip().lower()
    for info in regalia.games():
        if wanted == info["name"] or wanted in info["aliases"]:
            return info
    names = [g["name"] for g in regalia.games()]
    spellings = {n: g["name"] for g in regalia.games() for n in [g["name"], *g["aliases"]]}
    close = did_you_mean(wanted, list(spellings))
    hint = f" did you mean {spellings[close]!r}?" if close else ""
    exits.fail(f"unknown game {name!r};{hint} games: {', '.join(names)}", exits.USAGE)


def make_game(name: str, options: dict[str, Any], seats: int | None = None) -> GameProtocol:
    """The game with ``options``; ``seats`` (when given) sets the ``players`` option if it is
    not set, and must then match the game's seat count."""
    info = game_info(name)
    lo, hi = info["min_players"], info["max_players"]
    if seats is not None and not lo <= seats <= hi:
        players = str(lo) if lo == hi else f"{lo} to {hi}"
        exits.fail(f"{info['title']} is for {players} players, but {_seats(seats)} given", exits.USAGE)
    has_players = any(o["name"] == "players" for o in info["options"])
    if seats is not None and has_players and "players" not in options:
        options = {**options, "players": seats}
    try:
        refuse_chosen_chance(options)  # the command line plays seeded games, as a table does
        game = regalia.make(info["name"], **options)
    except RegaliaError as e:
        exits.fail(str(e), exits.USAGE)
    if seats is not None and seats != game.num_players:
        exits.fail(f"{game.title} is played by {game.num_players} here, but {_seats(seats)} given", exits.USAGE)
    return game


def bots_game(
    what: str, game: str, seats: str | None, options: list[str] | None, default: Callable[[int], list[str]]
) -> tuple[Any, list[str]]:
    """The game and its seats for a command that only bots play (``what`` names it in the
    refusal of a person): ``seats`` as typed, else ``default(players)``; bad seats, options
    or counts end the command (exit 2)."""
    names = parse_seats(seats) if seats else None
    if names and HUMAN in names:
        exits.fail(f"{what} is for bots only; to play, use: regalia play", exits.USAGE)
    g = make_game(game, parse_options(options), len(names) if names else None)
    names = names or default(g.num_players)
    check_seats(names, g.name)
    return g, names
