//! The root-parallel speed-up of ISMCTS, measured in interleaved pairs: one search on one
//! thread, then the same search on two, again and again from the criterion benchmark's
//! position, so that a machine whose speed drifts (a shared virtual machine) slows both
//! alike; it prints each game's mean time per 2000 iterations on one and two threads and
//! their ratio. Pair `k` is seeded `k` ([`positions::seeded`]).
//!
//! Run: `cargo run --release -p regalia-engine --example ismcts_threads [seconds per game]
//! [budget in ms]` (defaults 4 and none). Without a budget each search runs 2000 iterations
//! (the two threads 1000 each: the slower tree sets the time); with one, every search runs
//! until the budget is spent, as `best` with a time limit does, and the time is scaled to
//! 2000 iterations at the rate it ran.

#[path = "common/positions.rs"]
mod positions;

use positions::{mid_game, seeded, time_for};
use regalia_engine::{all_games, IsmctsConfig};
use std::time::{Duration, Instant};

/// Iterations the times are given for.
const ITERATIONS: u64 = 2000;

fn main() {
    let mut args = std::env::args().skip(1);
    let seconds: f64 = args
        .next()
        .map_or(4.0, |a| a.parse().expect("seconds per game"));
    let budget: Option<u64> = args.next().map(|a| a.parse().expect("a budget in ms"));
    for info in all_games() {
        let s = mid_game(info.name, 4);
        let config = IsmctsConfig {
            iterations: if budget.is_some() {
                u64::MAX
            } else {
                ITERATIONS
            },
            time_limit: budget.map(Duration::from_millis),
            ..IsmctsConfig::default()
        };
        let (mut one, mut two) = (
            seeded(config),
            seeded(IsmctsConfig {
                threads: 2,
                ..config
            }),
        );
        let (mut t1, mut t2, mut pairs) = (0.0, 0.0, 0);
        let start = Instant::now();
        while start.elapsed().as_secs_f64() < seconds || pairs == 0 {
            t1 += time_for(s.as_ref(), &one(), ITERATIONS).as_secs_f64();
            t2 += time_for(s.as_ref(), &two(), ITERATIONS).as_secs_f64();
            pairs += 1;
        }
        println!(
            "{:18} {pairs:5} pairs  1 thread {:8.2} ms  2 threads {:8.2} ms  {:.2}x",
            info.name,
            t1 / pairs as f64 * 1e3,
            t2 / pairs as f64 * 1e3,
            t1 / t2
        );
    }
}
