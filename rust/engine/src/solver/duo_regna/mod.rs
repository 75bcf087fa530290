//! Duo Regna solved: the equilibrium mixed strategy and value at every public state.
//!
//! Both hands are public (see [`encoding`]); the only hidden thing is the card each seat
//! commits in the current round, chosen simultaneously. So every state is a zero-sum matrix
//! game between my cards and theirs (at most 8 x 8 kinds) whose entries are the values of the
//! next states, and backward induction with an exact solve of each matrix game
//! ([`crate::solver::matrix_game`]) gives the equilibrium: a strategy per state that
//! guarantees the value against any opponent. Values are the mover's expected return
//! (+1 win, -1 loss, 0 draw).
//!
//! The table holds the value of every state at the start of a round, by level (captures,
//! dragon, pile), dragon side and hand pair. A decision solves one matrix game from it.
//! How far ahead it looks ([`Horizon`]):
//! - [`Horizon::Exact`]: every round up to the stalemate guard (`max_rounds`) is its own
//!   table, the guard's result at the end: the exact equilibrium, used when that fits in
//!   [`MAX_VALUES`] (short games, small dragon decks).
//! - [`Horizon::Stationary`]: one table for every nine-round hand, the guard ignored: the
//!   equilibrium of the game without a stalemate guard, solved level by level (a capture
//!   always leads to a level with fewer pile cards) as the fixed point of the hand's
//!   map from the values where the hands are taken back to themselves, found by Newton's
//!   method on that map's three numbers with the strategies held fixed, then checked.
//!   Used for `max_rounds >= 180`, where the guard is rarely reached; how much a player who
//!   knows the guard can gain from it is measured by [`Solver::evaluate`].

pub mod encoding;
mod evaluate;
mod horizon;
mod table_file;
mod uniform;
mod uniform_tables;

pub use evaluate::{Player, Score};
pub use uniform::{capture_chances, UniformPlanner};

#[cfg(test)]
mod tests;

use crate::error::{Error, Result};
use crate::game::Game;
use crate::games::duo_regna::{DuoRegna, State, CARDS};
use crate::solver::matrix_game::{self, Solution};
use encoding::{
    capture, first_levels, guard_return, hand_size, kinds, levels, outcome, public_state, without,
    Capture, HandPairs, Level, Outcome, PublicState, CENTRE, FULL, KINDS, MINE, THEIRS,
};
use std::collections::HashMap;

/// The largest table the solver builds (values; 8 bytes each).
pub const MAX_VALUES: usize = 8_000_000;
/// The smallest `max_rounds` solved with the stationary table when the exact one is too big.
pub const STATIONARY_FROM: u32 = 180;
/// Rounds in a hand.
const HAND: u32 = CARDS as u32;
/// The stationary fixed point is accepted when the hand's map moves it by less than this.
const FIXED_POINT_TOLERANCE: f64 = 1e-12;
/// Newton steps (then plain iterations) tried per level before giving up.
const MAX_ITERATIONS: usize = 200;

/// The mean of `value` over each state the dragon revealed at pile position `at` could have
/// left: every card from `at` to the pile's end swapped into place in turn (no seat knows the
/// pile's order). Brute-force checks average over a new dragon with it.
pub fn mean_over_reveals(s: &State, at: usize, mut value: impl FnMut(&State) -> f64) -> f64 {
    let left = at..s.pile_len as usize;
    let mut total = 0.0;
    for i in left.clone() {
        let mut t = *s;
        t.pile.swap(at, i);
        t.dragon = t.pile[at];
        total += value(&t);
    }
    total / left.len() as f64
}

/// How far ahead the table looks (see the module comment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Horizon {
    /// Every round up to the stalemate guard after this many rounds.
    Exact {
        /// The game's `max_rounds`.
        rounds: u32,
    },
    /// One table for every hand; the guard ignored.
    Stationary,
}

/// A matrix game of a state: my kinds are the rows, theirs the columns.
#[derive(Clone, Copy, Debug)]
pub struct StateGame {
    /// Payoffs to me (my expected return after the round).
    pub payoff: [[f64; KINDS]; KINDS],
    /// My kinds, in row order, and how many.
    pub rows: ([usize; KINDS], usize),
    /// Their kinds, in column order, and how many.
    pub cols: ([usize; KINDS], usize),
}

