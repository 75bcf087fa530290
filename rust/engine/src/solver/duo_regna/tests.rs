//! The solver against brute force over the engine's own rules, and its equilibrium checked.

use super::*;
use crate::game::Game;
use crate::rng::Rng;
use crate::solver::matrix_game::deviation_gain;
use crate::solver::matrix_game::tests::value_by_enumeration;

fn game(options: serde_json::Value) -> DuoRegna {
    DuoRegna::from_options(options.as_object().expect("an object")).expect("valid options")
}

fn solve(g: &DuoRegna) -> Solver {
    Solver::build(g, &mut |_, _| true)
        .expect("solvable")
        .expect("not stopped")
}

/// Seat 0's expected return by brute force over the engine's states: at each round the
/// matrix game of seat 0's card against seat 1's, every entry the brute-force value of the
/// state after both cards, solved by enumeration; a new dragon is any card left in the pile.
fn brute_force(g: &DuoRegna, s: &State) -> f64 {
    if g.current_player(s).is_none() {
        return g.returns(s)[0];
    }
    let mut rows = Vec::new();
    for a in g.legal_actions(s).iter() {
        let mut after_a = *s;
        g.apply(&mut after_a, a);
        let mut row = Vec::new();
        for b in g.legal_actions(&after_a).iter() {
            let mut t = after_a;
            g.apply(&mut t, b);
            row.push(if t.next_dragon > s.next_dragon && !t.over {
                mean_over_reveals(&t, s.next_dragon as usize, |t| brute_force(g, t))
            } else {
                brute_force(g, &t)
            });
        }
        rows.push(row);
    }
    value_by_enumeration(&rows)
}

/// A state after `rounds` rounds of random play from `seed`.
pub(super) fn played(g: &DuoRegna, seed: u64, rounds: usize) -> State {
    let mut s = g.new_state(Rng::new(seed));
    let mut rng = Rng::new(seed ^ 0xABC);
    for _ in 0..2 * rounds {
        if s.over {
            break;
        }
        let legal = g.legal_actions(&s);
        let a = legal
            .iter()
            .nth(rng.index(legal.len()))
            .expect("a legal action");
        g.apply(&mut s, a);
    }
    s
}

#[test]
fn the_exact_table_agrees_with_brute_force_from_the_start() {
    // Two rounds: the 9 x 9 game of the first round over the 8 x 8 games of the second,
    // whose results the stalemate guard decides (or a capture, with a new dragon drawn).
    let g = game(serde_json::json!({"dragon_deck": [1, 1], "dragons_to_win": 1, "max_rounds": 2}));
    let solver = solve(&g);
    assert_eq!(solver.table_horizon(), Horizon::Exact { rounds: 2 });
    for seed in 0..2 {
        let s = g.new_state(Rng::new(seed));
        let expected = brute_force(&g, &s);
        let p = solver.policy(&s).expect("a running game");
        assert!(
            (p.value - expected).abs() < 1e-9,
            "{} vs {expected}",
            p.value
        );
    }
}

#[test]
fn the_exact_table_agrees_with_brute_force_across_the_hands_taken_back() {
    // From the sixth round: three cards each, then the hands are taken back for one more
    // round before the guard; captures and new dragons of either value can happen.
    let g = game(serde_json::json!({"dragon_deck": [2, 1], "dragons_to_win": 2, "max_rounds": 10}));
    let solver = solve(&g);
    let mut captures = 0;
    for seed in 0..12 {
        let s = played(&g, seed, 6);
        if s.over {
            continue;
        }
        captures += usize::from(s.captured != [0, 0]);
        let expected = brute_force(&g, &s);
        assert!(
            (solver.policy(&s).expect("running").value - expected).abs() < 1e-9,
            "seed {seed}"
        );
        // Seat 1, once seat 0 has committed a card: minus seat 0's value, whatever that card.
        let mut t = s;
        g.apply(&mut t, g.legal_actions(&s).iter().next().expect("a card"));
        let p = solver.policy(&t).expect("running");
        assert_eq!(p.seat, 1);
        assert!((p.value + expected).abs() < 1e-9, "seed {seed}: seat 1");
    }
    assert!(captures > 0, "some positions must have captured dragons");
}

