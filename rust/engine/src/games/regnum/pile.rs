//! The discard pile: an ordered stack of resource kinds in a fixed array (so the state stays
//! `Copy`), saved as a plain JSON list from the bottom card to the top one.

use super::cards::MAX_RESOURCES;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A stack of at most [`MAX_RESOURCES`] resource kinds.
#[derive(Clone, Copy, Debug)]
pub struct Pile {
    len: u8,
    cards: [u8; MAX_RESOURCES],
}

impl Default for Pile {
    fn default() -> Self {
        Pile {
            len: 0,
            cards: [0; MAX_RESOURCES],
        }
    }
}

impl Pile {
    /// The cards, bottom first.
    pub fn as_slice(&self) -> &[u8] {
        &self.cards[..(self.len as usize).min(MAX_RESOURCES)]
    }
    /// Puts `kind` on top (ignored when full, which a valid card set never reaches).
    pub fn push(&mut self, kind: u8) {
        if let Some(slot) = self.cards.get_mut(self.len as usize) {
            *slot = kind;
            self.len += 1;
        }
    }
    /// Takes the top card.
    pub fn pop(&mut self) -> Option<u8> {
        let top = self.top()?;
        self.len -= 1;
        Some(top)
    }
    /// The top card.
    pub fn top(&self) -> Option<u8> {
        self.as_slice().last().copied()
    }
    /// Takes the topmost card of `kind`, if there is one.
    pub fn take(&mut self, kind: u8) -> bool {
        let len = self.as_slice().len();
        match self.as_slice().iter().rposition(|&k| k == kind) {
            Some(at) => {
                self.cards.copy_within(at + 1..len, at);
                self.len -= 1;
                true
            }
            None => false,
        }
    }
    /// How many cards of `kind` the pile holds.
    pub fn count(&self, kind: u8) -> usize {
        self.as_slice().iter().filter(|&&k| k == kind).count()
    }
    /// Whether the pile is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl PartialEq for Pile {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Pile {}

impl Serialize for Pile {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Pile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let cards = Vec::<u8>::deserialize(d)?;
        if cards.len() > MAX_RESOURCES {
            return Err(D::Error::custom(format!(
                "a pile holds at most {MAX_RESOURCES} cards"
            )));
        }
        let mut pile = Pile::default();
        for k in cards {
            pile.push(k);
        }
        Ok(pile)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stack_order_and_taking_the_topmost_of_a_kind() {
        let mut p = Pile::default();
        for k in [1, 2, 1, 3] {
            p.push(k);
        }
        assert!(p.take(1));
        assert_eq!(p.as_slice(), &[1, 2, 3]);
        assert!(!p.take(7));
        assert_eq!((p.pop(), p.top(), p.count(1)), (Some(3), Some(2), 1));
        let back: Pile = serde_json::from_str(&serde_json::to_string(&p).unwrap()).unwrap();
        assert_eq!(back, p);
        assert!(serde_json::from_str::<Pile>(&format!("{:?}", vec![0; 200])).is_err());
    }
}