impl StateGame {
    /// The game's equilibrium.
    pub fn solve(&self) -> Solution<KINDS> {
        matrix_game::solve(&self.payoff, self.rows.1, self.cols.1)
    }
}

/// The equilibrium at one state, for the seat to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Policy {
    /// The seat to move.
    pub seat: usize,
    /// The mover's cards (bit `i`: card `i`), its legal actions.
    pub cards: u16,
    /// Probability of each card (action id); the two 6s share their kind's equally.
    pub probabilities: [f64; CARDS],
    /// The mover's expected return under equilibrium play.
    pub value: f64,
}

/// How the solve went.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BuildStats {
    /// Matrix games solved.
    pub games_solved: u64,
    /// Hand sweeps, over all levels (one per level for an exact table).
    pub sweeps: u64,
    /// The largest change the hand's map still makes to a stationary fixed point.
    pub fixed_point_residual: f64,
}

/// Where a round's outcome leaves the dragon.
enum Step {
    /// Still this level, the dragon on this side.
    Stay(usize),
    /// A capture by me (`true`) or them.
    Capture(bool),
}

/// The solved game: the value of every state at the start of a round (see the module comment).
pub struct Solver {
    game: DuoRegna,
    horizon: Horizon,
    pairs: HandPairs,
    levels: Vec<Level>,
    index: HashMap<Level, usize>,
    mirror: Vec<usize>,
    /// Where a capture by me (0) or them (1) leads from each level.
    captures: Vec<[Capture; 2]>,
    /// Each round's outcome by my kind and theirs.
    outcomes: [[Outcome; KINDS]; KINDS],
    /// By table (one per hand, or one), level, side, then hand pair.
    values: Vec<f64>,
    stats: BuildStats,
}

impl Solver {
    /// The table's horizon for `game`, or why it cannot be solved.
    pub fn horizon(game: &DuoRegna) -> Result<Horizon> {
        let per_hand = levels(game).len() * 3 * HandPairs::new().len();
        let hands = game.config.max_rounds.div_ceil(HAND) as usize;
        let too_big = |what: &str| {
            Error::InvalidOption(format!(
                "the Duo Regna solver cannot solve these options: {what} (at most {MAX_VALUES} \
                 values; the default dragon deck and dragons to win need {per_hand} per hand)"
            ))
        };
        if per_hand * hands <= MAX_VALUES {
            Ok(Horizon::Exact {
                rounds: game.config.max_rounds,
            })
        } else if per_hand > MAX_VALUES {
            Err(too_big(
                "'dragon_deck' and 'dragons_to_win' give too many captures and piles",
            ))
        } else if game.config.max_rounds >= STATIONARY_FROM {
            Ok(Horizon::Stationary)
        } else {
            Err(too_big(&format!(
                "an exact table for max_rounds={} is too big, and the stationary table serves \
                 only max_rounds >= {STATIONARY_FROM}",
                game.config.max_rounds
            )))
        }
    }

    /// An empty table for `game`.
    fn empty(game: &DuoRegna, horizon: Horizon) -> Result<Self> {
        let levels = levels(game);
        let index: HashMap<Level, usize> =
            levels.iter().enumerate().map(|(i, &l)| (l, i)).collect();
        let find = |l: Level| index.get(&l).copied();
        let mirror = levels
            .iter()
            .map(|l| find(l.mirrored()).unwrap_or(0))
            .collect();
        let captures = levels
            .iter()
            .map(|&l| [capture(game, l, true, find), capture(game, l, false, find)])
            .collect();
        let pairs = HandPairs::new();
        let tables = match horizon {
            Horizon::Exact { rounds } => rounds.div_ceil(HAND) as usize,
            Horizon::Stationary => 1,
        };
        let values = vec![0.0; tables * levels.len() * 3 * pairs.len()];
        Ok(Solver {
            game: game.clone(),
            horizon,
            pairs,
            levels,
            index,
            mirror,
            captures,
            outcomes: std::array::from_fn(|a| std::array::from_fn(|b| outcome(a, b))),
            values,
            stats: BuildStats::default(),
        })
    }

