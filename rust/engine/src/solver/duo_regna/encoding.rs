//! Duo Regna's public state, as the solver numbers it.
//!
//! Everything that matters for the rest of the game is public: both hands (every card is
//! played once per nine rounds and every reveal is seen), the captures, the current dragon,
//! where it lies, and how many single and double dragons the pile still holds (the revealed
//! cards are seen). Only the card the other seat has just committed is hidden, and the public
//! state leaves it in her hand. The two 6s (King and Queen) are the same card for the rules,
//! so a hand is a set of eight *kinds* with up to two 6s: 384 hand codes instead of 512.
//!
//! A state is seen from one seat, "mine": `level` (the captures, the dragon and the pile),
//! `side` (where the dragon lies: [`MINE`], [`CENTRE`], [`THEIRS`]) and the pair of hands.

use crate::games::duo_regna::{round_winner, DuoRegna, State, CARDS, CARD_NAMES, MAX_PILE};
use serde_json::Value;

/// Kinds of card: X, 0, 1, 2, 3, 4, 5 and 6 (the King and the Queen).
pub const KINDS: usize = 8;
/// The kind of the two 6s.
const SIX: usize = 7;
/// Hand codes: bits 0-6 the kinds X..5, bits 7-8 the number of 6s.
pub const HAND_CODES: usize = 384;
/// The full hand's code.
pub const FULL: u16 = 0x7F | (2 << 7);
/// Where the dragon lies, from "my" side.
pub const MINE: usize = 0;
/// The centre of the panorama.
pub const CENTRE: usize = 1;
/// The other seat's side.
pub const THEIRS: usize = 2;

/// The hand code of a 9-bit card mask.
pub fn hand_of_cards(cards: u16) -> u16 {
    (cards & 0x7F) | (((cards >> 7) & 3).count_ones() as u16) << 7
}

/// Number of cards in a hand.
pub fn hand_size(h: u16) -> usize {
    (h & 0x7F).count_ones() as usize + (h >> 7) as usize
}

/// Whether the hand holds a card of `kind`.
pub fn holds(h: u16, kind: usize) -> bool {
    if kind == SIX {
        h >> 7 > 0
    } else {
        h & (1 << kind) != 0
    }
}

/// How many cards of `kind` the hand holds (0, 1, or up to 2 for the 6s).
pub fn copies(h: u16, kind: usize) -> usize {
    if kind == SIX {
        (h >> 7) as usize
    } else {
        usize::from(h & (1 << kind) != 0)
    }
}

/// The kind of card `card` (an action id).
pub fn kind_of(card: usize) -> usize {
    card.min(SIX)
}

/// The hand after playing one card of `kind`.
pub fn without(h: u16, kind: usize) -> u16 {
    if kind == SIX {
        h - (1 << 7)
    } else {
        h & !(1 << kind)
    }
}

/// The kinds a hand holds, ascending, and how many.
pub fn kinds(h: u16) -> ([usize; KINDS], usize) {
    let mut out = [0; KINDS];
    let mut n = 0;
    for k in (0..KINDS).filter(|&k| holds(h, k)) {
        out[n] = k;
        n += 1;
    }
    (out, n)
}

/// The cards (action ids) of `kind` in a 9-bit hand.
pub fn cards_of_kind(cards: u16, kind: usize) -> impl Iterator<Item = usize> {
    let ids = if kind == SIX {
        7..CARDS
    } else {
        kind..kind + 1
    };
    ids.filter(move |&c| cards & (1 << c) != 0)
}

/// Who wins a round between my card of kind `a` and theirs of kind `b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A shield, or equal cards.
    Nobody,
    /// I win the round.
    Me,
    /// They win it.
    Them,
}

/// The round's outcome between my kind `a` and their kind `b`.
pub fn outcome(a: usize, b: usize) -> Outcome {
    match round_winner(a as u8, b as u8) {
        None => Outcome::Nobody,
        Some(0) => Outcome::Me,
        Some(_) => Outcome::Them,
    }
}

/// Pairs of hands of equal size numbered densely: sizes 1 to 9, then my hand, then theirs.
pub struct HandPairs {
    rank: [u16; HAND_CODES],
    count: [usize; CARDS + 1],
    offset: [usize; CARDS + 2],
    by_size: Vec<Vec<u16>>,
}

