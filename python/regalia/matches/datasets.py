"""Trajectory datasets: every decision of many games as one row of a Parquet file (pyarrow,
``pip install "regalia[parquet]"``), for training.

One row per step, the rows of a game consecutive and in order, each naming its game and
options (see ``COLUMNS``; the file's metadata key ``regalia`` holds the run's settings and the
observation's shape as JSON).
Tensors and masks are fixed-size list columns, so pyarrow, polars, pandas and numpy read
them as one flat block each, with no Python loop.

Random games are played by the native batch (``VectorEnv`` with ``sample_actions``, the GIL
released), keeping only their actions; other agents' games by the match runner. Every game is
then replayed from its seed and actions to read each step's observation, mask and action
name, a few games at a time, so that memory holds one chunk of rows and not a whole run.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from regalia.core.engine import Game, VectorEnv
from regalia.core.errors import InvalidArgumentError
from regalia.core.protocols import GameProtocol, seat_to_act
from regalia.core.seeds import derive_seed
from regalia.registry.records import MatchRecord

__all__ = ["BLOCK", "CHUNK_ROWS", "COLUMNS", "Chunk", "DatasetWriter", "agent_games", "check_output", "random_games"]

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

#: Rows of random games read back at a time (a whole game when one alone is longer).
CHUNK_ROWS = 1 << 15


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


def _native_actions(
    game: GameProtocol, seed: int, block: int, count: int
) -> tuple[npt.NDArray[np.uint64], list[list[int]]]:
    """The seeds and actions of the first ``count`` games of seeding block ``block``, played
    with uniformly random moves by the native batch (one game per slot). Only the actions
    are kept while the batch plays (eight bytes a step), whatever the size of a view."""
    if not isinstance(game, Game):
        raise InvalidArgumentError(f"native random games need a game of the rust backend, not {game!r}")
    env = VectorEnv(game, count, seed=derive_seed(seed, block), threads=1)
    env.reset()
    seeds = env.seeds()
    steps: list[npt.NDArray[np.int64]] = []
    playing = np.ones(count, dtype=bool)
    masks: list[npt.NDArray[np.bool_]] = []
    while playing.any():
        actions = env.sample_actions()
        steps.append(actions)
        masks.append(playing.copy())
        terminated = env.step(actions)[3]
        playing &= ~terminated
    taken = np.stack(steps, axis=1) if steps else np.zeros((count, 0), dtype=np.int64)
    alive = np.stack(masks, axis=1) if masks else np.zeros((count, 0), dtype=bool)
    return seeds, [taken[j][alive[j]].tolist() for j in range(count)]


def _replayed(
    game: GameProtocol,
    seeds: Sequence[int],
    actions: Sequence[Sequence[int]],
    first_id: int,
    agents: Sequence[Sequence[str]] | None = None,
) -> Chunk:
    """Games ``seeds[i]`` with ``actions[i]`` (game ids from ``first_id``; ``agents[i]`` names
    the agent at each seat, random everywhere without it) as a chunk, every step's
    observation, mask and action name read by replaying the game."""
    moves = np.array([len(a) for a in actions], dtype=np.int64)
    rows = int(moves.sum())
    shape = game.observation_shape
    observation = np.empty((rows, int(np.prod(shape))), dtype=np.float32)
    legal_mask = np.empty((rows, game.num_actions), dtype=bool)
    player = np.empty(rows, dtype=np.int32)
    agent = np.empty(rows, dtype=np.int32)
    name = np.empty(rows, dtype=np.int32)
    labels, names = _Names(), _Names()
    scores: list[list[int]] = []
    returns: list[list[float]] = []
    k = 0
    for i, (seed, taken) in enumerate(zip(seeds, actions)):
        seat_label = [labels(a) for a in agents[i]] if agents is not None else [labels("random")] * game.num_players
        state = game.new_state(seed)
        view, mask, action_name, apply = (
            state.observation_tensor,
            state.legal_action_mask,
            state.action_name,
            state.apply,
        )
        for a in taken:
            seat = seat_to_act(state)
            player[k], agent[k] = seat, seat_label[seat]
            view(seat, out=observation[k].reshape(shape))
            mask(out=legal_mask[k])
            name[k] = names(action_name(a))
            apply(a)
            k += 1
        scores.append(state.scores())
        returns.append(state.returns())
    game_of_row = np.repeat(np.arange(len(moves)), moves)
    final = np.array(returns, dtype=np.float32).reshape(len(moves), -1)
    return Chunk(
        game_id=(game_of_row + first_id).astype(np.int64),
        seed=np.asarray(seeds, dtype=np.uint64)[game_of_row],
        step=(np.arange(rows) - np.repeat(np.cumsum(moves) - moves, moves)).astype(np.int32),
        player=player,
        agent=agent,
        action=np.fromiter((a for taken in actions for a in taken), dtype=np.int32, count=rows),
        name=name,
        legal_mask=legal_mask,
        observation=observation,
        returns=final[game_of_row],
        agents=labels.names(),
        names=names.names(),
        game_returns=[list(map(float, r)) for r in returns],
        game_scores=scores,
        game_moves=moves.tolist(),
    )


def random_games(
    game: GameProtocol, seed: int, block: int, count: int = BLOCK, rows: int = CHUNK_ROWS
) -> Iterator[Chunk]:
    """The first ``count`` games of seeding block ``block`` (game ids from ``block * BLOCK``),
    played with uniformly random moves by the native batch, one game per slot, as chunks of
    whole games in order, each of at most ``rows`` rows unless one game alone is longer: the
    batch keeps only the actions, and each chunk is read back by replaying its games, so a
    block of long games never has to be held in memory at once."""
    seeds, actions = _native_actions(game, seed, block, count)
    first = 0
    while first < count:
        stop, size = first + 1, len(actions[first])
        while stop < count and size + len(actions[stop]) <= rows:
            size += len(actions[stop])
            stop += 1
        yield _replayed(game, [int(s) for s in seeds[first:stop]], actions[first:stop], block * BLOCK + first)
        first = stop


def agent_games(game: GameProtocol, records: Sequence[MatchRecord], start: int) -> Chunk:
    """The games of ``records`` (game ids from ``start``), every step read back by replaying
    the record."""
    return _replayed(game, [r.seed for r in records], [r.actions for r in records], start, [r.agents for r in records])


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


def schema(game: GameProtocol, metadata: dict[str, Any], dictionaries: bool = True) -> Any:
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

    def __init__(self, path: str, game: GameProtocol, metadata: dict[str, Any]) -> None:
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
