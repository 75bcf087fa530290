//! The regrets and average strategy of every information set met, keyed by its compact key
//! ([`super::key`]): one index entry per key pointing into flat arrays that hold, per legal
//! action, its id, its cumulative regret and its cumulative strategy weight (`f32`s; only
//! legal actions are stored, about 10 bytes each plus 16 to 32 per information set).
//!
//! The index is an open-addressing table of its own: the keys are hashes already, so a key's
//! low bits are its place, and a place holds the key and its slot together (16 bytes), so a
//! lookup in a table too large for the cache costs one miss, not the two of a map that keeps
//! its control bytes apart from its entries.

use crate::actions::{Action, ActionSet};

/// Where one information set's actions sit in the flat arrays: a handle that stays valid
/// while the table grows.
#[derive(Clone, Copy, Debug)]
pub struct Slot {
    start: u32,
    len: u16,
}

impl Slot {
    /// The information set's number of actions.
    #[inline]
    pub fn len(self) -> usize {
        self.len as usize
    }

    /// Whether it has no action (never: information sets are met where a seat decides).
    pub fn is_empty(self) -> bool {
        self.len == 0
    }

    fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.start as usize + self.len as usize
    }
}

/// A place of [`Index`]: a key and its slot, or nothing.
#[derive(Clone, Copy, Debug, Default)]
struct Place {
    key: u64,
    start: u32,
    len: u16,
    used: bool,
}

/// Keys to slots by linear probing from a key's low bits, at most half full.
#[derive(Debug, Default)]
struct Index {
    places: Vec<Place>,
    len: usize,
}

impl Index {
    /// The place of `key`: where it is, or the free place where it would go (the table is
    /// never full, so one is found).
    #[inline]
    fn find(&self, key: u64) -> usize {
        let mask = self.places.len() - 1;
        let mut i = key as usize & mask;
        loop {
            let p = &self.places[i];
            if !p.used || p.key == key {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// The slot of `key`, if stored.
    #[inline]
    fn get(&self, key: u64) -> Option<Slot> {
        if self.places.is_empty() {
            return None;
        }
        let p = self.places[self.find(key)];
        p.used.then_some(Slot {
            start: p.start,
            len: p.len,
        })
    }

    /// Stores `slot` for `key`, which is not stored yet.
    fn insert(&mut self, key: u64, slot: Slot) {
        if 2 * (self.len + 1) > self.places.len() {
            let old = std::mem::take(&mut self.places);
            self.places = vec![Place::default(); (2 * old.len()).max(64)];
            for p in old.into_iter().filter(|p| p.used) {
                let i = self.find(p.key);
                self.places[i] = p;
            }
        }
        let i = self.find(key);
        self.places[i] = Place {
            key,
            start: slot.start,
            len: slot.len,
            used: true,
        };
        self.len += 1;
    }

    /// Every stored key with its slot, in no particular order.
    fn iter(&self) -> impl Iterator<Item = (u64, Slot)> + '_ {
        self.places.iter().filter(|p| p.used).map(|p| {
            (
                p.key,
                Slot {
                    start: p.start,
                    len: p.len,
                },
            )
        })
    }
}

/// Regrets and average-strategy weights per information set.
#[derive(Debug, Default)]
pub struct Table {
    index: Index,
    actions: Vec<Action>,
    /// Per slot, its regrets then its weights, side by side (one or two cache lines).
    values: Vec<f32>,
}

/// One information set's entries, borrowed from the table.
pub struct Node<'t> {
    /// The legal actions, ascending.
    pub actions: &'t [Action],
    /// Cumulative regret per action.
    pub regrets: &'t mut [f32],
    /// Cumulative average-strategy weight per action.
    pub weights: &'t mut [f32],
}

impl Table {
    /// Information sets stored.
    pub fn len(&self) -> usize {
        self.index.len
    }

    /// Whether no information set is stored.
    pub fn is_empty(&self) -> bool {
        self.index.len == 0
    }

    /// The slot of `key`, made with zero regrets for the actions `legal()` gives the first
    /// time (only then is it called); `None` when the flat arrays are full (more than
    /// `u32::MAX` actions stored).
    #[inline]
    pub fn slot(&mut self, key: u64, legal: impl FnOnce() -> ActionSet) -> Option<Slot> {
        if let Some(slot) = self.index.get(key) {
            return Some(slot);
        }
        let legal = legal();
        let start = u32::try_from(self.actions.len()).ok()?;
        let len = legal.len();
        u32::try_from(self.actions.len() + len).ok()?;
        self.actions.extend(legal.iter());
        self.values.resize(self.values.len() + 2 * len, 0.0);
        let slot = Slot {
            start,
            len: len as u16,
        };
        self.index.insert(key, slot);
        Some(slot)
    }

    /// The entries of `slot`.
    #[inline]
    pub fn at(&mut self, slot: Slot) -> Node<'_> {
        let range = slot.range();
        let (regrets, weights) =
            self.values[2 * range.start..2 * range.end].split_at_mut(slot.len());
        Node {
            actions: &self.actions[range.clone()],
            regrets,
            weights,
        }
    }

    /// The `i`-th action of `slot`.
    #[inline]
    pub fn action(&self, slot: Slot, i: usize) -> Action {
        self.actions[slot.start as usize + i]
    }

    /// The average strategy of `key` as (action, probability) pairs, uniform where no weight
    /// was gathered; `None` for a key never met.
    pub fn average(&self, key: u64) -> Option<Vec<(Action, f32)>> {
        let slot = self.index.get(key)?;
        let range = slot.range();
        let probs = normalized(self.weights(slot));
        Some(self.actions[range].iter().copied().zip(probs).collect())
    }

