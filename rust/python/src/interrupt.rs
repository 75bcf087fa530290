//! Long native work that runs without the GIL and that Ctrl-C stops.

use crate::convert::{count_arg, deadline_arg};
use crate::errors::{guard, panic_error};
use pyo3::prelude::*;
use regalia_engine::Error;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How often the waiting thread looks for a signal (Ctrl-C) while the work runs.
const POLL: Duration = Duration::from_millis(20);

/// Runs `work` on a helper thread with the GIL released, while this thread checks for signals
/// every [`POLL`]. On Ctrl-C (or any signal handler that raises) it sets the flag `work` is
/// given, waits for `work` to return and raises that exception. Engine errors and panics
/// become `regalia.errors` exceptions as in [`guard`].
pub fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&AtomicBool) -> Result<T, Error> + Send,
) -> PyResult<T> {
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (done_tx, done_rx) = mpsc::channel::<()>();
        let stop = &stop;
        let worker = scope.spawn(move || {
            let result = guard(|| work(stop));
            let _ = done_tx.send(());
            result
        });
        let done = Mutex::new(done_rx);
        let mut interrupted = None;
        loop {
            let finished = py.detach(|| lock(&done).recv_timeout(POLL).is_ok());
            if finished || worker.is_finished() {
                break;
            }
            if interrupted.is_none() {
                if let Err(e) = py.check_signals() {
                    stop.store(true, Ordering::Relaxed);
                    interrupted = Some(e);
                }
            }
        }
        let result = py
            .detach(|| worker.join())
            .unwrap_or_else(|p| Err(panic_error(p)));
        match interrupted {
            Some(e) => Err(e),
            None => result,
        }
    })
}

/// Locks, ignoring poisoning (the receiver holds no state that a panic could break).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A training run's ``run(iterations, seconds=None)``: checks both, then runs `work` (given
/// the iterations, the deadline and the stop flag; it returns how many ran) as in
/// [`interruptible`].
pub fn run_iterations(
    py: Python<'_>,
    iterations: &Bound<'_, PyAny>,
    seconds: Option<f64>,
    work: impl FnOnce(u64, Option<Instant>, &AtomicBool) -> u64 + Send,
) -> PyResult<u64> {
    let iterations = count_arg(iterations, "iterations", 0)?;
    let deadline = deadline_arg(seconds)?;
    interruptible(py, move |stop| Ok(work(iterations, deadline, stop)))
}
