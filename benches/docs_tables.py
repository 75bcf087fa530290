"""Writes the results tables of the docs from their data, or checks that they agree with it.

    python benches/docs_tables.py            # rewrite every generated table in place
    python benches/docs_tables.py --check    # fail (exit 1) where a page and its data disagree

A generated table sits in a page between two comments, and everything between them is the
script's to write::

    <!-- table: NAME -->
    | ... the table, and a line saying where its data is and how it was measured ... |
    <!-- /table -->

NAME is either a data file, ``docs/results/data/NAME.json`` (a table as measured: its columns,
its rows, and the command, date and machine of the measurement), or one of the tables built
here from what a bench script wrote itself (``BUILDERS``: the exploitability runs of
``benches/exact_report.py``). A data file's cell is a string or a number, shown as it is, or
one of the records below, which the table computes (so a share and its interval cannot
disagree with the counts they come from):

- ``{"won": W, "drawn": D, "lost": L}``: a match record, shown by its column's ``"format"``:
  ``"wdl"`` (``609-0-391``), ``"share"`` (``60.9%``, a draw counting one half), ``"interval"``
  (the two-sided 99% Wilson interval of that share, ``56.9% to 64.8%``) or
  ``"share-interval"`` (``60.9% (56.9% to 64.8%)``);
- ``{"text": ..., "bold": true}``: a string shown in bold (the cell a reader must not miss);
  a match record with ``"bold": true`` is shown in bold too.

Besides its columns and rows a data file has its ``command``, ``date`` and ``machine``, and
may say what the command ``runs`` (the library call of a named panel), all shown under the
table.

A data file is written by the bench script that measured it (``python benches/SCRIPT.py ...
--write``; ``benches/results_data.py`` writes the schema and the command, date and machine),
and its ``command`` says so; numbers measured before the script wrote them name the script
that reruns them in ``"writer"`` instead. A record of a one-off run that no script can repeat
(a Rust example, a comparison with an old build) says why in ``"kept"``, shown under its
table in place of the command. A data file that is neither fails the check.

Every data file must be shown by some page, and every marker must name data: an orphan is an
error too. ``--root`` runs on another copy of the repository (the tests tamper with one).

Regenerating a page: rerun its tables' bench scripts with ``--write``, then this script.
"""

from __future__ import annotations

import argparse
import difflib
import json
import math
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: A generated table: the opening marker, the generated text, the closing marker.
MARKED = re.compile(r"(<!-- table: (?P<name>[\w./-]+) -->\n)(?P<body>.*?)(<!-- /table -->)", re.S)
#: z of a two-sided 99% interval.
Z99 = 2.5758293035489004


def wilson(points: float, games: int, z: float = Z99) -> tuple[float, float]:
    """The Wilson score interval of a share of ``points`` out of ``games``."""
    if games == 0:
        return 0.0, 1.0
    p = points / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def percent(share: float) -> str:
    """A share as the pages write it: one decimal, but 100% and 0.0% as such."""
    return "100%" if share >= 0.9995 else f"{100 * share:.1f}%"


def record_cell(record: dict[str, int], style: str) -> str:
    won, drawn, lost = record["won"], record["drawn"], record["lost"]
    games = won + drawn + lost
    share = (won + drawn / 2) / games
    lo, hi = wilson(won + drawn / 2, games)
    interval = f"{percent(lo)} to {percent(hi)}"
    shown = {
        "wdl": f"{won:,}-{drawn:,}-{lost:,}",
        "share": percent(share),
        "interval": interval,
        "share-interval": f"{percent(share)} ({interval})",
    }
    if style not in shown:
        raise ValueError(f"unknown format {style!r} for a match record (one of {', '.join(shown)})")
    return shown[style]


def cell(value: Any, column: dict[str, Any]) -> str:
    """One cell of a data file's row, as text."""
    if value is None:
        return ""
    if isinstance(value, dict) and "won" in value:
        shown = record_cell(value, column.get("format", "share-interval"))
        return f"**{shown}**" if value.get("bold") else shown
    if isinstance(value, dict) and "text" in value:
        return f"**{value['text']}**" if value.get("bold") else str(value["text"])
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise ValueError(f"a cell must be text, a number or a record, not {value!r}")
    return f"{value:,}" if isinstance(value, int) else str(value)


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in rows:
        if len(row) != len(header):
            raise ValueError(f"a row has {len(row)} cells for {len(header)} columns: {row}")
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |")
    return "\n".join(lines) + "\n"


