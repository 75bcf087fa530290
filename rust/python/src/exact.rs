//! `regalia._core.GameTree` and `regalia._core.CfrPlus`: the whole tree of a game with
//! explicit chance, exact exploitability over it, and CFR+ (GIL released, Ctrl-C stops a run
//! with what was computed kept).

use crate::convert::count_arg;
use crate::errors::InvalidArgumentError;
use crate::game::PyGame;
use crate::interrupt::{interruptible, run_iterations};
use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use regalia_engine::cfr::{
    build_tree, exploitability, BuildError, CfrPlus, Exploitability, PolicyTable, Tree,
};
use std::sync::Arc;

pyo3::import_exception!(regalia.core.errors, GameTooLargeError);

/// The whole game tree of one game with explicit chance: every history, chance nodes with
/// their probabilities, decision nodes grouped into information sets by their compact key.
#[pyclass(name = "GameTree", module = "regalia._core", frozen)]
pub struct PyGameTree {
    inner: Arc<Tree>,
}

/// `values` as a Python dict of what a policy is worth.
fn worth<'py>(py: Python<'py>, e: &Exploitability) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("exploitability", e.exploitability)?;
    d.set_item("nash_conv", e.nash_conv)?;
    d.set_item("best_response_values", e.best_response_values.clone())?;
    d.set_item("policy_values", e.policy_values.clone())?;
    Ok(d)
}

/// A policy aligned with `tree`'s actions, checked.
fn aligned(tree: &Tree, policy: &PyReadonlyArray1<'_, f64>) -> PyResult<Vec<f64>> {
    let p = policy
        .as_slice()
        .map_err(|_| InvalidArgumentError::new_err("the policy must be a contiguous array"))?;
    if p.len() != tree.actions.len() {
        return Err(InvalidArgumentError::new_err(format!(
            "the policy has {} probabilities; the tree's information sets have {} actions in all",
            p.len(),
            tree.actions.len()
        )));
    }
    if p.iter().any(|x| !x.is_finite() || *x < 0.0) {
        return Err(InvalidArgumentError::new_err(
            "the policy's probabilities must be finite and >= 0",
        ));
    }
    Ok(p.to_vec())
}

#[pymethods]
impl PyGameTree {
    /// Enumerates the whole tree of ``game`` (made with ``chance="explicit"``) with the GIL
    /// released (Ctrl-C gives it up); ``GameTooLargeError`` naming its estimated size when it
    /// has more than ``max_histories`` histories, before it is built.
    #[new]
    fn new(
        py: Python<'_>,
        game: &Bound<'_, PyGame>,
        max_histories: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let limit = count_arg(max_histories, "max_histories", 1)?;
        let game = &game.get().inner;
        let (name, options) = (game.info().name, game.options());
        let built = interruptible(py, |stop| Ok(build_tree(name, &options, limit, stop)))?;
        match built {
            Ok(tree) => Ok(PyGameTree {
                inner: Arc::new(tree),
            }),
            Err(BuildError::TooLarge(t)) => Err(GameTooLargeError::new_err((
                t.to_string(),
                t.estimate,
                t.limit,
            ))),
            Err(BuildError::Game(e)) => Err(crate::errors::to_py(e)),
        }
    }
    /// Number of seats.
    #[getter]
    fn num_players(&self) -> usize {
        self.inner.num_players
    }
    /// Every history (decision nodes, chance nodes and ends of the game).
    #[getter]
    fn histories(&self) -> u64 {
        self.inner.counts().histories
    }
    /// Decision nodes.
    #[getter]
    fn decision_nodes(&self) -> u64 {
        self.inner.counts().decisions
    }
    /// Chance nodes.
    #[getter]
    fn chance_nodes(&self) -> u64 {
        self.inner.counts().chance
    }
    /// Ends of the game.
    #[getter]
    fn terminals(&self) -> u64 {
        self.inner.counts().terminals
    }
    /// Information sets.
    fn __len__(&self) -> usize {
        self.inner.sets.len()
    }
    /// The information sets in tree order: ``(keys, seats, counts, actions)`` as uint64,
    /// uint16, uint16 and uint16 arrays (each set's ``counts`` legal actions in turn).
    #[allow(clippy::type_complexity)]
    fn information_sets<'py>(
        &self,
        py: Python<'py>,
    ) -> (
        Bound<'py, PyArray1<u64>>,
        Bound<'py, PyArray1<u16>>,
        Bound<'py, PyArray1<u16>>,
        Bound<'py, PyArray1<u16>>,
    ) {
        let sets = &self.inner.sets;
        (
            PyArray1::from_iter(py, sets.iter().map(|s| s.key)),
            PyArray1::from_iter(py, sets.iter().map(|s| s.seat as u16)),
            PyArray1::from_iter(py, sets.iter().map(|s| s.len)),
            PyArray1::from_slice(py, &self.inner.actions),
        )
    }
    /// The actions and chance outcomes from the root to the first history of information set
    /// ``index``.
    fn history(&self, index: i64) -> PyResult<Vec<u16>> {
        let Some(index) = usize::try_from(index)
            .ok()
            .filter(|&i| i < self.inner.sets.len())
        else {
            return Err(InvalidArgumentError::new_err(format!(
                "information set {index} out of range (the tree has {})",
                self.inner.sets.len()
            )));
        };
        Ok(self.inner.history(self.inner.set_members(index as u32)[0]))
    }
    /// The uniform policy, aligned with ``information_sets()``'s actions.
    fn uniform_policy<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        PyArray1::from_vec(py, self.inner.uniform())
    }
    /// The policy of a table (keys ascending, as ``Mccfr.averages()`` gives it) aligned with
    /// the tree: uniform at an information set the table lacks or where it gives no legal
    /// action weight.
    fn table_policy<'py>(
        &self,
        py: Python<'py>,
        keys: PyReadonlyArray1<'py, u64>,
        counts: PyReadonlyArray1<'py, u16>,
        actions: PyReadonlyArray1<'py, u16>,
        probabilities: PyReadonlyArray1<'py, f32>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let table = checked_table(&keys, &counts, &actions, &probabilities)?;
        Ok(PyArray1::from_vec(py, self.inner.policy_from_table(table)))
    }
    /// The exact exploitability of ``policy`` (float64, aligned with the tree's actions):
    /// ``{"exploitability", "nash_conv", "best_response_values", "policy_values"}``,
    /// computed with the GIL released.
    fn exploitability<'py>(
        &self,
        py: Python<'py>,
        policy: PyReadonlyArray1<'py, f64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let p = aligned(&self.inner, &policy)?;
        let tree = &self.inner;
        let e = py.detach(|| exploitability(tree, &p));
        worth(py, &e)
    }
}