    /// Solves `game`, calling `progress(done, total)` after each level of each table; the
    /// build stops (`None`) as soon as `progress` returns `false`.
    pub fn build(
        game: &DuoRegna,
        progress: &mut dyn FnMut(usize, usize) -> bool,
    ) -> Result<Option<Self>> {
        Self::build_with(game, Self::horizon(game)?, progress)
    }

    /// `build` with the horizon chosen by the caller (tests compare the two kinds).
    fn build_with(
        game: &DuoRegna,
        horizon: Horizon,
        progress: &mut dyn FnMut(usize, usize) -> bool,
    ) -> Result<Option<Self>> {
        let mut s = Self::empty(game, horizon)?;
        let n = s.levels.len();
        match s.horizon {
            Horizon::Exact { rounds } => {
                let tables = rounds.div_ceil(HAND) as usize;
                for (done, table) in (0..tables).rev().enumerate() {
                    for l in 0..n {
                        if s.mirror[l] < l {
                            s.mirror_fill(table, l);
                        } else {
                            s.sweep(table, l, None);
                            s.stats.sweeps += 1;
                        }
                        if !progress(done * n + l + 1, tables * n) {
                            return Ok(None);
                        }
                    }
                }
            }
            Horizon::Stationary => {
                for l in 0..n {
                    if s.mirror[l] < l {
                        s.mirror_fill(0, l);
                    } else {
                        s.fixed_point(l);
                    }
                    if !progress(l + 1, n) {
                        return Ok(None);
                    }
                }
            }
        }
        Ok(Some(s))
    }

    /// The game's options as solved.
    pub fn game(&self) -> &DuoRegna {
        &self.game
    }

    /// How far the table looks.
    pub fn table_horizon(&self) -> Horizon {
        self.horizon
    }

    /// How the build went (zero for a table read from bytes).
    pub fn stats(&self) -> BuildStats {
        self.stats
    }

    /// Number of values in the table.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the table is empty (never).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The equilibrium strategy and value for the seat to move in `s` (a state of this
    /// solver's game), from the public state only.
    pub fn policy(&self, s: &State) -> Result<Policy> {
        let p = public_state(s).ok_or_else(|| {
            Error::InvalidArgument("the game is over: there is no move to choose".into())
        })?;
        let l = self.level_of(&p)?;
        let g = self.state_game(p.round, l, p.side, p.mine, p.theirs);
        let sol = g.solve();
        let mut probabilities = [0.0; CARDS];
        for (i, &kind) in g.rows.0[..g.rows.1].iter().enumerate() {
            let cards: Vec<usize> = encoding::cards_of_kind(p.my_cards, kind).collect();
            for &c in &cards {
                probabilities[c] = sol.row[i] / cards.len() as f64;
            }
        }
        Ok(Policy {
            seat: p.seat,
            cards: p.my_cards,
            probabilities,
            value: sol.value,
        })
    }

    /// The matrix game of the public state `p` of this solver's game, for the seat to move:
    /// its kinds against the other seat's, each entry the mover's expected return once the
    /// round is revealed and both seats play the equilibrium after it. An opponent model
    /// weighs her possible cards with it (see the Python agents).
    pub fn game_at(&self, p: &PublicState) -> Result<StateGame> {
        let l = self.level_of(p)?;
        Ok(self.state_game(p.round, l, p.side, p.mine, p.theirs))
    }

    /// `policy` for a state in its saved form (`to_json` of a running Duo Regna state with
    /// this solver's options).
    pub fn policy_of_saved(&self, text: &str) -> Result<Policy> {
        let bad =
            |m: String| Error::InvalidArgument(format!("the solver cannot read this state: {m}"));
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        if v.get("game").and_then(|g| g.as_str()) != Some(DuoRegna::NAMES.name) {
            return Err(bad(format!("it is not a {} state", DuoRegna::NAMES.title)));
        }
        if v.get("options").and_then(|o| o.as_object()) != Some(&self.game.options()) {
            return Err(bad(
                "its options are not the ones this table was solved for".into(),
            ));
        }
        let state: State = v
            .get("state")
            .map(|s| serde_json::from_value(s.clone()))
            .ok_or_else(|| bad("no 'state'".into()))?
            .map_err(|e| bad(e.to_string()))?;
        self.game.check_state(&state).map_err(bad)?;
        self.policy(&state)
    }

