//! `regalia._core.Policy` and `regalia._core.Opponent`: trained policies evaluated in Rust,
//! and the opponents a `VectorEnv` plays natively (see `regalia_engine::opponents`).

use crate::convert::seed_arg;
use crate::errors::{guard, InvalidArgumentError};
use crate::game::PyGame;
use crate::state::SearchArgs;
use numpy::{
    PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use regalia_engine::opponents::Opponent;
use regalia_engine::policy::{Activation, Layer, PolicyNet};
use regalia_engine::search::BeliefModel;
use regalia_engine::{ActionSet, DynGame};
use std::sync::Arc;

/// A trained policy network loaded into the engine once (``regalia.policy_file`` holds
/// the same network in numpy): a multilayer perceptron from a seat's observation tensor to
/// one logit per action of ``game``, evaluated in Rust with the GIL released.
///
/// ``layers`` are ``(weight, bias)`` pairs of float32 arrays, ``weight`` of shape
/// ``(outputs, inputs)``; ``activation`` (``"tanh"`` or ``"relu"``) runs between them. A
/// network whose first layer does not take ``game``'s observation or whose last does not
/// give its actions is refused, naming both shapes.
#[pyclass(name = "Policy", module = "regalia._core", frozen)]
pub struct PyPolicy {
    pub net: Arc<PolicyNet>,
    game: PyGame,
}

/// One float32 row per observation, as a 2-D array of `width` columns.
fn rows<'py>(
    array: &Bound<'py, PyAny>,
    width: usize,
    what: &str,
) -> PyResult<PyReadonlyArray2<'py, f32>> {
    let np = array.py().import("numpy")?;
    let bad =
        || InvalidArgumentError::new_err(format!("{what} must be a 2-D array of {width} columns"));
    let a = np
        .call_method1("ascontiguousarray", (array, "float32"))
        .map_err(|_| bad())?;
    let a = a.cast_into::<PyArray2<f32>>().map_err(|_| bad())?;
    let a = a.try_readonly().map_err(|_| bad())?;
    if a.shape()[1] != width {
        return Err(bad());
    }
    Ok(a)
}

/// The `(weight, bias)` pairs of a network as float32 arrays (2-D and 1-D).
fn layers_arg<'py>(
    layers: &Bound<'py, PyAny>,
) -> PyResult<Vec<(PyReadonlyArray2<'py, f32>, PyReadonlyArray1<'py, f32>)>> {
    let np = layers.py().import("numpy")?;
    let bad = || {
        InvalidArgumentError::new_err(
            "layers must be a list of (weight, bias) pairs of float arrays, weight 2-D and bias 1-D",
        )
    };
    let pairs: Vec<(Bound<'py, PyAny>, Bound<'py, PyAny>)> = layers.extract().map_err(|_| bad())?;
    pairs
        .into_iter()
        .map(|(w, b)| {
            let w = np
                .call_method1("ascontiguousarray", (w, "float32"))
                .map_err(|_| bad())?;
            let b = np
                .call_method1("ascontiguousarray", (b, "float32"))
                .map_err(|_| bad())?;
            let w = w.cast_into::<PyArray2<f32>>().map_err(|_| bad())?;
            let b = b.cast_into::<PyArray1<f32>>().map_err(|_| bad())?;
            Ok((
                w.try_readonly().map_err(|_| bad())?,
                b.try_readonly().map_err(|_| bad())?,
            ))
        })
        .collect()
}

/// Each row of `masks` (bools, `actions` columns, `n` rows) as a set of legal actions.
fn legal_sets(masks: &Bound<'_, PyAny>, n: usize, actions: usize) -> PyResult<Vec<ActionSet>> {
    let np = masks.py().import("numpy")?;
    let bad = || {
        InvalidArgumentError::new_err(format!(
            "masks must be a 2-D bool array of {n} rows and {actions} columns"
        ))
    };
    let m = np
        .call_method1("ascontiguousarray", (masks, "bool"))
        .map_err(|_| bad())?;
    let m = m.cast_into::<PyArray2<bool>>().map_err(|_| bad())?;
    let m = m.try_readonly().map_err(|_| bad())?;
    if m.shape() != [n, actions] {
        return Err(bad());
    }
    let flags = m.as_slice().map_err(|_| bad())?;
    Ok(flags
        .chunks(actions.max(1))
        .map(|row| {
            row.iter()
                .enumerate()
                .filter(|(_, &m)| m)
                .map(|(a, _)| a as regalia_engine::Action)
                .collect()
        })
        .collect())
}

