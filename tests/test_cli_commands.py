"""The commands other than play: their output, their JSON, their exit codes and help."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import regalia
from regalia.cli import exits
from regalia.cli.app import COMMANDS
from regalia.registry.records import MatchRecord
from tests.cli_helpers import run

ROOT = Path(__file__).resolve().parent.parent


def test_games_lists_every_game_with_players_and_options() -> None:
    result = run("games")
    assert result.exit_code == exits.OK
    for g in regalia.games():
        assert g["name"] in result.stdout and g["title"] in result.stdout
        for option in g["options"]:
            assert option["name"] in result.stdout
    assert json.loads(run("games", "--json").stdout) == regalia.games()


def test_rules_show_the_page_of_the_docs_folder() -> None:
    for g in regalia.games():
        page = (ROOT / "docs" / "rules" / f"{g['name']}.md").read_text(encoding="utf-8")
        raw = run("rules", g["name"], "--raw")
        assert raw.exit_code == exits.OK
        assert raw.stdout == page, "the extension embeds an old page: rebuild it (maturin develop)"
    shown = run("rules", "duoregna")
    assert shown.exit_code == exits.OK
    assert "Duo Regna" in shown.stdout and "Rulings applied" in shown.stdout and "##" not in shown.stdout


def test_every_rules_page_is_embedded() -> None:
    import regalia._core as core

    pages = sorted(p.stem for p in (ROOT / "docs" / "rules").glob("*.md"))
    assert pages and all(core.rules_page(name) is not None for name in pages)
    assert core.rules_page("no-such-game") is None


def test_simulate_sums_up_the_same_games_that_play_plays() -> None:
    result = run("simulate", "duo-regna", "-n", "6", "--seats", "random,random", "--seed", "10", "--json")
    assert result.exit_code == exits.OK
    summary = json.loads(result.stdout)
    wins = [0, 0]
    moves = 0
    for seed in range(10, 16):
        record = json.loads(run("play", "duo-regna", "--seats", "random,random", "--seed", str(seed), "--json").stdout)
        moves += len(record["actions"])
        for seat, ret in enumerate(record["returns"]):
            wins[seat] += ret > 0
    assert [s["wins"] for s in summary["seats"]] == wins
    assert summary["games"] == 6 and summary["mean_moves"] == pytest.approx(moves / 6)
    for s in summary["seats"]:
        assert s["wins"] + s["draws"] + s["losses"] == 6


def test_simulate_prints_a_summary_table() -> None:
    result = run("simulate", "duo-regna", "-n", "3")
    assert result.exit_code == exits.OK
    assert "Duo Regna: 3 games, seeds 0 to 2" in result.stdout
    assert result.stdout.count("random") == 2 and "win rate" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "chess", "-n", "2"], "unknown game 'chess'; games: duo-regna"),
        (["simulate", "duo-regna", "-n", "2", "--seats", "random,robot"], "unknown agent 'robot'"),
        (["simulate", "duo-regna", "-n", "2", "--seats", "human,random"], "simulate is for bots only"),
        (
            ["simulate", "duo-regna", "-n", "2", "--seats", "random*3"],
            "Duo Regna is for 2 players, but 3 seats were given",
        ),
        (["simulate", "duo-regna", "-n", "2", "-o", "dragons_to_win=0"], "dragons_to_win"),
        (["simulate", "duo-regna", "-n", "2", "-o", "nonsense"], "an option is key=value"),
        (["play", "duo-regna", "--seats", "random,random", "-o", "colour=red"], "colour"),
        (["watch", "duo-regna", "--seats", "human,random"], "watch is for bots only"),
    ],
)
def test_bad_arguments_exit_with_2_and_say_why(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.exit_code == exits.USAGE
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_typer_usage_errors_are_2_as_well() -> None:
    assert run("simulate", "duo-regna", "-n", "0").exit_code == exits.USAGE
    assert run("frobnicate").exit_code == exits.USAGE


def record_file(tmp_path: Path, seed: int = 3) -> Path:
    path = tmp_path / "match.json"
    assert (
        run("play", "duo-regna", "--seats", "random,random", "--seed", str(seed), "--record", str(path)).exit_code == 0
    )
    return path


def test_replay_shows_every_move_and_the_recorded_result(tmp_path: Path) -> None:
    path = record_file(tmp_path)
    record = MatchRecord.from_json(path.read_text())
    result = run("replay", str(path))
    assert result.exit_code == exits.OK
    state = regalia.make("duo-regna").new_state(3)
    for ply, action in enumerate(record.actions, 1):
        assert f"{ply:>4}. seat {state.current_player} (random) plays {state.action_name(action)}" in result.stdout
        state.apply(action)
    assert f"over after {len(record.actions)} moves" in result.stdout
    boards = run("replay", str(path), "--boards", "--view", "1")
    assert boards.stdout.count("board of seat 1") == len(record.actions) + 1


def test_replay_json_parses_and_matches_the_record(tmp_path: Path) -> None:
    path = record_file(tmp_path, seed=4)
    record = MatchRecord.from_json(path.read_text())
    data = json.loads(run("replay", str(path), "--json").stdout)
    assert [m["action"] for m in data["moves"]] == record.actions
    assert data["finished"] and data["returns"] == record.returns and data["scores"] == record.scores


def test_replay_refuses_a_corrupt_or_missing_record(tmp_path: Path) -> None:
    path = record_file(tmp_path)
    data = json.loads(path.read_text())
    data["actions"][1] = data["actions"][0] if data["actions"][0] != data["actions"][1] else 99
    data["actions"].insert(2, data["actions"][2])
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    result = run("replay", str(bad))
    assert result.exit_code == exits.ERROR and "is not legal there" in result.stderr
    (tmp_path / "junk.json").write_text("{not json")
    assert "junk.json: not valid JSON" in run("replay", str(tmp_path / "junk.json")).stderr
    (tmp_path / "other.json").write_text('{"seed": 1}')
    other = run("replay", str(tmp_path / "other.json")).stderr
    assert 'other.json: not a Regalia match record: it has no "format"' in other
    assert other.count("not a Regalia match record") == 1
    missing = run("replay", str(tmp_path / "nope.json"))
    assert missing.exit_code == exits.ERROR and "cannot read" in missing.stderr


def test_watch_shows_each_board_then_the_move(tmp_path: Path) -> None:
    path = tmp_path / "watched.json"
    result = run("watch", "duo-regna", "--seats", "random,random", "--seed", "6", "--delay", "0", "--record", str(path))
    assert result.exit_code == exits.OK
    record = MatchRecord.from_json(path.read_text())
    assert result.stdout.count("board of seat") == len(record.actions) + 1
    assert "Duo Regna, seed 6: random, random" in result.stdout
    assert f"over after {len(record.actions)} moves" in result.stdout


@pytest.mark.parametrize("name", [name for name, _, _ in COMMANDS])
def test_every_command_has_help_with_examples(name: str) -> None:
    result = run(name, "--help")
    assert result.exit_code == exits.OK
    examples = result.stdout[result.stdout.index("Examples") :]
    assert f"regalia {name} " in examples


def test_version() -> None:
    assert run("--version").stdout.strip() == f"regalia {regalia.__version__}"


def test_play_between_bots_is_the_librarys_play() -> None:
    result = run("play", "duo-regna", "--seats", "rules,random", "--seed", "3", "--json")
    assert result.exit_code == exits.OK
    assert result.stdout.strip() == regalia.play(regalia.make("duo-regna"), ["rules", "random"], seed=3).to_json()


def test_tournament_standings_are_the_librarys() -> None:
    result = run("tournament", "duo-regna", "--agents", "rules,random", "-n", "6", "--seed", "2", "--json")
    assert result.exit_code == exits.OK
    data = json.loads(result.stdout)
    expected = regalia.tournament(regalia.make("duo-regna"), ["rules", "random"], games=6, seed=2).to_dict()
    assert data["standings"] == expected["standings"] and len(data["records"]) == 6
    table = run("tournament", "duo-regna", "--agents", "rules,random", "-n", "6", "--seed", "2")
    rows = {line.split("|")[1].strip(): line for line in table.stdout.splitlines() if line.startswith("| r")}
    for standing in expected["standings"]:
        w, d, l_ = standing["wins"], standing["draws"], standing["losses"]
        assert f"{w}-{d}-{l_}" in rows[standing["agent"]]


def test_tournament_refuses_people_and_bad_agents() -> None:
    people = run("tournament", "duo-regna", "--agents", "human,random")
    assert people.exit_code == exits.USAGE and "bots only" in people.stderr
    unknown = run("tournament", "duo-regna", "--agents", "rules,genius")
    assert unknown.exit_code == exits.USAGE and "unknown agent 'genius'" in unknown.stderr


@pytest.mark.parametrize("command", [name for name, _, _ in COMMANDS])
def test_help_wraps_its_description_to_the_terminal(command: str) -> None:
    # At 80 columns a paragraph of the description breaks only where the next word would not
    # fit, never at the docstring's own line ends (which left short lines mid-sentence).
    out = run(command, "--help").stdout.splitlines()
    description = out[out.index(next(line for line in out if "Usage:" in line)) + 2 :]
    description = description[: next(i for i, line in enumerate(description) if line.lstrip().startswith("╭"))]
    for line, following in zip(description, description[1:]):
        if line.strip() and following.strip():
            next_word = following.split()[0]
            assert len(line.rstrip()) + 1 + len(next_word) > 80 - 2, f"{command}: broken early: {line!r}"


def move_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if re.match(r"^ +\d+\. ", line)]


def test_watch_tells_every_line_from_one_seat() -> None:
    out = run("watch", "duell", "--seats", "random,random", "--seed", "2", "--delay", "0", "--no-color").stdout
    assert "told from seat 0 (random)" in out and "all hands shown" not in out
    lines = move_lines(out)
    assert lines
    for line in lines:
        if "The opponent (random)" in line:
            assert line.endswith("The opponent (random) moves"), line
        else:
            assert re.search(r"You \(random\): \w+ \d+ face (up|down on \w+)$", line), line
    assert "seat 1" not in "\n".join(lines)


def test_watch_open_shows_all_hands_and_names_every_move() -> None:
    out = run("watch", "duo-regna", "--seats", "random,random", "--seed", "2", "--delay", "0", "--open").stdout
    assert out.splitlines()[1] == "all hands shown: every move named, every seat's board"
    lines = move_lines(out)
    assert lines and all(re.search(r"seat \d \(random\) plays \S", line) for line in lines)
    assert out.count("board of seat 0 (random)") == out.count("board of seat 1 (random)") == len(lines) + 1
    both = run("watch", "duo-regna", "--open", "--view", "1")
    assert both.exit_code == exits.USAGE and "choose one" in both.stderr


def test_replay_shows_all_hands_or_one_seat_and_an_unfinished_game_only_as_unfinished(tmp_path: Path) -> None:
    path = record_file(tmp_path)
    out = run("replay", str(path), "--no-color").stdout
    assert out.startswith("all hands shown: every move named\n")
    assert "final board of seat 0 (random)" in out and "final board of seat 1 (random)" in out
    done = MatchRecord.from_json(path.read_text())
    winner = done.returns.index(1.0)
    said = f"Seat {winner} wins. Final scores (dragons): seat 0 {done.scores[0]}, seat 1 {done.scores[1]}."
    assert said in " ".join(out.split())
    told = run("replay", str(path), "--view", "1", "--no-color").stdout
    assert told.startswith("told from seat 1 (random)")
    assert all(line.endswith("The opponent (random) moves") or "You (random): " in line for line in move_lines(told))
    record = MatchRecord.from_json(path.read_text())
    record.actions, record.returns, record.scores = record.actions[:10], [], []
    cut = tmp_path / "cut.json"
    cut.write_text(record.to_json())
    for view in ([], ["--view", "0"]):
        unfinished = run("replay", str(cut), "--no-color", *view).stdout
        assert f"The game stops after 10 moves, unfinished; continue it with: regalia resume {cut}" in unfinished
        assert "Final scores" not in unfinished and "draw" not in unfinished and "final board" not in unfinished