    /// My expected return at the start of a game (over the first dragon), under equilibrium
    /// play: zero, as the rules treat both seats alike (up to rounding).
    pub fn start_value(&self) -> f64 {
        self.over_first_dragon(|l| self.value_at(0, l, CENTRE, FULL, FULL))
    }

    /// The mean of `value(level)` over the first dragon's draw.
    fn over_first_dragon(&self, mut value: impl FnMut(usize) -> f64) -> f64 {
        let mut v = 0.0;
        for (chance, start) in first_levels(&self.game) {
            if let Some(&l) = self.index.get(&start) {
                v += chance * value(l);
            }
        }
        v
    }

    /// The level index of a public state, or why the state is not one of this game's.
    fn level_of(&self, p: &PublicState) -> Result<usize> {
        let bad = |m: &str| Error::InvalidState(format!("the solver cannot read this state: {m}"));
        if hand_size(p.mine) != hand_size(p.theirs) || hand_size(p.mine) == 0 {
            return Err(bad("the hands are not of equal, non-zero size"));
        }
        if p.side > THEIRS {
            return Err(bad("the dragon's side is out of range"));
        }
        self.index
            .get(&p.level)
            .copied()
            .ok_or_else(|| bad("the captures and the revealed dragons do not add up"))
    }

    /// The table (one per hand for an exact horizon) that holds round `r`.
    fn table_of(&self, r: u32) -> usize {
        match self.horizon {
            Horizon::Exact { .. } => (r / HAND) as usize,
            Horizon::Stationary => 0,
        }
    }

    /// Where the values of (table, level, side) start.
    fn block(&self, table: usize, l: usize, side: usize) -> usize {
        ((table * self.levels.len() + l) * 3 + side) * self.pairs.len()
    }

    /// The value at the start of round `r` (hands empty: taken back first).
    fn value_at(&self, r: u32, l: usize, side: usize, mine: u16, theirs: u16) -> f64 {
        if let Horizon::Exact { rounds } = self.horizon {
            if r >= rounds {
                return guard_return(self.levels[l], side);
            }
        }
        let (mine, theirs) = if mine == 0 {
            (FULL, FULL)
        } else {
            (mine, theirs)
        };
        self.values[self.block(self.table_of(r), l, side) + self.pairs.index(mine, theirs)]
    }

    /// Where the dragon goes when a round at `side` has `outcome`.
    fn step(side: usize, o: Outcome) -> Step {
        match o {
            Outcome::Nobody => Step::Stay(side),
            Outcome::Me if side == MINE => Step::Capture(true),
            Outcome::Them if side == THEIRS => Step::Capture(false),
            Outcome::Me => Step::Stay(side - 1),
            Outcome::Them => Step::Stay(side + 1),
        }
    }

    /// The value of starting round `r` after a reveal with outcome `o` from (`l`, `side`),
    /// with the hands left, by `value(level, side)` at round `r` with those hands; a capture
    /// that ends the game gives `end(return)`.
    fn after(
        &self,
        l: usize,
        side: usize,
        o: Outcome,
        end: impl Fn(f64) -> f64,
        value: impl Fn(usize, usize) -> f64,
    ) -> f64 {
        match Self::step(side, o) {
            Step::Stay(s) => value(l, s),
            Step::Capture(by_me) => match &self.captures[l][usize::from(!by_me)] {
                Capture::End(v) => end(*v),
                Capture::Next(next) => next.iter().map(|&(p, to)| p * value(to, CENTRE)).sum(),
            },
        }
    }

    /// The matrix game at the start of round `r` in (`l`, `side`) with these hands.
    pub fn state_game(&self, r: u32, l: usize, side: usize, mine: u16, theirs: u16) -> StateGame {
        let (rows, cols) = (kinds(mine), kinds(theirs));
        let mut payoff = [[0.0; KINDS]; KINDS];
        for (i, &a) in rows.0[..rows.1].iter().enumerate() {
            for (j, &b) in cols.0[..cols.1].iter().enumerate() {
                let (m, t) = (without(mine, a), without(theirs, b));
                payoff[i][j] = self.after(
                    l,
                    side,
                    outcome(a, b),
                    |v| v,
                    |l2, s2| self.value_at(r + 1, l2, s2, m, t),
                );
            }
        }
        StateGame { payoff, rows, cols }
    }

