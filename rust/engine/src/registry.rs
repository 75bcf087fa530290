//! The list of games: one line per game, and `make` by name or alias.

use crate::dynamic::{DynGame, DynState};
use crate::error::{Error, Result};
use crate::game::{Game, GameInfo};
use crate::games::duell_der_drachen::DuellDerDrachen;
use crate::games::duo::Duo;
use crate::games::duo_regna::DuoRegna;
use crate::games::regine::Regine;
use crate::games::regnum::Regnum;
use crate::options::Options;
use std::sync::Arc;

type Maker = fn(&Options) -> Result<Arc<dyn DynGame>>;

fn maker<G: Game>(options: &Options) -> Result<Arc<dyn DynGame>> {
    Ok(Arc::new(G::from_options(options)?))
}

/// The game a saved state was played with: its options, older saves' missing ones filled in.
fn saved_maker<G: Game>(options: &Options) -> Result<Arc<dyn DynGame>> {
    maker::<G>(&G::saved_options(options))
}

/// Every game, in the order `regalia.games()` lists them: how to make it from options, and
/// from a saved state's options.
const GAMES: &[(GameInfo, Maker, Maker)] = &[
    entry::<DuoRegna>(),
    entry::<Duo>(),
    entry::<DuellDerDrachen>(),
    entry::<Regine>(),
    entry::<Regnum>(),
];

/// Game `G`'s line in [`GAMES`].
const fn entry<G: Game>() -> (GameInfo, Maker, Maker) {
    (GameInfo::of::<G>(), maker::<G>, saved_maker::<G>)
}

/// Every game's description.
pub fn games() -> Vec<GameInfo> {
    GAMES.iter().map(|(info, _, _)| *info).collect()
}

/// The entry of the game called `name` (or one of its aliases).
fn find(name: &str) -> Result<&'static (GameInfo, Maker, Maker)> {
    let key = name.trim().to_lowercase();
    GAMES
        .iter()
        .find(|(info, _, _)| info.name == key || info.aliases.contains(&key.as_str()))
        .ok_or_else(|| {
            let names: Vec<&str> = GAMES.iter().map(|(i, _, _)| i.name).collect();
            Error::InvalidOption(format!(
                "unknown game '{name}'; games: {}",
                names.join(", ")
            ))
        })
}

/// The game called `name` (or one of its aliases), configured by `options`.
pub fn make(name: &str, options: &Options) -> Result<Arc<dyn DynGame>> {
    let (_, make, _) = find(name)?;
    make(options)
}

/// Reads any game's saved state: the game and its options come from the text itself (an
/// older save's missing options mean what that save was played with).
pub fn load_state(text: &str) -> Result<(Arc<dyn DynGame>, Box<dyn DynState>)> {
    let bad = |m: String| Error::InvalidState(m);
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| bad(format!("not valid JSON: {e}")))?;
    let name = v
        .get("game")
        .and_then(|g| g.as_str())
        .ok_or_else(|| bad("saved state has no 'game'".into()))?;
    let options = v
        .get("options")
        .and_then(|o| o.as_object())
        .ok_or_else(|| bad("saved state has no 'options'".into()))?;
    let game = find(name)
        .and_then(|(_, _, make)| make(options))
        .map_err(|e| bad(e.to_string()))?;
    let state = game.state_from_json(text)?;
    Ok((game, state))
}
