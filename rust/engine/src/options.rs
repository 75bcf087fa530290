//! Reading a game's options from a JSON object, with messages that say what is allowed.
//!
//! Every game declares its options once, in its [`GameInfo`](crate::GameInfo); a reader
//! checks each value as the game asks for it and, at the end, refuses any name the game
//! did not ask for.

use crate::error::{Error, Result};
use serde_json::{Map, Value};

/// The options given by the user: a JSON object.
pub type Options = Map<String, Value>;

/// One option a game accepts, as listed by `regalia.games()`.
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    /// The option's name, as passed to `make`.
    pub name: &'static str,
    /// The default, as a JSON literal (`null` when it depends on other options).
    pub default: &'static str,
    /// One line on what it does and which values are allowed.
    pub help: &'static str,
}

/// Takes options out of the user's object one by one, validating each.
pub struct OptionReader<'a> {
    game: &'static str,
    given: &'a Options,
    allowed: &'static [OptionSpec],
    read: Vec<&'static str>,
}

impl<'a> OptionReader<'a> {
    /// A reader over `given` for the game named `game` that accepts `allowed`.
    pub fn new(game: &'static str, given: &'a Options, allowed: &'static [OptionSpec]) -> Self {
        OptionReader {
            game,
            given,
            allowed,
            read: Vec::new(),
        }
    }

    /// The value given for `name`, `None` when absent. `null` stands for the default only
    /// where the default itself is `null`; elsewhere it is returned, to be refused as a
    /// value of the wrong type (so that `players=None` never silently means 2).
    fn take(&mut self, name: &'static str) -> Option<&'a Value> {
        self.read.push(name);
        let null_is_default = self
            .allowed
            .iter()
            .any(|o| o.name == name && o.default == "null");
        self.given
            .get(name)
            .filter(|v| !(v.is_null() && null_is_default))
    }

    fn bad(&self, name: &str, want: &str, got: &Value) -> Error {
        Error::InvalidOption(format!(
            "{}: option '{name}' must be {want}, got {got}",
            self.game
        ))
    }

    /// An integer in `min..=max`, or `default` when absent.
    pub fn integer(&mut self, name: &'static str, default: i64, min: i64, max: i64) -> Result<i64> {
        match self.take(name) {
            None => Ok(default),
            Some(v) => match v.as_i64() {
                Some(n) if (min..=max).contains(&n) && !v.is_boolean() => Ok(n),
                _ => Err(self.bad(name, &format!("an integer from {min} to {max}"), v)),
            },
        }
    }

    /// A boolean, or `default` when absent.
    pub fn boolean(&mut self, name: &'static str, default: bool) -> Result<bool> {
        match self.take(name) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(v) => Err(self.bad(name, "true or false", v)),
        }
    }

    /// One of `choices`, or `default` when absent.
    pub fn choice(
        &mut self,
        name: &'static str,
        default: &'static str,
        choices: &'static [&'static str],
    ) -> Result<&'static str> {
        match self.take(name) {
            None => Ok(default),
            Some(v) => v
                .as_str()
                .and_then(|s| choices.iter().copied().find(|c| *c == s))
                .ok_or_else(|| self.bad(name, &format!("one of {choices:?}"), v)),
        }
    }

    /// A list of exactly `len` integers each in `min..=max`, or `default` when absent.
    pub fn integer_list(
        &mut self,
        name: &'static str,
        default: &[i64],
        len: usize,
        min: i64,
        max: i64,
    ) -> Result<Vec<i64>> {
        let Some(v) = self.take(name) else {
            return Ok(default.to_vec());
        };
        let want = format!("a list of {len} integers from {min} to {max}");
        let items = v
            .as_array()
            .filter(|a| a.len() == len)
            .ok_or_else(|| self.bad(name, &want, v))?;
        items
            .iter()
            .map(|x| match x.as_i64() {
                Some(n) if (min..=max).contains(&n) && !x.is_boolean() => Ok(n),
                _ => Err(self.bad(name, &want, v)),
            })
            .collect()
    }

    /// A raw JSON value, or `None` when absent (for structured options such as card sets).
    pub fn raw(&mut self, name: &'static str) -> Option<&'a Value> {
        self.take(name)
    }

    /// An error about option `name` (for checks that span several options).
    pub fn error(&self, name: &str, message: &str) -> Error {
        Error::InvalidOption(format!("{}: option '{name}' {message}", self.game))
    }

    /// Refuses every option that was given but never read.
    pub fn finish(self) -> Result<()> {
        for key in self.given.keys() {
            if !self.read.iter().any(|r| r == key) {
                let names: Vec<&str> = self.allowed.iter().map(|o| o.name).collect();
                return Err(Error::InvalidOption(format!(
                    "{}: unknown option '{key}'; allowed: {}",
                    self.game,
                    names.join(", ")
                )));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const SPECS: &[OptionSpec] = &[
        OptionSpec {
            name: "n",
            default: "3",
            help: "",
        },
        OptionSpec {
            name: "t",
            default: "null",
            help: "",
        },
    ];

    fn opts(v: Value) -> Options {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn reads_validates_and_refuses_unknown() {
        let o = opts(json!({"n": 5}));
        let mut r = OptionReader::new("g", &o, SPECS);
        assert_eq!(r.integer("n", 3, 1, 9).unwrap(), 5);
        r.finish().unwrap();

        let o = opts(json!({"n": 50}));
        let mut r = OptionReader::new("g", &o, SPECS);
        assert!(matches!(
            r.integer("n", 3, 1, 9),
            Err(Error::InvalidOption(_))
        ));

        let o = opts(json!({"n": true}));
        let mut r = OptionReader::new("g", &o, SPECS);
        assert!(r.integer("n", 3, 1, 9).is_err());

        // null is the default only where the default is null.
        let o = opts(json!({"n": null, "t": null}));
        let mut r = OptionReader::new("g", &o, SPECS);
        let e = r.integer("n", 3, 1, 9).unwrap_err().to_string();
        assert!(
            e.contains("must be an integer from 1 to 9, got null"),
            "{e}"
        );
        assert_eq!(r.integer("t", 4, 1, 9).unwrap(), 4);

        let o = opts(json!({"m": 1}));
        let mut r = OptionReader::new("g", &o, SPECS);
        r.integer("n", 3, 1, 9).unwrap();
        let e = r.finish().unwrap_err().to_string();
        assert!(
            e.contains("unknown option 'm'") && e.contains("allowed: n"),
            "{e}"
        );
    }
}
