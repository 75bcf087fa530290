//! Writing observation tensors field by field, the same way in every game (mirrored by
//! `python/regalia/reference/tensor.py`).

use crate::bits::iter_bits;

/// Appends fields to a zeroed flat tensor; writes past the end are dropped (never a panic).
pub struct TensorWriter<'a> {
    out: &'a mut [f32],
    at: usize,
}

impl<'a> TensorWriter<'a> {
    /// A writer at the start of `out` (which the caller has zeroed).
    pub fn new(out: &'a mut [f32]) -> Self {
        TensorWriter { out, at: 0 }
    }
    /// One float.
    pub fn scalar(&mut self, x: f32) {
        if let Some(slot) = self.out.get_mut(self.at) {
            *slot = x;
        }
        self.at += 1;
    }
    /// 1.0 or 0.0.
    pub fn flag(&mut self, b: bool) {
        self.scalar(if b { 1.0 } else { 0.0 });
    }
    /// `n` floats: 1.0 at bit `i` of `mask` for `i < n` (only the ones are written: the
    /// tensor is zeroed).
    pub fn mask(&mut self, mask: u64, n: usize) {
        let bits = if n < 64 { mask & ((1 << n) - 1) } else { mask };
        for i in iter_bits(bits) {
            self.set(i);
        }
        self.at += n;
    }
    /// `n` floats, 1.0 at `hot` (none when `None` or out of range).
    pub fn one_hot(&mut self, n: usize, hot: Option<usize>) {
        if let Some(i) = hot.filter(|&i| i < n) {
            self.set(i);
        }
        self.at += n;
    }
    /// Writes 1.0 at offset `i` from the current position (dropped past the end).
    fn set(&mut self, i: usize) {
        if let Some(slot) = self.out.get_mut(self.at + i) {
            *slot = 1.0;
        }
    }
    /// How many floats have been written (to check a layout against its declared size).
    pub fn position(&self) -> usize {
        self.at
    }
}
