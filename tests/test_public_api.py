"""The package's public face: ``help(regalia)`` shows the public types and no private name."""

from __future__ import annotations

import pydoc

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
