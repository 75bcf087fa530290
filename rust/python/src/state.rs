//! `regalia._core.State`: one position of a game, with its history.

use crate::convert::{count_arg, int_arg, json_to_py, seed_arg};
use crate::direct::{add_bool_member, add_method_o, call_method_o, BoolMember};
use crate::errors::{guard, not_contiguous, to_py, IllegalActionError, InvalidArgumentError};
use crate::gil_cell::GilCell;
use crate::interrupt::interruptible;
use numpy::{PyArray1, PyArrayDyn, PyArrayMethods};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyTuple, PyType};
use regalia_engine::recall::DEFAULT_SLOTS;
use regalia_engine::search::{Belief, BeliefModel, Opponents, MAX_PARTICLES};
use regalia_engine::{
    Action, ActionSet, DynGame, DynState, Error, IsmctsConfig, IsmctsResult, Options, Rollout,
    MAX_ACTIONS, MAX_THREADS,
};
use std::sync::Arc;
use std::time::Duration;

/// ``State.current_player`` at a chance node (OpenSpiel's ``PlayerId.CHANCE``).
pub const CHANCE_PLAYER: i64 = -1;

/// A game position. Mutated only by ``apply``; everything else reads.
///
/// Frozen, so PyO3 keeps no atomic borrow flag: the position is borrowed through its
/// [`GilCell`] instead, shared to read and exclusively by ``apply``, as PyO3 would.
#[pyclass(name = "State", module = "regalia._core", frozen)]
pub struct PyState {
    game: Arc<dyn DynGame>,
    inner: GilCell<Box<dyn DynState>>,
    /// ``is_terminal``, set with every change of ``inner`` (made here and in ``apply``).
    terminal: BoolMember,
}

impl PyState {
    /// Wraps an engine state.
    pub fn new(game: Arc<dyn DynGame>, inner: Box<dyn DynState>) -> Self {
        PyState {
            game,
            terminal: BoolMember::new(inner.is_terminal()),
            inner: GilCell::new(inner),
        }
    }

    /// Plays ``action``; an illegal one raises ``IllegalActionError`` and changes nothing.
    fn apply(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut state = self.inner.borrow_mut(py)?;
        let a = action_arg(&**state, action)?;
        let done = guard(|| state.apply(a));
        self.terminal.set(state.is_terminal());
        done
    }

    /// Gives the class what the interpreter reaches without PyO3's wrappers (see
    /// [`crate::direct`]): ``apply``, a method of one argument, and ``is_terminal``, a member
    /// located within the object by a probe (a state of any game).
    pub fn add_direct(py: Python<'_>) -> PyResult<()> {
        add_method_o::<PyState>(
            py,
            c"apply",
            c"apply($self, action, /)\n--\n\nPlays ``action``; an illegal one raises ``IllegalActionError`` and changes nothing.",
            apply_o,
        )?;
        let game = regalia_engine::make("duo", &Options::default()).map_err(to_py)?;
        let probe = Bound::new(py, PyState::new(game.clone(), game.new_state(0)))?;
        add_bool_member(
            &probe,
            |s| &s.terminal,
            c"is_terminal",
            c"Whether the game is over.",
        )
    }

    /// ``seat``'s perfect-recall information state as a compact 64-bit key (for
    /// ``regalia._core.information_state_key``).
    pub fn information_state_key(&self, seat: &Bound<'_, PyAny>) -> PyResult<u64> {
        let state = self.inner.borrow(seat.py())?;
        let seat = seat_arg(&**state, seat)?;
        guard(|| state.information_state_key(seat))
    }

    /// Checks the search arguments, then searches with the GIL released. The state stays
    /// borrowed (``apply`` refused) until the search is over.
    fn search(&self, py: Python<'_>, args: SearchArgs<'_, '_>) -> PyResult<IsmctsResult> {
        let state = self.inner.borrow(py)?;
        let config = args.config()?;
        let inner = &**state;
        interruptible(py, |stop| {
            inner.ismcts(&config, stop)?.ok_or_else(|| {
                Error::InvalidArgument("the game is over: there is nothing to search".into())
            })
        })
    }
}

