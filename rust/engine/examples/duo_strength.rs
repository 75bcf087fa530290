//! Duo's full game: the ISMCTS search against greedy shedding (the first legal action: a card
//! whenever one fits), natively, the search taking each seat in turn on shared deals (with
//! `players` seats, the others all greedy); a quick way to compare search variants on the
//! same deals before a gauntlet. Prints the search's share of the points with the one-sided
//! 99% Wilson lower bound, its share from each seat, and its time a decision.
//!
//! With 0 iterations it prints instead how many points the winner of a round of greedy
//! shedding between `players` players scored, over `games` rounds (the first number: rounds
//! that ran the draw pile out), the measurement behind the search's estimate of the chance to
//! win.
//!
//! Environment: `EXPLORATION` (UCT's constant, default 1), `OPPONENTS` (how the search has the
//! others choose: `search`, the default, `rollout` or `first-legal`), `THREADS` (default 1),
//! and `CHEAT=1`, which lets the search see the others' hands (only the draw pile is sampled:
//! a bound on what knowing them is worth, not a fair player).
//!
//! Run: `cargo run --release -p regalia-engine --example duo_strength [games] [seed]
//! [iterations] [players]` (defaults 100, 7, 3000, 2; about 5 s a two-player game on one core
//! of a loaded machine).

use regalia_engine::games::duo::Duo;
use regalia_engine::rng::derive_seed;
use regalia_engine::search::{ismcts, ismcts_in, Opponents, Worlds};
use regalia_engine::{Game, IsmctsConfig, Options, Rng};
use std::time::Instant;

fn duo(players: usize, rounds: u32) -> Duo {
    let mut o = Options::new();
    o.insert("players".into(), serde_json::json!(players));
    o.insert("rounds".into(), serde_json::json!(rounds));
    Duo::from_options(&o).expect("valid options")
}

fn first_legal(g: &Duo, s: &<Duo as Game>::State) -> regalia_engine::Action {
    g.legal_actions(s)
        .nth(0)
        .expect("a running game has a legal action")
}

/// The winner's points over `rounds` single rounds of greedy shedding.
fn round_points(players: usize, rounds: u64, seed: u64) {
    let g = duo(players, 1);
    let (mut exhausted, mut points) = (0, vec![0u64; 40]);
    for i in 0..rounds {
        let mut s = g.new_state(Rng::new(derive_seed(seed, i)));
        while g.current_player(&s).is_some() {
            let a = first_legal(&g, &s);
            g.apply(&mut s, a);
        }
        match s.last_winner {
            Some(w) => points[(s.scores[w as usize] as usize).min(39)] += 1,
            None => exhausted += 1,
        }
    }
    println!("draw pile ran out: {exhausted}; winner's points 0..39: {points:?}");
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| {
            a.parse()
                .expect("numbers: games, seed, iterations, players")
        })
        .collect();
    let games = args.first().copied().unwrap_or(100);
    let seed = args.get(1).copied().unwrap_or(7);
    let iterations = args.get(2).copied().unwrap_or(3000);
    let players = args.get(3).copied().unwrap_or(2) as usize;
    let exploration = std::env::var("EXPLORATION").map_or(1.0, |e| e.parse().expect("a number"));
    // OPPONENTS=first-legal: the search models the others as the greedy shedders they are.
    let opponents = std::env::var("OPPONENTS").map_or(Opponents::Search, |o| {
        Opponents::from_name(&o).expect("search or first-legal")
    });
    // CHEAT=1: the search sees the others' hands (only the draw pile is sampled), a bound.
    let cheat = std::env::var("CHEAT").is_ok_and(|c| c == "1");
    let threads = std::env::var("THREADS").map_or(1, |t| t.parse().expect("a number"));
    if iterations == 0 {
        return round_points(players, games, seed);
    }
    let g = duo(players, 0);
    let (mut points, mut decisions, mut seconds) = (0.0, 0u64, 0.0);
    let mut by_seat = vec![0.0; players];
    for i in 0..games {
        let me = i as usize % players;
        let mut s = g.new_state(Rng::new(derive_seed(seed, i / players as u64)));
        let mut moves = 0;
        while let Some(p) = g.current_player(&s) {
            let a = if p == me && g.legal_actions(&s).len() > 1 {
                let config = IsmctsConfig {
                    iterations,
                    exploration,
                    seed: derive_seed(seed ^ 0xABCD, i * 100_000 + moves),
                    opponents,
                    threads,
                    ..IsmctsConfig::default()
                };
                let t = Instant::now();
                let r = if cheat {
                    let worlds: Vec<_> = (0..256)
                        .map(|k| {
                            let mut w = s;
                            w.rng = Rng::new(derive_seed(config.seed, k));
                            w
                        })
                        .collect();
                    let worlds = Worlds::equal(worlds);
                    let stop = std::sync::atomic::AtomicBool::new(false);
                    ismcts_in(&g, &s, &config, &stop, worlds.as_ref())
                } else {
                    ismcts(&g, &s, &config)
                }
                .expect("a running game");
                seconds += t.elapsed().as_secs_f64();
                decisions += 1;
                r.action
            } else {
                first_legal(&g, &s)
            };
            moves += 1;
            g.apply(&mut s, a);
        }
        // The gauntlet's points: one to the winner, shared among tied winners.
        let scores = g.scores(&s);
        let best = scores.iter().copied().max().unwrap_or(0);
        let winners = scores.iter().filter(|&&x| x == best).count() as f64;
        let point = if scores[me] == best {
            1.0 / winners
        } else {
            0.0
        };
        points += point;
        by_seat[me] += point;
        if (i + 1) % 20 == 0 {
            eprintln!("{} games: {points} points", i + 1);
        }
    }
    let (p, n, z) = (points / games as f64, games as f64, 2.326f64);
    let spread = z * ((p * (1.0 - p) + z * z / (4.0 * n)) / n).sqrt();
    let low = (p + z * z / (2.0 * n) - spread) / (1.0 + z * z / n);
    let per_seat = games as f64 / players as f64;
    let seats: Vec<String> = by_seat
        .iter()
        .map(|x| format!("{:.2}", x / per_seat))
        .collect();
    println!(
        "{games} games, {players} players, seed {seed}, {iterations} iterations: {points} points, \
         share {p:.3}, lower bound {low:.3}, by seat {}; {:.1} ms a decision",
        seats.join(" "),
        1000.0 * seconds / decisions.max(1) as f64
    );
}
