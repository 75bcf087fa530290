"""The server's connections, bounded in time: uvicorn's HTTP/1.1 protocol (h11) with a deadline
for a request's head.

uvicorn closes a connection left idle after a response (its keep-alive timeout), but arms no
timer on a new connection, nor while a request's head trickles in: a connection opened and
left silent, or fed a byte now and then, would be held for ever. ``timed_protocol`` gives a
protocol that closes a connection whose request head (request line and headers) has not all
arrived ``head_timeout`` seconds after the connection was opened or the previous response
was sent, and one whose request was answered before its body was all read (refused as too
large or too slow). The body's own deadline is the shield's (``regalia.web.security``), and
uvicorn's ``limit_concurrency`` caps the connections (503 past it).
"""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["timed_protocol"]


class _TimedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol that closes a connection whose request head is late."""

    head_timeout: float = 10.0
    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """A new connection: its first request's head is awaited from now on."""
        super().connection_made(transport)
        self._arm_head_timer()

    def data_received(self, data: bytes) -> None:
        """Bytes of a request: once its head is whole, its deadline is lifted."""
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._disarm_head_timer()

    def on_response_complete(self) -> None:
        """A response sent: the next request's head is awaited from now on; a request answered
        before its body was all read (refused: too large, too slow) ends the connection."""
        super().on_response_complete()
        if self.transport.is_closing():
            return
        if self.conn.their_state is h11.SEND_BODY:
            self.transport.close()
        elif self.conn.their_state is h11.IDLE:
            self._arm_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection is gone: no timer of it stays behind."""
        self._disarm_head_timer()
        super().connection_lost(exc)

    def _arm_head_timer(self) -> None:
        self._disarm_head_timer()
        self._head_timer = self.loop.call_later(self.head_timeout, self._head_late)

    def _disarm_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_late(self) -> None:
        self._head_timer = None
        answering = self.cycle is not None and not self.cycle.response_complete
        if self.conn.their_state is h11.IDLE and not answering and not self.transport.is_closing():
            self.transport.close()


def timed_protocol(head_timeout: float) -> type[H11Protocol]:
    """uvicorn's h11 protocol, closing a connection whose request head has not all arrived
    ``head_timeout`` seconds after it was opened or after its previous response."""
    return type("TimedH11Protocol", (_TimedH11Protocol,), {"head_timeout": head_timeout})
