"""Ctrl-C stops long native work promptly, with KeyboardInterrupt, and leaves Python usable."""

from __future__ import annotations

from tests.interrupt_helpers import interrupted

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
    code, out = interrupted(SCRIPT, 0.5)  # inside the native run
    assert code == 3, out
    assert "3 games after the interrupt" in out
