"""Pictures of the table: a seat's view of a game as an RGB image (``pip install "regalia[pictures]"``).

>>> import regalia
>>> from regalia.views.pictures import picture, spectator_picture
>>> game = regalia.make("duo-regna")
>>> state = game.new_state(7)
>>> picture("duo-regna", state.observation(0)).shape      # seat 0's view
(540, 900, 3)
>>> spectator_picture("duo-regna", [state.observation(s) for s in range(2)]).dtype
dtype('uint8')

A picture is drawn from observations only, the same data as the text boards
(``regalia.views.render``): a seat's picture from that seat's observation, so it shows exactly what
the seat sees (face-down and other hands' cards as backs), and a spectator's from every seat's,
all cards open (the picture says which). Each game's picture has a fixed size (``size(game)``),
whatever the player count; it is drawn with Pillow in its built-in font, so it is the same on
every machine with the same Pillow. ``picture_svg`` and ``spectator_svg`` give the same drawing
as SVG (for a web page: crisp at any size), drawn by the same code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from regalia.core.errors import InvalidArgumentError, InvalidOptionError
from regalia.core.protocols import GameProtocol, StateProtocol
from regalia.views.pictures import duell_der_drachen, duo, duo_regna, regine, regnum
from regalia.views.pictures.canvas import Canvas
from regalia.views.pictures.table import Table

__all__ = [
    "PICTURES",
    "GamePicture",
    "picture",
    "picture_svg",
    "picture_svg_json",
    "size",
    "spectator_picture",
    "spectator_svg",
    "state_picture",
]

#: An RGB picture: (height, width, 3) uint8.
Picture = npt.NDArray[np.uint8]


class GamePicture(NamedTuple):
    """How one game is drawn: its picture's size (width, height) and the drawing function."""

    size: tuple[int, int]
    draw: Callable[[Canvas, Table, dict[str, Any]], None]


#: Each game's picture, by game id.
PICTURES: dict[str, GamePicture] = {
    "duo-regna": GamePicture(duo_regna.SIZE, duo_regna.draw),
    "duo": GamePicture(duo.SIZE, duo.draw),
    "duell-der-drachen": GamePicture(duell_der_drachen.SIZE, duell_der_drachen.draw),
    "regine": GamePicture(regine.SIZE, regine.draw),
    "regnum": GamePicture(regnum.SIZE, regnum.draw),
}


def _game(game: str) -> GamePicture:
    if game not in PICTURES:
        raise InvalidOptionError(f"no picture for game {game!r} (games: {', '.join(PICTURES)})")
    return PICTURES[game]


def size(game: str) -> tuple[int, int, int]:
    """The shape of every picture of ``game``: (height, width, 3)."""
    width, height = _game(game).size
    return (height, width, 3)


def _draw(
    game: str, views: dict[int, dict[str, Any]], viewer: int | None, options: dict[str, Any] | None, svg: bool
) -> Canvas:
    drawing = _game(game)
    base = views[0 if viewer is None else viewer]
    players = len(base["hand_sizes"]) if "hand_sizes" in base else 2  # Duo Regna has no hand sizes: 2 seats
    canvas = Canvas(drawing.size, svg=svg)
    try:
        drawing.draw(canvas, Table(views, viewer, players), options or {})
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
        raise InvalidArgumentError(f"not an observation of {game}: {error!r}") from None
    return canvas


def _seat(obs: Any, game: str) -> int:
    if not isinstance(obs, dict) or not isinstance(obs.get("seat"), int):
        raise InvalidArgumentError(f"not an observation of {game}: expected a dict with a 'seat'")
    seat: int = obs["seat"]
    return seat


def picture(game: str, obs: dict[str, Any], options: dict[str, Any] | None = None) -> Picture:
    """The table as ``obs``'s seat sees it, in ``game`` played with ``options``."""
    seat = _seat(obs, game)
    return _draw(game, {seat: obs}, seat, options, svg=False).array()


def picture_svg(game: str, obs: dict[str, Any], options: dict[str, Any] | None = None) -> str:
    """``picture`` as an SVG document: the same drawing, as shapes and text."""
    seat = _seat(obs, game)
    return _draw(game, {seat: obs}, seat, options, svg=True).svg()


def picture_svg_json(game: str, obs: dict[str, Any], options: dict[str, Any] | None = None) -> tuple[str, str]:
    """``picture_svg`` and its JSON text (``json.dumps`` of it), made together and faster than
    apart: for a page that is sent the picture inside JSON."""
    seat = _seat(obs, game)
    canvas = _draw(game, {seat: obs}, seat, options, svg=True)
    return canvas.svg(), canvas.svg_json()


def _everyone(game: str, observations: Sequence[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    seats = [_seat(obs, game) for obs in observations]
    if seats != list(range(len(seats))) or not seats:
        raise InvalidArgumentError(f"a spectator needs every seat's observation in seat order, got seats {seats}")
    return dict(enumerate(observations))


def spectator_picture(
    game: str, observations: Sequence[dict[str, Any]], options: dict[str, Any] | None = None
) -> Picture:
    """The table with every card open, from every seat's observation (``observations[s]`` is
    seat ``s``'s)."""
    return _draw(game, _everyone(game, observations), None, options, svg=False).array()


def spectator_svg(game: str, observations: Sequence[dict[str, Any]], options: dict[str, Any] | None = None) -> str:
    """``spectator_picture`` as an SVG document."""
    return _draw(game, _everyone(game, observations), None, options, svg=True).svg()


def state_picture(game: GameProtocol, state: StateProtocol, seat: int | None) -> Picture:
    """``state`` of ``game`` (a ``regalia.Game``) as ``seat`` sees it, or every card open for
    ``seat=None``; drawn from the seats' observations only."""
    if seat is None:
        return spectator_picture(game.name, [state.observation(s) for s in range(game.num_players)], game.options)
    return picture(game.name, state.observation(seat), game.options)
