//! `regalia._core.DuoRegnaSolver`: Duo Regna's solved table (built, read from bytes, queried);
//! `regalia._core.DuoRegnaPlanner`: its best card against a uniformly mixing opponent.

use crate::convert::{options_arg, py_to_json};
use crate::errors::{guard, InvalidArgumentError, InvalidStateError, RegaliaError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use regalia_engine::games::duo_regna::DuoRegna;
use regalia_engine::solver::duo_regna::encoding::public_state_of_view;
use regalia_engine::solver::duo_regna::{Horizon, Solver, UniformPlanner};
use regalia_engine::Error;
use regalia_engine::Game;

/// The equilibrium of Duo Regna for one set of options: a table of state values.
#[pyclass(name = "DuoRegnaSolver", module = "regalia._core", frozen)]
pub struct PySolver {
    inner: Solver,
}

/// Duo Regna with `options` (a dict), checked.
fn game_of(options: &Bound<'_, PyDict>) -> PyResult<DuoRegna> {
    let options = options_arg(Some(options))?;
    guard(|| DuoRegna::from_options(&options))
}

#[pymethods]
impl PySolver {
    /// How the table for these options would look ahead: ``"exact"`` or ``"stationary"``;
    /// ``InvalidOptionError`` if they cannot be solved.
    #[staticmethod]
    fn horizon_for(options: &Bound<'_, PyDict>) -> PyResult<&'static str> {
        let game = game_of(options)?;
        Ok(match guard(|| Solver::horizon(&game))? {
            Horizon::Exact { .. } => "exact",
            Horizon::Stationary => "stationary",
        })
    }
    /// Solves the game (GIL released), calling ``progress(done, total)`` now and then; an
    /// exception raised by ``progress`` (e.g. ``KeyboardInterrupt``) stops the build.
    #[staticmethod]
    #[pyo3(signature = (options, progress=None))]
    fn build(
        py: Python<'_>,
        options: &Bound<'_, PyDict>,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<PySolver> {
        let game = game_of(options)?;
        let mut failure: Option<PyErr> = None;
        let built = py.detach(|| {
            guard(|| {
                Solver::build(&game, &mut |done, total| {
                    Python::attach(|py| {
                        let called = match &progress {
                            Some(f) => f.call1(py, (done, total)).map(|_| ()),
                            None => py.check_signals(),
                        };
                        called.map_err(|e| failure = Some(e)).is_ok()
                    })
                })
            })
        })?;
        match (built, failure) {
            (_, Some(e)) => Err(e),
            (Some(inner), None) => Ok(PySolver { inner }),
            (None, None) => Err(RegaliaError::new_err("the solve was stopped")),
        }
    }
    /// The table read back from ``to_bytes()``; ``InvalidStateError`` if the bytes are
    /// damaged, cut off, or of other options.
    #[staticmethod]
    fn from_bytes(py: Python<'_>, options: &Bound<'_, PyDict>, data: &[u8]) -> PyResult<PySolver> {
        let game = game_of(options)?;
        let inner = py.detach(|| guard(|| Solver::from_bytes(&game, data)))?;
        Ok(PySolver { inner })
    }
    /// The table as bytes, with a checksum.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let bytes = py.detach(|| self.inner.to_bytes());
        PyBytes::new(py, &bytes)
    }
    /// The options solved, as a dict.
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::convert::json_to_py(py, &serde_json::Value::Object(self.inner.game().options()))
    }
    /// ``"exact"`` (every round up to the stalemate guard) or ``"stationary"`` (the guard ignored).
    #[getter]
    fn horizon(&self) -> &'static str {
        match self.inner.table_horizon() {
            Horizon::Exact { .. } => "exact",
            Horizon::Stationary => "stationary",
        }
    }
    /// Expected return of either seat at the start under equilibrium play (zero up to rounding).
    #[getter]
    fn start_value(&self) -> f64 {
        self.inner.start_value()
    }
    /// Number of values in the table.
    fn __len__(&self) -> usize {
        self.inner.len()
    }
    /// The equilibrium strategy of the seat to move in ``state`` (a state of either backend
    /// with these options) as ``{action: probability}`` over its legal actions, and its
    /// expected return; computed from public information only.
    fn policy<'py>(
        &self,
        py: Python<'py>,
        state: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyDict>, f64)> {
        let text: String = state
            .call_method0("to_json")
            .and_then(|t| t.extract())
            .map_err(|_| {
                InvalidArgumentError::new_err("the solver needs a Regalia state (with to_json())")
            })?;
        let p = py.detach(|| guard(|| self.inner.policy_of_saved(&text)))?;
        let probabilities = PyDict::new(py);
        for card in (0..p.probabilities.len()).filter(|c| p.cards & (1 << c) != 0) {
            probabilities.set_item(card, p.probabilities[card])?;
        }
        Ok((probabilities, p.value))
    }
    /// The matrix game of the seat to move, from that seat's ``observation`` (a dict, as
    /// either backend gives it) alone: ``(mine, theirs, payoff, row, col, value)`` where
    /// ``mine`` and ``theirs`` are the kinds of card each seat holds (card ids 0-6; 7 stands
    /// for both 6s), ``payoff[i][j]`` the mover's expected return once her kind ``theirs[j]``
    /// meets its ``mine[i]`` and both play the equilibrium after, ``row`` and ``col`` the
    /// equilibrium strategies over those kinds and ``value`` the game's value.
    /// ``InvalidStateError`` if it is not the observation of a seat to move with these options.
    fn matrix_game(&self, py: Python<'_>, observation: &Bound<'_, PyAny>) -> PyResult<MatrixGame> {
        let obs = py_to_json(observation, 8).map_err(|what| {
            InvalidStateError::new_err(format!("an observation is a plain dict, not {what}"))
        })?;
        py.detach(|| {
            guard(|| {
                let p = public_state_of_view(self.inner.game(), &obs).map_err(|m| {
                    Error::InvalidState(format!("the solver cannot read this observation: {m}"))
                })?;
                let g = self.inner.game_at(&p)?;
                let sol = g.solve();
                let (rows, cols) = (g.rows.1, g.cols.1);
                let payoff = (0..rows).map(|i| g.payoff[i][..cols].to_vec()).collect();
                Ok((
                    g.rows.0[..rows].to_vec(),
                    g.cols.0[..cols].to_vec(),
                    payoff,
                    sol.row[..rows].to_vec(),
                    sol.col[..cols].to_vec(),
                    sol.value,
                ))
            })
        })
    }
}

