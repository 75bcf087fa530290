"""Explicit chance (``chance="explicit"``): random events as chance nodes the caller draws,
with the seeded mode's distribution, on both backends. The generic harnesses walk the chance
nodes too (tests/test_contract.py, tests/test_differential.py)."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

import regalia
from regalia.core.errors import IllegalActionError, InvalidArgumentError, InvalidOptionError, InvalidStateError
from tests.conftest import make_explicit, pick_step

#: Duo Regna's card ids (actions) by name.
CARD = {name: i for i, name in enumerate(("X", "0", "1", "2", "3", "4", "5", "6 king", "6 queen"))}
#: Four rounds in which seat 0 captures two dragons, one every two rounds (no hand runs out).
TWO_CAPTURES = [("6 king", "1"), ("6 queen", "2"), ("5", "0"), ("3", "4")]


def duo_regna(backend: str, **options: Any) -> Any:
    return regalia.make("duo-regna", backend=backend, dragons_to_win=64, **options)  # type: ignore[arg-type]


def play_rounds(state: Any, rounds: list[tuple[str, str]]) -> None:
    for c0, c1 in rounds:
        state.apply(CARD[c0])
        state.apply(CARD[c1])


def test_duo_regna_draws_a_dragon_card_at_each_chance_node(backend: str) -> None:
    game = duo_regna(backend, chance="explicit", dragon_deck=[2, 1])
    state = game.new_state(5)
    assert state.is_chance_node and state.current_player == -1 and not state.is_terminal
    assert state.chance_outcomes() == [(0, 2 / 3), (1, 1 / 3)]
    assert [state.action_name(o) for o in state.legal_actions()] == ["reveal 1 dragon", "reveal 2 dragons"]
    assert state.action_info(1) == {"kind": "dragon", "dragons": 2}
    assert state.parse_action("reveal 2") == 1
    state.apply(1)
    assert state.observation(0)["dragon"] == 2 and state.current_player == 0
    play_rounds(state, TWO_CAPTURES[:2])
    assert state.scores() == [2, 0] and state.is_chance_node
    assert state.chance_outcomes() == [(0, 1.0)]
    assert state.history() == [1, 7, 2, 8, 3]


def test_bad_chance_input_is_refused_and_changes_nothing(backend: str) -> None:
    game = duo_regna(backend, chance="explicit", dragon_deck=[2, 0])
    state = game.new_state(1)
    before = state.to_json()
    # Only single dragons are left: a double is no possible outcome; nor is a player's card.
    for bad in (1, CARD["5"]):
        with pytest.raises(IllegalActionError, match="not a possible outcome of this chance node"):
            state.apply(bad)
    assert state.to_json() == before
    state.apply(0)
    with pytest.raises(InvalidArgumentError, match="not a chance node: seat 0 is to act"):
        state.chance_outcomes()
    seeded = duo_regna(backend).new_state(1)
    assert not seeded.is_chance_node
    with pytest.raises(InvalidArgumentError, match="chance='seeded'"):
        seeded.chance_outcomes()
    with pytest.raises(InvalidOptionError, match="chance"):
        duo_regna(backend, chance="sampled")


def test_chance_nodes_save_load_and_have_information_states(backend: str) -> None:
    game = duo_regna(backend, chance="explicit")
    state = game.new_state(8)
    state.apply(1)
    play_rounds(state, TWO_CAPTURES[:2])
    assert state.is_chance_node
    back = game.state_from_json(state.to_json())
    assert back == state and back.is_chance_node and back.chance_outcomes() == state.chance_outcomes()
    assert back.information_state_string(1) == state.information_state_string(1)
    assert "dragon" in state.information_state_string(1)
    # A seeded save is not an explicit one: the options differ.
    with pytest.raises(InvalidStateError, match="options"):
        duo_regna(backend).state_from_json(state.to_json())
    # Saves written before the option existed were seeded games.
    env = json.loads(duo_regna(backend).new_state(3).to_json())
    del env["options"]["chance"]
    assert regalia.load_state(json.dumps(env), backend=backend).to_json() == duo_regna(backend).new_state(3).to_json()  # type: ignore[arg-type]


def first_dragons(state: Any, k: int) -> tuple[int, ...]:
    """The first ``k`` dragon cards a seeded Duo Regna game reveals: its pile's order."""
    return tuple(json.loads(state.to_json())["state"]["pile"][:k])


