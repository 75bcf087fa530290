"""``regalia solve`` and ``regalia exploitability``: solving and measuring from the command
line, bad input refused with exit 2, Ctrl-C keeping what was learnt."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

import pytest

import regalia
from regalia import cfr, exact
from tests.cli_helpers import run, script

#: Duo Regna with two dragons to capture in two rounds: 11,847 histories with explicit chance.
SMALL = ["duo-regna", "-o", "dragon_deck=2,1", "-o", "dragons_to_win=2", "-o", "max_rounds=2"]
SMALL_OPTIONS = {"dragon_deck": [2, 1], "dragons_to_win": 2, "max_rounds": 2}


def test_solve_with_cfr_plus_saves_a_policy_the_library_measures_alike(tmp_path: Path) -> None:
    out = tmp_path / "small.cfr"
    result = run("solve", *SMALL, "--algorithm", "cfr+", "-n", "200", "--out", str(out), "--measure", "--json")
    assert result.exit_code == 0, result.stderr
    shown = json.loads(result.stdout)
    assert shown["method"] == "cfr+" and shown["iterations"] == 200 and shown["options"]["chance"] == "explicit"
    policy = cfr.Policy.load(out)
    assert shown["exploitability"] == pytest.approx(policy.exploitability(), abs=1e-12)
    direct = cfr.solve(regalia.make("duo-regna", chance="explicit", **SMALL_OPTIONS), method="cfr+", iterations=200)
    assert policy.exploitability() == pytest.approx(direct.exploitability(), abs=1e-6)


def test_a_seeded_mccfr_policy_is_measured_from_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "seeded.cfr"
    solved = run("solve", *SMALL, "--algorithm", "mccfr-external", "-n", "500", "--out", str(out))
    assert solved.exit_code == 0, solved.stderr
    assert cfr.Policy.load(out).options["chance"] == "seeded"
    measured = run("exploitability", *SMALL, str(out), "--json")
    assert measured.exit_code == 0, measured.stderr
    value = json.loads(measured.stdout)["exploitability"]
    assert value == pytest.approx(cfr.Policy.load(out).exploitability(), abs=1e-12)


def test_exploitability_of_a_built_in_agent_with_its_lines(tmp_path: Path) -> None:
    result = run("exploitability", *SMALL, "first-legal", "--json")
    assert result.exit_code == 0, result.stderr
    shown = json.loads(result.stdout)
    game = regalia.make("duo-regna", chance="explicit", **SMALL_OPTIONS)
    assert shown["exploitability"] == pytest.approx(exact.exploitability(game, "first-legal").exploitability)
    assert shown["histories"] == 11_847 and shown["information_sets"] == 328
    assert [line["seat"] for line in shown["lines"]] == [0, 1]
    assert all(line["moves"][0].startswith("chance: ") for line in shown["lines"])
    table = run("exploitability", *SMALL, "random")
    assert table.exit_code == 0 and "exploitability 0.416667" in table.stdout and "seat 1:" in table.stdout


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["exploitability", "duo", "random"], "more than"),  # the whole deck: refused before any walk
        (["exploitability", *SMALL, "nobody"], "unknown agent"),
        (["exploitability", *SMALL, "random", "--chance", "seeded"], "explicit"),
        (["exploitability", *SMALL, "random", "-o", "dragons_to_win=0"], "dragons_to_win"),
        (["solve", *SMALL, "--algorithm", "cfr+", "--out", "x.cfr"], "--iterations, --seconds"),
        (["solve", *SMALL, "--algorithm", "cfr+", "-n", "2", "--chance", "seeded", "--out", "x.cfr"], "explicit"),
        (["solve", "duo-regna", "--algorithm", "cfr+", "-n", "2", "--out", "x.cfr"], "histories"),
        (["solve", *SMALL, "--algorithm", "sarsa", "-n", "2", "--out", "x.cfr"], "sarsa"),
    ],
)
def test_bad_input_is_refused_with_exit_2(args: list[str], says: str, tmp_path: Path) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert says in result.stderr + result.stdout


def test_a_policy_file_for_other_options_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "small.cfr"
    assert run("solve", *SMALL, "--algorithm", "cfr+", "-n", "5", "--out", str(out)).exit_code == 0
    result = run("exploitability", "duo-regna", "-o", "dragon_deck=1,1", "-o", "max_rounds=1", str(out))
    assert result.exit_code == 2 and "options" in result.stderr


def test_ctrl_c_keeps_what_was_learnt(tmp_path: Path) -> None:
    out = tmp_path / "stopped.cfr"
    args = [*SMALL, "--algorithm", "mccfr-external", "--seconds", "120", "--out", str(out)]
    process = subprocess.Popen([*script(), "solve", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(4)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert "interrupted" in stderr and str(out) in stdout
    policy = cfr.Policy.load(out)
    assert policy.info["interrupted"] and policy.info["iterations"] > 0 and len(policy) > 0
