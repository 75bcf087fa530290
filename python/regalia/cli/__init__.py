"""The ``regalia`` command line (Typer and Rich): ``games``, ``rules``, ``play``, ``resume``,
``watch``, ``simulate``, ``tournament`` and ``replay``. See docs/cli.md."""

from __future__ import annotations

from regalia.cli.app import app

__all__ = ["app", "main"]


def main() -> None:
    """Entry point of the ``regalia`` script."""
    app()
