"""The narration tells every move right and completely. Random games of every game, at
several seeds and player counts, are narrated to every seat, and each move's narration is
checked against the state's own record: the card actually played (from the action's info,
for the seats that may see it) must be named, every card that came into the seat's own hand
must be named to it, and every change of score (markers, dragons) must be told with its old
and new values, chained from the score before the move to the score after it. A narrator
that names a wrong card or leaves out a score change fails here (two tests inject both).
Regine's Suit reasons are checked on concrete combinations, and the ranking they explain
against the engine's winners."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import regalia
from regalia.core.outcome import Outcome
from regalia.table import narrate
from regalia.table.narrate import common, duell_der_drachen, duo, regine_suits

#: Per game: the options of the games played, the seat counts and the label of its score lines.
GAMES: dict[str, tuple[dict[str, Any], tuple[int, ...], str]] = {
    "duo-regna": ({}, (2,), "Dragons"),
    "duell-der-drachen": ({}, (2,), "Markers"),
    "duo": ({"rounds": 3}, (2, 4, 6), "Scores"),
    "regine": ({"target": 12}, (2, 3, 4), "Scores"),
    "regnum": ({}, (2, 3, 4), "Scores"),
}
SEEDS = (1, 2, 3)
CHANGE = re.compile(r"(you|the opponent|seat \d) (-?\d+) -> (-?\d+)")


def told(state: Any, action: int, seats: narrate.Seats) -> tuple[list[str], Any]:
    """What ``seats.viewer`` is told of ``action`` in ``state`` (with the ending when it
    ends the game), and the state after it."""
    viewer = seats.viewer
    before = state.observation(viewer)
    name = state.action_name(action)
    said = name if state.current_player == viewer else narrate.public(state.game_name, name)
    after_state = state.clone()
    after_state.apply(action)
    after = after_state.observation(viewer)
    lines = narrate.news(state.game_name, before, after, seats, said)
    outcome = after_state.outcome()
    if outcome is not None:
        lines += narrate.ending(state.game_name, after, outcome, seats)
    return lines, after_state


def score_chains(lines: list[str], label: str, seats: narrate.Seats) -> dict[int, list[tuple[int, int]]]:
    """Every score change told, per seat, in the order told."""
    names = {seats.name(k): k for k in range(seats.count)}
    chains: dict[int, list[tuple[int, int]]] = {}
    for line in lines:
        if line.startswith(label) and ": " in line:
            for who, a, b in CHANGE.findall(line.partition(": ")[2]):
                chains.setdefault(names[who], []).append((int(a), int(b)))
    return chains


def check_scores(lines: list[str], label: str, seats: narrate.Seats, before: list[int], after: list[int]) -> None:
    """Each seat's told changes lead from its score before the move to its score after it."""
    chains = score_chains(lines, label, seats)
    for k in range(seats.count):
        steps = chains.get(k, [])
        value = before[k]
        for a, b in steps:
            assert a == value, (k, steps, before, after, lines)
            value = b
        assert value == after[k], (k, steps, before, after, lines)


def expected_card(state: Any, action: int, viewer: int, after: Any, seats: narrate.Seats) -> list[str]:
    """Words that must be in the narration of ``action`` for ``viewer``: the card played
    (or drawn, to its drawer) as far as ``viewer`` may see it."""
    info = state.action_info(action)
    game, mover = state.game_name, state.current_player
    own = viewer == mover
    if game == "duo-regna":
        revealed = after.observation(viewer)["round"] != state.observation(viewer)["round"]
        if own:
            return [f"You chose {info['card']}"]
        return [f"{seats.name(mover)} {info['card']}:"] if revealed else []
    if game == "duell-der-drachen":
        where = info["territory"]
        if info["face_up"]:
            return [f"{info['card']} face up on {where}"]
        return [f"{info['card'] if own else 'a card'} face down on {where}"]
    if game == "duo":
        if info["kind"] == "play":
            return [f"{info['card']} on the {info['pile']} pile", *duo_tops(state, info, after)]
        if info["kind"] == "draw" and own and after.observation(mover)["round"] == state.observation(mover)["round"]:
            drawn = common.added(state.observation(mover)["hand"], after.observation(mover)["hand"])
            return [f"draw {drawn[0]}" if state.observation(mover)["draw_pile"] > 1 else f"({drawn[0]})"]
        return []
    if game == "regine":
        return regine_card(info, own, seats)
    return regnum_card(state, info, own, after, seats)


