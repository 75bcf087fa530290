//! The fuzz targets of `regalia_engine::fuzz` driven by a seeded generator, on stable Rust:
//! random byte strings, for a bounded number of runs. `REGALIA_FUZZ_ITERS=N` runs N inputs per target (the default is quick);
//! the coverage-guided versions are the cargo-fuzz targets in `fuzz/` (see docs/testing.md).

use regalia_engine::fuzz;
use regalia_engine::rng::{derive_seed, Rng};
use std::panic::{catch_unwind, AssertUnwindSafe};

fn iterations() -> u64 {
    std::env::var("REGALIA_FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300)
}

/// Random bytes: mostly short, sometimes long, sometimes a small alphabet (so that many
/// bytes pick the same branch).
fn random_input(rng: &mut Rng) -> Vec<u8> {
    let len = match rng.below(4) {
        0 => rng.index(16),
        1 | 2 => rng.index(128),
        _ => rng.index(2048),
    };
    let alphabet = if rng.below(3) == 0 { 4 } else { 256 };
    (0..len).map(|_| rng.below(alphabet) as u8).collect()
}

/// Runs `target` on `iterations()` inputs; a failure names the input to reproduce it with.
/// Returns the share of inputs for which the target reported its deeper path taken.
fn run(name: &str, target: fn(&[u8]) -> bool) -> f64 {
    let n = iterations();
    let mut deep = 0;
    for i in 0..n {
        let mut rng = Rng::new(derive_seed(name.len() as u64, i));
        let data = random_input(&mut rng);
        match catch_unwind(AssertUnwindSafe(|| target(&data))) {
            Ok(d) => deep += d as u64,
            Err(_) => {
                let hex: String = data.iter().map(|b| format!("{b:02x}")).collect();
                panic!("fuzz target {name} failed on input #{i}: {hex}");
            }
        }
    }
    deep as f64 / n.max(1) as f64
}

#[test]
fn fuzz_actions() {
    let share = run("actions", fuzz::actions);
    assert!(
        share > 0.2,
        "illegal actions tried in only {share:.2} of the inputs"
    );
}

#[test]
fn fuzz_state_json() {
    let share = run("state_json", fuzz::state_json);
    assert!(
        (0.05..0.95).contains(&share),
        "accepted {share:.2} of the saved states: the mutations reach too little"
    );
}

#[test]
fn fuzz_state_fields() {
    let share = run("state_fields", fuzz::state_fields);
    assert!(
        (0.02..0.9).contains(&share),
        "accepted {share:.2} of the states changed field by field: the mutations reach too little"
    );
}

#[test]
fn fuzz_options() {
    let share = run("options", fuzz::options);
    assert!(share > 0.05, "accepted only {share:.2} of the options");
}

/// The mutator makes many different changes and keeps its output valid JSON.
#[test]
fn mutations_reach_every_kind_of_change() {
    let original: serde_json::Value =
        serde_json::from_str(r#"{"a":[1,2,3],"b":{"c":true,"d":null},"e":"s"}"#).unwrap();
    let mut seen = std::collections::HashSet::new();
    let mut rng = Rng::new(1);
    for _ in 0..2000 {
        let mut v = original.clone();
        let bytes: Vec<u8> = (0..16).map(|_| rng.below(256) as u8).collect();
        fuzz::mutate(&mut v, &mut fuzz::ByteReader::new(&bytes));
        let text = v.to_string();
        serde_json::from_str::<serde_json::Value>(&text).unwrap();
        seen.insert(text);
    }
    assert!(seen.len() > 50, "only {} distinct mutations", seen.len());
}
