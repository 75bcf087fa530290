//! Whole games played natively, many at once, for speed measurements and quick statistics.

use crate::game::Game;
use crate::rng::{derive_seed, Rng};

/// Totals over a batch of finished games.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayoutStats {
    /// Games played.
    pub games: u64,
    /// Actions applied in all.
    pub steps: u64,
    /// Games each seat won outright (the highest return, alone).
    pub wins: Vec<u64>,
    /// Games with no single best seat.
    pub draws: u64,
    /// Sum of each seat's returns.
    pub returns_sum: Vec<f64>,
}

impl PlayoutStats {
    fn empty(players: usize) -> Self {
        PlayoutStats {
            wins: vec![0; players],
            returns_sum: vec![0.0; players],
            ..Default::default()
        }
    }

    fn record(&mut self, returns: &[f64], steps: u64) {
        self.games += 1;
        self.steps += steps;
        let best = returns.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let winners: Vec<usize> = (0..returns.len()).filter(|&i| returns[i] == best).collect();
        match winners.as_slice() {
            [w] => self.wins[*w] += 1,
            _ => self.draws += 1,
        }
        for (a, r) in self.returns_sum.iter_mut().zip(returns) {
            *a += r;
        }
    }
}

/// Plays game `index` of a batch seeded by `seed` with uniformly random moves; returns the
/// final returns and the number of steps. Game `i` starts from `derive_seed(seed, i)` and
/// picks its moves with a generator seeded by `derive_seed(!seed, i)`.
pub fn random_playout<G: Game>(game: &G, seed: u64, index: u64) -> (Vec<f64>, u64) {
    let mut state = game.new_state(Rng::new(derive_seed(seed, index)));
    let mut picker = Rng::new(derive_seed(!seed, index));
    let mut steps = 0;
    loop {
        let legal = game.legal_actions(&state);
        if legal.is_empty() {
            return (game.returns(&state), steps);
        }
        let a = legal.nth(picker.index(legal.len())).unwrap_or_default();
        game.apply(&mut state, a);
        steps += 1;
    }
}

/// Plays `games` random games split over `threads` threads (at least one). The results are
/// recorded in game order whatever the threads, so that the float sums are the same.
pub fn random_playouts<G: Game>(game: &G, games: u64, seed: u64, threads: usize) -> PlayoutStats {
    let threads = threads.clamp(1, 64) as u64;
    let players = game.num_players();
    let chunk = games.div_ceil(threads).max(1);
    let mut total = PlayoutStats::empty(players);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (start, end) = ((t * chunk).min(games), ((t + 1) * chunk).min(games));
                scope.spawn(move || {
                    (start..end)
                        .map(|i| random_playout(game, seed, i))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for h in handles {
            if let Ok(results) = h.join() {
                for (returns, steps) in results {
                    total.record(&returns, steps);
                }
            }
        }
    });
    total
}
