//! MCCFR behind a trait object and game trees, made from a game's name and options: what the
//! Python layer binds.

use super::mccfr::{Counts, Mccfr, Method};
use super::tree::{BuildError, Tree};
use crate::actions::Action;
use crate::error::{Error, Result};
use crate::game::Game;
use crate::games::duell_der_drachen::DuellDerDrachen;
use crate::games::duo::Duo;
use crate::games::duo_regna::DuoRegna;
use crate::games::regine::Regine;
use crate::games::regnum::Regnum;
use crate::options::Options;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// An MCCFR run over some game.
pub trait DynMccfr: Send + Sync {
    /// Runs up to `iterations` more iterations (see [`Mccfr::run`]); returns how many ran.
    fn run(&mut self, iterations: u64, deadline: Option<Instant>, stop: &AtomicBool) -> u64;
    /// What was done so far.
    fn counts(&self) -> Counts;
    /// Information sets stored.
    fn len(&self) -> usize;
    /// Whether no information set is stored yet.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Bytes held by the table.
    fn bytes(&self) -> usize;
    /// Whether the table ran out of room.
    fn is_full(&self) -> bool;
    /// The average strategy of `key`, `None` for a key never met.
    fn average(&self, key: u64) -> Option<Vec<(Action, f32)>>;
    /// Every average strategy, keys ascending (see [`super::table::Table::averages`]).
    fn averages(&self) -> (Vec<u64>, Vec<u16>, Vec<Action>, Vec<f32>);
}

impl<G: Game> DynMccfr for Mccfr<G> {
    fn run(&mut self, iterations: u64, deadline: Option<Instant>, stop: &AtomicBool) -> u64 {
        Mccfr::run(self, iterations, deadline, stop)
    }
    fn counts(&self) -> Counts {
        Mccfr::counts(self)
    }
    fn len(&self) -> usize {
        self.table().len()
    }
    fn bytes(&self) -> usize {
        self.table().bytes()
    }
    fn is_full(&self) -> bool {
        Mccfr::is_full(self)
    }
    fn average(&self, key: u64) -> Option<Vec<(Action, f32)>> {
        self.table().average(key)
    }
    fn averages(&self) -> (Vec<u64>, Vec<u16>, Vec<Action>, Vec<f32>) {
        self.table().averages()
    }
}

/// Something made from a game's rules, chosen by the game's name at run time.
trait ByGame {
    /// What is made.
    type Out;
    /// Makes it from game `G` with `options`.
    fn make<G: Game>(self, options: &Options) -> Self::Out;
}

/// `v` made from the game `name` (its id, as [`crate::DynGame::info`] gives it).
fn by_game<V: ByGame>(name: &str, options: &Options, v: V) -> Result<V::Out> {
    Ok(match name {
        n if n == DuoRegna::NAMES.name => v.make::<DuoRegna>(options),
        n if n == Duo::NAMES.name => v.make::<Duo>(options),
        n if n == DuellDerDrachen::NAMES.name => v.make::<DuellDerDrachen>(options),
        n if n == Regine::NAMES.name => v.make::<Regine>(options),
        n if n == Regnum::NAMES.name => v.make::<Regnum>(options),
        _ => return Err(Error::InvalidArgument(format!("unknown game '{name}'"))),
    })
}

/// An MCCFR run of one method from one seed.
struct NewMccfr(Method, u64);

impl ByGame for NewMccfr {
    type Out = Result<Box<dyn DynMccfr>>;
    fn make<G: Game>(self, options: &Options) -> Self::Out {
        Ok(Box::new(Mccfr::new(
            G::from_options(options)?,
            self.0,
            self.1,
        )))
    }
}

/// An MCCFR run of `method` (`"external"` or `"outcome"`) over the game `name` (its id, as
/// [`crate::DynGame::info`] gives it) with `options`, from `seed`.
pub fn new_mccfr(
    name: &str,
    options: &Options,
    method: &str,
    seed: u64,
) -> Result<Box<dyn DynMccfr>> {
    let method = Method::from_name(method).ok_or_else(|| {
        Error::InvalidArgument(format!(
            "method must be 'external' or 'outcome', not {method:?}"
        ))
    })?;
    by_game(name, options, NewMccfr(method, seed))?
}

/// The whole tree of a game, refused above a limit on histories, given up once told to stop.
struct BuildTree<'s>(u64, &'s AtomicBool);

impl ByGame for BuildTree<'_> {
    type Out = std::result::Result<Tree, BuildError>;
    fn make<G: Game>(self, options: &Options) -> Self::Out {
        Tree::build_until(&G::from_options(options)?, self.0, self.1)
    }
}

/// The whole tree of the game `name` with `options` (see [`Tree::build_until`]).
pub fn build_tree(
    name: &str,
    options: &Options,
    limit: u64,
    stop: &AtomicBool,
) -> std::result::Result<Tree, BuildError> {
    by_game(name, options, BuildTree(limit, stop))?
}
