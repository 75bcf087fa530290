"""Tournaments and datasets on Ray: the same results as the local run, a dead worker's chunk
retried (no game lost or counted twice), Ctrl-C cancelling the tasks, and clear errors for
a Ray that cannot be reached. One local Ray (2 CPUs, on this machine only) serves the module."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import regalia
from regalia.agents import View
from regalia.errors import AgentError
from regalia.executors import RayExecutor
from tests.cli_helpers import run, run_script

ray = pytest.importorskip("ray", reason='the Ray tests need Ray: pip install "regalia[ray]" (the test extra has it)')


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """A local Ray for this module's tests (started once: it takes seconds)."""
    root = str(Path(__file__).resolve().parent.parent)
    with pytest.MonkeyPatch.context() as patch:
        # The workers import this module (its agents and chunk functions) by name.
        patch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    yield
    ray.shutdown()


def test_a_tournament_on_ray_is_the_local_one(local_ray: None) -> None:
    agents = ["rules", "random"]
    here = regalia.tournament("duo-regna", agents, games=30, seed=4, progress=False)
    there = regalia.tournament("duo-regna", agents, games=30, seed=4, executor="ray", progress=False)
    assert there.records == here.records
    assert there.standings == here.standings
    assert str(there) == str(here)


def test_a_dataset_on_ray_is_the_local_one(local_ray: None, tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    from tests.test_datasets import read

    for agents in (None, ["rules", "random"]):
        here, there = tmp_path / "here.parquet", tmp_path / "there.parquet"
        a = regalia.simulate("duo-regna", agents, games=150, seed=9, out=here, overwrite=True)
        b = regalia.simulate("duo-regna", agents, games=150, seed=9, out=there, overwrite=True, executor="ray")
        assert read(there).equals(read(here))
        assert b.as_json()["seats"] == a.as_json()["seats"]


class DiesOnce:
    """Plays a fixed pattern, but kills its own worker process at its ``step``-th move of a
    game, once per ``marker`` file (a tournament copies the agent afresh for every game)."""

    def __init__(self, marker: str, step: int = 5) -> None:
        self.marker, self.step, self.moves = marker, step, 0
        self.name = "dies-once"

    def act(self, view: View) -> int:
        self.moves += 1
        if self.moves >= self.step and not os.path.exists(self.marker):
            Path(self.marker).write_text(str(os.getpid()))
            os._exit(1)
        return int(view.legal_actions[self.moves % len(view.legal_actions)])


def test_a_dead_worker_is_retried_and_no_game_is_lost_or_counted_twice(local_ray: None, tmp_path: Path) -> None:
    marker = str(tmp_path / "died")
    agents = {"dies-once": DiesOnce(marker), "rules": "rules"}
    there = regalia.tournament("duo-regna", agents, games=24, seed=8, executor="ray", progress=False)
    assert os.path.exists(marker), "no worker died"
    assert int(Path(marker).read_text()) != os.getpid()
    here = regalia.tournament("duo-regna", agents, games=24, seed=8, progress=False)
    assert len(there.records) == 24
    assert there.records == here.records
    assert [s.games for s in there.standings] == [24, 24]


def slow_chunk(args: tuple[str, int]) -> int:
    folder, i = args
    time.sleep(1.5)
    Path(folder, str(i)).write_text("done")
    return i


def test_stopping_early_cancels_the_ray_tasks(local_ray: None, tmp_path: Path) -> None:
    def interrupt(i: int) -> None:
        raise KeyboardInterrupt

    with RayExecutor() as executor, pytest.raises(KeyboardInterrupt):
        list(executor.map(slow_chunk, [(str(tmp_path), i) for i in range(8)], interrupt))
    time.sleep(4)
    # Two CPUs: chunks 0 and 1 ran; the two more that were submitted were cancelled.
    assert len(os.listdir(tmp_path)) <= 2


def test_the_commands_take_ray(local_ray: None, tmp_path: Path) -> None:
    table = run("tournament", "duo-regna", "--agents", "rules,random", "-n", "6", "--ray")
    assert table.exit_code == 0, table.stderr
    assert table.stdout == run("tournament", "duo-regna", "--agents", "rules,random", "-n", "6").stdout
    out = tmp_path / "g.parquet"
    data = run("simulate", "duo-regna", "-n", "70", "--out", str(out), "--ray", "--json")
    assert data.exit_code == 0, data.stderr
    assert out.exists()


@pytest.mark.parametrize(
    ("address", "message"),
    [("127.0.0.1:1", "no Ray cluster answers at 127.0.0.1:1"), ("nowhere", "a Ray address is HOST:PORT")],
)
def test_a_bad_address_fails_before_any_game_and_leaves_no_file(tmp_path: Path, address: str, message: str) -> None:
    out = tmp_path / "g.parquet"
    result = run_script("simulate", "duo-regna", "-n", "10", "--out", str(out), "--ray-address", address, timeout=120)
    assert result.returncode == 1
    assert message in result.stderr
    assert os.listdir(tmp_path) == []


def test_a_ray_that_cannot_start_fails_clearly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(**options: Any) -> None:
        raise RuntimeError("no room for the object store")

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", broken)
    out = tmp_path / "g.parquet"
    result = run("tournament", "duo-regna", "--agents", "rules,random", "-n", "4", "--ray")
    assert result.exit_code == 1
    assert "Ray could not start locally: RuntimeError: no room for the object store" in result.stderr
    sim = run("simulate", "duo-regna", "-n", "4", "--out", str(out), "--ray")
    assert sim.exit_code == 1 and "Ray could not start" in sim.stderr
    assert os.listdir(tmp_path) == []


def test_an_agents_error_on_ray_is_the_same_error(local_ray: None) -> None:
    def broken(view: View) -> int:
        raise RuntimeError("no idea")

    with pytest.raises(AgentError, match="raised RuntimeError: no idea") as caught:
        regalia.tournament("duo-regna", [broken, "random"], games=4, executor="ray", progress=False)
    assert caught.value.seat == 0 and caught.value.record is not None
