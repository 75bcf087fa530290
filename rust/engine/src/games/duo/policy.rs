//! How the search plays Duo: the chance to win a game from its scores, which its rollouts
//! stop at (search policy, not rules).

use super::*;

/// How often a round between two players sharing greedy shedding (always the first card that
/// fits) ended with the winner scoring 1, 2, ... 12 points, over 100 000 rounds (the last
/// entry counts 12 or more; the rounds that ran the draw pile out, about one in ten, are left
/// out). The search's estimate of the chance to win a game from its scores rests on it.
pub(super) const ROUND_POINTS: [u32; 12] = [
    15816, 20550, 19049, 14244, 9541, 5711, 2960, 1435, 627, 224, 135, 85,
];

/// Points still needed beyond which the table of [`win_chances`] stops (a need is clamped).
pub(super) const MAX_NEED: usize = 256;

/// For two players who still need `a` and `b` points (`1..=n` each), the chance that the first
/// wins the game, at index `(a - 1) * n + (b - 1)`, if every later round is won by either
/// player alike and scores as [`ROUND_POINTS`] says.
pub(super) fn win_chances(n: usize) -> Vec<f64> {
    let total = ROUND_POINTS.iter().sum::<u32>() as f64;
    let mut v = vec![0.0; n * n];
    for a in 1..=n {
        for b in 1..=n {
            let mut chance = 0.0;
            for (k, &weight) in (1..).zip(&ROUND_POINTS) {
                let half = weight as f64 / total / 2.0;
                chance += half
                    * if k >= a {
                        1.0
                    } else {
                        v[(a - k - 1) * n + b - 1]
                    };
                chance += half
                    * if k >= b {
                        0.0
                    } else {
                        v[(a - 1) * n + b - k - 1]
                    };
            }
            v[(a - 1) * n + b - 1] = chance;
        }
    }
    v
}

/// How often a round between 3, 4, 5 and 6 players sharing greedy shedding ended with the
/// winner scoring 1, 2, ... 32 points, over 100 000 rounds each (the last entry counts 32 or
/// more; the rounds that ran the draw pile out, under one in fifty, are left out; seed 1).
/// Re-measured by `cargo run --release -p regalia-engine --example duo_strength 100000 1 0
/// PLAYERS`.
pub(super) const ROUND_POINTS_MORE: [[u32; 32]; MAX_PLAYERS - 2] = [
    [
        0, 3191, 9316, 14323, 16256, 15479, 12736, 9591, 6701, 4459, 2763, 1580, 776, 639, 201, 79,
        34, 7, 6, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ],
    [
        0, 0, 696, 2990, 6644, 10156, 12634, 13390, 12357, 10649, 8367, 6575, 4882, 3482, 2378,
        1591, 1040, 562, 359, 248, 321, 44, 11, 2, 2, 0, 0, 0, 0, 0, 0, 0,
    ],
    [
        0, 0, 0, 155, 861, 2399, 4745, 7520, 9388, 10678, 10990, 10194, 8933, 7823, 6278, 5046,
        3873, 2953, 2247, 1661, 1208, 833, 573, 382, 244, 193, 113, 301, 29, 1, 1, 0,
    ],
    [
        0, 0, 0, 0, 44, 242, 775, 1957, 3458, 5364, 7073, 8464, 9157, 9206, 8715, 7861, 6992, 6002,
        5038, 4159, 3217, 2625, 2144, 1723, 1313, 1047, 762, 588, 432, 258, 207, 720,
    ],
];

/// Points in time at which [`finish_times`] is tabulated.
const TIME_STEPS: usize = 128;

/// [`finish_times_from`] the round points measured for `players` (more than two).
pub(super) fn finish_times(players: usize, n: usize) -> Vec<f64> {
    finish_times_from(&ROUND_POINTS_MORE[players.clamp(3, MAX_PLAYERS) - 3], n)
}

