//! `regalia._core.VectorEnv`: many games stepped together in Rust, numpy in and out, the
//! work done with the GIL released and split over threads (see `regalia_engine::batch`).

use crate::convert::{int_arg, options_arg, seed_arg};
use crate::errors::{guard, not_contiguous, IllegalActionError, InvalidArgumentError};
use crate::game::PyGame;
use crate::opponents::PyOpponent;
use crate::state::PyState;
use numpy::{PyArray1, PyArrayDyn, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};
use regalia_engine::opponents::OpponentPool;
use regalia_engine::{BatchOut, DynBatch, DynGame};
use std::sync::Arc;

/// The output arrays of a step: fresh ones, or the env's own (``copy=False``).
struct Outputs<'py> {
    observations: Bound<'py, PyArrayDyn<f32>>,
    masks: Bound<'py, PyArrayDyn<bool>>,
    rewards: Bound<'py, PyArrayDyn<f32>>,
    terminated: Bound<'py, PyArray1<bool>>,
    players: Bound<'py, PyArray1<i64>>,
}

impl<'py> Outputs<'py> {
    fn new(py: Python<'py>, game: &dyn DynGame, n: usize) -> Self {
        let mut obs_shape = vec![n];
        obs_shape.extend(game.observation_shape());
        Outputs {
            // Zeroed although the batch writes every element: no slice over uninitialised
            // memory ever exists, for the price of one memset per step.
            observations: PyArrayDyn::zeros(py, obs_shape, false),
            masks: PyArrayDyn::zeros(py, vec![n, game.num_actions()], false),
            rewards: PyArrayDyn::zeros(py, vec![n, game.num_players()], false),
            terminated: PyArray1::zeros(py, n, false),
            players: PyArray1::zeros(py, n, false),
        }
    }

    fn unbind(&self) -> Kept {
        Kept {
            observations: self.observations.clone().unbind(),
            masks: self.masks.clone().unbind(),
            rewards: self.rewards.clone().unbind(),
            terminated: self.terminated.clone().unbind(),
            players: self.players.clone().unbind(),
        }
    }
}

impl<'py> Outputs<'py> {
    /// The tuple a call returns: observations and masks, then with `rewards` the rewards and
    /// whether each game ended, then the players, then `more`.
    fn into_tuple(
        self,
        py: Python<'py>,
        rewards: bool,
        more: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let mut items = vec![self.observations.into_any(), self.masks.into_any()];
        if rewards {
            items.push(self.rewards.into_any());
            items.push(self.terminated.into_any());
        }
        items.push(self.players.into_any());
        items.extend(more);
        PyTuple::new(py, items)
    }
}

/// The arrays a ``copy=False`` env writes every step.
struct Kept {
    observations: Py<PyArrayDyn<f32>>,
    masks: Py<PyArrayDyn<bool>>,
    rewards: Py<PyArrayDyn<f32>>,
    terminated: Py<PyArray1<bool>>,
    players: Py<PyArray1<i64>>,
}

impl Kept {
    fn bind<'py>(&self, py: Python<'py>) -> Outputs<'py> {
        Outputs {
            observations: self.observations.bind(py).clone(),
            masks: self.masks.bind(py).clone(),
            rewards: self.rewards.bind(py).clone(),
            terminated: self.terminated.bind(py).clone(),
            players: self.players.bind(py).clone(),
        }
    }
}

impl<'py> Outputs<'py> {
    /// Mutable views of the arrays' data for the engine.
    ///
    /// SAFETY: the arrays are C-contiguous and made by [`Outputs::new`]; nothing in Rust
    /// reads or writes them while the views live. Fresh ones are not yet visible to Python;
    /// kept ones (``copy=False``) are the caller's to leave alone during the call, as with
    /// any numpy operation that releases the GIL.
    unsafe fn views(&self) -> PyResult<BatchOut<'_>> {
        Ok(BatchOut {
            observations: self.observations.as_slice_mut().map_err(not_contiguous)?,
            masks: self.masks.as_slice_mut().map_err(not_contiguous)?,
            rewards: self.rewards.as_slice_mut().map_err(not_contiguous)?,
            terminated: self.terminated.as_slice_mut().map_err(not_contiguous)?,
            players: self.players.as_slice_mut().map_err(not_contiguous)?,
        })
    }
}

