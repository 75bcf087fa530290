//! Many games of one kind stepped together (`regalia.VectorEnv`): one call applies one action
//! in every game, restarts the games that ended, and writes what the next players see into
//! flat caller-owned buffers, split over threads when the batch is large.
//!
//! Seeds: game `e` (counting from 0) played in slot `i` of a batch of `n` starts from
//! `derive_seed(seed, e * n + i)`, so the first games are those of `game.new_state(derive_seed(seed, i))`
//! and no two games of a batch share a seed. [`Batch::sample_actions`] draws from a
//! generator of each game's own, seeded by `derive_seed(!game_seed, 0)` when the game starts,
//! so random play is as reproducible as the games, whatever the threads.
//!
//! One learning seat per game: [`Batch::step_seats`] plays the learner's action (or none)
//! in each game and then the other seats' moves natively until the learner is to move again,
//! so that a one-seat vector env needs one call per step: uniformly random moves with
//! `random_others`, else those of the opponents of the game's entry of the batch's pool
//! ([`Batch::set_opponent_pool`]: random, ISMCTS or a policy network, see
//! [`crate::opponents`]), stopping at a seat the caller answers. The opponents draw from the
//! game's own generator (the sampler), so their moves follow from the game's seed.

use crate::actions::Action;
use crate::error::{Error, Result};
use crate::game::{Game, Seat};
use crate::opponents::{opponent_at, Opponent, OpponentPool, Scratch};
use crate::rng::{derive_seed, Rng};
use crate::session::Session;
use crate::workers::Workers;
pub use crate::workers::MIN_GAMES_PER_THREAD;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// The caller's output buffers, one row per game: [`Batch::reset`] and [`Batch::step`]
/// write every element (so they need not be initialised) or, on an error, none.
pub struct BatchOut<'a> {
    /// `n * observation_size` floats: each game's observation tensor for its current player
    /// (zeros for a game that is over, which only a game that ends before any move can be).
    pub observations: &'a mut [f32],
    /// `n * num_actions` flags: each game's legal actions.
    pub masks: &'a mut [bool],
    /// `n * num_players` floats: the final returns of the games that ended on this step, else 0.
    pub rewards: &'a mut [f32],
    /// `n` flags: whether the game ended on this step (and was restarted).
    pub terminated: &'a mut [bool],
    /// `n` seats: each game's current player, `-1` for a game that is over.
    pub players: &'a mut [i64],
}

/// Owned output buffers for a batch of `n` games, every element zeroed, that lend themselves
/// as a [`BatchOut`] (for callers in Rust: the tests and benches; Python passes its arrays).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BatchBuffers {
    /// See [`BatchOut::observations`].
    pub observations: Vec<f32>,
    /// See [`BatchOut::masks`].
    pub masks: Vec<bool>,
    /// See [`BatchOut::rewards`].
    pub rewards: Vec<f32>,
    /// See [`BatchOut::terminated`].
    pub terminated: Vec<bool>,
    /// See [`BatchOut::players`].
    pub players: Vec<i64>,
}

impl BatchBuffers {
    /// Zeroed buffers for `n` games of `observation_size` floats, `num_actions` actions and
    /// `num_players` seats.
    pub fn new(n: usize, observation_size: usize, num_actions: usize, num_players: usize) -> Self {
        BatchBuffers {
            observations: vec![0.0; n * observation_size],
            masks: vec![false; n * num_actions],
            rewards: vec![0.0; n * num_players],
            terminated: vec![false; n],
            players: vec![0; n],
        }
    }

    /// The buffers, lent as a batch's output.
    pub fn out(&mut self) -> BatchOut<'_> {
        BatchOut {
            observations: &mut self.observations,
            masks: &mut self.masks,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            players: &mut self.players,
        }
    }
}

/// Output rows, one per game, that can be split between threads.
trait Rows: Send + Sized {
    /// Splits off the rows of the first `k` games.
    fn split_at(self, k: usize, sizes: Sizes) -> (Self, Self);
}

impl Rows for &[i64] {
    fn split_at(self, k: usize, _: Sizes) -> (Self, Self) {
        <[i64]>::split_at(self, k)
    }
}

impl Rows for &mut [i64] {
    fn split_at(self, k: usize, _: Sizes) -> (Self, Self) {
        self.split_at_mut(k)
    }
}