def explicit_probabilities(backend: str, deck: list[int], k: int) -> dict[tuple[int, ...], float]:
    """The probability of each sequence of the first ``k`` dragon cards, multiplied along the
    explicit game's chance nodes (two captures between draws)."""
    game = duo_regna(backend, chance="explicit", dragon_deck=deck)
    probabilities: dict[tuple[int, ...], float] = {}
    for seq in itertools.product((1, 2), repeat=k):
        state, p = game.new_state(0), 1.0
        for i, dragons in enumerate(seq):
            p *= dict(state.chance_outcomes()).get(dragons - 1, 0.0)
            if p == 0:
                break
            state.apply(dragons - 1)
            if i + 1 < k:
                play_rounds(state, TWO_CAPTURES[:2] if i % 2 == 0 else TWO_CAPTURES[2:])
        probabilities[seq] = p
    return probabilities


def test_explicit_chance_has_the_seeded_distribution(backend: str) -> None:
    """Chi-square of the first three dragon cards of 3,000 seeded games (seeds 0..2999)
    against the probabilities along the explicit game's chance nodes: 7 degrees of freedom,
    refused above 30 (p < 1e-4), so only a real difference fails."""
    deck, k, games = [3, 2], 3, 3000
    expected = explicit_probabilities(backend, deck, k)
    assert abs(sum(expected.values()) - 1) < 1e-12
    assert expected[(2, 2, 2)] == 0 and expected[(1, 1, 1)] == pytest.approx(3 / 5 * 2 / 4 * 1 / 3)
    seeded = duo_regna(backend, dragon_deck=deck)
    counts = {seq: 0 for seq in expected}
    for seed in range(games):
        counts[first_dragons(seeded.new_state(seed), k)] += 1
    chi2 = sum((counts[s] - games * p) ** 2 / (games * p) for s, p in expected.items() if p > 0)
    assert all(counts[s] == 0 for s, p in expected.items() if p == 0)
    assert chi2 < 30, (chi2, counts)


def chi_square(counts: list[int], probabilities: list[float]) -> float:
    """Pearson's statistic of ``counts`` against ``probabilities`` (all positive)."""
    n = sum(counts)
    return sum((c - n * p) ** 2 / (n * p) for c, p in zip(counts, probabilities, strict=True))


def test_duell_der_drachen_deals_as_the_seeded_shuffle_does(backend: str) -> None:
    """The red cards in seat 0's first hand (of 5, from 9 red cards among 45) follow the
    hypergeometric law in both modes: 2,000 seeded deals (seeds 0..1999) and 2,000 explicit
    deals drawn card by card with their probabilities (``random.Random(7)``); chi-square with
    3 degrees of freedom refused above 25 (p < 1e-4)."""
    from math import comb

    games = 2000
    law = [comb(9, k) * comb(36, 5 - k) / comb(45, 5) for k in range(5)]
    expected = [*law[:3], sum(law[3:])]  # 0, 1, 2, 3 or more red cards

    def category(state: Any) -> int:
        reds = sum(card.startswith("red") for card in state.observation(0)["hand"])
        return min(reds, 3)

    seeded = regalia.make("duell-der-drachen", backend=backend)  # type: ignore[arg-type]
    counts = [0] * 4
    for seed in range(games):
        counts[category(seeded.new_state(seed))] += 1
    assert chi_square(counts, expected) < 25, counts

    rnd = random.Random(7)
    explicit = regalia.make("duell-der-drachen", backend=backend, chance="explicit")  # type: ignore[arg-type]
    counts = [0] * 4
    for _ in range(games):
        state = explicit.new_state(0)
        for _ in range(5):  # seat 0's hand, card by card
            outcomes, weights = zip(*state.chance_outcomes())
            state.apply(rnd.choices(outcomes, weights)[0])
        counts[category(state)] += 1
    assert chi_square(counts, expected) < 25, counts


def test_native_paths_refuse_explicit_games_with_a_reason(explicit_name: str, backend: str) -> None:
    """Native playouts and vector envs draw every random event from a generator: they refuse
    a game made with explicit chance instead of drawing its chance nodes wrongly. ISMCTS
    draws the chance nodes it meets by their probabilities, so it searches such a game."""
    game = make_explicit(explicit_name, backend)
    with pytest.raises(InvalidArgumentError, match="play seeded games.*chance='explicit'"):
        game.random_playouts(3, seed=1)
    if backend == "rust":
        with pytest.raises(InvalidArgumentError, match="play seeded games"):
            regalia.VectorEnv(game, 2)
        state = game.new_state(1)
        while state.is_chance_node:
            state.apply(state.legal_actions()[0])
        assert state.ismcts(iterations=50, seed=2) in state.legal_actions()


