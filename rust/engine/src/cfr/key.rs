//! Compact perfect-recall information-state keys: one `u64` per (state, seat), mirrored bit
//! for bit by `python/regalia/reference/recall.py` (`key_of_record`).
//!
//! A seat's key hashes its action-observation history through the game's observation
//! *tensor*: the seat's observation tensor at the start, then after each action its own
//! action's id when it played it, and its observation tensor again whenever that differs from
//! the last one the key took in. The tensor is written by each game for every seat and is the
//! same bit for bit in Rust and in the reference (the differential tests check it), so the
//! key needs no code of its own per game and no text. It is integer arithmetic on the
//! tensor's `f32` bit patterns with the SplitMix64 finaliser as mixer, the same in Rust and
//! in the reference and on every platform:
//!
//! * `digest(tensor) = Σ mix64((i << 32) | bits(tensor[i]))` over the entries whose bits are
//!   not zero (wrapping sum; `bits` is the `f32`'s IEEE-754 pattern);
//! * `absorb(h, w) = mix64((h * 0x9E3779B97F4A7C15) ^ w)` (wrapping product);
//! * a seat's key starts at `mix64(ORIGIN ^ seat)`, absorbs the digest of its first tensor,
//!   then in order `PLAYED ^ action` for each of its own actions and the digest of each new
//!   tensor (one whose digest differs from the last digest absorbed).
//!
//! A key stands for one information state as long as the tensor tells apart every two
//! observations of the seat that differ (up to a 64-bit hash collision): the tests check,
//! over small variants of every game, that no key stands for two information-state strings
//! and no string has two keys. [`Tracker`] keeps every seat's key while a game is played, for
//! the solvers, in fixed-size arrays (cheap to copy); [`key_of_record`] computes it from a
//! seat's record ([`crate::recall`]), for a session.

use crate::actions::Action;
use crate::game::{Game, Seat};
use crate::recall::Entry;
use crate::tensor::TensorOut;
use std::hash::{BuildHasherDefault, Hasher};

/// Where every key starts, before the seat is mixed in (`"REGALIA2"` in ASCII).
pub const ORIGIN: u64 = 0x5245_4741_4C49_4132;
/// What a seat's own action is marked with before it is absorbed (`"PLAYED"` in ASCII, then
/// two zero bytes, which hold the action id).
pub const PLAYED: u64 = 0x504C_4159_4544_0000;
/// The multiplier of [`absorb`] (the golden-ratio constant of SplitMix64).
const MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;
/// The most seats a [`Tracker`] holds (the largest game's).
pub const MAX_SEATS: usize = 6;

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

/// The digest of an observation tensor: the wrapping sum of `mix64((i << 32) | bits)` over
/// its entries whose bit pattern is not zero.
#[inline]
pub fn digest(tensor: &[f32]) -> u64 {
    // Tensors are mostly zeros: a block whose entries' bits OR to zero is skipped (a test the
    // compiler vectorises); in the others the nonzero entries are found as a bit mask, and
    // only they are mixed.
    let blocks = tensor.chunks_exact(BLOCK);
    let rest = blocks.remainder();
    let mut sum = 0u64;
    for (b, block) in blocks.enumerate() {
        let block: &[f32; BLOCK] = block.try_into().expect("chunks_exact gives whole blocks");
        if block.iter().fold(0u32, |m, x| m | x.to_bits()) != 0 {
            sum = sum.wrapping_add(digest_block(b * BLOCK, block));
        }
    }
    sum.wrapping_add(digest_block(tensor.len() - rest.len(), rest))
}

/// Entries a block of [`digest`] holds (at most 32: a block's mask is a `u32`).
const BLOCK: usize = 32;

/// The part of [`digest`] from `entries`, the first at index `first`.
#[inline]
fn digest_block(first: usize, entries: &[f32]) -> u64 {
    let mut nonzero = entries
        .iter()
        .enumerate()
        .fold(0u32, |m, (j, x)| m | u32::from(x.to_bits() != 0) << j);
    let mut sum = 0u64;
    while nonzero != 0 {
        let j = nonzero.trailing_zeros() as usize;
        nonzero &= nonzero - 1;
        let word = (((first + j) as u64) << 32) | entries[j].to_bits() as u64;
        sum = sum.wrapping_add(mix64(word));
    }
    sum
}

/// The key of `seat` before it has seen anything.
#[inline]
pub fn start(seat: Seat) -> u64 {
    mix64(ORIGIN ^ seat as u64)
}