#[test]
fn every_solved_state_is_an_equilibrium_and_the_start_is_worth_zero() {
    for options in [
        serde_json::json!({"dragon_deck": [2, 1], "dragons_to_win": 2, "max_rounds": 20}),
        serde_json::json!({"dragon_deck": [1, 2], "dragons_to_win": 3}),
    ] {
        let g = game(options);
        let solver = solve(&g);
        assert!(
            solver.start_value().abs() < 1e-12,
            "{}",
            solver.start_value()
        );
        let mut rng = Rng::new(5);
        let tables = solver.values.len() / (solver.levels.len() * 3 * solver.pairs.len());
        for _ in 0..20_000 {
            let (l, side, k) = (
                rng.index(solver.levels.len()),
                rng.index(3),
                1 + rng.index(CARDS),
            );
            let hands = solver.pairs.hands(k);
            let (mine, theirs) = (hands[rng.index(hands.len())], hands[rng.index(hands.len())]);
            let r = Solver::round_of(rng.index(tables), k);
            if r >= g.config.max_rounds {
                continue;
            }
            let game = solver.state_game(r, l, side, mine, theirs);
            let sol = game.solve();
            assert!(deviation_gain(&game.payoff, game.rows.1, game.cols.1, &sol) <= 1e-9);
            // The table holds the value of the game it would play, and the mirror image of
            // the state is worth minus that.
            let (stored, mirrored) = (
                solver.value_at(r, l, side, mine, theirs),
                solver.value_at(r, solver.mirror[l], 2 - side, theirs, mine),
            );
            assert!(
                (stored - sol.value).abs() <= 1e-9,
                "{stored} vs {}",
                sol.value
            );
            assert!((stored + mirrored).abs() <= 1e-12, "{stored} vs {mirrored}");
        }
    }
}

#[test]
fn the_stationary_table_is_the_limit_of_longer_and_longer_games() {
    // With the guard 20 hands away, the first hand's values are those of the game without
    // a guard (the game rarely lasts that long).
    let g = game(serde_json::json!({"dragon_deck": [1, 1], "dragons_to_win": 1}));
    let stationary = Solver::build_with(&g, Horizon::Stationary, &mut |_, _| true)
        .expect("solvable")
        .expect("not stopped");
    let long = solve(&g);
    assert_eq!(long.table_horizon(), Horizon::Exact { rounds: 180 });
    let mut gap: f64 = 0.0;
    for l in 0..stationary.levels.len() {
        for side in 0..3 {
            for k in 1..=CARDS {
                for &mine in stationary.pairs.hands(k) {
                    for &theirs in stationary.pairs.hands(k) {
                        let r = Solver::round_of(0, k);
                        gap = gap.max(
                            (stationary.value_at(r, l, side, mine, theirs)
                                - long.value_at(r, l, side, mine, theirs))
                            .abs(),
                        );
                    }
                }
            }
        }
    }
    assert!(gap < 1e-9, "{gap}");
    assert!(stationary.stats().fixed_point_residual <= FIXED_POINT_TOLERANCE);
}

#[test]
fn nothing_beats_the_exact_equilibrium() {
    let exact = solve(&game(
        serde_json::json!({"dragon_deck": [2, 1], "dragons_to_win": 2, "max_rounds": 12}),
    ));
    {
        let (solver, slack) = (&exact, 1e-9);
        let eval = |me, them| {
            solver
                .evaluate(me, them, Score::Returns, &mut |_, _| true)
                .expect("valid")
                .expect("not stopped")
        };
        let (best, itself) = (
            eval(Player::Best, Player::Solver),
            eval(Player::Solver, Player::Solver),
        );
        assert!(itself.abs() < 1e-9, "{itself}");
        assert!(
            best >= itself - 1e-12 && best <= slack,
            "{:?}: {best}",
            solver.horizon
        );
    }
    // Against a random player the best response gains more than the equilibrium does.
    let eval = |me, them| {
        exact
            .evaluate(me, them, Score::Wins, &mut |_, _| true)
            .expect("valid")
            .expect("not stopped")
    };
    assert!(eval(Player::Best, Player::Uniform) > eval(Player::Solver, Player::Uniform));
    assert!(exact
        .evaluate(Player::Solver, Player::Best, Score::Wins, &mut |_, _| true)
        .is_err());
}