    /// The first round of table `table` whose hands hold `k` cards.
    fn round_of(table: usize, k: usize) -> u32 {
        table as u32 * HAND + (CARDS - k) as u32
    }

    /// Solves every state of level `l` in table `table`, from the last round of the hand to
    /// the first. With `derivatives` (a stationary table), also how each value moves with the
    /// level's three values where the hands are taken back, the strategies held fixed.
    fn sweep(&mut self, table: usize, l: usize, mut derivatives: Option<&mut Vec<[f64; 3]>>) {
        let n = self.pairs.len();
        let mut after: [Vec<f64>; 3] = Default::default();
        for k in 1..=CARDS {
            let r = Self::round_of(table, k);
            if matches!(self.horizon, Horizon::Exact { rounds } if r >= rounds) {
                continue;
            }
            for side in 0..3 {
                self.after_tables(r, l, side, k, &mut after);
                for &mine in self.pairs.hands(k) {
                    for &theirs in self.pairs.hands(k) {
                        let g = self.game_from(&after, k, mine, theirs);
                        let sol = g.solve();
                        let at = self.pairs.index(mine, theirs);
                        let slot = self.block(table, l, side) + at;
                        self.values[slot] = sol.value;
                        self.stats.games_solved += 1;
                        if let Some(d) = derivatives.as_deref_mut() {
                            let moved = self.derivative(&g, &sol, side, mine, theirs, d);
                            d[side * n + at] = moved;
                        }
                    }
                }
            }
        }
    }

    /// Level `l` of table `table` from its mirror image, already solved: my value is minus
    /// theirs with the seats swapped (the rules treat both seats alike).
    fn mirror_fill(&mut self, table: usize, l: usize) {
        let m = self.mirror[l];
        for side in 0..3 {
            let (to, from) = (self.block(table, l, side), self.block(table, m, 2 - side));
            for k in 1..=CARDS {
                for &mine in self.pairs.hands(k) {
                    for &theirs in self.pairs.hands(k) {
                        self.values[to + self.pairs.index(mine, theirs)] =
                            -self.values[from + self.pairs.index(theirs, mine)];
                    }
                }
            }
        }
    }

    /// The index of a pair of `k - 1` cards among those pairs (0 for the hands taken back).
    fn next_index(&self, k: usize, mine: u16, theirs: u16) -> usize {
        if k == 1 {
            0
        } else {
            self.pairs.index(mine, theirs) - self.pairs.start(k - 1)
        }
    }

    /// For a round of `k` cards at (`r`, `l`, `side`): the value after each outcome
    /// (`Outcome as usize`), for every pair of hands left (see `next_index`).
    fn after_tables(&self, r: u32, l: usize, side: usize, k: usize, out: &mut [Vec<f64>; 3]) {
        self.fill_after(
            l,
            side,
            k,
            out,
            |v| v,
            |l2, s2, m, t| self.value_at(r + 1, l2, s2, m, t),
        );
    }

    /// For a round of `k` cards at (`l`, `side`): the value after each outcome
    /// (`Outcome as usize`), for every pair of hands left (see `next_index`), where a capture
    /// that ends the game is worth `end(return)` and the next round's start is worth
    /// `value(level, side, mine, theirs)` (hands empty: about to be taken back).
    fn fill_after(
        &self,
        l: usize,
        side: usize,
        k: usize,
        out: &mut [Vec<f64>; 3],
        end: impl Fn(f64) -> f64,
        value: impl Fn(usize, usize, u16, u16) -> f64,
    ) {
        let left: &[u16] = if k == 1 {
            &[0]
        } else {
            self.pairs.hands(k - 1)
        };
        for (o, table) in [Outcome::Nobody, Outcome::Me, Outcome::Them]
            .into_iter()
            .zip(out.iter_mut())
        {
            table.clear();
            table.resize(left.len() * left.len(), 0.0);
            for &m in left {
                for &t in left {
                    table[self.next_index(k, m, t)] =
                        self.after(l, side, o, &end, |l2, s2| value(l2, s2, m, t));
                }
            }
        }
    }

