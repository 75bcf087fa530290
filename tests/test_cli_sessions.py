"""Whole sessions at the terminal, per game: the introduction, the narration of moves, the
end screen with its reason and breakdown, the prompt's commands, and bad seat specs."""

from __future__ import annotations

from pathlib import Path

import pytest

import regalia
from regalia.cli import exits
from regalia.cli.app import COMMANDS
from regalia.registry.records import MatchRecord
from tests.cli_helpers import run

#: Per game: seats, seed, the answer that takes the first move listed, and lines the
#: narration must contain somewhere in the game.
SESSIONS = {
    "duo-regna": (["human", "random"], 3, "a", ["You chose", "You played", "the dragon moves to"]),
    "duo": (["human", "random"], 2, "1", ["You play", "the turn", "The piles as left:", "Scores: "]),
    "duell-der-drachen": (
        ["human", "random"],
        1,
        "1",
        ["You play", "The opponent plays", "the display card", "marker stays", "Markers: "],
    ),
    "regine": (["human", "random", "random"], 1, "1", ["The round is scored; the combinations:", "Queens: "]),
    "regnum": (["human", "random"], 1, "1", ["You draw 2 cards blind: ", "New in the line-up", "Scores: "]),
}
#: The ending's first words per game.
ENDINGS = {
    "duo-regna": "The duel ends: ",
    "duo": "The game ends: ",
    "duell-der-drachen": "",
    "regine": "The game ends: ",
    "regnum": "Scores (characters + wizards + Jesters bonus + standards):",
}
#: What each game's final scores count, as the ending says.
UNITS = {"duo-regna": "dragons", "duell-der-drachen": "markers"}


def said_result(record: MatchRecord, names: list[str]) -> str:
    """The line that must end the game's ending, written from the record's returns and
    scores (not from the outcome the table reads): who won and the final scores."""
    won = [k for k, r in enumerate(record.returns) if r > 0]
    if not won:
        who = "It is a draw."
    elif len(won) == 1:
        who = "You win." if won == [0] else f"{names[won[0]].capitalize()} wins."
    else:
        together = ", ".join(names[k] for k in won[:-1]) + " and " + names[won[-1]]
        who = f"{together[0].upper()}{together[1:]} share the win."
    scores = ", ".join(f"{names[k]} {x}" for k, x in enumerate(record.scores))
    return f"{who} Final scores ({UNITS.get(record.game, 'points')}): {scores}."


@pytest.mark.parametrize("game", sorted(SESSIONS))
def test_a_whole_game_is_introduced_narrated_and_explained(game: str, tmp_path: Path) -> None:
    seats, seed, first, lines = SESSIONS[game]
    path = tmp_path / "game.json"
    result = run(
        "play", game, "--seats", ",".join(seats), "--seed", str(seed), "--record", str(path), input=f"{first}\n" * 3000
    )
    assert result.exit_code == exits.OK, result.stdout[-2000:]
    out = result.stdout
    title = regalia.make(game).title
    assert out.startswith(f"{title}: you are seat 0; ")
    for line in lines:
        assert line in out, line
    assert ENDINGS[game] in out
    record = MatchRecord.from_json(path.read_text())
    names = ["you"] + (["the opponent"] if len(seats) == 2 else [f"seat {k}" for k in range(1, len(seats))])
    assert said_result(record, names) in " ".join(out.split()), said_result(record, names)
    assert f"over after {len(record.actions)} moves" in out
    assert "hidden from you" not in out and "played play" not in out


def test_duell_der_drachen_tells_why_the_game_ended() -> None:
    # Every ending of a few games names its reason: the five markers, no legal move, or the
    # final count with one line per territory.
    reasons = set()
    for seed in range(6):
        out = run("play", "duell", "--seats", "human,random", "--seed", str(seed), input="1\n" * 400).stdout
        if "all 5 markers" in out:
            reasons.add("markers")
        elif "no legal move" in out:
            reasons.add("stuck")
        else:
            assert "the final count" in out and out.count(" -> ") >= 5
            reasons.add("count")
    assert reasons


