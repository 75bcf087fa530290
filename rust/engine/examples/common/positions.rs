//! The games and positions the criterion benchmarks and the search examples share, and the
//! rate of a search at a time budget.

use regalia_engine::rng::Rng;
use regalia_engine::{make, DynGame, DynState, IsmctsConfig, Options};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Game `name` as every benchmark plays it: Duo in single rounds (`rounds=1`; its rulebook
/// game runs to the target, which random players take thousands of steps not to reach), every
/// other game with its defaults.
pub fn bench_game(name: &str) -> Arc<dyn DynGame> {
    let mut options = Options::new();
    if name == "duo" {
        options.insert("rounds".into(), 1.into());
    }
    make(name, &options).expect("a registered game")
}

/// A state `steps` random steps into game `name` (fewer if the game would end).
pub fn mid_game(name: &str, steps: usize) -> Box<dyn DynState> {
    let game = bench_game(name);
    let mut s = game.new_state(1);
    let mut pick = Rng::new(1);
    for _ in 0..steps {
        let legal = s.legal_actions();
        let mut next = s.clone_box();
        next.apply(legal.nth(pick.index(legal.len())).expect("a legal action") as i64)
            .expect("a legal action applies");
        if next.is_terminal() {
            break;
        }
        s = next;
    }
    s
}

/// One search of `config` from `s`, timed and scaled to `iterations` at the rate it ran
/// (a search with a time budget runs as many iterations as the budget allows).
#[allow(dead_code)] // not every file that includes this module times searches
pub fn time_for(s: &dyn DynState, config: &IsmctsConfig, iterations: u64) -> Duration {
    let never = AtomicBool::new(false);
    let start = Instant::now();
    let result = s.ismcts(config, &never).expect("a valid search");
    let done = result.map_or(1, |r| r.iterations);
    start.elapsed().mul_f64(iterations as f64 / done as f64)
}

/// `config` seeded 1, 2, 3, ... on successive calls. An iteration's cost depends on the
/// worlds and rollouts its seed draws, and the threads of a search draw from other seeds than
/// a one-thread search does: timed over one fixed seed, the two would do different work (in
/// Duo about 10% apart); over many seeds they do the same on average.
#[allow(dead_code)] // not every file that includes this module times searches
pub fn seeded(config: IsmctsConfig) -> impl FnMut() -> IsmctsConfig {
    let mut seed = 0;
    move || {
        seed += 1;
        IsmctsConfig { seed, ..config }
    }
}
