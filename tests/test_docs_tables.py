"""The results tables of the docs agree with their data (benches/docs_tables.py): the check
passes on the repository, and fails on a copy whose page or data was changed by hand."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def docs_tables() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_tables", ROOT / "benches" / "docs_tables.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """The repository's docs, copied (the script reads nothing else)."""
    shutil.copytree(ROOT / "docs", tmp_path / "docs", ignore=shutil.ignore_patterns("*.png", "*.npz"))
    return tmp_path


def test_every_table_agrees_with_its_data() -> None:
    assert docs_tables().run(ROOT, check=True) == []


def test_a_cell_changed_on_the_page_fails_the_check(copy: Path) -> None:
    page = copy / "docs" / "results" / "strength.md"
    text = page.read_text(encoding="utf-8")
    assert "| Duo Regna | 1.2 |" in text
    page.write_text(text.replace("| Duo Regna | 1.2 |", "| Duo Regna | 0.2 |", 1), encoding="utf-8")
    problems = docs_tables().run(copy, check=True)
    assert len(problems) == 1 and "'rules-panel' differs from its data" in problems[0]
    assert docs_tables().main(["--check", "--root", str(copy)]) == 1
    # Regenerating puts the data's table back.
    assert docs_tables().main(["--root", str(copy)]) == 0
    assert page.read_text(encoding="utf-8") == text


def test_changed_data_or_a_missing_table_fails_the_check(copy: Path) -> None:
    data = copy / "docs" / "results" / "data" / "rules-panel.json"
    table = json.loads(data.read_text(encoding="utf-8"))
    table["rows"][0][1] = "0.2"
    data.write_text(json.dumps(table), encoding="utf-8")
    assert any("'rules-panel' differs" in p for p in docs_tables().run(copy, check=True))
    (copy / "docs" / "results" / "data" / "orphan.json").write_text('{"columns": ["a"], "rows": []}')
    assert any("orphan.json is shown by no page" in p for p in docs_tables().run(copy, check=True))


def test_the_bench_data_builds_the_exploitability_table(copy: Path) -> None:
    runs = copy / "docs" / "game-theory" / "exploitability-regine.json"
    data = json.loads(runs.read_text(encoding="utf-8"))
    data["runs"]["CFR+"][-1]["exploitability"] = 0.5
    runs.write_text(json.dumps(data), encoding="utf-8")
    assert any("'exploitability' differs" in p for p in docs_tables().run(copy, check=True))


def test_match_records_are_shown_with_their_wilson_interval() -> None:
    module = docs_tables()
    record = {"won": 609, "drawn": 0, "lost": 391}
    assert module.cell(record, {"format": "share-interval"}) == "60.9% (56.9% to 64.8%)"
    assert module.cell(record, {"format": "wdl"}) == "609-0-391"
    assert module.cell({"won": 1000, "drawn": 0, "lost": 0}, {"format": "interval"}) == "99.3% to 100%"
    assert module.cell({"text": "0.0%", "bold": True}, {}) == "**0.0%**"
