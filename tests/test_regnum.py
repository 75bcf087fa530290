"""Regnum's rules through the public API, on both backends, from the rulebook's text, the
rulings and the card set (``regnum_cards.json``). Positions are built as saved states."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import regalia
from regalia.core.cards.regnum import DEFAULT_PATH, KIND_NAMES
from regalia.core.errors import IllegalActionError, InvalidOptionError, InvalidStateError
from regalia.core.outcome import Outcome

DATA = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
CHAR = {c["name"]: i for i, c in enumerate(DATA["characters"])}
CASTLE = {c["name"].split()[0]: i for i, c in enumerate(DATA["castles"])}
STANDARD = {s["counts"]: i for i, s in enumerate(DATA["standards"])}
TOTALS = [DATA["resources"][k] for k in KIND_NAMES]


def mask(names: list[str] | tuple[str, ...]) -> int:
    return sum(1 << CHAR[n] for n in names)


def position(
    backend: str,
    players: int = 2,
    hands: list[list[str]] | None = None,
    realms: list[list[str]] | None = None,
    lineup: list[str | None] | None = None,
    castles: list[str] | None = None,
    standards: tuple[str, ...] | None = None,
    deck: dict[str, int] | None = None,
    discard: list[str] | None = None,
    char_deck: list[str] | None = None,
    options: dict[str, Any] | None = None,
    **fields: Any,
) -> Any:
    """A saved state with these cards, loaded (the rest of the resources go to the deck, or,
    when ``deck`` is given, to the discard pile; the other characters to the character deck)."""
    game = regalia.make("regnum", backend=backend, players=players, **(options or {}))  # type: ignore[arg-type]
    env = json.loads(game.new_state(0).to_json())
    st = env["state"]
    hands = hands or [[] for _ in range(players)]
    realms = realms or [[] for _ in range(players)]
    lineup = lineup or ["King", "Queen", "Spy", "Squire"]
    castles = castles or ["Stonewall", "Riverford", "Bannerhold", "Shadowfen"][:players]
    discard = discard or []
    pad = 4 - players
    st["hands"] = [[h.count(k) for k in KIND_NAMES] for h in hands] + [[0] * 10] * pad
    st["realms"] = [mask(r) for r in realms] + [0] * pad
    st["lineup"] = [None if n is None else CHAR[n] for n in lineup]
    st["castles"] = [CASTLE[c] for c in castles] + [0] * pad
    standards = standards or ("BLUE", "RED", "YELLOW", "INHABITANTS", "HAND")[: players + 1]
    st["standards"] = sum(1 << STANDARD[x] for x in standards)
    held = [sum(h[k] for h in st["hands"]) for k in range(10)]
    if deck is None:
        st["discard"] = [KIND_NAMES.index(k) for k in discard]
        st["deck"] = [TOTALS[k] - held[k] - discard.count(KIND_NAMES[k]) for k in range(10)]
    else:
        st["deck"] = [deck.get(k, 0) for k in KIND_NAMES]
        rest = [TOTALS[k] - held[k] - st["deck"][k] for k in range(10)]
        st["discard"] = [k for k in range(10) for _ in range(rest[k])]
    placed = st["realms"][0] | st["realms"][1] | mask([n for n in lineup if n is not None])
    for r in st["realms"]:
        placed |= r
    everything = (1 << len(CHAR)) - 1
    st["char_deck"] = everything & ~placed if char_deck is None else mask(char_deck)
    st["gone"] = everything & ~placed & ~st["char_deck"]
    st["known"] = [[[0] * 10 for _ in range(4)] for _ in range(4)]
    base = {"phase": "main", "active": 0, "decider": 0, "bought": 0, "turn": 5, "final_turns": None}
    st.update({**base, **fields})
    env["seed"], env["history"] = None, []
    return game.state_from_json(json.dumps(env))


def names(s: Any) -> list[str]:
    return sorted(s.action_name(a) for a in s.legal_actions())


def play(s: Any, *actions: str) -> None:
    for a in actions:
        s.apply(s.parse_action(a))


def buys(s: Any) -> list[str]:
    return [n.split(" (")[0][4:] for n in names(s) if n.startswith("buy ")]


# -- paying: every cost icon kind -------------------------------------------------------


def test_colours_shown_need_one_card_of_each(backend: str) -> None:
    # King: G+O+P, 1. Queen: O+P+Y, 1.
    s = position(backend, hands=[["G", "O", "P", "Y"], []])
    assert buys(s) == ["King", "Queen", "Spy", "Squire"]
    play(s, "buy King")
    assert names(s) == ["pay G"]  # the G slot: only the green card
    play(s, "pay G", "pay O", "pay P")
    assert names(s) == ["pay Y"]  # the "1" slot: any card
    play(s, "pay Y")
    obs = s.observation(0)
    assert obs["realms"][0] == ["King"] and obs["hand"] == [] and obs["discard"][-4:] == ["G", "O", "P", "Y"]
    s = position(backend, hands=[["G", "O", "Y", "Y"], []])
    assert buys(s) == ["Squire"]  # no purple: King, Queen and Spy refused


def test_two_of_a_colour_accepts_duals_used_as_that_colour(backend: str) -> None:
    # Court Wizard: 2G, 1.
    s = position(backend, hands=[["G", "G/O", "Y"], []], lineup=["Court Wizard", None, None, None])
    assert buys(s) == ["Court Wizard"]
    play(s, "buy Court Wizard")
    assert names(s) == ["pay G", "pay G/O as G"]  # G/O as O would leave no second green
    play(s, "pay G/O as G")
    assert names(s) == ["pay G"]
    play(s, "pay G", "pay Y")
    assert s.observation(0)["realms"][0] == ["Court Wizard"]
    s = position(backend, hands=[["G", "O", "Y"], []], lineup=["Court Wizard", None, None, None])
    assert buys(s) == []


def test_two_identical_of_any_colour_offers_only_completable_choices(backend: str) -> None:
    # Fool: 2=.
    s = position(backend, hands=[["O", "O/P", "P"], []], lineup=["Fool", None, None, None])
    play(s, "buy Fool")
    assert names(s) == ["pay O", "pay O/P as O", "pay O/P as P", "pay P"]
    play(s, "pay O/P as P")
    assert names(s) == ["pay P"]  # the pair is purple now
    play(s, "pay P")
    assert s.observation(0)["hand"] == ["O"]
    s = position(backend, hands=[["O", "O/P", "Y"], []], lineup=["Fool", None, None, None])
    play(s, "buy Fool")
    assert names(s) == ["pay O", "pay O/P as O"]  # O/P as P or Y would be a dead end
    s = position(backend, hands=[["G", "O", "P"], []], lineup=["Fool", None, None, None])
    assert buys(s) == []


def test_any_card_and_a_dual_card_names_one_colour(backend: str) -> None:
    s = position(backend, hands=[["G/O"], []], lineup=["Squire", None, None, None])
    play(s, "buy Squire")
    assert names(s) == ["pay G/O as G"]  # one way to pay the "1" slot, not two
    s = position(backend, hands=[["Y", "Y"], []], lineup=["Juggler", None, None, None])
    play(s, "buy Juggler", "pay Y", "pay Y")
    assert s.observation(0)["realms"][0] == ["Juggler"]


def test_goldmint_wildcard_once_per_turn(backend: str) -> None:
    # Mayor: G+O+P; Minstrel: O+Y. Goldmint lets one card count as any colour, once a turn.
    hand = ["G", "O", "Y", "Y", "G"]
    plain = position(backend, hands=[hand, []], lineup=["Mayor", "General", "King", "Minstrel"])
    assert buys(plain) == ["General", "Minstrel"]
    s = position(
        backend,
        hands=[hand, []],
        lineup=["Mayor", "General", "King", "Minstrel"],
        castles=["Goldmint", "Stonewall"],
    )
    assert buys(s) == ["General", "King", "Mayor", "Minstrel"]
    play(s, "buy Mayor", "pay G")
    assert names(s) == ["pay O"]  # a wild orange now would leave purple unpaid
    play(s, "pay O")
    assert names(s) == ["pay G as P (wild)", "pay Y as P (wild)"]
    play(s, "pay Y as P (wild)")
    obs = s.observation(0)
    assert obs["realms"][0] == ["Mayor"] and obs["wild_used"] and obs["hand"] == ["G", "Y"]
    assert buys(s) == []  # Minstrel (O+Y) would need the wildcard again
    with pytest.raises(IllegalActionError):
        s.apply(s.parse_action("buy Minstrel"))


# -- effects ----------------------------------------------------------------------------


def test_steal_takes_a_random_card_and_shadowfen_is_immune(backend: str) -> None:
    # Spy: G+P, STEAL.
    hands = [["G", "P"], ["O", "O"], ["Y"]]
    s = position(backend, 3, hands=hands, castles=["Stonewall", "Riverford", "Shadowfen"])
    play(s, "buy Spy", "pay G", "pay P")
    assert names(s) == ["steal from seat 1"]  # seat 2 holds Shadowfen
    play(s, "steal from seat 1")
    obs = s.observation(0)
    assert obs["hand"] == ["O"] and obs["hand_sizes"] == [1, 1, 1]
    assert s.observation(1)["known"][0] == ["O"]  # the victim knows what the thief holds
    assert obs["phase"] == "main"
    s = position(backend, 3, hands=[["G", "P"], [], ["Y"]], castles=["Stonewall", "Riverford", "Shadowfen"])
    play(s, "buy Spy", "pay G", "pay P")
    assert s.observation(0)["phase"] == "main"  # nobody to steal from: no effect


def test_tax_in_seat_order_from_the_left_skipping_shadowfen(backend: str) -> None:
    # Duke: 2=, G+O, TAX. Seat 1 is active; seat 2, then seat 3, then seat 0 discard.
    hands = [["P", "Y"], ["O", "O", "G", "O"], ["G"], ["Y"]]
    castles = ["Montreaux", "Stonewall", "Riverford", "Shadowfen"]
    s = position(backend, 4, hands=hands, castles=castles, lineup=["Duke", None, None, None], active=1, decider=1)
    play(s, "buy Duke", "pay O", "pay O", "pay G", "pay O")
    assert s.current_player == 2 and names(s) == ["discard G"]
    play(s, "discard G")
    assert s.current_player == 0 and names(s) == ["discard P", "discard Y"]  # seat 3: Shadowfen
    play(s, "discard Y")
    assert s.current_player == 1 and s.observation(1)["phase"] == "main"
    assert s.observation(1)["hand_sizes"] == [1, 0, 0, 1]


def test_draw_two_then_discard_one_and_draw_one(backend: str) -> None:
    s = position(backend, hands=[["G", "O"], []], lineup=["Merchant", "Squire", None, None])
    before = s.observation(0)["resource_deck"]
    play(s, "buy Merchant", "pay G", "pay O")
    obs = s.observation(0)
    assert obs["phase"] == "draw2_discard" and len(obs["hand"]) == 2 and obs["resource_deck"] == before - 2
    play(s, names(s)[0])
    assert len(s.observation(0)["hand"]) == 1 and s.observation(0)["phase"] == "main"
    play(s, "buy Squire")
    play(s, names(s)[0])
    assert len(s.observation(0)["hand"]) == 1 and s.observation(0)["resource_deck"] == before - 3


def test_swap_takes_any_deck_card_and_gives_one_back(backend: str) -> None:
    # Miller: 2P, SWAP.
    s = position(backend, hands=[["P", "P", "Y"], []], lineup=["Miller", None, None, None], deck={"G/O": 1, "G": 3})
    play(s, "buy Miller", "pay P", "pay P")
    assert names(s) == ["take G from the deck", "take G/O from the deck"]
    assert s.observation(0)["deck_cards"] == ["G", "G", "G", "G/O"] and s.observation(1)["deck_cards"] is None
    play(s, "take G/O from the deck")
    assert names(s) == ["give G/O to the deck", "give Y to the deck"]
    play(s, "give Y to the deck")
    obs = s.observation(0)
    assert obs["hand"] == ["G/O"] and obs["resource_deck"] == 4 and obs["phase"] == "main"


def test_draw_two_from_an_empty_deck_asks_no_discard(backend: str) -> None:
    # Merchant: G+O, DRAW2. "Draw 2, then discard 1": with the deck empty nothing is drawn,
    # so nothing is discarded; with one card left, that card is drawn and the discard follows.
    s = position(backend, hands=[["G", "O", "Y"], []], lineup=["Merchant", None, None, None], deck={}, final_turns=2)
    play(s, "buy Merchant", "pay G", "pay O")
    obs = s.observation(0)
    assert obs["phase"] == "main" and obs["hand"] == ["Y"] and names(s) == ["end turn"]
    s = position(backend, hands=[["G", "O", "Y"], []], lineup=["Merchant", None, None, None], deck={"P": 1})
    play(s, "buy Merchant", "pay G", "pay O")
    obs = s.observation(0)
    assert obs["phase"] == "draw2_discard" and obs["hand"] == ["P", "Y"] and obs["resource_deck"] == 0
    assert names(s) == ["discard P", "discard Y"]


def test_swap_with_an_empty_hand_does_nothing(backend: str) -> None:
    # Miller: 2P, SWAP. Having paid with her last cards, the player has nothing to give back.
    s = position(backend, hands=[["P", "P"], []], lineup=["Miller", None, None, None], deck={"G": 2})
    play(s, "buy Miller", "pay P", "pay P")
    obs = s.observation(0)
    assert obs["phase"] == "main" and obs["hand"] == [] and obs["deck_cards"] is None
    assert names(s) == ["end turn"]


def test_salvage_takes_any_card_of_the_discard_pile(backend: str) -> None:
    # Archer: 2=, SALVAGE. The pile holds the paid cards too.
    s = position(backend, hands=[["Y", "Y"], []], lineup=["Archer", None, None, None], discard=["G/P", "O"])
    play(s, "buy Archer", "pay Y", "pay Y")
    assert names(s) == ["salvage G/P", "salvage O", "salvage Y"]
    play(s, "salvage G/P")
    obs = s.observation(0)
    assert obs["hand"] == ["G/P"] and obs["discard"] == ["O", "Y", "Y"]
    assert s.observation(1)["known"][0] == ["G/P"]  # everybody saw it


def test_exchange_swaps_inhabitants_and_stonewall_protects(backend: str) -> None:
    # Ambassador: 2=, O+Y, EXCHANGE.
    hand = ["G", "G", "O", "Y"]
    realms = [[], ["King"], ["Queen"]]
    castles = ["Riverford", "Shadowfen", "Stonewall"]
    s = position(backend, 3, hands=[hand, [], []], realms=realms, castles=castles, lineup=["Ambassador"] + [None] * 3)
    play(s, "buy Ambassador", "pay G", "pay G", "pay O", "pay Y")
    assert names(s) == ["exchange for King"]  # the Queen lies in Stonewall's realm
    play(s, "exchange for King")
    assert s.observation(0)["realms"] == [["King"], ["Ambassador"], ["Queen"]]


def test_remove_sends_an_inhabitant_out_of_the_game(backend: str) -> None:
    # Assassin: 2=, G+O, REMOVE.
    hand = ["Y", "Y", "G", "O"]
    s = position(backend, hands=[hand, []], realms=[["Queen"], ["King", "Fool"]], lineup=["Assassin"] + [None] * 3)
    play(s, "buy Assassin", "pay Y", "pay Y", "pay G", "pay O")
    assert names(s) == ["remove Fool", "remove King"]
    play(s, "remove King")
    obs = s.observation(0)
    assert obs["realms"] == [["Queen", "Assassin"], ["Fool"]] and obs["gone"] == ["King"]
    s = position(
        backend,
        hands=[hand, []],
        realms=[[], ["King"]],
        castles=["Riverford", "Stonewall"],
        lineup=["Assassin"] + [None] * 3,
    )
    play(s, "buy Assassin", "pay Y", "pay Y", "pay G", "pay O")
    assert s.observation(0)["phase"] == "main"  # no target: no effect


def test_clear_empties_the_line_up_and_the_turn_end_refills_it(backend: str) -> None:
    # Herald: 1, CLEAR.
    s = position(backend, hands=[["G"], []], lineup=["Herald", "King", "Queen", None])
    deck = s.observation(0)["character_deck"]
    play(s, "buy Herald", "pay G")
    obs = s.observation(0)
    assert obs["lineup"] == [None] * 4 and obs["gone"] == ["King", "Queen"]
    assert names(s) == ["end turn"]
    play(s, "end turn")
    obs = s.observation(0)
    assert all(obs["lineup"]) and obs["character_deck"] == deck - 4
    assert obs["active"] == 1 and obs["phase"] == "draw"


def test_a_character_gained_by_exchange_does_not_act(backend: str) -> None:
    hand = ["G", "G", "O", "Y"]
    s = position(backend, hands=[hand, []], realms=[[], ["Herald"]], lineup=["Ambassador", "King", None, None])
    play(s, "buy Ambassador", "pay G", "pay G", "pay O", "pay Y", "exchange for Herald")
    assert s.observation(0)["lineup"][:2] == [None, "King"]  # no CLEAR


# -- castles and the turn ---------------------------------------------------------------


def test_draw_two_or_take_the_discard_and_riverford(backend: str) -> None:
    s = position(backend, hands=[["G"], []], discard=["P/Y"], phase="draw")
    assert names(s) == ["draw two", "take discard"]
    play(s, "take discard")
    assert s.observation(0)["hand"] == ["G", "P/Y"] and s.observation(1)["known"][0] == ["P/Y"]
    s = position(backend, hands=[["G"], []], discard=["P/Y"], phase="draw", castles=["Riverford", "Stonewall"])
    play(s, "take discard")
    assert len(s.observation(0)["hand"]) == 3  # Riverford: one blind card too
    s = position(backend, hands=[["G"], []], phase="draw")
    assert names(s) == ["draw two"]


def test_buying_none_means_discarding_one(backend: str) -> None:
    s = position(backend, hands=[["Y"], []], lineup=["King", "Queen", "Mayor", "General"])
    assert names(s) == ["discard Y"]
    play(s, "discard Y")
    assert s.observation(0)["active"] == 1 and s.observation(0)["discard"][-1] == "Y"
    s = position(backend, hands=[[], []])
    assert names(s) == ["end turn"]  # nothing to discard


def test_buying_several_characters_in_one_turn(backend: str) -> None:
    s = position(backend, hands=[["G", "O", "P"], []], lineup=["Squire", "Herald", "Farmer of the Hills", None])
    play(s, "buy Squire", "pay G")
    assert "discard O" not in names(s) and "end turn" in names(s)
    play(s, "buy Farmer of the Hills", "pay O")
    assert s.observation(0)["realms"][0] == ["Squire", "Farmer of the Hills"]


# -- the end ----------------------------------------------------------------------------


def test_resource_deck_running_out_finishes_the_round_then_plays_one_more(backend: str) -> None:
    # Seat 1 of 3 draws the last card: seat 2 finishes the round, then seats 0, 1 and 2 play
    # one more round; everybody has had the same number of turns.
    hands = [["Y"], ["Y"], ["Y", "Y"]]
    s = position(backend, 3, hands=hands, deck={"G": 1}, phase="draw", active=1, decider=1, turn=4)
    play(s, "draw two")
    obs = s.observation(1)
    assert obs["hand"] == ["G", "Y"] and obs["resource_deck"] == 0 and obs["final_turns"] == 5
    play(s, "discard G")
    for seat in (2, 0, 1, 2):
        assert s.current_player == seat and not s.is_terminal
        play(s, "draw two", "discard Y")
    assert s.is_terminal and s.observation(0)["final_turns"] == 0 and s.observation(0)["turn"] == 9
    outcome = s.outcome()
    assert outcome is not None and outcome.reason == "final_round" and outcome.scores == tuple(s.scores())


def test_final_round_one_each_gives_one_more_turn_from_the_next_player(backend: str) -> None:
    # The option keeps the other reading: one more turn each, from the next player on.
    one_each = {"final_round": "one_each"}
    s = position(backend, 3, hands=[["Y"], ["Y"], ["Y"]], deck={"G": 1}, phase="draw", options=one_each)
    play(s, "draw two")
    obs = s.observation(0)
    assert obs["hand"] == ["G", "Y"] and obs["resource_deck"] == 0 and obs["final_turns"] == 4
    play(s, "discard G")
    for seat in (1, 2, 0):
        assert s.current_player == seat and not s.is_terminal
        play(s, "draw two", "discard Y")
    assert s.is_terminal and s.observation(0)["final_turns"] == 0


def test_final_turns_that_end_mid_round_are_refused(backend: str) -> None:
    # With equal turns the game can only end after seat n-1's turn: 3 turns left for seat 1
    # of 3 would end it after seat 0.
    with pytest.raises(InvalidStateError, match="full round"):
        position(backend, 3, hands=[["Y"], ["Y"], ["Y"]], deck={}, active=1, decider=1, final_turns=3)
    s = position(backend, 3, hands=[["Y"], ["Y"], ["Y"]], deck={}, active=1, decider=1, final_turns=2)
    assert s.observation(0)["final_turns"] == 2


def test_character_deck_running_out_at_the_refill(backend: str) -> None:
    s = position(backend, hands=[["G"], []], lineup=["Squire", "King", "Queen", "Spy"], char_deck=["Fool"])
    play(s, "buy Squire", "pay G", "end turn")
    obs = s.observation(0)
    assert obs["lineup"][0] == "Fool" and obs["character_deck"] == 0 and obs["final_turns"] == 3
    for seat in (1, 0, 1):
        assert not s.is_terminal and s.current_player == seat
        play(s, "draw two")
        play(s, "discard " + s.observation(seat)["hand"][0])
    assert s.is_terminal


def test_max_turns_guard(backend: str) -> None:
    game = regalia.make("regnum", backend=backend, max_turns=3)  # type: ignore[arg-type]
    s = game.new_state(1)
    for _ in range(3):
        play(s, "draw two")
        play(s, "discard " + s.observation(s.current_player)["hand"][0])
    assert s.is_terminal
    assert s.outcome() is not None and s.outcome().reason == "turn_guard"


def test_the_turn_guard_ends_the_game_and_says_so(backend: str) -> None:
    kw: dict[str, Any] = {"realms": [["King"], []], "standards": ("BLUE", "RED", "WIZARDS")}
    kw["lineup"] = ["Queen", "Spy", "Squire", "Fool"]
    s = position(backend, hands=[["Y"], ["Y"]], phase="draw", turn=5, options={"max_turns": 6}, **kw)
    play(s, "draw two")
    assert s.outcome() is None
    play(s, "discard Y")
    assert s.is_terminal and s.outcome() == Outcome("turn_guard", (0,), (3 + 3, 0))  # the King and blue


# -- scoring ----------------------------------------------------------------------------


def over(backend: str, players: int = 2, **kw: Any) -> Any:
    return position(backend, players, phase="over", final_turns=0, lineup=[None] * 4, **kw)


def test_score_icons_and_the_inhabitant_tie_break(backend: str) -> None:
    realms = [
        ["King", "Prince", "Chancellor", "Bishop"],  # 3 + (1+2) + (1+1) + (1 + 4 blue) = 13
        ["General", "Court Wizard", "Astrologer", "Fool", "Minstrel"],  # 2+2 red, wizards 4, jesters 2
    ]
    s = over(backend, realms=realms, standards=("BLUE", "RED", "INHABITANTS"))
    assert s.scores() == [13 + 3, 10 + 3 + 3]
    assert s.returns() == [-1.0, 1.0]  # 16 each: five inhabitants beat four
    assert s.outcome() == Outcome("final_round", (1,), (16, 16), "inhabitants")
    s = over(backend, realms=realms, standards=("BLUE", "RED", "INHABITANTS"), castles=["Bannerhold", "Stonewall"])
    assert s.scores() == [13 + 4, 16] and s.returns() == [1.0, -1.0]
    assert s.outcome() == Outcome("final_round", (0,), (17, 16))


def test_queen_bonuses_wizard_table_and_jester_ties(backend: str) -> None:
    realms = [
        ["Queen", "Merchant", "Princess", "Lady-in-waiting", "Court Jester"],  # 3 + 2 + 3 + 3 + 0
        ["Court Wizard", "Astrologer", "Battle Mage", "Alchemist", "Fool"],  # wizards 4 = 10
    ]
    s = over(backend, realms=realms, standards=("HAND", "EFFECTS", "FEWEST_COLOUR"))
    # No jester bonus (1 each). EFFECTS: Merchant vs Astrologer + Alchemist -> seat 1.
    # FEWEST_COLOUR: seat 0 blue 4, red 0, yellow 1 -> 0; seat 1 blue 2, red 2, yellow 1 -> 1.
    assert s.scores() == [11, 10 + 3 + 3]
    realms[1] = ["Court Wizard", "Astrologer", "Battle Mage"]
    s = over(backend, realms=realms, standards=("HAND", "YELLOW", "WIZARDS"))
    assert s.scores() == [11 + 2 + 3, 7 + 3]  # one jester against none; three wizards score 7


def test_standards_ties_win_nothing_except_for_montreaux(backend: str) -> None:
    kw: dict[str, Any] = {
        "realms": [["Mayor"], ["Merchant"]],
        "hands": [["G", "O"], ["P", "Y"]],
        "standards": ("YELLOW", "HAND", "WIZARDS"),
    }
    s = over(backend, **kw)
    assert s.scores() == [3, 1]  # Mayor 2 + 1 yellow; Merchant 1 (no Queen); all standards tied or empty
    s = over(backend, castles=["Montreaux", "Stonewall"], **kw)
    assert s.scores() == [3 + 3 + 3, 1]  # tied for yellow and hand; nobody has a wizard
    s = over(backend, castles=["Stonewall", "Montreaux"], **kw)
    assert s.scores() == [3, 1 + 6]


def test_a_full_tie_is_a_shared_win(backend: str) -> None:
    castles = ["Stonewall", "Riverford", "Shadowfen"]
    realms = [["Squire"], ["Herald"], ["King"]]
    s = over(backend, 3, realms=realms, castles=castles, standards=("BLUE", "RED", "YELLOW", "WIZARDS"))
    # Squire 0 and Herald 0, red tied -> nobody; King 3 + blue standard 3.
    assert s.scores() == [0, 0, 6] and s.returns() == [-0.5, -0.5, 1.0]
    realms = [["Squire"], ["Herald"], ["Farmer of the Hills"]]
    s = over(backend, 3, realms=realms, castles=castles, standards=("BLUE", "RED", "WIZARDS", "INHABITANTS"))
    assert s.scores() == [0, 0, 0] and s.returns() == [0.0, 0.0, 0.0]
    assert s.outcome() == Outcome("final_round", (), (0, 0, 0))  # shared by every seat: a draw
    realms = [["Squire"], ["Herald"], []]
    s = over(backend, 3, realms=realms, castles=castles, standards=("BLUE", "WIZARDS", "EFFECTS", "HAND"))
    assert s.scores() == [0, 0, 0] and s.returns() == [0.5, 0.5, -1.0]
    assert s.outcome() == Outcome("final_round", (0, 1), (0, 0, 0), "inhabitants")


# -- the card set -----------------------------------------------------------------------


def bad_sets() -> list[tuple[Any, str]]:
    def edit(f: Any) -> Any:
        d = copy.deepcopy(DATA)
        f(d)
        return d

    return [
        ([], "must be an object"),
        (edit(lambda d: d["characters"][3].update(cost=["2Q"])), "characters[3].cost"),
        (edit(lambda d: d["characters"][0].update(colour="green")), "characters[0].colour"),
        (edit(lambda d: d["characters"][0].update(effect="FLY")), "characters[0].effect"),
        (edit(lambda d: d["characters"][0].update(points=1.5)), "characters[0].points"),
        (edit(lambda d: d["characters"][1].update(name="king")), "appears twice"),
        (edit(lambda d: d["characters"][1].update(extra=1)), "unknown field"),
        (edit(lambda d: d["resources"].update(G=500)), "resources"),
        (edit(lambda d: d["resources"].update(Q=1)), "unknown field"),
        (edit(lambda d: d.update(castles=d["castles"][:1])), "castle per player"),
        (edit(lambda d: d.update(standards=d["standards"][:2])), "players + 1"),
        (edit(lambda d: d.update(king=99)), "king"),
        (edit(lambda d: d.update(characters=d["characters"][:5])), "characters"),
        (edit(lambda d: d["standards"][0].pop("counts")), "no field 'counts'"),
    ]


@pytest.mark.parametrize("index", range(14))
def test_a_malformed_card_set_is_refused_with_the_reason(backend: str, index: int) -> None:
    data, where = bad_sets()[index]
    with pytest.raises(InvalidOptionError, match="card_set") as e:
        regalia.make("regnum", backend=backend, card_set=data)  # type: ignore[arg-type]
    assert where in str(e.value)


def test_another_card_set_is_used_and_saved(backend: str) -> None:
    data = copy.deepcopy(DATA)
    data["resources"] = {"G": 30}
    for c in data["characters"]:
        c["cost"] = ["1"]
    game = regalia.make("regnum", backend=backend, card_set=data, players=3)  # type: ignore[arg-type]
    s = game.new_state(2)
    play(s, "draw two")
    assert s.observation(0)["hand"] == ["G"] * 6
    assert all(n.startswith("buy ") for n in names(s)[:4])
    loaded = regalia.load_state(s.to_json(), backend=backend)  # type: ignore[arg-type]
    assert loaded.to_json() == s.to_json() and loaded.observation(0) == s.observation(0)
    assert game.options["card_set"] == data


def test_both_backends_agree_on_a_custom_set_game() -> None:
    data = copy.deepcopy(DATA)
    data["castles"] = [c for c in data["castles"] if c["advantage"] in ("GOLDMINT", "MONTREAUX")]
    games = [regalia.make("regnum", backend=b, card_set=data) for b in regalia.BACKENDS]  # type: ignore[arg-type]
    states = [g.new_state(9) for g in games]
    step = 0
    while not states[0].is_terminal:
        assert states[0].to_json() == states[1].to_json()
        legal = states[0].legal_actions()
        assert legal == states[1].legal_actions()
        for st in states:
            st.apply(legal[(step * 7) % len(legal)])
        step += 1
    assert states[0].returns() == states[1].returns()


def test_the_rule_based_player_beats_random_players() -> None:
    game = regalia.make("regnum", players=3)
    wins = 0
    for seed in range(12):
        seats = ["random", "random", "random"]
        seats[seed % 3] = "rules"
        wins += regalia.play(game, seats, seed=seed).returns[seed % 3] > 0
    assert wins >= 9, wins
