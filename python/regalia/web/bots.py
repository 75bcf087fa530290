"""Where the bots of a server's tables think: a small pool of worker threads of their own,
never a thread that answers requests, and never while holding a table's lock (a bot thinks
over the view it was handed; the table is locked only to hand it and to play the choice).

Each move has ``MOVE_SECONDS`` of thinking (counted from when a worker takes it up): a
search stops itself sooner and plays its best so far (``regalia.agents.bounds``); a bot
still thinking then is left to finish in its worker, and the table plays a random legal move
for it, saying so in every log.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import anyio

from regalia.agents.bounds import SEARCH_SECONDS
from regalia.core.errors import RegaliaError
from regalia.web.tables import BotTurn, Tables, WebError

__all__ = ["MOVE_SECONDS", "Bots"]

log = logging.getLogger("regalia.web")

#: The longest a bot thinks over a move before the table plays for it, in seconds: a
#: search stops at ``SEARCH_SECONDS``, so only a bot that cannot stop itself is cut off.
MOVE_SECONDS = 2 * SEARCH_SECONDS


class Bots:
    """Lets the bots of ``tables`` move, one every ``pace`` seconds, thinking in ``workers``
    threads of their own (by default one a core, at least two) for at most ``limit``
    seconds a move."""

    def __init__(self, tables: Tables, pace: float, limit: float = MOVE_SECONDS, workers: int | None = None) -> None:
        self.tables = tables
        self.pace = pace
        self.limit = limit
        self.pool = ThreadPoolExecutor(max(2, workers or os.cpu_count() or 2), thread_name_prefix="regalia-bot")

    async def play(self, table_id: str, claim: Callable[[], bool] = lambda: True) -> bool:
        """The table's bots move while a bot is to move and ``claim()`` (asked in a thread
        before each move: this process still plays the table) holds; whether they stopped
        because no bot is to move (not for a lost claim, a refusal or a failure, which is
        logged)."""
        try:
            while await anyio.to_thread.run_sync(claim):
                turn = await anyio.to_thread.run_sync(self.tables.bot_turn, table_id)
                if turn is None:
                    return True
                start = time.monotonic()
                chosen, ran_out = await self.think(turn)
                await asyncio.sleep(max(0.0, self.pace - (time.monotonic() - start)))
                await anyio.to_thread.run_sync(self.tables.bot_play, turn, chosen, ran_out)
        except WebError as e:
            if e.status != 409:  # 409: another process moved first; the next change wakes us
                log.warning("table %s: %s", table_id, e)
        except RegaliaError as e:
            log.warning("table %s: a bot failed: %s", table_id, e)
        return False

    async def think(self, turn: BotTurn) -> tuple[Any, float | None]:
        """The bot's choice, and None; or None and the seconds it was given, when it ran out."""
        loop = asyncio.get_running_loop()
        started: asyncio.Future[None] = loop.create_future()

        def begun() -> None:
            if not started.done():
                started.set_result(None)

        def act() -> Any:
            loop.call_soon_threadsafe(begun)
            return turn.agent.act(turn.view)

        choice = asyncio.wrap_future(self.pool.submit(act))
        await asyncio.wait({started, choice}, return_when=asyncio.FIRST_COMPLETED)
        try:
            return await asyncio.wait_for(asyncio.shield(choice), self.limit), None
        except asyncio.TimeoutError:
            choice.add_done_callback(_quiet)
            return None, self.limit

    def close(self) -> None:
        """Lets no new thinking start (thinking under way ends on its own)."""
        self.pool.shutdown(wait=False, cancel_futures=True)


def _quiet(future: asyncio.Future[Any]) -> None:
    """Reads the end of thinking nobody waits for any more (so no error goes unread)."""
    with contextlib.suppress(BaseException):
        future.result()
