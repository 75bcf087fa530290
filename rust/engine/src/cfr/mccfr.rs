//! Monte Carlo CFR over any game in its seeded mode: external sampling and outcome sampling
//! (Lanctot, Waugh, Zinkevich and Bowling, 2009), regrets and average strategy in a
//! [`Table`] keyed by the compact information-state keys ([`super::key`]).
//!
//! A game's randomness is inside its state, drawn from the deal's seed as it is played, so
//! iteration `t` plays from the fresh seed `derive_seed(seed, t)`: one sample of every chance
//! event, the way both samplers sample chance. Each iteration runs one traversal per seat
//! (that seat updating its regrets), each from the same deal.
//!
//! * External sampling: the updating seat tries every legal action, the others sample one
//!   from their current strategy (regret matching) and add it to their average strategy.
//! * Outcome sampling: one path per traversal; the updating seat samples from its strategy
//!   mixed with `exploration` of uniform, the others from their strategy; regrets get the
//!   importance-weighted values, the updating seat's average its reach-weighted strategy
//!   (the "simple" averaging of OpenSpiel's `OutcomeSamplingSolver`).
//!
//! In a game with explicit chance, both samplers draw each chance node's outcome by its
//! probability from the iteration's generator, as they sample the other seats.
//!
//! Without a time limit a run is a pure function of the game, the seed and the iterations.

use super::key::{Scratch, Tracker};
use super::table::{regret_matching, Slot, Table};
use crate::game::{Game, Seat};
use crate::rng::{derive_seed, Rng};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Which sampling scheme a run uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// External sampling: every action of the updating seat, one of everybody else's.
    External,
    /// Outcome sampling: one path per traversal, importance-weighted.
    Outcome,
}

impl Method {
    /// The method called `name` (`"external"` or `"outcome"`).
    pub fn from_name(name: &str) -> Option<Method> {
        match name {
            "external" => Some(Method::External),
            "outcome" => Some(Method::Outcome),
            _ => None,
        }
    }

    /// The method's name.
    pub fn name(self) -> &'static str {
        match self {
            Method::External => "external",
            Method::Outcome => "outcome",
        }
    }
}

/// The share of uniform play mixed into the updating seat's sampling in outcome sampling.
pub const OUTCOME_EXPLORATION: f32 = 0.6;

/// How many information-set visits a run made (each updates regrets or average weights).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Iterations done (each one traversal per seat).
    pub iterations: u64,
    /// Decision nodes visited, each one read of the table and one update.
    pub updates: u64,
}

/// An MCCFR run over game `G`: its table grows with every call of [`Mccfr::run`].
pub struct Mccfr<G: Game> {
    game: G,
    method: Method,
    seed: u64,
    table: Table,
    counts: Counts,
    /// The strategies (and values) of the nodes on the path being walked, one block per
    /// node above the blocks of its ancestors: reused, so a traversal allocates nothing.
    stack: Vec<f32>,
    /// The buffer the keys' observation tensors are written into.
    scratch: Scratch,
    /// Set when the table could hold no more actions: runs then do nothing.
    full: bool,
    /// Set when the budget ran out inside an iteration: the traversal unwinds without
    /// further updates.
    aborted: bool,
}

/// When a run must stop: its deadline and the caller's stop flag.
struct Budget<'s> {
    deadline: Option<Instant>,
    stop: &'s AtomicBool,
}