/// ``State.apply`` as the interpreter calls it: `self` and the one argument, borrowed.
unsafe extern "C" fn apply_o(
    slf: *mut ffi::PyObject,
    arg: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: the interpreter calls a method with the thread attached, `slf` an instance of
    // the method's class (its descriptor checks that) and `arg` an object, both borrowed.
    unsafe {
        call_method_o(slf, arg, |py, slf: &Bound<'_, PyState>, arg| {
            slf.get().apply(py, arg)
        })
    }
}

/// An action id argument for `state` (`IllegalActionError` for anything else). An int is
/// taken as it is: the action space's size, for the message, is looked up only on an error,
/// since every move of a Python loop passes here.
fn action_arg(state: &dyn DynState, action: &Bound<'_, PyAny>) -> PyResult<i64> {
    if !action.is_instance_of::<PyBool>() {
        if let Ok(a) = action.extract::<i64>() {
            return Ok(a);
        }
    }
    int_arg(
        action,
        "action",
        IllegalActionError::new_err,
        Some(state.num_actions()),
    )
}

/// A seat argument for `state` (`InvalidArgumentError` for anything but one of its seats).
fn seat_arg(state: &dyn DynState, seat: &Bound<'_, PyAny>) -> PyResult<i64> {
    int_arg(
        seat,
        "seat",
        InvalidArgumentError::new_err,
        Some(state.num_players()),
    )
}

/// One of a search option's named values (`default` when not given); anything else is refused
/// naming `what` and every name in `all`, joined by `sep`.
fn named<T: Copy>(
    value: Option<&Bound<'_, PyAny>>,
    default: T,
    all: &[T],
    name: fn(T) -> &'static str,
    from_name: fn(&str) -> Option<T>,
    what: &str,
    sep: &str,
) -> PyResult<T> {
    let Some(value) = value else {
        return Ok(default);
    };
    value
        .extract::<String>()
        .ok()
        .and_then(|n| from_name(&n))
        .ok_or_else(|| {
            let names: Vec<_> = all.iter().map(|&v| format!("'{}'", name(v))).collect();
            InvalidArgumentError::new_err(format!("{what} must be {}", names.join(sep)))
        })
}

/// The arguments of a search as given (``State.ismcts``, ``State.ismcts_search``,
/// ``Opponent.ismcts``: `None` where not given, or where the caller has no such argument).
pub struct SearchArgs<'a, 'py> {
    /// ``iterations``.
    pub iterations: Option<&'a Bound<'py, PyAny>>,
    /// ``exploration``.
    pub exploration: f64,
    /// ``seed``.
    pub seed: Option<&'a Bound<'py, PyAny>>,
    /// ``time_limit`` (seconds).
    pub time_limit: Option<f64>,
    /// ``rollout``.
    pub rollout: Option<&'a Bound<'py, PyAny>>,
    /// ``threads``.
    pub threads: Option<&'a Bound<'py, PyAny>>,
    /// ``belief``.
    pub belief: Option<&'a Bound<'py, PyAny>>,
    /// ``particles``.
    pub particles: Option<&'a Bound<'py, PyAny>>,
    /// ``opponents``.
    pub opponents: Option<&'a Bound<'py, PyAny>>,
}