impl Rows for BatchOut<'_> {
    fn split_at(self, k: usize, sizes: Sizes) -> (Self, Self) {
        let (o0, o1) = self.observations.split_at_mut(k * sizes.observation);
        let (m0, m1) = self.masks.split_at_mut(k * sizes.actions);
        let (r0, r1) = self.rewards.split_at_mut(k * sizes.players);
        let (t0, t1) = self.terminated.split_at_mut(k);
        let (p0, p1) = self.players.split_at_mut(k);
        (
            BatchOut {
                observations: o0,
                masks: m0,
                rewards: r0,
                terminated: t0,
                players: p0,
            },
            BatchOut {
                observations: o1,
                masks: m1,
                rewards: r1,
                terminated: t1,
                players: p1,
            },
        )
    }
}

/// The rows of [`Batch::step_seats`]: the outputs, the final observations and the inputs.
struct SeatRows<'a> {
    out: BatchOut<'a>,
    finals: &'a mut [f32],
    seats: &'a [i64],
    actions: &'a [i64],
}

impl Rows for SeatRows<'_> {
    fn split_at(self, k: usize, sizes: Sizes) -> (Self, Self) {
        let (out0, out1) = self.out.split_at(k, sizes);
        let (f0, f1) = self.finals.split_at_mut(k * sizes.observation);
        let (s0, s1) = self.seats.split_at(k);
        let (a0, a1) = self.actions.split_at(k);
        (
            SeatRows {
                out: out0,
                finals: f0,
                seats: s0,
                actions: a0,
            },
            SeatRows {
                out: out1,
                finals: f1,
                seats: s1,
                actions: a1,
            },
        )
    }
}

/// Row widths of the output buffers.
#[derive(Clone, Copy, Debug)]
struct Sizes {
    observation: usize,
    actions: usize,
    players: usize,
}

/// The opponents of one game: one per other seat, in seat order (`None`: the caller's).
type Entry = Arc<[Option<Opponent>]>;

/// One slot of a batch: the game being played there (a [`Session`]: state, history, seed),
/// which game of the slot it is, its sampler and its opponents.
#[derive(Clone, Debug)]
struct Slot<G: Game> {
    session: Session<G>,
    episode: u64,
    /// The generator of [`Batch::sample_actions`] and of the native opponents for this game.
    sampler: Rng,
    /// The entry of the pool this game plays (drawn when it started), if any.
    opponents: Option<Entry>,
}

/// The seed of game `episode` of slot `index` in a batch of `n` seeded by `seed`.
fn game_seed(seed: u64, n: usize, index: usize, episode: u64) -> u64 {
    derive_seed(
        seed,
        episode.wrapping_mul(n as u64).wrapping_add(index as u64),
    )
}

/// The sampler of the game started from `game_seed`.
fn sampler(game_seed: u64) -> Rng {
    Rng::new(derive_seed(!game_seed, 0))
}

impl<G: Game> Slot<G> {
    /// Game `episode` of slot `index` in a batch of `n` seeded by `seed`, at its start.
    fn start(game: &Arc<G>, seed: u64, n: usize, index: usize, episode: u64) -> Self {
        let game_seed = game_seed(seed, n, index, episode);
        Slot {
            session: Session::new(game.clone(), game_seed),
            episode,
            sampler: sampler(game_seed),
            opponents: None,
        }
    }

    /// Starts game `episode` of this slot, the `index`th of a batch of `n` seeded by `seed`,
    /// against an entry of `pool`.
    fn restart(
        &mut self,
        (seed, n, pool): (u64, usize, Option<&OpponentPool>),
        index: usize,
        episode: u64,
    ) {
        let game_seed = game_seed(seed, n, index, episode);
        self.session.restart(game_seed);
        self.episode = episode;
        self.sampler = sampler(game_seed);
        self.opponents = pool.map(|p| p.draw(game_seed));
    }

    /// The seed this slot's game started from, in a batch of `n` seeded by `seed`.
    fn seed(&self, seed: u64, n: usize, index: usize) -> u64 {
        game_seed(seed, n, index, self.episode)
    }
}