def duo_tops(state: Any, info: dict[str, Any], after: Any) -> list[str]:
    """When the card ends the round: the top card of each pile as the round left them."""
    before = state.observation(0)
    if after.observation(0)["last_round"] == before["last_round"]:
        return []
    tops = list(before["pile_tops"])
    tops[("left", "right").index(info["pile"])] = info["card"]
    return [f"{top} on top" for top in tops]


def regine_card(info: dict[str, Any], own: bool, seats: narrate.Seats) -> list[str]:
    """A Regine card played (named face up, or to its owner), a card discarded or shown, a
    seat named, a card targeted."""
    if info["kind"] == "play":
        if info["face_up"]:
            return [f"the {info['card'].capitalize()} face up"]
        return [f"a card face down ({info['card']})"] if own else ["a card face down"]
    if info["kind"] in ("discard", "show_card") and own:
        return [info["card"]]
    if info["kind"] == "name_seat":
        return [f"names {seats.name(info['seat'])}"]
    if info["kind"] == "target_card":
        return [seats.whose(info["seat"])]
    return []


def regnum_card(state: Any, info: dict[str, Any], own: bool, after: Any, seats: narrate.Seats) -> list[str]:
    """A Regnum card discarded, paid, salvaged, taken or given; a character targeted; a
    victim robbed; the cards drawn, to their drawer."""
    kind = info["kind"]
    if kind == "discard" or kind == "salvage":
        return [info["card"]]
    if kind == "pay":
        mover = state.current_player
        obs = after.observation(mover)
        if obs["phase"] == "pay":
            return []
        kept = list(state.observation(mover)["hand"])
        kept.remove(info["card"])
        drawn = common.added(kept, obs["hand"])  # by a DRAW1 or DRAW2 set off by the purchase
        return ["paid with", info["card"], *([f"you draw {', '.join(drawn)}"] if own and drawn else [])]
    if kind == "target":
        return [info["character"]]
    if kind == "steal":
        return [f"from {seats.whose(info['seat'])} hand"]
    if kind in ("take_from_deck", "give_to_deck") and own:
        return [info["card"]]
    if kind == "take_discard":
        return [f"top card ({state.observation(0)['discard'][-1]})"]
    if kind == "draw_two" and own:
        mover = state.current_player
        drawn = common.added(state.observation(mover)["hand"], after.observation(mover)["hand"])
        return [f"blind: {', '.join(drawn)}"] if drawn else ["nothing"]
    return []


def check_drawn(lines: list[str], before: dict[str, Any], after: dict[str, Any]) -> None:
    """Every card that came into the seat's hand by the move is named to it (a new deal at
    a round's start, and Duo Regna's hand taken back, are told as such, not card by card)."""
    if before.get("round") != after.get("round") or "captured" in before:
        return
    text = "\n".join(lines).lower()
    for card in common.added(before["hand"], after["hand"]):
        assert re.search(rf"(?<![\w/]){re.escape(card.lower())}(?:e?s)?(?![\w/])", text), (card, lines)


def check_game(name: str, players: int, seed: int) -> int:
    """Plays one random game, checking every move's narration to every seat; returns the
    number of moves checked."""
    options, _, label = GAMES[name]
    game = regalia.make(name, players=players, **options)
    state = game.new_state(seed)
    rnd = random.Random(f"narration {name} {players} {seed}")
    moves = 0
    while not state.is_terminal:
        action = rnd.choice(state.legal_actions())
        scores = state.scores()
        for viewer in range(players):
            seats = narrate.Seats(viewer, ["random"] * players, dict(game.options))
            lines, after = told(state, action, seats)
            text = "\n".join(lines)
            for words in expected_card(state, action, viewer, after, seats):
                assert words in text, (state.action_name(action), viewer, words, lines)
            check_scores(lines, label, seats, scores, after.scores())
            check_drawn(lines, state.observation(viewer), after.observation(viewer))
        state.apply(action)
        moves += 1
    return moves


CONFIGS = [(name, n, seed) for name, (_, counts, _) in GAMES.items() for n in counts for seed in SEEDS]


