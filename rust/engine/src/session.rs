//! A game being played, written once for every game: the state plus what the bare rules do
//! not carry (legality checks with clear errors, the action history, the seed, action
//! parsing, the seats' information states and the JSON save format). [`crate::dynamic`] puts
//! it behind a trait object for the Python layer; [`crate::batch`] steps many of them.

use crate::actions::{Action, ActionSet};
use crate::cfr::key::key_of_record;
use crate::error::{Error, Result};
use crate::game::{Game, Seat};
use crate::outcome::Outcome;
use crate::recall::{self, Memo, Progress};
use crate::rng::{derive_seed, Rng};
use crate::search::belief::{Belief, BeliefModel, ParticleFilter, Worlds};
use crate::search::{ismcts_in, IsmctsConfig, IsmctsResult};
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// The `format` tag of a saved state.
pub const STATE_FORMAT: &str = "regalia-state";
/// The version of the saved-state format this engine writes and reads.
pub const STATE_VERSION: u64 = 1;

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
    /// The beliefs built so far, shared with the session's clones (and so with the worlds
    /// determinized from it), so that the next decision's belief goes on from them.
    beliefs: Arc<BeliefCache<G>>,
}

/// The most actions a new session makes room for in its history at once (512 bytes): a
/// longer game grows it as it goes.
const HISTORY_RESERVE: usize = 256;

/// Beliefs built so far: per seat and belief, the filter after a prefix of a history.
#[derive(Debug)]
struct BeliefCache<G: Game>(Mutex<Vec<BeliefSoFar<G>>>);

impl<G: Game> Default for BeliefCache<G> {
    fn default() -> Self {
        BeliefCache(Mutex::new(Vec::new()))
    }
}

