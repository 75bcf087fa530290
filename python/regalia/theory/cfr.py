"""Counterfactual regret minimisation over any game: Monte Carlo CFR in Rust, CFR+ over the
whole tree of a small game with explicit chance, their average policy, its exact
exploitability, and that policy saved to and read from a file.

``solve(game, method="external", iterations=..., seconds=...)`` runs external-sampling or
outcome-sampling MCCFR natively (the GIL released; Ctrl-C stops it and returns what was
computed so far) in the game's seeded mode: each iteration plays a fresh deal. The policy
it returns is the average strategy per information set, keyed by the compact
perfect-recall key ``information_state_key(state, seat)``. ``method="cfr+"`` runs CFR+ over
the game's whole tree (a game made with ``chance="explicit"`` whose tree fits, see
``regalia.theory.exact``); ``Policy.exploitability()`` is exact for such games.

An information set the run never met gets the uniform distribution over its legal actions:
that is the strategy CFR itself starts every information set with, so the policy is what the
solver's average strategy is there (see docs/game-theory.md).
"""

from __future__ import annotations

import hashlib
import json
import random
import struct
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from regalia.core import engine
from regalia.core.errors import InvalidArgumentError, InvalidStateError
from regalia.core.protocols import GameProtocol, StateProtocol
from regalia.core.view import View
from regalia.registry.catalog import make
from regalia.theory.tree import DEFAULT_MAX_HISTORIES, game_tree, table_of
from regalia.theory.tree import exploitability as exact_exploitability

__all__ = [
    "FORMAT_VERSION",
    "METHODS",
    "Policy",
    "PolicyFileError",
    "information_state_key",
    "solve",
]

#: The methods ``solve`` runs: MCCFR's two sampling schemes, and CFR+ over the whole tree.
METHODS = ("external", "outcome", "cfr+")
#: The first bytes of every policy file.
MAGIC = b"REGALIA-CFR-POLICY\n"
#: The version of the policy file format this library writes and reads.
FORMAT_VERSION = 1
#: The information-state key a file's policy is keyed by (see ``information_state_key``):
#: ``regalia-recall-key-1`` hashed the information-state string, ``-2`` the observation tensors.
KEY_SCHEME = "regalia-recall-key-2"
_DIGEST = 32  # bytes of the SHA-256 checksum at the end of a file


class PolicyFileError(InvalidStateError):
    """A policy file that is damaged, not a policy file, of another format version, or for
    another game or options than the one it is used with."""


def information_state_key(state: StateProtocol, seat: int) -> int:
    """``seat``'s perfect-recall information state in ``state`` (either backend) as a 64-bit
    integer: a hash of everything the seat saw (its observation tensors) and did (its actions),
    the record ``information_state_string`` writes out, equal for every state the seat cannot
    tell apart."""
    if isinstance(state, engine.State):
        return int(engine.information_state_key(state, seat))
    method = getattr(state, "information_state_key", None)
    if method is None:
        raise InvalidArgumentError(f"information_state_key needs a regalia State, not {type(state).__name__}")
    return int(method(seat))