impl SearchArgs<'_, '_> {
    /// The search asked for, its arguments checked.
    pub fn config(self) -> PyResult<IsmctsConfig> {
        let SearchArgs {
            iterations,
            exploration,
            seed,
            time_limit,
            rollout,
            threads,
            belief,
            particles,
            opponents,
        } = self;
        let bad = |m: &str| InvalidArgumentError::new_err(m.to_string());
        let threads = match threads {
            Some(n) => int_arg(n, "threads", InvalidArgumentError::new_err, None)?,
            None => 1,
        };
        let threads = usize::try_from(threads)
            .ok()
            .filter(|n| (1..=MAX_THREADS).contains(n))
            .ok_or_else(|| bad(&format!("threads must be from 1 to {MAX_THREADS}")))?;
        let iterations = match iterations {
            Some(n) => int_arg(n, "iterations", InvalidArgumentError::new_err, None)?,
            None => IsmctsConfig::default().iterations as i64,
        };
        let iterations = u64::try_from(iterations)
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| bad("iterations must be at least 1"))?;
        if !(exploration.is_finite() && exploration >= 0.0) {
            return Err(bad("exploration must be a finite number >= 0"));
        }
        let time_limit = match time_limit {
            None => None,
            Some(t) if t.is_finite() && t > 0.0 => Some(Duration::from_secs_f64(t.min(1e9))),
            Some(_) => {
                return Err(bad(
                    "time_limit must be None or a positive number of seconds",
                ))
            }
        };
        let rollout = named(
            rollout,
            Rollout::default(),
            &Rollout::ALL,
            Rollout::name,
            Rollout::from_name,
            "rollout",
            " or ",
        )?;
        let model = named(
            belief,
            BeliefModel::None,
            &BeliefModel::ALL,
            BeliefModel::name,
            BeliefModel::from_name,
            "belief",
            ", ",
        )?;
        let opponents = named(
            opponents,
            Opponents::default(),
            &Opponents::ALL,
            Opponents::name,
            Opponents::from_name,
            "opponents",
            ", ",
        )?;
        let particles = match particles {
            Some(n) => int_arg(n, "particles", InvalidArgumentError::new_err, None)?,
            None => Belief::default().particles as i64,
        };
        let particles = usize::try_from(particles)
            .ok()
            .filter(|n| (1..=MAX_PARTICLES).contains(n))
            .ok_or_else(|| bad(&format!("particles must be from 1 to {MAX_PARTICLES}")))?;
        let config = IsmctsConfig {
            iterations,
            exploration,
            seed: seed.map_or(Ok(0), seed_arg)?,
            time_limit,
            rollout,
            threads,
            belief: Belief { model, particles },
            opponents,
        };
        Ok(config)
    }
}

