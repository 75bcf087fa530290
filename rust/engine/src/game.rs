//! The game contract every game implements once; everything else (the dynamic session
//! used by Python, JSON save files, playouts, batches) is written once on top of it.

use crate::actions::{Action, ActionSet};
use crate::error::Result;
pub use crate::options::GameInfo;
use crate::options::{echo, GameOptions, Options};
use crate::outcome::Outcome;
use crate::rng::Rng;
use crate::tensor::TensorOut;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::fmt::{Debug, Display};

/// A seat at the table, `0..num_players`.
pub type Seat = usize;

/// How a game is called: the one part of its listing a game states itself.
#[derive(Clone, Copy, Debug)]
pub struct GameNames {
    /// The id used by `make`, e.g. `"duo-regna"`.
    pub name: &'static str,
    /// The title as printed on the box.
    pub title: &'static str,
    /// Other names `make` accepts.
    pub aliases: &'static [&'static str],
}

impl GameInfo {
    /// The listing of game `G`, read from its [`Game::NAMES`] and its [`Game::Config`].
    pub const fn of<G: Game>() -> GameInfo {
        GameInfo {
            name: G::NAMES.name,
            title: G::NAMES.title,
            aliases: G::NAMES.aliases,
            min_players: G::Config::MIN_PLAYERS,
            max_players: G::Config::MAX_PLAYERS,
            options: G::Config::SPECS,
            defaults: G::Config::defaults,
        }
    }
}

/// The first `players` of a game's per-seat scores, widened: [`Game::scores`] of a game that
/// keeps one score per seat of the table.
pub fn seat_scores<T: Copy + Into<i64>>(scores: &[T], players: usize) -> Vec<i64> {
    scores[..players].iter().map(|&x| x.into()).collect()
}

