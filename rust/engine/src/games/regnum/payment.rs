//! Whether a hand can pay a cost, or what is left of one: Hall's condition over the sets of
//! colours. Both sides are counted per set of colours once: the hand as a [`Supply`] (once
//! per legal-move list, however many characters it is weighed against), the cost as a
//! [`Demand`] (each character's when the card set is read), so that each check is a
//! comparison of sixteen small counts.

use crate::bits::iter_bits;

use super::cards::{KINDS, KIND_MASK, MAX_PAIRS, PAIR_FIRST, PAIR_SECOND};

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

/// One in the byte of each set of colours (bit c: colour c) that `colours` meets (with
/// `any`: holds some colour of it; else: holds all of it): a count per set of colours,
/// sixteen of them side by side in one number, adds and compares in a few word operations.
const fn per_set(colours: u8, any: bool) -> u128 {
    let mut out = 0u128;
    let mut set = 0;
    while set < SETS {
        let meets = if any {
            colours & set as u8 != 0
        } else {
            colours & set as u8 == colours
        };
        if meets {
            out |= 1 << (8 * set);
        }
        set += 1;
    }
    out
}

/// For each colour, the kinds that pay it (bit k: kind k).
pub(super) const NATURAL: [u16; 4] = [PAYERS[1], PAYERS[2], PAYERS[4], PAYERS[8]];

/// Every kind (bit k: kind k).
pub(super) const ALL_KINDS: u16 = (1 << KINDS) - 1;

/// For each kind: one in the byte of each set of colours it pays some colour of.
const PAYS: [u128; KINDS] = {
    let mut table = [0u128; KINDS];
    let mut k = 0;
    while k < KINDS {
        table[k] = per_set(KIND_MASK[k], true);
        k += 1;
    }
    table
};

/// For each colour: one in the byte of each set of colours that holds it.
const HOLDS: [u128; 4] = [
    per_set(1, false),
    per_set(2, false),
    per_set(4, false),
    per_set(8, false),
];

/// The top bit of every byte.
const HIGH: u128 = u128::from_le_bytes([0x80; SETS]);
/// One in every byte.
const ONES: u128 = u128::from_le_bytes([1; SETS]);
/// The lowest bit of each byte of a word.
const LOW_BITS: u64 = 0x0101_0101_0101_0101;

/// What `p` `2=` icons named in every way add to the sets' demands: two cards of the
/// colour each icon is named, over the multisets of `p` colours (1, 4 and 10 ways).
const NAMINGS: [&[u128]; MAX_PAIRS + 1] = [&[0], &NAMED_ONE, &NAMED_TWO];
const NAMED_ONE: [u128; 4] = [2 * HOLDS[0], 2 * HOLDS[1], 2 * HOLDS[2], 2 * HOLDS[3]];
const NAMED_TWO: [u128; 10] = {
    let mut table = [0u128; 10];
    let (mut i, mut a) = (0, 0);
    while a < 4 {
        let mut b = a;
        while b < 4 {
            table[i] = 2 * (HOLDS[a] + HOLDS[b]);
            i += 1;
            b += 1;
        }
        a += 1;
    }
    table
};

/// Half of each set's count per byte: the sets 0-7 and 8-15.
const fn half(table: u128, high: bool) -> u64 {
    (if high { table >> 64 } else { table }) as u64
}

/// A hand seen as payers: how many of its cards can pay for some colour of each set of
/// colours (a byte each, exact below 127, where no cost could find it short), and the hand.
/// The set of all four colours counts every card: the hand's size.
#[derive(Clone, Copy, Debug)]
pub(super) struct Supply {
    per_set: u128,
    hand: [u8; KINDS],
    /// The kinds it holds (bit k: kind k), counted once here: every payment check reads it.
    kinds: u16,
}

impl Supply {
    pub(super) fn of(hand: &[u8; KINDS]) -> Supply {
        // A hand holds at most `MAX_RESOURCES` (128) cards, so no byte carries into the
        // next; each half is summed in one word.
        let (mut low, mut high) = (0u64, 0u64);
        for (k, &c) in hand.iter().enumerate() {
            low += u64::from(c) * half(PAYS[k], false);
            high += u64::from(c) * half(PAYS[k], true);
        }
        let per_set = u128::from(high) << 64 | u128::from(low);
        // A count of 128 (a hand of every card) is kept as 127, below the top bit.
        let full = (per_set & HIGH) >> 7;
        Supply {
            per_set: (per_set & !HIGH) | (full * 0x7F),
            hand: *hand,
            kinds: held(hand) as u16,
        }
    }

