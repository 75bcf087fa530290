"""The package's public face: ``help(regalia)`` shows the public types and no private name;
and which of its modules may use which."""

from __future__ import annotations

import ast
import importlib
import pydoc
from pathlib import Path

import pytest

import regalia


def test_the_public_types_are_exported_and_documented() -> None:
    assert regalia.Game is type(regalia.make("duo"))
    assert regalia.State is type(regalia.make("duo").new_state(1))
    assert {"Game", "State", "VectorEnv"} <= set(regalia.__all__)
    text = pydoc.render_doc(regalia, renderer=pydoc.plaintext)
    for name in ("class Game", "class State", "class VectorEnv"):
        assert name in text
    assert "SUBMODULES" not in text, "a private alias of a module shows up"
    assert all(not name.startswith("_") for name in regalia.__all__)


def _imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, ``from regalia import reference`` as ``regalia.reference``."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
            out.update(f"{node.module}.{alias.name}" for alias in node.names)
    return out


def test_only_the_backend_choice_imports_the_reference_rules() -> None:
    """The reference is the executable spec, one of two backends: agents, the CLI, renderers and
    adapters use the game API, so they work alike on both backends."""
    package = Path(regalia.__file__).parent
    importers = sorted(
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        if path.parent.name != "reference"
        and any(m == "regalia.reference" or m.startswith("regalia.reference.") for m in _imported_modules(path))
    )
    assert importers == ["registry/catalog.py"]


#: The documented short paths, each a stand-in for the module where its code lives.
PUBLIC_PATHS = {
    "regalia.cfr": "regalia.theory.cfr",
    "regalia.exact": "regalia.theory.exact",
    "regalia.solver": "regalia.theory.solver",
    "regalia.datasets": "regalia.matches.datasets",
    "regalia.pictures": "regalia.views.pictures",
    "regalia.errors": "regalia.core.errors",
    "regalia.gymnasium": "regalia.envs.gymnasium",
    "regalia.gymnasium_vector": "regalia.envs.gymnasium_vector",
    "regalia.sb3": "regalia.envs.sb3",
    "regalia.pettingzoo": "regalia.envs.pettingzoo",
    "regalia.openspiel": "regalia.envs.openspiel",
}


#: Names a short path wraps instead of re-exporting: ``regalia.exact`` (above the agents) takes
#: an agent by its name too.
WRAPPED = {"regalia.exact": {"exploitability", "best_response"}}


@pytest.mark.parametrize("path", sorted(PUBLIC_PATHS))
def test_every_documented_path_still_imports_with_every_public_name(path: str) -> None:
    if path == "regalia.sb3":
        pytest.importorskip("stable_baselines3")  # the learn extra (CI installs it for its own run)
    short, real = importlib.import_module(path), importlib.import_module(PUBLIC_PATHS[path])
    assert sorted(short.__all__) == sorted(real.__all__) and short.__all__
    for name in real.__all__:
        wrapped = name in WRAPPED.get(path, set())
        assert (getattr(short, name) is getattr(real, name)) != wrapped, f"{path}.{name}"


def test_the_front_door_and_the_gymnasium_ids_still_work() -> None:
    gym = pytest.importorskip("gymnasium")
    import regalia.gymnasium  # noqa: F401  (registers the ids)

    env = gym.make("regalia/duo-regna-v0")
    obs, _ = env.reset(seed=1)
    assert obs.shape == env.observation_space.shape
    record = regalia.play("duo-regna", ["random", "random"], seed=1)
    assert regalia.MatchRecord.from_json(record.to_json()).replay().returns() == record.returns