/// Who plays the other seats natively after the learner's move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Others {
    /// Uniformly random moves for every other seat.
    Random,
    /// The opponents of each game's entry of the pool, up to a seat the caller answers.
    Pool,
}

/// Helper threads for `shares` shares of work (none for one share).
fn workers_for(shares: usize) -> Option<Workers> {
    (shares > 1).then(|| Workers::new(shares)).flatten()
}

/// Shares of a batch of `n` games on up to `threads` threads, each of at least `min` games.
fn shares(threads: usize, n: usize, min: usize) -> usize {
    let shares = threads.min(n / min.max(1)).max(1);
    if shares > 1 && n >= 2 * min {
        shares
    } else {
        1
    }
}

/// `n` games of `G`.
#[derive(Debug)]
pub struct Batch<G: Game> {
    game: Arc<G>,
    seed: u64,
    threads: usize,
    /// The batch's own helper threads (started once, not on every step) when it uses more
    /// than one thread: the calling thread works on a share as well.
    workers: Option<Workers>,
    sizes: Sizes,
    slots: Vec<Slot<G>>,
    /// The opponents games draw from when they start, if any.
    pool: Option<OpponentPool>,
    /// The opponents' buffers, one per share of the work.
    scratch: Vec<Scratch>,
}

impl<G: Game> Batch<G> {
    /// `n` games seeded from `seed`, stepped on up to `threads` threads (call [`Batch::reset`]
    /// to get the first observations).
    pub fn new(game: Arc<G>, n: usize, seed: u64, threads: usize) -> Self {
        let sizes = Sizes {
            observation: game.observation_shape().iter().product(),
            actions: game.num_actions(),
            players: game.num_players(),
        };
        let threads = threads.max(1);
        let shares = shares(threads, n, MIN_GAMES_PER_THREAD);
        let workers = workers_for(shares);
        let mut batch = Batch {
            game,
            seed,
            threads,
            workers,
            sizes,
            slots: Vec::with_capacity(n),
            pool: None,
            scratch: vec![Scratch::default(); shares],
        };
        for i in 0..n {
            let slot = Slot::start(&batch.game, seed, n, i, 0);
            batch.slots.push(slot);
        }
        batch
    }

    fn check_out(&self, out: &BatchOut<'_>) -> Result<()> {
        let n = self.slots.len();
        let s = self.sizes;
        let ok = out.observations.len() == n * s.observation
            && out.masks.len() == n * s.actions
            && out.rewards.len() == n * s.players
            && out.terminated.len() == n
            && out.players.len() == n;
        if ok {
            Ok(())
        } else {
            Err(Error::InvalidArgument(format!(
                "output buffers must hold rows for {n} games"
            )))
        }
    }

    /// Runs `work` on every slot with its output rows and its share's scratch, split over
    /// the threads.
    fn run<O: Rows>(
        &mut self,
        out: O,
        work: impl Fn(&G, usize, &mut Slot<G>, O, &mut Scratch) + Sync,
    ) {
        let (game, sizes, work) = (&*self.game, self.sizes, &work);
        let run_chunk =
            move |first: usize, slots: &mut [Slot<G>], mut out: O, scratch: &mut Scratch| {
                for (k, slot) in slots.iter_mut().enumerate() {
                    let (row, rest) = out.split_at(1, sizes);
                    work(game, first + k, slot, row, scratch);
                    out = rest;
                }
            };
        let mut scratch = self.scratch.iter_mut();
        let Some(workers) = self.workers.as_mut() else {
            let mut none = Scratch::default();
            let mine = scratch.next().unwrap_or(&mut none);
            run_chunk(0, &mut self.slots, out, mine);
            return;
        };
        // One share per thread (the workers and the scratch were sized for this batch), each
        // taken once.
        let chunk = self.slots.len().div_ceil(workers.threads());
        let mut shares = Vec::with_capacity(workers.threads());
        let (mut slots, mut out, mut first) = (&mut self.slots[..], out, 0);
        while slots.len() > chunk {
            let (mine, rest) = slots.split_at_mut(chunk);
            let (my_out, rest_out) = out.split_at(chunk, sizes);
            shares.push(Mutex::new(Some((first, mine, my_out, scratch.next()))));
            (slots, out, first) = (rest, rest_out, first + chunk);
        }
        shares.push(Mutex::new(Some((first, slots, out, scratch.next()))));
        workers.run(&|i| {
            let share = shares.get(i).and_then(|s| s.lock().ok()?.take());
            if let Some((first, slots, out, scratch)) = share {
                let mut none = Scratch::default();
                run_chunk(first, slots, out, scratch.unwrap_or(&mut none));
            }
        });
    }
}

