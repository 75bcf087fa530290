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
    "regalia serve --workers 2                       # two processes on one database: more tables at once",
    "regalia serve --host 0.0.0.0 --ssl-certfile cert.pem --ssl-keyfile key.pem --public-url https://games.example.org:8443",
    "regalia serve --port 8765 --public-url https://games.example.org --forwarded-allow-ips 127.0.0.1  # behind Caddy",
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
    public_url: Annotated[
        str | None,
        typer.Option(
            metavar="URL",
            help="the address people reach the server at (e.g. https://games.example.org): links are made "
            "on it, and its host name is answered to (default: the address listened on)",
        ),
    ] = None,
    ssl_certfile: Annotated[
        Path | None, typer.Option(metavar="PATH", help="serve HTTPS with this certificate (PEM)")
    ] = None,
    ssl_keyfile: Annotated[
        Path | None, typer.Option(metavar="PATH", help="the certificate's private key (PEM)")
    ] = None,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            metavar="IPS",
            help="the reverse proxies (comma-separated addresses) whose X-Forwarded-For/-Proto are believed",
        ),
    ] = None,
    idle_timeout: Annotated[
        float,
        typer.Option(min=0.5, max=3600, metavar="SECONDS", help="how long a connection may wait for a request"),
    ] = 10.0,
    body_timeout: Annotated[
        float, typer.Option(min=0.5, max=3600, metavar="SECONDS", help="how long a request's body may take")
    ] = 30.0,
    max_connections: Annotated[
        int, typer.Option(min=1, metavar="N", help="past this many connections, requests get 503")
    ] = 1000,
    access_log: Annotated[
        bool, typer.Option("--access-log", help="a line per request (tokens and key masked)")
    ] = False,
    api_docs: Annotated[
        bool, typer.Option("--api-docs", help="serve the API's schema at /openapi.json and /docs")
    ] = False,
    workers: Annotated[
        int,
        typer.Option(
            min=1, max=64, metavar="N", help="server processes sharing the port and the database (about one a core)"
        ),
    ] = 1,
    cache_tables: Annotated[
        int,
        typer.Option(
            min=1,
            metavar="N",
            help="tables each process holds in memory at most (others are read back from the database)",
        ),
    ] = 2000,
) -> None:
    """Play in the browser: a lobby to start a table, each seat's view as pictures, moves by
    click or number, bots at a pace you can follow, private links for people at several
    machines. Every table is saved on every move, so stopping the server loses nothing.
    """
    try:
        from regalia.web import Hosting, check_public_url  # the web extra: FastAPI, uvicorn, Jinja2
        from regalia.web import serve as run
    except ModuleNotFoundError as e:
        exits.fail(f'regalia serve needs the web extra ({e.name} is missing): pip install "regalia[web]"')
    if (ssl_certfile is None) != (ssl_keyfile is None):
        exits.fail("give both --ssl-certfile and --ssl-keyfile, or neither")
    try:
        public = check_public_url(public_url) if public_url is not None else None
    except ValueError as e:
        exits.fail(str(e))
    hosting = Hosting(
        public_url=public,
        ssl_certfile=str(ssl_certfile) if ssl_certfile else None,
        ssl_keyfile=str(ssl_keyfile) if ssl_keyfile else None,
        forwarded_allow_ips=forwarded_allow_ips,
        idle_timeout=idle_timeout,
        body_timeout=body_timeout,
        max_connections=max_connections,
        access_log=access_log,
        api_docs=api_docs,
    )
    run(
        host=host,
        port=port,
        db=db,
        pace=pace,
        browser=not no_browser,
        say=lambda line: screen().say(line),
        hosting=hosting,
        workers=workers,
        capacity=cache_tables,
    )
