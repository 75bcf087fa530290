//! Converting arguments from Python and JSON values to Python objects.

use crate::errors::{InvalidArgumentError, Raise};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList};
use serde_json::Value;

/// An integer argument (anything with `__index__`, but not a bool), or `raise`d: an
/// integer too large for 64 bits is out of range (`range`, e.g. `" 0..156"`, says which
/// values are allowed, or is empty).
pub fn int_arg(obj: &Bound<'_, PyAny>, what: &str, raise: Raise, range: &str) -> PyResult<i64> {
    if obj.is_instance_of::<PyBool>() {
        return Err(raise(format!("{what} must be an int, not a bool")));
    }
    obj.extract::<i64>().map_err(|_| {
        let shown = obj
            .repr()
            .map(|r| r.to_string())
            .unwrap_or_else(|_| "?".into());
        if obj.call_method0("__index__").is_ok() {
            raise(format!("{what} {shown} is out of range{range}"))
        } else {
            raise(format!("{what} must be an int, got {shown}"))
        }
    })
}

/// A count: an integer from `min` to `i64::MAX`, or `InvalidArgumentError`.
pub fn count_arg(obj: &Bound<'_, PyAny>, what: &str, min: i64) -> PyResult<u64> {
    let n = int_arg(obj, what, InvalidArgumentError::new_err, "")?;
    if n < min {
        return Err(InvalidArgumentError::new_err(format!(
            "{what} must be at least {min}, got {n}"
        )));
    }
    Ok(n as u64)
}

/// A text argument (saved JSON), or `raise`d for anything that is not a str.
pub fn text_arg(obj: &Bound<'_, PyAny>, what: &str, raise: Raise) -> PyResult<String> {
    obj.extract::<String>()
        .map_err(|_| raise(format!("{what} must be a str")))
}

/// A seed: an integer in `[0, 2**64)`.
pub fn seed_arg(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    if obj.is_instance_of::<PyBool>() {
        return Err(InvalidArgumentError::new_err(
            "seed must be an int, not a bool",
        ));
    }
    obj.extract::<u64>()
        .map_err(|_| InvalidArgumentError::new_err("seed must be an integer in [0, 2**64)"))
}

/// A JSON value as plain Python objects (dict, list, str, int, float, bool, None).
pub fn json_to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, item) in map {
                dict.set_item(k, json_to_py(py, item)?)?;
            }
            dict.into_any()
        }
    })
}
