//! Engine errors and panics as the Python exceptions of `regalia.errors`.

use pyo3::prelude::*;
use regalia_engine::Error;
use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

// The exceptions of `regalia.errors`, imported once: each has `new_err(message)`.
pyo3::import_exception!(regalia.core.errors, RegaliaError);
pyo3::import_exception!(regalia.core.errors, IllegalActionError);
pyo3::import_exception!(regalia.core.errors, InvalidOptionError);
pyo3::import_exception!(regalia.core.errors, InvalidStateError);
pyo3::import_exception!(regalia.core.errors, InvalidArgumentError);

/// How to raise one of those classes with a message (e.g. `InvalidStateError::new_err`).
pub type Raise = fn(String) -> PyErr;

/// The error for an array made by the binding that is not contiguous (a bug, never expected).
pub fn not_contiguous<E>(_: E) -> PyErr {
    RegaliaError::new_err("internal error: an output array is not contiguous")
}

/// The Python exception for an engine error.
pub fn to_py(e: Error) -> PyErr {
    let message = e.to_string();
    match e {
        Error::IllegalAction(_) => IllegalActionError::new_err(message),
        Error::InvalidOption(_) => InvalidOptionError::new_err(message),
        Error::InvalidState(_) => InvalidStateError::new_err(message),
        Error::InvalidArgument(_) => InvalidArgumentError::new_err(message),
    }
}

/// Runs engine code so that a panic (a bug) becomes a `RegaliaError`, never a crash.
pub fn guard<T>(f: impl FnOnce() -> Result<T, Error>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r.map_err(to_py),
        Err(p) => Err(panic_error(p)),
    }
}

/// The `RegaliaError` for a caught panic, with its message.
pub fn panic_error(payload: Box<dyn Any + Send>) -> PyErr {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    RegaliaError::new_err(format!(
        "internal error in the engine (please report it): {what}"
    ))
}
