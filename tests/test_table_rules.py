"""The rules every front-end takes from the table (``regalia.table``): which bot may sit at a
game, where a table's chance comes from, and a recorded game walked for an onlooker
(``Replay``): its moves as the onlooker knows them, each frame's observations and the
outcome at the end, and every broken record refused."""

from __future__ import annotations

import dataclasses

import pytest

import regalia
from regalia.core.errors import RegaliaError
from regalia.registry.records import MatchRecord, outcome_fields
from regalia.table import (
    BotRefused,
    BrokenRecord,
    ChanceChosen,
    Replay,
    Table,
    chance_of,
    check_bot,
    narrate,
    resumed_game,
    table_game,
)


def bots_record(game: str = "duo-regna", seed: int = 3) -> MatchRecord:
    return regalia.play(regalia.make(game), ["random", "random"], seed=seed)


# --- which bot may sit at a game ---------------------------------------------------------------


def test_a_bot_of_other_games_is_refused_with_the_games_it_plays() -> None:
    with pytest.raises(BotRefused, match=r"^the 'solver' agent plays only duo-regna, not duo$"):
        check_bot("solver", "duo")
    check_bot("solver", "duo-regna")
    check_bot("rules", "regine")


def test_a_bad_spec_or_option_is_a_value_error_and_the_game_is_optional() -> None:
    with pytest.raises(ValueError, match="no-such-agent"):
        check_bot("no-such-agent")
    with pytest.raises(RegaliaError, match="iters"):
        check_bot("best:iters=5", "duo")
    check_bot("solver")  # without a game, only the spec is checked


# --- where a table's chance comes from --------------------------------------------------------


def test_a_table_game_is_seeded_with_a_seed_and_explicit_without_one() -> None:
    assert table_game("duo", {"players": 2}).options["chance"] == "seeded"
    assert table_game("duo", {"players": 2}, seeded=False).options["chance"] == "explicit"


@pytest.mark.parametrize("chance", ["explicit", "anything"])
def test_a_chosen_chance_is_refused_before_the_game_is_made(chance: str) -> None:
    with pytest.raises(ChanceChosen, match="seeded games only"):
        table_game("duo", {"chance": chance})


def test_a_stored_table_resumes_with_the_chance_it_was_dealt_with() -> None:
    seeded = Table(table_game("duo-regna", {}), ["random", "random"], 4).finish()
    secret = Table(table_game("duo-regna", {}, seeded=False), ["random", "random"], 4, chance_from="system")
    assert (chance_of(seeded), chance_of(secret.record())) == ("seed", "system")
    game, chance = resumed_game(secret.record())
    assert chance == "system" and game.options["chance"] == "explicit"
    assert Table.resume(secret.record(), game, chance_from=chance).actions == secret.actions


# --- the record keeps the outcome -------------------------------------------------------------


def test_a_finished_record_keeps_its_outcome_and_reads_it_back() -> None:
    record = bots_record()
    outcome = record.replay().outcome()
    assert record.outcome == outcome_fields(outcome) and record.outcome["scores"] == record.scores
    assert MatchRecord.from_json(record.to_json()) == record
    table = Table(regalia.make("duo-regna"), ["random", "random"], 3)
    assert table.record().outcome is None
    finished = table.finish()
    assert finished.outcome == outcome_fields(finished.replay().outcome()) and finished.outcome is not None


def test_a_record_without_an_outcome_still_reads_and_a_bad_one_is_refused() -> None:
    record = bots_record()
    old = dataclasses.replace(record, outcome=None).to_json().replace(', "outcome": null', "")
    assert '"outcome"' not in old and MatchRecord.from_json(old).outcome is None
    with pytest.raises(ValueError, match="outcome is not a JSON object"):
        MatchRecord.from_json(dataclasses.replace(record, outcome=[1]).to_json())  # type: ignore[arg-type]


# --- a recorded game walked for an onlooker ---------------------------------------------------


