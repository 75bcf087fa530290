//! One ISMCTS search from the position of the criterion benchmark `ismcts/<game>` (four random
//! steps into the game, Duo in single rounds, seed 1), for counting its instructions: the
//! count is exact and repeatable whatever else the machine runs, where the wall clock is not.
//!
//! Instructions an iteration: the difference of two runs, e.g.
//! `valgrind --tool=callgrind target/release/examples/ismcts_search regnum random 2001`
//! minus the same with `1`, divided by 2000 (everything but the search is the same in both).
//!
//! Run: `cargo run --release -p regalia-engine --example ismcts_search GAME
//! [heuristic|random] [iterations] [seed] [threads]` (defaults heuristic, 2000, 1, 1); it prints
//! the chosen action, every root action's visits and mean, and the search's wall-clock time
//! (with idle cores, the time of `threads` 2 against 1 shows the root-parallel speed-up).

#[path = "common/positions.rs"]
mod positions;

use positions::mid_game;
use regalia_engine::{IsmctsConfig, Rollout};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map_or("regnum", String::as_str);
    let rollout = args
        .get(1)
        .map_or(Some(Rollout::Heuristic), |r| Rollout::from_name(r))
        .expect("rollout: heuristic or random");
    let iterations = args.get(2).map_or(2000, |n| n.parse().expect("iterations"));
    let seed = args.get(3).map_or(1, |n| n.parse().expect("seed"));
    let threads = args.get(4).map_or(1, |n| n.parse().expect("threads"));
    let config = IsmctsConfig {
        iterations,
        seed,
        rollout,
        threads,
        ..IsmctsConfig::default()
    };
    let position = mid_game(name, 4);
    let start = Instant::now();
    let found = position
        .ismcts(&config, &AtomicBool::new(false))
        .expect("a search without a belief needs no history")
        .expect("the position is not over");
    let seconds = start.elapsed().as_secs_f64();
    // The root's statistics in full: two builds that search alike print the same lines.
    let root: Vec<String> = found
        .root
        .iter()
        .map(|r| format!("{}:{}:{:.6}", r.action, r.visits, r.mean))
        .collect();
    println!(
        "{name} {} {} iterations on {threads} threads in {seconds:.3} s: action {}; root {}",
        rollout.name(),
        found.iterations,
        found.action,
        root.join(" ")
    );
}
