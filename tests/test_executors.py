"""Executors without Ray: chunks come back in order, errors in their turn, a missing extra
is named; these run whether or not the extras are installed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import regalia
from regalia.core.errors import ExecutorError, InvalidArgumentError
from regalia.matches.executors import LocalExecutor, RayExecutor, _token_source, resolve


def square_or_fail(x: int) -> int:
    if x == 3:
        raise InvalidArgumentError(f"chunk {x} failed")
    return x * x


@pytest.mark.parametrize("workers", [1, 2])
def test_chunks_come_back_in_order_and_errors_in_their_turn(workers: int) -> None:
    finished: list[int] = []
    with LocalExecutor(workers) as executor:
        results = executor.map(square_or_fail, [0, 1, 2, 3, 4, 5], finished.append)
        assert [next(results) for _ in range(3)] == [0, 1, 4]
        with pytest.raises(InvalidArgumentError, match="chunk 3 failed"):
            next(results)
    assert {0, 1, 2} <= set(finished)


def test_executor_names_resolve() -> None:
    assert isinstance(resolve(None, 3), LocalExecutor) and resolve(None, 3).workers == 3
    assert isinstance(resolve("local"), LocalExecutor)
    assert isinstance(resolve("ray"), RayExecutor) and resolve("ray").address is None
    assert resolve("127.0.0.1:6379").address == "127.0.0.1:6379"  # type: ignore[attr-defined]
    assert resolve("auto", 2).address == "auto"  # type: ignore[attr-defined]
    mine = LocalExecutor(2)
    assert resolve(mine) is mine
    with pytest.raises(InvalidArgumentError):
        resolve(7)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError):
        LocalExecutor(0)


def test_a_missing_ray_is_named_before_any_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails
    played = []

    def agent(view: object) -> int:
        played.append(1)
        return int(view.legal_actions[0])  # type: ignore[attr-defined]

    with pytest.raises(ExecutorError, match=r'pip install "regalia\[ray\]"'):
        regalia.tournament("duo-regna", [agent, agent], games=2, executor="ray", progress=False)
    assert played == []


def test_a_missing_pyarrow_is_named_before_any_game(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(InvalidArgumentError, match=r'pip install "regalia\[parquet\]"'):
        regalia.simulate("duo-regna", games=2, out=f"{tmp_path}/games.parquet")


def test_an_executor_handed_to_several_runs_keeps_its_workers() -> None:
    with LocalExecutor(2) as executor:
        pool = executor._pool
        one = regalia.tournament("duo-regna", ["rules", "random"], games=4, executor=executor, progress=False)
        two = regalia.tournament("duo-regna", ["rules", "random"], games=4, executor=executor, progress=False)
        assert executor._pool is pool is not None
        assert one.records == two.records
    assert executor._pool is None


def test_the_ray_token_is_taken_where_ray_takes_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert _token_source() is None
    (tmp_path / ".ray").mkdir()
    (tmp_path / ".ray" / "auth_token").write_text("from-the-file")
    assert _token_source() == str(tmp_path / ".ray" / "auth_token")
    monkeypatch.setenv("RAY_AUTH_TOKEN_PATH", str(tmp_path / "elsewhere"))
    assert _token_source() == str(tmp_path / "elsewhere")
    monkeypatch.setenv("RAY_AUTH_TOKEN", "from-the-environment")
    assert _token_source() == "RAY_AUTH_TOKEN"
