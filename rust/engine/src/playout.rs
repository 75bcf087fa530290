//! Whole games played natively, many at once, for speed measurements and quick statistics.

use crate::game::Game;
use crate::rng::{derive_seed, Rng};
use crate::workers::Workers;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

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
        let mut winners = (0..returns.len()).filter(|&i| returns[i] == best);
        match (winners.next(), winners.next()) {
            (Some(w), None) => self.wins[w] += 1,
            _ => self.draws += 1,
        }
        for (a, r) in self.returns_sum.iter_mut().zip(returns) {
            *a += r;
        }
    }
}

/// Plays game `index` of a batch seeded by `seed` with uniformly random moves
/// ([`Game::random_legal_action`]); writes its
/// final returns into `returns` (one per seat) and returns the number of steps. Game `i`
/// starts from `derive_seed(seed, i)` and picks its moves with a generator seeded by
/// `derive_seed(!seed, i)`.
pub fn random_playout<G: Game>(game: &G, seed: u64, index: u64, returns: &mut [f64]) -> u64 {
    let mut state = game.new_state(Rng::new(derive_seed(seed, index)));
    let mut picker = Rng::new(derive_seed(!seed, index));
    let mut steps = 0;
    while let Some(a) = game.random_legal_action(&state, &mut picker) {
        game.apply(&mut state, a);
        steps += 1;
    }
    returns.copy_from_slice(&game.returns(&state));
    steps
}

/// Games each thread plays between two folds: memory stays the same for any number of games,
/// and a stop request is seen within one block.
const BLOCK: u64 = 1024;

/// One thread's share of a block: the returns of its games, seat by seat, and their steps.
#[derive(Default)]
struct Share {
    returns: Vec<f64>,
    steps: Vec<u64>,
}

/// Plays `games` random games on `threads` threads (at least one; one pool for the whole run)
/// and totals them. Results are folded block by block in game order whatever the threads, so
/// the float sums are the same for any thread count, and memory does not grow with `games`.
/// Returns `None` as soon as `stop` is seen set between two blocks. A panic in any thread
/// reaches the caller once every thread has finished.
pub fn random_playouts<G: Game>(
    game: &G,
    games: u64,
    seed: u64,
    threads: usize,
    stop: &AtomicBool,
) -> Option<PlayoutStats> {
    let players = game.num_players();
    let mut workers = Workers::new(threads.clamp(1, 64)).unwrap_or_else(Workers::single);
    let threads = workers.threads() as u64;
    let shares: Vec<Mutex<Share>> = (0..threads).map(|_| Mutex::default()).collect();
    let mut total = PlayoutStats::empty(players);
    let mut start = 0;
    while start < games {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let end = games.min(start + BLOCK * threads);
        let per_thread = (end - start).div_ceil(threads);
        workers.run(&|t| {
            let from = (start + t as u64 * per_thread).min(end);
            let to = (from + per_thread).min(end);
            let mut share = shares[t].lock().unwrap_or_else(|e| e.into_inner());
            let Share { returns, steps } = &mut *share;
            returns.resize((to - from) as usize * players, 0.0);
            steps.clear();
            for (i, r) in (from..to).zip(returns.chunks_exact_mut(players.max(1))) {
                steps.push(random_playout(game, seed, i, r));
            }
        });
        for share in &shares {
            let share = share.lock().unwrap_or_else(|e| e.into_inner());
            for (r, &s) in share.returns.chunks_exact(players.max(1)).zip(&share.steps) {
                total.record(r, s);
            }
        }
        start = end;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::duo_regna::DuoRegna;
    use crate::options::Options;

    fn duo_regna() -> DuoRegna {
        DuoRegna::from_options(&Options::new()).expect("default options")
    }

    #[test]
    fn blocks_and_threads_do_not_change_the_totals() {
        let game = duo_regna();
        let never = AtomicBool::new(false);
        let games = 2 * BLOCK + 37; // several blocks, the last one partial
        let one = random_playouts(&game, games, 5, 1, &never).expect("not stopped");
        let two = random_playouts(&game, games, 5, 2, &never).expect("not stopped");
        assert_eq!(one, two);
        assert_eq!(one.games, games);
        let mut by_hand = PlayoutStats::empty(2);
        let mut r = [0.0; 2];
        for i in 0..games {
            let steps = random_playout(&game, 5, i, &mut r);
            by_hand.record(&r, steps);
        }
        assert_eq!(one, by_hand);
    }

    #[test]
    fn a_stop_request_ends_the_run_without_totals() {
        let stop = AtomicBool::new(true);
        assert_eq!(random_playouts(&duo_regna(), 10, 1, 2, &stop), None);
        let never = AtomicBool::new(false);
        let none = random_playouts(&duo_regna(), 0, 1, 2, &never).expect("not stopped");
        assert_eq!(none.games, 0);
    }
}
