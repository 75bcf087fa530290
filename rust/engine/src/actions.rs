//! Action ids and the fixed-size set of legal actions every game fills.

/// An action id, in `0..game.num_actions()`.
pub type Action = u16;

/// The largest action space a game may have.
pub const MAX_ACTIONS: usize = 512;

/// A set of action ids as a 512-bit set: `Copy`, no heap, iterates in ascending order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ActionSet {
    words: [u64; MAX_ACTIONS / 64],
}

impl ActionSet {
    /// The empty set.
    pub const fn new() -> Self {
        ActionSet {
            words: [0; MAX_ACTIONS / 64],
        }
    }

    /// Adds `a` (ids at or above [`MAX_ACTIONS`] are a bug in the game and ignored).
    #[inline]
    pub fn insert(&mut self, a: Action) {
        let a = a as usize;
        if a < MAX_ACTIONS {
            self.words[a / 64] |= 1 << (a % 64);
        }
    }

    /// Adds `offset + i` for every set bit `i` of `bits`: a run of actions in one step (ids
    /// at or above [`MAX_ACTIONS`] are ignored).
    #[inline]
    pub fn insert_bits(&mut self, offset: usize, bits: u64) {
        let (word, shift) = (offset / 64, offset % 64);
        if let Some(w) = self.words.get_mut(word) {
            *w |= bits << shift;
        }
        if shift > 0 {
            if let Some(w) = self.words.get_mut(word + 1) {
                *w |= bits >> (64 - shift);
            }
        }
    }

    /// Whether `a` is in the set.
    #[inline]
    pub fn contains(&self, a: usize) -> bool {
        a < MAX_ACTIONS && self.words[a / 64] & (1 << (a % 64)) != 0
    }

    /// How many actions the set holds.
    #[inline]
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The `n`-th smallest action of the set, if there is one.
    pub fn nth(&self, mut n: usize) -> Option<Action> {
        for (i, &w) in self.words.iter().enumerate() {
            let c = w.count_ones() as usize;
            if n < c {
                let mut w = w;
                for _ in 0..n {
                    w &= w - 1;
                }
                return Some((i * 64 + w.trailing_zeros() as usize) as Action);
            }
            n -= c;
        }
        None
    }

    /// The actions in ascending order.
    pub fn iter(&self) -> ActionIter {
        ActionIter {
            words: self.words,
            word: 0,
        }
    }
}

/// Ascending iterator over an [`ActionSet`].
pub struct ActionIter {
    words: [u64; MAX_ACTIONS / 64],
    word: usize,
}

impl Iterator for ActionIter {
    type Item = Action;

    fn next(&mut self) -> Option<Action> {
        while self.word < self.words.len() {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some((self.word * 64 + w.trailing_zeros() as usize) as Action);
            }
            self.word += 1;
        }
        None
    }
}

impl FromIterator<Action> for ActionSet {
    fn from_iter<I: IntoIterator<Item = Action>>(iter: I) -> Self {
        let mut s = ActionSet::new();
        for a in iter {
            s.insert(a);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_of_bits_lands_at_its_offset_across_words() {
        for offset in [0, 3, 60, 64, 127, 500, 511, 512, 600] {
            let mut set = ActionSet::new();
            set.insert_bits(offset, 0b1011);
            let want: Vec<usize> = [0, 1, 3]
                .iter()
                .map(|i| offset + i)
                .filter(|&a| a < MAX_ACTIONS)
                .collect();
            let got: Vec<usize> = set.iter().map(|a| a as usize).collect();
            assert_eq!(got, want, "offset {offset}");
        }
    }

    #[test]
    fn iterates_sorted_and_counts() {
        let s: ActionSet = [200u16, 3, 64, 63, 0].into_iter().collect();
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![0, 3, 63, 64, 200]);
        assert_eq!(s.len(), 5);
        assert_eq!(s.nth(3), Some(64));
        assert_eq!(s.nth(5), None);
        assert!(s.contains(200) && !s.contains(199) && !s.contains(5000));
    }
}
