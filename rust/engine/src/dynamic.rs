//! The games behind trait objects, one layer for all five: what the Python layer binds.
//!
//! [`DynGame`] is a configured game of any kind, [`DynState`] a game being played (a
//! [`Session`]), [`DynBatch`] many games stepped together (a [`Batch`]). Each is implemented
//! once, generically, by handing the call to the typed layer below: the session, the batch,
//! the native playouts and the search. Nothing here holds rules or state of its own.

use crate::actions::{Action, ActionSet};
use crate::batch::{Batch, BatchOut};
use crate::error::{Error, Result};
use crate::game::{Game, GameInfo, Seat};
use crate::opponents::OpponentPool;
use crate::options::Options;
use crate::outcome::Outcome;
use crate::playout::{random_playouts, PlayoutStats};
use crate::recall;
use crate::search::{IsmctsConfig, IsmctsResult};
use crate::session::Session;
use serde_json::Value;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A configured game, any of the five.
pub trait DynGame: Send + Sync {
    /// The game's static description.
    fn info(&self) -> GameInfo;
    /// The options in force, defaults filled in.
    fn options(&self) -> Options;
    /// Number of seats.
    fn num_players(&self) -> usize;
    /// Size of the action space.
    fn num_actions(&self) -> usize;
    /// Shape of the observation tensor.
    fn observation_shape(&self) -> Vec<usize>;
    /// A new game from `seed`.
    fn new_state(&self, seed: u64) -> Box<dyn DynState>;
    /// Reads a saved state, checking format, game, options, invariants and (when the
    /// state carries its seed) that replaying its history reproduces it.
    fn state_from_json(&self, text: &str) -> Result<Box<dyn DynState>>;
    /// Plays `games` uniformly random games natively on `threads` threads; `None` if `stop`
    /// was set before the end.
    fn random_playouts(
        &self,
        games: u64,
        seed: u64,
        threads: usize,
        stop: &AtomicBool,
    ) -> Option<PlayoutStats>;
    /// `n` games stepped together on up to `threads` threads (see [`crate::batch`]).
    fn new_batch(&self, n: usize, seed: u64, threads: usize) -> Box<dyn DynBatch>;
    /// Length of the information-state tensor keeping `slots` record entries (see [`recall`]).
    fn information_state_size(&self, slots: usize) -> usize;
    /// Record entries that always hold a seat's whole record, if the game's histories are
    /// bounded (see [`recall::whole_record_slots`]).
    fn whole_record_slots(&self) -> Option<usize>;
    /// The game's bound on the actions of any history, if it has one
    /// ([`Game::max_history_len`]).
    fn max_history_len(&self) -> Option<usize>;
    /// The game's bound on one seat's actions in any history, if it has one
    /// ([`Game::max_seat_actions`]).
    fn max_seat_actions(&self) -> Option<usize>;
    /// Whether the game was made with explicit chance (`chance = "explicit"`).
    fn explicit_chance(&self) -> bool;
    /// Refuses `what` (the native playouts, batch or search, which draw every random event
    /// from a generator) for a game made with explicit chance.
    fn require_seeded(&self, what: &str) -> Result<()> {
        if !self.explicit_chance() {
            return Ok(());
        }
        Err(Error::InvalidArgument(format!(
            "{what} play seeded games: {} was made with chance='explicit' (drive its chance nodes yourself, or make it with chance='seeded')",
            self.info().name
        )))
    }
}

