//! Search written once over the [`crate::Game`] trait, for every game.

pub mod belief;
pub mod ismcts;
pub mod threads;

pub use belief::{Belief, BeliefModel, ParticleFilter, Worlds, MAX_PARTICLES};
pub use ismcts::{
    ismcts, ismcts_in, ismcts_until, IsmctsConfig, IsmctsResult, Opponents, Rollout, MAX_THREADS,
};