def source_line(data: dict[str, Any], link: str) -> str:
    """Where a table's numbers come from: its data file, the command (or, for a kept record,
    why no script reruns it), when and where."""
    parts = [f"Data: [`{Path(link).name}`]({link})"]
    if data.get("kept"):
        parts.append(f"a kept record, rerun by no script: {data['kept']}")
        if data.get("command"):
            parts.append(f"measured with `{data['command']}`")
    elif data.get("command"):
        parts.append(f"made by `{data['command']}`")
        if data.get("runs"):
            parts[-1] += f", which runs `{data['runs']}`"
    if data.get("writer"):
        parts.append(f"rerun with `{data['writer']}`")
    when = ", ".join(str(data[k]) for k in ("date", "machine") if data.get(k))
    if when:
        parts.append(when)
    return "\n" + "; ".join(parts) + ".\n"


#: A command that runs a bench script (``nice`` in front allowed): the script that wrote the data.
SCRIPT = re.compile(r"^(?:nice -n \d+ )?python (?P<script>benches/[\w-]+\.py)\b")


def writer_problem(name: str, data: dict[str, Any]) -> str | None:
    """Why data file ``name`` has no writer, or None: a data file is either a kept record
    (``"kept"``: why no script can rerun it) or written by a bench script, named by its
    ``command`` (or, for numbers measured before the script wrote them, its ``writer``), that
    takes ``--write`` (``benches/results_data.py``)."""
    if data.get("kept"):
        return None
    for field in ("writer", "command"):
        found = SCRIPT.match(str(data.get(field, "")))
        if found:
            script = ROOT / found["script"]  # this repository's scripts, whatever --root is
            if script.is_file() and "add_write_option" in script.read_text(encoding="utf-8"):
                return None
            return f"docs/results/data/{name}.json: {found['script']} (its {field}) writes no data (no --write)"
    return (
        f"docs/results/data/{name}.json: neither made by a bench script that writes it "
        "('python benches/SCRIPT.py ... --write') nor a kept record ('kept': why it cannot be rerun)"
    )


def data_table(path: Path, page: Path) -> str:
    data = json.loads(path.read_text(encoding="utf-8"))
    columns = [c if isinstance(c, dict) else {"name": c} for c in data["columns"]]
    for row in data["rows"]:
        if len(row) != len(columns):
            raise ValueError(f"a row has {len(row)} cells for {len(columns)} columns: {row}")
    rows = [[cell(v, c) for v, c in zip(row, columns, strict=True)] for row in data["rows"]]
    link = os.path.relpath(path, page.parent).replace(os.sep, "/")
    return markdown_table([c["name"] for c in columns], rows) + source_line(data, link)


# Tables built from what a bench script writes itself.


def significant(x: float) -> str:
    """Three significant digits, in the exponent form below 1e-4."""
    if x == 0:
        return "0"
    if abs(x) < 1e-4:
        mantissa, exponent = f"{x:.1e}".split("e")
        return f"{mantissa}e{int(exponent)}"
    return f"{x:.{max(0, 2 - math.floor(math.log10(abs(x))))}f}"


#: The variants of ``benches/exact_report.py --out docs/game-theory``, in the page's order.
EXPLOITABILITY = ["duo-regna", "regine", "regnum", "duell-der-drachen"]
TITLES = {"duo-regna": "Duo Regna", "regine": "Regine", "regnum": "Regnum", "duell-der-drachen": "Duell der Drachen"}


