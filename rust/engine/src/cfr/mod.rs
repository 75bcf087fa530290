//! Counterfactual regret minimisation over any game, written once on the [`crate::Game`]
//! trait: compact perfect-recall information-state keys ([`key`]), the regret and
//! average-strategy table keyed by them ([`table`]), Monte Carlo CFR in the games' seeded
//! mode ([`mccfr`]) and the same behind a trait object for the Python layer ([`any`]); for
//! games with explicit chance, the whole tree ([`tree`]), exact best responses and
//! exploitability over it ([`mod@best_response`]) and CFR+ ([`cfr_plus`]).

pub mod any;
pub mod best_response;
pub mod cfr_plus;
#[cfg(test)]
mod exact_tests;
pub mod key;
pub mod mccfr;
pub mod table;
#[cfg(test)]
mod tests;
pub mod tree;

pub use any::{build_tree, new_mccfr, DynMccfr};
pub use best_response::{best_response, exploitability, principal_line, Exploitability};
pub use cfr_plus::CfrPlus;
pub use mccfr::{Counts, Mccfr, Method};
pub use tree::{BuildError, PolicyTable, TooLarge, Tree};