/// `num_envs` games of one kind in Rust, stepped together.
///
/// ``reset()`` and ``step(actions)`` return numpy arrays with one row per game: the
/// observation tensor of the player to move, the legal-action mask, and (from ``step``) each
/// seat's reward (the final returns on the step a game ends, else 0) and whether the game
/// ended; then the player to move. A game that ends is restarted at once (its row then shows
/// the new game), game ``e`` of slot ``i`` from seed ``derive_seed(seed, e * num_envs + i)``.
#[pyclass(name = "VectorEnv", module = "regalia._core")]
pub struct PyVectorEnv {
    game: Arc<dyn DynGame>,
    inner: Box<dyn DynBatch>,
    /// The env's own output arrays when made with ``copy=False``.
    kept: Option<Kept>,
}

/// The game a `VectorEnv` is asked for: a Rust `Game`, or a name with options.
fn game_arg(
    game: &Bound<'_, PyAny>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Arc<dyn DynGame>> {
    let has_options = options.is_some_and(|o| !o.is_empty());
    if let Ok(g) = game.cast::<PyGame>() {
        if has_options {
            return Err(InvalidArgumentError::new_err(
                "options go with a game name, not with a Game (it has its options)",
            ));
        }
        return Ok(g.get().inner.clone());
    }
    let Ok(name) = game.cast::<PyString>() else {
        return Err(InvalidArgumentError::new_err(
            "VectorEnv needs a game name or a Game of the rust backend",
        ));
    };
    let name = name.to_str()?;
    let options = options_arg(options)?;
    guard(|| regalia_engine::make(name, &options))
}

/// The actions of a step as a 1-D int64 array (any integer array-like is converted).
fn actions_arg<'py>(actions: &Bound<'py, PyAny>) -> PyResult<PyReadonlyArray1<'py, i64>> {
    if let Ok(a) = actions.cast::<PyArray1<i64>>() {
        return a
            .try_readonly()
            .map_err(|_| InvalidArgumentError::new_err("actions are being written elsewhere"));
    }
    let np = actions.py().import("numpy")?;
    let bad = || IllegalActionError::new_err("actions must be a 1-D array of integers");
    let array = np.call_method1("asarray", (actions,)).map_err(|_| bad())?;
    let kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
    if kind != "i" && kind != "u" {
        return Err(bad());
    }
    let array = array.call_method1("astype", ("int64",))?;
    let array = array.cast_into::<PyArray1<i64>>().map_err(|_| bad())?;
    array.try_readonly().map_err(|_| bad())
}

impl PyVectorEnv {
    fn outputs<'py>(&self, py: Python<'py>) -> Outputs<'py> {
        match &self.kept {
            Some(k) => k.bind(py),
            None => Outputs::new(py, &*self.game, self.inner.len()),
        }
    }

    /// Runs `work` on the games with the GIL released, writing the step's output arrays
    /// (fresh ones, or the env's own), and returns them.
    fn batch<'py>(
        &mut self,
        py: Python<'py>,
        work: impl FnOnce(&mut dyn DynBatch, BatchOut<'_>) -> regalia_engine::Result<()> + Send,
    ) -> PyResult<Outputs<'py>> {
        let out = self.outputs(py);
        {
            // SAFETY: see `Outputs::views`.
            let views = unsafe { out.views()? };
            let inner = &mut *self.inner;
            py.detach(|| guard(|| work(inner, views)))?;
        }
        Ok(out)
    }
}

