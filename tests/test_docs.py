"""The docs agree with the code: each ```python block of the pages below runs, and each rules
page's options table lists the game's declared options."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import regalia

ROOT = Path(__file__).resolve().parent.parent


def python_blocks(page: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", (ROOT / page).read_text(), flags=re.S)


EXAMPLES = [("docs/agents.md", "lookahead"), ("docs/table.md", "took back"), ("README.md", "moves a game")]


@pytest.mark.parametrize(("page", "printed"), EXAMPLES)
def test_the_examples_run(page: str, printed: str, capsys: pytest.CaptureFixture[str]) -> None:
    blocks = python_blocks(page)
    assert blocks, f"{page} has no python example"
    for code in blocks:
        exec(compile(code, f"{page}:example", "exec"), {"__name__": "docs_example"})
    assert printed in capsys.readouterr().out


def options_table(game: str) -> list[list[str]]:
    """The rows of the options table on the rules page of ``game`` (cells without backticks)."""
    page = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    section = page.split("\n## Options\n", 1)[1].split("\n#", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return [[cell.strip().replace("`", "") for cell in row.strip("|").split("|")] for row in rows]


def range_words(allowed: dict[str, Any]) -> list[str]:
    """What the meaning of an option must say about its accepted values."""
    if allowed["type"] in ("integer", "integer_list"):
        lo, hi = allowed["min"], allowed["max"]
        return [f"always {lo}" if lo == hi else f"{lo}–{hi}"]
    if allowed["type"] == "choice":
        return list(allowed["choices"])
    return []


@pytest.mark.parametrize("game", [g["name"] for g in regalia.games()])
def test_the_options_tables_match_the_declarations(game: str) -> None:
    """Each rules page lists every option of the game's declaration, in order, with its
    default and its accepted values."""
    (listed,) = (g for g in regalia.games() if g["name"] == game)
    rows = options_table(game)
    assert [r[0] for r in rows] == [o["name"] for o in listed["options"]]
    for (name, default, meaning), option in zip(rows, listed["options"], strict=True):
        assert json.loads(default) == option["default"], name
        for words in range_words(option["allowed"]):
            assert words in meaning, f"{game}: the meaning of '{name}' does not say {words!r}"


#: Words of the encoding, which belong on a game's developer page, not in its rules for players.
DEVELOPER_WORDS = ("tensor", "observation", "determinize", "action id", "actions (", "rng", "winner_returns")


@pytest.mark.parametrize("game", [g["name"] for g in regalia.games()])
def test_each_game_has_a_players_rules_page_and_a_developer_page(game: str) -> None:
    """The rules page (``regalia rules GAME``) is for players: setup, how a turn or round
    goes, how it ends or scores, an example, the rulings and options; the encoding is on the
    developer page it links to."""
    page = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    titles = re.findall(r"^## (.+)$", page, flags=re.M)
    assert titles[0] == "Setup" and "An example" in titles, titles
    assert any(t.startswith(("A turn", "A round")) for t in titles), titles
    assert any(t in ("The end", "Scoring and the end", "Scoring") for t in titles), titles
    assert titles[-2:] == ["Rulings applied", "Options"], titles
    rules = page.split("\n## Options\n")[0].lower()
    assert not [w for w in DEVELOPER_WORDS if w in rules]
    assert f"(../games/{game}.md)" in page
    developer = (ROOT / "docs" / "games" / f"{game}.md").read_text(encoding="utf-8").replace("**", "")
    assert f"(../rules/{game}.md)" in developer
    assert "Observation tensor" in developer and "Observation (a dict)" in developer and "andomness" in developer
