//! Compact perfect-recall information-state keys: one `u64` per (state, seat), mirrored bit
//! for bit by `python/regalia/reference/recall.py` (`key_of_text`).
//!
//! The key hashes the seat's record exactly as [`crate::recall::to_string`] writes it: the
//! line `seat N`, then one line per entry, `saw {json}` (the fields of the observation that
//! changed, all of it the first time) or `played NAME`. Two records with the same text have
//! the same key, and a key stands for one text up to a 64-bit hash collision. Everything is
//! integer arithmetic on the lines' UTF-8 bytes with the SplitMix64 finaliser as mixer, so
//! the key is the same in Rust and in the reference and on every platform:
//!
//! * `digest(line) = Σ mix64((i << 32) | byte[i])` over the line's bytes (wrapping sum);
//! * `absorb(h, w) = mix64((h * 0x9E3779B97F4A7C15) ^ w)` (wrapping product);
//! * a seat's key starts at `mix64(ORIGIN ^ seat)` and absorbs the digest of each line after
//!   the first.
//!
//! [`Tracker`] keeps every seat's key while a game is played, for the solvers, without
//! writing the whole text; [`key_of_text`] reads a key off an information-state string.

use crate::actions::Action;
use crate::game::{Game, Seat};
use crate::recall::changes;
use serde_json::Value;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

/// Where every key starts, before the seat is mixed in (`"REGALIA1"` in ASCII).
pub const ORIGIN: u64 = 0x5245_4741_4C49_4131;
/// The multiplier of [`absorb`] (the golden-ratio constant of SplitMix64).
const MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 finaliser: a bijection of `u64` that mixes every bit into every other.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Folds the word `w` into the running key `h`.
#[inline]
pub fn absorb(h: u64, w: u64) -> u64 {
    mix64(h.wrapping_mul(MULTIPLIER) ^ w)
}

/// The digest of one line: the wrapping sum of `mix64((i << 32) | byte)` over its bytes.
pub fn digest(line: &[u8]) -> u64 {
    line.iter().enumerate().fold(0u64, |sum, (i, &b)| {
        sum.wrapping_add(mix64(((i as u64) << 32) | b as u64))
    })
}

/// The key of `seat` before its record has any entry.
#[inline]
pub fn start(seat: Seat) -> u64 {
    mix64(ORIGIN ^ seat as u64)
}

/// The key of an information-state string (`seat N`, then one line per entry); `None` when
/// its first line is not `seat N`.
pub fn key_of_text(text: &str) -> Option<u64> {
    let mut lines = text.split('\n');
    let seat: Seat = lines.next()?.strip_prefix("seat ")?.parse().ok()?;
    Some(lines.fold(start(seat), |h, line| absorb(h, digest(line.as_bytes()))))
}

/// `h` after the line `prefix` + `rest`.
fn absorb_line(h: u64, prefix: &str, rest: &str) -> u64 {
    let mut line = String::with_capacity(prefix.len() + rest.len());
    line.push_str(prefix);
    line.push_str(rest);
    absorb(h, digest(line.as_bytes()))
}

/// Every seat's key while a game is played, updated after each action (cheap to clone: the
/// observations last seen are shared).
#[derive(Clone, Debug)]
pub struct Tracker {
    keys: Vec<u64>,
    seen: Vec<Arc<Value>>,
}

impl Tracker {
    /// The keys at `state`, the start of a game (every seat's first observation).
    pub fn new<G: Game>(game: &G, state: &G::State) -> Self {
        let seats = game.num_players();
        let mut t = Tracker {
            keys: Vec::with_capacity(seats),
            seen: Vec::with_capacity(seats),
        };
        for seat in 0..seats {
            let seen = game.observation(state, seat);
            t.keys
                .push(absorb_line(start(seat), "saw ", &seen.to_string()));
            t.seen.push(Arc::new(seen));
        }
        t
    }

