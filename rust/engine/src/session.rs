//! A game and its states behind trait objects, written once for every game: what the Python
//! layer binds. Adds what the bare rules do not carry: legality checks with clear errors,
//! the action history, the seed, action parsing and the JSON save format.

use crate::actions::{Action, ActionSet};
use crate::batch::{Batch, DynBatch};
use crate::error::{Error, Result};
use crate::game::{Game, GameInfo, Seat};
use crate::options::Options;
use crate::playout::{random_playouts, PlayoutStats};
use crate::recall::{self, Memo, Progress};
use crate::rng::Rng;
use crate::search::{ismcts_until, IsmctsConfig, IsmctsResult};
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The `format` tag of a saved state.
pub const STATE_FORMAT: &str = "regalia-state";
/// The version of the saved-state format this engine writes and reads.
pub const STATE_VERSION: u64 = 1;

/// A configured game, any of the five.
pub trait DynGame: Send + Sync {
    /// The game's static description.
    fn info(&self) -> GameInfo;
    /// The options in force, defaults filled in.
    fn options(&self) -> Options;
    /// Number of seats.
    fn num_players(&self) -> usize;
    /// Size of the action space.
    fn num_actions(&self) -> usize;
    /// Shape of the observation tensor.
    fn observation_shape(&self) -> Vec<usize>;
    /// A new game from `seed`.
    fn new_state(&self, seed: u64) -> Box<dyn DynState>;
    /// Reads a saved state, checking format, game, options, invariants and (when the
    /// state carries its seed) that replaying its history reproduces it.
    fn state_from_json(&self, text: &str) -> Result<Box<dyn DynState>>;
    /// Plays `games` uniformly random games natively on `threads` threads; `None` if `stop`
    /// was set before the end.
    fn random_playouts(
        &self,
        games: u64,
        seed: u64,
        threads: usize,
        stop: &AtomicBool,
    ) -> Option<PlayoutStats>;
    /// `n` games stepped together on up to `threads` threads (see [`crate::batch`]).
    fn new_batch(&self, n: usize, seed: u64, threads: usize) -> Box<dyn DynBatch>;
    /// Length of the information-state tensor keeping `slots` record entries (see [`recall`]).
    fn information_state_size(&self, slots: usize) -> usize;
}

/// A state of some game, with its history.
pub trait DynState: Send + Sync {
    /// A deep copy.
    fn clone_box(&self) -> Box<dyn DynState>;
    /// The game's name.
    fn game_name(&self) -> &'static str;
    /// Number of seats.
    fn num_players(&self) -> usize;
    /// Size of the action space.
    fn num_actions(&self) -> usize;
    /// The seat to decide, `None` once over.
    fn current_player(&self) -> Option<Seat>;
    /// Whether the game is over.
    fn is_terminal(&self) -> bool;
    /// The legal actions.
    fn legal_actions(&self) -> ActionSet;
    /// Plays `action`, or refuses it leaving the state unchanged.
    fn apply(&mut self, action: i64) -> Result<()>;
    /// Per-seat returns.
    fn returns(&self) -> Vec<f64>;
    /// Per-seat game points.
    fn scores(&self) -> Vec<i64>;
    /// Every action played since the start (empty for a determinized state).
    fn history(&self) -> &[Action];
    /// The seed the game started from (`None` for a determinized state).
    fn seed(&self) -> Option<u64>;
    /// The name of an action id.
    fn action_name(&self, action: i64) -> Result<String>;
    /// The id of a legal action named by `text`: its exact name or a unique prefix of it,
    /// ignoring case and runs of spaces. The exact name of an action that is not legal now
    /// is refused, with the legal actions listed.
    fn parse_action(&self, text: &str) -> Result<Action>;
    /// What `seat` sees, as JSON.
    fn observation(&self, seat: i64) -> Result<Value>;
    /// What `seat` sees, written into `out` (of the observation shape's size).
    fn observation_tensor(&self, seat: i64, out: &mut [f32]) -> Result<()>;
    /// A state consistent with all that `seat` has seen, hidden cards resampled from `seed`.
    fn determinize(&self, seat: i64, seed: u64) -> Result<Box<dyn DynState>>;
    /// ISMCTS for the seat to move, from what that seat knows (`None` once over); it ends
    /// early once `stop` is set.
    fn ismcts(&self, config: &IsmctsConfig, stop: &AtomicBool) -> Option<IsmctsResult>;
    /// The saved form, generator included.
    fn to_json(&self) -> String;
    /// Equality of the full state (same game, same rules state, same history).
    fn same_as(&self, other: &dyn DynState) -> bool;
    /// Runs the game's [`Game::check_state`] on this state: every reachable state must pass
    /// it (the conformance and fuzz harnesses assert this after every step).
    fn check_state(&self) -> Result<()>;
    /// `seat`'s perfect-recall information state as text (see [`recall`]).
    fn information_state_string(&self, seat: i64) -> Result<String>;
    /// The same as a tensor keeping the newest record entries, written into `out` (of
    /// [`DynGame::information_state_size`] for the number of entries it keeps).
    fn information_state_tensor(&self, seat: i64, out: &mut [f32]) -> Result<()>;
}

