"""Tournaments and datasets on Ray: the same results as the local run, a dead worker's chunk
retried (no game lost or counted twice), Ctrl-C cancelling the tasks, and clear errors for
a Ray that cannot be reached. One local Ray (2 CPUs, on this machine only) serves the module;
one head started with ``ray start`` and token authentication (reached through 127.0.0.1,
stopped at the end) serves the tests of clusters that run beside the command."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import regalia
from regalia.agents import View
from regalia.core.errors import AgentError
from regalia.matches.executors import RayExecutor
from tests.cli_helpers import run, run_script, script

ray = pytest.importorskip("ray", reason='the Ray tests need Ray: pip install "regalia[ray]" (the test extra has it)')

# Ray's clusters share this machine's ports and /tmp/ray: under pytest-xdist the module's tests
# run on one worker, one after another.
pytestmark = pytest.mark.xdist_group("ray")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """A local Ray for this module's tests (started once: it takes seconds)."""
    root = str(Path(__file__).resolve().parent.parent)
    with pytest.MonkeyPatch.context() as patch:
        # The workers import this module (its agents and chunk functions) by name.
        patch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
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


def test_an_address_where_something_else_listens_fails_within_30_s(tmp_path: Path) -> None:
    with socket.socket() as listener:  # the kernel accepts connections; nothing answers
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        address = f"127.0.0.1:{listener.getsockname()[1]}"
        args = ("simulate", "duo-regna", "-n", "10", "--out", str(tmp_path / "g.parquet"), "--ray-address", address)
        result = run_script(*args, timeout=30)
    assert result.returncode == 1
    assert f"no Ray cluster answers at {address} (something listens there, but not a Ray head)" in result.stderr
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


ROOT = str(Path(__file__).resolve().parent.parent)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def stop_group(process: subprocess.Popen[bytes], grace: float = 10) -> None:
    """Stops the process group that ``process`` leads: SIGTERM, then, after ``grace`` seconds,
    SIGKILL to whatever of the group is left (a head's GCS, raylet and workers)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=grace)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)


class Head:
    """A Ray head started with ``ray start --head`` (the way a cluster is run beside a command),
    with token authentication and its own HOME, reached through 127.0.0.1. (Ray binds its
    ports on every interface and has no loopback-only mode; the token keeps others out.)"""

    def __init__(self, home: Path) -> None:
        self.port, self.token, self.home = free_port(), uuid.uuid4().hex, home
        self.address = f"127.0.0.1:{self.port}"


@pytest.fixture(scope="module")
def head(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Head]:
    home = tmp_path_factory.mktemp("head-home")
    head = Head(home)
    env = {**os.environ, "HOME": str(home), "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": head.token}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [ROOT, os.environ.get("PYTHONPATH")]))
    ray_cli = str(Path(sys.executable).parent / "ray")
    command = [ray_cli, "start", "--head", "--block", f"--port={head.port}", "--num-cpus=1"]
    command += ["--include-dashboard=false", "--disable-usage-stats"]
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 90
        while True:
            assert process.poll() is None, "ray start --head exited"
            assert time.monotonic() < deadline, "the Ray head did not answer in 90 s"
            try:
                socket.create_connection(("127.0.0.1", head.port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.5)
        time.sleep(3)  # the GCS answers before the head's raylet has registered
        yield head
    finally:
        stop_group(process)
        # `ray start` names its cluster for discovery here; ours is gone.
        current = Path("/tmp/ray/ray_current_cluster")
        if current.exists() and current.read_text().strip().endswith(f":{head.port}"):
            current.unlink()


def user_env(home: Path, **env: str) -> dict[str, str]:
    """The environment of a user of this machine: a HOME of their own (where Ray keeps its
    token), RAY_AUTH_* and RAY_ADDRESS only as ``env`` gives them."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("RAY_AUTH", "RAY_ADDRESS"))}
    clean["PYTHONPATH"] = os.pathsep.join(filter(None, [ROOT, os.environ.get("PYTHONPATH")]))
    return {**clean, "HOME": str(home), **env}


def regalia_as_user(*args: str, home: Path, timeout: float = 120, **env: str) -> Any:
    """``regalia ARGS`` run as a user of this machine (see ``user_env``)."""
    command = [*script(), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=user_env(home, **env))


#: Where RayExecutor plays, asked in a fresh process (this one has the module's Ray open).
WHERE = """
import json, ray
from regalia.matches.executors import RayExecutor
seen = []
for executor in (RayExecutor(workers=2), RayExecutor()):
    with executor:
        seen.append([ray.get_runtime_context().gcs_address, executor.workers, ray.cluster_resources()["CPU"]])
print(json.dumps(seen))
"""


def test_a_cluster_running_here_does_not_capture_ray(head: Head, tmp_path: Path) -> None:
    found = subprocess.run(
        [sys.executable, "-c", WHERE], capture_output=True, text=True, timeout=240, env=user_env(tmp_path)
    )
    assert found.returncode == 0, found.stderr
    two, every = json.loads(found.stdout.strip().splitlines()[-1])
    assert not two[0].endswith(f":{head.port}") and two[1:] == [2, 2.0]
    assert not every[0].endswith(f":{head.port}") and every[1] == every[2]
    args = ("tournament", "duo-regna", "--agents", "rules,random", "-n", "4")
    result = regalia_as_user(*args, "--ray", "--workers", "2", home=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == run(*args).stdout


@pytest.mark.parametrize("where", ["environment", "file"])
def test_ray_address_reaches_a_head_that_asks_for_its_token(head: Head, tmp_path: Path, where: str) -> None:
    env = {"RAY_AUTH_TOKEN": head.token} if where == "environment" else {}
    if where == "file":
        (tmp_path / ".ray").mkdir()
        (tmp_path / ".ray" / "auth_token").write_text(head.token)
    out = tmp_path / "g.parquet"
    args = ("simulate", "duo-regna", "-n", "20", "--seed", "3", "--out", str(out), "--ray-address", head.address)
    result = regalia_as_user(*args, "--json", home=tmp_path, **env)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["games"] == 20 and out.exists()


@pytest.mark.parametrize(
    ("token", "message"),
    [("wrong", "refuses the token (from RAY_AUTH_TOKEN)"), (None, "asks for a token, and this machine has none")],
)
def test_a_head_that_refuses_the_token_fails_within_30_s_before_any_game(
    head: Head, tmp_path: Path, token: str | None, message: str
) -> None:
    out = tmp_path / "out" / "g.parquet"
    out.parent.mkdir()
    env = {"RAY_AUTH_TOKEN": token} if token else {}
    args = ("simulate", "duo-regna", "-n", "10", "--out", str(out), "--ray-address", head.address)
    result = regalia_as_user(*args, home=tmp_path, timeout=30, **env)
    assert result.returncode == 1
    assert f"the Ray cluster at {head.address} {message}" in result.stderr
    assert os.listdir(out.parent) == []