impl HandPairs {
    /// The numbering.
    pub fn new() -> Self {
        let mut rank = [0; HAND_CODES];
        let mut count = [0; CARDS + 1];
        let mut by_size = vec![Vec::new(); CARDS + 1];
        for h in 0..HAND_CODES as u16 {
            if h >> 7 <= 2 {
                let k = hand_size(h);
                rank[h as usize] = count[k] as u16;
                count[k] += 1;
                by_size[k].push(h);
            }
        }
        let mut offset = [0; CARDS + 2];
        for k in 1..=CARDS {
            offset[k + 1] = offset[k] + count[k] * count[k];
        }
        HandPairs {
            rank,
            count,
            offset,
            by_size,
        }
    }

    /// Number of pairs (of every size from 1 to 9).
    pub fn len(&self) -> usize {
        self.offset[CARDS + 1]
    }

    /// Whether there are no pairs (never).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The index of the pair (mine, theirs), both non-empty and of the same size.
    pub fn index(&self, mine: u16, theirs: u16) -> usize {
        let k = hand_size(mine);
        self.offset[k]
            + self.rank[mine as usize] as usize * self.count[k]
            + self.rank[theirs as usize] as usize
    }

    /// Where the pairs of `k`-card hands start.
    pub fn start(&self, k: usize) -> usize {
        self.offset[k]
    }

    /// Number of pairs of `k`-card hands.
    pub fn count(&self, k: usize) -> usize {
        self.count[k] * self.count[k]
    }

    /// The hands of `k` cards.
    pub fn hands(&self, k: usize) -> &[u16] {
        &self.by_size[k]
    }
}

impl Default for HandPairs {
    fn default() -> Self {
        Self::new()
    }
}

/// What changes only on a capture: the captures, the current dragon and the pile.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Level {
    /// Dragons I have captured.
    pub mine: u8,
    /// Dragons they have captured.
    pub theirs: u8,
    /// Dragons on the current dragon card (1 or 2).
    pub dragon: u8,
    /// Single dragons still in the pile.
    pub singles: u8,
    /// Double dragons still in the pile.
    pub doubles: u8,
}

impl Level {
    /// The same level seen from the other seat.
    pub fn mirrored(self) -> Level {
        Level {
            mine: self.theirs,
            theirs: self.mine,
            ..self
        }
    }

    /// Cards still in the pile.
    pub fn pile(self) -> u8 {
        self.singles + self.doubles
    }
}

/// The levels a game starts at, one for each value the first dragon can have, with its
/// chance (its share of the pile's dragons): nothing captured yet, the first dragon out of
/// the pile.
pub fn first_levels(game: &DuoRegna) -> impl Iterator<Item = (f64, Level)> {
    let (singles, doubles) = (game.single_dragons(), game.double_dragons());
    let total = (singles + doubles) as f64;
    [(1u8, singles), (2u8, doubles)]
        .into_iter()
        .filter(|&(_, n)| n > 0)
        .map(move |(dragon, n)| {
            let start = Level {
                mine: 0,
                theirs: 0,
                dragon,
                singles: singles.saturating_sub(u8::from(dragon == 1)),
                doubles: doubles.saturating_sub(u8::from(dragon == 2)),
            };
            (n as f64 / total, start)
        })
}

/// Every level of a running game with these options, fewest pile cards first (a capture
/// always leads to a level with one card fewer).
pub fn levels(game: &DuoRegna) -> Vec<Level> {
    let (n1, n2, win) = (
        game.single_dragons(),
        game.double_dragons(),
        game.config.dragons_to_win,
    );
    let mut out = Vec::new();
    for pile in 0..n1 + n2 {
        for mine in 0..win {
            for theirs in 0..win {
                for dragon in 1..=2u8 {
                    for singles in 0..=n1.min(pile) {
                        let doubles = pile - singles;
                        if doubles > n2 {
                            continue;
                        }
                        let (gone1, gone2) = (n1 - singles, n2 - doubles);
                        let shown = gone1 as u32 + 2 * gone2 as u32;
                        let fits = if dragon == 1 { gone1 > 0 } else { gone2 > 0 };
                        if fits && shown == mine as u32 + theirs as u32 + dragon as u32 {
                            out.push(Level {
                                mine,
                                theirs,
                                dragon,
                                singles,
                                doubles,
                            });
                        }
                    }
                }
            }
        }
    }
    out
}

/// Where a capture leads; `T` names the next level (an index into a list of levels, or the
/// level itself).
#[derive(Clone, Debug, PartialEq)]
pub enum Capture<T = usize> {
    /// The game ends: my return (+1, 0 or -1).
    End(f64),
    /// A new dragon in the centre: (chance, level) for each value it may show.
    Next(Vec<(f64, T)>),
}

