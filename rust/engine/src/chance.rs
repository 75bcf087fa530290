//! Explicit chance: the option that turns a game's random events into chance nodes
//! (mirrored by `python/regalia/reference/chance.py`).
//!
//! By default (`chance = "seeded"`) a game draws every random event from the state's own
//! generator. With `chance = "explicit"` each random event is a *chance node*: the game
//! stops with [`crate::Game::is_chance_node`] true, [`crate::Game::legal_actions`] listing
//! the possible outcomes and [`crate::Game::chance_outcomes`] their probabilities, and the
//! caller applies the outcome it picks. Chance nodes are small, one card at a time from what
//! is unseen, so that exact methods can walk every deal. The distribution over whole games
//! is the seeded mode's (the tests check it statistically).

use crate::actions::Action;
use serde::{Deserialize, Serialize};

/// Where a game's random events come from (the option `chance`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChanceMode {
    /// From the state's own seeded generator: no chance nodes.
    #[default]
    Seeded,
    /// Each random event is a chance node the caller drives.
    Explicit,
}

/// The values of the option `chance`.
pub const CHANCE_CHOICES: &[&str] = &["seeded", "explicit"];

/// The outcomes of drawing one item from a multiset given as `(outcome, copies)`: each
/// outcome with copies left, with probability `copies / total` (divided once, in `f64`, as
/// the reference divides).
pub fn draw_from_counts(counts: impl IntoIterator<Item = (Action, u32)>) -> Vec<(Action, f64)> {
    let counts: Vec<(Action, u32)> = counts.into_iter().filter(|&(_, n)| n > 0).collect();
    let total: u32 = counts.iter().map(|&(_, n)| n).sum();
    counts
        .into_iter()
        .map(|(a, n)| (a, n as f64 / total as f64))
        .collect()
}
