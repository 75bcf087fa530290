"""A griffe extension for the docs site (mkdocs.yml): the package's docstrings as the site shows them.

Two conventions of the package that griffe does not read by itself:

- examples are bare doctest lines (``>>> ...`` up to a blank line), which Markdown would read
  as nested quotes: each such block is fenced as ``pycon`` before the docstring is parsed;
  a paragraph ending in ``::`` (reStructuredText's mark of the code block that follows) ends
  in ``:``;
- constants are documented by ``#:`` comments just above them: these become their docstrings.

Docstrings are only read here, never changed in the package.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import griffe


def docstring_markdown(text: str) -> str:
    """``text`` with every unindented doctest block (``>>>`` to the next blank line) fenced,
    and the ``::`` that ends an unindented line before a blank one as ``:``."""
    lines = text.split("\n")
    out: list[str] = []
    in_block = False
    for index, line in enumerate(lines):
        before_blank = index + 1 == len(lines) or not lines[index + 1].strip()
        if not in_block and line.endswith("::") and not line[:1].isspace() and before_blank:
            line = line[:-1]
        if not in_block and line.startswith(">>>"):
            out.append("```pycon")
            in_block = True
        elif in_block and not line.strip():
            out.append("```")
            in_block = False
        out.append(line)
    if in_block:
        out.append("```")
    return "\n".join(out)


def comment_doc(lines: list[str], lineno: int) -> str | None:
    """The ``#:`` comment lines right above line ``lineno`` (1-based) of ``lines``, joined."""
    found: list[str] = []
    index = lineno - 2
    while index >= 0 and lines[index].lstrip().startswith("#:"):
        found.append(lines[index].lstrip()[2:].strip())
        index -= 1
    return "\n".join(reversed(found)) or None


class PackageDocstrings(griffe.Extension):
    """Reads ``#:`` comments of attributes and fences the doctest blocks of every docstring."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Fills in ``obj``'s docstring as it is loaded."""
        path = obj.filepath
        if obj.docstring is None and obj.is_attribute and obj.lineno and isinstance(path, Path):
            text = comment_doc(obj.lines_collection[path], obj.lineno) if path in obj.lines_collection else None
            if text is not None:
                obj.docstring = griffe.Docstring(text, lineno=obj.lineno, parent=obj)
        if obj.docstring is not None:
            obj.docstring.value = docstring_markdown(obj.docstring.value)