/// One game's rules. `Self` holds the validated options; states are plain data.
///
/// The engine calls [`Game::apply`] only with an action from [`Game::legal_actions`], and
/// only on states that are either produced by the game or passed [`Game::check_state`].
pub trait Game: Clone + Debug + Send + Sync + 'static {
    /// The full state: small, plain data with its own generator inside.
    type State: Clone + Debug + PartialEq + Send + Sync + Serialize + DeserializeOwned;

    /// How the game is called (the rest of its listing, [`GameInfo::of`], comes from its
    /// options).
    const NAMES: GameNames;

    /// The options a saved state means: its own, with the `saved_default` of every option
    /// it lacks (see [`crate::options::saved`]).
    fn saved_options(saved: &Options) -> Options {
        crate::options::saved(Self::Config::SPECS, saved)
    }

    /// The game's options struct, declared with `declare_options!`.
    type Config: GameOptions;

    /// Validates the user's options (`players` among them).
    fn from_options(options: &Options) -> Result<Self>;
    /// The options in force (those that depend on others filled in).
    fn config(&self) -> &Self::Config;
    /// Every option with its value in force, defaults filled in.
    fn options(&self) -> Options {
        echo(self.config())
    }
    /// Number of seats.
    fn num_players(&self) -> usize {
        self.config().players()
    }
    /// Size of the action space (at most [`crate::MAX_ACTIONS`]).
    fn num_actions(&self) -> usize;
    /// Shape of [`Game::observation_tensor`].
    fn observation_shape(&self) -> Vec<usize>;

    /// A fresh game whose randomness all comes from `rng`.
    fn new_state(&self, rng: Rng) -> Self::State;
    /// The seat to decide, or `None` once the game is over or at a chance node.
    fn current_player(&self, s: &Self::State) -> Option<Seat>;
    /// The legal actions (empty exactly when the game is over).
    fn legal_actions(&self, s: &Self::State) -> ActionSet;
    /// Plays a legal action (at a chance node: a possible outcome).
    fn apply(&self, s: &mut Self::State, action: Action);
    /// A uniformly random legal action, `None` exactly when the game is over: of the `n`
    /// legal actions in ascending order, the `rng.index(n)`-th ([`random_legal_action`], the
    /// native playouts' move). A game may override it to draw the very same action without
    /// building the set.
    #[inline]
    fn random_legal_action(&self, s: &Self::State, rng: &mut Rng) -> Option<Action> {
        random_legal_action(&self.legal_actions(s), rng)
    }

    /// Whether `s` is a chance node (explicit chance, see [`crate::chance`]): then
    /// [`Game::current_player`] is `None`, [`Game::legal_actions`] lists the possible
    /// outcomes and [`Game::apply`] plays the one drawn. Never, by default.
    fn is_chance_node(&self, _s: &Self::State) -> bool {
        false
    }
    /// At a chance node, every possible outcome with its probability, sorted by outcome
    /// (the same outcomes as [`Game::legal_actions`]); empty elsewhere.
    fn chance_outcomes(&self, _s: &Self::State) -> Vec<(Action, f64)> {
        Vec::new()
    }
    /// Whether the game was made with explicit chance (`chance = "explicit"`).
    fn explicit_chance(&self) -> bool {
        false
    }
    /// A bound on the actions (chance outcomes included) of any history from the start, where
    /// the game has a simple, provable one (`None`: none known). It sizes the
    /// information-state tensor that keeps a seat's whole record
    /// ([`crate::recall::whole_record_slots`]).
    fn max_history_len(&self) -> Option<usize> {
        None
    }
    /// A bound on the actions one seat takes in any history, where the game has one (by
    /// default [`Game::max_history_len`], the bound on all of them).
    fn max_seat_actions(&self) -> Option<usize> {
        self.max_history_len()
    }
    /// Per-seat outcome: zero until the end; then +1/-1/0 for two seats, zero-sum for more.
    fn returns(&self, s: &Self::State) -> Vec<f64>;
    /// Per-seat game points as the rulebook counts them.
    fn scores(&self, s: &Self::State) -> Vec<i64>;
    /// How the game ended (why, who won, the final [`Game::scores`], the tie-break that
    /// decided), `None` while it runs. Made only when asked; it reads only what is public
    /// at the end.
    fn outcome(&self, s: &Self::State) -> Option<Outcome>;
    /// What an action id means in this game, decoded once: its display name is its
    /// `Display`, its structured info (`State.action_info` in Python) its `Serialize`, an
    /// object tagged by `"kind"` (`#[serde(tag = "kind", rename_all = "snake_case")]`), so
    /// that the two cannot drift apart.
    type ActionInfo: Serialize + Display;
    /// Decodes `action` in `s`: any id in range (below [`Game::num_actions`], which the
    /// caller has checked), legal now or not. It describes the id, so it reads only what
    /// every seat sees of `s`.
    fn action_info(&self, s: &Self::State, action: Action) -> Self::ActionInfo;
    /// A readable, unique name for `action` (any id in range) in this state: the
    /// `Display` of its [`Game::action_info`].
    fn action_name(&self, s: &Self::State, action: Action) -> String {
        self.action_info(s, action).to_string()
    }
    /// Exactly what `seat` may see, as JSON.
    fn observation(&self, s: &Self::State, seat: Seat) -> Value;
    /// The same as a flat float tensor of [`Game::observation_shape`]; `out` is zeroed first.
    fn observation_tensor(&self, s: &Self::State, seat: Seat, out: &mut [f32]) {
        self.write_observation(s, seat, out);
    }
    /// [`Game::observation_tensor`] written entry by entry into any [`TensorOut`] (each
    /// entry at most once, through a [`crate::tensor::TensorWriter`]): the one place a game
    /// writes its tensor, read densely or, by the information-state keys, as a sum over the
    /// entries written.
    fn write_observation<O: TensorOut + ?Sized>(&self, s: &Self::State, seat: Seat, out: &mut O);
    /// A full state that `seat` cannot tell from `s`: hidden cards resampled from `rng`,
    /// the state's own generator replaced by one drawn from `rng`.
    fn determinize(&self, s: &Self::State, seat: Seat, rng: &mut Rng) -> Self::State;
    /// Checks every invariant of a state read from JSON, so that no later call can fail.
    fn check_state(&self, s: &Self::State) -> std::result::Result<(), String>;

    /// The move a search's rollout plays in `s`, one of `legal` (not empty): search policy,
    /// not rules. The default is uniformly random; a game may override it with a cheap
    /// heuristic that allocates nothing and draws all its randomness from `rng`.
    fn rollout_action(&self, _s: &Self::State, legal: &ActionSet, rng: &mut Rng) -> Action {
        uniform_action(legal, rng)
    }

    /// The probability of each action of `legal` (not empty) under the policy of
    /// [`Game::rollout_action`], in the order of `legal`: the opponent model of a belief
    /// ([`crate::search::belief`]). Uniform by default; a game whose rollout policy is not
    /// uniform says what it is.
    fn policy_probabilities(&self, _s: &Self::State, legal: &ActionSet) -> Vec<(Action, f64)> {
        let p = 1.0 / legal.len().max(1) as f64;
        legal.iter().map(|a| (a, p)).collect()
    }

    /// Where a search's rollout that began in `from` may stop early: in `s` (a running game)
    /// the estimated returns to stop with, e.g. from the points once a round has ended, so
    /// that luck in later rounds does not drown what the searched moves did. The default plays
    /// every rollout to the end (`None`).
    fn rollout_cutoff(&self, _from: &Self::State, _s: &Self::State) -> Option<Vec<f64>> {
        None
    }
}