/// The word a seat's own `action` adds to its key.
#[inline]
pub fn played(action: Action) -> u64 {
    PLAYED ^ action as u64
}

/// What a key needs to digest a game's observation tensors: the term each entry adds when it
/// is `1.0` (the flags, one-hots and masks most entries are), computed once. The digest is
/// taken as the game writes its tensor ([`Game::write_observation`]), entry by entry, so no
/// buffer is filled, cleared or scanned: the same sum as [`digest`] of the dense tensor.
#[derive(Clone, Debug)]
pub struct Scratch(Vec<u64>);

impl Scratch {
    /// For `game`'s observation tensor.
    pub fn new<G: Game>(game: &G) -> Self {
        let len: usize = game.observation_shape().iter().product();
        Scratch((0..len).map(|i| term(i, ONE)).collect())
    }

    /// The digest of `seat`'s observation tensor in `state`.
    #[inline]
    pub fn digest<G: Game>(&mut self, game: &G, state: &G::State, seat: Seat) -> u64 {
        let mut sum = Digesting {
            ones: &self.0,
            sum: 0,
        };
        game.write_observation(state, seat, &mut sum);
        sum.sum
    }
}

/// The bits of `1.0f32`.
const ONE: u32 = 0x3F80_0000;

/// What entry `i` adds to a digest when its bits are `bits` (not zero).
#[inline]
fn term(i: usize, bits: u32) -> u64 {
    mix64(((i as u64) << 32) | bits as u64)
}

/// [`digest`] summed as the tensor is written.
struct Digesting<'s> {
    /// Each entry's term when it is `1.0`; as long as the tensor (entries past it are
    /// dropped, as from a dense buffer).
    ones: &'s [u64],
    sum: u64,
}

impl TensorOut for Digesting<'_> {
    #[inline]
    fn put(&mut self, i: usize, x: f32) {
        let bits = x.to_bits();
        if bits != 0 && i < self.ones.len() {
            let t = if bits == ONE {
                self.ones[i]
            } else {
                term(i, bits)
            };
            self.sum = self.sum.wrapping_add(t);
        }
    }
}

/// Every seat's running key and the digest it absorbed last, in fixed-size arrays: what
/// [`Tracker`] and [`SeededTracker`] both keep.
#[derive(Clone, Copy, Debug)]
struct Keys {
    /// Each seat's key.
    keys: [u64; MAX_SEATS],
    /// The digest each seat's key absorbed last.
    seen: [u64; MAX_SEATS],
    /// Seats in the game.
    seats: usize,
}

impl Keys {
    /// Every seat of `game` at its starting key, nothing seen yet.
    ///
    /// # Panics
    /// If the game has more than [`MAX_SEATS`] seats (no game has).
    fn new<G: Game>(game: &G) -> Self {
        let seats = game.num_players();
        assert!(
            seats <= MAX_SEATS,
            "a key tracker holds at most {MAX_SEATS} seats"
        );
        let mut keys = [0; MAX_SEATS];
        for (seat, key) in keys.iter_mut().enumerate().take(seats) {
            *key = start(seat);
        }
        Keys {
            keys,
            seen: [0; MAX_SEATS],
            seats,
        }
    }

    /// `mover`'s own action, absorbed into its key (nothing when `mover` is no seat).
    #[inline]
    fn played(&mut self, mover: Seat, action: Action) {
        if mover < self.seats {
            self.keys[mover] = absorb(self.keys[mover], played(action));
        }
    }

    /// Every seat's observation tensor in `state`, absorbed where it is new (every one when
    /// `all`).
    #[inline]
    fn observe<G: Game>(&mut self, game: &G, state: &G::State, scratch: &mut Scratch, all: bool) {
        for seat in 0..self.seats {
            let d = scratch.digest(game, state, seat);
            if all || d != self.seen[seat] {
                self.keys[seat] = absorb(self.keys[seat], d);
                self.seen[seat] = d;
            }
        }
    }
}

/// Every seat's key while a game is played, updated after each action: fixed-size arrays,
/// copied as they are (no allocation).
#[derive(Clone, Copy, Debug)]
pub struct Tracker(Keys);

impl Tracker {
    /// The keys at `state`, the start of a game (every seat's first observation).
    ///
    /// # Panics
    /// If the game has more than [`MAX_SEATS`] seats (no game has).
    pub fn new<G: Game>(game: &G, state: &G::State, scratch: &mut Scratch) -> Self {
        let mut keys = Keys::new(game);
        keys.observe(game, state, scratch, true);
        Tracker(keys)
    }