@pytest.mark.parametrize("config", CONFIGS, ids=[f"{g}-{n}p-{s}" for g, n, s in CONFIGS])
def test_every_move_is_told_with_its_card_and_its_score_changes(config: tuple[str, int, int]) -> None:
    assert check_game(*config) > 0


def test_the_old_duell_bug_fails_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    # The bug of issue 31: the side's highest card named instead of the card played.
    real = duell_der_drachen._played

    def highest(before: Any, after: Any, mover: int) -> Any:
        found = real(before, after, mover)
        if found is not None and found[2]:
            i, _, up = found
            return i, after["territories"][i]["face_up"][mover][-1], up
        return found

    monkeypatch.setattr(duell_der_drachen, "_played", highest)
    with pytest.raises(AssertionError):
        for seed in SEEDS:
            check_game("duell-der-drachen", 2, seed)


def test_a_wrong_duo_card_fails_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    # The pile's old top card named instead of the card played onto it.
    real = duo._played

    def old_top(before: Any, after: Any, told: str | None) -> Any:
        found = real(before, after, told)
        return found if found is None else (before["pile_tops"][found[1]], found[1])

    monkeypatch.setattr(duo, "_played", old_top)
    with pytest.raises(AssertionError):
        check_game("duo", 2, SEEDS[0])