def rules_state(state: Any) -> dict[str, Any]:
    """The rules state without its generator."""
    data: dict[str, Any] = json.loads(state.to_json())["state"]
    data.pop("rng")
    return data


@pytest.mark.parametrize("seed", [0, 5, 2**63 + 11])
def test_duo_fed_the_seeded_draws_plays_the_seeded_game(seed: int, backend: str) -> None:
    """Duo asks one chance interface for every card in both modes: answering its chance nodes
    with the generator's draws (the ``below(size)``-th card of the draw pile in id order)
    gives the seeded game, deal and draws alike."""
    from regalia.reference.rng import Rng

    seeded = regalia.make("duo", backend=backend, rounds=1).new_state(seed)  # type: ignore[arg-type]
    game = regalia.make("duo", backend=backend, rounds=1, chance="explicit")  # type: ignore[arg-type]
    explicit, rng = game.new_state(seed), Rng.new(seed)

    def answer_chance() -> None:
        while explicit.is_chance_node:
            draw = [card for card, _ in explicit.chance_outcomes()]
            explicit.apply(draw[rng.index(len(draw))])

    answer_chance()
    for _ in range(12):  # the deal, then turns of drawing or playing the first legal card
        assert rules_state(explicit) == rules_state(seeded)
        assert explicit.observation(1) == seeded.observation(1)
        if seeded.is_terminal:
            break
        action = seeded.legal_actions()[0]
        seeded.apply(action)
        explicit.apply(action)
        answer_chance()


def regnum_setup(state: Any, rnd: random.Random) -> None:
    """Draws every chance node of an explicit Regnum setup with its probability."""
    while state.is_chance_node:
        outcomes, weights = zip(*state.chance_outcomes())
        state.apply(rnd.choices(outcomes, weights)[0])


def test_regnum_deals_as_the_seeded_setup_does(backend: str) -> None:
    """Seat 1's castle (uniform over 6), the colour of the first line-up character (12 of 36
    each), whether the first standard is in play (3 of 8 with two players) and the single
    green cards in seat 0's first hand (4 of 60 cards, 12 green: hypergeometric, 0, 1 or 2+)
    follow their laws in both modes: 1,500 seeded setups (seeds 0..1499) and 1,500 explicit
    ones drawn with their probabilities (``random.Random(3)``); each chi-square refused
    above 25 (p < 1e-4 for up to 5 degrees of freedom)."""
    from math import comb

    games = 1500
    green = [comb(12, k) * comb(48, 4 - k) / comb(60, 4) for k in range(5)]
    from regalia.core.cards.regnum import default_card_set_data

    colours = ("blue", "red", "yellow")
    colour = {c["name"]: colours.index(c["colour"]) for c in default_card_set_data()["characters"]}
    laws = {
        "castle": [1 / 6] * 6,
        "slot 1": [1 / 3] * 3,  # the first line-up character's colour, 12 characters each
        "standard": [5 / 8, 3 / 8],
        "green": [green[0], green[1], sum(green[2:])],
    }

    def categories(state: Any) -> dict[str, int]:
        obs = state.observation(0)
        names = ["Montreaux", "Stonewall", "Goldmint", "Riverford", "Shadowfen", "Bannerhold"]
        return {
            "castle": next(i for i, n in enumerate(names) if obs["castles"][1].startswith(n)),
            "standard": int("Most blue characters" in obs["standards"]),
            "slot 1": colour[obs["lineup"][0]],
            "green": min(obs["hand"].count("G"), 2),
        }

    for mode in ("seeded", "explicit"):
        game = regalia.make("regnum", backend=backend, chance=mode)  # type: ignore[arg-type]
        rnd = random.Random(3)
        counts = {k: [0] * len(law) for k, law in laws.items()}
        for seed in range(games):
            state = game.new_state(seed)
            regnum_setup(state, rnd)
            for k, c in categories(state).items():
                counts[k][c] += 1
        for k, law in laws.items():
            assert chi_square(counts[k], law) < 25, (mode, k, counts[k])


