//! Solves Duo Regna and measures the solution: the time to build the table, its size, the
//! start value, and (with `measure`) exactly how often the solver wins against a uniformly
//! random player and how often the best response to the solver wins against it.
//!
//! Run: `cargo run --release -p regalia-engine --example duo_regna_solver [measure]
//! [options JSON]`.

use regalia_engine::games::duo_regna::DuoRegna;
use regalia_engine::solver::duo_regna::{Player, Score, Solver};
use regalia_engine::{Game, Options};
use std::time::Instant;

fn main() {
    let measure = std::env::args().nth(1).as_deref() == Some("measure");
    let text = std::env::args()
        .nth(if measure { 2 } else { 1 })
        .unwrap_or_else(|| "{}".into());
    let options: Options = serde_json::from_str(&text).expect("options as a JSON object");
    let game = DuoRegna::from_options(&options).expect("valid Duo Regna options");
    let start = Instant::now();
    let mut last = 0;
    let solver = Solver::build(&game, &mut |done, total| {
        let pct = done * 100 / total;
        if pct / 10 != last / 10 {
            eprintln!(
                "  solved {done} of {total} levels ({:.0} s)",
                start.elapsed().as_secs_f64()
            );
            last = pct;
        }
        true
    })
    .expect("solvable options")
    .expect("not stopped");
    let stats = solver.stats();
    println!(
        "Duo Regna {}: {:?} table of {} values ({:.1} MB) built in {:.1} s: {} matrix games in {} \
         hand sweeps, fixed-point residual {:.1e}; start value {:.3e}",
        serde_json::Value::Object(game.options()),
        solver.table_horizon(),
        solver.len(),
        solver.to_bytes().len() as f64 / 1e6,
        start.elapsed().as_secs_f64(),
        stats.games_solved,
        stats.sweeps,
        stats.fixed_point_residual,
        solver.start_value()
    );
    if measure {
        for (me, them, score) in [
            (Player::Best, Player::Solver, Score::Wins),
            (Player::Solver, Player::Uniform, Score::Wins),
            (Player::Solver, Player::First, Score::Wins),
            (Player::Solver, Player::Last, Score::Wins),
            (Player::Best, Player::Solver, Score::Returns),
            (Player::Best, Player::Uniform, Score::Wins),
        ] {
            let t = Instant::now();
            let p = solver
                .evaluate(me, them, score, &mut |_, _| true)
                .expect("a valid pair")
                .expect("not stopped");
            println!(
                "{me:?} against {them:?}: {score:?} {p:.9} ({:.1} s)",
                t.elapsed().as_secs_f64()
            );
        }
    }
}
