"""The bench scripts write the data the results pages' tables are generated from: a writer
run at a tiny size (``--write DIR``) writes a data file that benches/docs_tables.py turns into
its page's table, with the command, date and machine of the run under it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_docs_tables import docs_tables

ROOT = Path(__file__).resolve().parent.parent


def written(tmp_path: Path, *command: str) -> Path:
    """Runs ``python benches/COMMAND --write DIR`` and returns DIR."""
    folder = tmp_path / "data"
    subprocess.run([sys.executable, *command, "--write", str(folder)], cwd=ROOT, check=True, capture_output=True)
    return folder


def regenerated(tmp_path: Path, folder: Path, names: list[str]) -> Path:
    """A copy of the docs with the data files ``names`` from ``folder``, its tables regenerated
    from them (no problem allowed, and the check passes after); returns the copy's root."""
    root = tmp_path / "repo"
    shutil.copytree(ROOT / "docs", root / "docs", ignore=shutil.ignore_patterns("*.png", "*.npz", "*.jsonl"))
    for name in names:
        shutil.copy(folder / f"{name}.json", root / "docs" / "results" / "data" / f"{name}.json")
    module = docs_tables()
    assert module.run(root, check=False) == []
    assert module.run(root, check=True) == []
    return root


def table_of(page: Path, name: str) -> str:
    text = page.read_text(encoding="utf-8")
    start = text.index(f"<!-- table: {name} -->")
    return text[start : text.index("<!-- /table -->", start)]


def test_a_strength_panel_writes_the_data_its_table_is_made_from(tmp_path: Path) -> None:
    folder = written(tmp_path, "benches/strength.py", "learning-pool-eval", "--games", "4")
    data = json.loads((folder / "learning-pool-eval.json").read_text(encoding="utf-8"))
    assert data["command"].startswith("python benches/strength.py learning-pool-eval --games 4 --write ")
    assert data["date"].endswith("UTC") and "cores, load average" in data["machine"]
    assert len(data["rows"]) == 8 and all(row[1] == 4 for row in data["rows"])
    root = regenerated(tmp_path, folder, ["learning-pool-eval"])
    table = table_of(root / "docs" / "results" / "learning.md", "learning-pool-eval")
    # Each row's match record shown as won-drawn-lost summing to the 4 games, and its share.
    rows = [line for line in table.splitlines() if line.startswith("|")][2:]  # below the header
    assert len(rows) == 8
    for line in rows:
        won, drawn, lost = (int(x) for x in line.split(" | ")[2].split("-"))
        assert won + drawn + lost == 4
    assert "made by `python benches/strength.py learning-pool-eval --games 4 --write" in table
    assert "rerun with" not in table


def test_a_bench_script_writes_the_data_its_table_is_made_from(tmp_path: Path) -> None:
    folder = written(tmp_path, "benches/cfr_report.py", "--iterations", "2", "4", "--seconds", "0.05")
    data = json.loads((folder / "cfr-memory.json").read_text(encoding="utf-8"))
    assert data["columns"] == ["run", "result"] and len(data["rows"]) == 4
    root = regenerated(tmp_path, folder, ["cfr-memory"])
    table = table_of(root / "docs" / "results" / "exploitability.md", "cfr-memory")
    assert "| outcome, Regine 4 players, 2 / 4 iterations |" in table
    assert "made by `python benches/cfr_report.py --iterations 2 4 --seconds 0.05 --write" in table


@pytest.mark.parametrize("broken", ["a row too short", "no command"])
def test_data_a_writer_did_not_write_fails_the_check(tmp_path: Path, broken: str) -> None:
    root = tmp_path / "repo"
    shutil.copytree(ROOT / "docs", root / "docs", ignore=shutil.ignore_patterns("*.png", "*.npz", "*.jsonl"))
    path = root / "docs" / "results" / "data" / "cfr-memory.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    if broken == "a row too short":
        data["rows"][0] = data["rows"][0][:1]
    else:
        data.pop("writer")
        data["command"] = "by hand"
    path.write_text(json.dumps(data), encoding="utf-8")
    problems = docs_tables().run(root, check=True)
    short = broken == "a row too short"
    expected = "a row has 1 cells for 2 columns" if short else "cfr-memory.json: neither made by a bench script"
    assert any(expected in p for p in problems), problems


def test_a_kept_record_says_why_under_its_table() -> None:
    data = json.loads((ROOT / "docs" / "results" / "data" / "perf-solver.json").read_text(encoding="utf-8"))
    assert data["kept"]
    table = table_of(ROOT / "docs" / "performance.md", "perf-solver")
    assert f"a kept record, rerun by no script: {data['kept']}" in table