/// What a capture by me (`by_me`) leads to from `level`, given every level (`find` gives the
/// index of a level).
pub fn capture(
    game: &DuoRegna,
    l: Level,
    by_me: bool,
    find: impl Fn(Level) -> Option<usize>,
) -> Capture {
    match capture_to(game, l, by_me) {
        Capture::End(v) => Capture::End(v),
        Capture::Next(next) => Capture::Next(
            next.into_iter()
                .filter_map(|(p, to)| find(to).map(|i| (p, i)))
                .collect(),
        ),
    }
}

/// What a capture by me (`by_me`) leads to from `level`, the next levels named by themselves.
pub fn capture_to(game: &DuoRegna, l: Level, by_me: bool) -> Capture<Level> {
    let (mut m, mut t) = (l.mine, l.theirs);
    if by_me {
        m = m.saturating_add(l.dragon);
    } else {
        t = t.saturating_add(l.dragon);
    }
    if m >= game.config.dragons_to_win || t >= game.config.dragons_to_win || l.pile() == 0 {
        return Capture::End(sign(m as i32 - t as i32));
    }
    let mut next = Vec::new();
    for (dragon, n) in [(1u8, l.singles), (2u8, l.doubles)] {
        if n > 0 {
            let to = Level {
                mine: m,
                theirs: t,
                dragon,
                singles: l.singles - u8::from(dragon == 1),
                doubles: l.doubles - u8::from(dragon == 2),
            };
            next.push((n as f64 / l.pile() as f64, to));
        }
    }
    Capture::Next(next)
}

/// My return if the stalemate guard ends the game here: most dragons, then the dragon's side.
pub fn guard_return(l: Level, side: usize) -> f64 {
    match (l.mine.cmp(&l.theirs), side) {
        (std::cmp::Ordering::Equal, MINE) => 1.0,
        (std::cmp::Ordering::Equal, THEIRS) => -1.0,
        (std::cmp::Ordering::Equal, _) => 0.0,
        (order, _) => sign(order as i32),
    }
}

fn sign(x: i32) -> f64 {
    f64::from(x.signum())
}

/// The public state of a running game for the seat to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PublicState {
    /// The seat to move ("me").
    pub seat: usize,
    /// The captures, the dragon and the pile, from my side.
    pub level: Level,
    /// Where the dragon lies, from my side.
    pub side: usize,
    /// My hand (9-bit card mask, as the legal actions).
    pub my_cards: u16,
    /// My hand's code.
    pub mine: u16,
    /// Their hand's code, with any card they have committed but not revealed.
    pub theirs: u16,
    /// Rounds revealed so far.
    pub round: u32,
}

/// The public state of `s` for the seat to move, or `None` once the game is over. Seat 1
/// is to move while seat 0's card is committed; that card is counted as still in seat 0's
/// hand, so nothing hidden is used.
pub fn public_state(s: &State) -> Option<PublicState> {
    if s.over {
        return None;
    }
    let seat = usize::from(s.pending.is_some());
    let other = 1 - seat;
    let their_cards = s.hands[other] | s.pending.map_or(0, |c| 1 << c);
    let unrevealed = &s.pile[s.next_dragon as usize..s.pile_len as usize];
    let level = Level {
        mine: s.captured[seat],
        theirs: s.captured[other],
        dragon: s.dragon,
        singles: unrevealed.iter().filter(|&&d| d == 1).count() as u8,
        doubles: unrevealed.iter().filter(|&&d| d == 2).count() as u8,
    };
    let side = if seat == 0 {
        s.dragon_side as usize
    } else {
        2 - s.dragon_side as usize
    };
    Some(PublicState {
        seat,
        level,
        side,
        my_cards: s.hands[seat],
        mine: hand_of_cards(s.hands[seat]),
        theirs: hand_of_cards(their_cards),
        round: s.round,
    })
}