/// A state of some game, with its history.
pub trait DynState: Send + Sync {
    /// A deep copy.
    fn clone_box(&self) -> Box<dyn DynState>;
    /// The game's name.
    fn game_name(&self) -> &'static str;
    /// Number of seats.
    fn num_players(&self) -> usize;
    /// Size of the action space.
    fn num_actions(&self) -> usize;
    /// The seat to decide, `None` once over.
    fn current_player(&self) -> Option<Seat>;
    /// Whether the next step is a chance outcome to apply (explicit chance).
    fn is_chance_node(&self) -> bool;
    /// At a chance node, each possible outcome with its probability; refused elsewhere.
    fn chance_outcomes(&self) -> Result<Vec<(Action, f64)>>;
    /// Whether the game is over.
    fn is_terminal(&self) -> bool;
    /// The legal actions (kept with the state: computed once per change).
    fn legal_actions(&self) -> &ActionSet;
    /// Plays `action`, or refuses it leaving the state unchanged.
    fn apply(&mut self, action: i64) -> Result<()>;
    /// Per-seat returns.
    fn returns(&self) -> Vec<f64>;
    /// Per-seat game points.
    fn scores(&self) -> Vec<i64>;
    /// How the game ended, `None` while it runs (see [`Game::outcome`]).
    fn outcome(&self) -> Option<Outcome>;
    /// Every action played since the start (empty for a determinized state).
    fn history(&self) -> &[Action];
    /// The seed the game started from (`None` for a determinized state).
    fn seed(&self) -> Option<u64>;
    /// The name of an action id.
    fn action_name(&self, action: i64) -> Result<String>;
    /// What an action id means, as a JSON object tagged by `"kind"` (see [`Game::action_info`]).
    fn action_info(&self, action: i64) -> Result<Value>;
    /// The id of a legal action named by `text`: its exact name or a unique prefix of it,
    /// ignoring case and runs of spaces. The exact name of an action that is not legal now
    /// is refused, with the legal actions listed.
    fn parse_action(&self, text: &str) -> Result<Action>;
    /// What `seat` sees, as JSON.
    fn observation(&self, seat: i64) -> Result<Value>;
    /// What `seat` sees, written into `out` (of the observation shape's size).
    fn observation_tensor(&self, seat: i64, out: &mut [f32]) -> Result<()>;
    /// A state consistent with all that `seat` has seen, hidden cards resampled from `seed`.
    fn determinize(&self, seat: i64, seed: u64) -> Result<Box<dyn DynState>>;
    /// ISMCTS for the seat to move, from what that seat knows (`None` once over); it ends
    /// early once `stop` is set.
    fn ismcts(&self, config: &IsmctsConfig, stop: &AtomicBool) -> Result<Option<IsmctsResult>>;
    /// The saved form, generator included.
    fn to_json(&self) -> String;
    /// Equality of the full state (same game, same rules state, same history).
    fn same_as(&self, other: &dyn DynState) -> bool;
    /// Runs the game's [`Game::check_state`] on this state: every reachable state must pass
    /// it (the conformance and fuzz harnesses assert this after every step).
    fn check_state(&self) -> Result<()>;
    /// `seat`'s perfect-recall information state as text (see [`recall`]).
    fn information_state_string(&self, seat: i64) -> Result<String>;
    /// The same as a tensor keeping the newest record entries, written into `out` (of
    /// [`DynGame::information_state_size`] for the number of entries it keeps).
    fn information_state_tensor(&self, seat: i64, out: &mut [f32]) -> Result<()>;
    /// The same as a compact 64-bit key (see [`crate::cfr::key`]).
    fn information_state_key(&self, seat: i64) -> Result<u64>;
}

impl<G: Game> DynGame for G {
    fn info(&self) -> GameInfo {
        GameInfo::of::<G>()
    }
    fn options(&self) -> Options {
        Game::options(self)
    }
    fn num_players(&self) -> usize {
        Game::num_players(self)
    }
    fn num_actions(&self) -> usize {
        Game::num_actions(self)
    }
    fn observation_shape(&self) -> Vec<usize> {
        Game::observation_shape(self)
    }
    fn new_state(&self, seed: u64) -> Box<dyn DynState> {
        Box::new(Session::new(Arc::new(self.clone()), seed))
    }
    fn state_from_json(&self, text: &str) -> Result<Box<dyn DynState>> {
        Ok(Box::new(Session::from_json(Arc::new(self.clone()), text)?))
    }
    fn random_playouts(
        &self,
        games: u64,
        seed: u64,
        threads: usize,
        stop: &AtomicBool,
    ) -> Option<PlayoutStats> {
        random_playouts(self, games, seed, threads, stop)
    }
    fn new_batch(&self, n: usize, seed: u64, threads: usize) -> Box<dyn DynBatch> {
        Box::new(Batch::new(Arc::new(self.clone()), n, seed, threads))
    }
    fn explicit_chance(&self) -> bool {
        Game::explicit_chance(self)
    }
    fn information_state_size(&self, slots: usize) -> usize {
        recall::tensor_size(self, slots)
    }
    fn whole_record_slots(&self) -> Option<usize> {
        recall::whole_record_slots(self)
    }
    fn max_history_len(&self) -> Option<usize> {
        Game::max_history_len(self)
    }
    fn max_seat_actions(&self) -> Option<usize> {
        Game::max_seat_actions(self)
    }
}