#[pymethods]
impl PyState {
    /// The seat to decide, ``-1`` at a chance node (OpenSpiel's ``PlayerId.CHANCE``), or
    /// ``None`` once the game is over.
    #[getter]
    fn current_player(&self, py: Python<'_>) -> PyResult<Option<i64>> {
        let state = self.inner.borrow(py)?;
        if state.is_chance_node() {
            return Ok(Some(CHANCE_PLAYER));
        }
        Ok(state.current_player().map(|p| p as i64))
    }
    /// Whether the next step is a chance outcome to apply (``chance="explicit"``).
    #[getter]
    fn is_chance_node(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.inner.borrow(py)?.is_chance_node())
    }
    /// At a chance node, each possible outcome with its probability, sorted by outcome;
    /// elsewhere an ``InvalidArgumentError`` saying why.
    fn chance_outcomes(&self, py: Python<'_>) -> PyResult<Vec<(Action, f64)>> {
        let state = self.inner.borrow(py)?;
        guard(|| state.chance_outcomes())
    }
    /// The game's id.
    #[getter]
    fn game_name(&self, py: Python<'_>) -> PyResult<&'static str> {
        Ok(self.inner.borrow(py)?.game_name())
    }
    /// Number of seats.
    #[getter]
    fn num_players(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.inner.borrow(py)?.num_players())
    }
    /// Size of the action space.
    #[getter]
    fn num_actions(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.inner.borrow(py)?.num_actions())
    }
    /// The seed the game started from (``None`` for a determinized state).
    #[getter]
    fn seed(&self, py: Python<'_>) -> PyResult<Option<u64>> {
        Ok(self.inner.borrow(py)?.seed())
    }
    /// The legal actions, sorted (empty once the game is over).
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        action_list(py, self.inner.borrow(py)?.legal_actions())
    }
    /// A numpy bool array of ``num_actions``, true at the legal actions; with ``out`` (a
    /// C-contiguous bool array of that size) it is written there and returned.
    #[pyo3(signature = (out=None))]
    fn legal_action_mask<'py>(
        &self,
        py: Python<'py>,
        out: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let (n, legal) = {
            let state = self.inner.borrow(py)?;
            (state.num_actions(), *state.legal_actions())
        };
        let mut mask = [false; MAX_ACTIONS];
        for a in legal.iter() {
            if let Some(m) = mask.get_mut(a as usize) {
                *m = true;
            }
        }
        let Some(out) = out.filter(|o| !o.is_none()) else {
            return Ok(PyArray1::from_slice(py, &mask[..n.min(MAX_ACTIONS)]));
        };
        let bad = || {
            InvalidArgumentError::new_err(format!(
                "out must be a writable, C-contiguous bool array of {n} flags"
            ))
        };
        let array = out.cast::<PyArray1<bool>>().map_err(|_| bad())?;
        {
            let mut rw = array.try_readwrite().map_err(|_| bad())?;
            let buf = rw.as_slice_mut().map_err(|_| bad())?;
            if buf.len() != n {
                return Err(bad());
            }
            buf.copy_from_slice(&mask[..n]);
        }
        Ok(array.clone())
    }
    /// An independent copy.
    fn clone(&self, py: Python<'_>) -> PyResult<PyState> {
        let state = self.inner.borrow(py)?;
        Ok(PyState::new(self.game.clone(), state.clone_box()))
    }
    /// An independent copy (``copy.copy``).
    fn __copy__(&self, py: Python<'_>) -> PyResult<PyState> {
        self.clone(py)
    }
    /// An independent copy (``copy.deepcopy``).
    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> PyResult<PyState> {
        self.clone(py)
    }
    /// Per-seat returns (all zero until the end).
    fn returns(&self, py: Python<'_>) -> PyResult<Vec<f64>> {
        Ok(self.inner.borrow(py)?.returns())
    }
    /// Per-seat game points.
    fn scores(&self, py: Python<'_>) -> PyResult<Vec<i64>> {
        Ok(self.inner.borrow(py)?.scores())
    }
    /// How the game ended, a ``regalia.core.outcome.Outcome`` (why, the winners, the final
    /// scores, the tie-break that decided), or None while it runs. Public once over: it
    /// reveals nothing hidden beyond the final scores.
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let outcome = {
            let state = self.inner.borrow(py)?;
            guard(|| Ok(state.outcome()))?
        };
        let Some(o) = outcome else {
            return Ok(py.None().into_bound(py));
        };
        static OUTCOME: PyOnceLock<Py<PyType>> = PyOnceLock::new();
        let class = OUTCOME.import(py, "regalia.core.outcome", "Outcome")?;
        class.call1((
            o.reason,
            PyTuple::new(py, o.winners)?,
            PyTuple::new(py, o.scores)?,
            o.tie_break,
        ))
    }
    /// Every action played since the start.
    fn history(&self, py: Python<'_>) -> PyResult<Vec<Action>> {
        Ok(self.inner.borrow(py)?.history().to_vec())
    }
    /// The readable name of ``action``.
    fn action_name(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let state = self.inner.borrow(py)?;
        let a = action_arg(&**state, action)?;
        guard(|| state.action_name(a))
    }
    /// What ``action`` means, as a dict tagged by ``"kind"`` (see ``regalia.actions``).
    fn action_info<'py>(
        &self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let v = {
            let state = self.inner.borrow(py)?;
            let a = action_arg(&**state, action)?;
            guard(|| state.action_info(a))?
        };
        json_to_py(py, &v)
    }
    /// The action called ``text`` (exact name, or a unique prefix of a legal one).
    fn parse_action(&self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Action> {
        let state = self.inner.borrow(py)?;
        let text: String = text
            .extract()
            .map_err(|_| IllegalActionError::new_err("an action name must be a str"))?;
        guard(|| state.parse_action(&text))
    }
    /// Exactly what ``seat`` may see, as plain Python data.
    fn observation<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let v = {
            let state = self.inner.borrow(py)?;
            let seat = seat_arg(&**state, seat)?;
            guard(|| state.observation(seat))?
        };
        json_to_py(py, &v)
    }
    /// What ``seat`` may see as a float32 array of ``game.observation_shape``; with ``out``
    /// (a C-contiguous float32 array of that size) it is written there and returned.
    #[pyo3(signature = (seat, out=None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'py, PyAny>,
        out: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        let state = self.inner.borrow(py)?;
        let seat = seat_arg(&**state, seat)?;
        let array = match out {
            Some(a) if !a.is_none() => a
                .cast_into::<PyArrayDyn<f32>>()
                .map_err(|_| InvalidArgumentError::new_err("out must be a numpy float32 array"))?,
            _ => {
                let array = PyArrayDyn::<f32>::zeros(py, self.game.observation_shape(), false);
                // SAFETY: the array was just created and nothing else can see it yet.
                let buf = unsafe { array.as_slice_mut() }.map_err(not_contiguous)?;
                guard(|| state.observation_tensor(seat, buf))?;
                return Ok(array);
            }
        };
        {
            let mut rw = array
                .try_readwrite()
                .map_err(|_| InvalidArgumentError::new_err("out is not writable"))?;
            let buf = rw
                .as_slice_mut()
                .map_err(|_| InvalidArgumentError::new_err("out must be C-contiguous"))?;
            guard(|| state.observation_tensor(seat, buf))?;
        }
        Ok(array)
    }
    /// A full state consistent with what ``seat`` has seen, hidden cards resampled from ``seed``.
    fn determinize(
        &self,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
    ) -> PyResult<PyState> {
        let state = self.inner.borrow(py)?;
        let seat = seat_arg(&**state, seat)?;
        let seed = seed_arg(seed)?;
        let d = guard(|| state.determinize(seat, seed))?;
        Ok(PyState::new(self.game.clone(), d))
    }
    /// ISMCTS for the seat to move, from only what that seat may know: every iteration
    /// searches a world determinized for that seat, so calling it on the true state uses no
    /// hidden card. Returns the chosen action. Deterministic for a seed unless ``time_limit``
    /// (seconds) stops it early. ``rollout``: ``"heuristic"`` (the default: the game's cheap
    /// rollout policy, mixed with random moves, stopped early where the game says) or
    /// ``"random"`` (uniformly random moves to the end). ``threads`` (1 to 256) search at once,
    /// each its own tree from its own seed for its share of the iterations, their root
    /// statistics summed (deterministic for a seed and a thread count). ``belief``
    /// (``"none"``, the default; ``"uniform"`` or ``"rollout"``, games with
    /// ``chance="explicit"`` only) draws the worlds instead from a particle filter of
    /// ``particles`` worlds (default 64) that followed the game's history seeing only what
    /// the seat saw, weighing each opponent decision by that opponent model (uniformly random,
    /// or the game's rollout policy with a tremble). Explicit chance nodes inside the search
    /// are drawn by their probabilities. ``opponents``: how the other seats choose in the
    /// search, ``"search"`` (the default: each searches for itself), ``"rollout"`` (the game's
    /// rollout policy, so only this seat's choices are searched) or ``"first-legal"``. The GIL
    /// is released while it searches.
    #[pyo3(signature = (iterations=None, exploration=1.0, seed=None, time_limit=None, rollout=None, threads=None, belief=None, particles=None, opponents=None))]
    #[allow(clippy::too_many_arguments)]
    fn ismcts(
        &self,
        py: Python<'_>,
        iterations: Option<&Bound<'_, PyAny>>,
        exploration: f64,
        seed: Option<&Bound<'_, PyAny>>,
        time_limit: Option<f64>,
        rollout: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
        belief: Option<&Bound<'_, PyAny>>,
        particles: Option<&Bound<'_, PyAny>>,
        opponents: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Action> {
        Ok(self
            .search(
                py,
                SearchArgs {
                    iterations,
                    exploration,
                    seed,
                    time_limit,
                    rollout,
                    threads,
                    belief,
                    particles,
                    opponents,
                },
            )?
            .action)
    }
    /// The same search as ``ismcts``, with what it found: a dict of ``action``, ``iterations``
    /// and, per legal action, ``visits`` and ``values`` (mean return for the seat to move).
    #[pyo3(signature = (iterations=None, exploration=1.0, seed=None, time_limit=None, rollout=None, threads=None, belief=None, particles=None, opponents=None))]
    #[allow(clippy::too_many_arguments)]
    fn ismcts_search<'py>(
        &self,
        py: Python<'py>,
        iterations: Option<&Bound<'py, PyAny>>,
        exploration: f64,
        seed: Option<&Bound<'py, PyAny>>,
        time_limit: Option<f64>,
        rollout: Option<&Bound<'py, PyAny>>,
        threads: Option<&Bound<'py, PyAny>>,
        belief: Option<&Bound<'py, PyAny>>,
        particles: Option<&Bound<'py, PyAny>>,
        opponents: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let r = self.search(
            py,
            SearchArgs {
                iterations,
                exploration,
                seed,
                time_limit,
                rollout,
                threads,
                belief,
                particles,
                opponents,
            },
        )?;
        let (visits, values) = (PyDict::new(py), PyDict::new(py));
        for s in &r.root {
            visits.set_item(s.action, s.visits)?;
            values.set_item(s.action, s.mean)?;
        }
        let d = PyDict::new(py);
        d.set_item("action", r.action)?;
        d.set_item("iterations", r.iterations)?;
        d.set_item("visits", visits)?;
        d.set_item("values", values)?;
        Ok(d)
    }
    /// Duo Regna's equilibrium at this state (see ``regalia.theory.solver.policy``).
    fn solver_policy<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let solver = slf.py().import("regalia.theory.solver")?;
        solver.call_method1("policy", (slf,))
    }
    /// The saved form (JSON text), generator included: ``game.state_from_json`` reads it.
    fn to_json(&self, py: Python<'_>) -> PyResult<String> {
        Ok(self.inner.borrow(py)?.to_json())
    }
    /// The same position (game, options and history) as ``other``, a ``State``.
    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(other) = other.cast::<PyState>() else {
            return Ok(false);
        };
        let (mine, theirs) = (self.inner.borrow(py)?, other.get().inner.borrow(py)?);
        Ok(theirs.same_as(&**mine))
    }
    /// The game, how many actions were played and who is to act.
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let state = self.inner.borrow(py)?;
        let who = match state.current_player() {
            Some(p) => format!("seat {p} to act"),
            None if state.is_chance_node() => "a chance node".into(),
            None => "over".into(),
        };
        Ok(format!(
            "<State {} after {} actions, {who}>",
            state.game_name(),
            state.history().len()
        ))
    }
    /// Pickles through the JSON save format.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((
            py.import("regalia._core")?.getattr("load_state")?,
            (self.inner.borrow(py)?.to_json(),),
        ))
    }
    /// ``seat``'s perfect-recall information state as text: ``seat N``, then what it saw
    /// (each new observation, as JSON) and what it played, one a line, from the start.
    fn information_state_string(
        &self,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
    ) -> PyResult<String> {
        let state = self.inner.borrow(py)?;
        let seat = seat_arg(&**state, seat)?;
        guard(|| state.information_state_string(seat))
    }
    /// The same as a float32 array of ``game.information_state_shape(slots)``: the count of
    /// older entries left out, then the newest ``slots`` entries of the record
    /// (``slots="all"``: as many as the game's longest record, so none is left out).
    #[pyo3(signature = (seat, slots=None))]
    fn information_state_tensor<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'py, PyAny>,
        slots: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let state = self.inner.borrow(py)?;
        let seat = seat_arg(&**state, seat)?;
        let slots = slots_arg(slots, &*self.game)?;
        let mut out = vec![0.0; self.game.information_state_size(slots)];
        guard(|| state.information_state_tensor(seat, &mut out))?;
        Ok(PyArray1::from_vec(py, out))
    }
}

