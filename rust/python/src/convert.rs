//! Converting arguments from Python and JSON values to Python objects.

use crate::errors::{InvalidArgumentError, InvalidOptionError, Raise};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use regalia_engine::Options;
use serde_json::{Map, Number, Value};
use std::time::{Duration, Instant};

/// An integer argument (anything with `__index__`, but not a bool), or `raise`d: an
/// integer too large for 64 bits is out of range (`below`: the allowed values are `0..below`,
/// said in the message; it is written only on an error, since moves pass here at every step).
pub fn int_arg(
    obj: &Bound<'_, PyAny>,
    what: &str,
    raise: Raise,
    below: Option<usize>,
) -> PyResult<i64> {
    if obj.is_instance_of::<PyBool>() {
        return Err(raise(format!("{what} must be an int, not a bool")));
    }
    obj.extract::<i64>().map_err(|_| {
        let shown = obj
            .repr()
            .map(|r| r.to_string())
            .unwrap_or_else(|_| "?".into());
        if obj.call_method0("__index__").is_ok() {
            let range = below.map_or(String::new(), |n| format!(" 0..{n}"));
            raise(format!("{what} {shown} is out of range{range}"))
        } else {
            raise(format!("{what} must be an int, got {shown}"))
        }
    })
}

/// A count: an integer from `min` to `i64::MAX`, or `InvalidArgumentError`.
pub fn count_arg(obj: &Bound<'_, PyAny>, what: &str, min: i64) -> PyResult<u64> {
    let n = int_arg(obj, what, InvalidArgumentError::new_err, None)?;
    if n < min {
        return Err(InvalidArgumentError::new_err(format!(
            "{what} must be at least {min}, got {n}"
        )));
    }
    Ok(n as u64)
}

/// The moment a run given ``seconds`` (None: no limit; else a finite number >= 0) must
/// stop, or `InvalidArgumentError`.
pub fn deadline_arg(seconds: Option<f64>) -> PyResult<Option<Instant>> {
    match seconds {
        None => Ok(None),
        Some(s) if s.is_finite() && s >= 0.0 => {
            Ok(Some(Instant::now() + Duration::from_secs_f64(s.min(1e9))))
        }
        Some(_) => Err(InvalidArgumentError::new_err(
            "seconds must be None or a number >= 0",
        )),
    }
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

/// Game options given as a Python dict (str keys, plain JSON-like values), or
/// `InvalidOptionError` naming the first value that is not one.
pub fn options_arg(options: Option<&Bound<'_, PyDict>>) -> PyResult<Options> {
    let mut map = Map::new();
    for (key, value) in options.into_iter().flat_map(|d| d.iter()) {
        let Ok(key) = key.extract::<String>() else {
            return Err(InvalidOptionError::new_err("option names must be str"));
        };
        let value = py_to_json(&value, MAX_DEPTH).map_err(|what| {
            InvalidOptionError::new_err(format!(
                "option {key:?} must be a plain value (int, float, bool, str, None, lists \
                 and dicts of them), got {what}"
            ))
        })?;
        map.insert(key, value);
    }
    Ok(map)
}

/// The deepest nesting of lists and dicts accepted in options (as for saved JSON).
const MAX_DEPTH: usize = 127;

/// A plain Python value (None, bool, int, finite float, str, list/tuple, dict with str keys),
/// nested at most `depth` levels, as JSON; otherwise a description of the first value that is
/// not one.
pub fn py_to_json(obj: &Bound<'_, PyAny>, depth: usize) -> Result<Value, String> {
    let shown = || {
        obj.repr()
            .map(|r| r.to_string())
            .unwrap_or_else(|_| "?".into())
    };
    let nested = obj.is_instance_of::<PyList>()
        || obj.is_instance_of::<PyTuple>()
        || obj.is_instance_of::<PyDict>();
    if nested && depth == 0 {
        return Err(format!("lists and dicts nested more than {MAX_DEPTH} deep"));
    }
    if obj.is_none() {
        Ok(Value::Null)
    } else if let Ok(b) = obj.cast::<PyBool>() {
        Ok(Value::Bool(b.is_true()))
    } else if obj.is_instance_of::<PyInt>() {
        match (obj.extract::<i64>(), obj.extract::<u64>()) {
            (Ok(i), _) => Ok(Value::from(i)),
            (_, Ok(u)) => Ok(Value::from(u)),
            _ => Err(shown()),
        }
    } else if let Ok(f) = obj.cast::<PyFloat>() {
        Number::from_f64(f.value())
            .map(Value::Number)
            .ok_or_else(shown)
    } else if let Ok(s) = obj.cast::<PyString>() {
        Ok(Value::String(s.to_string()))
    } else if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let mut items = Vec::new();
        for item in obj.try_iter().map_err(|_| shown())? {
            items.push(py_to_json(&item.map_err(|_| shown())?, depth - 1)?);
        }
        Ok(Value::Array(items))
    } else if let Ok(d) = obj.cast::<PyDict>() {
        let mut map = Map::new();
        for (k, v) in d.iter() {
            let k = k.extract::<String>().map_err(|_| shown())?;
            map.insert(k, py_to_json(&v, depth - 1)?);
        }
        Ok(Value::Object(map))
    } else {
        Err(shown())
    }
}