def test_regnum_chance_nodes_name_their_outcomes_and_refuse_impossible_ones(backend: str) -> None:
    from regalia.views.render import render

    game = regalia.make("regnum", backend=backend, chance="explicit", players=3)  # type: ignore[arg-type]
    state = game.new_state(1)
    assert state.is_chance_node and state.current_player == -1
    assert state.chance_outcomes() == [(c, 1 / 6) for c in range(6)]
    assert state.action_name(2) == "give Goldmint Castle to seat 0"
    assert state.action_info(2) == {"kind": "castle", "castle": "Goldmint Castle", "seat": 0}
    assert state.observation(1)["castles"] == [None, None, None]
    state.apply(2)
    board = render("regnum", state.observation(0), game.options)
    assert "castle not given yet" in board and "waiting for chance" in board
    before = state.to_json()
    for bad in (2, 6, 40):  # a castle already given, ids past the castles
        with pytest.raises(IllegalActionError, match="not a possible outcome of this chance node"):
            state.apply(bad)
    assert state.to_json() == before
    assert [c for c, _ in state.chance_outcomes()] == [0, 1, 3, 4, 5]
    assert state.observation(2)["castles"] == ["Goldmint Castle", None, None]
    state.apply(0)
    state.apply(1)
    assert state.action_name(0) == "put up standard Most blue characters"
    for standard in range(4):
        state.apply(standard)
    name = state.action_name(state.legal_actions()[0])
    assert name.startswith("reveal ") and name.endswith("(slot 1)")
    while state.observation(0)["lineup"][-1] is None:
        state.apply(state.legal_actions()[0])
    # The resource cards: by the copies of each kind left in the deck (12 of each single
    # colour, 2 of each dual, 60 in all).
    assert state.chance_outcomes() == [(k, (12 if k < 4 else 2) / 60) for k in range(10)]
    assert state.action_name(4) == "draw G/O for seat 0"
    regnum_setup(state, random.Random(1))
    assert not state.is_chance_node and state.current_player == 0
    with pytest.raises(InvalidArgumentError, match="not a chance node: seat 0 is to act"):
        state.chance_outcomes()
    seeded = regalia.make("regnum", backend=backend).new_state(1)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="chance='seeded'"):
        seeded.chance_outcomes()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_regnum_chance_nodes_save_load_and_keep_information_states(players: int, backend: str) -> None:
    """At every chance node of random explicit games (setup, blind draws, steals, refills):
    a save round-trips and carries the event under way, information-state strings and keys
    are those of the engine and of each seat's determinized worlds; a seeded save has no
    such field, and one given it is refused."""
    from regalia.theory.cfr import information_state_key

    game = regalia.make("regnum", backend=backend, chance="explicit", players=players)  # type: ignore[arg-type]
    rnd = random.Random(players)
    kinds: set[str] = set()
    for seed in range(3):
        state = game.new_state(seed)
        while not state.is_terminal:
            if state.is_chance_node:
                data = json.loads(state.to_json())
                kinds.add(data["state"]["pending"]["kind"])
                back = game.state_from_json(state.to_json())
                assert back == state and back.chance_outcomes() == state.chance_outcomes()
                if rnd.random() < 0.1:
                    seat = rnd.randrange(players)
                    key = information_state_key(state, seat)
                    world = state.determinize(seat, rnd.getrandbits(64))
                    assert world.is_chance_node and information_state_key(world, seat) == key
                    assert back.information_state_string(seat) == state.information_state_string(seat)
            state.apply(pick_step(state, rnd))
    assert {"setup", "draw", "refill"} <= kinds
    seeded = regalia.make("regnum", backend=backend, players=players)  # type: ignore[arg-type]
    data = json.loads(seeded.new_state(5).to_json())
    assert "pending" not in data["state"]
    data["state"]["pending"] = {"kind": "draw", "left": 1}
    with pytest.raises(InvalidStateError, match="draws from its seed"):
        seeded.state_from_json(json.dumps(data))


