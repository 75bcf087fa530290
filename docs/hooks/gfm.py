"""An MkDocs hook for the docs site (mkdocs.yml): the pages' GitHub markdown as MkDocs reads it.

The pages are written for GitHub, whose markdown differs from Python-Markdown's (MkDocs') in
three places that would flatten the site's lists and tables; each page is adjusted as it is
read, never on disk:

- a nested list indented by 2 spaces: Python-Markdown needs 4, so indentation in a list doubles;
- a list or a table right after a line of text (no blank line between): a blank line is put in.

Fenced code is left as it is (moved with its list item).
"""

from __future__ import annotations

import re
from typing import Any

_ITEM = re.compile(r"^( *)([-*+]|\d+[.)]) ")
_FENCE = re.compile(r"^( *)(```|~~~)")
_TABLE_RULE = re.compile(r"^ *\|? *:?-+:? *(\| *:?-+:? *)*\|? *$")


def github_to_python_markdown(text: str) -> str:
    """``text`` (GitHub markdown) with its lists and tables as Python-Markdown reads them."""
    lines = text.split("\n")
    out: list[str] = []
    in_list = False
    fence: str | None = None  # the fence that is open, if any
    shift = 0  # spaces added to every line of the open fence
    previous = ""
    for index, line in enumerate(lines):
        fenced = _FENCE.match(line)
        if fence is not None:
            out.append(" " * shift + line if line.strip() else line)
            if fenced and fenced.group(2) == fence and not line.strip().strip(fence[0]):
                fence = None
            previous = line
            continue
        indent = len(line) - len(line.lstrip(" "))
        item = _ITEM.match(line)
        after_text = bool(previous.strip()) and not _ITEM.match(previous)
        if item and indent == 0:
            if after_text and not in_list:
                out.append("")
            in_list = True
        elif in_list and indent > 0 and line.strip():
            line = " " * indent + line
        elif in_list and line.strip() and not previous.strip():
            in_list = False
        is_table = line.lstrip().startswith("|") and index + 1 < len(lines) and _TABLE_RULE.match(lines[index + 1])
        if is_table and previous.strip() and not previous.lstrip().startswith("|"):
            out.append("")
        if fenced:
            fence, shift = fenced.group(2), len(line) - len(lines[index])
        out.append(line)
        previous = lines[index]
    return "\n".join(out)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """MkDocs' hook: every page's markdown, adjusted before it is rendered."""
    return github_to_python_markdown(markdown)
