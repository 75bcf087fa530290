//! Regalia's engine: five royal card games as plain Rust data and rules.
//!
//! Each game implements [`Game`] once (in [`games`]); [`session`] plays any game with
//! legality checks, history, information states and the JSON save format; [`batch`] steps
//! many sessions together; [`dynamic`] puts games, sessions and batches behind the trait
//! objects [`DynGame`]/[`DynState`]/[`DynBatch`] the Python layer binds; [`registry`] finds games by name; [`playout`] plays many games
//! natively; [`search`] holds ISMCTS; [`solver`] solves games exactly (Duo Regna). All randomness comes from [`rng::Rng`], mirrored exactly by the Python reference.

pub mod actions;
pub mod batch;
pub mod bits;
pub mod cfr;
pub mod chance;
pub mod dynamic;
pub mod error;
#[cfg(feature = "fuzzing")]
pub mod fuzz;
pub mod game;
pub mod games;
pub mod opponents;
pub mod options;
pub mod outcome;
pub mod playout;
pub mod policy;
pub mod recall;
pub mod registry;
pub mod rng;
pub mod search;
pub mod session;
pub mod solver;
pub mod tensor;
pub mod workers;

pub use actions::{Action, ActionSet, MAX_ACTIONS};
pub use batch::{BatchBuffers, BatchOut};
pub use chance::ChanceMode;
pub use dynamic::{DynBatch, DynGame, DynState};
pub use error::{Error, Result};
pub use game::{winner_returns, Game, GameInfo, Seat};
pub use options::{Allowed, GameOptions, OptionSpec, Options};
pub use outcome::Outcome;
pub use playout::PlayoutStats;
pub use registry::{games as all_games, load_state, make};
pub use rng::Rng;
pub use search::{IsmctsConfig, IsmctsResult, Rollout, MAX_THREADS};
