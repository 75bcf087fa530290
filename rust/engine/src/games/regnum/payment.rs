//! Whether a hand can pay a cost, or what is left of one: Hall's condition over the sets of
//! colours. Both sides are counted per set of colours once: the hand as a [`Supply`] (once
//! per legal-move list, however many characters it is weighed against), the cost as a
//! [`Demand`] (each character's when the card set is read), so that each check is a
//! comparison of sixteen small counts.

use super::cards::{KINDS, KIND_MASK, PAIR_FIRST, PAIR_SECOND};

/// Sets of colours (bit c: colour c).
const SETS: usize = 16;

/// For each set of colours, the kinds of card that pay for some colour of it (bit k: kind k).
const PAYERS: [u16; SETS] = {
    let mut table = [0u16; SETS];
    let mut set = 1;
    while set < SETS {
        let mut k = 0;
        while k < KINDS {
            if KIND_MASK[k] & set as u8 != 0 {
                table[set] |= 1 << k;
            }
            k += 1;
        }
        set += 1;
    }
    table
};

/// For each kind, for each set of colours: all ones if the kind pays for some colour of the
/// set, else zero (a mask over the hand's count of the kind).
const PAYS: [[u8; SETS]; KINDS] = {
    let mut table = [[0u8; SETS]; KINDS];
    let mut k = 0;
    while k < KINDS {
        let mut set = 0;
        while set < SETS {
            if KIND_MASK[k] & set as u8 != 0 {
                table[k][set] = u8::MAX;
            }
            set += 1;
        }
        k += 1;
    }
    table
};

/// For each colour, for each set of colours: 1 if the set holds the colour.
const HOLDS: [[u8; SETS]; 4] = {
    let mut table = [[0u8; SETS]; 4];
    let mut c = 0;
    while c < 4 {
        let mut set = 0;
        while set < SETS {
            table[c][set] = (set >> c & 1) as u8;
            set += 1;
        }
        c += 1;
    }
    table
};

/// A hand seen as payers: how many of its cards can pay for some colour of each set of
/// colours, its size, and the kinds it holds (bit k: kind k). A hand holds at most the card
/// set's resources (`MAX_RESOURCES`, 128), so each count fits a byte with room for one more.
#[derive(Clone, Copy, Debug)]
pub(super) struct Supply {
    per_set: [u8; SETS],
    total: u32,
    kinds: u16,
}

impl Supply {
    pub(super) fn of(hand: &[u8; KINDS]) -> Supply {
        let mut per_set = [0u8; SETS];
        let (mut total, mut kinds) = (0, 0u16);
        for (k, &c) in hand.iter().enumerate() {
            for (n, &pays) in per_set.iter_mut().zip(&PAYS[k]) {
                *n = n.wrapping_add(c & pays);
            }
            total += c as u32;
            kinds |= u16::from(c > 0) << k;
        }
        Supply {
            per_set,
            total,
            kinds,
        }
    }

    /// The same hand less one card of kind `k`, of which it holds `held` (at least one).
    fn without(&self, k: usize, held: u8) -> Supply {
        let mut per_set = self.per_set;
        for (n, &pays) in per_set.iter_mut().zip(&PAYS[k]) {
            *n = n.wrapping_sub(1 & pays);
        }
        Supply {
            per_set,
            total: self.total - 1,
            kinds: self.kinds & !(u16::from(held == 1) << k),
        }
    }

    /// Whether this hand pays `demand`; with `wild`, one card may count as any colour
    /// (Goldmint's wildcard, still unused).
    pub(super) fn pays(&self, demand: &Demand, wild: bool) -> bool {
        // Both sides are weighed whatever the first says: the answer depends on the cards,
        // which a branch could not foresee.
        (self.total >= demand.cards)
            & self.fills(demand.per_set, demand.cards, demand.pairs, wild, 0)
    }

    /// [`Supply::pays`] for `pairs` `2=` icons still to name, their colours taken in rising
    /// order from `from` (the order they are named in does not change what they need).
    fn fills(&self, per_set: [u8; SETS], cards: u32, pairs: u8, wild: bool, from: usize) -> bool {
        if pairs == 0 {
            return self.hall(&per_set, cards, wild);
        }
        (from..4).fold(false, |ok, c| {
            let mut with = per_set;
            for (n, &h) in with.iter_mut().zip(&HOLDS[c]) {
                *n += 2 * h;
            }
            ok | self.fills(with, cards, pairs - 1, wild, c)
        })
    }