/// Writes what game `slot` shows its current player into its output row.
fn observe<G: Game>(game: &G, slot: &Slot<G>, out: &mut BatchOut<'_>) {
    let seat = game.current_player(slot.session.state());
    observe_as(game, slot, seat, out);
}

/// Writes `seat`'s observation tensor of game `slot` (zeros for none), the current player's
/// legal actions and the current player into its output row.
fn observe_as<G: Game>(game: &G, slot: &Slot<G>, seat: Option<Seat>, out: &mut BatchOut<'_>) {
    out.observations.fill(0.0);
    let state = slot.session.state();
    if let Some(seat) = seat {
        game.observation_tensor(state, seat, out.observations);
    }
    out.players[0] = game.current_player(state).map_or(-1, |p| p as i64);
    out.masks.fill(false);
    for a in slot.session.legal_actions().iter() {
        if let Some(m) = out.masks.get_mut(a as usize) {
            *m = true;
        }
    }
}

impl<G: Game> Slot<G> {
    /// Plays the other seats' moves (drawing from the slot's sampler) until `seat` is to
    /// move, the game is over, or (with the pool's opponents) a seat the caller answers is
    /// to move.
    fn play_others(&mut self, game: &G, seat: Seat, others: Others, scratch: &mut Scratch) {
        let entry = match others {
            Others::Random => None,
            Others::Pool => match &self.opponents {
                Some(entry) => Some(entry.clone()),
                None => return,
            },
        };
        while let Some(p) = game.current_player(self.session.state()) {
            if p == seat {
                break;
            }
            let opponent = match &entry {
                None => &Opponent::Random,
                Some(entry) => match opponent_at(entry, seat, p) {
                    Some(o) => o,
                    None => break,
                },
            };
            let legal = self.session.legal_actions();
            let state = self.session.state();
            match opponent.choose(game, state, p, legal, &mut self.sampler, scratch) {
                Some(a) => self.session.play(a),
                None => break,
            }
        }
    }
}

