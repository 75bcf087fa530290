"""The examples in the docs run: each ```python block of the pages below is executed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"


def python_blocks(page: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", (DOCS / page).read_text(), flags=re.S)


@pytest.mark.parametrize("page", ["agents.md"])
def test_the_examples_run(page: str, capsys: pytest.CaptureFixture[str]) -> None:
    blocks = python_blocks(page)
    assert blocks, f"{page} has no python example"
    for code in blocks:
        exec(compile(code, f"{page}:example", "exec"), {"__name__": "docs_example"})
    assert "lookahead" in capsys.readouterr().out