    /// The cards in hand (up to 127).
    fn total(&self) -> u32 {
        (self.per_set >> (8 * (SETS - 1))) as u32
    }

    /// The same hand less one card of kind `k` (which it holds: each set `k` pays for
    /// counts it, so no byte goes below zero).
    fn without(&self, k: usize) -> Supply {
        let mut hand = self.hand;
        hand[k] = hand[k].saturating_sub(1);
        Supply {
            per_set: self.per_set - PAYS[k],
            hand,
            kinds: self.kinds & !(u16::from(hand[k] == 0) << k),
        }
    }

    /// Whether this hand pays `demand`; with `wild`, one card may count as any colour
    /// (Goldmint's wildcard, still unused). Every way of naming its `2=` icons is weighed
    /// (the order they are named in does not change what they need).
    #[inline]
    pub(super) fn pays(&self, demand: &Demand, wild: bool) -> bool {
        if wild {
            return self.pays_wild(demand);
        }
        // Weighed in full, without a branch on the cards.
        let fits = demand
            .namings
            .iter()
            .fold(false, |ok, &n| ok | self.hall(demand.per_set + n));
        (self.total() >= demand.cards) & fits
    }

    /// [`Supply::pays`] with the wildcard (the seldom case, kept out of the common one).
    #[inline(never)]
    fn pays_wild(&self, demand: &Demand) -> bool {
        let fits = demand.cards == 0
            || demand
                .namings
                .iter()
                .any(|&n| self.hall_wild(demand.per_set + n));
        (self.total() >= demand.cards) & fits
    }

    /// Hall's condition: each set of colours is wanted by no more cards than can pay for
    /// some colour of it. Both counts are below 128 in every byte (a cost takes at most
    /// `MAX_SLOTS`, 8, cards), so `had + 128 - want` keeps its top bit exactly where
    /// `want <= had` and borrows nothing from the next byte.
    #[inline(always)]
    fn hall(&self, want: u128) -> bool {
        ((self.per_set | HIGH) - want) & HIGH == HIGH
    }

    /// Hall's condition with the wildcard: a set may want one card more than can pay for it,
    /// and some card x must then do for all such sets: x leaves each of them that it could
    /// have paid for, and pays any colour.
    fn hall_wild(&self, want: u128) -> bool {
        // One in each byte where the set wants a card (the count is below 128).
        let wants = (((want | HIGH) - ONES) & HIGH) >> 7;
        let less = want - wants;
        if !self.hall(less) {
            return false;
        }
        // The top bit of each set that wants exactly one card more than it has.
        let short = !(((less ^ self.per_set) | HIGH) - ONES) & (wants << 7);
        self.kinds & !PAYERS[colours_of(top_bits(short))] != 0
    }

    /// The kinds of which the hand can give up a card and still pay `demand` (without the
    /// wildcard). A card of kind k leaves each set of colours it pays for with one card
    /// less: it can go if and only if Hall's condition holds (for some naming of the `2=`
    /// icons) with no set that k pays for among those that have no card to spare.
    fn spare(&self, demand: &Demand) -> u16 {
        if self.total() <= demand.cards {
            return 0;
        }
        let spare = demand.namings.iter().fold(0, |spare, &n| {
            let want = demand.per_set + n;
            // The top bit of each set that has exactly the cards it wants.
            let tight = !(((self.per_set ^ want) | HIGH) - ONES) & HIGH;
            let ok = u16::from(self.hall(want)).wrapping_neg();
            spare | (ok & !PAYERS[colours_of(top_bits(tight))])
        });
        spare & self.kinds
    }
}

/// The kinds `cards` has a card of (bit k: kind k).
pub(super) fn held(cards: &[u8; KINDS]) -> u64 {
    let mut bytes = [0u8; SETS];
    bytes[..KINDS].copy_from_slice(cards);
    let x = u128::from_le_bytes(bytes);
    // A byte's low seven bits plus 127 reach its top bit unless they are all zero.
    top_bits((((x & !HIGH) + !HIGH) | x) & HIGH)
}