/// Estimated returns from the points of a running game: each seat's lead over the best
/// other seat, squashed into `-1..1` by `tanh(lead / scale)` (zero-sum for two seats).
pub fn lead_returns(points: &[i64], scale: f64) -> Vec<f64> {
    (0..points.len())
        .map(|i| {
            let best_other = (0..points.len())
                .filter(|&j| j != i)
                .map(|j| points[j])
                .max()
                .unwrap_or(points[i]);
            ((points[i] - best_other) as f64 / scale).tanh()
        })
        .collect()
}

/// A uniformly random action of `legal` (0 if it is empty).
#[inline]
pub fn uniform_action(legal: &ActionSet, rng: &mut Rng) -> Action {
    legal.nth(rng.index(legal.len())).unwrap_or_default()
}

/// Of the legal actions `legal`, the `rng.index(legal.len())`-th in ascending order; `None`
/// (and nothing drawn) when `legal` is empty.
#[inline]
pub fn random_legal_action(legal: &ActionSet, rng: &mut Rng) -> Option<Action> {
    if legal.is_empty() {
        return None;
    }
    legal.nth(rng.index(legal.len()))
}

/// The documented zero-sum returns for any number of seats: with `k` winners among `n`
/// seats, each winner gets `+1/k` and each other seat `-1/(n-k)`; all zero when everybody
/// (or nobody) wins. Two seats: +1/-1, or 0/0 for a draw.
pub fn winner_returns(winners: &[bool]) -> Vec<f64> {
    let n = winners.len();
    let k = winners.iter().filter(|&&w| w).count();
    if k == 0 || k == n {
        return vec![0.0; n];
    }
    winners
        .iter()
        .map(|&w| {
            if w {
                1.0 / k as f64
            } else {
                -1.0 / (n - k) as f64
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{lead_returns, winner_returns};

    #[test]
    fn winner_returns_are_zero_sum() {
        assert_eq!(winner_returns(&[true, false]), vec![1.0, -1.0]);
        assert_eq!(winner_returns(&[false, false]), vec![0.0, 0.0]);
        assert_eq!(winner_returns(&[true, false, false]), vec![1.0, -0.5, -0.5]);
        assert_eq!(
            winner_returns(&[true, true, false, false]),
            vec![0.5, 0.5, -0.5, -0.5]
        );
    }

    #[test]
    fn lead_returns_squash_each_lead_over_the_best_other_seat() {
        let two = lead_returns(&[12, 4], 8.0);
        assert_eq!(two, vec![1.0f64.tanh(), (-1.0f64).tanh()]);
        assert_eq!(lead_returns(&[3, 3], 5.0), vec![0.0, 0.0]);
        let three = lead_returns(&[10, 6, 2], 4.0);
        assert_eq!(
            three,
            vec![1.0f64.tanh(), (-1.0f64).tanh(), (-2.0f64).tanh()]
        );
    }
}
