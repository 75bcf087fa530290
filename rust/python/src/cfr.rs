//! `regalia._core.Mccfr`: Monte Carlo CFR over any game (GIL released, Ctrl-C stops it with
//! the table kept); `regalia._core.information_state_key`: a state's compact key.

use crate::convert::seed_arg;
use crate::errors::{guard, InvalidArgumentError};
use crate::game::PyGame;
use crate::interrupt::run_iterations;
use crate::state::PyState;
use numpy::PyArray1;
use pyo3::prelude::*;
use regalia_engine::cfr::{new_mccfr, DynMccfr};

/// ``seat``'s perfect-recall information state in ``state`` (a ``regalia._core.State``) as a
/// 64-bit key: a hash of what the seat saw and did (see ``regalia.cfr``).
#[pyfunction]
pub fn information_state_key(state: &Bound<'_, PyAny>, seat: &Bound<'_, PyAny>) -> PyResult<u64> {
    let state = state.cast::<PyState>().map_err(|_| {
        InvalidArgumentError::new_err("information_state_key needs a regalia._core.State")
    })?;
    state.get().information_state_key(seat)
}

/// A Monte Carlo CFR run over one game; its table grows with every ``run``.
#[pyclass(name = "Mccfr", module = "regalia._core")]
pub struct PyMccfr {
    inner: Box<dyn DynMccfr>,
}

#[pymethods]
impl PyMccfr {
    /// A run of ``method`` (``"external"`` or ``"outcome"``) over ``game`` from ``seed``.
    #[new]
    fn new(game: &Bound<'_, PyGame>, method: &str, seed: &Bound<'_, PyAny>) -> PyResult<Self> {
        let seed = seed_arg(seed)?;
        let game = &game.get().inner;
        let inner = guard(|| new_mccfr(game.info().name, &game.options(), method, seed))?;
        Ok(PyMccfr { inner })
    }
    /// Runs up to ``iterations`` more iterations, for at most ``seconds`` when given, with
    /// the GIL released; returns how many ran. Ctrl-C stops it between iterations (what was
    /// computed is kept) and raises ``KeyboardInterrupt``.
    #[pyo3(signature = (iterations, seconds=None))]
    fn run(
        &mut self,
        py: Python<'_>,
        iterations: &Bound<'_, PyAny>,
        seconds: Option<f64>,
    ) -> PyResult<u64> {
        let inner = &mut self.inner;
        run_iterations(py, iterations, seconds, |n, deadline, stop| {
            inner.run(n, deadline, stop)
        })
    }
    /// Iterations done.
    #[getter]
    fn iterations(&self) -> u64 {
        self.inner.counts().iterations
    }
    /// Information-set updates done (decision nodes visited, each one table update).
    #[getter]
    fn updates(&self) -> u64 {
        self.inner.counts().updates
    }
    /// Bytes held by the table.
    #[getter]
    fn table_bytes(&self) -> usize {
        self.inner.bytes()
    }
    /// Whether the table ran out of room (no more iterations run).
    #[getter]
    fn full(&self) -> bool {
        self.inner.is_full()
    }
    /// Information sets stored.
    fn __len__(&self) -> usize {
        self.inner.len()
    }
    /// The average strategy at ``key`` as ``[(action, probability), ...]``, or None.
    fn average(&self, key: u64) -> Option<Vec<(u16, f32)>> {
        self.inner.average(key)
    }
    /// Every average strategy, keys ascending: ``(keys, counts, actions, probabilities)`` as
    /// uint64, uint16, uint16 and float32 arrays (each key's ``counts`` entries in turn).
    #[allow(clippy::type_complexity)]
    fn averages<'py>(
        &self,
        py: Python<'py>,
    ) -> (
        Bound<'py, PyArray1<u64>>,
        Bound<'py, PyArray1<u16>>,
        Bound<'py, PyArray1<u16>>,
        Bound<'py, PyArray1<f32>>,
    ) {
        let (keys, counts, actions, probs) = py.detach(|| self.inner.averages());
        (
            PyArray1::from_vec(py, keys),
            PyArray1::from_vec(py, counts),
            PyArray1::from_vec(py, actions),
            PyArray1::from_vec(py, probs),
        )
    }
}
