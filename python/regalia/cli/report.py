"""The end of a game as a table: each seat's agent, result and score."""

from __future__ import annotations

from rich.table import Table

from regalia.cli.console import screen
from regalia.registry.records import MatchRecord


def verdict(ret: float) -> str:
    """``wins``, ``loses`` or ``draws`` from a seat's return."""
    return "wins" if ret > 0 else ("loses" if ret < 0 else "draws")


def signed(ret: float) -> str:
    """A return as shown: signed, to three significant digits (``+1``, ``-0.333``)."""
    return f"{ret:+.3g}"


def result_table(record: MatchRecord, title: str) -> Table:
    """One row per seat: seat, agent, result, return and score."""
    table = screen().table(title=f"{title}: over after {len(record.actions)} moves", title_justify="left")
    for column in ("seat", "agent", "result", "return", "score"):
        table.add_column(column, justify="right" if column in ("seat", "return", "score") else "left")
    for seat, (agent, ret, score) in enumerate(zip(record.agents, record.returns, record.scores)):
        style = "bold green" if ret > 0 else ("red" if ret < 0 else "")
        table.add_row(str(seat), agent, verdict(ret), signed(ret), str(score), style=style)
    return table
