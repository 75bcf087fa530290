"""Writing observation tensors field by field, as ``rust/engine/src/tensor.rs`` does."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt


class TensorWriter:
    """Appends fields to a zeroed flat float32 array."""

    def __init__(self, out: npt.NDArray[np.float32]) -> None:
        self.out = out
        self.at = 0

    def scalar(self, x: float) -> None:
        """One float (computed by the caller in float32 where the engine divides)."""
        if self.at < len(self.out):
            self.out[self.at] = x
        self.at += 1

    def flag(self, b: bool) -> None:
        """1.0 or 0.0."""
        self.scalar(1.0 if b else 0.0)

    def mask(self, mask: int, n: int) -> None:
        """``n`` floats: 1.0 at bit ``i`` of ``mask``."""
        bits = mask & ((1 << n) - 1)
        while bits:
            low = bits & -bits
            i = self.at + low.bit_length() - 1
            if i < len(self.out):
                self.out[i] = 1.0
            bits ^= low
        self.at += n

    def one_hot(self, n: int, hot: int | None) -> None:
        """``n`` floats, 1.0 at ``hot``."""
        if hot is not None and 0 <= hot < n and self.at + hot < len(self.out):
            self.out[self.at + hot] = 1.0
        self.at += n


def ratio(a: int, b: int) -> float:
    """``a / b`` computed in float32, as the engine computes it."""
    return float(np.float32(a) / np.float32(b))
