"""Ctrl-C stops long native work promptly, with KeyboardInterrupt, and leaves Python usable."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

SCRIPT = """
import sys, regalia
game = regalia.make("regnum")
print("started", flush=True)
try:
    game.random_playouts(10**12, seed=1, threads=2)
except KeyboardInterrupt:
    print(game.random_playouts(3, seed=1)["games"], "games after the interrupt", flush=True)
    sys.exit(3)
"""


def test_ctrl_c_stops_native_playouts() -> None:
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "started"
    time.sleep(0.5)  # inside the native run
    proc.send_signal(signal.SIGINT)
    try:
        out, _ = proc.communicate(timeout=60)  # a trillion games would take years
    finally:
        proc.kill()
    assert proc.returncode == 3, out
    assert "3 games after the interrupt" in out