    /// Hall's condition: each set of colours is wanted by no more cards than can pay for
    /// some colour of it (`cards`: the whole demand, at most the hand's size). With the
    /// wildcard a set may want one card more, and some card x must then do for all such
    /// sets: x leaves each of them that it could have paid for, and pays any colour.
    #[inline(always)]
    fn hall(&self, want: &[u8; SETS], cards: u32, wild: bool) -> bool {
        if cards == 0 {
            return true;
        }
        if !wild {
            let mut short = 0u8;
            for (&w, &had) in want.iter().zip(&self.per_set) {
                short |= w.saturating_sub(had);
            }
            return short == 0;
        }
        let mut wildcards = self.kinds;
        for set in 1..SETS {
            let (w, had) = (want[set], self.per_set[set]);
            if w > had + 1 {
                return false;
            }
            if w == had + 1 {
                wildcards &= !PAYERS[set];
            }
        }
        wildcards != 0
    }
}

/// A cost, or what is left of one, as Hall's condition weighs it: how many of its cards each
/// set of colours must pay for (its `2=` icons aside), its `2=` icons whose colour is still
/// to name, and the cards it takes in all.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Demand {
    per_set: [u8; SETS],
    pairs: u8,
    cards: u32,
}

impl Demand {
    /// `slots[start..]`, the second card of a `2=` icon whose first one is paid as colour
    /// `pair_colour`; `None` if that card's colour is unknown (it cannot be paid). A cost
    /// takes at most `MAX_SLOTS` (8) cards, so each count fits a byte.
    pub(super) fn of(slots: &[u8], start: usize, pair_colour: Option<u8>) -> Option<Demand> {
        let mut d = Demand::default();
        let need = |c: usize, d: &mut Demand| {
            for (n, &h) in d.per_set.iter_mut().zip(&HOLDS[c]) {
                *n += h;
            }
        };
        let mut i = start;
        while i < slots.len() {
            match slots[i] {
                c @ 0..=3 => need(c as usize, &mut d),
                PAIR_FIRST => {
                    d.pairs += 1;
                    d.cards += 1;
                    i += 1;
                }
                PAIR_SECOND => match pair_colour {
                    Some(c) if c < 4 => need(c as usize, &mut d),
                    _ => return None,
                },
                _ => {}
            }
            d.cards += 1;
            i += 1;
        }
        Some(d)
    }
}

/// Whether `slots[start..]` can be paid from `hand` (`pair_colour`: the colour of a `2=` icon
/// whose first card is paid; `wild`: Goldmint's wildcard is still unused).
pub fn feasible(
    hand: &[u8; KINDS],
    slots: &[u8],
    start: usize,
    pair_colour: Option<u8>,
    wild: bool,
) -> bool {
    Demand::of(slots, start, pair_colour).is_some_and(|d| Supply::of(hand).pays(&d, wild))
}

/// One payment step weighed against the rest of the cost: the hand paying it, and what is
/// left to pay after it.
pub(super) struct Step {
    supply: Supply,
    /// What is left after this slot; when it is the first card of a `2=` icon, for each
    /// colour it may be named as.
    rest: [Option<Demand>; 4],
    named: bool,
}

impl Step {
    /// The slot `slots[at]`, to pay from `hand`.
    pub(super) fn new(hand: &[u8; KINDS], slots: &[u8], at: usize) -> Step {
        let named = slots.get(at) == Some(&PAIR_FIRST);
        let rest = if named {
            std::array::from_fn(|c| Demand::of(slots, at + 1, Some(c as u8)))
        } else {
            [Demand::of(slots, at + 1, None); 4]
        };
        Step {
            supply: Supply::of(hand),
            rest,
            named,
        }
    }

    /// Whether the rest of the cost can still be paid after a card of kind `k` (of which the
    /// hand holds `held`, at least one) pays this slot as colour `c`; `wild` as for
    /// [`feasible`], for the rest.
    pub(super) fn leaves_payable(&self, k: usize, held: u8, c: u8, wild: bool) -> bool {
        let rest = self.rest[if self.named { c as usize % 4 } else { 0 }];
        rest.is_some_and(|d| self.supply.without(k, held).pays(&d, wild))
    }
}
