"""The shapes of the API's answers, as its OpenAPI schema declares them: every answer the
server sends is checked against these (FastAPI validates what an endpoint returns), and the
API fuzzing test checks every response, refusals included, against the schema."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "GameInfo",
    "Link",
    "MoveOffered",
    "Payload",
    "Problem",
    "ReplayAnswer",
    "Saved",
    "TableRow",
    "TableStarted",
    "refusals",
]


class Problem(BaseModel):
    """A refusal: ``detail`` says why (a list of the fields at fault for a malformed body)."""

    detail: str | list[Any]


def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The refusals an endpoint may answer, for its ``responses``."""
    why = {
        400: "Bad input: an illegal move, an unknown option or agent, a bad save name",
        403: "Forbidden: no server key, a request from another site, or a watcher's link",
        404: "No such table, link, game or save",
        408: "The request body did not arrive in time",
        409: "Stale: the table has moved on since, or the table refuses (undo past something new)",
        413: "The request body is too large",
        421: "Not a host name this server answers to",
        429: "Too many requests from this client without the server's key: slow down",
    }
    return {status: {"model": Problem, "description": why[status]} for status in statuses}


class Option(BaseModel):
    """One of a game's options as declared."""

    model_config = ConfigDict(extra="allow")

    name: str
    default: Any = None
    help: str
    allowed: dict[str, Any]


class GameInfo(BaseModel):
    """A game, its seat counts and its declared options."""

    model_config = ConfigDict(extra="allow")

    name: str
    title: str
    aliases: list[str]
    min_players: int
    max_players: int
    options: list[Option]


class Link(BaseModel):
    """A private link: the seat it plays (None: a watcher's, of bots alone, or the people's
    shared screen) and its address."""

    seat: int | None
    url: str
    shared: bool = False


class TableStarted(BaseModel):
    """A table just started: its id and its private links."""

    id: str
    links: list[Link]


class TableRow(BaseModel):
    """A table as the lobby lists it."""

    id: str
    game: str
    agents: list[str]
    moves: int
    over: bool
    updated: float
    links: list[Link]


class Saved(BaseModel):
    """The file a table's game was saved to, in the user's saves folder."""

    saved: str


class Waiting(BaseModel):
    """What the table waits for: ``person``, ``bot`` or ``over``, and the seat."""

    kind: str
    seat: int | None


class MoveOffered(BaseModel):
    """A move offered: its number on the page, its action id and its name."""

    n: int
    action: int
    name: str


class Event(BaseModel):
    """One move in the log as the seat was told it (no action id for another seat's move)."""

    ply: int
    seat: int | None
    action: int | None
    name: str | None
    lines: list[str]
    forced: bool


class OutcomeModel(BaseModel):
    """How the game ended (``State.outcome()``): public once it is over."""

    reason: str = Field(description="why the game ended, an identifier listed on the game's rules page")
    winners: list[int] = Field(description="the seats that won (none: a draw)")
    scores: list[int] = Field(description="each seat's final game points")
    tie_break: str | None = Field(description="the tie-break that decided between seats level on points")


class Payload(BaseModel):
    """What a link's page is sent: the seat's view alone (or a watcher's, of bots alone)."""

    game: str
    title: str
    version: int
    agents: list[str]
    waiting: Waiting
    over: bool
    outcome: OutcomeModel | None = Field(description="how the game ended, once it is over")
    seat: int | None
    names: list[str]
    picture: str = Field(description="the seat's view as SVG")
    moves: list[MoveOffered]
    log: list[Event]
    introduction: str
    ending: list[str]
    undo: bool
    back: bool
    shared: bool = Field(description="the screen several people share (hot-seat)")
    hand_over: int | None = Field(
        description="on a shared screen, the person to hand it to: nothing of any seat is shown until they take it"
    )


class NamedMove(BaseModel):
    """A move in a replay: who played it (None: chance) and its name."""

    seat: int | None
    name: str


class ReplayAnswer(BaseModel):
    """A match record after ``ply`` moves, every card open."""

    game: str
    title: str
    agents: list[str]
    ply: int
    total: int
    picture: str
    moves: list[NamedMove]
    over: bool
    outcome: OutcomeModel | None = Field(description="how the game ended, at its last move (else none)")