#[pymethods]
impl PyPolicy {
    #[new]
    fn new(game: PyRef<'_, PyGame>, layers: &Bound<'_, PyAny>, activation: &str) -> PyResult<Self> {
        let layers = layers_arg(layers)?;
        let activation = Activation::from_name(activation).ok_or_else(|| {
            InvalidArgumentError::new_err(format!(
                "unknown activation {activation:?}; known: tanh, relu"
            ))
        })?;
        let layers = layers
            .iter()
            .map(|(w, b)| Layer {
                weight: w.as_array().iter().copied().collect(),
                bias: b.as_array().iter().copied().collect(),
                inputs: w.shape()[1],
            })
            .collect();
        let net = guard(|| PolicyNet::new(layers, activation))?;
        let g = &game.inner;
        let shape = g.observation_shape();
        let size: usize = shape.iter().product();
        let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
        let shape = match dims.as_slice() {
            [one] => format!("({one},)"),
            _ => format!("({})", dims.join(", ")),
        };
        if (net.inputs(), net.outputs()) != (size, g.num_actions()) {
            return Err(InvalidArgumentError::new_err(format!(
                "this policy network takes {} inputs and gives {} actions; {} with these options has observations of shape {shape} ({size} floats) and {} actions",
                net.inputs(),
                net.outputs(),
                g.info().name,
                g.num_actions()
            )));
        }
        Ok(PyPolicy {
            net: Arc::new(net),
            game: PyGame {
                inner: game.inner.clone(),
            },
        })
    }

    /// The game this network plays.
    #[getter]
    fn game(&self) -> PyGame {
        PyGame {
            inner: self.game.inner.clone(),
        }
    }

    /// The activation between layers.
    #[getter]
    fn activation(&self) -> &'static str {
        self.net.activation().name()
    }

    /// One row of float32 logits per row of ``observations`` (flattened observation tensors).
    fn logits<'py>(
        &self,
        py: Python<'py>,
        observations: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let obs = rows(observations, self.net.inputs(), "observations")?;
        let (n, width) = (obs.shape()[0], self.net.outputs());
        let obs = obs.as_slice().map_err(crate::errors::not_contiguous)?;
        let net = &self.net;
        let out = py.detach(|| {
            let mut scratch = vec![0.0; net.scratch_len()];
            let mut out = Vec::with_capacity(n * width);
            for row in obs.chunks(net.inputs().max(1)) {
                out.extend_from_slice(net.logits(row, &mut scratch));
            }
            out
        });
        PyArray1::from_vec(py, out).reshape([n, width])
    }

    /// The policy's choice in each row: greedy without ``draws`` (the legal action of highest
    /// logit, the lowest id among equal ones), else the first legal action whose cumulative
    /// probability exceeds the row's draw (uniform numbers in ``[0, 1)``, one per row), as the
    /// ``policy`` agent samples. ``masks``: one bool row of legal actions per observation;
    /// a row without any gives ``-1``.
    #[pyo3(signature = (observations, masks, draws=None))]
    fn act<'py>(
        &self,
        py: Python<'py>,
        observations: &Bound<'py, PyAny>,
        masks: &Bound<'py, PyAny>,
        draws: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let draws: Option<Vec<f64>> = draws
            .filter(|d| !d.is_none())
            .map(|d| {
                d.extract().map_err(|_| {
                    InvalidArgumentError::new_err("draws must be a sequence of numbers")
                })
            })
            .transpose()?;
        let obs = rows(observations, self.net.inputs(), "observations")?;
        let n = obs.shape()[0];
        let legal = legal_sets(masks, n, self.net.outputs())?;
        if draws.as_ref().is_some_and(|d| d.len() != n) {
            return Err(InvalidArgumentError::new_err(format!(
                "draws must hold one number for each of the {n} rows"
            )));
        }
        let obs = obs.as_slice().map_err(crate::errors::not_contiguous)?;
        let net = &self.net;
        let chosen = py.detach(|| {
            let mut scratch = vec![0.0; net.scratch_len()];
            let rows = obs.chunks(net.inputs().max(1)).zip(&legal).enumerate();
            rows.map(|(i, (row, legal))| {
                let draw = draws.as_ref().and_then(|d| d.get(i).copied());
                net.choose(row, legal, draw, &mut scratch)
                    .map_or(-1, i64::from)
            })
            .collect::<Vec<i64>>()
        });
        Ok(PyArray1::from_vec(py, chosen))
    }

    /// Each row's probabilities of the legal actions when the policy samples (the softmax of
    /// their logits; 0 for the others and in a row without any legal action), float64.
    fn probabilities<'py>(
        &self,
        py: Python<'py>,
        observations: &Bound<'py, PyAny>,
        masks: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let obs = rows(observations, self.net.inputs(), "observations")?;
        let (n, width) = (obs.shape()[0], self.net.outputs());
        let legal = legal_sets(masks, n, width)?;
        let obs = obs.as_slice().map_err(crate::errors::not_contiguous)?;
        let net = &self.net;
        let out = py.detach(|| {
            let mut scratch = vec![0.0; net.scratch_len()];
            let mut out = vec![0.0; n * width];
            let rows = obs.chunks(net.inputs().max(1)).zip(&legal);
            for ((row, legal), p) in rows.zip(out.chunks_mut(width.max(1))) {
                net.probabilities(row, legal, &mut scratch, p);
            }
            out
        });
        PyArray1::from_vec(py, out).reshape([n, width])
    }

    fn __repr__(&self) -> String {
        format!(
            "<Policy {} {}->{} ({})>",
            self.game.inner.info().name,
            self.net.inputs(),
            self.net.outputs(),
            self.net.activation().name()
        )
    }
}

