"""The five games at a table in the browser (``regalia serve``; ``pip install "regalia[web]"``).

A local web server (FastAPI on uvicorn) with a lobby, a table page per seat drawn as SVG from
the same drawing code as the pictures, private links for the people at a table, bots moving
in the background at a pace a person can follow, and every table saved on every move in a
SQLite database, so a restart loses nothing. It is a front-end of ``regalia.table``: the
table decides whose turn it is, what is offered, what undo may take back and what each seat is
told; this package only shows it.

May import: everything below the front-ends; never ``regalia.cli``.
"""

from regalia.web.app import create_app
from regalia.web.security import check_public_url
from regalia.web.server import Hosting, serve

__all__ = ["Hosting", "check_public_url", "create_app", "serve"]
