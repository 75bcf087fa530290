//! The one seeded generator every game draws from, mirrored bit for bit by
//! `python/regalia/reference/rng.py`.
//!
//! * A seed (any `u64`) is expanded with SplitMix64 into the two words of a PCG32
//!   (XSH-RR, 64-bit state, 32-bit output): first the state, then the increment (forced odd).
//! * `below(n)` draws uniformly from `0..n` by rejection (never a biased modulo).
//! * `shuffle` is Fisher–Yates from the last index down.

use serde::{Deserialize, Serialize};

const PCG_MULT: u64 = 6_364_136_223_846_793_005;

/// One step of SplitMix64: advances `x` and returns the next 64-bit output.
pub fn splitmix64(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Derives the seed of the `index`-th sub-stream (a game in a batch, a determinization).
pub fn derive_seed(seed: u64, index: u64) -> u64 {
    let mut x = seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03);
    splitmix64(&mut x)
}

/// Divisors with a precomputed [`FASTMOD`] entry (every legal-action count, every deck size).
const FASTMOD_LIMIT: u32 = 1024;

/// `2^64 / n` rounded up (`u64::MAX / n + 1`, which wraps to 0 for `n = 1`) for each small `n`.
static FASTMOD: [u64; FASTMOD_LIMIT as usize] = {
    let mut table = [0u64; FASTMOD_LIMIT as usize];
    let mut n = 1;
    while n < FASTMOD_LIMIT as usize {
        table[n] = (u64::MAX / n as u64).wrapping_add(1);
        n += 1;
    }
    table
};

/// `r % n` (`n >= 1`), exactly, with two multiplications instead of a division when `n` is
/// small (Lemire, Kaser and Kurz, "Faster remainder by direct computation", 2019).
#[inline]
fn remainder(r: u32, n: u32) -> u32 {
    match FASTMOD.get(n as usize) {
        Some(&m) if n > 0 => ((m.wrapping_mul(r as u64) as u128 * n as u128) >> 64) as u32,
        _ => r % n,
    }
}

/// PCG32 (XSH-RR): 16 bytes, `Copy`, serialised as `{"state": u64, "inc": u64}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rng {
    state: u64,
    inc: u64,
}

impl Rng {
    /// A generator seeded from `seed` through SplitMix64.
    pub fn new(seed: u64) -> Self {
        let mut x = seed;
        let state = splitmix64(&mut x);
        let inc = splitmix64(&mut x) | 1;
        Rng { state, inc }
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        let old = self.state;
        self.state = old.wrapping_mul(PCG_MULT).wrapping_add(self.inc);
        let xorshifted = (((old >> 18) ^ old) >> 27) as u32;
        let rot = (old >> 59) as u32;
        xorshifted.rotate_right(rot)
    }

    /// A uniform draw from `0..n` (`n >= 1`), by rejection of the biased low range.
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        let n = n.max(1);
        loop {
            let r = self.next_u32();
            // The rejected range is `0..(2^32 mod n)`, below `n`: a draw of at least `n` is
            // kept without computing its bound (one division saved on nearly every draw).
            if r >= n || r >= remainder(n.wrapping_neg(), n) {
                return remainder(r, n);
            }
        }
    }

    /// A uniform index into a slice of length `len` (`len >= 1`).
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u32) as usize
    }

    /// Fisher–Yates shuffle, from the last index down.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// A new generator seeded from the next 64 bits of this one (high half drawn first):
    /// how a determinized state gets a generator its observer cannot predict.
    pub fn fork(&mut self) -> Rng {
        let hi = self.next_u32() as u64;
        let lo = self.next_u32() as u64;
        Rng::new((hi << 32) | lo)
    }

    /// True when the increment is odd, as every generator made by [`Rng::new`] has it.
    pub fn is_valid(&self) -> bool {
        self.inc & 1 == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PINNED_42: [u32; 4] = [3344234869, 784068600, 3015419514, 3010714124];
    const PINNED_DERIVE: u64 = 15923061589221109599;

    #[test]
    fn known_values_are_stable() {
        // Pinned outputs: tests/test_rng.py checks the same numbers against the Python mirror.
        let mut r = Rng::new(42);
        let got: Vec<u32> = (0..4).map(|_| r.next_u32()).collect();
        assert_eq!(got, PINNED_42);
        assert_eq!(derive_seed(7, 3), PINNED_DERIVE);
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut r = Rng::new(7);
        let mut seen = [0u32; 5];
        for _ in 0..5000 {
            seen[r.below(5) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c > 800 && c < 1200), "{seen:?}");
    }

    #[test]
    fn the_fast_remainder_is_the_remainder() {
        let mut r = Rng::new(11);
        for n in 1..FASTMOD_LIMIT + 3 {
            let edges = [
                0,
                1,
                n - 1,
                n,
                n + 1,
                u32::MAX,
                u32::MAX - 1,
                n.wrapping_neg(),
            ];
            for x in edges.into_iter().chain((0..200).map(|_| r.next_u32())) {
                assert_eq!(remainder(x, n), x % n, "{x} % {n}");
            }
        }
        assert_eq!(remainder(12345, u32::MAX), 12345);
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut r = Rng::new(3);
        let mut v: Vec<u32> = (0..40).collect();
        r.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort();
        assert_eq!(sorted, (0..40).collect::<Vec<_>>());
        assert_ne!(v, sorted);
    }
}
