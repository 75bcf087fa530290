"""The shared bits of English the boards and narration use."""

from __future__ import annotations

from regalia.views.render.words import count


def test_count_says_one_thing_and_many_things() -> None:
    assert count(1, "card") == "1 card"
    assert count(0, "card") == "0 cards"
    assert count(2, "dragon") == "2 dragons"
    assert count(3, "Knight", "Knights") == "3 Knights"
    assert count(1, "man", "men") == "1 man" and count(5, "man", "men") == "5 men"
