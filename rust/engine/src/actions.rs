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

    /// The set as bits, 64 actions a word (bit `b` of word `w`: action `64 * w + b`).
    #[inline]
    pub fn words(&self) -> &[u64; MAX_ACTIONS / 64] {
        &self.words
    }

    /// The actions in ascending order.
    pub fn iter(&self) -> ActionIter {
        let occupied = self
            .words
            .iter()
            .enumerate()
            .fold(0u8, |m, (i, &w)| m | u8::from(w != 0) << i);
        ActionIter {
            words: self.words,
            occupied,
            bits: 0,
            base: 0,
        }
    }
}

/// Ascending iterator over an [`ActionSet`]. It jumps from one non-empty word to the next
/// (their mask is taken once), so an empty word costs nothing and a step is a branch or two
/// whatever the set.
pub struct ActionIter {
    words: [u64; MAX_ACTIONS / 64],
    /// The words not yet started that hold an action (bit i: word i).
    occupied: u8,
    /// What is left of the word under way.
    bits: u64,
    /// The id of bit 0 of the word under way.
    base: usize,
}

impl ActionIter {
    /// Starts on the next word that holds an action; false when none is left.
    #[inline]
    fn start_next_word(&mut self) -> bool {
        if self.occupied == 0 {
            return false;
        }
        let i = self.occupied.trailing_zeros() as usize;
        self.occupied &= self.occupied - 1;
        self.bits = self.words.get(i).copied().unwrap_or(0);
        self.base = i * 64;
        true
    }
}

impl Iterator for ActionIter {
    type Item = Action;

    #[inline]
    fn next(&mut self) -> Option<Action> {
        if self.bits == 0 && !self.start_next_word() {
            return None;
        }
        let bit = self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some((self.base + bit) as Action)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.len();
        (left, Some(left))
    }

    /// Word by word, bit by bit: the loop a caller's `for_each` (a list filled in place)
    /// compiles to, with no state kept between actions.
    fn fold<B, F: FnMut(B, Action) -> B>(mut self, init: B, mut f: F) -> B {
        let mut acc = init;
        loop {
            while self.bits != 0 {
                let bit = self.bits.trailing_zeros() as usize;
                self.bits &= self.bits - 1;
                acc = f(acc, (self.base + bit) as Action);
            }
            if !self.start_next_word() {
                return acc;
            }
        }
    }
}

impl ExactSizeIterator for ActionIter {
    /// The actions not yet yielded (a count of bits: what a caller sizes a list by).
    fn len(&self) -> usize {
        let waiting = self
            .words
            .iter()
            .enumerate()
            .filter(|&(i, _)| self.occupied >> i & 1 == 1)
            .map(|(_, w)| w.count_ones() as usize);
        self.bits.count_ones() as usize + waiting.sum::<usize>()
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
    fn the_iterator_knows_how_many_actions_are_left() {
        let set: ActionSet = [3, 64, 65, 300, 511].into_iter().collect();
        let mut it = set.iter();
        for left in (0..=5).rev() {
            assert_eq!(it.len(), left);
            assert_eq!(it.size_hint(), (left, Some(left)));
            assert_eq!(it.next().is_some(), left > 0);
        }
        assert_eq!(ActionSet::new().iter().len(), 0);
    }

    #[test]
    fn iteration_yields_exactly_the_members_in_order() {
        let mut rng = crate::rng::Rng::new(7);
        for size in [0, 1, 2, 5, 40, 300] {
            let set: ActionSet = (0..size)
                .map(|_| rng.below(MAX_ACTIONS as u32) as Action)
                .collect();
            let want: Vec<Action> = (0..MAX_ACTIONS as Action)
                .filter(|&a| set.contains(a as usize))
                .collect();
            assert_eq!(set.iter().collect::<Vec<_>>(), want);
            let mut by_fold = Vec::new();
            set.iter().for_each(|a| by_fold.push(a));
            assert_eq!(by_fold, want);
            assert_eq!(set.iter().len(), set.len());
            assert_eq!(set.is_empty(), want.is_empty());
        }
    }

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