impl<G: Game> DynGame for G {
    fn info(&self) -> GameInfo {
        G::INFO
    }
    fn options(&self) -> Options {
        Game::options(self)
    }
    fn num_players(&self) -> usize {
        Game::num_players(self)
    }
    fn num_actions(&self) -> usize {
        Game::num_actions(self)
    }
    fn observation_shape(&self) -> Vec<usize> {
        Game::observation_shape(self)
    }
    fn new_state(&self, seed: u64) -> Box<dyn DynState> {
        Box::new(Session::new(Arc::new(self.clone()), seed))
    }
    fn state_from_json(&self, text: &str) -> Result<Box<dyn DynState>> {
        Ok(Box::new(Session::from_json(Arc::new(self.clone()), text)?))
    }
    fn random_playouts(
        &self,
        games: u64,
        seed: u64,
        threads: usize,
        stop: &AtomicBool,
    ) -> Option<PlayoutStats> {
        random_playouts(self, games, seed, threads, stop)
    }
    fn new_batch(&self, n: usize, seed: u64, threads: usize) -> Box<dyn DynBatch> {
        Box::new(Batch::new(Arc::new(self.clone()), n, seed, threads))
    }
    fn information_state_size(&self, slots: usize) -> usize {
        recall::tensor_size(self, slots)
    }
}

/// A game's state plus what the session layer tracks.
#[derive(Clone, Debug)]
pub struct Session<G: Game> {
    game: Arc<G>,
    state: G::State,
    /// The legal actions of `state`, computed once per change (read by every call of a
    /// Python loop: `legal_actions`, then `apply`'s check).
    legal: ActionSet,
    history: Vec<Action>,
    seed: Option<u64>,
    /// Where `history` starts, for the information states.
    origin: Origin<G>,
    /// The seats' information-state records built so far.
    records: Memo<G::State>,
}

/// Where a session's history starts.
#[derive(Clone, Debug)]
enum Origin<G: Game> {
    /// The start of the game from the session's seed.
    Seed,
    /// A world determinized for `seat` from `parent`: the state it began as. That seat's
    /// record goes on from its record in `parent`; the others' begin in this world.
    World {
        start: Arc<G::State>,
        parent: Arc<Session<G>>,
        seat: Seat,
    },
    /// Unknown (a state loaded without its seed): there is no record to give.
    Unknown,
}

/// The fields of a saved state's envelope, every one required and no other allowed.
pub const ENVELOPE_FIELDS: [&str; 7] = [
    "format", "version", "game", "options", "seed", "history", "state",
];

/// Where the objects of `given` (read from a file) have other fields than those of `written`
/// (the same state written back), or `None`: a field the game does not know is refused, not
/// ignored (serde would skip it, and would read a missing optional field as `None`).
pub fn field_mismatch(given: &Value, written: &Value, path: &str) -> Option<String> {
    let mut stack = vec![(given, written, path.to_string())];
    while let Some((g, w, at)) = stack.pop() {
        match (g, w) {
            (Value::Object(g), Value::Object(w)) => {
                if let Some(key) = g.keys().find(|k| !w.contains_key(*k)) {
                    return Some(format!("'{at}' has an unknown field '{key}'"));
                }
                if let Some(key) = w.keys().find(|k| !g.contains_key(*k)) {
                    return Some(format!("'{at}' has no field '{key}'"));
                }
                stack.extend(w.iter().map(|(k, wv)| (&g[k], wv, format!("{at}.{k}"))));
            }
            (Value::Array(g), Value::Array(w)) if g.len() == w.len() => {
                stack.extend(
                    g.iter()
                        .zip(w)
                        .enumerate()
                        .map(|(i, (a, b))| (a, b, format!("{at}[{i}]"))),
                );
            }
            _ => {}
        }
    }
    None
}

