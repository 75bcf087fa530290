//! Counterfactual regret minimisation over any game, written once on the [`crate::Game`]
//! trait: compact perfect-recall information-state keys ([`key`]), the regret and
//! average-strategy table keyed by them ([`table`]), Monte Carlo CFR in the games' seeded
//! mode ([`mccfr`]) and the same behind a trait object for the Python layer ([`any`]).

pub mod any;
pub mod key;
pub mod mccfr;
pub mod table;
#[cfg(test)]
mod tests;

pub use any::{new_mccfr, DynMccfr};
pub use mccfr::{Counts, Mccfr, Method};
