//! Robustness checks driven by arbitrary bytes, for every registered game: shared by the
//! stable fuzz test (`rust/engine/tests/fuzz.rs`, part of `cargo test`) and the cargo-fuzz
//! targets (`fuzz/`). Any input is allowed. A panic means the engine broke its contract:
//! a panic reachable from Python, a refused action that changed the state, a loaded state
//! that later fails its own checks, a game that does not end.

use crate::dynamic::{DynGame, DynState};
use crate::rng::Rng;
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

/// The options the generic harnesses (conformance, batches, fuzzing) play game `name` with:
/// `players` seats and the defaults, except that Duo plays `rounds` rounds at most (its
/// default game runs to the target, which random players rarely reach: some 10,000 steps to
/// the stalemate guard, too many to check at every step; its own tests play whole games).
pub fn harness_options(name: &str, players: usize, rounds: u32) -> Options {
    let mut o = Options::new();
    o.insert("players".into(), Value::from(players));
    if name == "duo" {
        o.insert("rounds".into(), Value::from(rounds));
    }
    o
}

/// A game and player count chosen by the next byte (default options, but Duo's games of
/// one round or of three, see [`harness_options`]); a game that supports explicit chance is
/// also chosen in that mode.
pub fn pick_game(r: &mut ByteReader) -> Arc<dyn DynGame> {
    let configs: Vec<(&str, usize, bool)> = all_games()
        .iter()
        .flat_map(|g| {
            let explicit = g.options.iter().any(|o| o.name == "chance");
            (g.min_players..=g.max_players)
                .map(move |n| (g.name, n, false))
                .chain(explicit.then_some((g.name, g.min_players, true)))
        })
        .collect();
    let b = r.u8() as usize;
    let (name, players, explicit) = configs[b % configs.len()];
    let rounds = if (b / configs.len()) % 2 == 0 { 1 } else { 3 };
    let mut options = harness_options(name, players, rounds);
    if explicit {
        options.insert("chance".into(), Value::from("explicit"));
    }
    match make(name, &options) {
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
    assert_eq!(
        s.current_player().is_none(),
        s.is_terminal() || s.is_chance_node()
    );
    assert!(!(s.is_terminal() && s.is_chance_node()));
    if s.is_chance_node() {
        let outcomes = ok(s.chance_outcomes(), "chance outcomes at a chance node");
        assert!(outcomes.iter().map(|&(o, _)| o).eq(legal.iter()));
        let total: f64 = outcomes.iter().map(|&(_, p)| p).sum();
        assert!(outcomes.iter().all(|&(_, p)| p > 0.0) && (total - 1.0).abs() < 1e-12);
    } else {
        assert!(s.chance_outcomes().is_err());
    }
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
        let info = ok(s.action_info(a as i64), "action info");
        assert!(info["kind"].is_string(), "action info without a kind");
    }
    for _ in 0..s.num_actions().min(32) {
        ok(
            s.action_name(picker.index(s.num_actions()) as i64),
            "action name",
        );
    }
    assert!(s.action_name(s.num_actions() as i64).is_err());
    assert!(s.action_info(s.num_actions() as i64).is_err() && s.action_info(-1).is_err());
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
                let _ = s.action_info(r.u64() as i64);
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
    load_and_play(&*game, &text, &mut r)
}

