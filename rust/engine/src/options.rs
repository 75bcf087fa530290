//! A game's options, declared once: a typed struct (serde) whose fields carry their default,
//! the values they accept and a line of help, written with `declare_options!`.
//!
//! From that one declaration come the validation of the user's options ([`read`]), the
//! options echoed back with defaults filled in ([`echo`]) and the `regalia.games()` listing
//! ([`GameOptions::SPECS`] and [`GameOptions::defaults`]) and the options a saved game
//! means ([`saved`]). Checks that span several options
//! (and defaults that depend on other options, declared as `Option<T>` with default `None`)
//! stay with the game, in its `from_options`.

use crate::error::{Error, Result};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Map, Value};

/// The options given by the user: a JSON object.
pub type Options = Map<String, Value>;

/// Which values an option accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Allowed {
    /// An integer in `min..=max`.
    Integer {
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// `true` or `false`.
    Boolean,
    /// One of these strings.
    Choice(&'static [&'static str]),
    /// A list of exactly `len` integers, each in `min..=max`.
    IntegerList {
        /// Number of items.
        len: usize,
        /// Smallest item.
        min: i64,
        /// Largest item.
        max: i64,
    },
    /// Structured data that the game checks itself (e.g. a card set).
    Data,
}

impl Allowed {
    /// Whether `v` is one of the accepted values.
    pub fn accepts(&self, v: &Value) -> bool {
        let integer_in = |v: &Value, min: i64, max: i64| {
            !v.is_boolean() && v.as_i64().is_some_and(|n| (min..=max).contains(&n))
        };
        match *self {
            Allowed::Integer { min, max } => integer_in(v, min, max),
            Allowed::Boolean => v.is_boolean(),
            Allowed::Choice(choices) => v.as_str().is_some_and(|s| choices.contains(&s)),
            Allowed::IntegerList { len, min, max } => v
                .as_array()
                .is_some_and(|a| a.len() == len && a.iter().all(|x| integer_in(x, min, max))),
            Allowed::Data => true,
        }
    }

    /// The accepted values in words, as error messages say them.
    pub fn describe(&self) -> String {
        match *self {
            Allowed::Integer { min, max } => format!("an integer from {min} to {max}"),
            Allowed::Boolean => "true or false".into(),
            Allowed::Choice(choices) => format!("one of {choices:?}"),
            Allowed::IntegerList { len, min, max } => {
                format!("a list of {len} integers from {min} to {max}")
            }
            Allowed::Data => "data the game checks".into(),
        }
    }

    /// The accepted values as the listing gives them, e.g. `{"type": "integer", "min": 1, "max": 64}`.
    pub fn to_json(&self) -> Value {
        match *self {
            Allowed::Integer { min, max } => json!({"type": "integer", "min": min, "max": max}),
            Allowed::Boolean => json!({"type": "boolean"}),
            Allowed::Choice(choices) => json!({"type": "choice", "choices": choices}),
            Allowed::IntegerList { len, min, max } => {
                json!({"type": "integer_list", "length": len, "min": min, "max": max})
            }
            Allowed::Data => json!({"type": "data"}),
        }
    }
}

/// One option a game accepts: a field of its options struct.
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    /// The option's name, as passed to `make` (the field's name).
    pub name: &'static str,
    /// The values it accepts.
    pub allowed: Allowed,
    /// One line on what it does.
    pub help: &'static str,
    /// For an option added after saves of the game were first written: the value (as JSON)
    /// that plays as those older saves, which lack it, were played. `None` for an option
    /// every save has.
    pub saved_default: Option<fn() -> Value>,
}