/// Every action id as a Python int, made once: a legal list shares them, where CPython would
/// make a new int object for each id above its small-int cache (256) at every call.
fn action_ints(py: Python<'_>) -> &[Py<PyInt>; MAX_ACTIONS] {
    static INTS: PyOnceLock<[Py<PyInt>; MAX_ACTIONS]> = PyOnceLock::new();
    INTS.get_or_init(py, || std::array::from_fn(|a| PyInt::new(py, a).unbind()))
}

/// `actions` as a new Python list of the shared ints of [`action_ints`], made at its
/// length and filled in place (the hot path of every Python loop over a game).
fn action_list<'py>(py: Python<'py>, actions: &ActionSet) -> PyResult<Bound<'py, PyList>> {
    let ints = action_ints(py);
    let words = actions.words();
    let len: u32 = words.iter().map(|w| w.count_ones()).sum();
    // SAFETY: `PyList_New` returns a new reference to a list (or null with an exception
    // set, which `from_owned_ptr_or_err` turns into the error).
    let list = unsafe {
        Bound::from_owned_ptr_or_err(py, ffi::PyList_New(len as ffi::Py_ssize_t))?
            .cast_into_unchecked::<PyList>()
    };
    // Word by word, bit by bit: an action `64 * w + b` is below `MAX_ACTIONS`, so indexing
    // `ints` needs no check, and the bits counted above are the list's `len` places.
    let mut at: ffi::Py_ssize_t = 0;
    for (w, &word) in words.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let int = ints[64 * w + bits.trailing_zeros() as usize].clone_ref(py);
            bits &= bits - 1;
            // SAFETY: `at < len`, and `PyList_SetItem` takes over the reference `int`; it
            // cannot fail for an index in range of a list.
            unsafe { ffi::PyList_SetItem(list.as_ptr(), at, int.into_ptr()) };
            at += 1;
        }
    }
    Ok(list)
}