    /// `seat`'s key now.
    #[inline]
    pub fn key(&self, seat: Seat) -> u64 {
        self.keys[seat]
    }

    /// Plays `action` by `mover` in `state` and updates every seat's key.
    pub fn apply<G: Game>(&mut self, game: &G, state: &mut G::State, mover: Seat, action: Action) {
        if let Some(k) = self.keys.get_mut(mover) {
            *k = absorb_line(*k, "played ", &game.action_name(state, action));
        }
        game.apply(state, action);
        for (seat, (k, last)) in self.keys.iter_mut().zip(&mut self.seen).enumerate() {
            let seen = game.observation(state, seat);
            if seen != **last {
                *k = absorb_line(*k, "saw ", &changes(Some(last), &seen).to_string());
                *last = Arc::new(seen);
            }
        }
    }
}

/// A hasher for maps keyed by these keys: they are hashes already, used as they are.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

/// The map builder for [`KeyHasher`].
pub type KeyBuild = BuildHasherDefault<KeyHasher>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::duell_der_drachen::DuellDerDrachen;
    use crate::games::duo::Duo;
    use crate::games::duo_regna::DuoRegna;
    use crate::games::regine::Regine;
    use crate::games::regnum::Regnum;
    use crate::options::Options;
    use crate::rng::{derive_seed, Rng};
    use crate::session::Session;
    use std::sync::Arc;

    /// Plays random games and checks the tracker's keys against the keys of the session's
    /// information-state strings.
    fn tracker_matches_record<G: Game>(options: Options, games: u64) {
        let game = Arc::new(G::from_options(&options).unwrap());
        for g in 0..games {
            let seed = derive_seed(99, g);
            let mut session = Session::new(game.clone(), seed);
            let mut state = game.new_state(Rng::new(seed));
            let mut tracker = Tracker::new(&*game, &state);
            let mut rng = Rng::new(seed ^ 1);
            for step in 0.. {
                if step % 11 == 0 || session.is_terminal() {
                    for seat in 0..game.num_players() {
                        let text = session.information_state_string(seat as i64).unwrap();
                        assert_eq!(
                            Some(tracker.key(seat)),
                            key_of_text(&text),
                            "{}",
                            G::NAMES.name
                        );
                    }
                }
                let Some(mover) = game.current_player(&state) else {
                    break;
                };
                let a = crate::game::uniform_action(&game.legal_actions(&state), &mut rng);
                tracker.apply(&*game, &mut state, mover, a);
                session.apply(a as i64).unwrap();
            }
        }
    }

    fn options(json: serde_json::Value) -> Options {
        json.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn the_tracker_follows_the_record_in_every_game() {
        tracker_matches_record::<DuoRegna>(options(serde_json::json!({"max_rounds": 12})), 4);
        tracker_matches_record::<Duo>(options(serde_json::json!({"players": 3, "rounds": 1})), 2);
        tracker_matches_record::<DuellDerDrachen>(options(serde_json::json!({})), 4);
        tracker_matches_record::<Regine>(options(serde_json::json!({"target": 5})), 2);
        tracker_matches_record::<Regnum>(options(serde_json::json!({"max_turns": 30})), 2);
    }

    #[test]
    fn a_key_reads_every_line_in_order() {
        let a = key_of_text("seat 0\nsaw {\"x\":1}\nplayed A").unwrap();
        assert_eq!(
            a,
            absorb(
                absorb(start(0), digest(b"saw {\"x\":1}")),
                digest(b"played A")
            )
        );
        assert_ne!(a, key_of_text("seat 1\nsaw {\"x\":1}\nplayed A").unwrap());
        assert_ne!(a, key_of_text("seat 0\nplayed A\nsaw {\"x\":1}").unwrap());
        assert_ne!(digest(b"ab"), digest(b"ba"));
        assert_eq!(key_of_text("player 0"), None);
    }
}
