//! The planner's values against a uniform opponent, filled bottom-up: level by level, hand
//! size by hand size, in flat tables.
//!
//! The recursion is [`uniform`](super::uniform)'s, with the same sums in the same order, so
//! the numbers are the same to the bit; what changes is the order of the work. A state of
//! `k` cards needs its level's states of `k - 1` cards, and where a capture leads, the next
//! levels' states of `k - 1` cards with the dragon in the centre; a round from the centre
//! never captures. So a level's table is filled for every pair of hands up to a size, the
//! dragon anywhere or only in the centre, after what those need: no recursion, no check for
//! a value not yet found, and a hand's kinds and the place of the hand it leaves looked up
//! instead of counted. A hand's start fills what a search from full hands meets (every pair
//! of hands of each size it reaches); later calls are look-ups. The stalemate guard is not
//! modelled: near it the planner searches instead.

use super::encoding::{
    copies, hand_size, kinds, outcome, without, HandPairs, Level, Outcome, CENTRE, HAND_CODES,
    KINDS, MINE, THEIRS,
};
use super::horizon::{Horizon, Then};
use super::{Solver, Step};
use crate::games::duo_regna::CARDS;
use std::collections::HashMap;

/// A next level not looked up.
const NONE: usize = usize::MAX;

/// What a hand can play, looked up instead of counted.
#[derive(Clone, Copy, Default)]
struct Moves {
    /// How many kinds the hand holds.
    n: usize,
    /// The kinds held, ascending.
    kinds: [usize; KINDS],
    /// For each kind held, where the pairs with the hand left after playing it as my hand
    /// start in a level's values (at the first side).
    row: [usize; KINDS],
    /// For each kind held, the place of the hand left after playing it among the hands of
    /// its size (its column in those pairs).
    col: [usize; KINDS],
    /// For each kind held, the chance a uniform draw from the hand plays it.
    chance: [f64; KINDS],
}

/// One level's values.
struct Table {
    /// After a capture by me, by them; the tables of the next levels.
    captures: [Then; 2],
    next: [[usize; 2]; 2],
    /// The hands' return by the dragon's place.
    end: [f64; 3],
    /// Pairs of hands filled, by size: every pair of this many cards or fewer, the dragon
    /// anywhere; and with the dragon in the centre (at least as many).
    filled: usize,
    centre: usize,
    /// By side, then size, then my hand's place, then theirs (see [`Tables::pair`]).
    values: Vec<f64>,
}

/// The tables of the levels met so far, for one horizon beyond the hands.
pub(super) struct Tables {
    tables: Vec<Table>,
    index: HashMap<Level, usize>,
    /// By size, then the hand's place among the hands of its size.
    moves: Vec<Vec<Moves>>,
    /// Each hand's place among the hands of its size, by hand code.
    place: Vec<usize>,
    /// Where the pairs of each size start, and how many hands that size has.
    sizes: [(usize, usize); CARDS + 1],
    /// Pairs of every size from 1 to 9.
    stride: usize,
    outcomes: [[Outcome; KINDS]; KINDS],
}

impl Tables {
    /// No table yet, pairs of hands numbered by `pairs`.
    pub(super) fn new(pairs: &HandPairs) -> Self {
        let mut place = vec![0; HAND_CODES];
        let mut sizes = [(0, 0); CARDS + 1];
        for (k, size) in sizes.iter_mut().enumerate().skip(1) {
            for (i, &h) in pairs.hands(k).iter().enumerate() {
                place[h as usize] = i;
            }
            *size = (pairs.start(k), pairs.hands(k).len());
        }
        let moves = (0..=CARDS)
            .map(|k| {
                pairs
                    .hands(k)
                    .iter()
                    .map(|&h| Self::moves(h, &place, &sizes))
                    .collect()
            })
            .collect();
        Tables {
            tables: Vec::new(),
            index: HashMap::new(),
            moves,
            place,
            sizes,
            stride: pairs.len(),
            outcomes: std::array::from_fn(|a| std::array::from_fn(|b| outcome(a, b))),
        }
    }

    /// What hand `h` can play, `place` giving each hand's place among the hands
    /// of its size and `sizes` where each size's pairs start and how many hands it has.
    fn moves(h: u16, place: &[usize], sizes: &[(usize, usize)]) -> Moves {
        let (kinds, n) = kinds(h);
        let mut m = Moves {
            n,
            kinds,
            ..Moves::default()
        };
        for (i, &a) in kinds[..n].iter().enumerate() {
            let rest = place[without(h, a) as usize];
            let (start, count) = sizes[hand_size(h) - 1];
            (m.row[i], m.col[i]) = (start + rest * count, rest);
            m.chance[i] = copies(h, a) as f64 / hand_size(h) as f64;
        }
        m
    }

    /// The place in a level's values of the pair of `k`-card hands at places `mine` and
    /// `theirs`, dragon at `side`.
    fn pair(&self, side: usize, k: usize, mine: usize, theirs: usize) -> usize {
        let (start, count) = self.sizes[k];
        side * self.stride + start + mine * count + theirs
    }

    /// The table of level `l`, made (empty) on first use.
    fn table<H: Horizon>(&mut self, horizon: &mut H, l: Level) -> usize {
        if let Some(&i) = self.index.get(&l) {
            return i;
        }
        self.tables.push(Table {
            captures: [
                Then::of(horizon.capture(l, true)),
                Then::of(horizon.capture(l, false)),
            ],
            next: [[NONE; 2]; 2],
            end: horizon.hand_end(l),
            filled: 0,
            centre: 0,
            values: Vec::new(),
        });
        self.index.insert(l, self.tables.len() - 1);
        self.tables.len() - 1
    }

