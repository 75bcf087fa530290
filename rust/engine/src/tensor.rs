//! Writing observation tensors field by field, the same way in every game (mirrored by
//! `python/regalia/reference/tensor.py`).

use crate::bits::iter_bits;

/// Where a [`TensorWriter`] puts a tensor's entries: a zeroed dense buffer (`[f32]`), or
/// anything else that takes each entry as it is written, such as the information-state
/// keys' digest ([`crate::cfr::key`]), which needs no buffer to fill, clear and scan.
pub trait TensorOut {
    /// Entry `i` of the tensor is `x`. A writer puts each entry at most once and may put
    /// zeros; the entries it never puts are zero; an `i` past the tensor's end is dropped.
    fn put(&mut self, i: usize, x: f32);
}

impl TensorOut for [f32] {
    #[inline]
    fn put(&mut self, i: usize, x: f32) {
        if let Some(slot) = self.get_mut(i) {
            *slot = x;
        }
    }
}

/// Appends fields to a zeroed flat tensor; writes past the end are dropped (never a panic).
pub struct TensorWriter<'a, O: TensorOut + ?Sized = [f32]> {
    out: &'a mut O,
    at: usize,
}

impl<'a, O: TensorOut + ?Sized> TensorWriter<'a, O> {
    /// A writer at the start of `out` (which the caller has zeroed).
    #[inline]
    pub fn new(out: &'a mut O) -> Self {
        TensorWriter { out, at: 0 }
    }
    /// One float.
    #[inline]
    pub fn scalar(&mut self, x: f32) {
        self.out.put(self.at, x);
        self.at += 1;
    }
    /// 1.0 or 0.0.
    #[inline]
    pub fn flag(&mut self, b: bool) {
        self.scalar(if b { 1.0 } else { 0.0 });
    }
    /// `n` floats: 1.0 at bit `i` of `mask` for `i < n` (only the ones are written: the
    /// tensor is zeroed).
    #[inline]
    pub fn mask(&mut self, mask: u64, n: usize) {
        let bits = if n < 64 { mask & ((1 << n) - 1) } else { mask };
        for i in iter_bits(bits) {
            self.set(i);
        }
        self.at += n;
    }
    /// `n` floats, 1.0 at `hot` (none when `None` or out of range).
    #[inline]
    pub fn one_hot(&mut self, n: usize, hot: Option<usize>) {
        if let Some(i) = hot.filter(|&i| i < n) {
            self.set(i);
        }
        self.at += n;
    }
    /// Writes 1.0 at offset `i` from the current position (dropped past the end).
    #[inline]
    fn set(&mut self, i: usize) {
        self.out.put(self.at + i, 1.0);
    }
    /// How many floats have been written (to check a layout against its declared size).
    pub fn position(&self) -> usize {
        self.at
    }
}