@dataclass(frozen=True)
class Policy:
    """An average strategy per information set, keys ascending; each key's actions and
    probabilities are the ``counts[i]`` entries of ``actions``/``probabilities`` from
    ``offsets[i]``. ``info`` says what it solves and how it was made (game, options,
    method, iterations, seed, seconds, updates, interrupted)."""

    info: dict[str, Any]
    keys: npt.NDArray[np.uint64]
    counts: npt.NDArray[np.uint16]
    actions: npt.NDArray[np.uint16]
    probabilities: npt.NDArray[np.float32]
    offsets: npt.NDArray[np.int64] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        starts = np.zeros(len(self.counts), dtype=np.int64)
        np.cumsum(self.counts[:-1], out=starts[1:])
        object.__setattr__(self, "offsets", starts)

    @property
    def game(self) -> str:
        """The game's name."""
        return str(self.info["game"])

    @property
    def options(self) -> dict[str, Any]:
        """The game's options in force."""
        return dict(self.info["options"])

    def __len__(self) -> int:
        return len(self.keys)

    def lookup(self, key: int) -> dict[int, float] | None:
        """The stored strategy at ``key`` as ``{action: probability}``, or None if unseen."""
        i = int(np.searchsorted(self.keys, np.uint64(key)))
        if i >= len(self.keys) or int(self.keys[i]) != key:
            return None
        start, n = int(self.offsets[i]), int(self.counts[i])
        return {
            int(a): float(p)
            for a, p in zip(self.actions[start : start + n], self.probabilities[start : start + n], strict=True)
        }

    def action_probabilities(self, state_or_view: StateProtocol | View) -> dict[int, float]:
        """The strategy of the seat to move as ``{action: probability}`` over its legal
        actions: from a state of either backend, or from an agent's ``View``. Uniform at an
        information set the run never met (or where no stored action is legal)."""
        state, seat, legal, game, options = _position(state_or_view)
        self.check_game(game, options)
        if len(self.keys) == 0:
            raise PolicyFileError(
                "this policy's table is empty (its run learnt nothing: no iteration ended), so it would play "
                "uniformly at random everywhere; solve for longer"
            )
        stored = self.lookup(information_state_key(state, seat)) or {}
        probs = {a: stored.get(a, 0.0) for a in legal}
        total = sum(probs.values())
        if total <= 0.0:
            return dict.fromkeys(legal, 1.0 / len(legal))
        return {a: p / total for a, p in probs.items()}

    def check_game(self, game: str, options: dict[str, Any]) -> None:
        """Raises ``PolicyFileError`` naming the difference unless the policy was computed
        for game ``game`` with exactly ``options``."""
        if game != self.game:
            raise PolicyFileError(f"this policy is for {self.game!r}, not {game!r}")
        if options != self.options:
            differ = sorted(k for k in set(options) | set(self.options) if options.get(k) != self.options.get(k))
            shown = ", ".join(f"{k}={self.options.get(k)!r} (game: {options.get(k)!r})" for k in differ)
            raise PolicyFileError(f"this policy is for other options of {game!r}: {shown}")

    def exploitability(self, max_histories: int | None = None) -> float:
        """The policy's exact exploitability in its game (OpenSpiel's: the sum over seats of
        what a best response gains, over the number of seats), uniform where it never met an
        information set, computed on the game's whole tree with explicit chance: a policy
        solved on the seeded game is measured on the same game with ``chance="explicit"``,
        each information set looked up by the key the seeded game gives it. Only where that
        tree has at most ``max_histories`` histories
        (``regalia.theory.exact.DEFAULT_MAX_HISTORIES``): ``GameTooLargeError`` naming its
        estimated size otherwise."""
        game = make(self.game, **{**self.options, "chance": "explicit"})
        limit = DEFAULT_MAX_HISTORIES if max_histories is None else max_histories
        return exact_exploitability(game, self, limit).exploitability

    def to_bytes(self) -> bytes:
        """The policy file's bytes (see ``save``)."""
        header = json.dumps(
            {**self.info, "key": KEY_SCHEME, "infosets": len(self.keys), "actions": len(self.actions)},
            sort_keys=True,
            separators=(",", ":"),
        ).encode()
        body = b"".join(
            [
                MAGIC,
                struct.pack("<II", FORMAT_VERSION, len(header)),
                header,
                self.keys.astype("<u8").tobytes(),
                self.counts.astype("<u2").tobytes(),
                self.actions.astype("<u2").tobytes(),
                self.probabilities.astype("<f4").tobytes(),
            ]
        )
        return body + hashlib.sha256(body).digest()

    def save(self, path: str | Path) -> None:
        """Writes the policy file: ``MAGIC``, the format version and the header's length
        (two little-endian uint32), the header (JSON: game, options, method, iterations,
        seed, key scheme, sizes), the keys (uint64), counts (uint16), actions (uint16) and
        probabilities (float32), all little-endian, then the SHA-256 of all that."""
        Path(path).write_bytes(self.to_bytes())

    @classmethod
    def from_bytes(cls, data: bytes, game: GameProtocol | None = None) -> Policy:
        """The policy of ``to_bytes()``; ``PolicyFileError`` naming what is wrong for a
        damaged or foreign file, or (when ``game`` is given) one for another game or options."""
        if not data.startswith(MAGIC):
            raise PolicyFileError("not a Regalia CFR policy file")
        if len(data) < len(MAGIC) + 8 + _DIGEST:
            raise PolicyFileError("the policy file is cut off")
        version, header_len = struct.unpack_from("<II", data, len(MAGIC))
        if version != FORMAT_VERSION:
            raise PolicyFileError(f"policy file format version {version}; this Regalia reads {FORMAT_VERSION}")
        body, checksum = data[:-_DIGEST], data[-_DIGEST:]
        if hashlib.sha256(body).digest() != checksum:
            raise PolicyFileError("the policy file is damaged (its checksum does not match)")
        start = len(MAGIC) + 8
        try:
            info = json.loads(body[start : start + header_len])
            n, m = int(info.pop("infosets")), int(info.pop("actions"))
            scheme = info.pop("key")
            str(info["game"]), dict(info["options"])
        except (ValueError, KeyError, TypeError) as e:
            raise PolicyFileError(f"the policy file's header is not valid: {e}") from None
        if scheme != KEY_SCHEME:
            raise PolicyFileError(
                f"the policy file is keyed by {scheme!r}; this Regalia uses {KEY_SCHEME!r}, whose keys "
                "stand for other information states: solve the game again"
            )
        arrays = body[start + header_len :]
        if n < 0 or m < 0 or len(arrays) != 8 * n + 2 * n + 2 * m + 4 * m:
            raise PolicyFileError("the policy file's sizes do not match its header")
        keys = np.frombuffer(arrays, dtype="<u8", count=n).astype(np.uint64)
        counts = np.frombuffer(arrays, dtype="<u2", count=n, offset=8 * n).astype(np.uint16)
        actions = np.frombuffer(arrays, dtype="<u2", count=m, offset=10 * n).astype(np.uint16)
        probs = np.frombuffer(arrays, dtype="<f4", count=m, offset=10 * n + 2 * m).astype(np.float32)
        if int(counts.sum(dtype=np.int64)) != m or (n > 1 and not bool(np.all(keys[1:] > keys[:-1]))):
            raise PolicyFileError("the policy file's tables are not consistent")
        if not bool(np.all(np.isfinite(probs))) or bool(np.any(probs < 0)):
            raise PolicyFileError("the policy file holds probabilities that are not finite and >= 0")
        policy = cls(info, keys, counts, actions, probs)
        if game is not None:
            policy.check_game(game.name, dict(game.options))
        return policy

    @classmethod
    def load(cls, path: str | Path, game: GameProtocol | None = None) -> Policy:
        """Reads a policy file written by ``save`` (see ``from_bytes``)."""
        try:
            data = Path(path).read_bytes()
        except OSError as e:
            raise PolicyFileError(f"cannot read the policy file {path}: {e.strerror or e}") from None
        return cls.from_bytes(data, game)