#[pymethods]
impl PyVectorEnv {
    /// ``num_envs`` games of ``game`` (a name with ``**options``, or a ``Game``), seeded from
    /// ``seed``, stepped on up to ``threads`` threads (default: every core) when large. With
    /// ``copy=False`` every call returns the same arrays, overwritten (no allocation).
    #[new]
    #[pyo3(signature = (game, num_envs, seed=None, threads=None, copy=true, **options))]
    fn new(
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        num_envs: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
        copy: bool,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let game = game_arg(game, options)?;
        guard(|| game.require_seeded("vector envs"))?;
        let n = int_arg(num_envs, "num_envs", InvalidArgumentError::new_err, None)?;
        if !(1..=1 << 24).contains(&n) {
            return Err(InvalidArgumentError::new_err(format!(
                "num_envs must be from 1 to {}, got {n}",
                1 << 24
            )));
        }
        let seed = seed.filter(|s| !s.is_none()).map_or(Ok(0), seed_arg)?;
        let threads = match threads.filter(|t| !t.is_none()) {
            Some(t) => {
                let t = int_arg(t, "threads", InvalidArgumentError::new_err, None)?;
                if !(1..=256).contains(&t) {
                    return Err(InvalidArgumentError::new_err(format!(
                        "threads must be from 1 to 256, got {t}"
                    )));
                }
                t as usize
            }
            None => std::thread::available_parallelism().map_or(1, |c| c.get()),
        };
        let g = game.clone();
        let inner = py.detach(move || guard(|| Ok(g.new_batch(n as usize, seed, threads))))?;
        let kept = (!copy).then(|| Outputs::new(py, &*game, n as usize).unbind());
        Ok(PyVectorEnv { game, inner, kept })
    }