fn bad_state(msg: impl Into<String>) -> Error {
    Error::InvalidState(msg.into())
}

fn normalize(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

impl<G: Game> Session<G> {
    /// A new game from `seed`.
    pub fn new(game: Arc<G>, seed: u64) -> Self {
        let state = game.new_state(Rng::new(seed));
        Session::from_parts(game, state, Vec::new(), Some(seed))
    }

    /// A session from its parts (a state reached by playing `history` from `seed`).
    pub fn from_parts(
        game: Arc<G>,
        state: G::State,
        history: Vec<Action>,
        seed: Option<u64>,
    ) -> Self {
        Session {
            legal: game.legal_actions(&state),
            game,
            state,
            history,
            origin: if seed.is_some() {
                Origin::Seed
            } else {
                Origin::Unknown
            },
            records: Memo::default(),
            seed,
        }
    }

    /// Runs `f` on `seat`'s record from the start of its game to now (see [`recall`]).
    fn with_record<R>(&self, seat: Seat, f: impl FnOnce(&Progress<G::State>) -> R) -> Result<R> {
        self.records.with(seat, |progress| {
            let progress = match progress {
                Some(p) => p,
                None => progress.insert(self.start_record(seat)?),
            };
            progress.extend(&*self.game, &self.history, seat);
            Ok(f(progress))
        })
    }

    /// `seat`'s record where the session's history starts.
    fn start_record(&self, seat: Seat) -> Result<Progress<G::State>> {
        match (&self.origin, self.seed) {
            (Origin::Seed, Some(seed)) => {
                Ok(Progress::new(self.game.new_state(Rng::new(seed)), None))
            }
            (
                Origin::World {
                    start,
                    parent,
                    seat: s,
                },
                _,
            ) => {
                let start = G::State::clone(start);
                if *s == seat {
                    parent.with_record(seat, |before| Progress::new(start, Some(before)))
                } else {
                    Ok(Progress::new(start, None))
                }
            }
            _ => Err(bad_state(
                "this state was loaded without its seed: its information states are unknown",
            )),
        }
    }

    fn seat(&self, seat: i64) -> Result<Seat> {
        let n = self.game.num_players();
        usize::try_from(seat)
            .ok()
            .filter(|&s| s < n)
            .ok_or_else(|| {
                Error::InvalidArgument(format!("seat must be from 0 to {}, got {seat}", n - 1))
            })
    }

    fn action_id(&self, action: i64) -> Result<Action> {
        let n = self.game.num_actions();
        usize::try_from(action)
            .ok()
            .filter(|&a| a < n)
            .map(|a| a as Action)
            .ok_or_else(|| Error::IllegalAction(format!("action {action} is out of range 0..{n}")))
    }

    /// Reads a saved state (see [`DynGame::state_from_json`]).
    pub fn from_json(game: Arc<G>, text: &str) -> Result<Self> {
        let v: Value =
            serde_json::from_str(text).map_err(|e| bad_state(format!("not valid JSON: {e}")))?;
        let obj = v
            .as_object()
            .ok_or_else(|| bad_state("a saved state must be a JSON object"))?;
        let field = |k: &str| {
            obj.get(k)
                .ok_or_else(|| bad_state(format!("saved state has no '{k}' field")))
        };
        if let Some(key) = obj.keys().find(|k| !ENVELOPE_FIELDS.contains(&k.as_str())) {
            return Err(bad_state(format!(
                "saved state has an unknown field '{key}'"
            )));
        }
        if field("format")?.as_str() != Some(STATE_FORMAT) {
            return Err(bad_state(format!(
                "not a Regalia saved state (format must be '{STATE_FORMAT}')"
            )));
        }
        let version = field("version")?;
        if version.as_u64() != Some(STATE_VERSION) {
            return Err(bad_state(format!(
                "saved state version {version} is not supported (this version reads {STATE_VERSION})"
            )));
        }
        let name = field("game")?;
        if name.as_str() != Some(G::INFO.name) {
            return Err(bad_state(format!(
                "saved state is of game {name}, not '{}'",
                G::INFO.name
            )));
        }
        let options = field("options")?;
        if options.as_object().map(G::saved_options) != Some(game.options()) {
            return Err(bad_state(format!(
                "saved state has options {options}, but this game has {}",
                Value::Object(game.options())
            )));
        }
        let seed = match field("seed")? {
            Value::Null => None,
            s => Some(
                s.as_u64()
                    .ok_or_else(|| bad_state("'seed' must be null or an integer in [0, 2**64)"))?,
            ),
        };
        let n = game.num_actions();
        let history: Vec<Action> = field("history")?
            .as_array()
            .ok_or_else(|| bad_state("'history' must be a list"))?
            .iter()
            .map(|a| {
                a.as_u64()
                    .filter(|&a| (a as usize) < n)
                    .map(|a| a as Action)
            })
            .collect::<Option<_>>()
            .ok_or_else(|| {
                bad_state(format!(
                    "'history' must hold action ids from 0 to {}",
                    n - 1
                ))
            })?;
        let given = field("state")?;
        let state: G::State = serde_json::from_value(given.clone())
            .map_err(|e| bad_state(format!("bad 'state': {e}")))?;
        let written = serde_json::to_value(&state).unwrap_or(Value::Null);
        if let Some(mismatch) = field_mismatch(given, &written, "state") {
            return Err(bad_state(format!("bad saved state: {mismatch}")));
        }
        game.check_state(&state)
            .map_err(|e| bad_state(format!("inconsistent 'state': {e}")))?;
        if let Some(seed) = seed {
            let mut replay = Session::new(game.clone(), seed);
            for &a in &history {
                replay
                    .apply(a as i64)
                    .map_err(|_| bad_state("'history' is not a legal game from 'seed'"))?;
            }
            if replay.state != state {
                return Err(bad_state(
                    "'state' does not match replaying 'history' from 'seed'",
                ));
            }
        }
        Ok(Session::from_parts(game, state, history, seed))
    }
}

impl<G: Game> DynState for Session<G> {
    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(self.clone())
    }
    fn game_name(&self) -> &'static str {
        G::INFO.name
    }
    fn num_players(&self) -> usize {
        self.game.num_players()
    }
    fn num_actions(&self) -> usize {
        self.game.num_actions()
    }
    fn current_player(&self) -> Option<Seat> {
        self.game.current_player(&self.state)
    }
    fn is_terminal(&self) -> bool {
        self.legal.is_empty()
    }
    fn legal_actions(&self) -> ActionSet {
        self.legal
    }
    fn apply(&mut self, action: i64) -> Result<()> {
        let a = self.action_id(action)?;
        if !self.legal.contains(a as usize) {
            if self.legal.is_empty() {
                return Err(Error::IllegalAction(format!(
                    "action {a}: the game is over"
                )));
            }
            let name = self.game.action_name(&self.state, a);
            return Err(Error::IllegalAction(format!(
                "action {a} ({name}) is not legal now"
            )));
        }
        self.game.apply(&mut self.state, a);
        self.legal = self.game.legal_actions(&self.state);
        self.history.push(a);
        Ok(())
    }
    fn returns(&self) -> Vec<f64> {
        self.game.returns(&self.state)
    }
    fn scores(&self) -> Vec<i64> {
        self.game.scores(&self.state)
    }
    fn history(&self) -> &[Action] {
        &self.history
    }
    fn seed(&self) -> Option<u64> {
        self.seed
    }
    fn action_name(&self, action: i64) -> Result<String> {
        let a = self.action_id(action)?;
        Ok(self.game.action_name(&self.state, a))
    }
    fn parse_action(&self, text: &str) -> Result<Action> {
        let want = normalize(text);
        if want.is_empty() {
            return Err(Error::IllegalAction("empty action name".into()));
        }
        let n = self.game.num_actions() as Action;
        let legal = self.legal;
        let names = |actions: &mut dyn Iterator<Item = Action>| {
            actions
                .map(|a| self.game.action_name(&self.state, a))
                .collect::<Vec<_>>()
                .join(", ")
        };
        // Names are unique, so an exact match among the legal actions (looked at first, as
        // the cheap common case) is the only exact match.
        let exact = |a: &Action| normalize(&self.game.action_name(&self.state, *a)) == want;
        if let Some(a) = legal.iter().find(exact) {
            return Ok(a);
        }
        if let Some(a) = (0..n).find(exact) {
            let name = self.game.action_name(&self.state, a);
            return Err(Error::IllegalAction(if legal.is_empty() {
                format!("'{name}' is not legal now: the game is over")
            } else {
                format!(
                    "'{name}' is not legal now; legal: {}",
                    names(&mut legal.iter())
                )
            }));
        }
        let matches: Vec<Action> = legal
            .iter()
            .filter(|&a| normalize(&self.game.action_name(&self.state, a)).starts_with(&want))
            .collect();
        match matches.as_slice() {
            [a] => Ok(*a),
            [] => Err(Error::IllegalAction(format!(
                "no action is called '{text}'"
            ))),
            _ => Err(Error::IllegalAction(format!(
                "'{text}' could be any of: {}",
                names(&mut matches.iter().copied())
            ))),
        }
    }
    fn observation(&self, seat: i64) -> Result<Value> {
        let seat = self.seat(seat)?;
        Ok(self.game.observation(&self.state, seat))
    }
    fn observation_tensor(&self, seat: i64, out: &mut [f32]) -> Result<()> {
        let seat = self.seat(seat)?;
        let size: usize = self.game.observation_shape().iter().product();
        if out.len() != size {
            return Err(Error::InvalidArgument(format!(
                "observation buffer must hold {size} floats, not {}",
                out.len()
            )));
        }
        out.fill(0.0);
        self.game.observation_tensor(&self.state, seat, out);
        Ok(())
    }
    fn determinize(&self, seat: i64, seed: u64) -> Result<Box<dyn DynState>> {
        let seat = self.seat(seat)?;
        let mut rng = Rng::new(seed);
        let state = self.game.determinize(&self.state, seat, &mut rng);
        let mut world = Session::from_parts(self.game.clone(), state, Vec::new(), None);
        world.origin = Origin::World {
            start: Arc::new(world.state.clone()),
            parent: Arc::new(self.clone()),
            seat,
        };
        Ok(Box::new(world))
    }
    fn ismcts(&self, config: &IsmctsConfig, stop: &AtomicBool) -> Option<IsmctsResult> {
        ismcts_until(&*self.game, &self.state, config, stop)
    }
    fn to_json(&self) -> String {
        json!({
            "format": STATE_FORMAT,
            "version": STATE_VERSION,
            "game": G::INFO.name,
            "options": Value::Object(self.game.options()),
            "seed": self.seed,
            "history": self.history,
            "state": serde_json::to_value(&self.state).unwrap_or(Value::Null),
        })
        .to_string()
    }
    fn same_as(&self, other: &dyn DynState) -> bool {
        other.game_name() == G::INFO.name && other.to_json() == self.to_json()
    }
    fn check_state(&self) -> Result<()> {
        self.game.check_state(&self.state).map_err(bad_state)
    }
    fn information_state_string(&self, seat: i64) -> Result<String> {
        let seat = self.seat(seat)?;
        self.with_record(seat, |p| recall::to_string(seat, &p.record))
    }
    fn information_state_tensor(&self, seat: i64, out: &mut [f32]) -> Result<()> {
        let seat = self.seat(seat)?;
        let entry = recall::tensor_size(&*self.game, 1) - 1;
        if out.is_empty() || (out.len() - 1) % entry != 0 {
            return Err(Error::InvalidArgument(format!(
                "an information-state buffer holds 1 + slots * {entry} floats, not {}",
                out.len()
            )));
        }
        out.fill(0.0);
        self.with_record(seat, |p| {
            recall::write_tensor(&*self.game, seat, &p.record, out)
        })
    }
}
