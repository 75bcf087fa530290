"""regalia.theory.cfr: MCCFR's average policy, its file, and the ``cfr`` agent."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import regalia
from regalia import _core
from regalia.agents import make_agent
from regalia.core.errors import InvalidArgumentError
from regalia.theory.cfr import MAGIC, Policy, PolicyFileError, information_state_key, solve
from tests.interrupt_helpers import interrupted

#: Duo Regna with one dragon to capture in at most two rounds: a few thousand histories.
TINY = {"dragon_deck": [1, 0], "dragons_to_win": 1, "max_rounds": 2}


def tiny(backend: str = "rust") -> Any:
    return regalia.make("duo-regna", backend=backend, **TINY)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def policy() -> Policy:
    return solve(tiny(), iterations=200, seed=3, progress=False)


def test_the_policy_is_the_runs_average(policy: Policy) -> None:
    run = _core.Mccfr(tiny(), "external", 3)
    assert run.run(200) == 200
    assert len(policy) == len(run) > 0
    assert policy.info["iterations"] == 200 and policy.info["updates"] == run.updates
    for key in policy.keys[:50]:
        stored = policy.lookup(int(key))
        assert stored is not None
        assert stored == {a: pytest.approx(p) for a, p in run.average(int(key))}
        assert sum(stored.values()) == pytest.approx(1.0, abs=1e-5)


def test_a_seed_fixes_the_policy() -> None:
    a, b = (solve(tiny(), method="outcome", iterations=300, seed=9, progress=False) for _ in range(2))
    c = solve(tiny(), method="outcome", iterations=300, seed=10, progress=False)
    assert np.array_equal(a.keys, b.keys) and np.array_equal(a.probabilities, b.probabilities)
    assert not (np.array_equal(a.keys, c.keys) and np.array_equal(a.probabilities, c.probabilities))


@pytest.mark.parametrize("backend", ["rust", "reference"])
def test_the_native_keys_are_the_states_keys(policy: Policy, backend: str) -> None:
    # External sampling tries every action of the updating seat: seat 1's information set
    # after any card of seat 0 is met, and so is the key both backends give that state.
    for card in tiny(backend).new_state(0).legal_actions():
        state = tiny(backend).new_state(0)
        state.apply(card)
        assert policy.lookup(information_state_key(state, 1)) is not None
        probs = policy.action_probabilities(state)
        assert sorted(probs) == state.legal_actions()
        assert sum(probs.values()) == pytest.approx(1.0)


def test_unseen_information_sets_are_uniform(policy: Policy) -> None:
    state = tiny().new_state(5)
    key = information_state_key(state, state.current_player)
    other = np.array([key ^ 1], np.uint64)  # one information set, not this one
    elsewhere = Policy(policy.info, other, np.array([1], np.uint16), np.array([0], np.uint16), np.ones(1, np.float32))
    n = len(state.legal_actions())
    assert elsewhere.action_probabilities(state) == dict.fromkeys(state.legal_actions(), 1.0 / n)


def test_an_empty_policy_refuses_to_play_uniform_silently(policy: Policy) -> None:
    empty = Policy(
        policy.info,
        np.zeros(0, np.uint64),
        np.zeros(0, np.uint16),
        np.zeros(0, np.uint16),
        np.zeros(0, np.float32),
    )
    with pytest.raises(PolicyFileError, match="empty"):
        empty.action_probabilities(tiny().new_state(5))


def test_a_policy_file_round_trips(policy: Policy, tmp_path: Path) -> None:
    path = tmp_path / "tiny.cfr"
    policy.save(path)
    back = Policy.load(path, game=tiny())
    assert back.info == policy.info
    for a, b in zip(
        (back.keys, back.counts, back.actions, back.probabilities),
        (policy.keys, policy.counts, policy.actions, policy.probabilities),
        strict=True,
    ):
        assert np.array_equal(a, b) and a.dtype == b.dtype


def _with_version(data: bytes, version: int) -> bytes:
    import hashlib

    body = bytearray(data[:-32])
    struct.pack_into("<I", body, len(MAGIC), version)
    return bytes(body) + hashlib.sha256(bytes(body)).digest()


def test_damaged_or_foreign_policy_files_are_refused(policy: Policy, tmp_path: Path) -> None:
    data = policy.to_bytes()
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 1
    cases = {
        "damaged": bytes(flipped),
        "not a Regalia CFR policy": b"PK\x03\x04" + data[4:],
        "cut off": data[: len(MAGIC) + 4],
        "version 2": _with_version(data, 2),
    }
    for words, bad in cases.items():
        with pytest.raises(PolicyFileError, match=words):
            Policy.from_bytes(bad)
    with pytest.raises(PolicyFileError, match="damaged"):
        Policy.from_bytes(data[:-40] + data[-32:])
    with pytest.raises(PolicyFileError, match="cannot read"):
        Policy.load(tmp_path / "missing.cfr")
    assert issubclass(PolicyFileError, ValueError)


def test_a_policy_keyed_by_another_scheme_is_refused(policy: Policy) -> None:
    import hashlib

    data = policy.to_bytes()
    (length,) = struct.unpack_from("<I", data, len(MAGIC) + 4)
    start = len(MAGIC) + 8
    header = json.loads(data[start : start + length])
    assert header["key"] == "regalia-recall-key-2"
    old = json.dumps({**header, "key": "regalia-recall-key-1"}, sort_keys=True, separators=(",", ":")).encode()
    body = data[: len(MAGIC) + 4] + struct.pack("<I", len(old)) + old + data[start + length : -32]
    with pytest.raises(PolicyFileError, match="keyed by 'regalia-recall-key-1'.*solve the game again"):
        Policy.from_bytes(body + hashlib.sha256(body).digest())


def test_a_policy_for_other_options_or_another_game_is_refused(policy: Policy) -> None:
    data = policy.to_bytes()
    other = regalia.make("duo-regna", **{**TINY, "max_rounds": 3})
    with pytest.raises(PolicyFileError, match="max_rounds=2"):
        Policy.from_bytes(data, game=other)
    with pytest.raises(PolicyFileError, match="'duo-regna', not 'duell-der-drachen'"):
        Policy.from_bytes(data, game=regalia.make("duell-der-drachen"))
    with pytest.raises(PolicyFileError, match="max_rounds"):
        policy.action_probabilities(other.new_state(1))


def test_solve_refuses_bad_arguments() -> None:
    for kwargs in (
        {"method": "vanilla", "iterations": 1},
        {},
        {"iterations": 0},
        {"iterations": True},
        {"seconds": -1.0},
        {"seconds": float("nan")},
    ):
        with pytest.raises(InvalidArgumentError):
            solve(tiny(), progress=False, **kwargs)
    with pytest.raises(InvalidArgumentError):
        _core.Mccfr(tiny(), "external", -1)


@pytest.mark.parametrize("method", ["external", "outcome"])
def test_a_time_budget_ends_the_run(method: str) -> None:
    # One external-sampling iteration of full Regine never ends: the budget is looked at
    # inside iterations too, and the subtrees finished are kept.
    p = solve(regalia.make("regine"), method=method, seconds=0.5, seed=1, progress=False)
    assert len(p) > 0
    assert p.info["seconds"] < 30  # a generous bound: it stopped, not ran on


def test_the_cfr_agent_plays_its_policy(policy: Policy, tmp_path: Path) -> None:
    path = tmp_path / "tiny.cfr"
    policy.save(path)
    record = regalia.play(tiny(), [f"cfr:policy={path}", "random"], seed=4)
    assert record.returns is not None
    again = regalia.play(tiny(), [f"cfr:policy={path}", "random"], seed=4)
    assert json.loads(record.to_json()) == json.loads(again.to_json())
    with pytest.raises(PolicyFileError, match="max_rounds"):
        regalia.play(regalia.make("duo-regna", **{**TINY, "max_rounds": 3}), [f"cfr:policy={path}", "random"])
    with pytest.raises(regalia.core.errors.InvalidOptionError):
        make_agent("cfr")
    with pytest.raises(PolicyFileError):
        make_agent(f"cfr:policy={tmp_path / 'missing.cfr'}")


INTERRUPTED = """
import regalia
from regalia.theory import cfr
print("started", flush=True)
policy = cfr.solve(regalia.make("regine"), method="outcome", iterations=10**9, seed=1, progress=False)
print(policy.info["interrupted"], len(policy) > 0, policy.info["iterations"] < 10**9, flush=True)
"""


def test_ctrl_c_returns_the_policy_so_far() -> None:
    code, out = interrupted(INTERRUPTED, 1.5)  # inside the native run
    assert code == 0, out
    assert out.strip() == "True True True"