def _position(state_or_view: StateProtocol | View) -> tuple[StateProtocol, int, list[int], str, dict[str, Any]]:
    """The state to key, the seat to move, its legal actions, the game's name and options."""
    if isinstance(state_or_view, View):
        view = state_or_view
        return view.sample_world(0), view.seat, list(view.legal_actions), view.game, dict(view.options)
    state = state_or_view
    if getattr(state, "is_chance_node", False):
        raise InvalidArgumentError(
            "this is a chance node: no seat chooses here, so a policy has nothing to say; "
            "the outcomes' probabilities are state.chance_outcomes()"
        )
    seat = state.current_player
    if seat is None:
        raise InvalidArgumentError("the game is over: there is no move to choose")
    saved = json.loads(state.to_json())
    return state, int(seat), list(state.legal_actions()), str(saved["game"]), dict(saved["options"])


def solve(
    game: GameProtocol | str,
    method: str = "external",
    iterations: int | None = None,
    seconds: float | None = None,
    seed: int = 0,
    progress: bool | None = None,
    max_histories: int | None = None,
) -> Policy:
    """Runs MCCFR (``method`` ``"external"`` or ``"outcome"`` sampling) or CFR+ (``"cfr+"``)
    on ``game`` (a game of either backend, solved natively, or a game's name: its defaults)
    for ``iterations`` iterations and/or ``seconds`` seconds (whichever ends first; at least
    one is needed) from ``seed`` (MCCFR's; CFR+ is deterministic), and returns its average policy. CFR+ needs a game
    made with ``chance="explicit"`` whose whole tree has at most ``max_histories``
    histories (``regalia.theory.exact.DEFAULT_MAX_HISTORIES``): a larger one is refused before any
    work with ``GameTooLargeError`` naming its estimated size. ``progress`` shows a bar on
    stderr (default: when stderr is a terminal). Ctrl-C stops the run and returns what was
    computed so far (``info["interrupted"]``)."""
    if method not in METHODS:
        raise InvalidArgumentError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
    if iterations is None and seconds is None:
        raise InvalidArgumentError("give iterations, seconds or both")
    if iterations is not None and (isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1):
        raise InvalidArgumentError(f"iterations must be an int >= 1, not {iterations!r}")
    if seconds is not None and not (isinstance(seconds, (int, float)) and seconds > 0 and np.isfinite(seconds)):
        raise InvalidArgumentError(f"seconds must be a number > 0, not {seconds!r}")
    if isinstance(game, str):
        game = make(game)
    elif not hasattr(game, "options"):
        raise InvalidArgumentError(f"solve needs a game (or a game's name), not {type(game).__name__}")
    core_game = engine.make(game.name, dict(game.options))
    show = sys.stderr.isatty() if progress is None else progress
    if method == "cfr+":
        tree = game_tree(core_game, DEFAULT_MAX_HISTORIES if max_histories is None else max_histories)
        plus = engine.CfrPlus(tree)
        started = time.monotonic()
        interrupted = _run(plus, iterations, seconds, show, "CFR+")
        keys, counts, actions, probs = table_of(tree, plus.average())
        run: engine.Mccfr | engine.CfrPlus = plus
    else:
        mccfr = engine.Mccfr(core_game, method, seed)
        started = time.monotonic()
        interrupted = _run(mccfr, iterations, seconds, show, "MCCFR")
        keys, counts, actions, probs = mccfr.averages()
        run = mccfr
    info = {
        "game": core_game.name,
        "options": dict(core_game.options),
        "method": method,
        "seed": seed,
        "iterations": run.iterations,
        "updates": run.updates,
        "seconds": round(time.monotonic() - started, 3),
        "interrupted": interrupted,
    }
    return Policy(info, keys, counts, actions, probs)


