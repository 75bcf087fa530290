//! Search written once over the [`crate::Game`] trait, for every game.

pub mod ismcts;

pub use ismcts::{ismcts, ismcts_until, IsmctsConfig, IsmctsResult, Rollout, MAX_THREADS};