/// What `regalia.games()` lists about a game: its names, and its seats and options as its
/// options struct declares them (built by [`GameInfo::of`], next to the
/// [`Game`](crate::game::Game) trait it reads).
#[derive(Clone, Copy, Debug)]
pub struct GameInfo {
    /// The id used by `make`, e.g. `"duo-regna"`.
    pub name: &'static str,
    /// The title as printed on the box.
    pub title: &'static str,
    /// Other names `make` accepts.
    pub aliases: &'static [&'static str],
    /// Fewest seats (the smallest `players`).
    pub min_players: usize,
    /// Most seats (the largest `players`).
    pub max_players: usize,
    /// Every option, `players` first (the game's [`GameOptions`] declaration).
    pub options: &'static [OptionSpec],
    /// Every option's default (`null` where it depends on other options).
    pub defaults: fn() -> Options,
}

/// A game's typed options, declared with `declare_options!`.
pub trait GameOptions: Clone + Default + Serialize + DeserializeOwned {
    /// Every option, in the order the listing gives them (`players` first).
    const SPECS: &'static [OptionSpec];
    /// Fewest seats: the smallest value `players` accepts.
    const MIN_PLAYERS: usize;
    /// Most seats: the largest value `players` accepts.
    const MAX_PLAYERS: usize;

    /// Number of seats (every game has the option `players`).
    fn players(&self) -> usize;

    /// Every option's default (`null` where it depends on other options).
    fn defaults() -> Options {
        echo(&Self::default())
    }
}

/// Declares a game's options struct once: each field with its type, default, accepted
/// values ([`Allowed`]) and help line, and for an option added after saves were written,
/// `saved_default = VALUE` (what those saves were played with). Generates the struct
/// (serde), its `Default` and its [`GameOptions`] table. Every game declares
/// `players: usize` first, as an integer range: the game's seats.
macro_rules! declare_options {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            players: usize = $players:expr,
                Allowed::Integer { min: $min_players:expr, max: $max_players:expr },
                $players_help:literal;
            $( $field:ident : $ty:ty = $default:expr, $allowed:expr, $help:literal
               $(, saved_default = $saved:expr)?; )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            #[doc = $players_help]
            pub players: usize,
            $( #[doc = $help] pub $field: $ty, )*
        }

        impl Default for $name {
            fn default() -> Self {
                $name { players: $players, $( $field: $default, )* }
            }
        }

        impl $crate::options::GameOptions for $name {
            const MIN_PLAYERS: usize = $min_players as usize;
            const MAX_PLAYERS: usize = $max_players as usize;
            const SPECS: &'static [$crate::options::OptionSpec] = &[
                $crate::options::OptionSpec {
                    name: "players",
                    allowed: $crate::options::Allowed::Integer {
                        min: $min_players as i64,
                        max: $max_players as i64,
                    },
                    help: $players_help,
                    saved_default: None,
                },
                $( $crate::options::OptionSpec {
                    name: stringify!($field),
                    allowed: $allowed,
                    help: $help,
                    saved_default: $crate::options::declare_options!(@saved $ty $(, $saved)?),
                }, )*
            ];

            fn players(&self) -> usize {
                self.players
            }
        }
    };
    (@saved $ty:ty) => { None };
    (@saved $ty:ty, $saved:expr) => {
        Some(|| serde_json::to_value::<$ty>($saved).unwrap_or(serde_json::Value::Null))
    };
}
pub(crate) use declare_options;

/// The typed options of the game called `game` from the user's `given` ones: every value
/// checked against its declaration (in declaration order), then any unknown name refused.
/// `null` stands for the default only where the default itself is `null`; elsewhere it is
/// refused as a value of the wrong type (so that `players=None` never silently means 2).
pub fn read<O: GameOptions>(game: &str, given: &Options) -> Result<O> {
    let mut full = O::defaults();
    for spec in O::SPECS {
        let default_is_null = full.get(spec.name).is_none_or(Value::is_null);
        match given.get(spec.name) {
            None => {}
            Some(v) if v.is_null() && default_is_null => {}
            Some(v) if spec.allowed.accepts(v) => {
                full.insert(spec.name.to_string(), v.clone());
            }
            Some(v) => {
                return Err(Error::InvalidOption(format!(
                    "{game}: option '{}' must be {}, got {v}",
                    spec.name,
                    spec.allowed.describe()
                )))
            }
        }
    }
    if let Some(key) = given
        .keys()
        .find(|k| !O::SPECS.iter().any(|s| s.name == *k))
    {
        let names: Vec<&str> = O::SPECS.iter().map(|s| s.name).collect();
        return Err(Error::InvalidOption(format!(
            "{game}: unknown option '{key}'; allowed: {}",
            names.join(", ")
        )));
    }
    serde_json::from_value(Value::Object(full))
        .map_err(|e| Error::InvalidOption(format!("{game}: {e}")))
}

