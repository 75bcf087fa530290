//! The list of games: one line per game, and `make` by name or alias.

use crate::error::{Error, Result};
use crate::game::{Game, GameInfo};
use crate::games::duell_der_drachen::DuellDerDrachen;
use crate::games::duo::Duo;
use crate::games::duo_regna::DuoRegna;
use crate::games::regine::Regine;
use crate::games::regnum::Regnum;
use crate::options::Options;
use crate::session::{DynGame, DynState};
use std::sync::Arc;

type Maker = fn(&Options) -> Result<Arc<dyn DynGame>>;

fn maker<G: Game>(options: &Options) -> Result<Arc<dyn DynGame>> {
    Ok(Arc::new(G::from_options(options)?))
}

/// Every game, in the order `regalia.games()` lists them.
const GAMES: &[(GameInfo, Maker)] = &[
    (DuoRegna::INFO, maker::<DuoRegna>),
    (Duo::INFO, maker::<Duo>),
    (DuellDerDrachen::INFO, maker::<DuellDerDrachen>),
    (Regine::INFO, maker::<Regine>),
    (Regnum::INFO, maker::<Regnum>),
];

/// Every game's description.
pub fn games() -> Vec<GameInfo> {
    GAMES.iter().map(|(info, _)| *info).collect()
}

/// The game called `name` (or one of its aliases), configured by `options`.
pub fn make(name: &str, options: &Options) -> Result<Arc<dyn DynGame>> {
    let key = name.trim().to_lowercase();
    GAMES
        .iter()
        .find(|(info, _)| info.name == key || info.aliases.contains(&key.as_str()))
        .map(|(_, make)| make(options))
        .unwrap_or_else(|| {
            let names: Vec<&str> = GAMES.iter().map(|(i, _)| i.name).collect();
            Err(Error::InvalidOption(format!(
                "unknown game '{name}'; games: {}",
                names.join(", ")
            )))
        })
}

/// Reads any game's saved state: the game and its options come from the text itself.
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
    let game = make(name, options).map_err(|e| bad(e.to_string()))?;
    let state = game.state_from_json(text)?;
    Ok((game, state))
}
