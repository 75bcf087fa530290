//! Criterion benchmarks of the engine, for every registered game: the per-call cost of the
//! state API (`legal_actions`, `apply`, `clone`, `observation_tensor`), whole random playouts,
//! batch steps and ISMCTS iterations (both rollout kinds). Run: `cargo bench -p
//! regalia-engine` (`-- duo-regna` for one game, `-- ismcts` for the searches).

#[path = "../examples/common/positions.rs"]
mod positions;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use positions::{bench_game, mid_game, seeded, time_for};
use regalia_engine::{all_games, BatchBuffers, IsmctsConfig, Rollout};
use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn state_calls(c: &mut Criterion) {
    for info in all_games() {
        let name = info.name;
        let s = mid_game(name, 12);
        let a = s.legal_actions().nth(0).unwrap() as i64;
        let seat = s.current_player().unwrap() as i64;
        let mut tensor = vec![0.0f32; bench_game(name).observation_shape().iter().product()];
        let mut g = c.benchmark_group(format!("state/{name}"));
        g.bench_function("legal_actions", |b| {
            b.iter(|| black_box(&s).legal_actions())
        });
        g.bench_function("clone", |b| b.iter(|| black_box(&s).clone_box()));
        g.bench_function("apply", |b| {
            b.iter_batched_ref(|| s.clone_box(), |c| c.apply(a), BatchSize::SmallInput)
        });
        g.bench_function("observation_tensor", |b| {
            b.iter(|| black_box(&s).observation_tensor(seat, &mut tensor))
        });
        g.finish();
    }
}

fn playouts(c: &mut Criterion) {
    const GAMES: u64 = 200;
    for info in all_games() {
        let game = bench_game(info.name);
        let never = AtomicBool::new(false);
        let steps = game
            .random_playouts(GAMES, 1, 1, &never)
            .map_or(0, |s| s.steps);
        let mut g = c.benchmark_group(format!("playouts/{}", info.name));
        g.throughput(Throughput::Elements(steps));
        g.bench_function("random_200_games", |b| {
            b.iter(|| game.random_playouts(GAMES, 1, 1, &never))
        });
        g.finish();
    }
}

fn batch_steps(c: &mut Criterion) {
    for info in all_games() {
        let game = bench_game(info.name);
        let size: usize = game.observation_shape().iter().product();
        let (na, np) = (game.num_actions(), game.num_players());
        let mut g = c.benchmark_group(format!("batch/{}", info.name));
        for n in [64usize, 1024] {
            let mut batch = game.new_batch(n, 1, 1);
            let mut buf = BatchBuffers::new(n, size, na, np);
            batch.reset(None, buf.out()).unwrap();
            let mut actions = vec![0i64; n];
            g.throughput(Throughput::Elements(n as u64));
            g.bench_function(format!("step_{n}"), |b| {
                b.iter(|| {
                    for (i, a) in actions.iter_mut().enumerate() {
                        let row = &buf.masks[i * na..(i + 1) * na];
                        *a = row.iter().position(|&m| m).unwrap_or(0) as i64;
                    }
                    batch.step(&actions, buf.out()).unwrap();
                })
            });
        }
        g.finish();
    }
}

/// Iterations per measured search.
const ISMCTS_ITERATIONS: u64 = 2000;

/// The time budget of the `budget` rows: a search runs until it is spent.
const ISMCTS_BUDGET: Duration = Duration::from_millis(20);

/// ISMCTS from a position four random steps into each game, with the game's heuristic
/// rollouts (the default) and with uniformly random ones, and with the heuristic ones on two
/// threads; throughput in iterations. The `budget` rows search for [`ISMCTS_BUDGET`] on one
/// and on two threads (every thread works until the budget is spent, as `best` with a time
/// limit does, so none waits for a slower tree) and report the time their rate takes for
/// [`ISMCTS_ITERATIONS`]. Successive searches take seeds 1, 2, 3, ... ([`seeded`]).
fn ismcts(c: &mut Criterion) {
    for info in all_games() {
        let s = mid_game(info.name, 4);
        let never = AtomicBool::new(false);
        let mut g = c.benchmark_group(format!("ismcts/{}", info.name));
        g.throughput(Throughput::Elements(ISMCTS_ITERATIONS));
        for rollout in Rollout::ALL {
            let mut config = seeded(IsmctsConfig {
                iterations: ISMCTS_ITERATIONS,
                rollout,
                ..IsmctsConfig::default()
            });
            g.bench_function(rollout.name(), |b| b.iter(|| s.ismcts(&config(), &never)));
        }
        // The same iterations shared by two threads (root-parallel): the rate against one.
        let mut config = seeded(IsmctsConfig {
            iterations: ISMCTS_ITERATIONS,
            threads: 2,
            ..IsmctsConfig::default()
        });
        g.bench_function("heuristic-2-threads", |b| {
            b.iter(|| s.ismcts(&config(), &never))
        });
        for threads in [1, 2] {
            let mut config = seeded(IsmctsConfig {
                iterations: u64::MAX,
                time_limit: Some(ISMCTS_BUDGET),
                threads,
                ..IsmctsConfig::default()
            });
            let name = format!(
                "heuristic-budget-{threads}-thread{}",
                if threads > 1 { "s" } else { "" }
            );
            g.bench_function(name, |b| {
                b.iter_custom(|searches| {
                    (0..searches)
                        .map(|_| time_for(s.as_ref(), &config(), ISMCTS_ITERATIONS))
                        .sum()
                })
            });
        }
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(20);
    targets = state_calls, playouts, batch_steps, ismcts
}
criterion_main!(benches);
