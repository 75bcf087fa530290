//! Regalia's engine: five royal card games as plain Rust data and rules.
//!
//! Each game implements [`Game`] once (in [`games`]); [`session`] turns any game into the
//! dynamic [`DynGame`]/[`DynState`] pair the Python layer binds, with legality checks, history
//! and the JSON save format; [`registry`] finds games by name; [`playout`] plays many games
//! natively; [`search`] holds ISMCTS; [`solver`] solves games exactly (Duo Regna). All randomness comes from [`rng::Rng`], mirrored exactly by the Python reference.

pub mod actions;
pub mod batch;
pub mod bits;
pub mod error;
#[cfg(feature = "fuzzing")]
pub mod fuzz;
pub mod game;
pub mod games;
pub mod options;
pub mod playout;
pub mod recall;
pub mod registry;
pub mod rng;
pub mod search;
pub mod session;
pub mod solver;
pub mod tensor;
pub mod workers;

pub use actions::{Action, ActionSet, MAX_ACTIONS};
pub use batch::{BatchOut, DynBatch};
pub use error::{Error, Result};
pub use game::{winner_returns, Game, GameInfo, Seat};
pub use options::{OptionSpec, Options};
pub use playout::PlayoutStats;
pub use registry::{games as all_games, load_state, make};
pub use rng::Rng;
pub use search::{IsmctsConfig, IsmctsResult, Rollout};
pub use session::{DynGame, DynState};