/// The options a saved game means: its own `saved` ones, with the `saved_default` of every
/// option in `specs` that it lacks.
pub fn saved(specs: &[OptionSpec], saved: &Options) -> Options {
    let mut options = saved.clone();
    for spec in specs {
        if let Some(value) = spec.saved_default {
            options.entry(spec.name).or_insert_with(value);
        }
    }
    options
}

/// The options as a JSON object, every field present.
pub fn echo<O: Serialize>(options: &O) -> Options {
    match serde_json::to_value(options) {
        Ok(Value::Object(map)) => map,
        _ => Options::new(),
    }
}

/// The options of a game as `regalia.games()` lists them: name, default, help, the
/// accepted values (see [`Allowed::to_json`]) and, where declared, the saved default.
pub fn listing(info: &GameInfo) -> Value {
    let defaults = (info.defaults)();
    info.options
        .iter()
        .map(|o| {
            let mut entry = json!({
                "name": o.name,
                "default": defaults.get(o.name).cloned().unwrap_or(Value::Null),
                "help": o.help,
                "allowed": o.allowed.to_json(),
            });
            if let (Some(saved), Value::Object(map)) = (o.saved_default, &mut entry) {
                map.insert("saved_default".into(), saved());
            }
            entry
        })
        .collect()
}

/// An error about option `name` of `game` (for checks that span several options).
pub fn invalid(game: &str, name: &str, message: &str) -> Error {
    Error::InvalidOption(format!("{game}: option '{name}' {message}"))
}

