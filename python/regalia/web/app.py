"""The web server's application: the lobby, a seat's table page, the JSON API behind them,
live updates (server-sent events) and the bots moving at their pace in the background.

Pages are Jinja2 templates with a little plain JavaScript from ``static/`` (no build step,
nothing from the internet). A seat's page and its API are reached by the seat's private link
(an unguessable token); the lobby and the API that starts or lists tables need the server's
key, which the address printed at start carries (then kept in a cookie). A request that
changes a game must come from a page of this server (its ``Origin``), and no body may be
larger than ``MAX_BODY``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import re
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlsplit

import anyio
import markdown_it
from fastapi import Depends, FastAPI, HTTPException, Query, Request, Security
from fastapi.encoders import jsonable_encoder
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from fastapi.routing import APIRoute
from fastapi.security import APIKeyCookie, APIKeyHeader
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from regalia.agents import AGENTS
from regalia.agents.bounds import served_help
from regalia.core import engine
from regalia.core.errors import RegaliaError
from regalia.registry import MatchRecord, games
from regalia.registry.records import outcome_fields
from regalia.registry.saves import load_game, save_game
from regalia.table import Replay as TableReplay
from regalia.table.saves import saves_folder
from regalia.views.pictures import spectator_svg
from regalia.views.pictures.canvas import font_file
from regalia.web.bots import Bots
from regalia.web.models import GameInfo, Payload, ReplayAnswer, Saved, TableRow, TableStarted, refusals
from regalia.web.security import Limits, Shield, allowed_hosts, check_public_url, json_safe, link_base
from regalia.web.store import SHARED, Link, Store
from regalia.web.tables import CAPACITY, NotFound, Tables, WebError

__all__ = ["MAX_BODY", "create_app"]

log = logging.getLogger("regalia.web")
HERE = Path(__file__).parent
#: The largest request body accepted (a match record to replay is the largest one sent).
MAX_BODY = 256 * 1024
#: The longest game a replay is asked to step through.
MAX_REPLAY = 20_000
#: The cookie that keeps the server's key in the browser that opened the printed address.
KEY_COOKIE = "regalia_key"
#: The longest a live-updates stream stays open (the page's ``EventSource`` opens it again).
MAX_STREAM = 60.0
#: How often the server looks for changes other server processes made to the tables a page
#: waits on, in seconds.
POLL = 1.0
#: How long a process's claim on a table's bots lasts beyond a move's longest time, in
#: seconds (renewed before every move; another process takes the bots over after it).
CLAIM = 10.0
#: The longest a live-updates stream stays silent (then it says it is still there).
KEEP_ALIVE = 15.0
#: A save's name: letters, digits, ``-``, ``_`` and ``.``, no path.
SAVE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")

#: The server's key, as the OpenAPI schema declares it (a script sends the header).
KEY_HEADER = APIKeyHeader(name="X-Regalia-Key", auto_error=False, description="the server's key")
KEY_IN_COOKIE = APIKeyCookie(name=KEY_COOKIE, auto_error=False, description="the server's key, kept by the lobby")

ASGIApp = Callable[[MutableMapping[str, Any], Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Any]


# --- request bodies ------------------------------------------------------------------------


class NewTable(BaseModel):
    """A table to start: the game, its options (its declared defaults for those left out),
    who sits at each seat (``"human"`` or an agent such as ``"best"`` or
    ``"ismcts:iterations=200"``), and the seed: given, it replays the same game; left out, every
    deal and draw comes from the operating system's generator as it happens, and no seat can
    recover the deck."""

    game: str = Field(max_length=40)
    options: dict[str, Any] = Field(default_factory=dict, max_length=20)
    seats: list[Annotated[str, Field(max_length=200)]] = Field(min_length=1, max_length=8)
    seed: int | None = Field(default=None, ge=0, le=2**64 - 1)
    hot_seat: bool = Field(
        default=False, description="the people share one screen: one link, with a hand-over between them"
    )


class Move(BaseModel):
    """A move: the action id (one the page was offered) and the version it was offered at."""

    version: int = Field(ge=0, le=2**31)
    action: int = Field(ge=0, le=2**31)


class HandOver(BaseModel):
    """The person who takes the shared screen, and the version it was offered at."""

    version: int = Field(ge=0, le=2**31)
    seat: int = Field(ge=0, le=8)


class Seen(BaseModel):
    """The version of the table the request was made on."""

    version: int = Field(ge=0, le=2**31)


class Replay(BaseModel):
    """A match record (its JSON text) and the move to show it after (0: the deal)."""

    record: str = Field(max_length=MAX_BODY - 1024)
    ply: int = Field(default=0, ge=0, le=MAX_REPLAY)


class SaveName(BaseModel):
    """A save's name in the user's saves folder: no folders, no path."""

    name: str = Field(max_length=200)


# --- the parts of the server ----------------------------------------------------------------


class Hub:
    """Wakes the pages waiting on a table (their live updates) and starts its bots, from
    any thread, after every change; with other server processes on the database, looks for
    their changes every ``POLL`` seconds and plays a table's bots only under this process's
    claim on them (``Store.claim``)."""

    def __init__(self, tables: Tables, pace: float) -> None:
        self.tables = tables
        self.pace = pace
        self.bots = Bots(tables, pace)
        #: This process, as its claims on tables' bots name it.
        self.owner = secrets.token_urlsafe(9)
        self.loop: asyncio.AbstractEventLoop | None = None
        self._events: dict[str, asyncio.Event] = {}
        self._bots: dict[str, asyncio.Task[None]] = {}
        #: Tables kicked while their bots were moving: they look once more before stopping.
        self._again: set[str] = set()
        self._watch: list[asyncio.Task[None]] = []
        self._waiting: dict[str, int] = {}
        self._seen: dict[str, int] = {}
        self._claims: dict[str, float] = {}

    def changed(self, table_id: str) -> None:
        """Called after a change, in any thread."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._wake, table_id)

    def _wake(self, table_id: str) -> None:
        event = self._events.pop(table_id, None)
        if event is not None:
            event.set()
        self.kick(table_id)

    async def wait(self, table_id: str, seen: int, timeout: float) -> None:
        """Until the table is at another version than ``seen`` (changed here, or by another
        server process: ``watch`` looks every ``POLL`` seconds), or ``timeout`` seconds."""
        event = self._events.setdefault(table_id, asyncio.Event())
        self._waiting[table_id] = self._waiting.get(table_id, 0) + 1
        self._seen[table_id] = seen
        try:
            if self.tables.known_version(table_id) in (None, seen):
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(event.wait(), timeout)
        finally:
            self._waiting[table_id] -= 1
            if not self._waiting[table_id]:  # nobody waits on the table any more
                del self._waiting[table_id]
                self._seen.pop(table_id, None)
                if self._events.get(table_id) is event:
                    del self._events[table_id]

    async def watch(self) -> None:
        """Every ``POLL`` seconds, one look at the database for the tables pages wait on:
        those at another version than their pages saw (another process changed them) wake
        their pages and their bots here. Tables unused for a while leave memory, and the
        bots of a process that stopped are taken over once its claim has run out."""
        orphans_seen = asyncio.get_running_loop().time()
        while True:
            await asyncio.sleep(POLL)
            waited = list(self._events)
            if waited:
                stored = await anyio.to_thread.run_sync(self.tables.store.versions, waited)
                for table_id in waited:
                    if table_id in stored and stored[table_id] != self._seen.get(table_id, stored[table_id]):
                        self._wake(table_id)
            await anyio.to_thread.run_sync(self.tables.sweep)
            if asyncio.get_running_loop().time() - orphans_seen > CLAIM:
                orphans_seen = asyncio.get_running_loop().time()
                for table_id in await anyio.to_thread.run_sync(self.tables.store.orphans):
                    self.kick(table_id)

    def kick(self, table_id: str) -> None:
        """Starts the table's bots, or has them look once more if they are already moving
        (on the event loop): a change made while they were deciding that no bot was to move
        is not lost."""
        if table_id in self._bots:
            self._again.add(table_id)
        else:
            self._bots[table_id] = asyncio.get_running_loop().create_task(self._play_bots(table_id))

    async def _play_bots(self, table_id: str) -> None:
        """The table's bots move (``_bots_round``), again as long as a kick came while they
        did; between the last look and the end of the task nothing else runs on the loop."""
        try:
            while True:
                self._again.discard(table_id)
                await self._bots_round(table_id)
                if table_id not in self._again:
                    return
        finally:
            self._bots.pop(table_id, None)

    async def _bots_round(self, table_id: str) -> None:
        """The bots move, one every ``pace`` seconds, while a bot is to move (thinking in
        workers of their own, see ``regalia.web.bots``) and this process holds the claim.
        Once it gives the claim up, it looks again: a move another process made meanwhile,
        whose bots this process still held, is answered here."""
        try:
            while await anyio.to_thread.run_sync(self.tables.waiting_for_bot, table_id):
                if not await anyio.to_thread.run_sync(self._claim, table_id):
                    return  # another process plays them
                idle = await self.bots.play(table_id, lambda: self._claim(table_id))
                await anyio.to_thread.run_sync(self._release, table_id)
                if not idle:
                    return
        except WebError as e:
            if e.status != 404:
                log.warning("table %s: %s", table_id, e)

    def _claim(self, table_id: str) -> bool:
        """Whether this process plays the table's bots: its claim taken or renewed in the
        database when less than half of it is left (in a thread)."""
        seconds = CLAIM + self.pace + self.bots.limit
        now = time.monotonic()
        if self._claims.get(table_id, now) - now > seconds / 2:
            return True
        if not self.tables.store.claim(table_id, self.owner, seconds):
            self._claims.pop(table_id, None)
            return False
        self._claims[table_id] = now + seconds
        return True

    def _release(self, table_id: str) -> None:
        """Gives up this process's claim on the table's bots (in a thread)."""
        self._claims.pop(table_id, None)
        self.tables.store.release(table_id, self.owner)

    async def resume_all(self) -> None:
        """Starts the bots of every unfinished table (after a restart)."""
        for row in await anyio.to_thread.run_sync(lambda: self.tables.store.tables(over=False, limit=10_000)):
            self.kick(row.id)

    def stop(self) -> None:
        """Stops the bots and the watch (the game stays as last saved)."""
        for task in [*self._bots.values(), *self._watch]:
            task.cancel()
        self.bots.close()

    def start(self) -> None:
        """Starts the watch for changes by other processes (on the event loop)."""
        self.loop = asyncio.get_running_loop()
        self._watch = [self.loop.create_task(self.watch())]