/// The colours of the sets of colours in `sets` (bit s: set s), together.
fn colours_of(sets: u64) -> usize {
    (0..4).fold(0, |u, c| u | usize::from(sets & WITH[c] != 0) << c)
}

/// For each colour, the sets of colours that hold it (bit s: set s).
const WITH: [u64; 4] = {
    let mut table = [0u64; 4];
    let mut set = 0;
    while set < SETS {
        let mut c = 0;
        while c < 4 {
            if set >> c & 1 == 1 {
                table[c] |= 1 << set;
            }
            c += 1;
        }
        set += 1;
    }
    table
};

/// The top bits of the sixteen bytes of `x` as a 16-bit mask (bit i: byte i).
fn top_bits(x: u128) -> u64 {
    // Multiplying gathers the eight bits, one a byte, of a word into its top byte.
    let gather = |word: u64| ((word >> 7) & LOW_BITS).wrapping_mul(0x0102_0408_1020_4080) >> 56;
    gather(x as u64) | gather((x >> 64) as u64) << 8
}

/// A cost, or what is left of one, as Hall's condition weighs it: how many of its cards each
/// set of colours must pay for (its `2=` icons aside; a byte each, at most `MAX_SLOTS`), its
/// `2=` icons whose colour is still to name, and the cards it takes in all.
#[derive(Clone, Copy, Debug)]
pub(super) struct Demand {
    per_set: u128,
    /// What its `2=` icons add to the sets' demands, for each way of naming them.
    namings: &'static [u128],
    cards: u32,
}

impl Demand {
    /// `slots[start..]`, the second card of a `2=` icon whose first one is paid as colour
    /// `pair_colour`; `None` if that card's colour is unknown (it cannot be paid), or the
    /// cost has more `2=` icons than a card set allows.
    pub(super) fn of(slots: &[u8], start: usize, pair_colour: Option<u8>) -> Option<Demand> {
        let mut d = Demand {
            per_set: 0,
            namings: &[],
            cards: 0,
        };
        let mut pairs = 0;
        let mut i = start;
        while i < slots.len() {
            match slots[i] {
                c @ 0..=3 => d.per_set += HOLDS[c as usize],
                PAIR_FIRST => {
                    pairs += 1;
                    d.cards += 1;
                    i += 1;
                }
                PAIR_SECOND => match pair_colour {
                    Some(c) if c < 4 => d.per_set += HOLDS[c as usize],
                    _ => return None,
                },
                _ => {}
            }
            d.cards += 1;
            i += 1;
        }
        d.namings = NAMINGS.get(pairs)?;
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

/// One payment step weighed against the rest of the cost: the hand paying it, and the
/// slots of the cost from it on.
pub(super) struct Step<'a> {
    supply: Supply,
    slots: &'a [u8],
    at: usize,
}

impl<'a> Step<'a> {
    /// The slot `slots[at]`, to pay from `hand`.
    pub(super) fn new(hand: &[u8; KINDS], slots: &'a [u8], at: usize) -> Step<'a> {
        Step {
            supply: Supply::of(hand),
            slots,
            at,
        }
    }

    /// The kinds (bit k: kind k) whose card may pay this slot as colour `c`: held, among
    /// `natural` (the kinds that pay it without the wildcard) or by Goldmint's unused
    /// wildcard (`wild`), with the rest of the cost still payable after it (with the
    /// wildcard if this card did not use it).
    pub(super) fn payers(&self, c: u8, natural: u16, wild: bool) -> u16 {
        // What is left after this slot (the colour it names, if it is the first card of a
        // `2=` icon).
        let named = (self.slots.get(self.at) == Some(&PAIR_FIRST)).then_some(c);
        let Some(rest) = Demand::of(self.slots, self.at + 1, named) else {
            return 0;
        };
        let (held, spare) = (self.supply.kinds, self.supply.spare(&rest));
        if !wild {
            return held & natural & spare;
        }
        let keeps_wild = iter_bits(u64::from(held & natural))
            .filter(|&k| self.supply.without(k).pays(&rest, true))
            .fold(0, |m, k| m | 1 << k);
        keeps_wild | (held & !natural & spare)
    }
}
