//! `regalia._core.Game`: a configured game.

use crate::convert::{count_arg, json_to_py, seed_arg, text_arg};
use crate::errors::{guard, InvalidStateError};
use crate::interrupt::interruptible;
use crate::state::{slots_arg, PyState};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use regalia_engine::DynGame;
use serde_json::Value;
use std::sync::Arc;

/// A game with its options fixed; makes states.
#[pyclass(name = "Game", module = "regalia._core", frozen)]
pub struct PyGame {
    pub(crate) inner: Arc<dyn DynGame>,
}

/// A fresh seed from the OS's hash randomness, for `new_state()` without a seed.
fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(0x5EED);
    h.finish()
}

#[pymethods]
impl PyGame {
    /// The game's id, e.g. ``"duo-regna"``.
    #[getter]
    fn name(&self) -> &'static str {
        self.inner.info().name
    }
    /// The printed title.
    #[getter]
    fn title(&self) -> &'static str {
        self.inner.info().title
    }
    /// Always ``"rust"`` for this class.
    #[getter]
    fn backend(&self) -> &'static str {
        "rust"
    }
    /// Number of seats.
    #[getter]
    fn num_players(&self) -> usize {
        self.inner.num_players()
    }
    /// Size of the action space.
    #[getter]
    fn num_actions(&self) -> usize {
        self.inner.num_actions()
    }
    /// Every option in force, defaults filled in.
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &Value::Object(self.inner.options()))
    }
    /// Shape of ``State.observation_tensor``.
    #[getter]
    fn observation_shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.inner.observation_shape())
    }
    /// Shape of ``State.information_state_tensor(seat, slots)`` (``slots`` record entries;
    /// ``"all"``: the game's longest record, where its histories are bounded).
    #[pyo3(signature = (slots=None))]
    fn information_state_shape<'py>(
        &self,
        py: Python<'py>,
        slots: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let slots = slots_arg(slots, &*self.inner)?;
        PyTuple::new(py, [self.inner.information_state_size(slots)])
    }
    /// A new game; all its randomness comes from ``seed`` (random when omitted).
    #[pyo3(signature = (seed=None))]
    fn new_state(&self, seed: Option<&Bound<'_, PyAny>>) -> PyResult<PyState> {
        let seed = match seed {
            Some(s) if !s.is_none() => seed_arg(s)?,
            _ => random_seed(),
        };
        guard(|| Ok(PyState::new(self.inner.clone(), self.inner.new_state(seed))))
    }
    /// Reads a state saved by ``State.to_json``; raises ``InvalidStateError`` if it is bad.
    fn state_from_json(&self, text: &Bound<'_, PyAny>) -> PyResult<PyState> {
        let text = text_arg(text, "a saved state", InvalidStateError::new_err)?;
        guard(|| {
            Ok(PyState::new(
                self.inner.clone(),
                self.inner.state_from_json(&text)?,
            ))
        })
    }
    /// Plays ``games`` uniformly random games natively (GIL released) and returns totals;
    /// Ctrl-C stops them.
    #[pyo3(signature = (games, seed=None, threads=None))]
    fn random_playouts<'py>(
        &self,
        py: Python<'py>,
        games: &Bound<'py, PyAny>,
        seed: Option<&Bound<'py, PyAny>>,
        threads: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let games = count_arg(games, "games", 0)?;
        guard(|| self.inner.require_seeded("native random playouts"))?;
        let threads = match threads {
            Some(t) => count_arg(t, "threads", 1)? as usize,
            None => 1,
        };
        let seed = match seed {
            Some(s) if !s.is_none() => seed_arg(s)?,
            _ => 0,
        };
        let game = self.inner.clone();
        let stats = interruptible(py, |stop| {
            game.random_playouts(games, seed, threads, stop)
                .ok_or_else(|| regalia_engine::Error::InvalidArgument("interrupted".into()))
        })?;
        let d = PyDict::new(py);
        d.set_item("games", stats.games)?;
        d.set_item("steps", stats.steps)?;
        d.set_item("wins", stats.wins)?;
        d.set_item("draws", stats.draws)?;
        d.set_item("returns_sum", stats.returns_sum)?;
        Ok(d)
    }
    fn __repr__(&self) -> String {
        format!(
            "<Game {} {}>",
            self.inner.info().name,
            Value::Object(self.inner.options())
        )
    }
    /// Pickles as ``make(name, options)``.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let make = py.import("regalia._core")?.getattr("make")?;
        let options = json_to_py(py, &Value::Object(self.inner.options()))?;
        Ok((make, (self.inner.info().name.to_string(), options)))
    }
}

/// What `__reduce__` gives pickle: `make` and its arguments (name, options).
type Reduced<'py> = (Bound<'py, PyAny>, (String, Bound<'py, PyAny>));
