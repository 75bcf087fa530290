"""Trajectory datasets (``regalia.simulate(out=...)``, ``regalia simulate --out``): every row
replays, the same seed gives the same file with any workers, bad paths are refused before
any game is played and no partial file is ever left behind."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import regalia
from regalia.core.errors import AgentError, InvalidArgumentError
from regalia.matches import datasets
from regalia.matches.executors import CHUNKS_IN_FLIGHT_PER_WORKER, _in_order
from tests.cli_helpers import run

pa = pytest.importorskip(
    "pyarrow", reason='datasets need pyarrow: pip install "regalia[parquet]" (the test extra has it)'
)
pq = pytest.importorskip("pyarrow.parquet")
pytest.importorskip("pyarrow.feather")

ROOT = Path(__file__).resolve().parent.parent
GAMES = [g["name"] for g in regalia.games()]


def read(path: Path) -> Any:
    """A dataset's content: dictionary-encoded columns decoded (their dictionaries may be
    numbered differently in each row group) and one chunk per column."""
    table = pa.feather.read_table(path) if path.suffix == ".arrow" else pq.read_table(path)
    for i, kind in enumerate(table.schema.types):
        if pa.types.is_dictionary(kind):
            table = table.set_column(i, table.schema.names[i], table.column(i).cast(pa.string()))
    return table.combine_chunks()


def games_of(table: Any) -> list[dict[str, Any]]:
    """The rows grouped by game, as plain Python."""
    rows = table.to_pylist()
    by_game: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        by_game.setdefault(row["game_id"], []).append(row)
    return [by_game[g] for g in sorted(by_game)]


def check_rows_replay(game: Any, table: Any) -> None:
    """Every game's rows are its steps: replaying the seed and the actions shows the same
    mover, mask, observation and names, and ends with the recorded returns."""
    options = json.dumps(game.options, sort_keys=True)
    for rows in games_of(table):
        state = game.new_state(rows[0]["seed"])
        assert [r["step"] for r in rows] == list(range(len(rows)))
        for row in rows:
            seat = state.current_player
            assert row["player"] == seat
            assert row["legal_mask"] == state.legal_action_mask().tolist()
            assert np.array_equal(
                np.array(row["observation"], dtype=np.float32), state.observation_tensor(seat).ravel()
            )
            assert row["action_name"] == state.action_name(row["action"])
            assert row["options"] == options and row["game"] == game.name
            state.apply(row["action"])
        assert state.is_terminal
        returns = [float(np.float32(r)) for r in state.returns()]
        assert all(r["returns"] == returns and r["player_return"] == returns[r["player"]] for r in rows)


@pytest.mark.parametrize("name", GAMES)
def test_random_games_are_played_natively_and_every_row_replays(name: str, tmp_path: Path) -> None:
    game = regalia.make(name)
    out = tmp_path / "games.parquet"
    result = regalia.simulate(game, games=5, seed=3, out=out)
    table = read(out)
    assert result.native and result.rows == table.num_rows == result.moves
    assert sorted(set(table.column("game_id").to_pylist())) == list(range(5))
    assert set(table.column("agent").to_pylist()) == {"random"}
    check_rows_replay(game, table)


def test_native_random_games_of_a_reference_game_are_refused_clearly() -> None:
    game = regalia.make("duo-regna", backend="reference")
    with pytest.raises(InvalidArgumentError, match="rust backend"):
        next(datasets.random_games(game, 5, 0, 2))


def test_a_block_of_random_games_comes_in_chunks_of_bounded_rows_with_the_same_content() -> None:
    # Long games (Duo's whole games run to thousands of steps) must not all be held at once:
    # a block comes as chunks of whole games in order, each within the row bound unless one
    # game alone is longer, and cutting it so changes no row.
    game = regalia.make("duo")
    whole = list(datasets.random_games(game, 5, 1, 6, rows=10**9))
    cut = list(datasets.random_games(game, 5, 1, 6, rows=1000))
    assert len(whole) == 1 and len(cut) > 1
    for chunk in cut:
        assert chunk.rows <= 1000 or len(chunk.game_moves) == 1
    ids = np.concatenate([c.game_id for c in cut])
    assert ids.tolist() == whole[0].game_id.tolist() and ids[0] == datasets.BLOCK and ids[-1] == datasets.BLOCK + 5
    for column in ("seed", "step", "player", "action", "legal_mask", "observation", "returns"):
        assert np.array_equal(np.concatenate([getattr(c, column) for c in cut]), getattr(whole[0], column)), column
    names = [c.names[i] for c in cut for i in c.name]
    assert names == [whole[0].names[i] for i in whole[0].name]
    assert [m for c in cut for m in c.game_moves] == whole[0].game_moves


def test_the_schema_has_fixed_size_columns_and_the_runs_metadata(tmp_path: Path) -> None:
    game = regalia.make("duo-regna")
    out = tmp_path / "games.parquet"
    regalia.simulate(game, games=3, out=out)
    schema = pq.read_schema(out)
    assert schema.names == list(datasets.COLUMNS)
    assert schema.field("observation").type == pa.list_(pa.float32(), int(np.prod(game.observation_shape)))
    assert schema.field("legal_mask").type == pa.list_(pa.bool_(), game.num_actions)
    assert schema.field("returns").type == pa.list_(pa.float32(), game.num_players)
    meta = json.loads(schema.metadata[b"regalia"])
    assert meta["game"] == "duo-regna" and meta["games"] == 3 and meta["native"] is True
    assert meta["observation_shape"] == list(game.observation_shape)
    # The tensors come out as one numpy block each, with no Python loop.
    observations = read(out).column("observation").combine_chunks()
    block = observations.values.to_numpy().reshape(len(observations), -1)
    assert block.dtype == np.float32 and block.shape[1] == observations.type.list_size


def test_an_arrow_file_holds_the_same_rows_as_a_parquet_file(tmp_path: Path) -> None:
    parquet, arrow = tmp_path / "games.parquet", tmp_path / "games.arrow"
    regalia.simulate("regine", games=3, seed=4, out=parquet)
    regalia.simulate("regine", games=3, seed=4, out=arrow)
    assert pa.ipc.open_file(pa.memory_map(str(arrow))).schema.field("observation").type.list_size == 286
    assert read(arrow).equals(read(parquet))


def test_two_games_files_read_as_one_table_by_their_game_column(tmp_path: Path) -> None:
    duo, regine = tmp_path / "duo.parquet", tmp_path / "regine.arrow"
    regalia.simulate("duo-regna", games=4, seed=1, out=duo)
    regalia.simulate("regine", games=2, seed=1, out=regine, agents=["rules", "random", "random", "random"])
    parts = [read(duo), read(regine)]
    # Each game's tensors have their own width: together they are lists.
    tensors = {"legal_mask": pa.bool_(), "observation": pa.float32(), "returns": pa.float32()}
    for i, part in enumerate(parts):
        for name, kind in tensors.items():
            part = part.set_column(part.schema.get_field_index(name), name, part.column(name).cast(pa.list_(kind)))
        parts[i] = part
    both = pa.concat_tables(parts)
    assert both.num_rows == parts[0].num_rows + parts[1].num_rows
    games = both.column("game").to_pylist()
    assert games == ["duo-regna"] * parts[0].num_rows + ["regine"] * parts[1].num_rows
    for name, part in zip(["duo-regna", "regine"], parts):
        rows = both.filter(pa.compute.equal(both.column("game"), name))
        assert rows.column("options").unique().to_pylist() == [json.dumps(regalia.make(name).options, sort_keys=True)]
        assert rows.column("observation").to_pylist() == part.column("observation").to_pylist()


def test_a_new_file_gets_the_usual_mode_and_a_replaced_one_keeps_its_own(tmp_path: Path) -> None:
    out = tmp_path / "games.parquet"
    umask = os.umask(0o022)
    try:
        regalia.simulate("duo-regna", games=1, out=out)
    finally:
        os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o644
    out.chmod(0o600)
    regalia.simulate("duo-regna", games=1, out=out, overwrite=True)
    assert out.stat().st_mode & 0o777 == 0o600


def test_the_same_seed_gives_the_same_rows_whatever_the_workers(tmp_path: Path) -> None:
    # 130 games cross two seeding blocks; with two workers the chunks are cut differently.
    one, two, other = tmp_path / "one.parquet", tmp_path / "two.parquet", tmp_path / "other.parquet"
    regalia.simulate("duo-regna", games=130, seed=11, out=one)
    regalia.simulate("duo-regna", games=130, seed=11, out=two, workers=2)
    regalia.simulate("duo-regna", games=130, seed=12, out=other)
    assert read(one).equals(read(two))
    assert not read(one).equals(read(other))
    # A shorter run with the same seed is the first games of the longer one.
    short = tmp_path / "short.parquet"
    regalia.simulate("duo-regna", games=70, seed=11, out=short)
    head = read(one).filter(pa.compute.less(read(one).column("game_id"), 70))
    assert read(short).equals(head)


def test_agent_games_are_the_games_play_plays(tmp_path: Path) -> None:
    out = tmp_path / "games.parquet"
    result = regalia.simulate("duo-regna", ["rules", "random"], games=4, seed=5, out=out)
    table = read(out)
    assert not result.native
    for i, rows in enumerate(games_of(table)):
        record = regalia.play("duo-regna", ["rules", "random"], seed=5 + i)
        assert rows[0]["seed"] == 5 + i
        assert [r["action"] for r in rows] == record.actions
        assert [r["agent"] for r in rows] == [record.agents[r["player"]] for r in rows]
        assert rows[0]["returns"] == [float(x) for x in record.returns]
    check_rows_replay(regalia.make("duo-regna"), table)
    local = tmp_path / "two.parquet"
    regalia.simulate("duo-regna", ["rules", "random"], games=4, seed=5, out=local, workers=2)
    assert read(local).equals(table)


def test_the_summary_counts_every_game_once(tmp_path: Path) -> None:
    result = regalia.simulate("duo", games=70, seed=1, out=tmp_path / "x.parquet")
    for seat in result.seats:
        assert seat.wins + seat.draws + seat.losses == 70
    assert sum(s.wins for s in result.seats) + result.seats[0].draws == 70
    assert result.played == 70


def test_rows_are_written_in_row_groups_as_games_finish(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    whole, parts = tmp_path / "whole.parquet", tmp_path / "parts.parquet"
    regalia.simulate("duo-regna", games=200, seed=2, out=whole)
    # With small row groups, each block of 64 games (four blocks) is written once it is played.
    monkeypatch.setattr(datasets, "ROW_GROUP_ROWS", 500)
    result = regalia.simulate("duo-regna", games=200, seed=2, out=parts, workers=2)
    assert pq.ParquetFile(whole).metadata.num_row_groups == 1
    assert pq.ParquetFile(parts).metadata.num_row_groups == 4
    assert pq.ParquetFile(parts).metadata.num_rows == result.rows
    assert read(parts).equals(read(whole))


def test_only_a_few_chunks_are_in_flight() -> None:
    # Chunk 0 finishes last: the others wait, finished, but no more than the window is submitted.
    submitted: list[int] = []
    finished_order = iter([1, 2, 3, 0, 4, 5, 6, 7, 8, 9])

    def submit(i: int) -> int:
        submitted.append(i)
        assert len(submitted) - handed[0] <= 2 * CHUNKS_IN_FLIGHT_PER_WORKER
        return i

    def finished(pending: dict[Any, int]) -> list[Any]:
        for i in finished_order:
            if i in pending:
                return [i]
        return list(pending)

    handed = [0]
    results = []
    for r in _in_order(10, 2, submit, finished, lambda i: i * 10, lambda p: None, None):
        results.append(r)
        handed[0] += 1
    assert results == [i * 10 for i in range(10)]


def test_an_existing_file_is_kept_unless_overwrite(tmp_path: Path) -> None:
    out = tmp_path / "games.parquet"
    out.write_text("precious")
    with pytest.raises(InvalidArgumentError, match="exists"):
        regalia.simulate("duo-regna", games=2, out=out)
    assert out.read_text() == "precious"
    regalia.simulate("duo-regna", games=2, out=out, overwrite=True)
    assert read(out).num_rows > 0
    assert os.listdir(tmp_path) == ["games.parquet"]


@pytest.mark.parametrize("where", ["missing/games.parquet", "file/games.parquet", "."])
def test_an_unwritable_path_is_refused_before_any_game(tmp_path: Path, where: str) -> None:
    (tmp_path / "file").write_text("not a directory")
    played = []

    def agent(view: Any) -> int:
        played.append(1)
        return int(view.legal_actions[0])

    with pytest.raises(InvalidArgumentError):
        regalia.simulate("duo-regna", [agent, agent], games=2, out=tmp_path / where)
    assert played == []
    assert sorted(os.listdir(tmp_path)) == ["file"]


def test_a_failing_game_leaves_no_file(tmp_path: Path) -> None:
    def broken(view: Any) -> int:
        raise RuntimeError("boom")

    out = tmp_path / "games.parquet"
    with pytest.raises(AgentError, match=r"game 0 \(seed 0\).*boom"):
        regalia.simulate("duo-regna", ["random", broken], games=3, out=out)
    assert os.listdir(tmp_path) == []


def test_the_command_writes_a_dataset_and_refuses_to_overwrite(tmp_path: Path) -> None:
    out = tmp_path / "games.parquet"
    first = run("simulate", "duo-regna", "-n", "6", "--agents", "rules,random", "--out", str(out), "--json")
    assert first.exit_code == 0, first.stderr
    summary = json.loads(first.stdout)
    assert summary["rows"] == read(out).num_rows and summary["native"] is False
    again = run("simulate", "duo-regna", "-n", "6", "--out", str(out))
    assert again.exit_code == 1 and "exists" in again.stderr and "--overwrite" in again.stderr
    replaced = run("simulate", "duo-regna", "-n", "6", "--out", str(out), "--overwrite")
    assert replaced.exit_code == 0 and "wrote" in replaced.stdout
    assert read(out).column("agent").unique().to_pylist() == ["random"]
    missing = run("simulate", "duo-regna", "-n", "6", "--out", str(tmp_path / "no" / "x.parquet"))
    assert missing.exit_code == 1 and "cannot write" in missing.stderr


def test_the_core_imports_neither_ray_nor_pyarrow() -> None:
    code = (
        "import sys, regalia, regalia.cli, regalia.matches.datasets, regalia.matches.executors;"
        "print(sorted({'ray', 'pyarrow'} & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_docs_example_loads_a_dataset_for_training(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's ```python blocks run (its ```py blocks need a cluster, hours, polars or
    DuckDB)."""
    import re

    monkeypatch.chdir(tmp_path)
    text = (ROOT / "docs" / "datasets.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks
    for code in blocks:
        exec(compile(code, "docs/datasets.md:example", "exec"), {"__name__": "docs_example"})


def test_ctrl_c_leaves_no_file(tmp_path: Path) -> None:
    moves = []

    def interrupted(view: Any) -> int:
        moves.append(1)
        if len(moves) == 40:
            raise KeyboardInterrupt
        return int(view.legal_actions[0])

    with pytest.raises(KeyboardInterrupt):
        regalia.simulate("duo-regna", [interrupted, "random"], games=20, out=tmp_path / "games.parquet")
    assert len(moves) == 40
    assert os.listdir(tmp_path) == []