/// When a player who still needs `a` points (`1..=n`) reaches them if each round's winner
/// scores as the counts `points` (of 1, 2, ... points) say and every player wins rounds at the
/// same rate, one a unit of time (independent clocks of that rate order the round winners as
/// uniform draws, so the first to finish is the game's winner): at `TIME_STEPS` even steps of
/// time, the chance she has not yet finished at index `(a - 1) * TIME_STEPS + k`, then, after
/// `n * TIME_STEPS` entries, the density of her finishing there.
pub(super) fn finish_times_from(points: &[u32], n: usize) -> Vec<f64> {
    let total = points.iter().sum::<u32>() as f64;
    // wins[(a - 1) * n + m - 1]: the chance that the m-th round win first brings a points.
    let mut wins = vec![0.0; n * n];
    let mut short = vec![0.0; n]; // short[s]: the chance of exactly s (< n) points so far
    short[0] = 1.0;
    let mut reached = vec![0.0; n];
    for m in 1..=n {
        let mut next = vec![0.0; n];
        for (s, &p) in short.iter().enumerate().filter(|(_, &p)| p > 0.0) {
            for (k, &w) in (1..).zip(points).take_while(|&(k, _)| s + k < n) {
                next[s + k] += p * w as f64 / total;
            }
        }
        short = next;
        let mut below = 0.0;
        for a in 1..=n {
            below += short[a - 1];
            let now = 1.0 - below;
            wins[(a - 1) * n + m - 1] = now - reached[a - 1];
            reached[a - 1] = now;
        }
    }
    // Finishing by time t takes a Poisson count of wins of at least the m needed.
    let at = |a: usize, t: f64| {
        let (mut poisson, mut below, mut survival, mut density) = ((-t).exp(), 0.0, 0.0, 0.0);
        for (m, &w) in (1..).zip(&wins[(a - 1) * n..a * n]) {
            below += poisson;
            survival += w * below;
            density += w * poisson;
            poisson *= t / m as f64;
        }
        (survival, density)
    };
    // Up to the time by which even the largest need is met almost surely.
    let end = (1..)
        .map(f64::from)
        .find(|&t| at(n, t).0 < 1e-12 || t > 1e4)
        .unwrap_or(1.0);
    let step = end / TIME_STEPS as f64;
    let mut table = vec![0.0; 2 * n * TIME_STEPS];
    for a in 1..=n {
        for k in 0..TIME_STEPS {
            let (survival, density) = at(a, (k as f64 + 0.5) * step);
            table[(a - 1) * TIME_STEPS + k] = survival;
            table[(n + a - 1) * TIME_STEPS + k] = density;
        }
    }
    table
}

impl Duo {
    /// With two players, seat 0's estimated edge from scores `s` between rounds: its chance
    /// to win the game less seat 1's ([`win_chances`]; exactly zero for equal needs).
    pub(super) fn game_edge(&self, s: &State) -> f64 {
        let chance = |a: usize, b: usize| self.win_chances[(a - 1) * self.need_limit + b - 1];
        chance(self.need(s, 0), self.need(s, 1)) - chance(self.need(s, 1), self.need(s, 0))
    }

    /// The points `seat` still needs, clamped to the table's `1..=need_limit`.
    pub(super) fn need(&self, s: &State, seat: Seat) -> usize {
        (self.target() - s.scores[seat] as i64).clamp(1, self.need_limit as i64) as usize
    }

    /// With more than two players, each seat's expected return from scores `s` between
    /// rounds: with `p` its chance to be the first to reach the target ([`finish_times`]), the
    /// returns of a single winner, `p - (1 - p) / (players - 1)` (zero-sum).
    pub(super) fn game_values(&self, s: &State) -> Vec<f64> {
        let n = self.config.players;
        let rows: [usize; MAX_PLAYERS] = std::array::from_fn(|i| {
            if i < n {
                (self.need(s, i) - 1) * TIME_STEPS
            } else {
                0
            }
        });
        let (survival, density) = self.win_chances.split_at(self.need_limit * TIME_STEPS);
        let mut chances = [0.0; MAX_PLAYERS];
        for k in 0..TIME_STEPS {
            // Each seat finishing at step k while every other is still short.
            let mut before = [1.0; MAX_PLAYERS + 1];
            for i in 0..n {
                before[i + 1] = before[i] * survival[rows[i] + k];
            }
            let mut after = 1.0;
            for i in (0..n).rev() {
                chances[i] += density[rows[i] + k] * before[i] * after;
                after *= survival[rows[i] + k];
            }
        }
        let total: f64 = chances[..n].iter().sum();
        let others = (n - 1) as f64;
        chances[..n]
            .iter()
            .map(|&c| (c / total) - (1.0 - c / total) / others)
            .collect()
    }
}