@pytest.mark.parametrize("game", ["duo-regna", "duell-der-drachen", "regnum", "regine", "duo"])
def test_an_untold_score_change_fails_the_check(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    module = getattr(narrate, game.replace("-", "_"))
    monkeypatch.setattr(module, "score_changes", lambda *args, **kwargs: [])
    with pytest.raises(AssertionError):
        for seed in SEEDS:
            check_game(game, 2, seed)


TWO = narrate.Seats(0, ["human", "random"])


@pytest.mark.parametrize(
    ("suit", "mine", "theirs", "dealer", "told"),
    [
        (
            0,
            ["queen", "herald", "peasant", "jester"],
            ["queen", "princess", "peasant", "jester"],
            0,
            "over you with equal Queens (1); higher cards: the Princess against the Herald",
        ),
        (
            1,
            ["jester", "peasant", "queen", "queen"],
            ["jester", "assassin", "queen", "queen"],
            1,
            "over the opponent with equal Jesters (1); lower cards: the Peasant against the Assassin",
        ),
        (
            2,
            ["queen", "queen", "jester", "jester"],
            ["knight", "knight", "knight", "jester"],
            1,
            "over the opponent with the better combination: two pairs (Queens and Jesters) against three Knights",
        ),
        (
            3,
            ["queen", "queen", "herald", "peasant"],
            ["queen", "queen", "queen", "jester"],
            0,
            "over you with equal totals (31); more Queens (3 against 2)",
        ),
        (
            3,
            ["queen", "queen", "herald", "jester"],
            ["queen", "queen", "queen", "peasant"],
            0,
            "as the only one who reaches 31 or more",
        ),
        (
            2,
            ["princess", "princess", "assassin", "peasant"],
            ["knight", "knight", "peasant", "jester"],
            0,
            "over the opponent with equal combinations (a pair of Princesses and a pair of Knights);"
            " higher other cards: the Assassin against the Peasant",
        ),
        (2, ["queen", "knight", "herald", "jester"], ["queen", "princess", "herald", "jester"], 0, "nobody has a pair"),
        (
            0,
            ["queen", "jester", "herald", "peasant"],
            ["queen", "jester", "herald", "peasant"],
            1,
            "over you with equal cards: the opponent is the Dealer",
        ),
    ],
)
def test_a_suit_is_told_with_what_decided_it(
    suit: int, mine: list[str], theirs: list[str], dealer: int, told: str
) -> None:
    assert regine_suits.reason(suit, [0, 1], [mine, theirs], dealer, TWO) == told


def test_the_told_suit_winner_is_the_engines() -> None:
    # At every round's end of random games, the ranking the narration explains puts first the
    # seat the engine gave the Suit (Suits won at once, with a single chip, are not compared).
    checked = 0
    for players, seed in [(n, seed) for n in (2, 3, 4) for seed in SEEDS]:
        state = regalia.make("regine", players=players).new_state(seed)
        rnd = random.Random(f"suits {players} {seed}")
        while not state.is_terminal:
            before = state.observation(0)
            action = rnd.choice(state.legal_actions())
            last = state.action_name(action)
            state.apply(action)
            after = state.observation(0)
            if after["round"] == before["round"] and not state.is_terminal:
                continue
            for suit in range(4):
                bets = before["bets"][suit]
                if before["suit_winners"][suit] is not None or len(bets) == 1 or last == "all yours":
                    continue
                ranked = regine_suits.ranking(
                    suit, bets or list(range(players)), after["last_combinations"], before["dealer"], players
                )
                assert (ranked[0] if ranked else None) == after["suit_winners"][suit]
                checked += 1
    assert checked > 50


def test_the_shared_pieces_of_english() -> None:
    assert common.added(["a", "b"], ["b", "c", "b"]) == ["c", "b"]
    assert common.cards_in_words(["queen", "queen"], capital=True) == "two Queens"
    assert common.cards_in_words(["princess", "assassin", "princess"]) == "two princesses and an assassin"
    assert common.cards_in_words([]) == "nothing"
    three = narrate.Seats(1, ["a", "b", "c"])
    told = common.score_changes("Scores", [3, 5, 1], [3, 2, 4], three, ["", "x -3", ""])
    assert told == ["Scores: you 5 -> 2 (x -3), seat 2 1 -> 4."]
    assert common.score_changes("Markers", [1, 2], [1, 2], TWO) == []
    even = common.score_changes("Scores", [9, 4], [9, 4], TWO, ["characters +3, standards -3", ""])
    assert even == ["Scores: you 9 -> 9 (characters +3, standards -3)."]


def test_the_duo_regna_ending_tells_the_outcome_it_is_given() -> None:
    """The ending says what the outcome says, whatever the board: the reason, the tie-break and
    the winner come from it, the target from the options in force (no default of its own)."""
    seats = narrate.Seats(0, ["human", "random"], {"dragons_to_win": 6})
    obs = regalia.make("duo-regna").new_state(1).observation(0)  # the board plays no part
    cases = [
        (
            Outcome("target_reached", (0,), (6, 2)),
            ["The duel ends: 6 dragons win the duel.", "You win. Final scores (dragons): you 6, the opponent 2."],
        ),
        (
            Outcome("dragon_pile_empty", (), (3, 3)),
            [
                "The duel ends: the dragon pile ran out: most dragons wins.",
                "It is a draw. Final scores (dragons): you 3, the opponent 3.",
            ],
        ),
        (
            Outcome("round_guard", (1,), (2, 2), "dragon_side"),
            [
                "The duel ends: the round limit was reached: most dragons wins, then the side the dragon lies on.",
                "Equal dragons: the dragon lies on the opponent's side.",
                "The opponent wins. Final scores (dragons): you 2, the opponent 2.",
            ],
        ),
    ]
    for outcome, lines in cases:
        assert narrate.ending("duo-regna", obs, outcome, seats) == lines


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_ending_names_the_winners_and_the_final_scores(game: str) -> None:
    """A shared win names every winner; each seat hears the result in its own words."""
    players = 3 if game in ("duo", "regine", "regnum") else 2
    made = regalia.make(game, players=players)
    state = made.new_state(2)
    rnd = random.Random(game)
    while not state.is_terminal:
        state.apply(rnd.choice(state.legal_actions()))
    outcome = state.outcome()
    assert outcome is not None
    won = [k for k, r in enumerate(state.returns()) if r > 0]
    for viewer in range(players):
        seats = narrate.Seats(viewer, ["random"] * players, dict(made.options))
        last = narrate.ending(game, state.observation(viewer), outcome, seats)[-1]
        listed = ", ".join(f"{seats.name(k)} {x}" for k, x in enumerate(state.scores()))
        assert last.endswith(f"Final scores ({narrate.UNITS.get(game, 'points')}): {listed}.")
        if len(won) == 1:
            assert last.startswith(seats.Verb(won[0], "win", "wins") + ".")
        elif not won:
            assert last.startswith("It is a draw.")
        else:
            assert "share the win." in last and all(seats.name(k) in last.lower() for k in won)
    shared = Outcome("final_round", (0, 2), (5, 1, 5), "inhabitants")
    line = common.result(shared, narrate.Seats(1, ["a", "b", "c"]))
    assert line == "Seat 0 and seat 2 share the win. Final scores (points): seat 0 5, you 1, seat 2 5."