/// The public state for the seat to move, from that seat's observation of `game` (the JSON
/// object `DuoRegna::observation` gives it) alone, or what is wrong with it: the same as
/// [`public_state`] of the state observed. The opponent's committed card is still in her
/// hand there; the pile's singles and doubles follow from the dragons shown so far.
pub fn public_state_of_view(game: &DuoRegna, obs: &Value) -> Result<PublicState, String> {
    let field = |key: &str| obs.get(key).ok_or_else(|| format!("no '{key}'"));
    let number = |key: &str, max: u64| {
        field(key)?
            .as_u64()
            .filter(|&n| n <= max)
            .ok_or_else(|| format!("'{key}' is not a whole number up to {max}"))
    };
    let cards = |key: &str| -> Result<u16, String> {
        let names = field(key)?
            .as_array()
            .ok_or(format!("'{key}' is not a list"))?;
        let mut mask = 0u16;
        for name in names {
            let card = CARD_NAMES
                .iter()
                .position(|&n| Some(n) == name.as_str())
                .filter(|&c| mask & (1 << c) == 0)
                .ok_or_else(|| format!("'{key}' holds {name}, not a card of a hand"))?;
            mask |= 1 << card;
        }
        Ok(mask)
    };
    let seat = number("seat", 1)? as usize;
    if field("terminal")?.as_bool() != Some(false)
        || obs.get("current_player") != Some(&seat.into())
    {
        return Err("it is not the turn of the seat observing".into());
    }
    let captured = field("captured")?
        .as_array()
        .filter(|c| c.len() == 2)
        .and_then(|c| {
            let n = |v: &Value| v.as_u64().and_then(|n| u8::try_from(n).ok());
            Some([n(&c[0])?, n(&c[1])?])
        })
        .ok_or("'captured' is not two dragon counts")?;
    let (mine, theirs) = (captured[seat], captured[1 - seat]);
    let dragon = number("dragon", 2).ok().filter(|&d| d > 0);
    let dragon = dragon.ok_or("'dragon' is not 1 or 2")? as u8;
    let side = match field("dragon_side")? {
        Value::Null => CENTRE,
        v if v.as_u64() == Some(seat as u64) => MINE,
        v if v.as_u64() == Some(1 - seat as u64) => THEIRS,
        _ => return Err("'dragon_side' is not a seat or null".into()),
    };
    let (n1, n2) = (game.single_dragons() as i64, game.double_dragons() as i64);
    let in_pile = number("dragons_in_pile", MAX_PILE as u64)? as i64;
    let gone = n1 + n2 - in_pile;
    let doubles_gone = mine as i64 + theirs as i64 + dragon as i64 - gone;
    let singles_gone = gone - doubles_gone;
    let fits = (0..=n1).contains(&singles_gone)
        && (0..=n2).contains(&doubles_gone)
        && if dragon == 1 {
            singles_gone > 0
        } else {
            doubles_gone > 0
        };
    if !fits {
        return Err("the captures, the dragon and the pile do not add up".into());
    }
    let (my_cards, their_cards) = (cards("hand")?, cards("opponent_hand")?);
    Ok(PublicState {
        seat,
        level: Level {
            mine,
            theirs,
            dragon,
            singles: (n1 - singles_gone) as u8,
            doubles: (n2 - doubles_gone) as u8,
        },
        side,
        my_cards,
        mine: hand_of_cards(my_cards),
        theirs: hand_of_cards(their_cards),
        round: number("round", u32::MAX as u64)? as u32,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    #[test]
    fn hand_pairs_number_every_pair_of_equal_size_once() {
        let p = HandPairs::new();
        assert_eq!(p.len(), 26_311);
        let mut seen = vec![false; p.len()];
        for k in 1..=CARDS {
            for &a in p.hands(k) {
                for &b in p.hands(k) {
                    let i = p.index(a, b);
                    assert!(!seen[i]);
                    seen[i] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(p.hands(9), &[FULL]);
        assert_eq!(hand_of_cards(0x1FF), FULL);
        assert_eq!(hand_size(without(FULL, 7)), 8);
    }

    #[test]
    fn the_default_game_has_72_levels_and_captures_lead_to_fewer_pile_cards() {
        let g = DuoRegna::from_options(&Default::default()).expect("default options");
        let all = levels(&g);
        assert_eq!(all.len(), 72);
        let find = |l: Level| all.iter().position(|&x| x == l);
        for (i, &l) in all.iter().enumerate() {
            assert_eq!(find(l.mirrored()).map(|j| all[j].mirrored()), Some(l));
            for by_me in [true, false] {
                if let Capture::Next(next) = capture(&g, l, by_me, find) {
                    assert!((next.iter().map(|n| n.0).sum::<f64>() - 1.0).abs() < 1e-15);
                    assert!(next
                        .iter()
                        .all(|&(_, j)| j < i && all[j].pile() + 1 == l.pile()));
                }
            }
        }
    }
}