/// A CFR+ run over a ``GameTree``.
#[pyclass(name = "CfrPlus", module = "regalia._core")]
pub struct PyCfrPlus {
    inner: CfrPlus,
}

#[pymethods]
impl PyCfrPlus {
    /// A run over ``tree``, nothing computed yet.
    #[new]
    fn new(tree: &Bound<'_, PyGameTree>) -> Self {
        PyCfrPlus {
            inner: CfrPlus::new(Arc::clone(&tree.get().inner)),
        }
    }
    /// Runs up to ``iterations`` more iterations, for at most ``seconds`` when given (looked at
    /// between iterations), with the GIL released; returns how many ran. Ctrl-C stops it
    /// between iterations (what was computed is kept) and raises ``KeyboardInterrupt``.
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
        self.inner.iterations()
    }
    /// Decision nodes visited (each one information-set update or read).
    #[getter]
    fn updates(&self) -> u64 {
        self.inner.visits()
    }
    /// The tree solved.
    #[getter]
    fn tree(&self) -> PyGameTree {
        PyGameTree {
            inner: Arc::clone(self.inner.tree()),
        }
    }
    /// The average policy (float64, aligned with the tree's actions).
    fn average<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        PyArray1::from_vec(py, self.inner.average())
    }
    /// The current policy (regret matching+), aligned with the tree's actions.
    fn current<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        PyArray1::from_slice(py, self.inner.current())
    }
    /// The exact exploitability of the average policy (see ``GameTree.exploitability``).
    fn exploitability<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let inner = &self.inner;
        let e = py.detach(|| inner.exploitability());
        worth(py, &e)
    }
}

/// `tree`'s best response of ``seat`` to ``policy`` (float64, aligned with the tree's actions):
/// ``(value, choices)``, ``choices`` one int64 per information set, the index among its
/// legal actions of the action the best response plays there (-1 at the other seats' sets);
/// computed with the GIL released.
#[pyfunction]
pub fn tree_best_response<'py>(
    py: Python<'py>,
    tree: &Bound<'py, PyGameTree>,
    policy: PyReadonlyArray1<'py, f64>,
    seat: i64,
) -> PyResult<(f64, Bound<'py, PyArray1<i64>>)> {
    let inner = &tree.get().inner;
    let p = aligned(inner, &policy)?;
    let seat = tree_seat(inner, seat)?;
    let (value, choices) = py.detach(|| regalia_engine::cfr::best_response(inner, &p, seat));
    let choices: Vec<i64> = choices.iter().map(|c| c.map_or(-1, |j| j as i64)).collect();
    Ok((value, PyArray1::from_vec(py, choices)))
}