/// Checks a declaration against itself: the fields are the specs, in order; the defaults
/// and saved defaults are accepted; every integer bound and choice fits the field's type. Every game's options
/// are tested with it.
#[cfg(test)]
pub fn assert_sound<O: GameOptions + std::fmt::Debug>() {
    let defaults = O::defaults();
    let names: Vec<&str> = O::SPECS.iter().map(|s| s.name).collect();
    assert_eq!(defaults.keys().count(), names.len(), "{names:?}");
    for spec in O::SPECS {
        let default = &defaults[spec.name];
        assert!(
            default.is_null() || spec.allowed.accepts(default),
            "{}: default {default} is not {}",
            spec.name,
            spec.allowed.describe()
        );
        let mut edges: Vec<Value> = match spec.allowed {
            Allowed::Integer { min, max } => vec![json!(min), json!(max)],
            Allowed::IntegerList { len, min, max } => {
                vec![json!(vec![min; len]), json!(vec![max; len])]
            }
            Allowed::Choice(choices) => choices.iter().map(|c| json!(c)).collect(),
            Allowed::Boolean => vec![json!(true), json!(false)],
            Allowed::Data => vec![],
        };
        edges.extend(spec.saved_default.map(|saved| saved()));
        for v in edges {
            let mut given = Options::new();
            given.insert(spec.name.into(), v.clone());
            let read: O = read("g", &given).unwrap_or_else(|e| panic!("{}={v}: {e}", spec.name));
            assert_eq!(echo(&read)[spec.name], v, "{} does not hold {v}", spec.name);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    declare_options! {
        /// Options for the tests.
        pub struct TestOptions {
            players: usize = 2, Allowed::Integer { min: 2, max: 2 }, "number of players";
            n: u8 = 3, Allowed::Integer { min: 1, max: 9 }, "a number";
            t: Option<u8> = None, Allowed::Integer { min: 1, max: 9 }, "depends on n";
            side: String = "left".into(), Allowed::Choice(&["left", "right"]), "a side";
            pair: [u8; 2] = [1, 2], Allowed::IntegerList { len: 2, min: 0, max: 5 }, "two";
            on: bool = false, Allowed::Boolean, "a switch";
            side2: String = "left".into(), Allowed::Choice(&["left", "right"]), "added later",
                saved_default = "right".into();
        }
    }

    fn opts(v: Value) -> Options {
        v.as_object().unwrap().clone()
    }

    fn error(v: Value) -> String {
        read::<TestOptions>("g", &opts(v)).unwrap_err().to_string()
    }

    #[test]
    fn every_declaration_is_sound() {
        use crate::games::{duell_der_drachen, duo, duo_regna, regine, regnum};
        assert_sound::<TestOptions>();
        assert_sound::<duo_regna::DuoRegnaOptions>();
        assert_sound::<duo::DuoOptions>();
        assert_sound::<duell_der_drachen::DuellDerDrachenOptions>();
        assert_sound::<regine::RegineOptions>();
        assert_sound::<regnum::RegnumOptions>();
    }

    #[test]
    fn reads_validates_and_refuses_unknown() {
        let o: TestOptions = read("g", &opts(json!({"n": 5, "pair": [0, 5]}))).unwrap();
        assert_eq!((o.n, o.t, o.pair), (5, None, [0, 5]));
        assert_eq!(
            echo(&o),
            opts(
                json!({"players": 2, "n": 5, "t": null, "side": "left", "pair": [0, 5], "on": false, "side2": "left"})
            )
        );
        let e = error(json!({"n": 50}));
        assert_eq!(e, "g: option 'n' must be an integer from 1 to 9, got 50");
        assert!(error(json!({"n": true})).contains("got true"));
        assert!(error(json!({"n": 2.0})).contains("got 2.0"));
        assert!(error(json!({"pair": [1]})).contains("a list of 2 integers from 0 to 5"));
        assert!(error(json!({"pair": [1, 6]})).contains("got [1,6]"));
        assert!(error(json!({"side": "up"})).contains(r#"one of ["left", "right"], got "up""#));
        assert!(error(json!({"on": 1})).contains("true or false"));
        let e = error(json!({"m": 1}));
        assert!(
            e.contains("unknown option 'm'")
                && e.contains("allowed: players, n, t, side, pair, on, side2"),
            "{e}"
        );
    }

    #[test]
    fn a_saved_game_lacking_an_added_option_gets_its_saved_default() {
        let filled = saved(TestOptions::SPECS, &opts(json!({"n": 4})));
        assert_eq!(filled, opts(json!({"n": 4, "side2": "right"})));
        let kept = saved(TestOptions::SPECS, &opts(json!({"side2": "left"})));
        assert_eq!(kept, opts(json!({"side2": "left"})));
        let info = GameInfo {
            name: "g",
            title: "G",
            aliases: &[],
            min_players: TestOptions::MIN_PLAYERS,
            max_players: TestOptions::MAX_PLAYERS,
            options: TestOptions::SPECS,
            defaults: TestOptions::defaults,
        };
        let listed = listing(&info);
        assert_eq!(listed[5].get("saved_default"), None);
        assert_eq!(listed[6]["saved_default"], json!("right"));
    }

    #[test]
    fn null_is_the_default_only_where_the_default_is_null() {
        let e = error(json!({"n": null, "t": null}));
        assert!(
            e.contains("must be an integer from 1 to 9, got null"),
            "{e}"
        );
        let o: TestOptions = read("g", &opts(json!({"t": null}))).unwrap();
        assert_eq!(o.t, None);
        let o: TestOptions = read("g", &opts(json!({"t": 4}))).unwrap();
        assert_eq!(o.t, Some(4));
    }
}
