"""Trajectory datasets: every decision of many games as one row of a Parquet file (pyarrow,
``pip install "regalia[parquet]"``), for training.

One row per step, the rows of a game consecutive and in order, each naming its game and
options (see ``COLUMNS``; the file's metadata key ``regalia`` holds the run's settings and the
observation's shape as JSON).
Tensors and masks are fixed-size list columns, so pyarrow, polars, pandas and numpy read
them as one flat block each, with no Python loop.

Random games are played by the native batch (``VectorEnv`` with ``sample_actions``, the GIL
released); other agents' games by the match runner, then replayed from their records to read
every step's observation, mask and action name.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from regalia.errors import InvalidArgumentError
from regalia.match import MatchRecord
from regalia.seeds import derive_seed

__all__ = ["BLOCK", "COLUMNS", "Chunk", "DatasetWriter", "agent_games", "check_output", "random_games"]

#: Games per seeding block of natively played random games: game ``j`` of block ``b`` starts
#: from ``derive_seed(derive_seed(seed, b), j)``, whatever the workers and chunks.
BLOCK = 64

#: The columns of a trajectory dataset and what each holds.
COLUMNS: dict[str, str] = {
    "game": "string: the game's name (as regalia.make takes it), so that several games' files read as one",
    "game_id": "int64: the game's index in the run, from 0",
    "seed": "uint64: the game's seed; game.new_state(seed) and the game's actions replay it",
    "step": "int32: the decision's index in its game, from 0",
    "player": "int32: the seat to move",
    "agent": "string: the agent at that seat",
    "action": "int32: the action chosen",
    "action_name": "string: its name",
    "legal_mask": "fixed_size_list<bool>[num_actions]: the legal actions",
    "observation": "fixed_size_list<float32>[size]: the mover's observation tensor, flattened",
    "returns": "fixed_size_list<float32>[num_players]: every seat's return at the end of the game",
    "player_return": "float32: the mover's return at the end of the game",
    "options": "string: the game's options as JSON (sorted keys)",
}

#: Rows gathered before a row group is written (fewer at the end of the file).
ROW_GROUP_ROWS = 1 << 16


@dataclass
class Chunk:
    """Some whole games as columns (one entry per step), and each game's outcome."""

    game_id: npt.NDArray[np.int64]
    seed: npt.NDArray[np.uint64]
    step: npt.NDArray[np.int32]
    player: npt.NDArray[np.int32]
    agent: npt.NDArray[np.int32]
    action: npt.NDArray[np.int32]
    name: npt.NDArray[np.int32]
    legal_mask: npt.NDArray[np.bool_]
    observation: npt.NDArray[np.float32]
    returns: npt.NDArray[np.float32]
    #: ``agent`` and ``name`` index these.
    agents: list[str]
    names: list[str]
    #: Per game: returns, scores and moves.
    game_returns: list[list[float]] = field(default_factory=list)
    game_scores: list[list[int]] = field(default_factory=list)
    game_moves: list[int] = field(default_factory=list)

    @property
    def rows(self) -> int:
        """Steps in all."""
        return len(self.game_id)


