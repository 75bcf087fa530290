//! Engine errors and panics as the Python exceptions of `regalia.errors`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyType;
use regalia_engine::Error;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Raises the `regalia.errors` class called `class` with `message`.
pub fn raise(class: &str, message: String) -> PyErr {
    Python::attach(|py| {
        let cls = py
            .import("regalia.errors")
            .and_then(|m| m.getattr(class))
            .and_then(|c| c.cast_into::<PyType>().map_err(PyErr::from));
        match cls {
            Ok(cls) => PyErr::from_type(cls, message),
            Err(_) => PyValueError::new_err(message),
        }
    })
}

/// The error for an array made by the binding that is not contiguous (a bug, never expected).
pub fn not_contiguous<E>(_: E) -> PyErr {
    raise(
        "RegaliaError",
        "internal error: an output array is not contiguous".into(),
    )
}

/// The Python exception for an engine error.
pub fn to_py(e: Error) -> PyErr {
    let class = match &e {
        Error::IllegalAction(_) => "IllegalActionError",
        Error::InvalidOption(_) => "InvalidOptionError",
        Error::InvalidState(_) => "InvalidStateError",
        Error::InvalidArgument(_) => "InvalidArgumentError",
    };
    raise(class, e.to_string())
}

/// Runs engine code so that a panic (a bug) becomes a `RegaliaError`, never a crash.
pub fn guard<T>(f: impl FnOnce() -> Result<T, Error>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r.map_err(to_py),
        Err(p) => {
            let what = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(raise(
                "RegaliaError",
                format!("internal error in the engine (please report it): {what}"),
            ))
        }
    }
}