class Guard:
    """Refuses a request that changes something from a page of another site (403: its
    ``Origin`` or ``Sec-Fetch-Site`` says so). Bodies are bounded by the shield."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> Any:
        """Checks an HTTP request before the application sees it."""
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        origin, site = headers.get("origin"), headers.get("sec-fetch-site")
        if origin is not None and urlsplit(origin).netloc != headers.get("host"):
            refusal = f"a request from another site ({origin}) may not change a game here"
        elif site is not None and site not in ("same-origin", "none"):
            refusal = "a request from another site may not change a game here"
        else:
            return await self.app(scope, receive, send)
        return await JSONResponse({"detail": refusal}, status_code=403)(scope, receive, send)


# --- the application ------------------------------------------------------------------------


class ShieldedApp(FastAPI):
    """A FastAPI application inside a ``Shield``: outside even the layer that answers an
    unexpected error (500), so that every response has the security headers."""

    shield: Callable[[ASGIApp], ASGIApp] | None = None

    def build_middleware_stack(self) -> ASGIApp:
        """The application's layers, the shield outermost."""
        stack = super().build_middleware_stack()
        return self.shield(stack) if self.shield is not None else stack


def create_app(
    db: str | Path,
    pace: float = 0.8,
    key: str | None = None,
    *,
    public_url: str | None = None,
    hosts: tuple[str, ...] = (),
    limits: Limits | None = None,
    api_docs: bool = False,
    capacity: int = CAPACITY,
) -> FastAPI:
    """The web application on the database at ``db``: bots move ``pace`` seconds apart; the
    lobby's key is ``key`` (by default one kept in the database, the same after a restart).

    Links are made on ``public_url`` (by default the address the connection reached, never a
    request's header); the server answers to the loopback names, ``public_url``'s host and
    ``hosts`` (any other ``Host`` header is refused); ``limits`` bound what a client without
    the key may ask (by default ``Limits()``); ``api_docs`` serves the API's schema at
    ``/openapi.json`` and a page on it at ``/docs`` (both off by default); at most ``capacity``
    tables are held in memory (the others are read from the database when asked for)."""
    store = Store(db)
    server_key = key or store.setting("key", secrets.token_urlsafe(16))
    tables = Tables(store, capacity=capacity)
    hub = Hub(tables, pace)
    tables.changed = hub.changed
    templates = Jinja2Templates(directory=HERE / "templates")
    markdown = markdown_it.MarkdownIt("commonmark", {"html": False}).enable("table")

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.start()
        await hub.resume_all()
        yield
        hub.stop()

    app = ShieldedApp(
        title="Regalia",
        summary="The five royal card games at a table in the browser.",
        version=str(getattr(engine, "__version__", "0")),
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json" if api_docs else None,
        responses=refusals(421, 429),
    )
    public = check_public_url(public_url) if public_url else None
    names = allowed_hosts(public, *hosts)
    app.shield = lambda inner: Shield(inner, names, server_key, MAX_BODY, limits or Limits())
    app.state.tables, app.state.hub, app.state.key, app.state.public_url = tables, hub, server_key, public
    app.add_middleware(Guard)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

    @app.exception_handler(WebError)
    async def refused(request: Request, error: WebError) -> JSONResponse:
        return JSONResponse({"detail": str(error)}, status_code=error.status)

    @app.exception_handler(StarletteHTTPException)
    async def http_refusal(request: Request, error: StarletteHTTPException) -> Response:
        if error.status_code == 405:  # Allow: every method of the path, not only the last route's
            allowed = {
                m
                for route in app.routes
                if isinstance(route, APIRoute) and route.path_regex.match(request.url.path)
                for m in route.methods or ()
            }
            headers = {**(error.headers or {}), "Allow": ", ".join(sorted(allowed))}
            return JSONResponse({"detail": error.detail}, status_code=405, headers=headers)
        return await http_exception_handler(request, error)

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, error: RequestValidationError) -> JSONResponse:
        # The input quoted back may hold a float JSON cannot carry (NaN, Infinity).
        return JSONResponse({"detail": jsonable_encoder(json_safe(error.errors()))}, status_code=422)

    @app.exception_handler(RegaliaError)
    async def bad_input(request: Request, error: RegaliaError) -> JSONResponse:
        return JSONResponse({"detail": str(error)}, status_code=400)

    def host(
        header: Annotated[str | None, Security(KEY_HEADER)] = None,
        cookie: Annotated[str | None, Security(KEY_IN_COOKIE)] = None,
    ) -> None:
        """The lobby's requests: the server's key, from the cookie or the ``X-Regalia-Key`` header."""
        given = cookie or header or ""
        if not hmac.compare_digest(given.encode(), server_key.encode()):
            raise HTTPException(403, "this needs the server's key: open the address the server printed")

    Host = Depends(host)

    def answer(seat_link: Link, payload: dict[str, Any]) -> Response:
        """A move's answer: the link's payload as the JSON text its pages are sent (made once
        a version; the ``Payload`` model documents it)."""
        return Response(tables.as_json(seat_link, payload), media_type="application/json")

    def link(token: str) -> Link:
        return tables.link(token)

    # --- pages ------------------------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def lobby(request: Request, key: str | None = None) -> Response:
        if key is not None:
            back = RedirectResponse("/", status_code=303)
            if hmac.compare_digest(key.encode(), server_key.encode()):
                back.set_cookie(KEY_COOKIE, key, httponly=True, samesite="strict")
            return back
        try:
            host(request.headers.get("x-regalia-key"), request.cookies.get(KEY_COOKIE))
        except HTTPException as e:
            return templates.TemplateResponse(request, "message.html", {"message": e.detail}, status_code=403)
        return templates.TemplateResponse(
            request, "lobby.html", {"games": games(), "agents": list(AGENTS), "bounds": served_help()}
        )

    @app.get("/t/{token}", response_class=HTMLResponse, include_in_schema=False)
    def table_page(request: Request, token: str) -> Response:
        try:
            payload = tables.payload(tables.link(token))
        except WebError as e:
            return templates.TemplateResponse(request, "message.html", {"message": str(e)}, status_code=e.status)
        return templates.TemplateResponse(request, "table.html", {"payload": payload, "token": token})

    @app.get("/replay", response_class=HTMLResponse, include_in_schema=False)
    def replay_page(request: Request) -> Response:
        return templates.TemplateResponse(request, "replay.html", {})

    @app.get("/rules/{game}", response_class=HTMLResponse, include_in_schema=False)
    def rules_page(request: Request, game: str) -> Response:
        info = next((g for g in games() if g["name"] == game), None)
        page = engine.rules_page(info["name"]) if info else None
        if info is None or page is None:
            return templates.TemplateResponse(request, "message.html", {"message": "no such game"}, status_code=404)
        return templates.TemplateResponse(
            request, "rules.html", {"title": info["title"], "page": markdown.render(page)}
        )

    if api_docs:

        @app.get("/docs", response_class=HTMLResponse, include_in_schema=False)
        def api_page(request: Request) -> Response:
            # The schema as a page drawn here: nothing loaded from another site.
            return templates.TemplateResponse(request, "api.html", {"schema": app.openapi()})

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        """The icon, for a browser that asks the old address (the pages link the SVG)."""
        icon = (HERE / "static" / "favicon.svg").read_bytes()
        return Response(icon, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})

    @app.get("/font.ttf", include_in_schema=False)
    def font() -> Response:
        return Response(font_file(), media_type="font/ttf", headers={"Cache-Control": "max-age=86400"})

    # --- the API ----------------------------------------------------------------------------

    @app.get("/api/games", response_model=list[GameInfo])
    def list_games() -> list[dict[str, Any]]:
        """The games, their seat counts and their options as declared (default, allowed
        values, a line on each): what the lobby offers."""
        return games()

    @app.post("/api/tables", dependencies=[Host], response_model=TableStarted, responses=refusals(400, 403, 404, 413))
    def new_table(request: Request, new: NewTable) -> dict[str, Any]:
        """Starts a table; answers its id and its private links (one a person, or a watcher's
        for bots alone)."""
        table_id, links = tables.create(new.game, dict(new.options), list(new.seats), new.seed, new.hot_seat)
        return {"id": table_id, "links": _links(request, links)}

    @app.get("/api/tables", dependencies=[Host], response_model=list[TableRow], responses=refusals(403))
    def list_tables(request: Request) -> list[dict[str, Any]]:
        """The tables in the database, the last changed first, with their links."""
        return [
            {
                "id": row.id,
                "game": row.record.game,
                "agents": row.record.agents,
                "moves": len(row.record.actions),
                "over": bool(row.record.returns),
                "updated": row.updated,
                "links": _links(request, store.links(row.id)),
            }
            for row in store.tables()
        ]

    @app.get("/api/tables/{table_id}/record", dependencies=[Host], responses=refusals(400, 403, 404))
    def table_record(table_id: str) -> dict[str, Any]:
        """A table's match record (for a replay, or to keep), once its game is over."""
        row = store.load(table_id) if len(table_id) <= 64 else None
        if row is None:
            raise NotFound("no such table")
        if not row.record.returns:
            raise WebError("the game is not over: its record would show hidden cards while it is played")
        record: dict[str, Any] = json.loads(row.record.to_json())
        return record

    @app.post(
        "/api/tables/{table_id}/save", dependencies=[Host], response_model=Saved, responses=refusals(400, 403, 404, 413)
    )
    def save_table(table_id: str, body: SaveName) -> dict[str, Any]:
        """Writes the table's game to ``NAME.json`` in the user's saves folder (``regalia
        resume`` continues it); a name with a path in it is refused."""
        row = store.load(table_id) if len(table_id) <= 64 else None
        if row is None:
            raise NotFound("no such table")
        path = _save_path(body.name)
        save_game(path, row.record)
        return {"saved": path.name}

    @app.post("/api/resume", dependencies=[Host], response_model=TableStarted, responses=refusals(400, 403, 404, 413))
    def resume_save(request: Request, body: SaveName) -> dict[str, Any]:
        """Starts a table from ``NAME.json`` in the user's saves folder, its seats as saved."""
        path = _save_path(body.name)
        if not path.is_file():
            raise NotFound(f"no save called {path.name}")
        record = load_game(path)
        if not isinstance(record, MatchRecord):
            raise WebError(f"{path.name} is a saved state, not a game with its seats")
        if record.returns:
            raise WebError(f"the game in {path.name} is over: replay it instead")
        table_id, links = tables.resume(record)
        return {"id": table_id, "links": _links(request, links)}

    @app.get("/api/t/{token}", response_model=Payload, responses=refusals(404))
    def seat_state(token: str) -> Response:
        """What the link's seat sees now: its picture (SVG), moves, log, and the ending."""
        seat_link = link(token)
        return answer(seat_link, tables.payload(seat_link))

    @app.post("/api/t/{token}/move", response_model=Payload, responses=refusals(400, 403, 404, 409, 413))
    def play(token: str, move: Move) -> Response:
        """Plays a move offered to the link's seat; 409 when the table has moved on since."""
        seat_link = link(token)
        return answer(seat_link, tables.play(seat_link, move.version, move.action))

    @app.post("/api/t/{token}/hand-over", response_model=Payload, responses=refusals(400, 403, 404, 409, 413))
    def hand_over(token: str, body: HandOver) -> Response:
        """On the screen several people share: ``seat``, the person to move, takes it, and
        its view is shown; 409 when another seat is to move or the table has moved on."""
        seat_link = link(token)
        return answer(seat_link, tables.hand_over(seat_link, body.version, body.seat))

    @app.post("/api/t/{token}/undo", response_model=Payload, responses=refusals(400, 403, 404, 409, 413))
    def undo(token: str, seen: Seen) -> Response:
        """Takes back the person's last move by the table's rule; 409 with the reason when refused."""
        seat_link = link(token)
        return answer(seat_link, tables.undo(seat_link, seen.version))

    @app.post("/api/t/{token}/back", response_model=Payload, responses=refusals(400, 403, 404, 409, 413))
    def back(token: str, seen: Seen) -> Response:
        """Backs out of a purchase not yet paid (Regnum); 409 with the reason when refused."""
        seat_link = link(token)
        return answer(seat_link, tables.back(seat_link, seen.version))

    @app.get(
        "/api/t/{token}/events",
        response_class=StreamingResponse,
        responses={200: {"content": {"text/event-stream": {}}}, **refusals(404)},
    )
    async def events(
        request: Request,
        token: str,
        since: Annotated[int, Query(ge=-1, le=2**31)] = -1,
        seconds: Annotated[float, Query(gt=0, le=MAX_STREAM)] = 30.0,
    ) -> Response:
        """Server-sent events: the link's payload whenever its table changes (first at once
        unless it is still at version ``since``), for ``seconds``; then the stream ends (a
        page's ``EventSource`` opens it again)."""
        seat_link = await anyio.to_thread.run_sync(link, token)
        loop = asyncio.get_running_loop()
        end = loop.time() + seconds

        async def stream() -> AsyncIterator[str]:
            last = since
            yield "retry: 500\n\n"
            while loop.time() < end and not await request.is_disconnected():
                payload = await anyio.to_thread.run_sync(tables.payload_since, seat_link, last)
                if payload is not None and payload["version"] != last:
                    last = payload["version"]
                    text = await anyio.to_thread.run_sync(tables.as_json, seat_link, payload)
                    yield f"data: {text}\n\n"
                else:
                    yield ": still here\n\n"
                await hub.wait(seat_link.table_id, last, min(KEEP_ALIVE, max(0.0, end - loop.time())))

        return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})

    @app.post("/api/replay", response_model=ReplayAnswer, responses=refusals(400, 413))
    def replay(body: Replay) -> dict[str, Any]:
        """A match record after ``ply`` moves, every card open (``regalia.table.Replay``): the
        picture, the moves by name up to there, how many there are, and at the end how the
        game ended."""
        record = MatchRecord.from_json(body.record)
        if len(record.actions) > MAX_REPLAY:
            raise WebError(f"a replay has at most {MAX_REPLAY} moves")
        walked = TableReplay(record)
        game = walked.game
        frame = walked.frame(min(body.ply, walked.total))
        return {
            "game": game.name,
            "title": game.title,
            "agents": record.agents,
            "ply": frame.ply,
            "total": walked.total,
            "picture": spectator_svg(game.name, list(frame.observations.values()), game.options),
            "moves": [{"seat": m.seat, "name": m.name} for m in walked.moves[: frame.ply]],
            "over": frame.outcome is not None,
            "outcome": None if frame.outcome is None else outcome_fields(frame.outcome),
        }

    for route in app.routes:  # a body may be too slow (the shield's body timeout)
        if isinstance(route, APIRoute) and "POST" in (route.methods or ()):
            route.responses = {**refusals(408), **route.responses}
    return app


def _links(request: Request, links: dict[int | None, str]) -> list[dict[str, Any]]:
    """The private links by seat (None: a watcher's; the people's shared screen is marked
    ``shared``), as full addresses on this server: on its public address, never on one a
    request's header names."""
    base = request.app.state.public_url or link_base(request.scope)
    return [
        {"seat": None if seat == SHARED else seat, "url": f"{base}/t/{token}", "shared": seat == SHARED}
        for seat, token in sorted(links.items(), key=lambda x: x[0] or 0)
    ]


def _save_path(name: str) -> Path:
    """``NAME.json`` in the user's saves folder; a name with a folder or a path refused."""
    stem = name[:-5] if name.endswith(".json") else name
    if not SAVE_NAME.match(stem) or ".." in stem:
        raise WebError("a save's name is letters, digits, '-', '_' and '.', with no folder or path in it")
    return saves_folder() / f"{stem}.json"