/// An opponent a ``VectorEnv`` plays by itself for the seats other than the learner's
/// (``VectorEnv.set_opponent_pool``), drawing its randomness from each game's own generator
/// so that a game's moves follow from its seed whatever the threads: ``Opponent.random()``,
/// ``Opponent.ismcts(...)``, ``Opponent.policy(policy, sample)`` or a fixed strategy
/// (``first_legal()``, ``last_legal()``, ``fixed_order(order)``).
#[pyclass(name = "Opponent", module = "regalia._core", frozen)]
pub struct PyOpponent {
    pub inner: Opponent,
    name: String,
    /// The game a policy opponent's network was made for (none for the others).
    game: Option<Arc<dyn DynGame>>,
}

#[pymethods]
impl PyOpponent {
    /// Uniformly random legal moves.
    #[staticmethod]
    fn random() -> Self {
        PyOpponent {
            inner: Opponent::Random,
            name: "random".into(),
            game: None,
        }
    }

    /// Always the legal action with the lowest id (the ``first-legal`` agent).
    #[staticmethod]
    fn first_legal() -> Self {
        PyOpponent {
            inner: Opponent::FirstLegal,
            name: "first-legal".into(),
            game: None,
        }
    }

    /// Always the legal action with the highest id (the ``last-legal`` agent).
    #[staticmethod]
    fn last_legal() -> Self {
        PyOpponent {
            inner: Opponent::LastLegal,
            name: "last-legal".into(),
            game: None,
        }
    }

    /// The legal action that comes first in the order of ``derive_seed(order, action)``
    /// (the ``fixed-order:order=N`` agent).
    #[staticmethod]
    fn fixed_order(order: &Bound<'_, PyAny>) -> PyResult<Self> {
        let order = seed_arg(order)?;
        Ok(PyOpponent {
            inner: Opponent::FixedOrder(order),
            name: format!("fixed-order:order={order}"),
            game: None,
        })
    }

    /// ISMCTS with the options of ``State.ismcts`` (its seed drawn from the game's generator
    /// at every decision; the only legal move is played without a search). ``belief`` must be
    /// ``"none"``: a vector env's games draw their chance events from their seeds.
    #[staticmethod]
    #[pyo3(signature = (iterations=None, exploration=1.0, time_limit=None, rollout=None, threads=None, belief=None, opponents=None))]
    fn ismcts(
        iterations: Option<&Bound<'_, PyAny>>,
        exploration: f64,
        time_limit: Option<f64>,
        rollout: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
        belief: Option<&Bound<'_, PyAny>>,
        opponents: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let config = SearchArgs {
            iterations,
            exploration,
            seed: None,
            time_limit,
            rollout,
            threads,
            belief,
            particles: None,
            opponents,
        }
        .config()?;
        if config.belief.model != BeliefModel::None {
            return Err(InvalidArgumentError::new_err(format!(
                "ismcts with belief={:?} follows the chance outcomes of the game's history, and a vector env's games draw them from their seeds: use belief='none'",
                config.belief.model.name()
            )));
        }
        let name = format!(
            "ismcts:iterations={}:exploration={}:rollout={}:threads={}:opponents={}",
            config.iterations,
            config.exploration,
            config.rollout.name(),
            config.threads,
            config.opponents.name()
        );
        Ok(PyOpponent {
            inner: Opponent::Ismcts(config),
            name,
            game: None,
        })
    }

    /// The policy network ``policy``: its best legal move, or with ``sample`` one drawn in
    /// proportion to its probabilities (from the game's generator). It plays only in the
    /// game its ``Policy`` was made for.
    #[staticmethod]
    #[pyo3(signature = (policy, sample=false))]
    fn policy(policy: PyRef<'_, PyPolicy>, sample: bool) -> Self {
        PyOpponent {
            inner: Opponent::Policy {
                net: policy.net.clone(),
                sample,
            },
            name: format!("policy:sample={sample}"),
            game: Some(policy.game.inner.clone()),
        }
    }

    fn __repr__(&self) -> String {
        format!("<Opponent {}>", self.name)
    }
}

impl PyOpponent {
    /// Refuses a policy opponent made for another game than `game` (whatever its shapes; as
    /// the ``policy`` agent, other options of the same shapes are allowed), naming `entry`
    /// of the pool and both games.
    pub fn check_game(&self, game: &dyn DynGame, entry: usize) -> PyResult<()> {
        let (mine, theirs) = match &self.game {
            Some(mine) => (mine.info().name, game.info().name),
            None => return Ok(()),
        };
        if mine == theirs {
            return Ok(());
        }
        Err(InvalidArgumentError::new_err(format!(
            "entry {entry} of the opponent pool: a policy made for {mine}; this env plays {theirs}"
        )))
    }
}