def test_every_card_open_names_every_move_and_ends_with_the_outcome() -> None:
    record = bots_record()
    replay = Replay(record)
    state = regalia.make("duo-regna").new_state(record.seed)
    for ply, action in enumerate(record.actions):
        move = replay.moves[ply]
        assert (move.ply, move.seat, move.action, move.name) == (
            ply + 1,
            state.current_player,
            action,
            state.action_name(action),
        )
        frame = replay.frame(ply)
        assert frame.observations == {s: state.observation(s) for s in range(2)} and frame.outcome is None
        state.apply(action)
    last = replay.frame(replay.total)
    assert last.outcome == state.outcome() == replay.outcome and last.outcome is not None
    assert last.observations == {s: state.observation(s) for s in range(2)}
    assert (replay.returns, replay.scores) == (record.returns, record.scores)
    assert [f.observations for f in replay.frames()] == [replay.frame(p).observations for p in range(replay.total + 1)]


def test_from_one_seat_only_its_view_and_its_own_choices_are_named() -> None:
    record = bots_record()  # Duo Regna: a seat's chosen card is hidden until both have chosen
    replay = Replay(record, viewer=1)
    open_moves = Replay(record).moves
    assert all(list(replay.frame(p).observations) == [1] for p in (0, 5, replay.total))
    for told, move in zip(replay.moves, open_moves, strict=True):
        if move.seat == 1:
            assert told == move
        else:
            assert (told.seat, told.action, told.name) == (0, None, narrate.public("duo-regna", move.name or ""))
            assert told.name is None
    assert replay.outcome == Replay(record).outcome  # public at the end


def test_from_one_seat_a_public_move_keeps_what_the_table_hears() -> None:
    record = bots_record("duo", seed=2)  # Duo: every move is seen by the whole table
    told = Replay(record, viewer=0).moves
    named = Replay(record).moves
    others = [(t, m) for t, m in zip(told, named, strict=True) if m.seat == 1]
    assert others and all(t.name == m.name and t.action is None for t, m in others)


def test_chance_draws_are_named_with_every_card_open_and_hidden_from_a_seat() -> None:
    game = table_game("duo-regna", {}, seeded=False)
    record = Table(game, ["random", "random"], 6).finish()  # explicit chance, drawn from the seed
    draws = [m for m in Replay(record).moves if m.seat is None]
    assert draws and all(m.action is not None and m.name for m in draws)
    hidden = [m for m in Replay(record, viewer=0).moves if m.seat is None]
    assert [(m.ply, m.action, m.name) for m in hidden] == [(m.ply, None, None) for m in draws]
    assert Replay(record).outcome == Table.resume(record, game).outcome


def test_a_broken_record_is_refused_and_says_where() -> None:
    record = bots_record()
    illegal = dataclasses.replace(record, actions=[*record.actions[:3], 99, *record.actions[4:]])
    with pytest.raises(BrokenRecord, match=r"^move 4 \(99\) is not legal there"):
        Replay(illegal)
    with pytest.raises(BrokenRecord, match="move"):
        Replay(dataclasses.replace(record, actions=[*record.actions, record.actions[-1]]))
    with pytest.raises(BrokenRecord, match="3 agents for 2 seats"):
        Replay(dataclasses.replace(record, agents=["random"] * 3))
    with pytest.raises(BrokenRecord, match="recorded returns"):
        Replay(dataclasses.replace(record, returns=[-r for r in record.returns]))
    assert record.outcome is not None
    with pytest.raises(BrokenRecord, match="recorded outcome"):
        Replay(dataclasses.replace(record, outcome={**record.outcome, "reason": "made_up"}))
    with pytest.raises(ValueError, match="no seat 2"):
        Replay(record, viewer=2)
    with pytest.raises(ValueError, match="0 to"):
        Replay(record).frame(len(record.actions) + 1)


# --- the news after the end -------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1])
def test_the_news_of_the_last_moves_waits_after_the_end_and_never_holds_the_ending(seed: int) -> None:
    table = Table(regalia.make("duo-regna"), ["human", "random"], seed)
    while not table.is_over:
        if table.waiting().kind == "bot":
            table.play_bot()
            continue
        table.take_news(0)
        table.play(0, table.moves(0)[0][0])
    news, ending = table.take_news(0), table.ending(0)
    assert news and ending and not set(news) & set(ending)
    assert any(line.startswith("Dragons: ") for line in news)  # the last round's capture
    assert table.take_news(0) == [] and table.ending(0) == ending