/// A matrix game as Python gets it: my kinds, theirs, the payoffs, both equilibrium
/// strategies and the value (see `DuoRegnaSolver.matrix_game`).
type MatrixGame = (
    Vec<usize>,
    Vec<usize>,
    Vec<Vec<f64>>,
    Vec<f64>,
    Vec<f64>,
    f64,
);

/// Plans Duo Regna against an opponent who draws her card uniformly from her hand: the rest
/// of the current hand exactly, a race model of the captures beyond it.
#[pyclass(name = "DuoRegnaPlanner", module = "regalia._core", frozen)]
pub struct PyPlanner {
    inner: UniformPlanner,
}

#[pymethods]
impl PyPlanner {
    /// A planner for Duo Regna with ``options`` (a dict), checked.
    #[new]
    fn new(options: &Bound<'_, PyDict>) -> PyResult<PyPlanner> {
        let game = game_of(options)?;
        Ok(PyPlanner {
            inner: UniformPlanner::new(&game),
        })
    }
    /// ``{card: expected return}`` for each card in the hand of the seat to move, from that
    /// seat's ``observation`` (a dict, as either backend gives it) alone; ``InvalidStateError``
    /// if it is not the observation of a seat to move in a game with these options.
    fn card_values<'py>(
        &self,
        py: Python<'py>,
        observation: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let obs = py_to_json(observation, 8).map_err(|what| {
            InvalidStateError::new_err(format!("an observation is a plain dict, not {what}"))
        })?;
        let values = py.detach(|| {
            guard(|| {
                let p = public_state_of_view(self.inner.game(), &obs).map_err(|m| {
                    Error::InvalidState(format!("the planner cannot read this observation: {m}"))
                })?;
                self.inner.card_values(&p)
            })
        })?;
        let out = PyDict::new(py);
        for (card, value) in values.iter().enumerate().filter(|(_, v)| !v.is_nan()) {
            out.set_item(card, value)?;
        }
        Ok(out)
    }
}
