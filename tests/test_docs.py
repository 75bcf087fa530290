"""The examples in the docs run: each ```python block of the pages below is executed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def python_blocks(page: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", (ROOT / page).read_text(), flags=re.S)


@pytest.mark.parametrize(("page", "printed"), [("docs/agents.md", "lookahead"), ("README.md", "moves a game")])
def test_the_examples_run(page: str, printed: str, capsys: pytest.CaptureFixture[str]) -> None:
    blocks = python_blocks(page)
    assert blocks, f"{page} has no python example"
    for code in blocks:
        exec(compile(code, f"{page}:example", "exec"), {"__name__": "docs_example"})
    assert printed in capsys.readouterr().out
