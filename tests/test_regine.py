"""Regine's rules through the public API, on both backends, from the rulebook's sentences.

Positions are built by hand as saved states (``seed: null``), so that every one of them also
passes the engine's ``check_state``; then the rules are played through ``parse_action``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import regalia
from regalia.core.errors import IllegalActionError, InvalidStateError
from regalia.core.outcome import Outcome

NAMES = ["jester", "peasant", "assassin", "courtesan", "herald", "knight", "princess", "queen"]
KIND = {n: i for i, n in enumerate(NAMES)}
COPIES = [8, 4, 4, 4, 4, 4, 4, 8]


def build(
    backend: str,
    players: int = 3,
    hands: list[list[str]] | None = None,
    tables: list[list[str]] | None = None,
    deck_top: tuple[str, ...] = (),
    discard: dict[str, int] | None = None,
    deck_rest: bool = True,
    options: dict[str, Any] | None = None,
    **fields: Any,
) -> Any:
    """A state with these hands, tables (``"+card"`` lies face up) and top of the deck (first
    drawn first); every other card goes to the discard pile (``discard``) or under the deck."""
    game = regalia.make("regine", backend=backend, players=players, **(options or {}))  # type: ignore[arg-type]
    left = list(COPIES)
    hand_counts = [[0] * 8 for _ in range(4)]
    for seat, cards in enumerate(hands or []):
        for c in cards:
            hand_counts[seat][KIND[c]] += 1
            left[KIND[c]] -= 1
    table = [[0] * 4 for _ in range(4)]
    table_len, face_up = [0] * 4, [0] * 4
    for seat, cards in enumerate(tables or []):
        for j, c in enumerate(cards):
            table[seat][j] = KIND[c.lstrip("+")]
            left[KIND[c.lstrip("+")]] -= 1
            face_up[seat] |= int(c.startswith("+")) << j
        table_len[seat] = len(cards)
    disc = [0] * 8
    for c, k in (discard or {}).items():
        disc[KIND[c]] += k
        left[KIND[c]] -= k
    for c in deck_top:
        left[KIND[c]] -= 1
    assert min(left) >= 0, "more cards than the game has"
    if deck_rest:
        rest = [k for k in range(8) for _ in range(left[k])]
    else:
        rest = []
        disc = [d + x for d, x in zip(disc, left)]
    deck = rest + [KIND[c] for c in reversed(deck_top)]
    state: dict[str, Any] = {
        "rng": {"state": 12345, "inc": 777},
        "deck": deck + [0] * (40 - len(deck)),
        "deck_len": len(deck),
        "discard": disc,
        "hands": hand_counts,
        "table": table,
        "table_len": table_len,
        "face_up": face_up,
        "marked": [0] * 8,
        "scores": [0] * 4,
        "round": 0,
        "dealer": 0,
        "phase": 0,
        "turn": 0,
        "no_changes": False,
        "changed": False,
        "exchanged": False,
        "played": False,
        "passes": 0,
        "effect": 0,
        "effect_seat": 0,
        "effect_slot": 0,
        "suit": 0,
        "suit_turns": 0,
        "bets": [0] * 4,
        "doubled": [None] * 4,
        "won": [None] * 4,
        "gain": [0] * 4,
        "last_cards": [[0] * 4 for _ in range(4)],
    }
    state.update(fields)
    envelope = {
        "format": "regalia-state",
        "version": 1,
        "game": "regine",
        "options": game.options,
        "seed": None,
        "history": [],
        "state": state,
    }
    return game.state_from_json(json.dumps(envelope))


def act(state: Any, *names: str) -> None:
    for name in names:
        state.apply(state.parse_action(name))


def names(state: Any) -> list[str]:
    return [state.action_name(a) for a in state.legal_actions()]


def wager(backend: str, combos: list[list[str]], **fields: Any) -> Any:
    """A state at the start of the Wagers with these combinations (all face down)."""
    return build(backend, players=len(combos), tables=combos, phase=1, **fields)


def pass_all_suits(state: Any) -> None:
    while not state.is_terminal and state.observation(0)["phase"] == "wager":
        act(state, "pass")


HANDS3 = [
    ["jester", "peasant", "queen", "queen"],
    ["knight", "knight", "herald", "courtesan"],
    ["assassin", "princess", "jester", "jester"],
]


# -- the deal and Phase 1 turns ---------------------------------------------------------


def test_a_new_round_deals_four_cards_each_and_the_dealer_begins(backend: str) -> None:
    for players in (2, 3, 4):
        s = regalia.make("regine", backend=backend, players=players).new_state(7)  # type: ignore[arg-type]
        obs = s.observation(0)
        assert obs["hand_sizes"] == [4] * players and len(obs["hand"]) == 4
        assert obs["deck_size"] == 40 - 4 * players and obs["discard_size"] == 0
        assert obs["dealer"] == 0 and s.current_player == 0 and obs["phase"] == "build"


def test_a_face_down_card_is_seen_only_by_its_owner(backend: str) -> None:
    s = build(backend, hands=HANDS3)
    act(s, "play peasant face down")
    assert s.observation(0)["table"][0] == [{"card": "peasant", "face_up": False}]
    assert s.observation(1)["table"][0] == [{"card": None, "face_up": False}]
    assert s.current_player == 0, "she may still exchange"
    assert not any(n.startswith("play") for n in names(s)), "one card per turn"


def test_an_exchange_marks_cards_in_order_then_draws_as_many(backend: str) -> None:
    s = build(backend, hands=HANDS3, deck_top=("queen", "herald"))
    act(s, "exchange jester", "exchange queen")
    assert "exchange jester" not in names(s), "marks go in ascending kind order"
    assert s.observation(0)["marked"] == ["jester", "queen"] and s.observation(1)["marked_count"] == 2
    assert s.observation(1)["marked"] == []
    act(s, "confirm exchange")
    obs = s.observation(0)
    assert obs["hand"] == ["peasant", "herald", "queen", "queen"]
    assert obs["discard_size"] == 2 and obs["exchanged"]
    assert "there are no changes" not in names(s), "no declaration in the turn she exchanged"
    act(s, "play herald face down")
    assert s.current_player == 1, "both actions used: the turn passes to the left"


def test_no_changes_locks_exchanges_until_a_jester_is_played_face_up(backend: str) -> None:
    s = build(backend, hands=HANDS3)
    act(s, "there are no changes", "end turn")
    assert s.current_player == 1 and s.observation(1)["no_changes"]
    assert not any(n.startswith("exchange") or n == "there are no changes" for n in names(s))
    act(s, "play herald face down")
    assert s.current_player == 2, "nothing else to do: the turn ends by itself"
    act(s, "play jester face up")
    assert not s.observation(2)["no_changes"]
    assert "exchange assassin" in names(s), "the Jester reopens exchanges, for her too"
    act(s, "exchange assassin", "confirm exchange")
    assert s.current_player == 0
    assert "exchange queen" in names(s)


def test_everyone_passing_in_a_row_ends_phase_one_with_four_cards_each(backend: str) -> None:
    s = build(backend, hands=HANDS3)
    act(s, "there are no changes", "end turn")  # a declaration alone is a pass
    act(s, "play knight face down")  # a play resets the count; locked, her turn ends
    act(s, "end turn", "end turn")
    assert s.observation(0)["phase"] == "build" and s.current_player == 1
    act(s, "end turn")
    obs = s.observation(0)
    assert obs["phase"] == "wager" and obs["suit"] == "queens" and s.current_player == 0
    assert obs["hand_sizes"] == [0, 0, 0] and [len(t) for t in obs["table"]] == [4, 4, 4]
    assert [c["card"] for c in obs["table"][0]] == ["jester", "peasant", "queen", "queen"]
    assert all(c["card"] is None for c in obs["table"][1])


# -- card effects -----------------------------------------------------------------------


def test_peasant_names_an_opponent_who_shows_a_card_and_applies_it(backend: str) -> None:
    s = build(backend, hands=HANDS3, no_changes=True)
    act(s, "play peasant face up")
    assert s.observation(0)["decision"] == "peasant: name an opponent"
    assert names(s) == ["peasant: seat 1", "peasant: seat 2"]
    act(s, "peasant: seat 2")
    assert s.current_player == 2 and s.observation(2)["decision"] == "peasant: show a card"
    assert names(s) == ["peasant: show jester", "peasant: show assassin", "peasant: show princess"]
    act(s, "peasant: show jester")  # her Jester lifts the lock
    assert s.observation(0)["table"][2] == [{"card": "jester", "face_up": True}]
    assert s.current_player == 0 and not s.observation(0)["no_changes"]
    assert "exchange queen" in names(s), "back to the turn's player, who may now exchange"


def test_peasant_without_an_opponent_holding_cards_has_no_effect(backend: str) -> None:
    tables = [[], ["knight", "knight", "herald", "courtesan"], ["assassin", "princess", "jester", "jester"]]
    s = build(backend, hands=[HANDS3[0], [], []], tables=tables)
    act(s, "play peasant face up")
    assert s.current_player == 0 and s.observation(0)["decision"] == "turn"


def test_peasant_chains_into_a_princess(backend: str) -> None:
    s = build(backend, hands=HANDS3, deck_top=("courtesan",))
    act(s, "play peasant face up", "peasant: seat 2", "peasant: show princess")
    assert s.current_player == 2 and s.observation(2)["decision"] == "princess: discard a card"
    act(s, "princess: discard assassin")
    assert s.observation(2)["hand"] == ["jester", "jester", "courtesan"]
    assert s.current_player == 0


def test_assassin_eliminates_any_table_card_and_its_owner_draws(backend: str) -> None:
    tables = [[], ["queen", "+herald"], []]
    hands = [HANDS3[0][:1] + ["assassin", "queen", "queen"], ["knight", "knight"], HANDS3[2][:1] + ["princess"] * 3]
    s = build(backend, hands=hands, tables=tables, deck_top=("courtesan",))
    act(s, "play assassin face up")
    assert names(s) == ["assassin: seat 0 slot 0", "assassin: seat 1 slot 0", "assassin: seat 1 slot 1"]
    act(s, "assassin: seat 1 slot 0")
    obs = s.observation(1)
    assert obs["table"][1] == [{"card": "herald", "face_up": True}]
    assert obs["hand"] == ["courtesan", "knight", "knight"] and obs["discard_size"] == 1
    assert s.current_player == 0


def test_assassin_may_eliminate_itself(backend: str) -> None:
    s = build(backend, hands=[["assassin", "queen", "queen", "jester"], HANDS3[1], ["princess"] * 4])
    act(s, "play assassin face up", "assassin: seat 0 slot 0")
    assert s.observation(0)["table"][0] == [] and s.observation(0)["hand_sizes"][0] == 4


def test_courtesan_flips_a_peasant_whose_owner_applies_it_out_of_turn(backend: str) -> None:
    hands = [["courtesan", "queen", "queen", "jester"], ["knight", "knight", "herald"], ["jester"] * 4]
    s = build(backend, hands=hands, tables=[[], ["peasant"], []])
    act(s, "play courtesan face up")
    assert names(s) == ["courtesan: seat 1 slot 0"], "only face-down cards"
    act(s, "courtesan: seat 1 slot 0")
    assert s.current_player == 1 and s.observation(1)["decision"] == "peasant: name an opponent"
    assert names(s) == ["peasant: seat 0", "peasant: seat 2"]
    act(s, "peasant: seat 0")
    assert s.current_player == 0 and names(s) == ["peasant: show jester", "peasant: show queen"]
    act(s, "peasant: show queen")
    assert s.current_player == 0 and s.observation(0)["decision"] == "turn"
    assert [c["card"] for c in s.observation(2)["table"][0]] == ["courtesan", "queen"]
    assert "play jester face up" not in names(s), "the forced show did not use her play"


def test_courtesan_with_nothing_face_down_has_no_effect(backend: str) -> None:
    s = build(backend, hands=[["courtesan", "queen", "queen", "jester"], HANDS3[1], HANDS3[2]])
    act(s, "play courtesan face up")
    assert s.observation(0)["decision"] == "turn"


def test_herald_sees_the_top_card_and_may_play_it_face_up(backend: str) -> None:
    hands = [["herald", "queen", "queen", "jester"], HANDS3[1][:2] + ["princess", "princess"], ["jester"] * 4]
    s = build(backend, hands=hands, tables=[[], [], []], deck_top=("assassin", "queen"))
    act(s, "play herald face up")
    assert s.observation(0)["herald_card"] == "assassin"
    assert s.observation(1)["herald_card"] is None
    act(s, "herald: take the top card")
    obs = s.observation(1)
    assert obs["table"][0] == [{"card": "assassin", "face_up": True}] and obs["discard_size"] == 1
    assert s.observation(0)["decision"] == "assassin: eliminate a card", "the new card's effect applies"


def test_herald_declined_sends_the_top_card_to_the_bottom(backend: str) -> None:
    hands = [["herald", "queen", "queen", "jester"], HANDS3[1], HANDS3[2]]
    s = build(backend, hands=hands, deck_top=("assassin", "courtesan"))
    act(s, "play herald face up", "herald: put it at the bottom")
    assert s.observation(0)["deck_size"] == 40 - 12
    act(s, "exchange jester", "confirm exchange")
    assert s.observation(0)["hand"] == ["courtesan", "queen", "queen"], "the Herald's card went under"


def test_knight_makes_an_opponent_with_cards_discard_at_random_and_draw(backend: str) -> None:
    hands = [["knight", "queen", "queen", "jester"], [], ["jester", "jester", "assassin", "princess"]]
    tables = [[], ["knight", "knight", "herald", "courtesan"], []]
    s = build(backend, hands=hands, tables=tables, deck_top=("peasant",))
    act(s, "play knight face up")
    assert names(s) == ["knight: seat 2"], "an opponent with no card in hand cannot be named"
    act(s, "knight: seat 2")
    obs = s.observation(2)
    assert "peasant" in obs["hand"] and len(obs["hand"]) == 4 and obs["discard_size"] == 1
    assert s.current_player == 0


def test_deck_exhaustion_reshuffles_the_discard_pile(backend: str) -> None:
    s = build(backend, hands=HANDS3, deck_rest=False)
    assert s.observation(0)["deck_size"] == 0 and s.observation(0)["discard_size"] == 28
    act(s, "exchange jester", "exchange peasant", "confirm exchange")
    obs = s.observation(0)
    assert obs["deck_size"] == 28 and obs["discard_size"] == 0 and len(obs["hand"]) == 4


# -- Phase 2: wagers -----------------------------------------------------------------------

COMBOS = [
    ["queen", "queen", "jester", "peasant"],  # 2 Queens, a pair of Queens; Game 25
    ["queen", "knight", "knight", "jester"],  # Pairs: Knights; Game 31
    ["herald", "herald", "herald", "peasant"],  # three Heralds; Game 25
]


def test_bets_go_counterclockwise_and_all_passing_leaves_it_to_the_cards(backend: str) -> None:
    s = wager(backend, COMBOS)
    order = []
    for _ in range(3):
        order.append(s.current_player)
        act(s, "pass")
    assert order == [0, 2, 1] and s.observation(0)["suit"] == "jesters"
    pass_all_suits(s)
    obs = s.observation(0)
    assert obs["suit_winners"] == [0, 0, 2, 1] and obs["suit_points"] == [1, 1, 2, 2]
    assert s.scores() == [2, 2, 2]


def test_a_lone_bettor_wins_at_once_with_her_chip_and_the_suits_most(backend: str) -> None:
    s = wager(backend, COMBOS)
    act(s, "pass", "pass", "mine")  # seat 1 claims the Queens with one Queen
    assert "double down" not in names(s) and "mine" in names(s)
    act(s, "pass", "pass", "pass")
    obs = s.observation(0)
    assert obs["suit"] == "jesters" and obs["suit_winners"][0] == 1 and obs["suit_points"][0] == 2
    assert s.scores() == [0, 2, 0]
    pass_all_suits(s)
    assert s.observation(0)["suit_winners"][0] == 1, "an automatic win stands at the resolution"


def test_a_challenge_compares_only_the_bettors_and_pays_the_chips(backend: str) -> None:
    s = wager(backend, COMBOS)
    act(s, "pass", "pass", "pass")  # Queens: nobody
    act(s, "pass", "mine", "mine", "pass", "pass", "pass")  # Jesters: seats 2 and 1
    assert s.observation(0)["bets"][1] == [1, 2]
    pass_all_suits(s)
    obs = s.observation(0)
    # Seat 1 has one Jester, seat 2 none; seat 0 would win the tie on lower cards, but she
    # did not bet.
    assert obs["suit_winners"][1] == 1 and obs["suit_points"][1] == 1 + 2


def test_double_down_only_by_a_bettor_after_everyone_had_a_chance(backend: str) -> None:
    s = wager(backend, COMBOS)
    act(s, "mine")
    assert names(s) == ["pass", "mine"]
    act(s, "mine", "pass")
    assert names(s) == ["pass", "double down"]
    act(s, "pass")
    assert names(s) == ["pass", "double down"], "seat 2 bet earlier"
    act(s, "pass")
    assert names(s) == ["pass", "mine"], "seat 1 never bet: no Double Down"


def test_double_down_with_everyone_withdrawing_wins_without_doubling(backend: str) -> None:
    s = wager(backend, COMBOS)
    act(s, "mine", "mine", "mine", "double down")
    assert s.current_player == 2 and names(s) == ["all yours", "we shall see"]
    act(s, "all yours")
    assert s.current_player == 1
    act(s, "all yours")
    obs = s.observation(0)
    assert obs["suit"] == "jesters" and obs["suit_winners"][0] == 0 and obs["suit_points"][0] == 2
    assert obs["double_down"][0] == 0 and obs["bets"][0] == [0]


def test_double_down_with_a_stayer_doubles_the_chips(backend: str) -> None:
    s = wager(backend, COMBOS)
    act(s, "pass", "pass", "pass")  # Queens
    act(s, "pass", "pass", "pass")  # Jesters
    act(s, "pass", "mine", "mine", "pass", "pass", "double down")  # Pairs: 2 and 1; 1 doubles
    assert s.current_player == 2
    act(s, "we shall see")
    assert s.observation(0)["suit"] == "game"
    pass_all_suits(s)
    obs = s.observation(0)
    # Three Heralds beat a pair of Knights: 2 points plus two chips doubled.
    assert obs["suit_winners"][2] == 2 and obs["suit_points"][2] == 2 + 2 * 2


# -- Phase 3: each Suit's winner ----------------------------------------------------------


def resolve(backend: str, combos: list[list[str]], dealer: int = 0) -> dict[str, Any]:
    s = wager(backend, combos, dealer=dealer, turn=dealer)
    pass_all_suits(s)
    return s.observation(0)  # type: ignore[no-any-return]


def test_queens_most_then_highest_cards_then_the_dealer_and_her_left(backend: str) -> None:
    most = resolve(backend, [["queen", "jester"] * 2, ["queen"] * 3 + ["jester"], ["knight"] * 4])
    assert most["suit_winners"][0] == 1
    highest = [["queen", "herald", "jester", "jester"], ["queen", "knight", "jester", "jester"], ["jester"] * 4]
    assert resolve(backend, highest)["suit_winners"][0] == 1
    equal = [["jester"] * 4, ["queen", "knight", "jester", "jester"], ["queen", "princess", "jester", "jester"]]
    assert resolve(backend, equal)["suit_winners"][0] == 1, "Knight = Princess: seat 1 is closer to the Dealer's left"
    assert resolve(backend, equal, dealer=2)["suit_winners"][0] == 2, "the Dealer first"
    nobody = [["jester"] * 4, ["peasant", "assassin", "jester", "jester"], ["knight"] * 4]
    assert resolve(backend, nobody)["suit_winners"][0] == 2, "no Queens anywhere: the highest cards"


def test_jesters_most_then_lowest_cards(backend: str) -> None:
    r = resolve(
        backend,
        [["jester", "jester", "queen", "queen"], ["jester", "jester", "peasant", "queen"], ["jester"] * 3 + ["queen"]],
    )
    assert r["suit_winners"][1] == 2
    r = resolve(
        backend, [["jester", "jester", "queen", "queen"], ["jester", "jester", "peasant", "queen"], ["knight"] * 4]
    )
    assert r["suit_winners"][1] == 1 and r["suit_points"][1] == 1


def test_pairs_categories_and_points(backend: str) -> None:
    r = resolve(
        backend,
        [
            ["queen", "queen", "jester", "peasant"],
            ["herald"] * 3 + ["jester"],
            ["jester", "jester", "peasant", "peasant"],
        ],
    )
    assert r["suit_winners"][2] == 2 and r["suit_points"][2] == 2, "two pairs beat three of a kind"
    r = resolve(
        backend,
        [
            ["queen", "queen", "jester", "peasant"],
            ["herald"] * 3 + ["jester"],
            ["knight", "princess", "courtesan", "assassin"],
        ],
    )
    assert r["suit_winners"][2] == 1 and r["suit_points"][2] == 2, "three of a kind beats a pair"
    r = resolve(
        backend,
        [["jester"] * 4, ["queen", "queen", "knight", "knight"], ["peasant", "assassin", "courtesan", "herald"]],
    )
    assert r["suit_winners"][2] == 1, "four of a kind counts as two pairs: the higher pair decides"
    r = resolve(
        backend,
        [
            ["knight", "knight", "herald", "courtesan"],
            ["queen", "queen", "jester", "peasant"],
            ["jester"] * 3 + ["assassin"],
        ],
    )
    assert r["suit_winners"][2] == 2, "three Jesters beat any pair"
    r = resolve(
        backend,
        [
            ["knight", "knight", "herald", "courtesan"],
            ["queen", "queen", "jester", "peasant"],
            ["princess", "herald", "assassin", "jester"],
        ],
    )
    assert r["suit_winners"][2] == 1 and r["suit_points"][2] == 1, "Queens beat Knights; a pair pays 1"
    r = resolve(
        backend,
        [
            ["knight", "princess", "queen", "jester"],
            ["herald", "courtesan", "assassin", "peasant"],
            ["queen", "knight", "princess", "jester"],
        ],
    )
    assert r["suit_winners"][2] is None and r["suit_points"][2] == 0, "a Knight does not pair with a Princess"


def test_pairs_tie_on_the_pair_then_the_other_cards(backend: str) -> None:
    r = resolve(
        backend,
        [
            ["knight", "knight", "jester", "peasant"],
            ["princess", "princess", "jester", "assassin"],
            ["herald"] * 2 + ["queen"] * 2,
        ],
    )
    assert r["suit_winners"][2] == 2
    r = resolve(
        backend,
        [
            ["knight", "knight", "jester", "peasant"],
            ["princess", "princess", "jester", "assassin"],
            ["jester", "peasant", "assassin", "courtesan"],
        ],
    )
    assert r["suit_winners"][2] == 1, "equal pairs: the other cards decide"


def test_game_31_beats_everything_else_the_highest_from_32(backend: str) -> None:
    r = resolve(backend, [["queen"] * 4, ["queen", "knight", "knight", "jester"], ["herald"] * 4])
    assert r["suit_winners"][3] == 1 and r["suit_points"][3] == 2
    r = resolve(
        backend, [["queen", "queen", "herald", "courtesan"], ["queen", "knight", "princess", "herald"], ["jester"] * 4]
    )
    assert r["suit_winners"][3] == 1 and r["suit_points"][3] == 1, "37 beats 33"
    r = resolve(backend, [["queen", "queen", "jester", "jester"], ["herald"] * 4, ["jester"] * 4])
    assert r["suit_winners"][3] is None, "below 31 nobody wins the Game"


def test_game_ties_most_queens_then_highest_cards_then_the_dealer(backend: str) -> None:
    r = resolve(
        backend, [["knight", "knight", "princess", "princess"], ["queen", "queen", "knight", "knight"], ["jester"] * 4]
    )
    assert r["suit_winners"][3] == 1, "40 each: more Queens"
    r = resolve(
        backend,
        [["queen", "queen", "herald", "courtesan"], ["queen", "queen", "herald", "courtesan"], ["jester"] * 4],
        dealer=1,
    )
    assert r["suit_winners"][3] == 1
    r = resolve(
        backend,
        [["queen", "queen", "herald", "courtesan"], ["queen", "queen", "herald", "courtesan"], ["jester"] * 4],
        dealer=2,
    )
    assert r["suit_winners"][3] == 0, "from Dealer 2, seat 0 is next on her left"


# -- rounds and the end -------------------------------------------------------------------


@pytest.mark.parametrize(("rotation", "dealer"), [("left", 1), ("right", 2)])
def test_the_next_round_has_the_next_dealer(backend: str, rotation: str, dealer: int) -> None:
    s = build(backend, players=3, tables=COMBOS, phase=1, options={"dealer_rotation": rotation})
    pass_all_suits(s)
    obs = s.observation(0)
    assert obs["round"] == 1 and obs["dealer"] == dealer and s.current_player == dealer
    assert obs["phase"] == "build" and obs["hand_sizes"] == [4, 4, 4] and obs["deck_size"] == 28
    assert obs["last_combinations"][2] == ["peasant", "herald", "herald", "herald"]


def test_reaching_31_ends_the_game_at_the_end_of_the_round(backend: str) -> None:
    s = wager(backend, COMBOS, scores=[30, 0, 0, 0])
    act(s, "mine", "pass", "pass", "pass")  # Queens won at once: 32 points
    assert not s.is_terminal and s.scores()[0] == 32, "checked only when the round ends"
    pass_all_suits(s)
    assert s.is_terminal and s.returns() == [1.0, -0.5, -0.5]


def test_equal_points_at_the_end_go_to_the_closest_to_the_last_dealer(backend: str) -> None:
    combos = [
        ["queen", "knight", "princess", "herald"],  # Queens (one Queen) and Game (37)
        ["jester", "jester", "assassin", "courtesan"],  # Jesters and Pairs (the only pair)
        ["peasant", "assassin", "courtesan", "herald"],
    ]
    for dealer, winner in ((1, 1), (2, 0), (0, 0)):
        s = wager(backend, combos, scores=[29, 29, 0, 0], dealer=dealer, turn=dealer)
        pass_all_suits(s)  # seat 0: Queens and Game (1 + 1); seat 1: Jesters and Pairs (1 + 1)
        assert s.scores() == [31, 31, 0] and s.is_terminal
        assert s.returns()[winner] == 1.0, (dealer, winner)
        assert s.outcome() == Outcome("target_reached", (winner,), (31, 31, 0), "nearest_dealer")


def test_more_points_win_when_several_reach_the_target(backend: str) -> None:
    s = wager(backend, COMBOS, scores=[29, 30, 0, 0], dealer=1, turn=1)
    pass_all_suits(s)
    assert s.scores() == [31, 32, 2] and s.returns() == [-0.5, 1.0, -0.5]
    assert s.outcome() == Outcome("target_reached", (1,), (31, 32, 2))


def test_options_target_and_max_rounds(backend: str) -> None:
    s = regalia.make("regine", backend=backend, players=2, target=1).new_state(3)  # type: ignore[arg-type]
    while not s.is_terminal:
        s.apply(s.legal_actions()[-1])
    assert s.observation(0)["round"] == 1 and max(s.scores()) >= 1
    s = wager(backend, COMBOS, options={"max_rounds": 1})
    pass_all_suits(s)
    assert s.is_terminal and s.scores() == [2, 2, 2]
    assert s.returns() == [1.0, -0.5, -0.5], "one round only; equal points go to the Dealer"
    assert s.outcome() == Outcome("round_guard", (0,), (2, 2, 2), "nearest_dealer")
    for bad in ({"dealer_rotation": "up"}, {"target": 0}, {"max_rounds": 0}, {"players": 5}, {"players": 1}):
        with pytest.raises(regalia.InvalidOptionError):
            regalia.make("regine", backend=backend, **bad)  # type: ignore[arg-type]


#: The small variant of docs/games/regine.md: two players, 3 Jesters, 3 Princesses and 3
#: Queens, no Phase 1, the Queens and Jesters Suits, one round.
SMALL = {"players": 2, "deck": [3, 0, 0, 0, 0, 0, 3, 3], "build_phase": False, "suits": 2, "max_rounds": 1}


def test_the_small_variant_deals_nine_cards_and_bets_on_two_suits(backend: str) -> None:
    game = regalia.make("regine", backend=backend, **SMALL)  # type: ignore[arg-type]
    for seed in range(20):
        s = game.new_state(seed)
        obs = s.observation(1)
        assert obs["phase"] == "wager" and obs["deck_size"] == 1 and obs["suit"] == "queens"
        mine = [c["card"] for c in obs["table"][1]]
        assert len(mine) == 4 and set(mine) <= {"jester", "princess", "queen"}
        pass_all_suits(s)
        assert s.is_terminal
        won = s.observation(0)["suit_winners"]
        assert won[0] is not None and won[1] is not None and won[2:] == [None, None], "two Suits played"
        assert sum(s.scores()) == 2
    explicit = regalia.make("regine", backend=backend, chance="explicit", **SMALL)  # type: ignore[arg-type]
    s = explicit.new_state(0)
    assert s.chance_outcomes() == [(0, 1 / 3), (6, 1 / 3), (7, 1 / 3)]
    for _ in range(8):
        s.apply(s.legal_actions()[-1])
    assert not s.is_chance_node and s.observation(0)["phase"] == "wager"
    bad_options: list[dict[str, Any]] = [
        {"deck": [1, 0, 0, 0, 0, 0, 3, 3]},  # 7 cards, 8 needed
        {"players": 3, "deck": [3, 0, 0, 0, 0, 0, 3, 3]},  # 9 cards, 12 needed
        {"deck": [8, 8, 8, 8, 8, 0, 0, 8]},  # 48 cards
        {"deck": [9, 0, 0, 0, 0, 0, 3, 3]},
        {"deck": [3, 3]},
        {"suits": 0},
        {"suits": 5},
        {"build_phase": "no"},
    ]
    for bad in bad_options:
        with pytest.raises(regalia.InvalidOptionError):
            regalia.make("regine", backend=backend, **{"players": 2, **bad})  # type: ignore[arg-type]


# -- the contract on hand-made positions ---------------------------------------------------


def test_hand_made_states_round_trip_and_bad_ones_are_refused(backend: str) -> None:
    s = build(backend, hands=HANDS3, no_changes=True)
    act(s, "play peasant face up", "peasant: seat 1")
    game = regalia.make("regine", backend=backend, players=3)  # type: ignore[arg-type]
    assert game.state_from_json(s.to_json()) == s
    env = json.loads(s.to_json())
    for key, value in (("effect", 3 + 9), ("effect_slot", 2), ("hands", [[4] + [0] * 7] * 4), ("turn", 3)):
        bad = {**env, "state": {**env["state"], key: value}}
        with pytest.raises(InvalidStateError):
            game.state_from_json(json.dumps(bad))
    with pytest.raises(IllegalActionError):
        s.apply(s.parse_action("end turn"))


def test_determinize_keeps_what_the_herald_player_saw(backend: str) -> None:
    hands = [["herald", "queen", "queen", "jester"], HANDS3[1], HANDS3[2]]
    s = build(backend, hands=hands, deck_top=("assassin",))
    act(s, "play herald face up")
    for seed in range(5):
        d = s.determinize(0, seed)
        assert d.observation(0) == s.observation(0) and d.observation(0)["herald_card"] == "assassin"
        assert d.legal_actions() == s.legal_actions()
    for seed in range(5):
        assert s.determinize(1, seed).observation(1) == s.observation(1)
    others = {json.dumps(json.loads(s.determinize(1, seed).to_json())["state"]["hands"][2]) for seed in range(8)}
    assert len(others) > 1, "seat 1 cannot know seat 2's hand"


def test_the_rule_based_player_beats_random_players() -> None:
    for players, least in ((2, 9), (4, 7)):  # random play would win 6 and 3 of 12
        game = regalia.make("regine", players=players)
        wins = 0
        for seed in range(12):
            seats = ["random"] * players
            seats[seed % players] = "rules"
            wins += regalia.play(game, seats, seed=seed).returns[seed % players] > 0
        assert wins >= least, (players, wins)


@pytest.mark.parametrize(
    ("suit", "cards", "strength"),
    [
        (0, ["queen", "queen", "queen", "jester"], 2),  # three Queens: double down
        (2, ["herald", "herald", "herald", "jester"], 1),  # three of a kind
        (2, ["herald", "herald", "queen", "jester"], 0),  # one pair
        (3, ["queen", "knight", "herald", "courtesan"], 0),  # 33
    ],
)
def test_bet_strength_by_the_suits_combinations(suit: int, cards: list[str], strength: int) -> None:
    # The rule the search's rollouts and the rule-based player bet by, one copy in the engine
    # (its unit test has the other cases); the binding reads cards by name.
    assert regalia._core.regine_bet_strength(suit, cards) == strength


@pytest.mark.parametrize(
    ("suit", "cards"), [(4, ["queen"] * 4), (-1, ["queen"] * 4), (0, ["queen"] * 3), (0, ["king"] * 4)]
)
def test_bet_strength_refuses_what_is_not_a_suit_and_four_cards(suit: int, cards: list[str]) -> None:
    with pytest.raises(regalia.core.errors.InvalidArgumentError):
        regalia._core.regine_bet_strength(suit, cards)
