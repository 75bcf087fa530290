"""Interrupting long native work in tests: a script run in a fresh Python, then Ctrl-C."""

from __future__ import annotations

import signal
import subprocess
import sys
import time


def interrupted(script: str, wait: float) -> tuple[int, str]:
    """Runs ``script`` in a fresh Python, which prints ``started`` before its long native work;
    ``wait`` seconds after that line (long enough to be inside the native run), sends it
    Ctrl-C (SIGINT). Its exit code and the rest of its output; it must end within a minute
    (the work it was given would take years)."""
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "started"
    time.sleep(wait)
    proc.send_signal(signal.SIGINT)
    try:
        out, _ = proc.communicate(timeout=60)
    finally:
        proc.kill()
    return proc.returncode, out
