//! Small helpers for card sets kept as `u64` bit masks (bit `i` set = card `i` present), and
//! [`Set128`] for decks of up to 128 cards.

use serde::de::{Deserializer, Error as _};
use serde::{Deserialize, Serialize, Serializer};

/// The indices of the set bits, ascending.
pub fn iter_bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(i)
        }
    })
}

/// For each rank `r < 8` and byte `b`, at `r * 256 + b`: the position of the `r`-th set bit
/// of `b` (0-based; 8 when `b` has no such bit).
static SELECT_IN_BYTE: [u8; 8 * 256] = {
    let mut table = [8u8; 8 * 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut bit, mut rank) = (0, 0);
        while bit < 8 {
            if byte >> bit & 1 == 1 {
                table[rank * 256 + byte] = bit as u8;
                rank += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// The index of the `n`-th set bit (0-based), if there are that many. Without a branch on
/// the bits (every random draw from a deck asks for one, with unpredictable `n`): the bit
/// counts of the bytes and their running sums side by side in one word, the bytes whose
/// running sum is at most `n` skipped, then the byte's bit looked up.
pub fn nth_bit(mask: u64, n: usize) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    if n >= count(mask) {
        return None;
    }
    let mut bytes = mask - ((mask >> 1) & 0x5555_5555_5555_5555);
    bytes = (bytes & 0x3333_3333_3333_3333) + ((bytes >> 2) & 0x3333_3333_3333_3333);
    bytes = (bytes + (bytes >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    // Byte i: the set bits of bytes 0..=i (at most 64). A byte's high bit then stays set
    // exactly where that running sum is at most `n` (below 64).
    let sums = bytes.wrapping_mul(ONES);
    let skipped = (((n as u64 * ONES) | HIGH) - sums) & HIGH;
    let shift = skipped.count_ones() * 8;
    let rank = n as u64 - (((sums << 8) >> shift) & 0xFF);
    let byte = (mask >> shift) & 0xFF;
    Some(shift as usize + SELECT_IN_BYTE[(rank * 256 + byte) as usize] as usize)
}

/// Number of set bits.
pub fn count(mask: u64) -> usize {
    mask.count_ones() as usize
}

/// A set of card ids below 128 in one `u128`: `Copy`, and saved in JSON as the ascending list
/// of its members (mirrored by `set128_to_json` / `set128_from_json` in the reference).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Set128(pub u128);

impl Set128 {
    /// The empty set.
    pub const EMPTY: Set128 = Set128(0);

    /// The set `{0, 1, .., n - 1}` (`n <= 128`).
    pub const fn below(n: usize) -> Set128 {
        if n >= 128 {
            Set128(u128::MAX)
        } else {
            Set128((1 << n) - 1)
        }
    }

    /// The set `{i}` (empty when `i >= 128`).
    pub const fn single(i: usize) -> Set128 {
        if i < 128 {
            Set128(1 << i)
        } else {
            Set128(0)
        }
    }

    /// Whether `i` is a member.
    #[inline]
    pub const fn contains(self, i: usize) -> bool {
        i < 128 && self.0 & (1 << i) != 0
    }

    /// Adds `i` (ignored when `i >= 128`).
    #[inline]
    pub fn insert(&mut self, i: usize) {
        self.0 |= Set128::single(i).0;
    }

    /// Removes `i`.
    #[inline]
    pub fn remove(&mut self, i: usize) {
        self.0 &= !Set128::single(i).0;
    }

    /// Number of members.
    #[inline]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The smallest member, if any.
    #[inline]
    pub fn first(self) -> Option<usize> {
        (self.0 != 0).then(|| self.0.trailing_zeros() as usize)
    }

    /// The members, ascending.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        let (lo, hi) = (self.0 as u64, (self.0 >> 64) as u64);
        iter_bits(lo).chain(iter_bits(hi).map(|i| i + 64))
    }

    /// The `n`-th smallest member (0-based), if there are that many.
    pub fn nth(self, n: usize) -> Option<usize> {
        let lo = self.0 as u64;
        match n.checked_sub(count(lo)) {
            None => nth_bit(lo, n),
            Some(rest) => nth_bit((self.0 >> 64) as u64, rest).map(|i| i + 64),
        }
    }
}

impl std::ops::BitOr for Set128 {
    type Output = Set128;
    fn bitor(self, other: Set128) -> Set128 {
        Set128(self.0 | other.0)
    }
}

impl std::ops::BitAnd for Set128 {
    type Output = Set128;
    fn bitand(self, other: Set128) -> Set128 {
        Set128(self.0 & other.0)
    }
}

impl std::ops::Sub for Set128 {
    type Output = Set128;
    /// The members of `self` that are not in `other`.
    fn sub(self, other: Set128) -> Set128 {
        Set128(self.0 & !other.0)
    }
}

impl Serialize for Set128 {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Set128 {
    /// Accepts only a strictly ascending list of ids below 128 (the form it is saved in).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let ids = Vec::<u64>::deserialize(deserializer)?;
        let mut set = Set128::EMPTY;
        let mut last: Option<u64> = None;
        for id in ids {
            if id >= 128 || last.is_some_and(|l| l >= id) {
                return Err(D::Error::custom(
                    "a card set must list distinct ids below 128 in ascending order",
                ));
            }
            set.insert(id as usize);
            last = Some(id);
        }
        Ok(set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_round_trip() {
        assert_eq!(iter_bits(0b1010_0110).collect::<Vec<_>>(), vec![1, 2, 5, 7]);
        assert_eq!(nth_bit(0b1010_0110, 2), Some(5));
        assert_eq!(nth_bit(0b1010_0110, 4), None);
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            x = x.rotate_left(17).wrapping_mul(0xBF58_476D_1CE4_E5B9) ^ (x >> 29);
            // Sparse, even and dense masks (bytes with every rank).
            for mask in [x & x.rotate_left(23), x, x | x.rotate_left(23)] {
                for n in 0..=count(mask) {
                    assert_eq!(nth_bit(mask, n), iter_bits(mask).nth(n), "{mask:#x} {n}");
                }
            }
        }
        assert_eq!(nth_bit(u64::MAX, 63), Some(63));
        assert_eq!(nth_bit(1 << 63, 0), Some(63));
        assert_eq!(count(u64::MAX), 64);
    }

    #[test]
    fn set128_members_and_json() {
        let mut s = Set128::EMPTY;
        for i in [3, 63, 64, 79, 127] {
            s.insert(i);
        }
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![3, 63, 64, 79, 127]);
        assert_eq!(
            (s.len(), s.first(), s.nth(2), s.nth(4), s.nth(5)),
            (5, Some(3), Some(64), Some(127), None)
        );
        assert!(s.contains(79) && !s.contains(80) && !s.contains(500));
        s.remove(63);
        assert_eq!(serde_json::to_string(&s).unwrap(), "[3,64,79,127]");
        let back: Set128 = serde_json::from_str("[3,64,79,127]").unwrap();
        assert_eq!(back, s);
        for bad in ["[3,3]", "[5,4]", "[128]", "[-1]", "3", "[1.5]"] {
            assert!(serde_json::from_str::<Set128>(bad).is_err(), "{bad}");
        }
        assert_eq!(Set128::below(80).len(), 80);
        assert_eq!(Set128::below(128), Set128(u128::MAX));
    }
}
