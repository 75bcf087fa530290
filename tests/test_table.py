"""The table with no terminal: a whole game of each of the five games with a person and
bots seated, the person's moves chosen by the test, undo and save on the way, resumed from
the saved file; the hand-over between two people; forced moves; refusals that change
nothing."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import regalia
from regalia.core.errors import IllegalActionError
from regalia.registry import MatchRecord, load_game
from regalia.table import HUMAN, Refused, Table

GAMES = [g["name"] for g in regalia.games()]


@pytest.mark.parametrize("name", GAMES)
def test_a_person_and_a_bot_play_a_whole_game_with_undo_and_save(name: str, tmp_path: Path) -> None:
    game = regalia.make(name)
    table = Table(game, [HUMAN] + ["random"] * (game.num_players - 1), seed=5)
    rnd = random.Random(name)
    undos = saves = 0
    while not table.is_over:
        waiting = table.waiting()
        assert waiting.seat is not None
        if waiting.kind == "bot":
            table.play_bot()
            continue
        seat = waiting.seat
        moves = table.moves(seat)
        assert moves and all(isinstance(a, int) and isinstance(n, str) for a, n in moves)
        assert [a for a, _ in moves] == table.view(seat).legal_actions
        if rnd.random() < 0.2:
            before = table.actions
            try:
                table.undo(seat)
                undos += 1
                assert len(table.actions) < len(before)
            except Refused as e:
                assert str(e) and table.actions == before
            continue
        table.play(seat, rnd.choice(moves)[0])
        if saves == 0 and len(table.actions) > 6:
            path = table.save(tmp_path / "game.json")
            saved = load_game(path)
            assert isinstance(saved, MatchRecord) and saved.actions == table.actions
            table = Table.resume(saved, game)  # the game goes on from the file
            saves += 1
    record = table.record()
    assert saves == 1
    assert record.returns == record.replay().returns() and record.scores
    assert table.ending(0) and table.log(0)[-1].ply == len(record.actions)


def test_a_move_out_of_turn_or_illegal_is_refused_and_changes_nothing() -> None:
    game = regalia.make("duo-regna")
    table = Table(game, [HUMAN, HUMAN], seed=1)
    seat = table.to_move
    assert seat is not None
    before = table.record().to_json()
    with pytest.raises(IllegalActionError):
        table.play(1 - seat, table.moves(seat)[0][0])
    with pytest.raises(IllegalActionError):
        table.play(seat, game.num_actions)
    with pytest.raises(IllegalActionError):
        table.play_bot()
    with pytest.raises(Refused, match="undo is for a game against bots"):
        table.undo(seat)
    assert isinstance(Refused("x"), ValueError)
    assert table.record().to_json() == before


def test_two_people_hand_over_and_each_is_told_only_their_own_moves() -> None:
    table = Table(regalia.make("duo-regna"), [HUMAN, HUMAN], seed=2)
    first = table.to_move
    assert first is not None and not table.needs_hand_over(first)
    table.handed_over(first)
    action, name = table.moves(first)[0]
    table.play(first, action)
    second = table.to_move
    assert second == 1 - first and table.needs_hand_over(second)
    mine, theirs = table.log(first)[0], table.log(second)[0]
    assert (mine.action, mine.name) == (action, name)
    assert theirs.action is None and theirs.name is None  # a hidden choice is not named to the other


def test_a_persons_only_legal_move_plays_itself_unless_asked() -> None:
    game = regalia.make("duo-regna")
    state = game.new_state(3)
    while len(state.legal_actions()) != 1 or state.current_player != 0:
        state.apply(state.legal_actions()[0])
    forced = Table(game, [HUMAN, "first-legal"], start=state)
    assert forced.log(0)[0].forced and forced.take_news(0)[0].startswith("Your only legal move")
    asked = Table(game, [HUMAN, "first-legal"], start=state, ask_forced=True)
    assert asked.waiting().kind == "person" and asked.log(0) == []


def test_explicit_chance_is_drawn_from_the_seed_as_play_draws_it() -> None:
    game = regalia.make("duell-der-drachen", chance="explicit")
    seats = ["first-legal", "last-legal"]  # the same moves at the table and in play: the draws decide
    table = Table(game, seats, seed=9)
    assert table.finish().actions == regalia.play(game, seats, seed=9).actions