impl Budget<'_> {
    fn spent(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// Decision nodes between two looks at the budget inside an iteration.
const CHECK_EVERY: u64 = 4096;

impl<G: Game> Mccfr<G> {
    /// A run of `method` over `game` from `seed`, nothing computed yet (a game has at most
    /// [`super::key::MAX_SEATS`] seats, or its first iteration panics: no game has more).
    pub fn new(game: G, method: Method, seed: u64) -> Self {
        Mccfr {
            scratch: Scratch::new(&game),
            game,
            method,
            seed,
            table: Table::default(),
            counts: Counts::default(),
            stack: Vec::new(),
            full: false,
            aborted: false,
        }
    }

    /// The game solved.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The sampling scheme.
    pub fn method(&self) -> Method {
        self.method
    }

    /// The regrets and averages so far.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// What was done so far.
    pub fn counts(&self) -> Counts {
        self.counts
    }

    /// Whether the table ran out of room (no more iterations can run).
    pub fn is_full(&self) -> bool {
        self.full
    }

    /// Runs up to `iterations` more iterations, stopping early at `deadline` or once `stop`
    /// is set; returns how many ran to the end. The budget is also checked every
    /// `CHECK_EVERY` decision nodes inside an iteration (one external-sampling iteration of
    /// a large game may never end): an iteration cut short keeps the updates of the subtrees
    /// it finished and is not counted.
    pub fn run(&mut self, iterations: u64, deadline: Option<Instant>, stop: &AtomicBool) -> u64 {
        let budget = Budget { deadline, stop };
        self.aborted = false;
        let mut done = 0;
        while done < iterations && !self.full && !budget.spent() {
            self.iterate(&budget);
            if self.aborted {
                break;
            }
            done += 1;
        }
        done
    }

    /// Whether the traversal must unwind now (the budget is looked at now and then).
    fn cut(&mut self, budget: &Budget<'_>) -> bool {
        if !self.aborted && self.counts.updates % CHECK_EVERY == 0 && budget.spent() {
            self.aborted = true;
        }
        self.aborted || self.full
    }

    /// One iteration: a fresh deal, one traversal per seat.
    fn iterate(&mut self, budget: &Budget<'_>) {
        let t = self.counts.iterations;
        let deal = derive_seed(self.seed, 2 * t);
        let mut rng = Rng::new(derive_seed(self.seed, 2 * t + 1));
        let root = self.game.new_state(Rng::new(deal));
        let root_keys = Tracker::new(&self.game, &root, &mut self.scratch);
        for seat in 0..self.game.num_players() {
            let (state, tracker) = (root.clone(), root_keys);
            match self.method {
                Method::External => {
                    self.external(state, tracker, seat, &mut rng, budget);
                }
                Method::Outcome => {
                    self.outcome(state, tracker, seat, [1.0; 3], &mut rng, budget);
                }
            }
        }
        if !self.aborted {
            self.counts.iterations += 1;
        }
    }

    /// What a traversal for `seat` finds at `state`: the information set to decide at (its
    /// mover and slot, the visit counted), its current strategy (regret matching) pushed onto
    /// the stack; or the value to return at once (the end of the game's return; 0 when the
    /// traversal must unwind).
    fn visit(
        &mut self,
        state: &G::State,
        tracker: &Tracker,
        seat: Seat,
        budget: &Budget<'_>,
    ) -> Result<(Seat, Slot), f32> {
        let Some(mover) = self.game.current_player(state) else {
            return Err(self.game.returns(state)[seat] as f32);
        };
        if self.cut(budget) {
            return Err(0.0);
        }
        let game = &self.game;
        let Some(slot) = self
            .table
            .slot(tracker.key(mover), || game.legal_actions(state))
        else {
            self.full = true;
            return Err(0.0);
        };
        self.counts.updates += 1;
        let base = self.stack.len();
        self.stack.resize(base + slot.len(), 0.0);
        regret_matching(self.table.at(slot).regrets, &mut self.stack[base..]);
        Ok((mover, slot))
    }

    /// `state` past its chance nodes (explicit chance), each outcome drawn by its
    /// probability; the product of the probabilities drawn.
    fn past_chance(&mut self, state: &mut G::State, tracker: &mut Tracker, rng: &mut Rng) -> f32 {
        let mut reach = 1.0;
        while self.game.is_chance_node(state) {
            let outcomes = self.game.chance_outcomes(state);
            let (outcome, p) = outcomes[sample(outcomes.iter().map(|o| o.1 as f32), rng)];
            reach *= p as f32;
            tracker.apply_unless_over(&self.game, state, Seat::MAX, outcome, &mut self.scratch);
        }
        reach
    }

    /// External sampling from `state`: `seat`'s sampled counterfactual value.
    fn external(
        &mut self,
        mut state: G::State,
        mut tracker: Tracker,
        seat: Seat,
        rng: &mut Rng,
        budget: &Budget<'_>,
    ) -> f32 {
        self.past_chance(&mut state, &mut tracker, rng);
        let base = self.stack.len();
        let (mover, slot) = match self.visit(&state, &tracker, seat, budget) {
            Ok(node) => node,
            Err(value) => return value,
        };
        let n = slot.len();
        if mover == seat {
            // The block holds the strategy, then each action's value.
            self.stack.resize(base + 2 * n, 0.0);
            for i in 0..n {
                let (mut child, mut t) = (state.clone(), tracker);
                let a = self.table.action(slot, i);
                t.apply_unless_over(&self.game, &mut child, mover, a, &mut self.scratch);
                self.stack[base + n + i] = self.external(child, t, seat, rng, budget);
            }
            let value = if self.aborted || self.full {
                0.0
            } else {
                let (strategy, values) = self.stack[base..].split_at(n);
                let value: f32 = values.iter().zip(strategy).map(|(v, p)| v * p).sum();
                for (r, v) in self.table.at(slot).regrets.iter_mut().zip(values) {
                    *r += v - value;
                }
                value
            };
            self.stack.truncate(base);
            value
        } else {
            let strategy = &self.stack[base..];
            for (w, p) in self.table.at(slot).weights.iter_mut().zip(strategy) {
                *w += p;
            }
            let i = sample(strategy.iter().copied(), rng);
            self.stack.truncate(base);
            let a = self.table.action(slot, i);
            tracker.apply_unless_over(&self.game, &mut state, mover, a, &mut self.scratch);
            self.external(state, tracker, seat, rng, budget)
        }
    }

    /// Outcome sampling from `state`, reached with `[mine, theirs, sampled]`: `seat`'s own
    /// reach, everybody else's and the sampling's; the sampled value for `seat`.
    fn outcome(
        &mut self,
        mut state: G::State,
        mut tracker: Tracker,
        seat: Seat,
        [mine, theirs, sampled]: [f32; 3],
        rng: &mut Rng,
        budget: &Budget<'_>,
    ) -> f32 {
        // Chance's reach counts with the others' and the sampling's, as OpenSpiel's
        // outcome sampling counts it (it cancels in the regrets, not in the averages).
        let chance = self.past_chance(&mut state, &mut tracker, rng);
        let (theirs, sampled) = (theirs * chance, sampled * chance);
        let base = self.stack.len();
        let (mover, slot) = match self.visit(&state, &tracker, seat, budget) {
            Ok(node) => node,
            Err(value) => return value,
        };
        let strategy = &self.stack[base..];
        let n = strategy.len() as f32;
        let e = if mover == seat {
            OUTCOME_EXPLORATION
        } else {
            0.0
        };
        let sampling = |p: f32| e / n + (1.0 - e) * p;
        let i = sample(strategy.iter().map(|&p| sampling(p)), rng);
        let (p, q) = (strategy[i], sampling(strategy[i]));
        let (mine2, theirs2) = if mover == seat {
            (mine * p, theirs)
        } else {
            (mine, theirs * p)
        };
        tracker.apply_unless_over(
            &self.game,
            &mut state,
            mover,
            self.table.action(slot, i),
            &mut self.scratch,
        );
        let reach = [mine2, theirs2, sampled * q];
        let child_value = self.outcome(state, tracker, seat, reach, rng, budget);
        let value = if self.aborted || self.full {
            0.0
        } else {
            let sampled_value = child_value / q;
            let value = p * sampled_value;
            if mover == seat {
                let node = self.table.at(slot);
                let scale = theirs / sampled;
                for (j, r) in node.regrets.iter_mut().enumerate() {
                    let action_value = if j == i { sampled_value } else { 0.0 };
                    *r += (action_value - value) * scale;
                }
                for (w, p) in node.weights.iter_mut().zip(&self.stack[base..]) {
                    *w += mine * p / sampled;
                }
            }
            value
        };
        self.stack.truncate(base);
        value
    }
}

/// An index drawn from the distribution `probs` (summing to about 1).
fn sample(probs: impl Iterator<Item = f32>, rng: &mut Rng) -> usize {
    let u = (rng.next_u32() as f64 + 0.5) / 4_294_967_296.0;
    let mut acc = 0.0f64;
    let mut last_positive = 0;
    for (i, p) in probs.enumerate() {
        acc += p as f64;
        if u < acc {
            return i;
        }
        if p > 0.0 {
            last_positive = i;
        }
    }
    last_positive
}
