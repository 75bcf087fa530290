"""Each game's Rust module and its reference twin are laid out in the same titled sections, in
the same order (see "How a game is built" in docs/developing.md), so the two read side by side.

A section starts at a header line, ``// ---- Title ----`` in Rust and ``# ---- Title ----`` in
Python. Headers at the left margin divide the module; indented headers divide the rules type
(the Rust ``impl Game`` block, the reference's ``Rules`` class), whose methods come in the same
order. Rust keeps the helpers of a section in ``impl`` blocks at module level under the same
title (a trait's ``impl`` holds only the trait's items); the reference keeps them in its class.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from regalia.reference import RULES

ROOT = Path(__file__).resolve().parent.parent

#: Every section title, in the order the sections come.
SECTIONS = (
    "Constants",
    "Options",
    "Cards and actions",
    "State",
    "Setup",
    "Legal moves",
    "Apply",
    "Scoring",
    "Observation",
    "Checks",
    "Search policy",
    "Tests",
)
#: Sections the reference does not mirror: the search policy for ISMCTS and the unit tests
#: (the reference's tests are in tests/).
RUST_ONLY = frozenset({"Search policy", "Tests"})
#: The module sections every game has before its rules type.
MODULE_START = ("Constants", "Options", "Cards and actions", "State")
#: The sections of the rules type every game has (Rust may add "Search policy").
RULES_SECTIONS = ("Options", "Cards and actions", "Setup", "Legal moves", "Apply", "Scoring", "Observation", "Checks")

HEADER = re.compile(r"^( *)(?://|#) ---- (.*) ----$")

Layout = list[tuple[int, str]]


def layout(text: str) -> Layout:
    """The (level, title) of each header: level 0 at the left margin, 1 indented."""
    found = []
    for line in text.splitlines():
        m = HEADER.match(line)
        if m:
            found.append((0 if not m.group(1) else 1, m.group(2)))
    return found


def titles(found: Layout, level: int) -> list[str]:
    return [t for lv, t in found if lv == level]


def problems(rust: Layout, python: Layout) -> list[str]:
    """What is wrong with a game's two layouts (nothing when they agree)."""
    out = []
    for lang, found in (("Rust", rust), ("Python", python)):
        unknown = sorted({t for _, t in found} - set(SECTIONS))
        if unknown:
            out.append(f"{lang}: unknown titles {unknown}")
            continue
        for level, where in ((0, "module"), (1, "rules type")):
            order = [SECTIONS.index(t) for t in titles(found, level)]
            if order != sorted(set(order)):
                out.append(f"{lang} {where}: titles out of order or repeated: {titles(found, level)}")
        if tuple(titles(found, 0)[: len(MODULE_START)]) != MODULE_START:
            out.append(f"{lang} module: must start with {list(MODULE_START)}, got {titles(found, 0)}")
    if out:
        return out
    shared_rules = [t for t in titles(rust, 1) if t not in RUST_ONLY]
    if shared_rules != list(RULES_SECTIONS):
        out.append(f"Rust rules type: want {list(RULES_SECTIONS)} (+ Search policy), got {titles(rust, 1)}")
    if titles(python, 1) != list(RULES_SECTIONS):
        out.append(f"Python rules type: want {list(RULES_SECTIONS)}, got {titles(python, 1)}")
    if RUST_ONLY & {t for _, t in python}:
        out.append(f"Python: {sorted(RUST_ONLY)} are Rust's alone")
    rust_all = {t for _, t in rust} - RUST_ONLY
    python_all = {t for _, t in python}
    if rust_all != python_all:
        out.append(
            f"titles in one language only: Rust {sorted(rust_all - python_all)}, Python {sorted(python_all - rust_all)}"
        )
    return out


def sources(rules: type) -> tuple[str, str]:
    module = rules.__module__.rsplit(".", 1)[1]
    games = ROOT / "rust" / "engine" / "src" / "games"
    rust = games / f"{module}.rs" if (games / f"{module}.rs").exists() else games / module / "mod.rs"
    python = ROOT / "python" / "regalia" / "reference" / f"{module}.py"
    return rust.read_text(), python.read_text()


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.INFO.name)
def test_both_languages_have_the_same_sections_in_order(rules: type) -> None:
    rust, python = sources(rules)
    assert problems(layout(rust), layout(python)) == []


def test_the_check_finds_a_title_moved_renamed_or_missing() -> None:
    rust, python = sources(RULES[0])
    assert problems(layout(rust), layout(python)) == []
    swapped = (
        python.replace("# ---- Apply ----", "# ---- X ----")
        .replace("# ---- Scoring ----", "# ---- Apply ----")
        .replace("# ---- X ----", "# ---- Scoring ----")
    )
    assert any("out of order" in p for p in problems(layout(rust), layout(swapped)))
    renamed = rust.replace("// ---- Legal moves ----", "// ---- Legal Moves ----")
    assert any("unknown titles" in p for p in problems(layout(renamed), layout(python)))
    dropped = python.replace("    # ---- Checks ----\n", "")
    assert any("Python rules type" in p for p in problems(layout(rust), layout(dropped)))
