//! Search written once over the [`crate::Game`] trait, for every game.

pub mod ismcts;

pub use ismcts::{ismcts, IsmctsConfig, IsmctsResult, Rollout};
