//! Robustness checks driven by arbitrary bytes, for every registered game: shared by the
//! stable fuzz test (`rust/engine/tests/fuzz.rs`, part of `cargo test`) and the cargo-fuzz
//! targets (`fuzz/`). Any input is allowed. A panic means the engine broke its contract:
//! a panic reachable from Python, a refused action that changed the state, a loaded state
//! that later fails its own checks, a game that does not end.

use crate::rng::Rng;
use crate::session::{DynGame, DynState};
use crate::{all_games, load_state, make, Options, MAX_ACTIONS};
use serde_json::Value;
use std::sync::Arc;

/// Steps after which a random game counts as endless (no game comes near it).
const MAX_STEPS: usize = 2_000_000;

/// The fuzzer's bytes read as numbers, front to back; zeros once they run out.
pub struct ByteReader<'a> {
    data: &'a [u8],
}

impl<'a> ByteReader<'a> {
    /// Reads `data`.
    pub fn new(data: &'a [u8]) -> Self {
        ByteReader { data }
    }

    /// The next byte (0 once exhausted).
    pub fn u8(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    /// The next two bytes, little-endian.
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }

    /// The next eight bytes, little-endian.
    pub fn u64(&mut self) -> u64 {
        let mut b = [0u8; 8];
        b.iter_mut().for_each(|x| *x = self.u8());
        u64::from_le_bytes(b)
    }

    /// Whether every byte has been read.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// What is left, consumed.
    pub fn rest(&mut self) -> &'a [u8] {
        std::mem::take(&mut self.data)
    }
}

/// A game and player count chosen by the next byte (default options).
pub fn pick_game(r: &mut ByteReader) -> Arc<dyn DynGame> {
    let configs: Vec<(&str, usize)> = all_games()
        .iter()
        .flat_map(|g| (g.min_players..=g.max_players).map(move |n| (g.name, n)))
        .collect();
    let (name, players) = configs[r.u8() as usize % configs.len()];
    let mut o = Options::new();
    o.insert("players".into(), Value::from(players));
    match make(name, &o) {
        Ok(g) => g,
        Err(e) => panic!("{name} with {players} players is listed but cannot be made: {e}"),
    }
}

fn ok<T, E: std::fmt::Display>(r: Result<T, E>, what: &str) -> T {
    r.unwrap_or_else(|e| panic!("{what}: {e}"))
}

