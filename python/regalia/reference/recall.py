"""Perfect-recall information states, written once for every game on top of its observation:
the pure-Python twin of ``rust/engine/src/recall.rs`` (which documents the format).

A seat's record is what it saw (each observation that differs from the one before, as the
fields that changed) and what it played (its own actions), rebuilt by replaying the history
from where it starts.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import numpy.typing as npt

#: The number of record entries the tensor form keeps unless told otherwise.
DEFAULT_SLOTS = 16
#: The ``slots`` argument that asks for a seat's whole record.
WHOLE_RECORD = "all"

#: An entry: ``("saw", changes, state)`` or ``("played", action, name)``.
Entry = tuple[str, Any, Any]


class Progress:
    """A seat's record from ``start``, going on from ``before`` (another seat record's
    progress, e.g. what the seat knew before a determinized world began)."""

    def __init__(self, rules: Any, start: Any, before: Progress | None = None) -> None:
        self.rules = rules
        self.state = rules.copy_state(start)
        self.seen: Any = None if before is None else before.seen
        self.record: list[Entry] = [] if before is None else list(before.record)

    def extend(self, history: list[int], seat: int) -> None:
        """What ``seat`` sees now, then through ``history``: its own actions and every
        observation that differs from the last one it saw."""
        self._saw(seat)
        for a in history:
            if self.rules.current_player(self.state) == seat:
                self.record.append(("played", a, self.rules.action_name(self.state, a)))
            self.rules.apply(self.state, a)
            self._saw(seat)

    def _saw(self, seat: int) -> None:
        seen = self.rules.observation(self.state, seat)
        if seen != self.seen:
            self.record.append(("saw", _changes(self.seen, seen), self.rules.copy_state(self.state)))
            self.seen = seen


def _changes(before: Any, now: Any) -> Any:
    """For two objects with the same fields, the fields with a new value; else all of ``now``."""
    if not isinstance(before, dict) or not isinstance(now, dict) or before.keys() != now.keys():
        return now
    return {k: v for k, v in now.items() if before[k] != v}


def to_string(seat: int, record: list[Entry]) -> str:
    """``seat N``, then one line per entry (``saw {json}`` / ``played NAME``)."""
    lines = [f"seat {seat}"]
    for kind, value, name in record:
        if kind == "saw":
            lines.append("saw " + json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False))
        else:
            lines.append("played " + name)
    return "\n".join(lines)


def whole_record_slots(rules: Any) -> int | None:
    """The record entries a seat can have at most, if the game's histories are bounded
    (``rules.max_history_len()``, ``rules.max_seat_actions()``): its first observation, a new
    observation at most after each action, and each of its own actions."""
    longest, own = rules.max_history_len(), rules.max_seat_actions()
    return None if longest is None or own is None else 1 + longest + own


def entry_size(rules: Any) -> int:
    """Floats per entry: two flags, the observation tensor and the one-hot action."""
    return 2 + int(np.prod(rules.observation_shape())) + int(rules.num_actions)


def tensor(rules: Any, seat: int, record: list[Entry], slots: int) -> npt.NDArray[np.float32]:
    """The tensor form: the count of entries left out, then the newest ``slots`` entries."""
    size = entry_size(rules)
    out = np.zeros(1 + slots * size, dtype=np.float32)
    kept = min(len(record), slots)
    out[0] = len(record) - kept
    observation = size - 2 - int(rules.num_actions)
    for i, (kind, value, state) in enumerate(record[len(record) - kept :]):
        slot = out[1 + i * size : 1 + (i + 1) * size]
        if kind == "saw":
            slot[0] = 1.0
            rules.observation_tensor(state, seat, slot[2 : 2 + observation])
        else:
            slot[1] = 1.0
            slot[2 + observation + value] = 1.0
    return out


# ---- Compact keys ----
# The twin of ``rust/engine/src/cfr/key.rs``, which documents the hash.

_MASK = (1 << 64) - 1
#: Where every key starts, before the seat is mixed in (``"REGALIA2"`` in ASCII).
KEY_ORIGIN = 0x5245_4741_4C49_4132
#: What a seat's own action is marked with before it is absorbed (``"PLAYED"``, two zero bytes).
KEY_PLAYED = 0x504C_4159_4544_0000
_MULTIPLIER = 0x9E37_79B9_7F4A_7C15


def _mix64_array(z: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """The SplitMix64 finaliser on every element (numpy's uint64 arithmetic wraps)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58_476D_1CE4_E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D0_49BB_1331_11EB)
    out: npt.NDArray[np.uint64] = z ^ (z >> np.uint64(31))
    return out


def mix64(z: int) -> int:
    """The SplitMix64 finaliser of one 64-bit integer."""
    z = ((z ^ (z >> 30)) * 0xBF58_476D_1CE4_E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D0_49BB_1331_11EB) & _MASK
    return z ^ (z >> 31)


def _absorb(h: int, w: int) -> int:
    return mix64(((h * _MULTIPLIER) & _MASK) ^ w)


def digest(tensor: npt.NDArray[np.float32]) -> int:
    """The wrapping sum of ``mix64((i << 32) | bits)`` over the float32 tensor's entries whose
    bit pattern ``bits`` is not zero."""
    bits = np.ascontiguousarray(tensor, dtype=np.float32).reshape(-1).view(np.uint32)
    where = np.flatnonzero(bits).astype(np.uint64)
    words = (where << np.uint64(32)) | bits[where.astype(np.intp)].astype(np.uint64)
    return int(_mix64_array(words).sum(dtype=np.uint64))


def key_of_record(rules: Any, seat: int, record: list[Entry]) -> int:
    """``seat``'s compact key from its record: ``mix64(KEY_ORIGIN ^ seat)``, then in order the
    digest of each observation tensor that differs from the last one absorbed, and
    ``KEY_PLAYED ^ action`` for each of its own actions."""
    out = np.zeros(int(np.prod(rules.observation_shape())), dtype=np.float32)
    h = mix64(KEY_ORIGIN ^ seat)
    seen: int | None = None
    for kind, value, state in record:
        if kind == "played":
            h = _absorb(h, KEY_PLAYED ^ value)
            continue
        out.fill(0.0)
        rules.observation_tensor(state, seat, out)
        d = digest(out)
        if d != seen:
            h, seen = _absorb(h, d), d
    return h