/// A belief as far as it followed a history.
#[derive(Clone, Debug)]
struct BeliefSoFar<G: Game> {
    seat: Seat,
    belief: Belief,
    /// The actions it followed, from the start, and the state they led to.
    history: Vec<Action>,
    state: G::State,
    filter: ParticleFilter<G>,
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

/// The seed of a belief's generator, derived with the seat.
const BELIEF_STREAM: u64 = 0x00BE_11EF;

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
    /// A new game from `seed`, its history's buffer made once for a whole game where the
    /// game is short (up to 256 actions), so that no step of a playout grows it.
    pub fn new(game: Arc<G>, seed: u64) -> Self {
        let state = game.new_state(Rng::new(seed));
        let room = game
            .max_history_len()
            .map_or(HISTORY_RESERVE, |n| n.min(HISTORY_RESERVE));
        Session::from_parts(game, state, Vec::with_capacity(room), Some(seed))
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
            beliefs: Arc::default(),
            seed,
        }
    }

    /// Starts over from `seed`, keeping the history's buffer (no allocation for the games
    /// that follow, in a batch).
    pub fn restart(&mut self, seed: u64) {
        self.state = self.game.new_state(Rng::new(seed));
        self.legal = self.game.legal_actions(&self.state);
        self.history.clear();
        self.seed = Some(seed);
        self.origin = Origin::Seed;
        self.records = Memo::default();
        self.beliefs = Arc::default();
    }

    /// The game's rules and options.
    pub fn rules(&self) -> &G {
        &self.game
    }

    /// The rules' state of the game now.
    pub fn state(&self) -> &G::State {
        &self.state
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

    /// Reads a saved state (see [`crate::DynGame::state_from_json`]).
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
        if name.as_str() != Some(G::NAMES.name) {
            return Err(bad_state(format!(
                "saved state is of game {name}, not '{}'",
                G::NAMES.name
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
        if seed.is_none() && !history.is_empty() {
            return Err(bad_state(
                "a state saved without its seed must have an empty 'history': a history that cannot be replayed cannot be checked",
            ));
        }
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

impl<G: Game> Session<G> {
    /// The seat to decide, `None` once over or at a chance node.
    pub fn current_player(&self) -> Option<Seat> {
        self.game.current_player(&self.state)
    }
    /// Whether the next step is a random event the caller draws (explicit chance).
    pub fn is_chance_node(&self) -> bool {
        self.game.is_chance_node(&self.state)
    }
    /// At a chance node, each possible outcome with its probability (sorted by outcome);
    /// refused elsewhere, saying why (a seeded game has no chance nodes).
    pub fn chance_outcomes(&self) -> Result<Vec<(Action, f64)>> {
        if self.is_chance_node() {
            return Ok(self.game.chance_outcomes(&self.state));
        }
        Err(Error::InvalidArgument(if !self.game.explicit_chance() {
            format!(
                "{} draws its random events from its seed (chance='seeded'): it has no chance nodes; make it with chance='explicit' to draw them yourself",
                G::NAMES.name
            )
        } else if let Some(seat) = self.current_player() {
            format!("not a chance node: seat {seat} is to act")
        } else {
            "not a chance node: the game is over".into()
        }))
    }
    /// Whether the game is over.
    pub fn is_terminal(&self) -> bool {
        self.legal.is_empty()
    }
    /// The legal actions (computed once per change).
    pub fn legal_actions(&self) -> &ActionSet {
        &self.legal
    }
    /// Plays `action`, or refuses it leaving the session unchanged.
    pub fn apply(&mut self, action: i64) -> Result<()> {
        let a = self.action_id(action)?;
        if !self.legal.contains(a as usize) {
            if self.legal.is_empty() {
                return Err(Error::IllegalAction(format!(
                    "action {a}: the game is over"
                )));
            }
            let name = self.game.action_name(&self.state, a);
            if self.is_chance_node() {
                let outcomes: Vec<String> = self
                    .legal
                    .iter()
                    .map(|o| format!("{o} ({})", self.game.action_name(&self.state, o)))
                    .collect();
                return Err(Error::IllegalAction(format!(
                    "{a} ({name}) is not a possible outcome of this chance node; outcomes: {}",
                    outcomes.join(", ")
                )));
            }
            return Err(Error::IllegalAction(format!(
                "action {a} ({name}) is not legal now"
            )));
        }
        self.play(a);
        Ok(())
    }
    /// Plays `a`, which the caller has checked is legal: the one step every driver shares
    /// (rules, legal actions, history).
    pub(crate) fn play(&mut self, a: Action) {
        self.game.apply(&mut self.state, a);
        self.legal = self.game.legal_actions(&self.state);
        self.history.push(a);
    }
    /// Per-seat returns.
    pub fn returns(&self) -> Vec<f64> {
        self.game.returns(&self.state)
    }
    /// Per-seat game points.
    pub fn scores(&self) -> Vec<i64> {
        self.game.scores(&self.state)
    }
    /// How the game ended, `None` while it runs (no legal action is left exactly when the
    /// game is over).
    pub fn outcome(&self) -> Option<Outcome> {
        if self.is_terminal() {
            self.game.outcome(&self.state)
        } else {
            None
        }
    }
    /// Every action played since the start (empty for a determinized state).
    pub fn history(&self) -> &[Action] {
        &self.history
    }
    /// The seed the game started from (`None` for a determinized state).
    pub fn seed(&self) -> Option<u64> {
        self.seed
    }
    /// The name of an action id.
    pub fn action_name(&self, action: i64) -> Result<String> {
        let a = self.action_id(action)?;
        Ok(self.game.action_name(&self.state, a))
    }
    /// What an action id means (any id in range, legal now or not), as JSON: the game's
    /// [`Game::action_info`], an object tagged by `"kind"`.
    pub fn action_info(&self, action: i64) -> Result<Value> {
        let a = self.action_id(action)?;
        serde_json::to_value(self.game.action_info(&self.state, a))
            .map_err(|e| Error::IllegalAction(format!("action {a} cannot be described: {e}")))
    }
    /// The id of a legal action named by `text`: its exact name or a unique prefix of it,
    /// ignoring case and runs of spaces. The exact name of an action that is not legal now
    /// is refused, with the legal actions listed.
    pub fn parse_action(&self, text: &str) -> Result<Action> {
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
    /// What `seat` sees, as JSON.
    pub fn observation(&self, seat: i64) -> Result<Value> {
        let seat = self.seat(seat)?;
        Ok(self.game.observation(&self.state, seat))
    }
    /// What `seat` sees, written into `out` (of the observation shape's size).
    pub fn observation_tensor(&self, seat: i64, out: &mut [f32]) -> Result<()> {
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
    /// A session consistent with all that `seat` has seen, hidden cards resampled from `seed`.
    pub fn determinize(&self, seat: i64, seed: u64) -> Result<Self> {
        let seat = self.seat(seat)?;
        let mut rng = Rng::new(seed);
        let state = self.game.determinize(&self.state, seat, &mut rng);
        let mut world = Session::from_parts(self.game.clone(), state, Vec::new(), None);
        world.origin = Origin::World {
            start: Arc::new(world.state.clone()),
            parent: Arc::new(self.clone()),
            seat,
        };
        Ok(world)
    }
    /// The saved form, generator included. A state without its seed (a determinized world,
    /// a position loaded without one) saves as a position: its history, which nothing could
    /// replay or check, is not written.
    pub fn to_json(&self) -> String {
        let history: &[Action] = if self.seed.is_some() {
            &self.history
        } else {
            &[]
        };
        json!({
            "format": STATE_FORMAT,
            "version": STATE_VERSION,
            "game": G::NAMES.name,
            "options": Value::Object(self.game.options()),
            "seed": self.seed,
            "history": history,
            "state": serde_json::to_value(&self.state).unwrap_or(Value::Null),
        })
        .to_string()
    }
    /// ISMCTS for the seat to move (`None` once over): in worlds determinized from this
    /// state, or with a belief model ([`IsmctsConfig::belief`]) in the worlds of that seat's
    /// belief over the history it saw ([`Session::belief`]). It ends early once `stop` is set.
    pub fn ismcts(&self, config: &IsmctsConfig, stop: &AtomicBool) -> Result<Option<IsmctsResult>> {
        let Some(seat) = self.current_player() else {
            return Ok(None);
        };
        let worlds = match config.belief.model {
            BeliefModel::None => None,
            _ => Some(Worlds::of(&self.belief(seat, config.belief)?)),
        };
        Ok(ismcts_in(
            &*self.game,
            &self.state,
            config,
            stop,
            worlds.as_ref(),
        ))
    }

    /// `seat`'s belief now: a particle filter ([`crate::search::belief`]) that followed the
    /// game from its start, shown only what the seat saw. Its generator is seeded from the
    /// seat alone, so the belief is a function of what the seat saw (and the next decision's
    /// goes on from this one's, kept with the session and its clones). It needs the chance
    /// outcomes in the history (explicit chance) and the history itself: a game from its
    /// seed, or a world determinized for `seat` from one.
    pub fn belief(&self, seat: Seat, belief: Belief) -> Result<ParticleFilter<G>> {
        if !self.game.explicit_chance() {
            return Err(Error::InvalidArgument(format!(
                "a belief follows the chance outcomes of the game's history, and {} draws them from its seed: make it with chance='explicit'",
                G::NAMES.name
            )));
        }
        match (&self.origin, self.seed) {
            (Origin::Seed, Some(seed)) => Ok(self.belief_from_seed(seed, seat, belief)),
            (
                Origin::World {
                    start,
                    parent,
                    seat: s,
                },
                _,
            ) if *s == seat => {
                let mut filter = parent.belief(seat, belief)?;
                self.follow(&mut filter, G::State::clone(start), &self.history);
                Ok(filter)
            }
            _ => Err(bad_state(
                "a belief needs the history its seat saw: this state was loaded without its seed, or determinized for another seat",
            )),
        }
    }

    /// [`Session::belief`] of a game from its seed: from the longest history the session's
    /// beliefs followed that begins this one, else from the start.
    fn belief_from_seed(&self, seed: u64, seat: Seat, belief: Belief) -> ParticleFilter<G> {
        let mut cache = self.beliefs.0.lock().unwrap_or_else(|e| e.into_inner());
        let known = cache
            .iter()
            .filter(|b| {
                b.seat == seat && b.belief == belief && self.history.starts_with(&b.history)
            })
            .max_by_key(|b| b.history.len());
        let (mut now, mut filter, from) = match known {
            Some(b) => (b.state.clone(), b.filter.clone(), b.history.len()),
            None => {
                let start = self.game.new_state(Rng::new(seed));
                let rng_seed = derive_seed(BELIEF_STREAM, seat as u64);
                let filter = ParticleFilter::new(&*self.game, &start, seat, belief, rng_seed);
                (start, filter, 0)
            }
        };
        now = self.follow(&mut filter, now, &self.history[from..]);
        let so_far = BeliefSoFar {
            seat,
            belief,
            history: self.history.clone(),
            state: now,
            filter: filter.clone(),
        };
        match cache
            .iter_mut()
            .find(|b| b.seat == seat && b.belief == belief)
        {
            Some(b) => *b = so_far,
            None => cache.push(so_far),
        }
        filter
    }

    /// Steps `filter` through `actions` played from `now`; the state they lead to.
    fn follow(
        &self,
        filter: &mut ParticleFilter<G>,
        mut now: G::State,
        actions: &[Action],
    ) -> G::State {
        for &a in actions {
            let before = now.clone();
            self.game.apply(&mut now, a);
            filter.step(&*self.game, &before, a, &now);
        }
        now
    }

    /// Runs the game's [`Game::check_state`] on this state.
    pub fn check_state(&self) -> Result<()> {
        self.game.check_state(&self.state).map_err(bad_state)
    }
    /// `seat`'s perfect-recall information state as text (see [`recall`]).
    pub fn information_state_string(&self, seat: i64) -> Result<String> {
        let seat = self.seat(seat)?;
        self.with_record(seat, |p| recall::to_string(seat, &p.record))
    }
    /// The same as a compact 64-bit key (see [`crate::cfr::key`]).
    pub fn information_state_key(&self, seat: i64) -> Result<u64> {
        let seat = self.seat(seat)?;
        self.with_record(seat, |p| key_of_record(&*self.game, seat, &p.record))
    }
    /// The same as a tensor keeping the newest record entries, written into `out`.
    pub fn information_state_tensor(&self, seat: i64, out: &mut [f32]) -> Result<()> {
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