/// Everything a state promises, checked without changing it: its own invariants, a legal
/// set that is empty exactly at the end, returns only at the end (zero-sum), every seat's
/// observation and tensor, action names, a refused illegal action, the JSON round trip
/// (one call in four with a seed, whose replay costs a whole game), and a determinization (`probe` picks the seat and seed) that passes its checks and
/// looks the same to its seat.
pub fn check_contract(game: &dyn DynGame, s: &dyn DynState, probe: u64) {
    let n = s.num_players();
    ok(s.check_state(), "a reachable state fails check_state");
    let legal = s.legal_actions();
    assert_eq!(
        legal.is_empty(),
        s.is_terminal(),
        "legal actions vs terminal"
    );
    assert_eq!(s.current_player().is_none(), s.is_terminal());
    assert!(
        s.current_player().is_none_or(|p| p < n),
        "current player out of range"
    );
    assert!(legal.iter().all(|a| (a as usize) < s.num_actions()));
    let r = s.returns();
    assert_eq!(r.len(), n);
    if s.is_terminal() {
        assert!(
            r.iter().sum::<f64>().abs() < 1e-9,
            "returns not zero-sum: {r:?}"
        );
    } else {
        assert!(r.iter().all(|&x| x == 0.0), "returns before the end: {r:?}");
    }
    assert_eq!(s.scores().len(), n);
    let size: usize = game.observation_shape().iter().product();
    let mut buf = vec![0.0f32; size];
    for seat in 0..n as i64 {
        ok(s.observation(seat), "observation");
        ok(s.observation_tensor(seat, &mut buf), "observation tensor");
        assert!(
            buf.iter().all(|x| x.is_finite()),
            "tensor holds a non-finite value"
        );
    }
    assert!(s.observation(n as i64).is_err() && s.observation(-1).is_err());
    // Names of the legal actions and of a sample of the others (all of them in small games).
    let mut picker = Rng::new(probe);
    for a in legal.iter() {
        ok(s.action_name(a as i64), "action name");
    }
    for _ in 0..s.num_actions().min(32) {
        ok(
            s.action_name(picker.index(s.num_actions()) as i64),
            "action name",
        );
    }
    assert!(s.action_name(s.num_actions() as i64).is_err());
    let before = s.to_json();
    let mut c = s.clone_box();
    if let Some(bad) = (0..s.num_actions()).find(|&a| !legal.contains(a)) {
        assert!(
            c.apply(bad as i64).is_err(),
            "an illegal action was accepted"
        );
    }
    assert!(c.apply(-1).is_err() && c.apply(i64::MAX).is_err());
    assert_eq!(c.to_json(), before, "a refused action changed the state");
    // The round trip replays the whole history: one check in four (always without a seed).
    if probe % 4 == 0 || s.seed().is_none() {
        let back = ok(
            game.state_from_json(&before),
            "a state's own JSON is refused",
        );
        assert!(back.same_as(s), "the JSON round trip changed the state");
    }
    let seat = (probe % n as u64) as i64;
    let d = ok(s.determinize(seat, probe), "determinize");
    ok(d.check_state(), "a determinized state fails check_state");
    assert_eq!(
        ok(d.observation(seat), "obs"),
        ok(s.observation(seat), "obs")
    );
    if s.current_player() == Some(seat as usize) {
        assert_eq!(
            d.legal_actions(),
            legal,
            "determinizing changed the legal actions"
        );
    }
}

/// Plays `s` to the end with random legal moves drawn from `seed`, checking the state's
/// invariants after every step and the whole contract now and then.
pub fn play_out(game: &dyn DynGame, s: &mut dyn DynState, seed: u64) {
    let mut picker = Rng::new(seed);
    let mut steps = 0;
    while !s.is_terminal() {
        let legal = s.legal_actions();
        assert!(!legal.is_empty(), "no legal action in a running game");
        let a = legal.nth(picker.index(legal.len())).unwrap_or_default();
        ok(s.apply(a as i64), "a legal action was refused");
        ok(s.check_state(), "a reachable state fails check_state");
        if picker.below(64) == 0 {
            check_contract(game, s, picker.next_u32() as u64);
        }
        steps += 1;
        assert!(steps < MAX_STEPS, "the game does not end");
    }
    check_contract(game, s, seed);
}

/// A state of the chosen game after a number of random moves, all chosen by the bytes.
fn random_state(game: &dyn DynGame, r: &mut ByteReader) -> Box<dyn DynState> {
    let mut s = game.new_state(r.u64());
    let mut picker = Rng::new(r.u64());
    for _ in 0..r.u8() {
        let legal = s.legal_actions();
        if legal.is_empty() {
            break;
        }
        let a = legal.nth(picker.index(legal.len())).unwrap_or_default();
        ok(s.apply(a as i64), "a legal action was refused");
    }
    s
}

