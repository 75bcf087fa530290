"""The package's import graph, read from its source: no circle, no module below the front-ends
that reaches up through the front door, and no import hidden inside a function to dodge an
order (only a module whose optional library may be missing is imported there), and one
module alone that imports the Rust extension. The layer order itself is the import-linter
contract in pyproject.toml, checked by ``lint-imports``."""

from __future__ import annotations

import ast
from pathlib import Path

import regalia

PACKAGE = Path(regalia.__file__).parent
#: The front-ends: they alone may import the front door ``regalia``.
FRONT_ENDS = ("cli", "web")
#: Modules imported inside functions, and why: each needs an optional library.
OPTIONAL = {
    "regalia.views.pictures": "Pillow, from the pictures extra",
    "regalia.web": "FastAPI, uvicorn and Jinja2, from the web extra (regalia serve)",
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imports(path: Path) -> list[tuple[str, bool]]:
    """The package modules ``path`` imports, each with whether the import sits in a function;
    ``from regalia.x import y`` is ``regalia.x.y`` where that is a module, else ``regalia.x``."""
    tree = ast.parse(path.read_text())
    inside = {
        id(n) for f in ast.walk(tree) if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef) for n in ast.walk(f)
    }
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [
                f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in MODULES else node.module for a in node.names
            ]
            names = [n for n in names if not (n == "regalia" and all(a.name == "_core" for a in node.names))]
        else:
            continue
        out.extend((n, id(node) in inside) for n in names if n.split(".")[0] == "regalia" and n != "regalia._core")
    return out


GRAPH = {name: imports(path) for name, path in MODULES.items()}
#: The one module that imports the extension ``regalia._core``; the rest get it from there.
ENGINE_DOOR = "regalia.core.engine"


def imports_the_extension(path: Path) -> bool:
    """Whether ``path`` imports ``regalia._core`` in any spelling (``import regalia._core``,
    ``from regalia._core import x``, ``from regalia import _core``), anywhere in it."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import) and any(a.name.startswith("regalia._core") for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.startswith("regalia._core"):
                return True
            if node.module == "regalia" and any(a.name == "_core" for a in node.names):
                return True
    return False


def test_no_module_below_the_front_ends_imports_the_front_door() -> None:
    below = [m for m in GRAPH if m.split(".")[1:2] not in ([f] for f in FRONT_ENDS) and m != "regalia"]
    assert [m for m in below if any(target == "regalia" for target, _ in GRAPH[m])] == []


def test_one_module_alone_imports_the_extension() -> None:
    assert sorted(m for m, path in MODULES.items() if imports_the_extension(path)) == [ENGINE_DOOR]


def test_every_spelling_of_an_extension_import_is_seen(tmp_path: Path) -> None:
    spellings = [
        "import regalia._core",
        "import regalia._core as c",
        "from regalia._core import make",
        "from regalia import _core",
    ]
    for i, code in enumerate([*spellings, "from regalia.core import engine\nimport regalia"]):
        (tmp_path / f"m{i}.py").write_text(f"def f():\n    {code}\n" if i == 1 else code + "\n")
    seen = [imports_the_extension(tmp_path / f"m{i}.py") for i in range(len(spellings) + 1)]
    assert seen == [True] * len(spellings) + [False]


def test_imports_inside_functions_are_only_for_optional_libraries() -> None:
    hidden = sorted({(m, t) for m, targets in GRAPH.items() for t, lazy in targets if lazy and t not in OPTIONAL})
    assert hidden == []


def test_the_import_graph_has_no_circle() -> None:
    edges = {m: sorted({t for t, _ in targets if t in MODULES and t != m}) for m, targets in GRAPH.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(m: str) -> None:  # Tarjan's strongly connected components
        index[m] = low[m] = len(index)
        stack.append(m)
        for t in edges[m]:
            if t not in index:
                visit(t)
                low[m] = min(low[m], low[t])
            elif t in stack:
                low[m] = min(low[m], index[t])
        if low[m] == index[m]:
            component = []
            while True:
                t = stack.pop()
                component.append(t)
                if t == m:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for m in sorted(edges):
        if m not in index:
            visit(m)
    assert circles == []


def test_a_circle_is_found_where_there_is_one(tmp_path: Path) -> None:
    """The reader above sees what it must: an import in a function, and a name imported
    from a package that is a module of it."""
    code = "import regalia\nfrom regalia.core import errors\n\ndef f():\n    from regalia.theory import cfr\n"
    (tmp_path / "m.py").write_text(code)
    found = imports(tmp_path / "m.py")
    assert found == [("regalia", False), ("regalia.core.errors", False), ("regalia.theory.cfr", True)]
