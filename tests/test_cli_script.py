"""The real ``regalia`` script in a subprocess: a whole game on stdin, Ctrl-C, exit codes."""

from __future__ import annotations

import json
import signal
import subprocess
import time

from regalia.cli import exits
from regalia.registry.records import MatchRecord
from tests.cli_helpers import run_script, script


def test_the_readme_run_line_prints_a_real_match() -> None:
    result = run_script("play", "duo-regna", "--seats", "random,random", "--seed", "1")
    assert result.returncode == exits.OK, result.stderr
    assert "   1. seat 0 (random) plays " in result.stdout
    assert "Duo Regna: over after" in result.stdout and "wins" in result.stdout


def test_a_whole_human_game_through_the_script(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "game.json"
    result = run_script(
        "play",
        "duo-regna",
        "--seats",
        "human,random",
        "--seed",
        "11",
        "--record",
        str(path),
        input="oops\n" + "a\n" * 400,
    )
    assert result.returncode == exits.OK, result.stderr
    assert "refused: 'oops' is not a move here" in result.stdout
    record = MatchRecord.from_json(path.read_text())
    assert record.returns and "over after" in result.stdout
    assert "\x1b[" not in result.stdout  # not a terminal: plain


def test_end_of_input_and_usage_errors_have_their_codes() -> None:
    eof = run_script("play", "duo-regna", "--seats", "human,random", input="")
    assert eof.returncode == exits.ABANDONED and "Traceback" not in eof.stderr
    bad = run_script("play", "no-such-game")
    assert bad.returncode == exits.USAGE and "unknown game" in bad.stderr and "Traceback" not in bad.stderr
    missing = run_script("replay", "/nonexistent/match.json")
    assert missing.returncode == exits.ERROR


def test_ctrl_c_at_the_prompt_exits_130_without_a_traceback() -> None:
    process = subprocess.Popen(
        [*script(), "play", "duo-regna", "--seats", "human,random"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    # Generous: on a loaded machine the interpreter alone may take many seconds to start, and
    # a Ctrl-C before the prompt is another test's matter.
    deadline = time.monotonic() + 120
    seen = ""
    while "seat 0> " not in seen and time.monotonic() < deadline:
        seen += process.stdout.read(1)
    assert "seat 0> " in seen, f"no prompt within two minutes: {seen!r}"
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == exits.INTERRUPTED
    assert "interrupted" in err and "Traceback" not in err


def test_simulate_json_from_the_script_parses() -> None:
    result = run_script("simulate", "duo-regna", "-n", "4", "--json")
    assert result.returncode == exits.OK
    summary = json.loads(result.stdout)
    assert summary["games"] == 4 and len(summary["seats"]) == 2
    assert result.stderr == ""  # no progress drawn when stderr is not a terminal


def test_ctrl_c_stops_a_long_bot_search_at_once() -> None:
    # The bot in seat 0 searches a hundred million iterations (many minutes) for its first
    # move, right after the introduction.
    process = subprocess.Popen(
        [*script(), "play", "duo-regna", "--seats", "ismcts:iterations=100000000,human", "--seed", "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    assert "you are seat 1" in process.stdout.readline()
    time.sleep(1)  # searching
    assert process.poll() is None
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert time.monotonic() - sent < 5  # a fraction of a second on a quiet machine
    assert process.returncode == exits.INTERRUPTED
    assert "interrupted" in err and "Traceback" not in err


def test_a_session_in_a_terminal_edits_lines_and_completes_moves() -> None:
    import os
    import pty
    import select

    pid, fd = pty.fork()
    if pid == 0:  # the child: the real script on the pseudo-terminal
        os.environ.pop("NO_COLOR", None)
        os.environ.update(COLUMNS="80", TERM="xterm")
        args = [*script(), "play", "duo-regna", "--seats", "human,random", "--seed", "1"]
        os.execv(args[0], args)
    seen, start = b"", 0

    def until(text: bytes) -> None:
        """Reads until ``text`` appears after the last text waited for."""
        nonlocal seen, start
        deadline = time.monotonic() + 60
        while text not in seen[start:] and time.monotonic() < deadline:
            if not select.select([fd], [], [], 0.2)[0]:
                continue
            try:
                seen += os.read(fd, 4096)
            except OSError:
                break
        if text not in seen[start:]:
            os.kill(pid, signal.SIGKILL)
        assert text in seen[start:], seen[-800:]
        start = seen.index(text, start) + len(text)

    until(b"seat 0> ")
    os.write(fd, b"een\x1b[D\x1b[D\x1b[Dqu\r")  # "een", three steps left, "qu": "queen"
    until(b"You chose 6 queen")
    until(b"seat 0> ")
    os.write(fd, b"6 k\t\r")  # Tab completes "6 k" to "6 king"
    until(b"You chose 6 king")
    until(b"seat 0> ")
    os.write(fd, b"\x04")  # Ctrl-D: the end of the input, then the offer to save
    until(b"Save the game before you go?")
    os.write(fd, b"\x04")
    until(b"Game left unfinished")
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    assert os.waitstatus_to_exitcode(status) == exits.ABANDONED
    assert b"\x1b[" in seen  # a terminal: colours