    /// Every information set's average strategy, keys ascending: the keys, each key's number
    /// of actions, and all actions and probabilities concatenated in key order.
    pub fn averages(&self) -> (Vec<u64>, Vec<u16>, Vec<Action>, Vec<f32>) {
        let mut stored: Vec<(u64, Slot)> = self.index.iter().collect();
        stored.sort_unstable_by_key(|&(key, _)| key);
        let mut keys = Vec::with_capacity(stored.len());
        let mut counts = Vec::with_capacity(stored.len());
        let mut actions = Vec::with_capacity(self.actions.len());
        let mut probs = Vec::with_capacity(self.actions.len());
        for (key, slot) in stored {
            keys.push(key);
            let range = slot.range();
            counts.push(slot.len);
            actions.extend_from_slice(&self.actions[range.clone()]);
            probs.extend(normalized(self.weights(slot)));
        }
        (keys, counts, actions, probs)
    }

    /// Bytes held by the table (its map's slots and the flat arrays' capacity).
    pub fn bytes(&self) -> usize {
        self.index.places.capacity() * std::mem::size_of::<Place>()
            + self.actions.capacity() * std::mem::size_of::<Action>()
            + self.values.capacity() * std::mem::size_of::<f32>()
    }

    /// The average-strategy weights of `slot`.
    fn weights(&self, slot: Slot) -> &[f32] {
        let range = slot.range();
        &self.values[2 * range.start + slot.len()..2 * range.end]
    }
}

/// Regret matching into `out` (as long as `regrets`): positive regrets normalised, uniform
/// when none is positive.
#[inline]
pub fn regret_matching(regrets: &[f32], out: &mut [f32]) {
    let total: f32 = regrets.iter().map(|r| r.max(0.0)).sum();
    if total > 0.0 {
        for (p, r) in out.iter_mut().zip(regrets) {
            *p = r.max(0.0) / total;
        }
    } else {
        out.fill(1.0 / regrets.len() as f32);
    }
}

/// `weights` normalised to sum to 1, uniform when they sum to zero.
fn normalized(weights: &[f32]) -> Vec<f32> {
    let total: f32 = weights.iter().sum();
    if total > 0.0 {
        weights.iter().map(|w| w / total).collect()
    } else {
        vec![1.0 / weights.len() as f32; weights.len()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regret_matching_is_a_distribution() {
        for regrets in [
            vec![1.0, -2.0, 3.0],
            vec![-1.0, -1.0],
            vec![0.0; 4],
            vec![5.0],
        ] {
            let mut out = vec![0.0; regrets.len()];
            regret_matching(&regrets, &mut out);
            let sum: f32 = out.iter().sum();
            assert!((sum - 1.0).abs() < 1e-6, "{regrets:?} -> {out:?}");
            assert!(out.iter().all(|&p| p >= 0.0));
        }
        let mut out = [0.0; 3];
        regret_matching(&[1.0, -2.0, 3.0], &mut out);
        assert_eq!(out, [0.25, 0.0, 0.75]);
        let mut out = [0.0; 2];
        regret_matching(&[-1.0, 0.0], &mut out);
        assert_eq!(out, [0.5, 0.5]);
    }

    #[test]
    fn nodes_keep_their_actions_and_values() {
        let mut t = Table::default();
        let legal: ActionSet = [2, 5, 9].into_iter().collect();
        let slot = t.slot(7, || legal).unwrap();
        let n = t.at(slot);
        assert_eq!(n.actions, &[2, 5, 9]);
        n.weights[1] = 3.0;
        n.weights[2] = 1.0;
        let other: ActionSet = [0, 1].into_iter().collect();
        let eight = t.slot(8, || other).unwrap();
        t.at(eight).weights[0] = 1.0;
        assert_eq!(t.action(slot, 2), 9);
        let again = t.slot(7, || unreachable!("made once")).unwrap();
        assert_eq!(t.at(again).weights, &[0.0, 3.0, 1.0]);
        assert_eq!(t.len(), 2);
        assert_eq!(t.average(7).unwrap(), vec![(2, 0.0), (5, 0.75), (9, 0.25)]);
        assert_eq!(t.average(8).unwrap(), vec![(0, 1.0), (1, 0.0)]);
        assert_eq!(t.average(9), None);
        let (keys, counts, actions, probs) = t.averages();
        assert_eq!(keys, vec![7, 8]);
        assert_eq!(counts, vec![3, 2]);
        assert_eq!(actions, vec![2, 5, 9, 0, 1]);
        assert_eq!(probs, vec![0.0, 0.75, 0.25, 1.0, 0.0]);
    }

    #[test]
    fn the_index_finds_every_key_through_collisions_and_growth() {
        let mut t = Table::default();
        let legal: ActionSet = [1, 4].into_iter().collect();
        // Keys sharing their low bits probe past each other; 0 is a key like any other.
        let keys: Vec<u64> = (0..5000u64)
            .map(|i| if i % 2 == 0 { i << 40 } else { i })
            .collect();
        for (n, &k) in keys.iter().enumerate() {
            let slot = t.slot(k, || legal).unwrap();
            t.at(slot).weights[1] = n as f32 + 1.0;
        }
        assert_eq!(t.len(), keys.len());
        for &k in &keys {
            let again = t.slot(k, || unreachable!("made once")).unwrap();
            assert_eq!(t.at(again).actions, &[1, 4]);
            assert_eq!(t.average(k).unwrap(), vec![(1, 0.0), (4, 1.0)]);
        }
        assert_eq!(t.average(3 << 40), None);
        let (sorted, ..) = t.averages();
        let mut want = keys.clone();
        want.sort_unstable();
        assert_eq!(sorted, want);
    }
}