def test_regine_deals_as_the_seeded_shuffle_does(backend: str) -> None:
    """The Queens (8 of 40) in the two hands of a two-player deal, first dealt seat 1's then
    seat 0's (0, 1 or 2 and more in each: 9 cells), follow the hypergeometric law in both
    modes: 2,000 seeded deals (seeds 0..1999) and 2,000 explicit deals drawn card by card with
    their probabilities (``random.Random(7)``); chi-square with 8 degrees of freedom refused
    above 35 (p < 1e-4)."""
    from math import comb

    games = 2000

    def hand(queens_left: int, cards_left: int, k: int) -> float:
        """The chance of ``k`` Queens in a hand of 4 from ``cards_left`` cards."""
        return comb(queens_left, k) * comb(cards_left - queens_left, 4 - k) / comb(cards_left, 4)

    def cell(k: int) -> int:
        return min(k, 2)

    expected = [0.0] * 9
    for q1 in range(5):
        for q0 in range(5):
            p = hand(8, 40, q1) * hand(8 - q1, 36, q0)
            expected[3 * cell(q1) + cell(q0)] += p
    assert abs(sum(expected) - 1) < 1e-12

    def category(state: Any) -> int:
        queens = [state.observation(seat)["hand"].count("queen") for seat in (1, 0)]
        return 3 * cell(queens[0]) + cell(queens[1])

    seeded = regalia.make("regine", backend=backend, players=2)  # type: ignore[arg-type]
    counts = [0] * 9
    for seed in range(games):
        counts[category(seeded.new_state(seed))] += 1
    assert chi_square(counts, expected) < 35, counts

    rnd = random.Random(7)
    explicit = regalia.make("regine", backend=backend, players=2, chance="explicit")  # type: ignore[arg-type]
    counts = [0] * 9
    for _ in range(games):
        state = explicit.new_state(0)
        while state.is_chance_node:
            outcomes, weights = zip(*state.chance_outcomes())
            state.apply(rnd.choices(outcomes, weights)[0])
        counts[category(state)] += 1
    assert chi_square(counts, expected) < 35, counts


#: Regine's card kinds (chance outcomes) by name.
KIND = {
    name: i
    for i, name in enumerate(("jester", "peasant", "assassin", "courtesan", "herald", "knight", "princess", "queen"))
}


def test_regine_chance_nodes_deal_take_and_turn_cards(backend: str) -> None:
    """Two players, seat 0 deals: seat 1's hand card by card, then seat 0's; a Knight's
    victim loses a card drawn by its share of her hand and draws another from the unseen
    cards; a Herald's owner looks at a top card drawn at a chance node; saves round-trip at
    every chance node; a bad outcome is refused and changes nothing; the seeded game has no
    chance nodes."""
    game = regalia.make("regine", backend=backend, players=2, chance="explicit")  # type: ignore[arg-type]
    state = game.new_state(1)
    assert state.is_chance_node and state.current_player == -1
    assert state.chance_outcomes()[0] == (KIND["jester"], 8 / 40)
    assert state.action_info(KIND["queen"]) == {"kind": "draw", "card": "queen", "seat": 1}
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="not a possible outcome"):
        state.apply(20)
    assert state.to_json() == before
    deal = ["knight", "herald", "jester", "jester", "queen", "queen", "peasant", "assassin"]
    for i, name in enumerate(deal):
        assert state.action_name(KIND[name]) == f"draw {name} for seat {1 if i < 4 else 0}"
        state.apply(KIND[name])
        back = game.state_from_json(state.to_json())
        assert back == state and back.legal_actions() == state.legal_actions()
    assert sorted(state.observation(1)["hand"]) == sorted(deal[:4])
    assert state.observation(0)["hand_sizes"] == [4, 4] and state.current_player == 0
    state.apply(state.parse_action("end turn"))
    state.apply(state.parse_action("play knight face up"))
    state.apply(state.parse_action("knight: seat 0"))
    assert state.is_chance_node
    assert state.chance_outcomes() == [(KIND["peasant"], 0.25), (KIND["assassin"], 0.25), (KIND["queen"], 0.5)]
    assert state.action_name(KIND["queen"]) == "seat 0 loses queen"
    assert game.state_from_json(state.to_json()) == state
    state.apply(KIND["queen"])
    assert state.is_chance_node and dict(state.chance_outcomes())[KIND["queen"]] == 6 / 32
    state.apply(KIND["courtesan"])
    assert state.observation(0)["hand"].count("courtesan") == 1 and state.current_player == 1
    state.apply(state.parse_action("end turn"))
    state.apply(state.parse_action("end turn"))
    state.apply(state.parse_action("play herald face up"))
    assert state.is_chance_node and state.observation(1)["herald_card"] is None
    assert state.action_info(KIND["princess"]) == {"kind": "herald_top", "card": "princess"}
    world = state.determinize(0, 4)
    assert world.is_chance_node and world.observation(0) == state.observation(0)
    state.apply(KIND["princess"])
    assert state.observation(1)["herald_card"] == "princess" and state.observation(0)["herald_card"] is None
    assert "princess" not in state.information_state_string(0)
    seeded = regalia.make("regine", backend=backend, players=2).new_state(1)  # type: ignore[arg-type]
    assert not seeded.is_chance_node
    with pytest.raises(InvalidArgumentError, match="chance='seeded'"):
        seeded.chance_outcomes()
