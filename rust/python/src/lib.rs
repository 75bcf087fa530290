//! `regalia._core`: the PyO3 binding of `regalia-engine`. Conversion, errors and the GIL only;
//! every rule lives in the engine.

mod convert;
mod errors;
mod game;
mod interrupt;
mod solver;
mod state;
mod vector;

use errors::{guard, InvalidStateError};
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
    m.add_class::<vector::PyVectorEnv>()?;
    m.add_class::<solver::PySolver>()?;
    m.add_class::<solver::PyPlanner>()?;
    m.add_function(wrap_pyfunction!(make, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(load_state, m)?)?;
    m.add_function(wrap_pyfunction!(rules_page, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    let rollouts = regalia_engine::Rollout::ALL.map(regalia_engine::Rollout::name);
    m.add("ROLLOUTS", pyo3::types::PyTuple::new(m.py(), rollouts)?)?;
    Ok(())
}
