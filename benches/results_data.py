"""Writes the data files of the results tables (``docs/results/data/NAME.json``), which
``benches/docs_tables.py`` turns into the pages' tables; shared by every bench script that
writes one, so that they write one schema and one provenance.

Every writer takes the same option, ``--write [DIR]``: without it a script only prints, as it
always did; with it, it also writes its tables' data files into ``DIR`` (by default
``docs/results/data``, over the committed data; give a temporary folder to try a small run).
Then ``python benches/docs_tables.py`` rewrites the pages' tables from the data.

A data file is ``{"command", "date", "machine", "columns", "rows"}`` plus anything a table
adds (a ``title``): ``command`` is the command line as it was run, ``date`` the time it ran
(UTC), ``machine`` the cores, the load average at the start and at the end, and the Python
version. A cell is text, a number, a match record (``record``) or a bold text (``bold``);
see ``docs_tables.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import sys
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import docs_tables  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
#: Where the pages' data files live.
DATA = ROOT / "docs" / "results" / "data"


def add_write_option(parser: argparse.ArgumentParser) -> None:
    """``--write [DIR]``: also write the tables' data files into DIR (default: ``DATA``)."""
    parser.add_argument(
        "--write",
        nargs="?",
        type=Path,
        const=DATA,
        default=None,
        metavar="DIR",
        help="also write the tables' data files into DIR (default: docs/results/data); "
        "then python benches/docs_tables.py regenerates the pages",
    )


def command(argv: Sequence[str] | None = None) -> str:
    """The command line as it was run: ``python benches/SCRIPT.py ARGS`` (the script's path
    relative to the repository when it lies inside it)."""
    args = list(sys.argv if argv is None else argv)
    script = Path(args[0]).resolve() if args else Path("python")
    try:
        shown = script.relative_to(ROOT).as_posix()
    except ValueError:
        shown = script.name
    return shlex.join(["python", shown, *args[1:]])


def load() -> str:
    """The 1-minute load average, or ``?`` where the system has none."""
    try:
        return f"{os.getloadavg()[0]:.1f}"
    except OSError:
        return "?"


def cpu() -> str:
    """The processor's model name, or the architecture."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


class Provenance:
    """When and where a measurement ran: made when it starts (the date and the load then),
    asked for its ``machine`` line when it ends (with the load at the end)."""

    def __init__(self, argv: Sequence[str] | None = None) -> None:
        self.command = command(argv)
        self.date = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        self.load = load()
        #: The machine line, where the measurement was made elsewhere (read back from a file).
        self.elsewhere: str | None = None

    def machine(self) -> str:
        """``CPU, N cores, load average A at the start and B at the end; Python X, System``."""
        if self.elsewhere is not None:
            return self.elsewhere
        return (
            f"{cpu()}, {os.cpu_count()} cores, load average {self.load} at the start and {load()} at the end; "
            f"Python {platform.python_version()}, {platform.system()}"
        )

    def fields(self) -> dict[str, str]:
        return {"command": self.command, "date": self.date, "machine": self.machine()}


def markdown(columns: Sequence[str | dict[str, Any]], rows: Sequence[Sequence[Any]]) -> str:
    """The table as the page will show it (``docs_tables``' cells), for a script to print."""
    shown = [c if isinstance(c, dict) else {"name": c} for c in columns]
    cells = [[docs_tables.cell(v, c) for v, c in zip(row, shown, strict=True)] for row in rows]
    return docs_tables.markdown_table([c["name"] for c in shown], cells)


def record(won: float, drawn: float, lost: float) -> dict[str, float]:
    """A match record cell: the table shows it as its column's ``format`` asks."""
    return {"won": won, "drawn": drawn, "lost": lost}


def bold(text: str) -> dict[str, Any]:
    """A cell shown in bold."""
    return {"text": text, "bold": True}


def write(
    folder: Path,
    name: str,
    columns: Sequence[str | dict[str, Any]],
    rows: Sequence[Sequence[Any]],
    provenance: Provenance,
    **extra: Any,
) -> Path:
    """Writes ``folder/NAME.json``: the table's columns and rows with the provenance (and any
    ``extra`` fields, before the rows); returns the path. Refuses a row of the wrong width."""
    for row in rows:
        if len(row) != len(columns):
            raise ValueError(f"{name}: a row has {len(row)} cells for {len(columns)} columns: {row}")
    data = {**provenance.fields(), **extra, "columns": list(columns), "rows": [list(r) for r in rows]}
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {path}", file=sys.stderr)
    return path