/// Many games of one kind behind a trait object: what `regalia.VectorEnv` binds.
pub trait DynBatch: Send + Sync {
    /// Number of games.
    fn len(&self) -> usize;
    /// Whether the batch holds no game.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Threads used for a large batch (at least one).
    fn threads(&self) -> usize;
    /// Floats in one observation tensor.
    fn observation_size(&self) -> usize;
    /// Restarts every game: from `seed` when given, else from the batch's seed.
    fn reset(&mut self, seed: Option<u64>, out: BatchOut<'_>) -> Result<()>;
    /// Plays `actions[i]` in game `i`, restarts the games that ended and writes the outputs.
    /// Any bad action is refused before anything changes, naming the game.
    fn step(&mut self, actions: &[i64], out: BatchOut<'_>) -> Result<()>;
    /// One step of a learner at seat `seats[i]` of game `i`, the others played natively:
    /// at random with `random_others`, else by the pool's opponents (see [`Batch::step_seats`]).
    fn step_seats(
        &mut self,
        seats: &[i64],
        actions: &[i64],
        random_others: bool,
        out: BatchOut<'_>,
        finals: &mut [f32],
    ) -> Result<()>;
    /// Sets the opponents `step_seats` plays natively (see [`Batch::set_opponent_pool`]).
    fn set_opponent_pool(&mut self, pool: Option<OpponentPool>) -> Result<()>;
    /// Writes a uniformly random legal action of each game into `out` (`-1` for a game that
    /// is over), drawn from each game's own generator: random play without a Python loop.
    fn sample_actions(&mut self, out: &mut [i64]) -> Result<()>;
    /// The seed each game started from.
    fn seeds(&self) -> Vec<u64>;
    /// A copy of game `i` as a state with its history and seed.
    fn state(&self, i: usize) -> Result<Box<dyn DynState>>;
}

impl<G: Game> DynState for Session<G> {
    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(self.clone())
    }
    fn game_name(&self) -> &'static str {
        G::NAMES.name
    }
    fn num_players(&self) -> usize {
        self.rules().num_players()
    }
    fn num_actions(&self) -> usize {
        self.rules().num_actions()
    }
    fn current_player(&self) -> Option<Seat> {
        Session::current_player(self)
    }
    fn is_chance_node(&self) -> bool {
        Session::is_chance_node(self)
    }
    fn chance_outcomes(&self) -> Result<Vec<(Action, f64)>> {
        Session::chance_outcomes(self)
    }
    fn is_terminal(&self) -> bool {
        Session::is_terminal(self)
    }
    fn legal_actions(&self) -> &ActionSet {
        Session::legal_actions(self)
    }
    fn apply(&mut self, action: i64) -> Result<()> {
        Session::apply(self, action)
    }
    fn returns(&self) -> Vec<f64> {
        Session::returns(self)
    }
    fn scores(&self) -> Vec<i64> {
        Session::scores(self)
    }
    fn outcome(&self) -> Option<Outcome> {
        Session::outcome(self)
    }
    fn history(&self) -> &[Action] {
        Session::history(self)
    }
    fn seed(&self) -> Option<u64> {
        Session::seed(self)
    }
    fn action_name(&self, action: i64) -> Result<String> {
        Session::action_name(self, action)
    }
    fn action_info(&self, action: i64) -> Result<Value> {
        Session::action_info(self, action)
    }
    fn parse_action(&self, text: &str) -> Result<Action> {
        Session::parse_action(self, text)
    }
    fn observation(&self, seat: i64) -> Result<Value> {
        Session::observation(self, seat)
    }
    fn observation_tensor(&self, seat: i64, out: &mut [f32]) -> Result<()> {
        Session::observation_tensor(self, seat, out)
    }
    fn determinize(&self, seat: i64, seed: u64) -> Result<Box<dyn DynState>> {
        Ok(Box::new(Session::determinize(self, seat, seed)?))
    }
    fn ismcts(&self, config: &IsmctsConfig, stop: &AtomicBool) -> Result<Option<IsmctsResult>> {
        Session::ismcts(self, config, stop)
    }
    fn to_json(&self) -> String {
        Session::to_json(self)
    }
    fn same_as(&self, other: &dyn DynState) -> bool {
        other.game_name() == G::NAMES.name && other.to_json() == self.to_json()
    }
    fn check_state(&self) -> Result<()> {
        Session::check_state(self)
    }
    fn information_state_string(&self, seat: i64) -> Result<String> {
        Session::information_state_string(self, seat)
    }
    fn information_state_tensor(&self, seat: i64, out: &mut [f32]) -> Result<()> {
        Session::information_state_tensor(self, seat, out)
    }
    fn information_state_key(&self, seat: i64) -> Result<u64> {
        Session::information_state_key(self, seat)
    }
}

impl<G: Game> DynBatch for Batch<G> {
    fn len(&self) -> usize {
        Batch::len(self)
    }
    fn threads(&self) -> usize {
        Batch::threads(self)
    }
    fn observation_size(&self) -> usize {
        Batch::observation_size(self)
    }
    fn reset(&mut self, seed: Option<u64>, out: BatchOut<'_>) -> Result<()> {
        Batch::reset(self, seed, out)
    }
    fn step(&mut self, actions: &[i64], out: BatchOut<'_>) -> Result<()> {
        Batch::step(self, actions, out)
    }
    fn step_seats(
        &mut self,
        seats: &[i64],
        actions: &[i64],
        random_others: bool,
        out: BatchOut<'_>,
        finals: &mut [f32],
    ) -> Result<()> {
        Batch::step_seats(self, seats, actions, random_others, out, finals)
    }
    fn set_opponent_pool(&mut self, pool: Option<OpponentPool>) -> Result<()> {
        Batch::set_opponent_pool(self, pool)
    }
    fn sample_actions(&mut self, out: &mut [i64]) -> Result<()> {
        Batch::sample_actions(self, out)
    }
    fn seeds(&self) -> Vec<u64> {
        Batch::seeds(self)
    }
    fn state(&self, i: usize) -> Result<Box<dyn DynState>> {
        Ok(Box::new(self.session(i)?.clone()))
    }
}