impl<G: Game> Batch<G> {
    /// Number of games.
    pub fn len(&self) -> usize {
        self.slots.len()
    }
    /// Whether the batch holds no game.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }
    /// Threads used for a large batch (at least one).
    pub fn threads(&self) -> usize {
        self.threads
    }
    /// Floats in one observation tensor.
    pub fn observation_size(&self) -> usize {
        self.sizes.observation
    }
    /// Restarts every game: from `seed` when given, else from the batch's seed.
    pub fn reset(&mut self, seed: Option<u64>, out: BatchOut<'_>) -> Result<()> {
        self.check_out(&out)?;
        if let Some(seed) = seed {
            self.seed = seed;
        }
        let (seed, n) = (self.seed, self.slots.len());
        let pool = self.pool.take();
        self.run(out, |game, i, slot, mut row, _| {
            slot.restart((seed, n, pool.as_ref()), i, 0);
            row.rewards.fill(0.0);
            row.terminated[0] = false;
            observe(game, slot, &mut row);
        });
        self.pool = pool;
        Ok(())
    }
    /// Plays `actions[i]` in game `i`, restarts the games that ended and writes the outputs.
    /// Any bad action is refused before anything changes, naming the game.
    pub fn step(&mut self, actions: &[i64], out: BatchOut<'_>) -> Result<()> {
        self.check_out(&out)?;
        let n = self.slots.len();
        if actions.len() != n {
            return Err(Error::IllegalAction(format!(
                "expected one action for each of the {n} games, got {}",
                actions.len()
            )));
        }
        self.check_actions(actions, false)?;
        let seed = self.seed;
        let pool = self.pool.take();
        self.run(out, |game, i, slot, mut row, _| {
            slot.session.play(actions[i] as Action);
            let over = slot.session.is_terminal();
            row.rewards.fill(0.0);
            row.terminated[0] = over;
            if over {
                for (r, x) in row.rewards.iter_mut().zip(slot.session.returns()) {
                    *r = x as f32;
                }
                slot.restart((seed, n, pool.as_ref()), i, slot.episode + 1);
            }
            observe(game, slot, &mut row);
        });
        self.pool = pool;
        Ok(())
    }
    /// Refuses the first illegal action, naming its game (`-1`, no move, is allowed when
    /// `allow_none`); checked in parallel like the step itself.
    fn check_actions(&mut self, actions: &[i64], allow_none: bool) -> Result<()> {
        let first_illegal = AtomicUsize::new(usize::MAX);
        self.run(actions, |_, i, slot, a, _| {
            let legal = a.first().is_some_and(|&a| {
                (allow_none && a == -1)
                    || usize::try_from(a).is_ok_and(|a| slot.session.legal_actions().contains(a))
            });
            if !legal {
                first_illegal.fetch_min(i, Ordering::Relaxed);
            }
        });
        let i = first_illegal.into_inner();
        if let (Some(slot), Some(&a)) = (self.slots.get(i), actions.get(i)) {
            let why = if slot.session.is_terminal() {
                "the game is over".to_string()
            } else if (0..self.sizes.actions as i64).contains(&a) {
                format!("{} is not legal now", slot.session.action_name(a)?)
            } else {
                format!("out of range 0..{}", self.sizes.actions)
            };
            return Err(Error::IllegalAction(format!("game {i}: action {a}: {why}")));
        }
        Ok(())
    }
    /// One step of a learner at seat `seats[i]` of game `i`: plays `actions[i]` (`-1`: no
    /// move), then the other seats' moves natively (from the game's own generator) until the
    /// learner is to move or the game is over: with `random_others` uniformly random moves,
    /// else the moves of the game's opponents from the pool, up to a seat the caller answers
    /// (none without a pool). A game that ends writes its returns into `rewards`, the
    /// learner's observation of its last position into its row of `finals`, and restarts
    /// (the others then move first where they lead). Each row shows the learner's observation tensor, the current player's
    /// legal actions and the current player. Bad seats and actions are refused before
    /// anything changes, naming the game.
    pub fn step_seats(
        &mut self,
        seats: &[i64],
        actions: &[i64],
        random_others: bool,
        out: BatchOut<'_>,
        finals: &mut [f32],
    ) -> Result<()> {
        self.check_out(&out)?;
        let n = self.slots.len();
        if actions.len() != n || seats.len() != n || finals.len() != n * self.sizes.observation {
            return Err(Error::InvalidArgument(format!(
                "step_seats needs one seat, one action and one final observation for each of the {n} games"
            )));
        }
        let players = self.sizes.players as i64;
        if let Some(i) = seats.iter().position(|s| !(0..players).contains(s)) {
            return Err(Error::InvalidArgument(format!(
                "game {i}: seat must be from 0 to {}, got {}",
                players - 1,
                seats[i]
            )));
        }
        self.check_actions(actions, true)?;
        let seed = self.seed;
        let pool = self.pool.take();
        let others = if random_others {
            Others::Random
        } else {
            Others::Pool
        };
        let rows = SeatRows {
            out,
            finals,
            seats,
            actions,
        };
        self.run(rows, |game, i, slot, mut row, scratch| {
            let seat = row.seats[0] as Seat;
            if row.actions[0] >= 0 {
                slot.session.play(row.actions[0] as Action);
            }
            slot.play_others(game, seat, others, scratch);
            let over = slot.session.is_terminal();
            row.out.rewards.fill(0.0);
            row.out.terminated[0] = over;
            row.finals.fill(0.0);
            if over {
                for (r, x) in row.out.rewards.iter_mut().zip(slot.session.returns()) {
                    *r = x as f32;
                }
                game.observation_tensor(slot.session.state(), seat, row.finals);
                slot.restart((seed, n, pool.as_ref()), i, slot.episode + 1);
                slot.play_others(game, seat, others, scratch);
            }
            observe_as(game, slot, Some(seat), &mut row.out);
        });
        self.pool = pool;
        Ok(())
    }
    /// Writes a uniformly random legal action of each game into `out` (`-1` for a game that
    /// is over), drawn from each game's own generator: random play without a Python loop.
    pub fn sample_actions(&mut self, out: &mut [i64]) -> Result<()> {
        if out.len() != self.slots.len() {
            return Err(Error::InvalidArgument(format!(
                "the action buffer must hold one action for each of the {} games",
                self.slots.len()
            )));
        }
        self.run(out, |_, _, slot, row, _| {
            let legal = slot.session.legal_actions();
            row[0] = match legal.len() {
                0 => -1,
                k => legal.nth(slot.sampler.index(k)).map_or(-1, |a| a as i64),
            };
        });
        Ok(())
    }
    /// The seed each game started from.
    pub fn seeds(&self) -> Vec<u64> {
        let n = self.slots.len();
        let seeds = self.slots.iter().enumerate();
        seeds.map(|(i, s)| s.seed(self.seed, n, i)).collect()
    }
    /// Sets the opponents [`Batch::step_seats`] plays natively (without `random_others`):
    /// each game that starts from now on plays one entry of `pool`, drawn from its seed
    /// ([`crate::opponents::pool_entry`]); a game under way keeps its entry, and one without
    /// (every game before the first pool) draws its entry now. `None` removes every game's
    /// opponents at once. The helper threads are sized again for the new opponents (a search
    /// is worth a thread for one game).
    /// A pool that does not fit the game (see [`OpponentPool::check`]) is refused, and
    /// nothing changes.
    pub fn set_opponent_pool(&mut self, pool: Option<OpponentPool>) -> Result<()> {
        if let Some(p) = &pool {
            let s = self.sizes;
            p.check(s.players, s.observation, s.actions)?;
        }
        let n = self.slots.len();
        match &pool {
            None => self.slots.iter_mut().for_each(|s| s.opponents = None),
            Some(p) => {
                for (i, slot) in self.slots.iter_mut().enumerate() {
                    if slot.opponents.is_none() {
                        slot.opponents = Some(p.draw(slot.seed(self.seed, n, i)));
                    }
                }
            }
        }
        let min = pool
            .as_ref()
            .map_or(MIN_GAMES_PER_THREAD, OpponentPool::min_games_per_thread);
        let wanted = shares(self.threads, n, min);
        let have = self.workers.as_ref().map_or(1, Workers::threads);
        if wanted != have {
            self.workers = workers_for(wanted);
        }
        // Games under way may keep opponents of an earlier pool: the buffers only grow.
        let shares = self.workers.as_ref().map_or(1, Workers::threads);
        let mut scratch = self.scratch.first().cloned().unwrap_or_default();
        if let Some(p) = &pool {
            scratch = scratch.at_least(&p.scratch(self.sizes.observation));
        }
        self.scratch = vec![scratch; shares];
        self.pool = pool;
        Ok(())
    }
    /// Game `i` as it stands, with its history and seed.
    pub fn session(&self, i: usize) -> Result<&Session<G>> {
        let slot = self.slots.get(i).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "game index must be from 0 to {}, got {i}",
                self.slots.len().saturating_sub(1)
            ))
        })?;
        Ok(&slot.session)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::duo_regna::DuoRegna;
    use crate::options::Options;
    use crate::policy::{Activation, Layer, PolicyNet};

    /// Output buffers for `n` games of `game`, and the final observations.
    struct Buffers {
        out: BatchBuffers,
        finals: Vec<f32>,
    }

    impl Buffers {
        fn new(batch: &Batch<DuoRegna>) -> Self {
            let (n, s) = (batch.len(), batch.sizes);
            Buffers {
                out: BatchBuffers::new(n, s.observation, s.actions, s.players),
                finals: vec![0.0; n * s.observation],
            }
        }

        fn step_seats(
            &mut self,
            batch: &mut Batch<DuoRegna>,
            seats: &[i64],
            actions: &[i64],
        ) -> Result<()> {
            self.step_others(batch, seats, actions, true)
        }

        fn step_others(
            &mut self,
            batch: &mut Batch<DuoRegna>,
            seats: &[i64],
            actions: &[i64],
            random_others: bool,
        ) -> Result<()> {
            let out = self.out.out();
            batch.step_seats(seats, actions, random_others, out, &mut self.finals)
        }

        /// The first legal action of each game's row.
        fn first_legal(&self, batch: &Batch<DuoRegna>) -> Vec<i64> {
            let width = batch.sizes.actions;
            self.out
                .masks
                .chunks(width)
                .map(|row| row.iter().position(|&m| m).map_or(-1, |a| a as i64))
                .collect()
        }
    }

    fn duo_regna() -> Arc<DuoRegna> {
        Arc::new(DuoRegna::from_options(&Options::new()).expect("default options"))
    }

    /// A network of random weights for Duo Regna (55 floats in, 9 actions out).
    fn random_net(seed: u64) -> Arc<PolicyNet> {
        let mut rng = Rng::new(seed);
        let mut layer = |inputs: usize, outputs: usize| Layer {
            weight: (0..inputs * outputs)
                .map(|_| rng.next_u32() as f32 / u32::MAX as f32 - 0.5)
                .collect(),
            bias: (0..outputs)
                .map(|_| rng.next_u32() as f32 / u32::MAX as f32 - 0.5)
                .collect(),
            inputs,
        };
        let layers = vec![layer(55, 12), layer(12, 9)];
        Arc::new(PolicyNet::new(layers, Activation::Tanh).expect("shapes fit"))
    }

    /// Each game's history, move by move.
    fn histories(batch: &Batch<DuoRegna>) -> Vec<Vec<Action>> {
        (0..batch.len())
            .map(|i| batch.session(i).expect("a game").history().to_vec())
            .collect()
    }

    #[test]
    fn a_policy_opponent_plays_the_networks_choice_from_its_seats_observation() {
        let game = duo_regna();
        let net = random_net(3);
        let seats = [0, 1, 0, 1];
        let mut batch = Batch::new(game.clone(), 4, 11, 1);
        let policy = Opponent::Policy {
            net: net.clone(),
            sample: false,
        };
        let pool = OpponentPool::new(vec![vec![Some(policy)]]).expect("an entry");
        batch.set_opponent_pool(Some(pool)).expect("fits the game");
        let mut buf = Buffers::new(&batch);
        buf.step_others(&mut batch, &seats, &[-1; 4], false)
            .expect("no moves");
        let (mut checked, mut ended) = (0, 0);
        let mut scratch = vec![0.0; net.scratch_len()];
        let mut tensor = vec![0.0; 55];
        for _ in 0..200 {
            assert_eq!(buf.out.players, seats);
            let actions = buf.first_legal(&batch);
            buf.step_others(&mut batch, &seats, &actions, false)
                .expect("legal moves");
            ended += buf.out.terminated.iter().filter(|&&t| t).count();
            for (i, &learner) in seats.iter().enumerate() {
                let session = batch.session(i).expect("a game");
                let mut replay = Session::new(game.clone(), session.seed().expect("seeded"));
                for &a in session.history() {
                    let seat = replay.current_player().expect("not over");
                    if seat != learner as usize {
                        tensor.fill(0.0);
                        game.observation_tensor(replay.state(), seat, &mut tensor);
                        let legal = replay.legal_actions();
                        assert_eq!(net.choose(&tensor, legal, None, &mut scratch), Some(a));
                        checked += 1;
                    }
                    replay.apply(i64::from(a)).expect("legal");
                }
            }
        }
        assert!(ended > 3 && checked > 200, "{ended} games, {checked} moves");
    }

    #[test]
    fn ismcts_and_sampling_opponents_replay_from_the_seed_whatever_the_threads() {
        let game = duo_regna();
        let ismcts = Opponent::Ismcts(crate::search::IsmctsConfig {
            iterations: 30,
            ..Default::default()
        });
        let sampling = Opponent::Policy {
            net: random_net(5),
            sample: true,
        };
        let run = |threads: usize| {
            let mut batch = Batch::new(game.clone(), 6, 2, threads);
            let entries = vec![vec![Some(ismcts.clone())], vec![Some(sampling.clone())]];
            let pool = OpponentPool::new(entries).expect("entries");
            batch.set_opponent_pool(Some(pool)).expect("fits");
            let mut buf = Buffers::new(&batch);
            let seats = [1, 0, 1, 0, 1, 0];
            buf.step_others(&mut batch, &seats, &[-1; 6], false)
                .expect("no moves");
            for _ in 0..25 {
                let actions = buf.first_legal(&batch);
                buf.step_others(&mut batch, &seats, &actions, false)
                    .expect("legal moves");
            }
            (
                batch.workers.as_ref().map_or(1, Workers::threads),
                histories(&batch),
            )
        };
        let (one, a) = run(1);
        let (three, b) = run(3);
        assert_eq!((one, three), (1, 3));
        assert_eq!(a, b);
        assert_eq!(a, run(1).1);
    }

    #[test]
    fn a_seat_without_a_native_opponent_is_left_to_the_caller() {
        let game = duo_regna();
        let mut batch = Batch::new(game, 8, 4, 1);
        let entries = vec![vec![Some(Opponent::Random)], vec![None]];
        let pool = OpponentPool::new(entries).expect("entries");
        batch.set_opponent_pool(Some(pool)).expect("fits");
        let mut buf = Buffers::new(&batch);
        let seats = [0; 8];
        buf.step_others(&mut batch, &seats, &[-1; 8], false)
            .expect("no moves");
        let mut waiting = 0;
        for _ in 0..100 {
            let actions = buf.first_legal(&batch);
            buf.step_others(&mut batch, &seats, &actions, false)
                .expect("legal moves");
            for (i, slot) in batch.slots.iter().enumerate() {
                let native = slot.opponents.as_ref().expect("drawn")[0].is_some();
                let learner_to_move = buf.out.players[i] == 0;
                assert!(native <= learner_to_move || buf.out.players[i] < 0);
                waiting += usize::from(!native && buf.out.players[i] == 1);
            }
        }
        assert!(waiting > 20, "{waiting}");
        let too_many = OpponentPool::new(vec![vec![None, None]]).expect("an entry");
        assert!(batch.set_opponent_pool(Some(too_many)).is_err());
        let small = PolicyNet::new(
            vec![Layer {
                weight: vec![0.0; 3],
                bias: vec![0.0; 3],
                inputs: 1,
            }],
            Activation::Relu,
        )
        .expect("one layer");
        let policy = Opponent::Policy {
            net: Arc::new(small),
            sample: false,
        };
        let foreign = OpponentPool::new(vec![vec![Some(policy)]]).expect("an entry");
        let e = batch.set_opponent_pool(Some(foreign)).expect_err("1 input");
        assert!(e.to_string().contains("55 floats and 9 actions"), "{e}");
    }

    #[test]
    fn random_others_leave_the_learner_to_move_and_report_its_ended_games() {
        let game = Arc::new(DuoRegna::from_options(&Options::new()).expect("default options"));
        let seats = [0, 1, 1];
        let mut batch = Batch::new(game.clone(), 3, 7, 1);
        let mut buf = Buffers::new(&batch);
        buf.step_seats(&mut batch, &seats, &[-1, -1, -1])
            .expect("no moves");
        let mut ended = 0;
        for _ in 0..500 {
            assert_eq!(buf.out.players, seats);
            let width = batch.sizes.actions;
            let actions: Vec<i64> = (0..3)
                .map(|i| {
                    buf.out.masks[i * width..(i + 1) * width]
                        .iter()
                        .position(|&m| m)
                        .expect("a move") as i64
                })
                .collect();
            buf.step_seats(&mut batch, &seats, &actions)
                .expect("legal moves");
            for i in 0..3 {
                let rewards = &buf.out.rewards[2 * i..2 * i + 2];
                let final_obs =
                    &buf.finals[i * batch.sizes.observation..(i + 1) * batch.sizes.observation];
                if buf.out.terminated[i] {
                    ended += 1;
                    assert_eq!(rewards[0], -rewards[1]);
                    assert!(final_obs.iter().any(|&x| x != 0.0));
                } else {
                    assert_eq!(rewards, [0.0, 0.0]);
                    assert!(final_obs.iter().all(|&x| x == 0.0));
                }
            }
        }
        assert!(ended > 3, "only {ended} games ended");
        let histories = |b: &Batch<DuoRegna>| -> Vec<Vec<Action>> {
            (0..3)
                .map(|i| b.session(i).expect("a game").history().to_vec())
                .collect()
        };
        let before = histories(&batch);
        assert!(buf
            .step_seats(&mut batch, &[0, 2, 0], &[-1, -1, -1])
            .is_err());
        assert!(buf.step_seats(&mut batch, &seats, &[-1, 99, -1]).is_err());
        assert_eq!(before, histories(&batch));
    }
}
