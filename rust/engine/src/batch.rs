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
//! in each game and then, with `random_others`, the other seats' random moves natively until
//! the learner is to move again, so that a one-seat vector env needs one call per step.

use crate::actions::Action;
use crate::error::{Error, Result};
use crate::game::{Game, Seat};
use crate::rng::{derive_seed, Rng};
use crate::session::Session;
use crate::workers::Workers;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Games a thread must have to be worth its share (handing work over costs about a
/// microsecond).
pub const MIN_GAMES_PER_THREAD: usize = 256;

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

/// One slot of a batch: the game being played there (a [`Session`]: state, history, seed),
/// which game of the slot it is, and its sampler.
#[derive(Clone, Debug)]
struct Slot<G: Game> {
    session: Session<G>,
    episode: u64,
    /// The generator of [`Batch::sample_actions`] for this game.
    sampler: Rng,
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
        }
    }

    /// Starts game `episode` of this slot, the `index`th of a batch of `n` seeded by `seed`.
    fn restart(&mut self, seed: u64, n: usize, index: usize, episode: u64) {
        let game_seed = game_seed(seed, n, index, episode);
        self.session.restart(game_seed);
        self.episode = episode;
        self.sampler = sampler(game_seed);
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
        let workers = (threads > 1 && n >= 2 * MIN_GAMES_PER_THREAD)
            .then(|| Workers::new(threads.min(n / MIN_GAMES_PER_THREAD)))
            .flatten();
        let mut batch = Batch {
            game,
            seed,
            threads,
            workers,
            sizes,
            slots: Vec::with_capacity(n),
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

    /// Runs `work` on every slot with its output rows, split over the threads.
    fn run<O: Rows>(&mut self, out: O, work: impl Fn(&G, usize, &mut Slot<G>, O) + Sync) {
        let (game, sizes, work) = (&*self.game, self.sizes, &work);
        let run_chunk = move |first: usize, slots: &mut [Slot<G>], mut out: O| {
            for (k, slot) in slots.iter_mut().enumerate() {
                let (row, rest) = out.split_at(1, sizes);
                work(game, first + k, slot, row);
                out = rest;
            }
        };
        let Some(workers) = self.workers.as_mut() else {
            run_chunk(0, &mut self.slots, out);
            return;
        };
        // One share per thread (the workers were sized for this batch), each taken once.
        let chunk = self.slots.len().div_ceil(workers.threads());
        let mut shares = Vec::with_capacity(workers.threads());
        let (mut slots, mut out, mut first) = (&mut self.slots[..], out, 0);
        while slots.len() > chunk {
            let (mine, rest) = slots.split_at_mut(chunk);
            let (my_out, rest_out) = out.split_at(chunk, sizes);
            shares.push(Mutex::new(Some((first, mine, my_out))));
            (slots, out, first) = (rest, rest_out, first + chunk);
        }
        shares.push(Mutex::new(Some((first, slots, out))));
        workers.run(&|i| {
            let share = shares.get(i).and_then(|s| s.lock().ok()?.take());
            if let Some((first, slots, out)) = share {
                run_chunk(first, slots, out);
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
    /// Plays uniformly random moves (from the slot's sampler) until `seat` is to move or the
    /// game is over.
    fn play_others(&mut self, game: &G, seat: Seat) {
        while let Some(p) = game.current_player(self.session.state()) {
            if p == seat {
                break;
            }
            let legal = self.session.legal_actions();
            match legal.nth(self.sampler.index(legal.len().max(1))) {
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
        self.run(out, |game, i, slot, mut row| {
            slot.restart(seed, n, i, 0);
            row.rewards.fill(0.0);
            row.terminated[0] = false;
            observe(game, slot, &mut row);
        });
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
        self.run(out, |game, i, slot, mut row| {
            slot.session.play(actions[i] as Action);
            let over = slot.session.is_terminal();
            row.rewards.fill(0.0);
            row.terminated[0] = over;
            if over {
                for (r, x) in row.rewards.iter_mut().zip(slot.session.returns()) {
                    *r = x as f32;
                }
                slot.restart(seed, n, i, slot.episode + 1);
            }
            observe(game, slot, &mut row);
        });
        Ok(())
    }
    /// Refuses the first illegal action, naming its game (`-1`, no move, is allowed when
    /// `allow_none`); checked in parallel like the step itself.
    fn check_actions(&mut self, actions: &[i64], allow_none: bool) -> Result<()> {
        let first_illegal = AtomicUsize::new(usize::MAX);
        self.run(actions, |_, i, slot, a| {
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
    /// move), then, with `random_others`, uniformly random moves for the other seats (from
    /// the game's own generator) until the learner is to move or the game is over. A game
    /// that ends writes its returns into `rewards`, the learner's observation of its last
    /// position into its row of `finals`, and restarts (the others then move first where
    /// they lead). Each row shows the learner's observation tensor, the current player's
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
        let rows = SeatRows {
            out,
            finals,
            seats,
            actions,
        };
        self.run(rows, |game, i, slot, mut row| {
            let seat = row.seats[0] as Seat;
            if row.actions[0] >= 0 {
                slot.session.play(row.actions[0] as Action);
            }
            if random_others {
                slot.play_others(game, seat);
            }
            let over = slot.session.is_terminal();
            row.out.rewards.fill(0.0);
            row.out.terminated[0] = over;
            row.finals.fill(0.0);
            if over {
                for (r, x) in row.out.rewards.iter_mut().zip(slot.session.returns()) {
                    *r = x as f32;
                }
                game.observation_tensor(slot.session.state(), seat, row.finals);
                slot.restart(seed, n, i, slot.episode + 1);
                if random_others {
                    slot.play_others(game, seat);
                }
            }
            observe_as(game, slot, Some(seat), &mut row.out);
        });
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
        self.run(out, |_, _, slot, row| {
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
        seeds
            .map(|(i, s)| game_seed(self.seed, n, i, s.episode))
            .collect()
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

    /// Output buffers for `n` games of `game`, and the final observations.
    struct Buffers {
        observations: Vec<f32>,
        masks: Vec<bool>,
        rewards: Vec<f32>,
        terminated: Vec<bool>,
        players: Vec<i64>,
        finals: Vec<f32>,
    }

    impl Buffers {
        fn new(batch: &Batch<DuoRegna>) -> Self {
            let (n, s) = (batch.len(), batch.sizes);
            Buffers {
                observations: vec![0.0; n * s.observation],
                masks: vec![false; n * s.actions],
                rewards: vec![0.0; n * s.players],
                terminated: vec![false; n],
                players: vec![0; n],
                finals: vec![0.0; n * s.observation],
            }
        }

        fn step_seats(
            &mut self,
            batch: &mut Batch<DuoRegna>,
            seats: &[i64],
            actions: &[i64],
        ) -> Result<()> {
            let out = BatchOut {
                observations: &mut self.observations,
                masks: &mut self.masks,
                rewards: &mut self.rewards,
                terminated: &mut self.terminated,
                players: &mut self.players,
            };
            batch.step_seats(seats, actions, true, out, &mut self.finals)
        }
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
            assert_eq!(buf.players, seats);
            let width = batch.sizes.actions;
            let actions: Vec<i64> = (0..3)
                .map(|i| {
                    buf.masks[i * width..(i + 1) * width]
                        .iter()
                        .position(|&m| m)
                        .expect("a move") as i64
                })
                .collect();
            buf.step_seats(&mut batch, &seats, &actions)
                .expect("legal moves");
            for i in 0..3 {
                let rewards = &buf.rewards[2 * i..2 * i + 2];
                let final_obs =
                    &buf.finals[i * batch.sizes.observation..(i + 1) * batch.sizes.observation];
                if buf.terminated[i] {
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
