"""Duo's rules through the public API, on both backends, from the rulebook's text and the
rulings. Positions are built as saved states (the encoding is in docs/games/duo.md)."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

import regalia
from regalia.core.errors import IllegalActionError, InvalidOptionError, InvalidStateError
from regalia.core.outcome import Outcome

COLOURS = ["blue", "red", "yellow", "green"]
SHAPES = ["circle", "square", "triangle", "cross"]
DRAW, END_TURN = "draw", "end turn"


def card_id(name: str) -> int:
    """The documented card encoding: Symbols colour*16 + (number-1)*4 + shape, Jokers 64 +
    characteristic*4 + value (colour, number, shape)."""
    words = name.split()
    if words[-1] == "joker":
        v = words[0]
        if v in COLOURS:
            return 64 + COLOURS.index(v)
        if v.isdigit():
            return 68 + int(v) - 1
        return 72 + SHAPES.index(v)
    colour, number, shape = words
    return COLOURS.index(colour) * 16 + (int(number) - 1) * 4 + SHAPES.index(shape)


NAMES = {
    card_id(n): n
    for n in [f"{c} {k} {s}" for c in COLOURS for k in range(1, 5) for s in SHAPES]
    + [f"{v} joker" for v in [*COLOURS, "1", "2", "3", "4", *SHAPES]]
}


def position(
    backend: str,
    hands: list[list[str]],
    left: list[str],
    right: list[str],
    *,
    draw: int | None = None,
    current: int = 0,
    round: int = 1,
    scores: list[int] | None = None,
    **options: Any,
) -> Any:
    """A state in which seat ``i`` holds ``hands[i]``, the piles hold ``left`` and ``right``
    (top card last) and the draw pile holds the other cards (``draw`` of them at most: the
    rest lie under the left pile). ``"turbo-joker"`` names one of the Turbo-Jokers."""
    n = len(hands)
    options.setdefault("rounds", 0)
    game = regalia.make("duo", backend=backend, players=n, **options)  # type: ignore[arg-type]
    deck = 80 if options.get("turbo") else 76
    turbos = iter(range(76, 80))

    def ids(names: list[str]) -> list[int]:
        return [next(turbos) if x == "turbo-joker" else card_id(x) for x in names]

    hand_ids = [ids(h) for h in hands]
    left_ids, right_ids = ids(left), ids(right)
    placed = {c for h in hand_ids for c in h} | set(left_ids) | set(right_ids)
    rest = [c for c in range(deck) if c not in placed]
    if draw is not None:
        left_ids = rest[draw:] + left_ids
        rest = rest[:draw]
    state = json.loads(game.new_state(0).to_json())["state"]
    state.update(
        current=current,
        draw=rest,
        hands=[sorted(h) for h in hand_ids] + [[]] * (6 - n),
        piles=[sorted(left_ids), sorted(right_ids)],
        tops=[left_ids[-1], right_ids[-1]],
        round=round,
        scores=(scores or [0] * n) + [0] * (6 - n),
        last_points=None if round == 1 else [0] * 6,
    )
    envelope = {
        "format": "regalia-state",
        "version": 1,
        "game": "duo",
        "options": game.options,
        "seed": None,
        "history": [],
        "state": state,
    }
    return game.state_from_json(json.dumps(envelope))


def legal_names(state: Any) -> set[str]:
    return {state.action_name(a) for a in state.legal_actions()}


def play(state: Any, *names: str) -> None:
    for name in names:
        state.apply(state.parse_action(name))


def playable(backend: str, top: str, hand: list[str], **options: Any) -> set[str]:
    """The cards of ``hand`` that may be played onto ``top`` (on the left pile)."""
    s = position(backend, [hand, ["yellow 4 square"]], [top], ["yellow 1 circle"], **options)
    return {c for c in hand if f"play {c} on left" in legal_names(s)}


def test_symbol_on_symbol_needs_exactly_two_characteristics(backend: str) -> None:
    hand = ["red 3 circle", "red 1 cross", "blue 3 cross", "blue 1 cross", "green 2 circle", "red 1 circle"]
    # colour + number, colour + shape, number + shape match; one or none do not.
    assert playable(backend, "red 3 cross", hand) == {"red 3 circle", "red 1 cross", "blue 3 cross"}


def test_jokers_match_one_characteristic(backend: str) -> None:
    # Onto a Joker: the card shares that one characteristic (the other two are free).
    hand = ["red 1 circle", "red 4 cross", "blue 1 circle", "3 joker", "square joker"]
    assert playable(backend, "red joker", hand) == {"red 1 circle", "red 4 cross"}
    # A Joker onto a Symbol card: its characteristic equals the Symbol card's.
    hand = ["square joker", "circle joker", "2 joker", "4 joker", "green joker", "blue joker"]
    assert playable(backend, "green 2 square", hand) == {"square joker", "2 joker", "green joker"}


def test_joker_on_joker_is_refused(backend: str) -> None:
    s = position(backend, [["blue joker", "2 joker", "red 2 circle"], ["green 4 cross"]], ["red joker"], ["3 joker"])
    assert legal_names(s) == {"play red 2 circle on left", DRAW}
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        s.apply(s.parse_action("play 2 joker on right"))
    assert s.to_json() == before


def test_turbo_jokers_match_everything_both_ways(backend: str) -> None:
    hand = ["turbo-joker", "red joker", "green 4 cross"]
    assert playable(backend, "blue 1 circle", hand, turbo=True) == {"turbo-joker"}
    assert playable(backend, "red joker", ["turbo-joker", "blue joker", "green 4 cross"], turbo=True) == {"turbo-joker"}
    s = position(backend, [hand, ["yellow 2 square"]], ["turbo-joker"], ["yellow 1 circle"], turbo=True)
    assert {n for n in legal_names(s) if n.endswith("left")} == {
        "play turbo-joker on left",
        "play red joker on left",
        "play green 4 cross on left",
    }
    play(s, "play turbo-joker on left")
    assert s.observation(0)["pile_tops"][0] == "turbo-joker"
    assert s.observation(0)["hand"] == ["green 4 cross", "red joker"]


def test_a_turn_plays_onto_one_pile_each_card_matching_the_new_top(backend: str) -> None:
    hand = ["red 3 circle", "blue 3 circle", "red 1 cross", "yellow 2 square"]
    s = position(backend, [hand, ["green 4 cross"]], ["red 3 cross"], ["yellow 2 circle"])
    assert END_TURN not in legal_names(s), "ending the turn needs a card played first"
    play(s, "play red 3 circle on left")
    obs = s.observation(0)
    assert obs["turn_pile"] == "left" and obs["turn_cards"] == ["red 3 circle"]
    assert obs["current_player"] == 0
    # red 1 cross matched the old top but not the new one; the right pile is closed now.
    assert legal_names(s) == {"play blue 3 circle on left", END_TURN}
    play(s, "play blue 3 circle on left")
    assert s.observation(1)["turn_cards"] == ["blue 3 circle", "red 3 circle"], "in card id order"
    assert legal_names(s) == {END_TURN}
    play(s, END_TURN)
    obs = s.observation(1)
    assert obs["current_player"] == 1 and obs["turn_pile"] is None and obs["turn_cards"] == []
    assert obs["hand_sizes"] == [2, 1] and obs["pile_tops"] == ["blue 3 circle", "yellow 2 circle"]


def test_switch_piles_lets_each_card_go_onto_either_pile(backend: str) -> None:
    hand = ["red 3 circle", "yellow 2 cross", "green 4 cross"]
    s = position(backend, [hand, ["green 1 cross"]], ["red 3 cross"], ["yellow 2 circle"], switch_piles=True)
    play(s, "play red 3 circle on left")
    assert legal_names(s) == {"play yellow 2 cross on right", END_TURN}
    play(s, "play yellow 2 cross on right")
    assert s.observation(0)["turn_cards"] == ["red 3 circle", "yellow 2 cross"]


def test_drawing_ends_the_turn_and_the_card_is_not_played(backend: str) -> None:
    s = position(backend, [["red 3 circle"], ["green 4 cross"]], ["red 3 cross"], ["yellow 2 circle"], draw=10)
    play(s, DRAW)
    obs = s.observation(0)
    assert obs["current_player"] == 1 and obs["hand_sizes"] == [2, 1] and obs["draw_pile"] == 9
    assert len(obs["hand"]) == 2 and "red 3 circle" in obs["hand"]


def test_rulebook_scoring_example_two_plus_three_cards(backend: str) -> None:
    # Player A plays her last card; B still has 2 cards and C 3: A scores 5 points.
    hands = [["red 3 circle"], ["blue 1 square", "green 2 circle"], ["yellow 4 triangle", "blue 2 cross", "red joker"]]
    s = position(backend, hands, ["red 3 cross"], ["yellow 2 circle"])
    play(s, "play red 3 circle on left")
    assert s.scores() == [5, 0, 0]
    obs = s.observation(2)
    assert obs["last_round"] == {"winner": 0, "points": [5, 0, 0]}
    # The next round is dealt afresh, and the player to the left of the last starter begins.
    assert obs["round"] == 2 and obs["first_player"] == 1 and obs["current_player"] == 1
    assert obs["hand_sizes"] == [7, 7, 7] and obs["draw_pile"] == 76 - 21 - 2
    assert obs["pile_cards"] == [[obs["pile_tops"][0]], [obs["pile_tops"][1]]]


def test_drawing_the_last_card_stops_the_round_with_a_penalty(backend: str) -> None:
    hands = [["red 3 circle", "blue 1 square", "green 2 circle"], ["yellow 4 triangle", "blue 2 cross"]]
    s = position(backend, hands, ["red 1 cross"], ["yellow 2 circle"], draw=1, scores=[2, -1])
    play(s, DRAW)
    # The drawer now holds 4 cards, the other 2: everybody loses a point per card.
    assert s.scores() == [-2, -3]
    obs = s.observation(0)
    assert obs["last_round"] == {"winner": None, "points": [-4, -2]}
    assert obs["round"] == 2 and obs["current_player"] == 1 and not s.is_terminal


def test_first_player_rotates_to_the_left_every_round(backend: str) -> None:
    game = regalia.make("duo", backend=backend, players=3, rounds=5)  # type: ignore[arg-type]
    s = game.new_state(11)
    rnd = random.Random(3)
    starters = [s.current_player]
    last_round = 1
    while not s.is_terminal:
        s.apply(rnd.choice(s.legal_actions()))
        obs = s.observation(0)
        if obs["round"] != last_round and not s.is_terminal:
            last_round = obs["round"]
            starters.append(s.current_player)
            assert obs["first_player"] == s.current_player
    assert starters == [0, 1, 2, 0, 1]


@pytest.mark.parametrize(("players", "target"), [(2, 10), (3, 15), (4, 15), (5, 20), (6, 20)])
def test_target_by_player_count_and_reaching_it_wins(backend: str, players: int, target: int) -> None:
    game = regalia.make("duo", backend=backend, players=players)  # type: ignore[arg-type]
    assert game.options["target"] == target
    hands = [["red 3 circle"]] + [[f"green {i % 4 + 1} {SHAPES[i // 4]}"] for i in range(players - 1)]
    s = position(backend, hands, ["red 3 cross"], ["yellow 2 circle"], scores=[target - 1] + [0] * (players - 1))
    play(s, "play red 3 circle on left")
    assert s.is_terminal and s.current_player is None and s.legal_actions() == []
    assert s.scores()[0] == target - 1 + players - 1
    assert s.returns() == [1.0] + [-1.0 / (players - 1)] * (players - 1)
    assert s.outcome() == Outcome("target_reached", (0,), (target + players - 2,) + (0,) * (players - 1))


def test_short_of_the_target_the_game_goes_on(backend: str) -> None:
    s = position(backend, [["red 3 circle"], ["green 4 cross"]], ["red 3 cross"], ["yellow 2 circle"], scores=[8, 0])
    play(s, "play red 3 circle on left")
    assert s.scores() == [9, 0] and not s.is_terminal and s.returns() == [0.0, 0.0]
    assert s.outcome() is None


def test_rounds_option_ends_the_game_highest_score_wins_ties_share(backend: str) -> None:
    hands = [
        ["red 3 circle", "blue 1 square"],
        ["yellow 4 triangle", "blue 2 cross"],
        ["green 1 circle", "green 2 circle", "green 3 circle"],
    ]
    s = position(backend, hands, ["red 1 cross"], ["yellow 2 circle"], draw=1, rounds=1)
    play(s, DRAW)  # seat 0 now holds 3 cards, like seat 2; seat 1 holds 2
    assert s.is_terminal and s.scores() == [-3, -2, -3]
    assert s.returns() == [-0.5, 1.0, -0.5]
    assert s.outcome() == Outcome("rounds_played", (1,), (-3, -2, -3))
    s = position(backend, [hands[0][:1], *hands[1:]], ["red 1 cross"], ["yellow 2 circle"], draw=1, rounds=1)
    play(s, DRAW)  # seats 0 and 1 now hold two cards each: they share the win
    assert s.returns() == [0.5, 0.5, -1.0] and s.outcome() == Outcome("rounds_played", (0, 1), (-2, -2, -3))
    s = position(backend, hands[:2], ["red 1 cross"], ["yellow 2 circle"], draw=1, rounds=1)
    play(s, DRAW)
    assert s.is_terminal and s.scores() == [-3, -2] and s.returns() == [-1.0, 1.0]
    hands = [["red 3 circle", "blue 1 square"], ["yellow 4 triangle", "blue 2 cross", "green 3 circle"]]
    s = position(backend, hands, ["red 1 cross"], ["yellow 2 circle"], draw=1, rounds=1)
    play(s, DRAW)
    assert s.is_terminal and s.scores() == [-3, -3] and s.returns() == [0.0, 0.0], "a tie is a draw"
    assert s.outcome() == Outcome("rounds_played", (), (-3, -3))


def test_the_stalemate_guard_ends_a_game_to_the_target_after_100_rounds(backend: str) -> None:
    hands = [["red 3 circle", "blue 1 square"], ["yellow 4 triangle"]]
    s = position(backend, hands, ["red 1 cross"], ["yellow 2 circle"], draw=1, round=100, scores=[4, 6])
    play(s, DRAW)  # the last card drawn ends round 100, short of the target
    assert s.is_terminal and s.scores() == [1, 5]
    assert s.outcome() == Outcome("round_guard", (1,), (1, 5))


#: The options of the whole deck and the rulebook's hand (the defaults).
FULL_DECK = {"colours": 4, "numbers": 4, "shapes": 4, "jokers": True, "hand_size": 7}


def test_options_out_of_range_are_refused(backend: str) -> None:
    bad: list[dict[str, Any]] = [
        {"players": 1},
        {"players": 7},
        {"target": 0},
        {"target": 10_001},
        {"target": "ten"},
        {"rounds": -1},
        {"rounds": 10_001},
        {"rounds": 1.5},
        {"turbo": "yes"},
        {"switch_piles": 1},
        {"jokers": 4},
        {"colours": 0},
        {"numbers": 5},
        {"shapes": 0},
        {"hand_size": 0},
        {"hand_size": 39},
        # the deck must hold the hands, two pile cards and a card to draw
        {"colours": 1, "numbers": 1, "shapes": 2, "hand_size": 2},
        {"colours": 2, "numbers": 2, "shapes": 2, "jokers": False, "hand_size": 3},
        {"players": 6, "hand_size": 13},
    ]
    for options in bad:
        with pytest.raises(InvalidOptionError):
            regalia.make("duo", backend=backend, **options)  # type: ignore[arg-type]
    game = regalia.make("duo", backend=backend, players=6, target=3, rounds=2, turbo=True)  # type: ignore[arg-type]
    assert game.options == {
        "players": 6,
        "target": 3,
        "rounds": 2,
        "turbo": True,
        "switch_piles": False,
        **FULL_DECK,
        "chance": "seeded",
    }
    default = regalia.make("duo", backend=backend)  # type: ignore[arg-type]
    assert default.options == {
        "players": 2,
        "target": 10,
        "rounds": 0,
        "turbo": False,
        "switch_piles": False,
        **FULL_DECK,
        "chance": "seeded",
    }
    assert game.new_state(0).observation(0)["draw_pile"] == 80 - 42 - 2


def test_a_small_deck_holds_the_chosen_values_and_deals_the_chosen_hands(backend: str) -> None:
    """Two colours, one number, two shapes and their Jokers: 4 Symbol cards and 5 Jokers;
    two cards each, two piles, three cards to draw; no Turbo-Joker unless asked for."""
    options = {"colours": 2, "numbers": 1, "shapes": 2, "hand_size": 2}
    game = regalia.make("duo", backend=backend, **options)  # type: ignore[arg-type]
    symbols = {f"{c} 1 {s}" for c in ("blue", "red") for s in ("circle", "square")}
    jokers = {f"{j} joker" for j in ("blue", "red", "1", "circle", "square")}
    for seed in range(20):
        state = game.new_state(seed)
        obs = state.observation(0)
        assert obs["hand_sizes"] == [2, 2] and obs["draw_pile"] == 3
        cards = set(obs["hand"]) | {t for t in obs["pile_tops"] if t is not None}
        assert cards <= symbols | jokers and len(cards) == 4
    turbo = regalia.make("duo", backend=backend, turbo=True, **options)  # type: ignore[arg-type]
    assert turbo.new_state(0).observation(0)["draw_pile"] == 9 + 4 - 4 - 2
    explicit = regalia.make("duo", backend=backend, chance="explicit", **options)  # type: ignore[arg-type]
    outcomes = explicit.new_state(0).chance_outcomes()
    assert len(outcomes) == 9 and sum(p for _, p in outcomes) == pytest.approx(1.0)


def test_drawing_out_a_small_deck_ends_the_round(backend: str) -> None:
    """Six cards: one each, two piles, two to draw. The second draw empties the draw pile
    and stops the round: each player loses a point per card in hand (two each)."""
    options = {"colours": 1, "numbers": 1, "shapes": 2, "hand_size": 1, "rounds": 1}
    game = regalia.make("duo", backend=backend, **options)  # type: ignore[arg-type]
    state = game.new_state(3)
    assert state.observation(0)["draw_pile"] == 2
    play(state, "draw")
    assert not state.is_terminal and state.observation(0)["hand_sizes"] == [2, 1]
    play(state, "draw")
    assert state.is_terminal and state.observation(0)["last_round"]["points"] == [-2, -2]


def test_saves_from_before_the_small_deck_load_as_the_whole_deck(backend: str) -> None:
    """A save written before the deck options existed is a game with the whole deck and seven
    cards each; a small-deck save loads back as itself and only into its own game."""
    game = regalia.make("duo", backend=backend)  # type: ignore[arg-type]
    state = game.new_state(5)
    play(state, "draw")
    saved = json.loads(state.to_json())
    for name in FULL_DECK:
        del saved["options"][name]
    assert regalia.load_state(json.dumps(saved), backend=backend).to_json() == state.to_json()  # type: ignore[arg-type]
    small = regalia.make("duo", backend=backend, colours=2, numbers=2, shapes=2, jokers=False, hand_size=2)  # type: ignore[arg-type]
    position = small.new_state(5)
    play(position, "draw")
    assert small.state_from_json(position.to_json()) == position
    with pytest.raises(InvalidStateError, match="options"):
        game.state_from_json(position.to_json())


def test_names_parse_back_and_prefixes(backend: str) -> None:
    s = position(backend, [["red 3 circle", "red 1 cross"], ["green 4 cross"]], ["red 3 cross"], ["red 1 circle"])
    assert s.parse_action("play red 3 circle on left") == card_id("red 3 circle")
    assert s.parse_action("play red 3 circle on right") == 77 + card_id("red 3 circle")
    assert s.parse_action("draw") == 154 and s.parse_action("  Play RED 3 circle   on LEFT ") == card_id("red 3 circle")
    # The exact name of an action that is not legal now is refused, with what is legal.
    with pytest.raises(IllegalActionError, match=r"'end turn' is not legal now; legal: .*red 1 cross on left.*, draw$"):
        s.parse_action("End turn")
    with pytest.raises(IllegalActionError, match="'play green 4 cross on left' is not legal now"):
        s.parse_action("play green 4 cross on left")  # in another hand
    assert s.action_name(76) == "play turbo-joker on left"
    with pytest.raises(IllegalActionError, match="could be any of"):
        s.parse_action("play red 3 circle")  # onto either pile
    assert s.parse_action("dr") == 154 and s.parse_action("play red 1 cross on l") == card_id("red 1 cross")
    s.apply(s.parse_action("play red 3 circle on left"))
    assert s.parse_action("end turn") == 155


def test_observation_hides_other_hands_and_determinize_keeps_what_is_seen(backend: str) -> None:
    game = regalia.make("duo", backend=backend, players=4, rounds=0)  # type: ignore[arg-type]
    s = game.new_state(5)
    rnd = random.Random(5)
    for _ in range(25):
        s.apply(rnd.choice(s.legal_actions()))
    obs = s.observation(1)
    assert len(obs["hand"]) == obs["hand_sizes"][1]
    assert sum(obs["hand_sizes"]) + obs["draw_pile"] + sum(len(p) for p in obs["pile_cards"]) == 76
    text = json.dumps(obs)
    others = json.loads(s.to_json())["state"]["hands"]
    for seat in (0, 2, 3):
        assert len(others[seat]) == obs["hand_sizes"][seat]
        assert not any(f'"{NAMES[c]}"' in text for c in others[seat]), "another seat's card is visible"
    changed = False
    for seed in range(5):
        d = s.determinize(1, seed)
        assert json.dumps(d.observation(1)) == text
        assert np.array_equal(d.observation_tensor(1), s.observation_tensor(1))
        assert d.history() == [] and d.seed is None
        changed |= json.loads(d.to_json())["state"]["hands"] != others
    assert changed, "the other hands are resampled"


def greedy(state: Any, rnd: random.Random) -> int:
    """A random player that plays a card whenever it can: games reach the target."""
    legal = state.legal_actions()
    plays = [a for a in legal if a < 154]
    return rnd.choice(plays) if plays and rnd.random() < 0.9 else legal[-1]


def uniform(state: Any, rnd: random.Random) -> int:
    """A uniformly random player."""
    return rnd.choice(state.legal_actions())  # type: ignore[no-any-return]


@pytest.mark.parametrize("players", range(2, 7))
def test_whole_games_agree_across_backends(players: int) -> None:
    """Multi-round games (the generic differential plays single rounds)."""
    rnd = random.Random(players)
    for options, agent in [
        ({"rounds": 0, "turbo": players % 2 == 0}, greedy),
        ({"rounds": 3, "switch_piles": True, "turbo": players % 2 == 1}, uniform),
    ]:
        rust = regalia.make("duo", players=players, **options)
        ref = regalia.make("duo", backend="reference", players=players, **options)
        seed = rnd.getrandbits(64)
        r, p = rust.new_state(seed), ref.new_state(seed)
        rounds = 1
        while not r.is_terminal:
            assert r.to_json() == p.to_json()
            assert r.legal_actions() == p.legal_actions()
            a = agent(r, rnd)
            r.apply(a)
            p.apply(a)
            obs = r.observation(0)
            rounds = obs["round"]
            if rnd.random() < 0.1:
                seat = rnd.randrange(players)
                assert obs == p.observation(0) and r.observation(seat) == p.observation(seat)
                assert np.array_equal(r.observation_tensor(seat), p.observation_tensor(seat))
        assert r.to_json() == p.to_json() and r.returns() == p.returns()
        reached = max(r.scores()) >= r.observation(0)["target"]
        assert reached or rounds == (options["rounds"] or 100)
        assert ref.state_from_json(r.to_json()).to_json() == r.to_json()


def test_random_games_terminate_by_the_stalemate_guard() -> None:
    game = regalia.make("duo", rounds=0)
    stats = game.random_playouts(20, seed=1)
    assert stats["games"] == 20
    s = game.new_state(2)
    rnd = random.Random(2)
    while not s.is_terminal:
        s.apply(rnd.choice(s.legal_actions()))
    assert 1 <= s.observation(0)["round"] <= 100
    assert s.observation(0)["round"] == 100 or max(s.scores()) >= 10


def test_the_text_view_fits_80_columns() -> None:
    from regalia.views.render import render

    game = regalia.make("duo", players=6, turbo=True, target=1000, rounds=8)
    s = game.new_state(3)
    rnd = random.Random(1)
    seen = set()
    while True:
        obs = s.observation(s.current_player if s.current_player is not None else 0)
        text = render("duo", obs)
        assert max(len(line) for line in text.splitlines()) <= 80, text
        assert ", ".join(obs["hand"]).replace(", ", " ") in " ".join(text.replace(",", "").split())
        seen.add(obs["turn_pile"] is not None)
        if s.is_terminal:
            break
        s.apply(rnd.choice(s.legal_actions()))
    assert "the game is over" in text and seen == {True, False}