/// Target `actions`: a game, then a sequence of actions of any id (legal or not, in range
/// or not) and of probes (names, parsing, determinizing); then random play to the end.
/// Returns whether an illegal action was tried.
pub fn actions(data: &[u8]) -> bool {
    let mut tried_illegal = false;
    let mut r = ByteReader::new(data);
    let game = pick_game(&mut r);
    let mut s = game.new_state(r.u64());
    while !r.is_empty() && !s.is_terminal() {
        let legal = s.legal_actions();
        let op = r.u8();
        match op % 8 {
            0..=3 => {
                let a = legal
                    .nth(r.u16() as usize % legal.len())
                    .unwrap_or_default();
                ok(s.apply(a as i64), "a legal action was refused");
            }
            4 | 5 => {
                let a = match op / 8 % 4 {
                    0 => r.u16() as i64 % MAX_ACTIONS as i64,
                    1 => r.u64() as i64,
                    2 => -(r.u16() as i64),
                    _ => s.num_actions() as i64 + r.u8() as i64,
                };
                let before = s.to_json();
                let is_legal = usize::try_from(a).is_ok_and(|a| legal.contains(a));
                assert_eq!(s.apply(a).is_ok(), is_legal, "action {a}");
                if !is_legal {
                    tried_illegal = true;
                    assert_eq!(s.to_json(), before, "a refused action changed the state");
                }
            }
            6 => {
                let len = r.u8() as usize % 16;
                let text: String = (0..len).map(|_| (r.u8() % 96 + 32) as char).collect();
                if let Ok(a) = s.parse_action(&text) {
                    assert!((a as usize) < s.num_actions());
                }
                let _ = s.action_name(r.u64() as i64);
            }
            _ => check_contract(&*game, &*s, r.u64()),
        }
        ok(s.check_state(), "a reachable state fails check_state");
    }
    play_out(&*game, &mut *s, r.u64());
    tried_illegal
}

/// Interesting integers for a mutated JSON number.
const EDGE_NUMBERS: [i128; 14] = [
    0,
    1,
    2,
    -1,
    3,
    7,
    255,
    256,
    511,
    65_535,
    4_294_967_295,
    9_223_372_036_854_775_807,
    18_446_744_073_709_551_615,
    -9_223_372_036_854_775_808,
];

fn number(r: &mut ByteReader) -> Value {
    let k = r.u8() as usize;
    match k % 4 {
        0 | 1 => {
            let x = EDGE_NUMBERS[k / 4 % EDGE_NUMBERS.len()];
            u64::try_from(x)
                .map(Value::from)
                .unwrap_or_else(|_| Value::from(x as i64))
        }
        2 => Value::from(r.u8() as i64 - 8),
        _ => Value::from(r.u64()),
    }
}

fn count_nodes(v: &Value) -> usize {
    1 + match v {
        Value::Array(a) => a.iter().map(count_nodes).sum(),
        Value::Object(o) => o.values().map(count_nodes).sum(),
        _ => 0,
    }
}

fn node_mut(v: &mut Value, mut index: usize) -> &mut Value {
    if index == 0 {
        return v;
    }
    index -= 1;
    let children: Vec<&mut Value> = match v {
        Value::Array(a) => a.iter_mut().collect(),
        Value::Object(o) => o.values_mut().collect(),
        _ => Vec::new(),
    };
    for child in children {
        let size = count_nodes(child);
        if index < size {
            return node_mut(child, index);
        }
        index -= size;
    }
    unreachable!("node index within count_nodes")
}

/// Changes one node of `v` (not the root, unless it is the only one), chosen and changed by the bytes: mostly small, plausible
/// changes (a number nudged, two array items swapped, a bool flipped), sometimes an edge
/// number, a value of another type, an array shortened or grown, a key dropped or added.
pub fn mutate(v: &mut Value, r: &mut ByteReader) {
    let nodes = count_nodes(v);
    let index = if nodes > 1 {
        1 + r.u16() as usize % (nodes - 1)
    } else {
        0
    };
    let node = node_mut(v, index);
    let op = r.u8();
    match (op % 16, &mut *node) {
        (0..=2, Value::Array(a)) if a.len() > 1 => {
            let (i, j) = (r.u8() as usize % a.len(), r.u8() as usize % a.len());
            a.swap(i, j);
        }
        (0..=7, Value::Number(n)) => {
            let x = n.as_i64().unwrap_or(0);
            let step = 1 + (op >> 6) as i64;
            *node = Value::from(x.wrapping_add(if op & 16 == 0 { step } else { -step }));
        }
        (0..=7, Value::Bool(b)) => *b = !*b,
        (0..=8, _) => *node = number(r),
        (9, _) => *node = Value::Null,
        (10, _) => *node = Value::from(op & 32 == 0),
        (11, _) => *node = Value::from("x"),
        (12, Value::Array(a)) if !a.is_empty() => {
            a.truncate(r.u8() as usize % a.len());
        }
        (13, Value::Array(a)) => {
            let item = a.last().cloned().unwrap_or_else(|| number(r));
            a.push(item);
        }
        (14, Value::Object(o)) if !o.is_empty() => {
            let key = o.keys().nth(r.u8() as usize % o.len()).cloned();
            if let Some(k) = key {
                o.remove(&k);
            }
        }
        (15, Value::Object(o)) => {
            o.insert("extra".into(), number(r));
        }
        _ => *node = Value::Array(Vec::new()),
    }
}