/// The line of play where ``seat`` does best under ``profile`` (every seat's probabilities,
/// aligned with the tree's actions): of the ends reached with a probability above zero, the
/// most probable of those where its return is highest. ``(history, probability, returns)``,
/// or None when no end is reached.
#[pyfunction]
pub fn tree_principal_line<'py>(
    py: Python<'py>,
    tree: &Bound<'py, PyGameTree>,
    profile: PyReadonlyArray1<'py, f64>,
    seat: i64,
) -> PyResult<Option<Line>> {
    let inner = &tree.get().inner;
    let p = aligned(inner, &profile)?;
    let seat = tree_seat(inner, seat)?;
    let found = py.detach(|| regalia_engine::cfr::principal_line(inner, &p, seat));
    Ok(found.map(|(n, probability)| {
        let returns = match inner.nodes[n as usize].kind {
            regalia_engine::cfr::tree::Kind::Terminal(r) => {
                inner.returns[r as usize..r as usize + inner.num_players].to_vec()
            }
            _ => Vec::new(),
        };
        (inner.history(n), probability, returns)
    }))
}

/// A line of play: its moves, its probability and its returns.
type Line = (Vec<u16>, f64, Vec<f64>);

/// Each information set's key as the game's seeded mode has it (uint64, in the tree's order):
/// what a policy trained on the seeded game is keyed by.
#[pyfunction]
pub fn tree_seeded_keys<'py>(
    py: Python<'py>,
    tree: &Bound<'py, PyGameTree>,
) -> Bound<'py, PyArray1<u64>> {
    PyArray1::from_slice(py, &tree.get().inner.seeded_keys)
}

/// ``GameTree.table_policy`` for a table keyed as the game's seeded mode keys (a policy
/// trained on the seeded game): each information set looked up by its seeded key.
#[pyfunction]
pub fn tree_seeded_table_policy<'py>(
    py: Python<'py>,
    tree: &Bound<'py, PyGameTree>,
    keys: PyReadonlyArray1<'py, u64>,
    counts: PyReadonlyArray1<'py, u16>,
    actions: PyReadonlyArray1<'py, u16>,
    probabilities: PyReadonlyArray1<'py, f32>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let table = checked_table(&keys, &counts, &actions, &probabilities)?;
    let inner = &tree.get().inner;
    Ok(PyArray1::from_vec(
        py,
        inner.policy_from_seeded_table(table),
    ))
}

/// ``seat`` checked against ``tree``'s seats.
fn tree_seat(tree: &Tree, seat: i64) -> PyResult<usize> {
    usize::try_from(seat)
        .ok()
        .filter(|&s| s < tree.num_players)
        .ok_or_else(|| {
            InvalidArgumentError::new_err(format!(
                "seat must be from 0 to {}, not {seat}",
                tree.num_players - 1
            ))
        })
}

/// A policy table's arrays as slices, refused unless they are contiguous, its keys ascending
/// and its actions and probabilities as many as its counts add up to.
fn checked_table<'a>(
    keys: &'a PyReadonlyArray1<'_, u64>,
    counts: &'a PyReadonlyArray1<'_, u16>,
    actions: &'a PyReadonlyArray1<'_, u16>,
    probabilities: &'a PyReadonlyArray1<'_, f32>,
) -> PyResult<PolicyTable<'a>> {
    let bad = |_| InvalidArgumentError::new_err("the table's arrays must be contiguous");
    let (k, c, a, p) = (
        keys.as_slice().map_err(bad)?,
        counts.as_slice().map_err(bad)?,
        actions.as_slice().map_err(bad)?,
        probabilities.as_slice().map_err(bad)?,
    );
    let total: usize = c.iter().map(|&n| n as usize).sum();
    if k.len() != c.len()
        || a.len() != total
        || p.len() != total
        || k.windows(2).any(|w| w[0] >= w[1])
    {
        return Err(InvalidArgumentError::new_err(
            "a table needs ascending keys, one count per key, and as many actions and probabilities as the counts add up to",
        ));
    }
    Ok(PolicyTable {
        keys: k,
        counts: c,
        actions: a,
        probs: p,
    })
}
