"""Card symbols or their ASCII stand-ins, as the caller of a renderer asked."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_symbols: ContextVar[bool] = ContextVar("regalia_render_symbols", default=True)


@contextmanager
def using_symbols(symbols: bool) -> Iterator[None]:
    """Renderers inside this block draw card symbols (``True``) or ASCII (``False``)."""
    token = _symbols.set(symbols)
    try:
        yield
    finally:
        _symbols.reset(token)


def glyph(symbol: str, ascii_text: str) -> str:
    """``symbol``, or ``ascii_text`` where the renderer's caller asked for ASCII."""
    return symbol if _symbols.get() else ascii_text
