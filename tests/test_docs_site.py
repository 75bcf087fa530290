"""The docs site (mkdocs.yml): every page is in its navigation, GitHub's markdown is read as on
GitHub, and, where the ``docs`` extra is installed (``.ci/docs``), the strict build documents
every public name of the package."""

from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

#: The modules with a reference page: docs/reference/PAGE.md documents regalia.MODULE.
REFERENCE_MODULES = {
    "agents": "agents",
    "gymnasium": "envs.gymnasium",
    "pettingzoo": "envs.pettingzoo",
    "openspiel": "envs.openspiel",
    "datasets": "matches.datasets",
    "solver": "theory.solver",
    "cfr": "theory.cfr",
    "exact": "theory.exact",
    "errors": "core.errors",
    "pictures": "views.pictures",
    "sb3": "envs.sb3",
    "actions": "core.actions",
    "observations": "core.observations",
    "kinds": "core.kinds",
    "executors": "matches.executors",
    "table": "table",
}


def nav_pages() -> list[str]:
    """The pages named in mkdocs.yml's ``nav`` (paths relative to docs/), read without YAML:
    the nav is the block under the top-level key ``nav:``, one page per line."""
    lines = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").splitlines()
    start = lines.index("nav:") + 1
    block: list[str] = []
    for line in lines[start:]:
        if line and not line[0].isspace() and not line.startswith("#"):
            break
        block.append(line.split("#", 1)[0])
    return re.findall(r"([\w./-]+\.md)\s*$", "\n".join(block), flags=re.M)


def test_every_page_is_in_the_nav_and_every_nav_entry_is_a_page() -> None:
    """A page added under docs/ cannot be forgotten: the site's navigation names it."""
    pages = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md"))
    listed = nav_pages()
    assert sorted(set(listed)) == sorted(listed), "a page is listed twice in mkdocs.yml's nav"
    assert sorted(listed) == pages, (
        f"not in mkdocs.yml's nav: {sorted(set(pages) - set(listed))}; "
        f"in the nav but not under docs/: {sorted(set(listed) - set(pages))}"
    )


def test_every_reference_module_has_its_page() -> None:
    for name, module in REFERENCE_MODULES.items():
        page = (DOCS / "reference" / f"{name}.md").read_text(encoding="utf-8")
        assert f"::: regalia.{module}\n" in page, name


def hook(name: str) -> ModuleType:
    """The site's build code ``docs/hooks/NAME.py``, loaded by path."""
    spec = importlib.util.spec_from_file_location(name, DOCS / "hooks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def extension() -> ModuleType:
    """The site's griffe extension (needs the docs extra)."""
    pytest.importorskip("griffe")
    return hook("griffe_docstrings")


def test_nested_lists_and_lists_after_text_read_as_on_github() -> None:
    page = "On her turn:\n- a\n  - b\n    more of b\n  back in a\n\n  a's second paragraph\n- c\n\nAfter.\n  x"
    assert hook("gfm").github_to_python_markdown(page) == (
        "On her turn:\n\n- a\n    - b\n        more of b\n    back in a\n\n    a's second paragraph\n- c\n\nAfter.\n  x"
    )
    numbered = "Steps:\n1. one\n   still one\n2. two"
    assert hook("gfm").github_to_python_markdown(numbered) == "Steps:\n\n1. one\n      still one\n2. two"


def test_fences_move_with_their_item_and_are_otherwise_untouched() -> None:
    page = "- item\n\n  ```sh\n  run  # - not an item\n\n  ```\n\n```\n- x\n  - y\n```\n\n    code"
    assert hook("gfm").github_to_python_markdown(page) == (
        "- item\n\n    ```sh\n    run  # - not an item\n\n    ```\n\n```\n- x\n  - y\n```\n\n    code"
    )


def test_a_table_after_text_or_code_gets_its_blank_line() -> None:
    page = "```\nx = 1\n```\n| a | b |\n|---|---|\n| 1 | 2 |\nText\n\n| c |\n|:-:|"
    assert hook("gfm").github_to_python_markdown(page) == (
        "```\nx = 1\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\nText\n\n| c |\n|:-:|"
    )


def test_doctest_blocks_are_fenced_and_literal_marks_dropped() -> None:
    text = "Play one.\n\n>>> import regalia\n>>> for a in x:\n...     f(a)\n\nThen more.\n    >>> indented"
    assert extension().docstring_markdown(text) == (
        "Play one.\n\n```pycon\n>>> import regalia\n>>> for a in x:\n...     f(a)\n```\n\nThen more.\n    >>> indented"
    )
    assert extension().docstring_markdown(">>> 1 + 1\n2") == "```pycon\n>>> 1 + 1\n2\n```"
    assert extension().docstring_markdown("Read it::\n\n    x = 1\n    std::\n") == "Read it:\n\n    x = 1\n    std::\n"


def test_comments_above_a_constant_are_its_docstring() -> None:
    lines = ["import x", "# a plain comment", "#: The first line", "#: and the second.", "LIMIT = 3", "#: Not above."]
    assert extension().comment_doc(lines, 5) == "The first line\nand the second."
    assert extension().comment_doc(lines, 3) is None
    assert extension().comment_doc(["X = 1"], 1) is None


def public_names(module: str) -> list[str]:
    """``__all__`` of ``regalia.MODULE``, read from its source (the extras need not import)."""
    path = ROOT / "python" / "regalia" / (module.replace(".", "/") + ".py")
    if not path.exists():
        path = path.with_suffix("") / "__init__.py"
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets):
            return [ast.literal_eval(e) for e in node.value.elts]  # type: ignore[attr-defined]
    raise AssertionError(f"regalia.{module} has no __all__")


def test_the_strict_build_documents_every_public_name(tmp_path: Path) -> None:
    """The site builds with --strict, and each reference page has an entry for every name in
    its module's ``__all__``; the extension's classes are read from the stubs, with members."""
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings_handlers.python")
    site = tmp_path / "site"
    # Not -q: it silences the warnings, and --strict fails only on warnings it sees.
    build = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"), "-d", str(site)]
    run = subprocess.run(build, cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    for name, module in REFERENCE_MODULES.items():
        page = (site / "reference" / name / "index.html").read_text(encoding="utf-8")
        ids = set(re.findall(r'id="(regalia[\w.]*)"', page))
        missing = [n for n in public_names(module) if f"regalia.{module}.{n}" not in ids]
        assert not missing, f"regalia.{module}: not documented on the site: {missing}"
        assert "<blockquote>" not in page, f"regalia.{module}: a doctest shown as a quote"
    page = (site / "reference" / "regalia" / "index.html").read_text(encoding="utf-8")
    for name in ["make", "play", "tournament", "matches.gauntlet.gauntlet", "State.legal_actions", "Game.new_state"]:
        assert f'id="regalia.{name}"' in page, name
    assert 'id="regalia.VectorEnv.step"' in page
