"""``best``'s wagers in Regine (``regalia.agents.regine_bets``): a Double Down is read by what
the doubler's Double Downs have shown so far, on concrete positions."""

from __future__ import annotations

from typing import Any

import regalia
from regalia.agents import view_of
from regalia.agents.regine_bets import Model, decide
from tests.test_regine import act, wager


def _pairs_doubled_by_seat_1(mine: list[str], hers: list[str]) -> Any:
    """Two players, seat 0 deals: nobody bets on Queens or Jesters, both claim Pairs, seat 0
    passes and seat 1 doubles down; seat 0 answers."""
    state = wager("rust", [mine, hers])
    act(state, "pass", "pass", "pass", "pass", "mine", "mine", "pass", "double down")
    obs = state.observation(0)
    assert (obs["suit"], obs["decision"], obs["current_player"]) == ("pairs", "reply to the double down", 0)
    return state


def _decide(state: Any, memory: dict[str, Any]) -> str | None:
    """The kind of action seat 0 chooses (None: it leaves the choice to the search)."""
    chosen = decide(view_of(state, 0, "regine", {"players": 2}, world_seed=5), memory)
    return None if chosen is None else str(state.action_info(chosen)["kind"])


def test_a_careful_doublers_double_down_is_believed() -> None:
    # A pair of Queens beats every other single pair, but not the two pairs a careful player
    # doubles down with: leave (3 points to her) rather than stay (8 points to her).
    state = _pairs_doubled_by_seat_1(["queen", "queen", "jester", "knight"], ["knight", "knight", "herald", "herald"])
    assert _decide(state, {}) == "all_yours"


def test_a_reckless_doublers_double_down_says_nothing() -> None:
    # The same position against a player seen doubling down on weak cards as often as on
    # strong ones: her cards are anyone's, and a pair of Queens is worth the stay.
    model = Model()
    for cls in range(3):
        for _ in range(20):
            model.double.add(cls, True)
    state = _pairs_doubled_by_seat_1(["queen", "queen", "jester", "knight"], ["knight", "knight", "herald", "herald"])
    assert _decide(state, {"regine_bets": model}) == "we_shall_see"


def test_a_suit_is_claimed_and_the_search_decides_outside_the_wagers() -> None:
    combos = [["queen", "queen", "queen", "jester"], ["herald", "peasant", "assassin", "knight"]]
    assert _decide(wager("rust", combos), {}) == "mine"
    building = regalia.make("regine", players=2).new_state(1)
    assert _decide(building, {}) is None
    with_three = wager("rust", [*combos, ["jester", "jester", "peasant", "courtesan"]])
    assert decide(view_of(with_three, 0, "regine", {"players": 3}, world_seed=5), {}) is None