    /// The matrix game of a state with hands of `k` cards, from `after_tables`: the same
    /// numbers as `state_game`, looked up instead of recomputed.
    fn game_from(&self, after: &[Vec<f64>; 3], k: usize, mine: u16, theirs: u16) -> StateGame {
        let (rows, cols) = (kinds(mine), kinds(theirs));
        let mut payoff = [[0.0; KINDS]; KINDS];
        for (i, &a) in rows.0[..rows.1].iter().enumerate() {
            let m = without(mine, a);
            for (j, &b) in cols.0[..cols.1].iter().enumerate() {
                let o = self.outcomes[a][b] as usize;
                payoff[i][j] = after[o][self.next_index(k, m, without(theirs, b))];
            }
        }
        StateGame { payoff, rows, cols }
    }

    /// How the value of a state moves with the level's boundary values (see `sweep`).
    fn derivative(
        &self,
        g: &StateGame,
        sol: &Solution<KINDS>,
        side: usize,
        mine: u16,
        theirs: u16,
        d: &[[f64; 3]],
    ) -> [f64; 3] {
        let n = self.pairs.len();
        let mut out = [0.0; 3];
        for (i, &a) in g.rows.0[..g.rows.1].iter().enumerate() {
            for (j, &b) in g.cols.0[..g.cols.1].iter().enumerate() {
                let w = sol.row[i] * sol.col[j];
                if w == 0.0 {
                    continue;
                }
                if let Step::Stay(s2) = Self::step(side, outcome(a, b)) {
                    let (m, t) = (without(mine, a), without(theirs, b));
                    if m == 0 {
                        out[s2] += w;
                    } else {
                        let next = d[s2 * n + self.pairs.index(m, t)];
                        for (o, x) in out.iter_mut().zip(next) {
                            *o += w * x;
                        }
                    }
                }
            }
        }
        out
    }

    /// The stationary values of level `l` (see the module comment).
    fn fixed_point(&mut self, l: usize) {
        let n = self.pairs.len();
        let full = self.pairs.index(FULL, FULL);
        let mut derivatives = vec![[0.0; 3]; 3 * n];
        let mut b: [f64; 3] = std::array::from_fn(|side| guard_return(self.levels[l], side));
        let mut last_residual = f64::INFINITY;
        for iteration in 0..MAX_ITERATIONS {
            for (side, &v) in b.iter().enumerate() {
                let slot = self.block(0, l, side) + full;
                self.values[slot] = v;
            }
            self.sweep(0, l, Some(&mut derivatives));
            self.stats.sweeps += 1;
            let f: [f64; 3] =
                std::array::from_fn(|side| self.values[self.block(0, l, side) + full]);
            let residual = (0..3).map(|i| (f[i] - b[i]).abs()).fold(0.0, f64::max);
            if residual <= FIXED_POINT_TOLERANCE {
                self.stats.fixed_point_residual = self.stats.fixed_point_residual.max(residual);
                return;
            }
            // Newton on b = F(b), F linear while the strategies hold: (I - J) step = F(b) - b.
            let jacobian: [[f64; 3]; 3] = std::array::from_fn(|side| derivatives[side * n + full]);
            let newton = (iteration < MAX_ITERATIONS / 2 && residual < last_residual)
                .then(|| newton_step(&jacobian, &f, &b))
                .flatten();
            b = newton.unwrap_or(f);
            last_residual = residual;
        }
        self.stats.fixed_point_residual = self.stats.fixed_point_residual.max(last_residual);
    }
}

/// `b + (I - J)^-1 (f - b)`, or `None` if `I - J` is (nearly) singular.
fn newton_step(j: &[[f64; 3]; 3], f: &[f64; 3], b: &[f64; 3]) -> Option<[f64; 3]> {
    let m: [[f64; 3]; 3] =
        std::array::from_fn(|r| std::array::from_fn(|c| f64::from(u8::from(r == c)) - j[r][c]));
    let rhs: [f64; 3] = std::array::from_fn(|i| f[i] - b[i]);
    let det = |m: &[[f64; 3]; 3]| {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    };
    let d = det(&m);
    if d.abs() < 1e-9 {
        return None;
    }
    // Cramer's rule.
    let x: [f64; 3] = std::array::from_fn(|c| {
        let mut mc = m;
        for r in 0..3 {
            mc[r][c] = rhs[r];
        }
        det(&mc) / d
    });
    Some(std::array::from_fn(|i| b[i] + x[i]))
}
