//! Regine's cards and Suits: the kinds, their ranks and values, and how a four-card
//! combination ranks for each Suit (the scoring and the search's betting both read it).

/// Kinds of cards.
pub const KINDS: usize = 8;
/// Cards in the game.
pub const DECK: usize = 40;
/// Cards in each player's combination.
pub const COMBO: usize = 4;
/// Number of Suits.
pub const SUITS: usize = 4;

/// Card kinds, in rank order (Knight and Princess rank equal).
pub const JESTER: u8 = 0;
/// A Peasant.
pub const PEASANT: u8 = 1;
/// An Assassin.
pub const ASSASSIN: u8 = 2;
/// A Courtesan.
pub const COURTESAN: u8 = 3;
/// A Herald.
pub const HERALD: u8 = 4;
/// A Knight.
pub const KNIGHT: u8 = 5;
/// A Princess.
pub const PRINCESS: u8 = 6;
/// A Queen.
pub const QUEEN: u8 = 7;
/// Names of the card kinds.
pub const CARD_NAMES: [&str; KINDS] = [
    "jester",
    "peasant",
    "assassin",
    "courtesan",
    "herald",
    "knight",
    "princess",
    "queen",
];
/// Copies of each kind.
pub const COPIES: [u8; KINDS] = [8, 4, 4, 4, 4, 4, 4, 8];
/// Rank of each kind for every comparison.
pub const RANK: [u8; KINDS] = [0, 1, 2, 3, 4, 5, 5, 6];
/// Value of each kind for the Game Suit.
pub const VALUE: [u8; KINDS] = [1, 4, 5, 6, 7, 10, 10, 10];
/// A deck entry nobody has seen yet (explicit chance): its kind is drawn at a chance node.
pub const UNSEEN: u8 = KINDS as u8;
/// Names of the Suits, in the order they are bet on and resolved.
pub const SUIT_NAMES: [&str; SUITS] = ["queens", "jesters", "pairs", "game"];
/// The most a Suit card is worth (what an automatic win pays, plus the chip).
pub const SUIT_MAX: [u8; SUITS] = [1, 1, 2, 2];

/// Cards in a set of counts (wrapping, never panicking, on a corrupt state).
pub(super) fn hand_size(hand: &[u8; KINDS]) -> u8 {
    hand.iter().fold(0u8, |a, &c| a.wrapping_add(c))
}

/// A combination's ranks, highest first.
pub(super) fn ranks_desc(combo: &[u8; COMBO]) -> [u8; COMBO] {
    let mut r = combo.map(|c| RANK[c as usize]);
    r.sort_unstable_by(|a, b| b.cmp(a));
    r
}

pub(super) fn count_kind(combo: &[u8; COMBO], kind: u8) -> u8 {
    combo.iter().filter(|&&c| c == kind).count() as u8
}

/// How a combination ranks for a Suit (higher is better), or `None` if it cannot win it.
pub fn suit_key(suit: usize, combo: &[u8; COMBO]) -> Option<[u8; 7]> {
    let r = ranks_desc(combo);
    match suit {
        0 => Some([count_kind(combo, QUEEN), r[0], r[1], r[2], r[3], 0, 0]),
        1 => Some([
            count_kind(combo, JESTER),
            6 - r[3],
            6 - r[2],
            6 - r[1],
            6 - r[0],
            0,
            0,
        ]),
        2 => pairs_key(combo),
        _ => {
            let total: u8 = combo.iter().map(|&c| VALUE[c as usize]).sum();
            let tier = match total {
                31 => 2,
                32..=40 => 1,
                _ => return None,
            };
            let q = count_kind(combo, QUEEN);
            Some([tier, total, q, r[0], r[1], r[2], r[3]])
        }
    }
}

/// Pairs: category (1 pair, 2 three of a kind, 3 two pairs or four of a kind), the ranks of
/// the combination, then the other cards, highest first.
pub(super) fn pairs_key(combo: &[u8; COMBO]) -> Option<[u8; 7]> {
    let mut counts = [0u8; KINDS];
    for &c in combo {
        counts[c as usize] += 1;
    }
    let mut pair: Option<usize> = None;
    for kind in (0..KINDS).rev() {
        let rank = RANK[kind];
        match (counts[kind], pair) {
            (4, _) => return Some([3, rank, rank, 0, 0, 0, 0]),
            (3, _) => return Some([2, rank, other_ranks(combo, kind)[0], 0, 0, 0, 0]),
            (2, Some(high)) => return Some([3, RANK[high], rank, 0, 0, 0, 0]),
            (2, None) => pair = Some(kind),
            _ => {}
        }
    }
    let kind = pair?;
    let o = other_ranks(combo, kind);
    Some([1, RANK[kind], o[0], o[1], 0, 0, 0])
}

/// The ranks of the cards not of `kind`, highest first (zeros after them).
pub(super) fn other_ranks(combo: &[u8; COMBO], kind: usize) -> [u8; COMBO] {
    let mut r = [0u8; COMBO];
    let mut m = 0;
    for &c in combo {
        if c as usize != kind {
            r[m] = RANK[c as usize];
            m += 1;
        }
    }
    r.sort_unstable_by(|a, b| b.cmp(a));
    r
}

/// What a Suit pays for the winning key (before chips).
pub(super) fn suit_points(suit: usize, key: &[u8; 7]) -> u8 {
    match suit {
        2 => {
            if key[0] == 1 {
                1
            } else {
                2
            }
        }
        3 => key[0],
        _ => 1,
    }
}

/// How strong a four-card combination is for betting on `suit`: 2 strong enough to double
/// down (three Queens or Jesters, two pairs, exactly 31), 1 to stay after a Double Down (two
/// Queens or Jesters, three of a kind, 37 or more), else 0. The search's rollouts and the
/// rule-based player (through the binding) both bet by it.
pub fn bet_strength(suit: usize, combo: &[u8; COMBO]) -> u8 {
    match (suit, suit_key(suit, combo)) {
        (_, None) => 0,
        (0..=2, Some(k)) => u8::from(k[0] >= 2) + u8::from(k[0] >= 3),
        (_, Some(k)) => 2 * u8::from(k[0] == 2) + u8::from(k[0] != 2 && k[1] >= 37),
    }
}