    /// `seat`'s key now.
    #[inline]
    pub fn key(&self, seat: Seat) -> u64 {
        self.0.keys[seat]
    }

    /// Plays `action` by `mover` (any value that is not a seat at a chance node) in `state`
    /// and updates every seat's key.
    pub fn apply<G: Game>(
        &mut self,
        game: &G,
        state: &mut G::State,
        mover: Seat,
        action: Action,
        scratch: &mut Scratch,
    ) {
        self.0.played(mover, action);
        game.apply(state, action);
        self.0.observe(game, state, scratch, false);
    }

    /// [`Tracker::apply`], except that where the game ends the keys are left as they were:
    /// for the solvers, which read no key at the end (it saves every seat's tensor there).
    pub fn apply_unless_over<G: Game>(
        &mut self,
        game: &G,
        state: &mut G::State,
        mover: Seat,
        action: Action,
        scratch: &mut Scratch,
    ) {
        self.0.played(mover, action);
        game.apply(state, action);
        if game.current_player(state).is_some() || game.is_chance_node(state) {
            self.0.observe(game, state, scratch, false);
        }
    }
}

/// `seat`'s key from its record (see [`crate::recall`]): the same as a [`Tracker`]'s after
/// the same game, as long as the seat's observation tensor changes only when its observation
/// does (a tensor that shows only what the seat sees).
pub fn key_of_record<G: Game>(game: &G, seat: Seat, record: &[Entry<G::State>]) -> u64 {
    let mut scratch = Scratch::new(game);
    let mut seen = None;
    record.iter().fold(start(seat), |key, e| match e {
        Entry::Saw(_, state) => {
            let d = scratch.digest(game, state, seat);
            if seen == Some(d) {
                return key;
            }
            seen = Some(d);
            absorb(key, d)
        }
        Entry::Played(a, _) => absorb(key, played(*a)),
    })
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

/// Every seat's key as the game's *seeded* mode would have it, kept while a game with explicit
/// chance is walked: the same words as [`Tracker`]'s, but a seat's observation tensor is taken
/// in only where someone decides (never at a chance node), so a run of chance outcomes (a deal
/// card by card, a draw after a move) is seen once, as it is when a seeded game draws it
/// inside one step. A policy trained on the seeded game is keyed so, and can be looked up in
/// the explicit game's tree by these keys ([`super::tree::Tree::seeded_keys`]). Two explicit
/// information sets that differ only in the order of chance outcomes the seat saw within one
/// run have the same seeded key: the seeded game never shows that order.
#[derive(Clone, Copy, Debug)]
pub struct SeededTracker {
    /// Every seat's key.
    keys: Keys,
    /// Whether the first decision (where the seeded game starts) has been reached.
    started: bool,
}

impl SeededTracker {
    /// The keys at `state`, the root of a game with explicit chance (or any state).
    ///
    /// # Panics
    /// If the game has more than [`MAX_SEATS`] seats (no game has).
    pub fn new<G: Game>(game: &G, state: &G::State, scratch: &mut Scratch) -> Self {
        let mut t = SeededTracker {
            keys: Keys::new(game),
            started: false,
        };
        if game.current_player(state).is_some() {
            t.observe(game, state, scratch);
        }
        t
    }

    /// `seat`'s key now.
    #[inline]
    pub fn key(&self, seat: Seat) -> u64 {
        self.keys.keys[seat]
    }

    /// Updates every seat's key after `mover` (any value that is not a seat at a chance node)
    /// played `action`, which led to `state`: the mover's action, and every seat's tensor
    /// where `state` is a decision.
    pub fn after<G: Game>(
        &mut self,
        game: &G,
        state: &G::State,
        mover: Seat,
        action: Action,
        scratch: &mut Scratch,
    ) {
        self.keys.played(mover, action);
        if game.current_player(state).is_some() {
            self.observe(game, state, scratch);
        }
    }

    /// Every seat's observation tensor in `state`, absorbed where it is new (all of them at
    /// the first decision).
    fn observe<G: Game>(&mut self, game: &G, state: &G::State, scratch: &mut Scratch) {
        self.keys.observe(game, state, scratch, !self.started);
        self.started = true;
    }
}

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
    /// records.
    fn tracker_matches_record<G: Game>(options: Options, games: u64) {
        let game = Arc::new(G::from_options(&options).unwrap());
        let mut scratch = Scratch::new(&*game);
        for g in 0..games {
            let seed = derive_seed(99, g);
            let mut session = Session::new(game.clone(), seed);
            let mut state = game.new_state(Rng::new(seed));
            let mut tracker = Tracker::new(&*game, &state, &mut scratch);
            let mut rng = Rng::new(seed ^ 1);
            for step in 0.. {
                if step % 11 == 0 || session.is_terminal() {
                    for seat in 0..game.num_players() {
                        assert_eq!(
                            tracker.key(seat),
                            session.information_state_key(seat as i64).unwrap(),
                            "{}",
                            G::NAMES.name
                        );
                    }
                }
                let Some(mover) = game.current_player(&state) else {
                    break;
                };
                let a = crate::game::uniform_action(&game.legal_actions(&state), &mut rng);
                tracker.apply(&*game, &mut state, mover, a, &mut scratch);
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

    /// Plays random games and checks, at every step and for every seat, the digest taken as
    /// the tensor is written against the digest of the dense tensor.
    fn streamed_digest_matches_dense<G: Game>(options: Options, games: u64) {
        let game = G::from_options(&options).unwrap();
        let mut scratch = Scratch::new(&game);
        let mut dense = vec![0.0; game.observation_shape().iter().product()];
        for g in 0..games {
            let mut state = game.new_state(Rng::new(derive_seed(7, g)));
            let mut rng = Rng::new(g);
            loop {
                for seat in 0..game.num_players() {
                    dense.fill(0.0);
                    game.observation_tensor(&state, seat, &mut dense);
                    assert_eq!(
                        scratch.digest(&game, &state, seat),
                        digest(&dense),
                        "{}",
                        G::NAMES.name
                    );
                }
                let legal = game.legal_actions(&state);
                if legal.is_empty() {
                    break;
                }
                let a = crate::game::uniform_action(&legal, &mut rng);
                game.apply(&mut state, a);
            }
        }
    }

    /// [`streamed_digest_matches_dense`] with `json`'s options, seeded and explicit.
    fn both_modes<G: Game>(json: serde_json::Value, games: u64) {
        let mut explicit = json.clone();
        explicit["chance"] = "explicit".into();
        streamed_digest_matches_dense::<G>(options(json), games);
        streamed_digest_matches_dense::<G>(options(explicit), games);
    }

    #[test]
    fn the_streamed_digest_is_the_dense_one_in_every_game() {
        both_modes::<DuoRegna>(serde_json::json!({"max_rounds": 12}), 3);
        both_modes::<Duo>(serde_json::json!({"players": 3, "rounds": 1}), 2);
        both_modes::<DuellDerDrachen>(serde_json::json!({}), 3);
        both_modes::<Regine>(serde_json::json!({"target": 5}), 2);
        both_modes::<Regnum>(serde_json::json!({"max_turns": 30, "players": 3}), 2);
    }

    #[test]
    fn every_game_fits_the_tracker() {
        for info in crate::registry::games() {
            assert!(info.max_players <= MAX_SEATS, "{}", info.name);
        }
    }

    #[test]
    fn a_digest_reads_every_nonzero_entry_and_its_place() {
        assert_eq!(digest(&[0.0, 0.0]), 0);
        assert_eq!(
            digest(&[0.0, 1.0]),
            mix64((1 << 32) | 1.0f32.to_bits() as u64)
        );
        assert_ne!(digest(&[1.0, 0.0]), digest(&[0.0, 1.0]));
        assert_ne!(digest(&[0.0, 1.0]), digest(&[0.0, 2.0]));
        assert_ne!(digest(&[-0.0]), digest(&[0.0]));
        assert_eq!(digest(&[1.0, 0.0, 2.0]), digest(&[1.0, 0.0, 2.0, 0.0]));
        let long: Vec<f32> = (0..200).map(|i| (i % 7) as f32 - 3.0).collect();
        let by_entry = long.iter().enumerate().fold(0u64, |sum, (i, x)| {
            let word = ((i as u64) << 32) | x.to_bits() as u64;
            sum.wrapping_add(if x.to_bits() == 0 { 0 } else { mix64(word) })
        });
        assert_eq!(digest(&long), by_entry);
        assert_ne!(played(3), played(4));
        assert_ne!(start(0), start(1));
    }
}