    /// The value of each of my kinds (`f64::NEG_INFINITY` for kinds not held) in the state
    /// of level `l`, dragon at `side`, hands `mine` and `theirs` (of equal, non-zero size),
    /// filling the tables it needs first.
    pub(super) fn kind_values<H: Horizon>(
        &mut self,
        horizon: &mut H,
        l: Level,
        side: usize,
        mine: u16,
        theirs: u16,
    ) -> [f64; KINDS] {
        let at = self.table(horizon, l);
        let k = hand_size(mine);
        self.fill(horizon, at, k - 1);
        if side != CENTRE {
            let (next, n) = self.next_tables(horizon, at);
            for &to in &next[..n] {
                self.fill_centre(horizon, to, k - 1);
            }
        }
        let (mine, theirs) = (self.place[mine as usize], self.place[theirs as usize]);
        self.values_with(&self.tables[at].values, at, side, k, mine, theirs)
    }

    /// The tables of the levels a capture at `at` leads to (made and linked on first use),
    /// and how many.
    fn next_tables<H: Horizon>(&mut self, horizon: &mut H, at: usize) -> ([usize; 4], usize) {
        let mut out = ([NONE; 4], 0);
        for who in 0..2 {
            if let Then::Next(to, n) = self.tables[at].captures[who] {
                for (i, &(_, l)) in to[..n].iter().enumerate() {
                    let next = self.table(horizon, l);
                    self.tables[at].next[who][i] = next;
                    out.0[out.1] = next;
                    out.1 += 1;
                }
            }
        }
        out
    }

    /// Fills level `at` for every pair of up to `size` cards, the dragon anywhere. A round
    /// from the centre never captures, so the levels after a capture need only the centre
    /// at one card fewer.
    fn fill<H: Horizon>(&mut self, horizon: &mut H, at: usize, size: usize) {
        let from = self.tables[at].filled;
        if from >= size {
            return;
        }
        let (next, n) = self.next_tables(horizon, at);
        for &to in &next[..n] {
            self.fill_centre(horizon, to, size - 1);
        }
        let centre = self.tables[at].centre;
        for k in from + 1..=size {
            let sides: &[usize] = if k <= centre {
                &[MINE, THEIRS]
            } else {
                &[MINE, CENTRE, THEIRS]
            };
            self.fill_size(at, k, sides);
        }
        let table = &mut self.tables[at];
        table.filled = size;
        table.centre = table.centre.max(size);
    }

    /// Fills level `at` for every pair of up to `size` cards with the dragon in the centre
    /// (and one card fewer anywhere, which those need).
    fn fill_centre<H: Horizon>(&mut self, horizon: &mut H, at: usize, size: usize) {
        if self.tables[at].centre >= size {
            return;
        }
        self.fill(horizon, at, size - 1);
        self.fill_size(at, size, &[CENTRE]);
        self.tables[at].centre = size;
    }

    /// Fills level `at` for every pair of `k` cards with the dragon at `sides`, from the
    /// values of `k - 1` cards (this level's, and the next levels' where a capture leads).
    fn fill_size(&mut self, at: usize, k: usize, sides: &[usize]) {
        let mut values = std::mem::take(&mut self.tables[at].values);
        values.resize(3 * self.stride, f64::NAN);
        let count = self.sizes[k].1;
        for &side in sides {
            for mine in 0..count {
                for theirs in 0..count {
                    let best = self
                        .values_with(&values, at, side, k, mine, theirs)
                        .into_iter()
                        .fold(f64::NEG_INFINITY, f64::max);
                    values[self.pair(side, k, mine, theirs)] = best;
                }
            }
        }
        self.tables[at].values = values;
    }

    /// [`kind_values`](Self::kind_values) from tables already filled, for the `k`-card
    /// hands at places `mine` and `theirs`, level `at`'s own values taken from `own` (a
    /// table being filled is out of its place).
    fn values_with(
        &self,
        own: &[f64],
        at: usize,
        side: usize,
        k: usize,
        mine: usize,
        theirs: usize,
    ) -> [f64; KINDS] {
        let table = &self.tables[at];
        let (rows, cols) = (&self.moves[k][mine], &self.moves[k][theirs]);
        // The value after the round at level `to`, its values `values`, with the dragon at
        // `s` and the hands left at `pair` (the hands' return when they are empty).
        let value = |to: &Table, values: &[f64], s: usize, pair: usize| {
            if k == 1 {
                to.end[s]
            } else {
                values[s * self.stride + pair]
            }
        };
        let mut out = [f64::NEG_INFINITY; KINDS];
        for (&a, &row) in rows.kinds[..rows.n].iter().zip(&rows.row) {
            let mut total = 0.0;
            for ((&b, &col), &chance) in
                cols.kinds[..cols.n].iter().zip(&cols.col).zip(&cols.chance)
            {
                let pair = row + col;
                let after = match Solver::step(side, self.outcomes[a][b]) {
                    Step::Stay(s) => value(table, own, s, pair),
                    Step::Capture(by_me) => {
                        let who = usize::from(!by_me);
                        match table.captures[who] {
                            Then::End(v) => v,
                            Then::Next(next, n) => (0..n)
                                .map(|i| {
                                    let to = &self.tables[table.next[who][i]];
                                    next[i].0 * value(to, &to.values, CENTRE, pair)
                                })
                                .sum(),
                        }
                    }
                };
                total += chance * after;
            }
            out[a] = total;
        }
        out
    }
}
