//! `regalia._core`: the PyO3 binding of `regalia-engine`. Conversion, errors and the GIL only;
//! every rule lives in the engine.

mod cfr;
mod convert;
mod direct;
mod errors;
mod exact;
mod game;
mod gil_cell;
mod interrupt;
mod opponents;
mod solver;
mod state;
mod vector;

use errors::{guard, InvalidArgumentError, InvalidStateError};
use game::PyGame;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use state::PyState;

include!(concat!(env!("OUT_DIR"), "/rules_pages.rs"));

/// The game called ``name`` with ``options`` (a dict of plain values).
#[pyfunction]
#[pyo3(signature = (name, options=None))]
fn make(name: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<PyGame> {
    let options = convert::options_arg(options)?;
    let inner = guard(|| regalia_engine::make(name, &options))?;
    Ok(PyGame { inner })
}

/// Every game's description (name, title, aliases, players, options) as plain Python data.
#[pyfunction]
fn games(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    let list: Vec<serde_json::Value> = regalia_engine::all_games()
        .iter()
        .map(|g| {
            serde_json::json!({
                "name": g.name,
                "title": g.title,
                "aliases": g.aliases,
                "min_players": g.min_players,
                "max_players": g.max_players,
                "options": regalia_engine::options::listing(g),
            })
        })
        .collect();
    convert::json_to_py(py, &serde_json::Value::Array(list))
}

/// The rules page of ``name`` (Markdown, from ``docs/rules/``), or None if it has none.
#[pyfunction]
fn rules_page(name: &str) -> Option<&'static str> {
    RULES_PAGES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

/// How strong four Regine cards (names) are for betting on Suit ``suit`` (0 Queens,
/// 1 Jesters, 2 Pairs, 3 Game): 2 strong enough to double down, 1 to stay after a Double
/// Down, else 0; the rule the search's rollouts bet by, shared with the rule-based player.
#[pyfunction]
fn regine_bet_strength(suit: i64, cards: Vec<String>) -> PyResult<u8> {
    use regalia_engine::games::regine::{bet_strength, CARD_NAMES, COMBO, SUITS};
    let suit = usize::try_from(suit)
        .ok()
        .filter(|&s| s < SUITS)
        .ok_or_else(|| {
            let msg = format!("suit must be from 0 to {}, not {suit}", SUITS - 1);
            InvalidArgumentError::new_err(msg)
        })?;
    let kinds: Vec<u8> = cards
        .iter()
        .map(|name| {
            let kind = CARD_NAMES.iter().position(|n| n == name).ok_or_else(|| {
                InvalidArgumentError::new_err(format!("no Regine card is called {name:?}"))
            })?;
            Ok(kind as u8)
        })
        .collect::<PyResult<_>>()?;
    let combo: [u8; COMBO] = kinds.try_into().map_err(|k: Vec<u8>| {
        let msg = format!("a combination is {COMBO} cards, not {}", k.len());
        InvalidArgumentError::new_err(msg)
    })?;
    Ok(bet_strength(suit, &combo))
}

/// Reads any game's saved state; the game and options come from the file.
#[pyfunction]
fn load_state(text: &Bound<'_, PyAny>) -> PyResult<PyState> {
    let text = convert::text_arg(text, "a saved state", InvalidStateError::new_err)?;
    state::load_any(&text)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGame>()?;
    m.add_class::<PyState>()?;
    PyState::add_direct(m.py())?;
    m.add_class::<vector::PyVectorEnv>()?;
    m.add_class::<opponents::PyPolicy>()?;
    m.add_class::<opponents::PyOpponent>()?;
    m.add_class::<solver::PySolver>()?;
    m.add_class::<cfr::PyMccfr>()?;
    m.add_class::<exact::PyGameTree>()?;
    m.add_class::<exact::PyCfrPlus>()?;
    m.add_function(wrap_pyfunction!(cfr::information_state_key, m)?)?;
    m.add_function(wrap_pyfunction!(exact::tree_best_response, m)?)?;
    m.add_function(wrap_pyfunction!(exact::tree_principal_line, m)?)?;
    m.add_function(wrap_pyfunction!(exact::tree_seeded_keys, m)?)?;
    m.add_function(wrap_pyfunction!(exact::tree_seeded_table_policy, m)?)?;
    m.add_class::<solver::PyPlanner>()?;
    m.add_function(wrap_pyfunction!(make, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(load_state, m)?)?;
    m.add_function(wrap_pyfunction!(rules_page, m)?)?;
    m.add_function(wrap_pyfunction!(regine_bet_strength, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("CHANCE_PLAYER", state::CHANCE_PLAYER)?;
    let rollouts = regalia_engine::Rollout::ALL.map(regalia_engine::Rollout::name);
    m.add("ROLLOUTS", pyo3::types::PyTuple::new(m.py(), rollouts)?)?;
    let beliefs =
        regalia_engine::search::BeliefModel::ALL.map(regalia_engine::search::BeliefModel::name);
    m.add("BELIEFS", pyo3::types::PyTuple::new(m.py(), beliefs)?)?;
    let opponents =
        regalia_engine::search::Opponents::ALL.map(regalia_engine::search::Opponents::name);
    m.add("OPPONENTS", pyo3::types::PyTuple::new(m.py(), opponents)?)?;
    Ok(())
}