#[test]
fn the_solver_wins_against_random_play_as_often_as_it_computes() {
    // Played through the engine, either seat, sampling its moves from its policy.
    let g = game(serde_json::json!({"dragon_deck": [2, 1], "dragons_to_win": 2}));
    let solver = solve(&g);
    let p = solver
        .evaluate(Player::Solver, Player::Uniform, Score::Wins, &mut |_, _| {
            true
        })
        .expect("valid")
        .expect("not stopped");
    let (games, mut wins) = (6000, 0);
    let mut rng = Rng::new(3);
    for i in 0..games {
        let me = i % 2;
        let mut s = g.new_state(Rng::new(100 + i as u64));
        while let Some(seat) = g.current_player(&s) {
            let legal = g.legal_actions(&s);
            let a = if seat == me {
                let policy = solver.policy(&s).expect("running");
                let x = rng.index(1 << 30) as f64 / (1u64 << 30) as f64;
                let mut acc = 0.0;
                let pick = legal.iter().find(|&c| {
                    acc += policy.probabilities[c as usize];
                    acc > x
                });
                pick.unwrap_or_else(|| legal.iter().last().expect("a card"))
            } else {
                legal.iter().nth(rng.index(legal.len())).expect("a card")
            };
            g.apply(&mut s, a);
        }
        wins += usize::from(g.returns(&s)[me] > 0.0);
    }
    let rate = wins as f64 / games as f64;
    let sd = (p * (1.0 - p) / games as f64).sqrt();
    assert!((rate - p).abs() <= 4.0 * sd, "won {rate}, computed {p}");
    assert!(p > 0.5, "{p}");
}

#[test]
fn the_policy_is_a_distribution_over_the_legal_cards_from_public_information_only() {
    let g = game(serde_json::json!({"dragon_deck": [2, 1], "dragons_to_win": 2}));
    let solver = solve(&g);
    let mut rng = Rng::new(9);
    for seed in 0..40 {
        let mut s = g.new_state(Rng::new(seed));
        while !s.over {
            let p = solver.policy(&s).expect("running");
            let legal = g.legal_actions(&s);
            assert!((p.probabilities.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            for c in 0..CARDS {
                assert!(p.probabilities[c] >= 0.0);
                assert!(legal.contains(c) || p.probabilities[c] == 0.0);
            }
            if s.hands[p.seat] >> 7 == 3 {
                assert_eq!(p.probabilities[7], p.probabilities[8], "the 6s are alike");
            }
            // Whatever card seat 0 has committed, seat 1 is told the same.
            for world in 0..3 {
                let d = g.determinize(&s, p.seat, &mut Rng::new(world));
                assert_eq!(solver.policy(&d), Ok(p));
            }
            let a = legal.iter().nth(rng.index(legal.len())).expect("a card");
            g.apply(&mut s, a);
        }
        assert!(
            solver.policy(&s).is_err(),
            "no policy once the game is over"
        );
    }
}

#[test]
fn options_too_big_to_solve_are_refused_with_a_reason() {
    for options in [
        serde_json::json!({"dragons_to_win": 8}),
        serde_json::json!({"max_rounds": 100}),
        serde_json::json!({"dragon_deck": [16, 16], "dragons_to_win": 20}),
    ] {
        match Solver::horizon(&game(options.clone())) {
            Err(Error::InvalidOption(m)) => assert!(m.contains("cannot solve"), "{m}"),
            other => panic!("{options}: {other:?}"),
        }
    }
    assert_eq!(
        Solver::horizon(&game(serde_json::json!({}))),
        Ok(Horizon::Stationary)
    );
    assert_eq!(
        Solver::horizon(&game(serde_json::json!({"max_rounds": 9}))),
        Ok(Horizon::Exact { rounds: 9 })
    );
    let mut calls = 0;
    let stopped = Solver::build(
        &game(serde_json::json!({"dragon_deck": [2, 1], "dragons_to_win": 2})),
        &mut |_, _| {
            calls += 1;
            false
        },
    );
    assert!(
        matches!(stopped, Ok(None)) && calls == 1,
        "a build stops when asked"
    );
}
