//! Perfect-recall information states, written once for every game on top of its observation
//! (mirrored by `python/regalia/reference/recall.py`).
//!
//! A seat's *record* is what it saw and what it did, in order: each observation it is shown
//! that differs from the one before (`saw`), and each of its own actions (`played`). The
//! record is built when first asked for by replaying the session's history through the
//! game's own observation, so it needs no per-game code and costs nothing while playing;
//! a [`Memo`] keeps it, so that a later call replays only the actions played since.
//!
//! The string form lists every entry, one a line (an observation as the JSON of the fields
//! that changed since the seat's last one when the fields are the same, else all of it:
//! the text grows with what happens, not with the size of a view). The tensor form has a fixed size per game,
//! options and `slots`: one float counting the entries that did not fit, then the newest
//! `slots` entries (oldest first, unused slots zero), each `[saw, played]` flags, the
//! observation tensor of a `saw` entry and the one-hot action of a `played` entry. Both are
//! computed from the seat's observations and actions alone, so they hide what it may not see.
//! A game whose histories have a known bound ([`Game::max_history_len`]) has a number of
//! slots that never leaves an entry out ([`whole_record_slots`]): with it the tensor is the
//! seat's whole record, perfect recall at a fixed size.

use crate::actions::Action;
use crate::game::{Game, Seat};
use serde_json::{Map, Value};
use std::sync::{Arc, Mutex};

/// The number of record entries the tensor form keeps unless told otherwise.
pub const DEFAULT_SLOTS: usize = 16;

/// One entry of a seat's record (cheap to clone: sessions clone their records).
#[derive(Clone, Debug)]
pub enum Entry<S> {
    /// A new observation, as JSON text of what changed since the one before (all of it the
    /// first time), and the state it was seen in (for its tensor).
    Saw(Arc<str>, Arc<S>),
    /// One of the seat's own actions, and its name when it was played.
    Played(Action, Arc<str>),
}

/// A seat's record as far as it has been built: it covers the first `covered` actions of
/// the history, which led to `state`, where the seat last saw `seen`.
#[derive(Clone, Debug)]
pub struct Progress<S> {
    /// Actions of the history the record covers.
    pub covered: usize,
    /// The state they led to.
    pub state: S,
    /// The observation last recorded.
    pub seen: Option<Value>,
    /// The record.
    pub record: Vec<Entry<S>>,
}

impl<S: Clone> Progress<S> {
    /// A record from `start` that goes on from `before` (empty, or e.g. what the seat knew
    /// before a determinized world began).
    pub fn new(start: S, before: Option<&Progress<S>>) -> Self {
        Progress {
            covered: 0,
            state: start,
            seen: before.and_then(|b| b.seen.clone()),
            record: before.map(|b| b.record.clone()).unwrap_or_default(),
        }
    }

    /// Goes on through `history` (of which the first `covered` actions are done): what
    /// `seat` sees now, then its own actions and every observation that differs from the
    /// last one it saw.
    pub fn extend<G: Game<State = S>>(&mut self, game: &G, history: &[Action], seat: Seat) {
        self.saw(game, seat);
        for &a in history.get(self.covered..).unwrap_or_default() {
            if game.current_player(&self.state) == Some(seat) {
                let name = game.action_name(&self.state, a);
                self.record.push(Entry::Played(a, name.into()));
            }
            game.apply(&mut self.state, a);
            self.saw(game, seat);
        }
        self.covered = history.len();
    }

    /// Records `seat`'s observation of the state unless it is the one last seen.
    fn saw<G: Game<State = S>>(&mut self, game: &G, seat: Seat) {
        let seen = game.observation(&self.state, seat);
        if self.seen.as_ref() == Some(&seen) {
            return;
        }
        let text = changes(self.seen.as_ref(), &seen).to_string();
        self.record
            .push(Entry::Saw(text.into(), Arc::new(self.state.clone())));
        self.seen = Some(seen);
    }
}

/// What changed from `before` to `now`: when both are objects with the same fields, the
/// fields with a new value; otherwise all of `now`.
pub fn changes(before: Option<&Value>, now: &Value) -> Value {
    match (before, now) {
        (Some(Value::Object(old)), Value::Object(new))
            if old.len() == new.len() && old.keys().all(|k| new.contains_key(k)) =>
        {
            let changed: Map<String, Value> = new
                .iter()
                .filter(|(k, v)| old.get(*k) != Some(*v))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            Value::Object(changed)
        }
        _ => now.clone(),
    }
}

/// The records built so far, one per seat, kept with a session (clones copy them).
#[derive(Debug)]
pub struct Memo<S>(Mutex<Vec<Option<Progress<S>>>>);

impl<S> Default for Memo<S> {
    fn default() -> Self {
        Memo(Mutex::new(Vec::new()))
    }
}

impl<S: Clone> Memo<S> {
    /// Runs `f` on `seat`'s progress (`None` when not built yet); `f` may build or extend it.
    pub fn with<R>(&self, seat: Seat, f: impl FnOnce(&mut Option<Progress<S>>) -> R) -> R {
        let mut seats = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if seats.len() <= seat {
            seats.resize(seat + 1, None);
        }
        f(&mut seats[seat])
    }
}

impl<S: Clone> Clone for Memo<S> {
    fn clone(&self) -> Self {
        let seats = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        Memo(Mutex::new(seats.clone()))
    }
}

/// The record as text: `seat N`, then one line per entry (`saw {json}` / `played NAME`).
pub fn to_string<S>(seat: Seat, record: &[Entry<S>]) -> String {
    let mut text = format!("seat {seat}");
    for e in record {
        text.push('\n');
        match e {
            Entry::Saw(seen, _) => {
                text.push_str("saw ");
                text.push_str(seen);
            }
            Entry::Played(_, name) => {
                text.push_str("played ");
                text.push_str(name);
            }
        }
    }
    text
}

/// The record entries a seat can have at most in `game`, if its histories are bounded
/// ([`Game::max_history_len`], [`Game::max_seat_actions`]): its first observation, a new
/// observation at most after each action, and each of its own actions. A tensor of that many
/// slots keeps the whole record.
pub fn whole_record_slots<G: Game>(game: &G) -> Option<usize> {
    Some(1 + game.max_history_len()? + game.max_seat_actions()?)
}

/// Length of the tensor form for `slots` entries.
pub fn tensor_size<G: Game>(game: &G, slots: usize) -> usize {
    1 + slots * entry_size(game)
}

fn entry_size<G: Game>(game: &G) -> usize {
    let observation: usize = game.observation_shape().iter().product();
    2 + observation + game.num_actions()
}

/// Writes the tensor form of `record` into `out` (zeroed, of [`tensor_size`]).
pub fn write_tensor<G: Game>(game: &G, seat: Seat, record: &[Entry<G::State>], out: &mut [f32]) {
    let slots = (out.len() - 1) / entry_size(game);
    let kept = record.len().min(slots);
    out[0] = (record.len() - kept) as f32;
    let observation: usize = game.observation_shape().iter().product();
    let entries = out[1..].chunks_exact_mut(entry_size(game));
    for (e, slot) in record[record.len() - kept..].iter().zip(entries) {
        match e {
            Entry::Saw(_, state) => {
                slot[0] = 1.0;
                game.observation_tensor(state, seat, &mut slot[2..2 + observation]);
            }
            Entry::Played(a, _) => {
                slot[1] = 1.0;
                slot[2 + observation + *a as usize] = 1.0;
            }
        }
    }
}