/// Target `state_json`: text read as a saved state, either the bytes themselves or a real
/// saved state (with or without its seed) changed in a few places. A refused text must be
/// refused with an error; an accepted one must then pass every check and play to the end.
/// Returns whether the text was accepted.
pub fn state_json(data: &[u8]) -> bool {
    let mut r = ByteReader::new(data);
    let mode = r.u8();
    let game = pick_game(&mut r);
    let text = if mode % 8 == 7 {
        String::from_utf8_lossy(r.rest()).into_owned()
    } else {
        let mut s = random_state(&*game, &mut r);
        if mode & 4 != 0 {
            s = ok(
                s.determinize(r.u8() as i64 % s.num_players() as i64, r.u64()),
                "determinize",
            );
        }
        let mut v: Value = ok(serde_json::from_str(&s.to_json()), "a state's own JSON");
        if mode & 24 != 24 {
            v["seed"] = Value::Null;
            v["history"] = Value::Array(Vec::new());
        }
        for _ in 0..1 + r.u8() % 3 {
            match v.get_mut("state") {
                Some(state) if mode & 64 == 0 => mutate(state, &mut r),
                _ => mutate(&mut v, &mut r),
            }
        }
        let mut text = v.to_string();
        if mode & 160 == 160 {
            let cut = r.u16() as usize % (text.len() + 1);
            text = String::from_utf8_lossy(&text.as_bytes()[..cut]).into_owned();
        }
        text
    };
    // The file may name other options (or another game): `load_state` then makes that one.
    let any = load_state(&text);
    let loaded = game.state_from_json(&text);
    if let Ok(s) = &loaded {
        let same = any.as_ref().map(|(_, a)| a.to_json());
        assert_eq!(
            same.ok(),
            Some(s.to_json()),
            "load_state disagrees with the game's loader"
        );
    }
    match any {
        Ok((game, mut s)) => {
            check_contract(&*game, &*s, r.u64());
            play_out(&*game, &mut *s, r.u64());
            true
        }
        Err(_) => false,
    }
}

/// Target `options`: any JSON object as a game's options. Refused with an error, or the
/// game is made and a random game of it plays to the end with every check. Returns whether
/// the options were accepted.
pub fn options(data: &[u8]) -> bool {
    let mut r = ByteReader::new(data);
    let infos = all_games();
    let info = infos[r.u8() as usize % infos.len()];
    let mode = r.u8();
    let given: Value = if mode % 2 == 0 {
        match serde_json::from_slice(r.rest()) {
            Ok(v) => v,
            Err(_) => return false,
        }
    } else {
        let default = ok(make(info.name, &Options::new()), "default options");
        let mut v = Value::Object(default.options());
        for _ in 0..1 + r.u8() % 3 {
            mutate(&mut v, &mut r);
        }
        v
    };
    let Value::Object(options) = given else {
        return false;
    };
    let Ok(game) = make(info.name, &options) else {
        return false;
    };
    let again = ok(make(info.name, &game.options()), "a game's own options");
    assert_eq!(again.options(), game.options(), "options do not round-trip");
    let mut s = game.new_state(r.u64());
    play_out(&*game, &mut *s, r.u64());
    true
}