/// The number of record entries an information-state tensor of `game` keeps (default
/// [`DEFAULT_SLOTS`], at most [`MAX_SLOTS`]; [`WHOLE_RECORD`]: the game's whole record).
pub fn slots_arg(slots: Option<&Bound<'_, PyAny>>, game: &dyn DynGame) -> PyResult<usize> {
    let Some(slots) = slots.filter(|s| !s.is_none()) else {
        return Ok(DEFAULT_SLOTS);
    };
    if slots.extract::<String>().is_ok_and(|s| s == WHOLE_RECORD) {
        let name = game.info().name;
        let whole = game.whole_record_slots().ok_or_else(|| {
            InvalidArgumentError::new_err(format!(
                "{name} with these options has no known bound on its histories, so no tensor holds every record: give slots as a number"
            ))
        })?;
        if whole > MAX_SLOTS {
            return Err(InvalidArgumentError::new_err(format!(
                "{name} with these options has records of up to {whole} entries, more than a tensor may keep ({MAX_SLOTS}): give slots as a number"
            )));
        }
        return Ok(whole);
    }
    let n = count_arg(slots, "slots", 1)?;
    usize::try_from(n)
        .ok()
        .filter(|&n| n <= MAX_SLOTS)
        .ok_or_else(|| InvalidArgumentError::new_err(format!("slots must be at most {MAX_SLOTS}")))
}

/// The `slots` argument that asks for a seat's whole record.
pub const WHOLE_RECORD: &str = "all";

/// The most record entries an information-state tensor may keep.
pub const MAX_SLOTS: usize = 1 << 16;

/// Reads any game's saved state (game and options taken from the file).
pub fn load_any(text: &str) -> PyResult<PyState> {
    let (game, inner) = guard(|| regalia_engine::load_state(text))?;
    Ok(PyState::new(game, inner))
}
