"""``regalia serve``: the games at a table in the browser (the ``web`` extra)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from regalia.cli import exits
from regalia.cli.console import screen

EXAMPLES = [
    "regalia serve                                   # the lobby opens in your browser",
    "regalia serve --no-browser --port 8765",
    "regalia serve --host 0.0.0.0                    # people on your network join by private links",
    "regalia serve --db games.sqlite3 --pace 0.3",
]


def serve(
    host: Annotated[
        str,
        typer.Option(
            help="the address to listen on: 127.0.0.1 keeps it to this machine; 0.0.0.0 opens it to your network"
        ),
    ] = "127.0.0.1",
    port: Annotated[int | None, typer.Option(min=1, max=65535, help="the port (default: a free one)")] = None,
    db: Annotated[
        Path | None,
        typer.Option(metavar="PATH", help="the SQLite database of the tables (default: in your data folder)"),
    ] = None,
    pace: Annotated[float, typer.Option(min=0, metavar="SECONDS", help="seconds between two bot moves")] = 0.8,
    no_browser: Annotated[bool, typer.Option("--no-browser", help="print the address, open no browser")] = False,
) -> None:
    """Play in the browser: a lobby to start a table, each seat's view as pictures, moves by
    click or number, bots at a pace you can follow, private links for people at several
    machines. Every table is saved on every move, so stopping the server loses nothing.
    """
    try:
        from regalia.web import serve as run  # the web extra: FastAPI, uvicorn, Jinja2
    except ModuleNotFoundError as e:
        exits.fail(f'regalia serve needs the web extra ({e.name} is missing): pip install "regalia[web]"')
    run(host=host, port=port, db=db, pace=pace, browser=not no_browser, say=lambda line: screen().say(line))