def test_regnum_shows_costs_and_backs_out_of_a_purchase() -> None:
    state = regalia.make("regnum").new_state(1)
    while not any(state.action_name(a).startswith("buy ") for a in state.legal_actions()):
        state.apply(state.legal_actions()[0])
    result = run("play", "regnum", "--seats", "human,random", "--seed", "1", input="back\n1\nbuy\nback\nquit\nn\n")
    out = result.stdout
    assert result.exit_code == exits.ABANDONED
    assert "refused: 'back' backs out of a purchase" in out
    assert "you backed out of the purchase" in out
    assert "line-up: 1:" in out and "(" in out.split("line-up: 1:")[1].split("\n")[0]


def test_quit_offers_to_save(tmp_path: Path) -> None:
    save = tmp_path / "left.json"
    result = run("play", "duo-regna", "--seats", "human,random", "--seed", "2", input=f"a\nquit\n{save}\n")
    assert result.exit_code == exits.ABANDONED
    assert "Save the game before you go?" in result.stdout
    assert f"it is saved: regalia resume {save}" in result.stdout
    assert len(MatchRecord.from_json(save.read_text()).actions) == 2
    declined = run("play", "duo-regna", "--seats", "human,random", "--seed", "2", input="a\nquit\nn\n")
    assert "Game left unfinished (you left the game)" in declined.stdout


def test_the_end_of_input_offers_to_save_and_leaves_when_nobody_answers() -> None:
    result = run("play", "duo-regna", "--seats", "human,random", "--seed", "2", input="a\n")
    assert result.exit_code == exits.ABANDONED
    assert "Save the game before you go?" in result.stdout and "Game left unfinished (the input ended)" in result.stdout


def test_short_labels_of_the_board_are_moves() -> None:
    result = run(
        "play", "duo-regna", "--seats", "human,random", "--seed", "1", "--json", input="6Q\n6k\n" + "a\n" * 400
    )
    assert result.exit_code == exits.OK
    record = MatchRecord.from_json(result.stdout.splitlines()[-1])
    state = regalia.make("duo-regna").new_state(1)
    assert state.action_name(record.actions[0]) == "6 queen"


def test_every_prompt_command_answers(tmp_path: Path) -> None:
    save = tmp_path / "s.json"
    commands = f"help\nmoves\nboard\nhint\nsave {save}\nundo\nback\nquit\n"
    result = run("play", "duo-regna", "--seats", "human,random", "--seed", "4", input=commands)
    out = result.stdout
    assert "Tab completes move names" in out and " a) X" in out and "hint (" in out
    assert out.count("Dragons won") == 2  # the board, then the board again
    assert f"saved to {save}" in out and "refused: there is no move of yours" in out
    assert "refused: 'back' backs out of a purchase" in out


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        ("random,ismcts:iters=5", "unknown option 'iters' for agent 'ismcts'; its options: iterations"),
        ("random,ismcts:iterations=0", "iterations"),
        ("random,nobody", "unknown agent 'nobody'; seats can be: human, random"),
        ("random", "1 seat was given"),
    ],
)
def test_bad_seats_stop_before_the_game_with_exit_2(seats: str, message: str) -> None:
    for command in ("play", "watch"):
        result = run(command, "duo-regna", "--seats", seats, "--seed", "1")
        assert result.exit_code == exits.USAGE, result.output
        assert message in result.stderr
        assert "over after" not in result.stdout and "plays" not in result.stdout


def test_the_library_infers_the_player_count_from_the_seats_like_the_command_line() -> None:
    record = regalia.play("regine", ["rules", "random"], seed=3)
    assert record.options["players"] == 2 and len(record.returns) == 2
    cli = run("play", "regine", "--seats", "rules,random", "--seed", "3", "--json")
    assert MatchRecord.from_json(cli.stdout).actions == record.actions
    with pytest.raises(regalia.core.errors.InvalidArgumentError):
        regalia.play("duo-regna", ["random"] * 3)


def test_help_shows_metavars_not_types() -> None:
    out = run("play", "--help").stdout
    assert "SEATS" in out and "KEY=VALUE" in out and "<list" not in out and "TEXT" not in out