class _Names:
    """Action names as small integers into a list (the column is dictionary-encoded)."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}

    def __call__(self, name: str) -> int:
        return self.index.setdefault(name, len(self.index))

    def names(self) -> list[str]:
        return list(self.index)


def _replay(game: Any, seed: int, actions: Sequence[int], names: list[str]) -> list[int]:
    """Appends each action's name to ``names`` and returns the final scores, by replaying the
    game from its seed."""
    state = game.new_state(seed)
    name, apply = state.action_name, state.apply
    for a in actions:
        names.append(name(a))
        apply(a)
    scores: list[int] = state.scores()
    return scores


def _encode(words: list[str]) -> tuple[npt.NDArray[np.int32], list[str]]:
    """``words`` as indices into a list of the distinct ones (in order of first use)."""
    index = {w: i for i, w in enumerate(dict.fromkeys(words))}
    return np.fromiter(map(index.__getitem__, words), dtype=np.int32, count=len(words)), list(index)


def random_games(game: Any, seed: int, block: int, count: int = BLOCK) -> Chunk:
    """The first ``count`` games of seeding block ``block`` (game ids from ``block * BLOCK``),
    played with uniformly random moves by the native batch, one game per slot."""
    from regalia import VectorEnv

    env = VectorEnv(game, count, seed=derive_seed(seed, block), threads=1)
    obs, mask, players = env.reset()
    seeds = env.seeds()
    slots = np.arange(count)
    # Only the steps of each slot's first game are kept (time-major), then put game-major.
    kept: list[tuple[Any, ...]] = []
    length = np.zeros(count, dtype=np.int64)
    final = np.zeros((count, game.num_players), dtype=np.float32)
    playing = np.ones(count, dtype=bool)
    every = True
    while every or playing.any():
        actions = env.sample_actions()
        if every:
            kept.append((slots, obs, mask, players, actions))
        else:
            kept.append((slots[playing], obs[playing], mask[playing], players[playing], actions[playing]))
        obs, mask, rewards, terminated, players = env.step(actions)
        length += playing
        ended = terminated & playing
        final[ended] = rewards[ended]
        playing &= ~terminated
        every = bool(playing.all())
    order = np.argsort(np.concatenate([k[0] for k in kept]), kind="stable")

    def rows(i: int) -> Any:
        return np.concatenate([k[i] for k in kept])[order]

    action = rows(4).astype(np.int32)
    game_of_row = np.repeat(slots, length)
    words: list[str] = []
    actions, ends = action.tolist(), np.cumsum(length).tolist()
    scores = [_replay(game, int(seeds[j]), actions[ends[j] - length[j] : ends[j]], words) for j in range(count)]
    name, names = _encode(words)
    return Chunk(
        game_id=(game_of_row + block * BLOCK).astype(np.int64),
        seed=seeds[game_of_row],
        step=(np.arange(len(action)) - np.repeat(np.cumsum(length) - length, length)).astype(np.int32),
        player=rows(3).astype(np.int32),
        agent=np.zeros(len(action), dtype=np.int32),
        action=action,
        name=name,
        legal_mask=rows(2),
        observation=rows(1).reshape(len(action), -1),
        returns=final[game_of_row],
        agents=["random"],
        names=names,
        game_returns=final.astype(float).tolist(),
        game_scores=scores,
        game_moves=length.tolist(),
    )


def agent_games(game: Any, records: Sequence[MatchRecord], start: int) -> Chunk:
    """The games of ``records`` (game ids from ``start``), every step read back by replaying
    the record."""
    size = int(np.prod(game.observation_shape))
    rows = sum(len(r.actions) for r in records)
    observation = np.empty((rows, size), dtype=np.float32)
    legal_mask = np.empty((rows, game.num_actions), dtype=bool)
    player = np.empty(rows, dtype=np.int32)
    agent = np.empty(rows, dtype=np.int32)
    name = np.empty(rows, dtype=np.int32)
    labels = _Names()
    names = _Names()
    k = 0
    for record in records:
        state = game.new_state(record.seed)
        seat_label = [labels(a) for a in record.agents]
        for a in record.actions:
            seat = state.current_player
            player[k], agent[k] = seat, seat_label[seat]
            state.observation_tensor(seat, out=observation[k].reshape(game.observation_shape))
            state.legal_action_mask(out=legal_mask[k])
            name[k] = names(state.action_name(a))
            state.apply(a)
            k += 1
    moves = np.array([len(r.actions) for r in records], dtype=np.int64)
    game_of_row = np.repeat(np.arange(len(records)), moves)
    return Chunk(
        game_id=(game_of_row + start).astype(np.int64),
        seed=np.array([r.seed for r in records], dtype=np.uint64)[game_of_row],
        step=(np.arange(rows) - np.repeat(np.cumsum(moves) - moves, moves)).astype(np.int32),
        player=player,
        agent=agent,
        action=np.fromiter((a for r in records for a in r.actions), dtype=np.int32, count=rows),
        name=name,
        legal_mask=legal_mask,
        observation=observation,
        returns=np.array([r.returns for r in records], dtype=np.float32).reshape(len(records), -1)[game_of_row],
        agents=labels.names(),
        names=names.names(),
        game_returns=[list(r.returns) for r in records],
        game_scores=[list(r.scores) for r in records],
        game_moves=moves.tolist(),
    )


def _pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise InvalidArgumentError(
            'writing a dataset needs pyarrow; install it with: pip install "regalia[parquet]"'
        ) from None
    return pyarrow


def check_output(path: str | os.PathLike[str], overwrite: bool) -> str:
    """The absolute path of a dataset to write at ``path``, checked before any game is played:
    pyarrow is installed, the file does not exist (unless ``overwrite``) and its directory
    takes a new file. Raises ``InvalidArgumentError`` otherwise."""
    _pyarrow()
    target = os.path.abspath(os.fspath(path))
    if os.path.isdir(target):
        raise InvalidArgumentError(f"{path} is a directory; give a file name for the dataset")
    if os.path.lexists(target) and not overwrite:
        raise InvalidArgumentError(f"{path} exists; choose another name or allow overwriting it (--overwrite)")
    directory = os.path.dirname(target)
    try:
        fd, probe = tempfile.mkstemp(prefix=".regalia-", suffix=".tmp", dir=directory)
    except OSError as e:
        raise InvalidArgumentError(f"cannot write {path}: {e.strerror or e}") from None
    os.close(fd)
    os.unlink(probe)
    return target


#: File name endings written as an Arrow IPC file (Feather v2) rather than Parquet.
ARROW_SUFFIXES = (".arrow", ".feather", ".ipc")

#: Columns whose Parquet statistics are kept (for filters such as ``game_id < 100``); the
#: tensors' would cost more than they save.
STATISTICS = ["game_id", "seed", "step", "player", "action", "player_return"]


def schema(game: Any, metadata: dict[str, Any], dictionaries: bool = True) -> Any:
    """The Arrow schema of ``game``'s datasets, with ``metadata`` under the key ``regalia``;
    the repeated strings dictionary-encoded if ``dictionaries``."""
    pa = _pyarrow()
    size = int(np.prod(game.observation_shape))
    text = pa.dictionary(pa.int32(), pa.string()) if dictionaries else pa.string()
    return pa.schema(
        [
            ("game", text),
            ("game_id", pa.int64()),
            ("seed", pa.uint64()),
            ("step", pa.int32()),
            ("player", pa.int32()),
            ("agent", text),
            ("action", pa.int32()),
            ("action_name", text),
            ("legal_mask", pa.list_(pa.bool_(), game.num_actions)),
            ("observation", pa.list_(pa.float32(), size)),
            ("returns", pa.list_(pa.float32(), game.num_players)),
            ("player_return", pa.float32()),
            ("options", text),
        ],
        metadata={"regalia": json.dumps(metadata)},
    )


def _new_file_mode(path: str) -> int:
    """The mode of the file being replaced, else what the umask gives a new file."""
    try:
        return os.stat(path).st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


class DatasetWriter:
    """Writes chunks to a temporary file beside ``path`` in row groups as they come, and
    renames it to ``path`` on ``close()``; ``abort()`` (or an error inside a with-block)
    removes it, leaving no partial file. A path ending in ``.arrow``, ``.feather`` or
    ``.ipc`` gets an Arrow IPC file (zstd), any other a Parquet file (zstd)."""

    def __init__(self, path: str, game: Any, metadata: dict[str, Any]) -> None:
        pa = _pyarrow()
        self.path = path
        self.arrow = path.lower().endswith(ARROW_SUFFIXES)
        # An IPC file cannot change a column's dictionary from one batch to the next.
        self.schema = schema(game, metadata, dictionaries=not self.arrow)
        self.game = game.name
        self.options = json.dumps(game.options, sort_keys=True)
        self.rows = 0
        self._pending: list[Any] = []
        self._pending_rows = 0
        self._mode = _new_file_mode(path)
        fd, self._tmp = tempfile.mkstemp(prefix=".regalia-", suffix=".tmp", dir=os.path.dirname(path))
        os.close(fd)
        self._sink: Any = None
        try:
            if self.arrow:
                self._sink = pa.OSFile(self._tmp, "wb")
                options = pa.ipc.IpcWriteOptions(compression="zstd")
                self._writer = pa.ipc.new_file(self._sink, self.schema, options=options)
            else:
                self._writer = pa.parquet.ParquetWriter(
                    self._tmp, self.schema, compression="zstd", write_statistics=STATISTICS
                )
        except BaseException:
            self.abort()
            raise

    def __enter__(self) -> DatasetWriter:
        return self

    def __exit__(self, kind: Any, error: Any, trace: Any) -> None:
        if kind is None:
            self.close()
        else:
            self.abort()

    def _table(self, chunk: Chunk) -> Any:
        pa = _pyarrow()
        n = chunk.rows

        def fixed(values: npt.NDArray[Any], width: int, kind: Any) -> Any:
            return pa.FixedSizeListArray.from_arrays(pa.array(values.reshape(-1), type=kind), width)

        def words(indices: npt.NDArray[np.int32], words: list[str]) -> Any:
            return pa.DictionaryArray.from_arrays(pa.array(indices, type=pa.int32()), pa.array(words, type=pa.string()))

        same = np.zeros(n, dtype=np.int32)  # the index of a value every row shares
        columns = [
            words(same, [self.game]),
            pa.array(chunk.game_id, type=pa.int64()),
            pa.array(chunk.seed, type=pa.uint64()),
            pa.array(chunk.step, type=pa.int32()),
            pa.array(chunk.player, type=pa.int32()),
            words(chunk.agent, chunk.agents),
            pa.array(chunk.action, type=pa.int32()),
            words(chunk.name, chunk.names),
            fixed(chunk.legal_mask, chunk.legal_mask.shape[1], pa.bool_()),
            fixed(chunk.observation, chunk.observation.shape[1], pa.float32()),
            fixed(chunk.returns, chunk.returns.shape[1], pa.float32()),
            pa.array(chunk.returns[np.arange(n), chunk.player], type=pa.float32()),
            words(same, [self.options]),
        ]
        if self.arrow:
            columns = [c.cast(pa.string()) if pa.types.is_dictionary(c.type) else c for c in columns]
        return pa.Table.from_arrays(columns, schema=self.schema)

    def write(self, chunk: Chunk) -> None:
        """Adds a chunk's rows; a row group is written once enough rows are gathered."""
        self._pending.append(self._table(chunk))
        self._pending_rows += chunk.rows
        self.rows += chunk.rows
        if self._pending_rows >= ROW_GROUP_ROWS:
            self._flush()

    def _flush(self) -> None:
        if self._pending_rows:
            pa = _pyarrow()
            table = pa.concat_tables(self._pending)
            if self.arrow:
                self._writer.write_table(table, max_chunksize=max(ROW_GROUP_ROWS, self._pending_rows))
            else:
                self._writer.write_table(
                    table.unify_dictionaries(), row_group_size=max(ROW_GROUP_ROWS, self._pending_rows)
                )
        self._pending, self._pending_rows = [], 0

    def close(self) -> None:
        """Writes what is left, then puts the file in place (atomically)."""
        try:
            self._flush()
            self._writer.close()
            if self._sink is not None:
                self._sink.close()
            os.chmod(self._tmp, self._mode)
            os.replace(self._tmp, self.path)
        except BaseException:
            self.abort()
            raise

    def abort(self) -> None:
        """Drops the file being written."""
        for closable in (getattr(self, "_writer", None), self._sink):
            with contextlib.suppress(Exception):
                if closable is not None:
                    closable.close()
        with contextlib.suppress(OSError):
            os.unlink(self._tmp)