/// Loads `text` with `load_state` and with `game`'s own loader, which must agree; an
/// accepted state must then pass every check and play to the end with `check_state` holding
/// at every step. Returns whether the text was accepted.
fn load_and_play(game: &dyn DynGame, text: &str, r: &mut ByteReader) -> bool {
    // The file may name other options (or another game): `load_state` then makes that one.
    let any = load_state(text);
    let loaded = game.state_from_json(text);
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

/// Numbers a field of a saved state is set to: the edges of the integer types the fields are
/// read as, and the sizes of the card sets, piles and hands around them.
const FIELD_NUMBERS: [i128; 26] = [
    0,
    1,
    2,
    3,
    4,
    5,
    7,
    8,
    9,
    10,
    16,
    31,
    32,
    33,
    40,
    64,
    76,
    80,
    127,
    128,
    255,
    256,
    65_535,
    4_294_967_295,
    18_446_744_073_709_551_615,
    -1,
];

fn field_number(r: &mut ByteReader) -> Value {
    let x = FIELD_NUMBERS[r.u8() as usize % FIELD_NUMBERS.len()];
    u64::try_from(x)
        .map(Value::from)
        .unwrap_or_else(|_| Value::from(x as i64))
}

/// The JSON pointer of every node below `v` (not `v` itself), under `prefix`.
fn pointers(v: &Value, prefix: &str, out: &mut Vec<String>) {
    let children: Vec<(String, &Value)> = match v {
        Value::Array(a) => a
            .iter()
            .enumerate()
            .map(|(i, x)| (i.to_string(), x))
            .collect(),
        Value::Object(o) => o.iter().map(|(k, x)| (k.clone(), x)).collect(),
        _ => Vec::new(),
    };
    for (k, child) in children {
        let at = format!("{prefix}/{k}");
        out.push(at.clone());
        pointers(child, &at, out);
    }
}

/// `levels` arrays, one inside the other, around `inner`.
fn nested(inner: Value, levels: usize) -> Value {
    (0..levels).fold(inner, |v, _| Value::Array(vec![v]))
}

/// Changes one field of a saved state's `state` object the way a damaged or hand-edited file
/// would: a top-level field is chosen first (each as likely as any other, however large),
/// then a node inside it. Numbers become lengths, indices, card ids and counts at the edges
/// of what the field can hold, or the value the same field has in `donor` (another position
/// of the same game, so that values are plausible but inconsistent); lists are cut, grown,
/// reordered, given duplicate or out-of-range entries or swapped for the donor's; any node
/// may be wrapped in arrays, shallowly or deeper than the JSON reader allows.
pub fn mutate_field(state: &mut Value, donor: &Value, r: &mut ByteReader) {
    let Some(fields) = state
        .as_object()
        .map(|o| o.keys().cloned().collect::<Vec<_>>())
    else {
        return mutate(state, r);
    };
    if fields.is_empty() {
        return;
    }
    let field = format!("/{}", fields[r.u8() as usize % fields.len()]);
    let mut inside = vec![field.clone()];
    if let Some(v) = state.pointer(&field) {
        pointers(v, &field, &mut inside);
    }
    let at = inside[r.u16() as usize % inside.len()].clone();
    let from_donor = donor.pointer(&at).cloned();
    let Some(node) = state.pointer_mut(&at) else {
        return;
    };
    let op = r.u8();
    if let (0, Some(d)) = (op % 16, from_donor) {
        *node = d;
        return;
    }
    match (op % 16, &mut *node) {
        (1..=5, Value::Number(n)) => {
            let x = n.as_i64().map_or(u64::MAX as i128, i128::from);
            let by = [1, -1, 2, -2, 32, -32, x, 64][op as usize / 16 % 8];
            let y = x + by;
            *node = u64::try_from(y)
                .map(Value::from)
                .or_else(|_| i64::try_from(y).map(Value::from))
                .unwrap_or(Value::Null);
        }
        (1..=7, Value::Array(a)) => match op / 16 % 8 {
            0 if !a.is_empty() => a.truncate(r.u8() as usize % a.len()),
            1 if !a.is_empty() => {
                let i = r.u8() as usize % a.len();
                a.push(a[i].clone());
            }
            2 if !a.is_empty() => {
                let i = r.u8() as usize % a.len();
                a.insert(r.u8() as usize % (a.len() + 1), a[i].clone());
            }
            3 if a.len() > 1 => {
                let (i, j) = (r.u8() as usize % a.len(), r.u8() as usize % a.len());
                a.swap(i, j);
            }
            4 => a.reverse(),
            5 if !a.is_empty() => {
                a.remove(r.u8() as usize % a.len());
            }
            _ => a.push(field_number(r)),
        },
        (1..=5, Value::Bool(b)) => *b = !*b,
        (1..=5, Value::Null) => *node = field_number(r),
        (1..=5, Value::String(_)) => {
            *node = Value::from(["", "x", "over", "main"][op as usize / 16 % 4])
        }
        (8..=11, _) => *node = field_number(r),
        (12, _) => *node = Value::Null,
        (13, _) => {
            let inner = std::mem::take(node);
            *node = nested(inner, 1 + (op / 16) as usize % 2);
        }
        (14, _) => *node = nested(Value::from(0), 120 + (op / 16) as usize * 2),
        (15, Value::Object(o)) => {
            o.insert("extra".into(), field_number(r));
        }
        _ => mutate(node, r),
    }
}

/// Target `state_fields`: a real saved state (of a random position, sometimes determinized,
/// mostly without its seed so that only the game's own checks can object) changed field by
/// field with [`mutate_field`]. A refused text must be refused with an error; an accepted one
/// must pass every check and play to the end with `check_state` holding at every step: a
/// state that passes the checks but breaks later is a hole in `check_state`. Returns whether
/// the text was accepted.
pub fn state_fields(data: &[u8]) -> bool {
    let mut r = ByteReader::new(data);
    let mode = r.u8();
    let game = pick_game(&mut r);
    let mut s = random_state(&*game, &mut r);
    if mode & 1 != 0 {
        s = ok(
            s.determinize(r.u8() as i64 % s.num_players() as i64, r.u64()),
            "determinize",
        );
    }
    let donor = random_state(&*game, &mut r);
    let donor: Value = ok(serde_json::from_str(&donor.to_json()), "a state's own JSON");
    let mut v: Value = ok(serde_json::from_str(&s.to_json()), "a state's own JSON");
    if mode & 6 != 6 {
        v["seed"] = Value::Null;
        v["history"] = Value::Array(Vec::new());
    }
    for _ in 0..1 + r.u8() % 4 {
        match (v.get_mut("state"), donor.get("state")) {
            (Some(state), Some(d)) if mode & 8 == 0 || mode & 16 == 0 => {
                mutate_field(state, d, &mut r)
            }
            _ => mutate(&mut v, &mut r),
        }
    }
    load_and_play(&*game, &v.to_string(), &mut r)
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
        let default = ok(
            make(info.name, &harness_options(info.name, info.min_players, 1)),
            "default options",
        );
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
