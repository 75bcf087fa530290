//! Small helpers for card sets kept as `u64` bit masks (bit `i` set = card `i` present).

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

/// The index of the `n`-th set bit (0-based), if there are that many.
pub fn nth_bit(mask: u64, n: usize) -> Option<usize> {
    iter_bits(mask).nth(n)
}

/// Number of set bits.
pub fn count(mask: u64) -> usize {
    mask.count_ones() as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_round_trip() {
        assert_eq!(iter_bits(0b1010_0110).collect::<Vec<_>>(), vec![1, 2, 5, 7]);
        assert_eq!(nth_bit(0b1010_0110, 2), Some(5));
        assert_eq!(nth_bit(0b1010_0110, 4), None);
        assert_eq!(count(u64::MAX), 64);
    }
}
