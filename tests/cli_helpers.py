"""Driving the ``regalia`` command line in tests: Typer's runner, and the real script."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from regalia.cli import app

runner = CliRunner()


def run(*args: str, input: str | None = None, **env: str) -> Any:
    """``regalia ARGS`` in-process with ``input`` on stdin; the result has ``exit_code``,
    ``stdout`` and ``stderr``."""
    return runner.invoke(app, list(args), input=input, env={"COLUMNS": "80", **env}, catch_exceptions=False)


def script() -> list[str]:
    """The installed ``regalia`` entry point (or the same ``main`` run by this Python)."""
    found = shutil.which("regalia", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-c", "from regalia.cli import main; main()"]


def run_script(*args: str, input: str = "", timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``regalia ARGS`` as a real subprocess, stdin fed from ``input``."""
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR")}
    return subprocess.run(
        [*script(), *args], input=input, capture_output=True, text=True, timeout=timeout, env={**env, "COLUMNS": "80"}
    )
