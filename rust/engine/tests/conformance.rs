//! The conformance harness every registered game runs: random games with invariants checked
//! at every step (legal actions, refusals that change nothing, JSON round trips, clones,
//! determinization that a seat cannot tell from the truth, returns only at the end).

use regalia_engine::rng::{derive_seed, Rng};
use regalia_engine::{all_games, make, DynState, Options};
use serde_json::Value;

const GAMES_PER_CONFIG: u64 = 60;

fn configs() -> Vec<(&'static str, Options)> {
    let mut out = Vec::new();
    for info in all_games() {
        for players in info.min_players..=info.max_players {
            let mut o = Options::new();
            o.insert("players".into(), Value::from(players));
            out.push((info.name, o));
        }
    }
    out
}

fn tensor(s: &dyn DynState, seat: usize, size: usize) -> Vec<f32> {
    let mut t = vec![0.0; size];
    s.observation_tensor(seat as i64, &mut t).unwrap();
    t
}

fn check_step(s: &dyn DynState, size: usize, picker: &mut Rng) {
    let n = s.num_players();
    let legal = s.legal_actions();
    assert_eq!(legal.is_empty(), s.is_terminal());
    assert_eq!(s.current_player().is_none(), s.is_terminal());
    if !s.is_terminal() {
        assert!(
            s.returns().iter().all(|&r| r == 0.0),
            "returns before the end"
        );
    }
    // An illegal action is refused and changes nothing.
    if let Some(bad) = (0..s.num_actions()).find(|&a| !legal.contains(a)) {
        let mut c = s.clone_box();
        assert!(c.apply(bad as i64).is_err());
        assert!(c.same_as(s));
    }
    let mut c = s.clone_box();
    assert!(c.apply(-1).is_err() && c.apply(s.num_actions() as i64).is_err());
    assert!(c.same_as(s));
    // Names are unique and parse back.
    for a in legal.iter() {
        let name = s.action_name(a as i64).unwrap();
        assert_eq!(s.parse_action(&name).unwrap(), a, "{name}");
    }
    // JSON round trip.
    let text = s.to_json();
    let back = make(s.game_name(), &options_of(&text))
        .unwrap()
        .state_from_json(&text)
        .unwrap();
    assert!(back.same_as(s));
    // Determinization keeps what each seat sees.
    if picker.below(4) == 0 {
        for seat in 0..n {
            let d = s
                .determinize(seat as i64, picker.next_u32() as u64)
                .unwrap();
            assert_eq!(
                d.observation(seat as i64).unwrap(),
                s.observation(seat as i64).unwrap()
            );
            assert_eq!(tensor(&*d, seat, size), tensor(s, seat, size));
            if s.current_player() == Some(seat) {
                assert_eq!(d.legal_actions(), legal);
            }
            // A determinized state saves and loads too (it has no seed to replay).
            let text = d.to_json();
            let back = make(s.game_name(), &options_of(&text))
                .unwrap()
                .state_from_json(&text)
                .unwrap();
            assert!(back.same_as(&*d));
        }
    }
}

fn options_of(text: &str) -> Options {
    let v: Value = serde_json::from_str(text).unwrap();
    v["options"].as_object().unwrap().clone()
}

#[test]
fn every_game_keeps_its_invariants_over_random_games() {
    for (name, options) in configs() {
        let game = make(name, &options).unwrap();
        let size: usize = game.observation_shape().iter().product();
        assert!(game.num_actions() <= regalia_engine::MAX_ACTIONS);
        for i in 0..GAMES_PER_CONFIG {
            let mut picker = Rng::new(derive_seed(99, i));
            let mut s = game.new_state(i);
            let mut steps = 0;
            while !s.is_terminal() {
                check_step(&*s, size, &mut picker);
                let legal = s.legal_actions();
                let a = legal.nth(picker.index(legal.len())).unwrap();
                let before = s.clone_box();
                s.apply(a as i64).unwrap();
                assert!(!before.same_as(&*s) || s.history().len() > before.history().len());
                steps += 1;
                assert!(steps < 100_000, "{name}: game {i} does not end");
            }
            check_step(&*s, size, &mut picker);
            let r = s.returns();
            assert_eq!(r.len(), game.num_players());
            assert!(
                r.iter().sum::<f64>().abs() < 1e-9,
                "{name}: returns are not zero-sum: {r:?}"
            );
        }
    }
}

#[test]
fn bad_saved_states_are_refused() {
    for (name, options) in configs() {
        let game = make(name, &options).unwrap();
        let mut s = game.new_state(3);
        let a = s.legal_actions().nth(0).unwrap();
        s.apply(a as i64).unwrap();
        let text = s.to_json();
        for bad in [
            String::new(),
            "[]".into(),
            text[..text.len() / 2].to_string(),
            text.replace("\"regalia-state\"", "\"other\""),
            text.replace("\"version\":1", "\"version\":99"),
            text.replace(&format!("\"game\":\"{name}\""), "\"game\":\"nope\""),
            text.replace("\"history\":[", "\"history\":[9999,"),
            text.replace("\"seed\":3", "\"seed\":4"),
        ] {
            assert!(game.state_from_json(&bad).is_err(), "{name} accepted {bad}");
        }
    }
}

#[test]
fn unknown_games_and_options_are_refused() {
    assert!(make("chess", &Options::new()).is_err());
    for info in all_games() {
        let mut o = Options::new();
        o.insert("no_such_option".into(), Value::from(1));
        assert!(make(info.name, &o).is_err());
        let mut o = Options::new();
        o.insert("players".into(), Value::from(info.max_players + 1));
        assert!(make(info.name, &o).is_err());
    }
}

#[test]
fn native_playouts_are_deterministic_and_count_every_game() {
    for info in all_games() {
        let game = make(info.name, &Options::new()).unwrap();
        let a = game.random_playouts(40, 7, 1);
        let b = game.random_playouts(40, 7, 2);
        assert_eq!(a, b, "{}: threads change the results", info.name);
        assert_eq!(a.games, 40);
        assert_eq!(a.wins.iter().sum::<u64>() + a.draws, 40);
    }
}