def _run(
    run: engine.Mccfr | engine.CfrPlus, iterations: int | None, seconds: float | None, show: bool, label: str
) -> bool:
    """Runs in slices of about a quarter of a second (a bar's update each); True if
    Ctrl-C stopped it."""
    deadline = None if seconds is None else time.monotonic() + seconds
    total = iterations if iterations is not None else None
    bar = _Bar(total, seconds, label) if show else None
    chunk = 1
    try:
        while (iterations is None or run.iterations < iterations) and not getattr(run, "full", False):
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                break
            want = chunk if iterations is None else min(chunk, iterations - run.iterations)
            t0 = time.monotonic()
            done = run.run(want, left)
            if bar is not None:
                bar.update(run.iterations)
            if done == 0:
                break
            elapsed = time.monotonic() - t0
            chunk = max(1, min(chunk * 4, int(chunk * 0.25 / max(elapsed, 1e-6))))
    except KeyboardInterrupt:
        return True
    finally:
        if bar is not None:
            bar.close()
    return False


class _Bar:
    """A rich progress bar on stderr, by iterations when they bound the run, else by time."""

    def __init__(self, iterations: int | None, seconds: float | None, label: str) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.by_time = iterations is None
        self.started = time.monotonic()
        self.progress = Progress(
            TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=Console(stderr=True)
        )
        self.progress.start()
        self.task = self.progress.add_task(label, total=seconds if self.by_time else iterations)

    def update(self, iterations: int) -> None:
        done = time.monotonic() - self.started if self.by_time else iterations
        self.progress.update(self.task, completed=done)

    def close(self) -> None:
        self.progress.stop()


class PolicyPlayer:
    """Plays a ``Policy`` as an agent: refuses a game it was not computed for, and draws each
    move by the policy's probabilities at its information set from its own generator."""

    policy: Policy
    _rng: random.Random

    def game_start(self, view: View) -> None:
        """Refuses a game the policy was not computed for (``PolicyFileError``)."""
        self.policy.check_game(view.game, dict(view.options))

    def action_probabilities(self, view: View) -> dict[int, float]:
        """How likely each legal action is (what ``regalia.theory.exact.exploitability`` measures)."""
        return self.policy.action_probabilities(view)

    def act(self, view: View) -> int:
        """An action drawn from the policy at this information set."""
        probs = self.action_probabilities(view)
        actions = list(probs)
        return self._rng.choices(actions, weights=[probs[a] for a in actions])[0]
