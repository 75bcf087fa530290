"""Playing at the terminal as a person would: moves typed on stdin, refusals, hint, undo,
save and resume, several people at one terminal, and nothing hidden shown."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import regalia
from regalia.cli import exits
from regalia.registry.records import MatchRecord
from tests.cli_helpers import run

#: Enough "take the first move listed" answers to finish any Duo Regna game.
FIRST_MOVE_EVERY_TIME = "a\n" * 400


def check_human_took_first_moves(record: MatchRecord, human: int) -> None:
    """Replays ``record``: at each of ``human``'s turns the first legal move was played."""
    state = regalia.make(record.game, **record.options).new_state(record.seed)
    for action in record.actions:
        if state.current_player == human:
            assert action == state.legal_actions()[0]
        state.apply(action)
    assert state.is_terminal
    assert record.returns == state.returns()


def against_a_bot(seed: int, *args: str, input: str, **env: str) -> Any:
    """``regalia play duo-regna`` from ``seed``, a person in seat 0 against a random bot, with
    ``args`` added, ``input`` typed and ``env`` set."""
    return run("play", "duo-regna", "--seats", "human,random", "--seed", str(seed), *args, input=input, **env)


def test_a_whole_game_against_a_bot_from_stdin(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    result = against_a_bot(5, "--record", str(saved), input=FIRST_MOVE_EVERY_TIME)
    assert result.exit_code == exits.OK, result.output
    record = MatchRecord.from_json(saved.read_text())
    assert record.agents == ["human", "random"]
    check_human_took_first_moves(record, human=0)
    assert f"over after {len(record.actions)} moves" in result.stdout
    verdict = "wins" if record.returns[0] > 0 else "loses" if record.returns[0] < 0 else "draws"
    assert any(
        line.split()[:4] == ["│", "0", "│", "human"] or "human" in line and verdict in line
        for line in result.stdout.splitlines()
    )


def test_the_human_may_sit_in_the_second_seat() -> None:
    result = run("play", "duo-regna", "--seats", "random,human", "--seed", "2", "--json", input=FIRST_MOVE_EVERY_TIME)
    assert result.exit_code == exits.OK
    record = MatchRecord.from_json(result.stdout.splitlines()[-1])
    check_human_took_first_moves(record, human=1)


def test_bad_input_is_refused_with_a_reason_and_asked_again() -> None:
    result = against_a_bot(1, "--json", input="zz\n6\n\nqueen\n" + FIRST_MOVE_EVERY_TIME)
    assert result.exit_code == exits.OK
    out = result.stdout
    assert "refused: there is no move 'zz': choose a to i" in out
    assert "refused: '6' could be '6 king' or '6 queen'" in out
    assert "refused: type a move's label" in out
    # four answers at the first prompt: three refused, then "queen" played
    first_turn = out[: out.index("You chose 6 queen")]
    assert first_turn.count("seat 0> ") == 4
    record = MatchRecord.from_json(out.splitlines()[-1])
    assert regalia.make("duo-regna").new_state(1).action_name(record.actions[0]) == "6 queen"


def test_save_then_resume_finishes_the_same_game(tmp_path: Path) -> None:
    save = tmp_path / "save.json"
    left = against_a_bot(9, input=f"c\nb\nsave {save}\nquit\n")
    assert left.exit_code == exits.ABANDONED
    assert f"it is saved: regalia resume {save}" in left.stdout
    saved = MatchRecord.from_json(save.read_text())
    assert len(saved.actions) == 4 and saved.returns == []
    done = tmp_path / "done.json"
    resumed = run("resume", str(save), "--record", str(done), input=FIRST_MOVE_EVERY_TIME)
    assert resumed.exit_code == exits.OK, resumed.output
    assert "resuming Duo Regna after 4 moves" in resumed.stdout
    final = MatchRecord.from_json(done.read_text())
    assert final.actions[:4] == saved.actions and final.seed == 9 and final.returns
    again = run("resume", str(done))
    assert again.exit_code == exits.ERROR and "is over" in again.stderr


def test_undo_is_refused_once_the_bot_has_replied() -> None:
    result = against_a_bot(4, "--json", input="undo\nb\nundo\nc\n" + FIRST_MOVE_EVERY_TIME)
    assert result.exit_code == exits.OK
    assert "refused: there is no move of yours to take back" in result.stdout
    assert "refused: the opponent has moved since, so your last move stands" in result.stdout
    record = MatchRecord.from_json(result.stdout.splitlines()[-1])
    state = regalia.make("duo-regna").new_state(4)
    assert [state.action_name(a) for a in record.actions[:1]] == ["0"]


def test_undo_takes_back_a_step_of_the_turn_and_log_tells_the_game() -> None:
    result = run("play", "duo", "--seats", "human,random", "--seed", "3", input="1\nlog\nundo\nlog\nquit\nn\n")
    assert result.exit_code == exits.ABANDONED
    assert "you took back your last move" in result.stdout
    assert "    1. You " in result.stdout and "nothing has happened yet" in result.stdout


def test_a_forced_move_is_played_for_the_person_unless_asked() -> None:
    moves = "1\n" * 400
    forced = run("play", "regnum", "--seats", "human,random", "--seed", "1", input=moves)
    assert "Your only legal move, end turn, is played for you." in forced.stdout
    asked = run("play", "regnum", "--seats", "human,random", "--seed", "1", "--ask-forced", input=moves)
    assert "played for you" not in asked.stdout and "1) end turn" in asked.stdout


def test_undo_is_refused_between_people() -> None:
    result = run("play", "duo-regna", "--seats", "human,human", "--seed", "4", input="a\n\nundo\nquit\n")
    assert result.exit_code == exits.ABANDONED
    assert "refused: undo is for a game against bots" in result.stdout


def test_hint_names_a_legal_move_of_the_strongest_agent() -> None:
    from regalia.table.seating import strongest_agent

    result = against_a_bot(4, input="hint\nquit\n")
    assert result.exit_code == exits.ABANDONED
    hint = next(line for line in result.stdout.splitlines() if "hint (" in line)
    agent, move = hint.split("hint (", 1)[1].split("): ")
    assert agent == strongest_agent()
    assert move.strip() in {"X", "0", "1", "2", "3", "4", "5", "6 king", "6 queen"}


def test_people_sharing_a_terminal_get_a_hand_over_and_never_see_the_secret_card() -> None:
    result = run("play", "duo-regna", "--seats", "human,human", "--seed", "3", input="5\n\n3\n\nquit\n")
    out = result.stdout
    assert result.exit_code == exits.ABANDONED
    assert "Hand the terminal to seat 1 (human); nobody else should look." in out
    seat1_screen = out[out.index("seat 1, press Enter") : out.index("seat 1> ")]
    assert "The opponent chose a card, face down." in seat1_screen
    assert "The opponent has chosen a card, face down." in seat1_screen
    assert "5" not in seat1_screen.split("The opponent has chosen")[0].split("Round 1")[0]
    seat0_again = out[out.index("seat 0, press Enter") :]
    assert "You played 5, the opponent 3: you win the round (the higher card wins)" in seat0_again
    assert "Last reveal   you 5  against  3" in seat0_again


def test_a_bots_secret_choice_is_never_named_to_the_human() -> None:
    result = run("play", "duo-regna", "--seats", "random,human", "--seed", "8", input="a\n" * 5 + "quit\n")
    lines = result.stdout.splitlines()
    assert sum("The opponent chose a card, face down." in line for line in lines) == 6  # before each prompt
    assert not any("The opponent played" in line for line in lines)


def test_the_end_of_input_leaves_the_game_without_a_traceback() -> None:
    result = against_a_bot(1, input="a\n")
    assert result.exit_code == exits.ABANDONED
    assert "Game left unfinished (the input ended)" in result.stdout
    assert "Traceback" not in result.output


def test_the_json_of_a_game_between_bots_is_its_record() -> None:
    result = run("play", "duo-regna", "--seats", "random,random", "--seed", "1", "--json")
    assert result.exit_code == exits.OK
    record = json.loads(result.stdout)
    assert record["format"] == "regalia-match" and record["seed"] == 1
    assert len(record["returns"]) == 2 and sorted(record["returns"]) in ([-1, 1], [0, 0])


def test_news_names_a_move_only_as_far_as_the_board_shows_it() -> None:
    from regalia.table import narrate

    game = regalia.make("duo-regna")
    state = game.new_state(1)

    def told(viewer: int, action: str) -> list[str]:
        before = state.observation(viewer)
        after = state.clone()
        after.apply(after.parse_action(action))
        mover = state.current_player
        seats = narrate.Seats(viewer, ["human", "random"], game.options)
        return narrate.news("duo-regna", before, after.observation(viewer), seats, action if mover == viewer else None)

    assert told(1, "5") == ["The opponent chose a card, face down."]
    assert told(0, "5") == ["You chose 5, face down; the opponent chooses now."]
    state.apply(state.parse_action("5"))
    assert told(0, "2") == [
        "You played 5, the opponent 2: you win the round (the higher card wins); the dragon moves to your side."
    ]


def test_save_without_a_name_goes_to_the_users_data_folder(tmp_path: Path) -> None:
    result = against_a_bot(9, input="save\nquit\n", XDG_DATA_HOME=str(tmp_path))
    assert result.exit_code == exits.ABANDONED
    saved = list((tmp_path / "regalia" / "saves").glob("duo-regna-*.json"))
    assert len(saved) == 1 and f"saved to {saved[0]}" in " ".join(result.stdout.split())
    assert MatchRecord.from_json(saved[0].read_text()).seed == 9


def test_help_at_the_table_wraps_only_where_the_screen_ends() -> None:
    from regalia.cli.human import HELP, help_text

    wide = help_text(120).splitlines()
    assert len(wide) == len(HELP), "at 120 columns every entry fits on its line"
    narrow = help_text(60).splitlines()
    assert all(len(line) <= 60 for line in narrow) and len(narrow) > len(HELP)
    continued = [line for line in narrow if line.startswith(" " * 16)]
    assert continued and all(line[16] != " " for line in continued), "a wrapped description stays under itself"
