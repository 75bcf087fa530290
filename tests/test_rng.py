"""The generator is the same in Rust and Python: pinned numbers and identical shuffles."""

from __future__ import annotations

import regalia
from regalia.core.seeds import derive_seed
from regalia.reference.rng import Rng


def test_pinned_outputs() -> None:
    # Computed once by the Rust engine (rust/engine/src/rng.rs); any drift in either breaks this.
    r = Rng.new(42)
    assert [r.next_u32() for _ in range(4)] == PINNED_42
    assert derive_seed(7, 3) == PINNED_DERIVE


def test_below_is_unbiased_and_in_range() -> None:
    r = Rng.new(1)
    counts = [0] * 7
    for _ in range(7000):
        counts[r.below(7)] += 1
    assert all(850 < c < 1150 for c in counts), counts


def test_shuffle_matches_the_engine_through_a_game() -> None:
    # The dragon pile is shuffled at set-up: equal piles for many seeds mean equal shuffles.
    rust, ref = (regalia.make("duo-regna", backend=b) for b in ("rust", "reference"))
    for seed in range(200):
        assert rust.new_state(seed).to_json() == ref.new_state(seed).to_json()


PINNED_42 = [3344234869, 784068600, 3015419514, 3010714124]
PINNED_DERIVE = 15923061589221109599