    /// Number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.inner.len()
    }
    /// Threads used for a large batch.
    #[getter]
    fn threads(&self) -> usize {
        self.inner.threads()
    }
    /// Number of seats of each game.
    #[getter]
    fn num_players(&self) -> usize {
        self.game.num_players()
    }
    /// Size of the action space (the masks' width).
    #[getter]
    fn num_actions(&self) -> usize {
        self.game.num_actions()
    }
    /// Shape of one game's observation tensor.
    #[getter]
    fn observation_shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.game.observation_shape())
    }
    /// The game being played.
    #[getter]
    fn game(&self) -> PyGame {
        PyGame {
            inner: self.game.clone(),
        }
    }
    /// Whether ``reset`` and ``step`` return new arrays (else the env's own, overwritten by
    /// the next call).
    #[getter]
    fn copy(&self) -> bool {
        self.kept.is_none()
    }
    fn __len__(&self) -> usize {
        self.inner.len()
    }

    /// Restarts every game (from ``seed`` when given) and returns ``(observations, masks,
    /// players)``.
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let seed = seed.filter(|s| !s.is_none()).map(seed_arg).transpose()?;
        let out = self.batch(py, |inner, views| inner.reset(seed, views))?;
        out.into_tuple(py, false, None)
    }

    /// Plays ``actions[i]`` in game ``i`` (an int array of ``num_envs``) and returns
    /// ``(observations, masks, rewards, terminated, players)``. A bad action raises
    /// ``IllegalActionError`` naming the game, and no game changes.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let actions = actions_arg(actions)?;
        if actions.ndim() != 1 {
            return Err(IllegalActionError::new_err("actions must be a 1-D array"));
        }
        let actions = actions
            .as_slice()
            .map_err(|_| InvalidArgumentError::new_err("actions must be contiguous"))?;
        let out = self.batch(py, |inner, views| inner.step(actions, views))?;
        out.into_tuple(py, true, None)
    }

    /// One step of a learner at seat ``seats[i]`` of game ``i`` (an int array of
    /// ``num_envs`` each): plays ``actions[i]`` (``-1``: no move in that game), then the
    /// other seats' moves in Rust until the learner is to move again: with
    /// ``random_opponents`` uniformly random moves, else those of the game's opponents from
    /// ``set_opponent_pool`` (random, ISMCTS or a policy, spread over the threads), up to a
    /// seat the caller answers (none without a pool). Returns ``(observations, masks, rewards, terminated,
    /// players, final_observations)``: the learner's observation tensor, the current
    /// player's legal actions, each seat's final returns where a game ended (then restarted),
    /// the current player, and the learner's observation of the last position of each game
    /// that ended (zeros elsewhere). Bad seats or actions raise naming the game, and no game
    /// changes.
    #[pyo3(signature = (seats, actions, random_opponents=false))]
    fn step_seats<'py>(
        &mut self,
        py: Python<'py>,
        seats: &Bound<'py, PyAny>,
        actions: &Bound<'py, PyAny>,
        random_opponents: bool,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let seats = actions_arg(seats)
            .map_err(|_| InvalidArgumentError::new_err("seats must be a 1-D array of integers"))?;
        let actions = actions_arg(actions)?;
        let (Ok(seats), Ok(actions)) = (seats.as_slice(), actions.as_slice()) else {
            return Err(InvalidArgumentError::new_err(
                "seats and actions must be contiguous 1-D arrays",
            ));
        };
        let mut final_shape = vec![self.inner.len()];
        final_shape.extend(self.game.observation_shape());
        let finals = PyArrayDyn::<f32>::zeros(py, final_shape, false);
        // SAFETY: `finals` is new, contiguous and not yet visible to Python.
        let final_view = unsafe { finals.as_slice_mut() }.map_err(not_contiguous)?;
        let out = self.batch(py, |inner, views| {
            inner.step_seats(seats, actions, random_opponents, views, final_view)
        })?;
        out.into_tuple(py, true, Some(finals.into_any()))
    }

    /// The opponents ``step_seats`` plays natively without ``random_opponents``: each game
    /// that starts from now on plays one entry of ``pool``, drawn from its seed
    /// (``derive_seed(game_seed, 0x0990) % len(pool)``, entry 0 for a pool of one); a game
    /// under way keeps its entry, and one that has none yet draws it now. An entry lists one
    /// ``Opponent`` per seat other than the learner's, in seat order, or ``None`` for a seat
    /// the caller answers (``step_seats`` then stops with that seat to move). ``None``
    /// removes every game's opponents. A pool that does not fit the game (entries of
    /// another length, a policy made for another game or of another shape) is refused,
    /// naming the entry, and nothing changes.
    #[pyo3(signature = (pool))]
    fn set_opponent_pool(&mut self, py: Python<'_>, pool: &Bound<'_, PyAny>) -> PyResult<()> {
        let pool: Option<Vec<Vec<Option<PyRef<'_, PyOpponent>>>>> =
            pool.extract().map_err(|_| {
                InvalidArgumentError::new_err(
                    "an opponent pool is a list of entries, each a list of Opponent or None (or None for no pool)",
                )
            })?;
        for (k, entry) in pool.iter().flatten().enumerate() {
            for opponent in entry.iter().flatten() {
                opponent.check_game(&*self.game, k)?;
            }
        }
        let pool = match pool {
            None => None,
            Some(entries) => {
                let entries = entries
                    .into_iter()
                    .map(|e| e.into_iter().map(|o| o.map(|o| o.inner.clone())).collect())
                    .collect();
                Some(guard(|| OpponentPool::new(entries))?)
            }
        };
        let inner = &mut self.inner;
        py.detach(|| guard(|| inner.set_opponent_pool(pool)))
    }

    /// A uniformly random legal action of every game, as an int64 array (``-1`` for a game
    /// that is over): random play without a Python loop, drawn in Rust with the GIL released
    /// from each game's own generator (seeded with the game), so it is reproducible from the
    /// env's seed whatever the threads.
    fn sample_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let out = PyArray1::<i64>::zeros(py, self.inner.len(), false);
        {
            // SAFETY: the array is new, contiguous and not yet visible to Python.
            let view = unsafe { out.as_slice_mut() }.map_err(not_contiguous)?;
            let inner = &mut self.inner;
            py.detach(|| guard(|| inner.sample_actions(view)))?;
        }
        Ok(out)
    }

    /// The seed each game started from (``game.new_state(seed)`` replays it).
    fn seeds<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u64>> {
        PyArray1::from_vec(py, self.inner.seeds())
    }

    /// A copy of game ``index`` as a ``State`` (with its history and seed).
    fn state(&self, index: &Bound<'_, PyAny>) -> PyResult<PyState> {
        let i = int_arg(index, "index", InvalidArgumentError::new_err, None)?;
        let i = usize::try_from(i).unwrap_or(usize::MAX);
        let s = guard(|| self.inner.state(i))?;
        Ok(PyState::new(self.game.clone(), s))
    }

    fn __repr__(&self) -> String {
        format!(
            "<VectorEnv {} x{} on {} threads>",
            self.game.info().name,
            self.inner.len(),
            self.inner.threads()
        )
    }
}