@pytest.mark.parametrize("args", [["--help"], *([name, "--help"] for name, _, _ in COMMANDS)])
def test_flags_show_no_value_type_in_help(args: list[str]) -> None:
    out = run(*args).stdout
    assert "--help" in out and "<bool>" not in out


@pytest.mark.parametrize(
    "args",
    [
        ["play", "duo", "--seats", "solver,human"],
        ["watch", "duo", "--seats", "random,solver"],
        ["simulate", "duo", "--seats", "solver,random", "-n", "1"],
        ["tournament", "duo", "--agents", "rules,solver", "-n", "1"],
        ["gauntlet", "duo", "--agent", "solver", "-n", "1"],
    ],
)
def test_an_agent_that_does_not_play_the_game_is_refused_before_it_starts(args: list[str]) -> None:
    result = run(*args, "--seed", "1")
    assert result.exit_code == exits.USAGE, result.output
    assert "the 'solver' agent plays only duo-regna, not duo" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "regne"], "unknown game 'regne'; did you mean 'regine'?"),
        (["play", "duel"], "did you mean 'duell-der-drachen'?"),
        (["play", "duo", "--seats", "radnom,human"], "unknown agent 'radnom'; did you mean 'random'?"),
        (["watch", "duo", "--seats", "rules,ismtcs"], "did you mean 'ismcts'?"),
        (["play", "zzzz"], "unknown game 'zzzz'; games: duo-regna"),
    ],
)
def test_a_misspelt_name_gets_a_did_you_mean(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.exit_code == exits.USAGE and message in result.stderr


def test_returns_in_the_result_table_are_rounded() -> None:
    out = run("play", "duo", "--seats", "random*4", "--seed", "1", "--no-color").stdout
    assert "-0.333 " in out and "0.3333" not in out


def test_watch_draws_every_board_from_one_seat() -> None:
    out = run("watch", "duo-regna", "--seats", "random,random", "--seed", "1", "--delay", "0").stdout
    boards = [line for line in out.splitlines() if "board of seat" in line]
    assert boards and all("board of seat 0" in line for line in boards)


def test_watch_tells_what_each_move_did_and_why_the_game_ended() -> None:
    out = run("watch", "duo-regna", "--seats", "random,random", "--seed", "2", "--delay", "0", "--no-color").stdout
    assert "      You chose 5, face down; the opponent chooses now." in out
    assert "      You played 5, the opponent 6 king: the opponent wins the round" in out
    end = out[out.index("final board of seat 0") :]
    assert "The duel ends: 4 dragons win the duel." in end
    assert "You win. Final scores (dragons): you 5, the opponent 3." in end


def test_watch_with_a_view_tells_the_moves_from_that_seat() -> None:
    out = run("watch", "duo-regna", "--seats", "random,random", "--seed", "2", "--delay", "0", "--view", "1").stdout
    assert "      The opponent chose a card, face down.\n" in out and "      You chose 6 king.\n" in out
    assert "The opponent wins. Final scores (dragons): the opponent 5, you 3." in " ".join(out.split())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_regnums_breakdown_adds_up_to_the_score(players: int) -> None:
    import random

    from regalia.table.narrate import Seats
    from regalia.table.narrate.regnum import breakdown

    game = regalia.make("regnum", players=players)
    for seed in range(4):
        state, pick = game.new_state(seed), random.Random(seed)
        while not state.is_terminal:
            state.apply(pick.choice(state.legal_actions()))
        parts = breakdown(state.observation(0), Seats(0, ["random"] * players, game.options))
        assert [sum(p.values()) for p in parts] == state.scores()


def test_a_bad_option_of_best_is_caught_for_the_game_before_it_starts() -> None:
    result = run("play", "duo", "--seats", "random,best:iters=5", "--seed", "1")
    assert result.exit_code == exits.USAGE and "iters" in result.stderr and "its options: iterations" in result.stderr


def test_the_command_line_refuses_explicit_chance_before_the_game() -> None:
    result = run("play", "duo-regna", "--seats", "random,random", "-o", "chance=explicit")
    assert result.exit_code == exits.USAGE and "seeded games only" in result.stderr