def exploitability(root: Path, page: Path) -> str:
    """Each method's average policy after about one second of solving and at the end of the run,
    from ``docs/game-theory/exploitability-GAME.json``."""
    rows = []
    links = []
    made_by = set()
    for game in EXPLOITABILITY:
        path = root / "docs" / "game-theory" / f"exploitability-{game}.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        made_by.add(tuple(data.get(k, "") for k in ("command", "date", "machine")))
        links.append(f"[`{path.name}`]({os.path.relpath(path, page.parent).replace(os.sep, '/')})")
        rows.append([TITLES[game], "(uniform policy)", "", "", "", significant(data["uniform"])])
        for method, runs in data["runs"].items():
            early = [r for r in runs if r["seconds"] <= 1.0] or runs[:1]
            first, last = early[-1], runs[-1]
            rows.append(
                [
                    TITLES[game],
                    method,
                    f"{first['iterations']:,} in {first['seconds']:.2f} s",
                    significant(first["exploitability"]),
                    f"{last['iterations']:,} in {last['seconds']:.1f} s",
                    significant(last["exploitability"]),
                ]
            )
    header = ["variant", "method", "about 1 s", "exploitability", "the whole run", "exploitability"]
    # The command, date and machine exact_report.py records, when one run made all four.
    made = "made by `python benches/exact_report.py --seconds 30 --out docs/game-theory`"
    if len(made_by) == 1 and all(made_by.copy().pop()):
        command, date, machine = made_by.pop()
        made = f"made by `{command}`; {date}, {machine}"
    return markdown_table(header, rows) + "\nData: " + ", ".join(links) + f"; {made}.\n"


BUILDERS: dict[str, Callable[[Path, Path], str]] = {"exploitability": exploitability}


def data_dir(root: Path) -> Path:
    return root / "docs" / "results" / "data"


def generated(root: Path, name: str, page: Path) -> str:
    if name in BUILDERS:
        return BUILDERS[name](root, page)
    path = data_dir(root) / f"{name}.json"
    if not path.is_file():
        raise FileNotFoundError(f"{page.relative_to(root)}: no data for table {name!r} ({path.relative_to(root)})")
    return data_table(path, page)


def pages(root: Path) -> list[Path]:
    return sorted(p for p in (root / "docs").rglob("*.md") if "hooks" not in p.parts)


def run(root: Path, check: bool) -> list[str]:
    """Rewrites (or, with ``check``, compares) every generated table under ``root``; returns
    the problems found."""
    problems: list[str] = []
    used: set[str] = set()
    for page in pages(root):
        text = page.read_text(encoding="utf-8")
        if "<!-- table:" not in text:
            continue

        def fresh(m: re.Match[str], page: Path = page) -> str:
            used.add(m["name"])
            try:
                body = generated(root, m["name"], page)
            except (OSError, ValueError, KeyError) as error:
                problems.append(f"{page.relative_to(root)}: table {m['name']!r}: {error}")
                return m.group(0)
            if check and body != m["body"]:
                diff = difflib.unified_diff(m["body"].splitlines(), body.splitlines(), "page", "data", lineterm="", n=0)
                where = f"{page.relative_to(root)}: table {m['name']!r}"
                problems.append(f"{where} differs from its data:\n" + "\n".join(diff))
            return m.group(1) + body + m.group(4)

        new = MARKED.sub(fresh, text)
        if text.count("<!-- table:") != len(MARKED.findall(text)):
            problems.append(f"{page.relative_to(root)}: a '<!-- table: NAME -->' without its '<!-- /table -->'")
        if not check and new != text:
            page.write_text(new, encoding="utf-8")
    folder = data_dir(root)
    names = {p.relative_to(folder).with_suffix("").as_posix() for p in folder.rglob("*.json")}
    for orphan in sorted(names - used):
        problems.append(f"docs/results/data/{orphan}.json is shown by no page (add '<!-- table: {orphan} -->')")
    for name in sorted(names):
        problem = writer_problem(name, json.loads((folder / f"{name}.json").read_text(encoding="utf-8")))
        if problem:
            problems.append(problem)
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 where a table and its data differ")
    parser.add_argument("--root", type=Path, default=ROOT, help="the repository (default: this one)")
    args = parser.parse_args(argv)
    problems = run(args.root.resolve(), args.check)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems and args.check:
        print("regenerate the tables: python benches/docs_tables.py", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
