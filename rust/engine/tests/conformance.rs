//! The conformance harness every registered game runs: random games with invariants checked
//! at every step (the game's own `check_state`, legal actions, every legal action applying,
//! refusals that change nothing, JSON round trips, independent clones, determinization that
//! a seat cannot tell from the truth yet that resamples hidden cards, returns only at the
//! end and zero-sum, histories within the game's bounds), and exhaustive walks of small
//! variants that check how close their longest histories come to those bounds.

use regalia_engine::rng::{derive_seed, Rng};
use regalia_engine::{all_games, fuzz, make, DynGame, DynState, Options};
use serde_json::Value;
use std::sync::atomic::AtomicBool;

const GAMES_PER_CONFIG: u64 = 24;
/// Games checked in full at every step; later games check their invariants at every step
/// and the whole contract at one step in four.
const FULLY_CHECKED_GAMES: u64 = 3;

/// Random games per configuration: fewer for games of many steps, since every step replays
/// the whole history from the seed (the JSON round trip).
fn games_per_config(name: &str) -> u64 {
    match name {
        "regine" => 8,
        _ => GAMES_PER_CONFIG,
    }
}

/// Every game and seat count, and every game that supports explicit chance in that mode too
/// (so that the harness walks its chance nodes).
fn configs() -> Vec<(&'static str, Options)> {
    let mut out = Vec::new();
    for info in all_games() {
        for players in info.min_players..=info.max_players {
            out.push((info.name, fuzz::harness_options(info.name, players, 1)));
        }
        if info.options.iter().any(|o| o.name == "chance") {
            let mut explicit = fuzz::harness_options(info.name, info.min_players, 1);
            explicit.insert("chance".into(), Value::from("explicit"));
            out.push((info.name, explicit));
        }
    }
    out
}

fn tensor(s: &dyn DynState, seat: usize, size: usize) -> Vec<f32> {
    let mut t = vec![0.0; size];
    s.observation_tensor(seat as i64, &mut t).unwrap();
    t
}

/// The rules part of a saved state without its generator: what determinizing may change.
fn cards_of(s: &dyn DynState) -> Value {
    let mut v: Value = serde_json::from_str(&s.to_json()).unwrap();
    let state = v["state"].take();
    match state {
        Value::Object(mut o) => {
            o.remove("rng");
            Value::Object(o)
        }
        other => other,
    }
}

/// A legal action as its seat is shown it: id, name and info.
type Shown = (u16, String, Value);

/// What a seat is shown of a state: its observation, its tensor, and on its turn the legal
/// actions with their names and infos. Two states that differ only in what the seat cannot
/// see must show it the same.
fn shown(s: &dyn DynState, seat: usize, size: usize) -> (Value, Vec<f32>, Vec<Shown>) {
    let legal = if s.current_player() == Some(seat) {
        s.legal_actions()
            .iter()
            .map(|a| {
                let (name, info) = (s.action_name(a as i64), s.action_info(a as i64));
                (a, name.unwrap(), info.unwrap())
            })
            .collect()
    } else {
        Vec::new()
    };
    (
        s.observation(seat as i64).unwrap(),
        tensor(s, seat, size),
        legal,
    )
}

/// Checks one state; returns whether some determinization changed a hidden card.
fn check_step(game: &dyn DynGame, s: &dyn DynState, size: usize, picker: &mut Rng) -> bool {
    let n = s.num_players();
    // Invariants, legal set, returns, observations, names, refusals and the JSON round trip.
    fuzz::check_contract(game, s, picker.next_u32() as u64);
    let legal = s.legal_actions();
    // A sample of illegal actions is refused and changes nothing.
    let illegal: Vec<usize> = (0..s.num_actions())
        .filter(|&a| !legal.contains(a))
        .collect();
    for _ in 0..illegal.len().min(3) {
        let bad = illegal[picker.index(illegal.len())];
        let mut c = s.clone_box();
        assert!(c.apply(bad as i64).is_err());
        assert!(c.same_as(s));
    }
    // Every legal action applies, to a clone that then keeps its invariants; the original
    // is untouched, and a change to the original does not reach an older clone.
    for a in legal.iter() {
        let name = s.action_name(a as i64).unwrap();
        assert_eq!(s.parse_action(&name).unwrap(), a, "{name}");
        let mut c = s.clone_box();
        c.apply(a as i64).unwrap();
        c.check_state().unwrap();
        assert_eq!(c.history().len(), s.history().len() + 1);
    }
    if let Some(a) = legal.nth(0) {
        let (mut original, copy) = (s.clone_box(), s.clone_box());
        original.apply(a as i64).unwrap();
        assert!(copy.same_as(s) && !original.same_as(s));
    }
    // Determinization keeps what each seat sees (and can be saved and loaded) while
    // resampling what it does not.
    let mut varied = false;
    if picker.below(4) == 0 {
        for seat in 0..n {
            let truth = shown(s, seat, size);
            for _ in 0..3 {
                let d = s
                    .determinize(seat as i64, picker.next_u32() as u64)
                    .unwrap();
                d.check_state().unwrap();
                assert_eq!(d.seed(), None);
                assert!(d.history().is_empty());
                assert_eq!(shown(&*d, seat, size), truth, "seat {seat} can tell");
                varied |= cards_of(&*d) != cards_of(s);
                let text = d.to_json();
                let back = make(s.game_name(), &options_of(&text))
                    .unwrap()
                    .state_from_json(&text)
                    .unwrap();
                assert!(back.same_as(&*d));
            }
        }
    }
    varied
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
        let mut varied = false;
        for i in 0..games_per_config(name) {
            let mut picker = Rng::new(derive_seed(99, i));
            let mut s = game.new_state(i);
            let mut steps = 0;
            let mut own = vec![0; game.num_players()];
            while !s.is_terminal() {
                s.check_state().unwrap();
                assert!(s.outcome().is_none(), "{name}: an outcome before the end");
                if i < FULLY_CHECKED_GAMES || picker.below(8) == 0 {
                    varied |= check_step(&*game, &*s, size, &mut picker);
                }
                let legal = s.legal_actions();
                let a = legal.nth(picker.index(legal.len())).unwrap();
                if let Some(seat) = s.current_player() {
                    own[seat] += 1;
                }
                s.apply(a as i64).unwrap();
                steps += 1;
                assert_eq!(s.history().len(), steps);
                assert!(steps < 100_000, "{name}: game {i} does not end");
            }
            // A game's bounds on its histories (where it has them) hold.
            if let Some(longest) = game.max_history_len() {
                assert!(steps <= longest, "{name}: {steps} actions, bound {longest}");
            }
            if let Some(bound) = game.max_seat_actions() {
                assert!(
                    own.iter().all(|&n| n <= bound),
                    "{name}: {own:?}, bound {bound}"
                );
            }
            check_step(&*game, &*s, size, &mut picker);
            let r = s.returns();
            assert_eq!(r.len(), game.num_players());
            assert!(
                r.iter().sum::<f64>().abs() < 1e-9,
                "{name}: returns are not zero-sum: {r:?}"
            );
            check_outcome(name, &*s);
        }
        // Every game hides cards from someone (a shuffled deck, an opponent's hand).
        assert!(varied, "{name}: determinize never changed a hidden card");
    }
}

/// The end report of a finished game agrees with its scores and returns: the winners are
/// exactly the seats with a positive return (none on a draw), the reason is one of the game's.
fn check_outcome(name: &str, s: &dyn DynState) {
    let outcome = s.outcome().expect("a finished game has an outcome");
    assert_eq!(outcome.scores, s.scores(), "{name}");
    let r = s.returns();
    let positive: Vec<usize> = (0..r.len()).filter(|&k| r[k] > 0.0).collect();
    assert_eq!(
        outcome.winners, positive,
        "{name}: {outcome:?} against {r:?}"
    );
    let reasons: &[&str] = match name {
        "duo-regna" => &["target_reached", "dragon_pile_empty", "round_guard"],
        "duell-der-drachen" => &["all_markers", "board_full", "no_legal_move"],
        "duo" => &["target_reached", "rounds_played", "round_guard"],
        "regine" => &["target_reached", "round_guard"],
        "regnum" => &["final_round", "turn_guard"],
        _ => panic!("{name}: no reasons listed"),
    };
    assert!(reasons.contains(&outcome.reason), "{name}: {outcome:?}");
}

/// Small variants with bounded histories, walked whole with explicit chance, and whether the
/// walk reaches the game's bounds exactly.
const SMALL_BOUNDED: &[(&str, &str, bool)] = &[
    // The smallest board: all four cards dealt, each side takes one card.
    (
        "duell-der-drachen",
        r#"{"territories": 2, "values": 2, "hand_size": 1, "cards_per_side": 1, "face_down_limit": 1}"#,
        true,
    ),
    // One round: a dragon card revealed, two plays.
    (
        "duo-regna",
        r#"{"dragon_deck": [1, 1], "dragons_to_win": 1, "max_rounds": 1}"#,
        true,
    ),
    // Three rounds: a dragon captured in two lets a second card be revealed.
    (
        "duo-regna",
        r#"{"dragon_deck": [2, 1], "dragons_to_win": 2, "max_rounds": 3}"#,
        true,
    ),
    // A single round of six cards, one in each hand: turns alternate and a draw ends one,
    // so the seats cannot lay every card the bound allows for.
    (
        "duo",
        r#"{"colours": 1, "numbers": 2, "shapes": 3, "jokers": false, "hand_size": 1, "rounds": 1}"#,
        false,
    ),
];

/// Every history below `s`: the longest (into `longest`) and the most actions one seat
/// takes in one (into `most_own`), with `own` counting each seat's actions so far.
fn walk(s: &dyn DynState, own: &mut [usize], longest: &mut usize, most_own: &mut usize) {
    *longest = (*longest).max(s.history().len());
    *most_own = (*most_own).max(own.iter().copied().max().unwrap_or(0));
    let seat = s.current_player();
    for a in s.legal_actions().iter() {
        let mut child = s.clone_box();
        child.apply(a as i64).unwrap();
        if let Some(p) = seat {
            own[p] += 1;
        }
        walk(&*child, own, longest, most_own);
        if let Some(p) = seat {
            own[p] -= 1;
        }
    }
}

#[test]
fn small_variants_reach_their_bounds_on_histories() {
    for &(name, options, tight) in SMALL_BOUNDED {
        let mut options: Options = serde_json::from_str(options).unwrap();
        options.insert("chance".into(), Value::from("explicit"));
        let game = make(name, &options).unwrap();
        let (bound, own_bound) = (game.max_history_len(), game.max_seat_actions());
        let (mut longest, mut most_own) = (0, 0);
        let mut own = vec![0; game.num_players()];
        walk(&*game.new_state(0), &mut own, &mut longest, &mut most_own);
        let found = (Some(longest), Some(most_own));
        if tight {
            assert_eq!(found, (bound, own_bound), "{name} {options:?}");
        } else {
            assert!(
                found.0 <= bound && found.1 <= own_bound,
                "{name} {options:?}"
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
        let never = AtomicBool::new(false);
        let a = game.random_playouts(40, 7, 1, &never).expect("not stopped");
        let b = game.random_playouts(40, 7, 2, &never).expect("not stopped");
        assert_eq!(a, b, "{}: threads change the results", info.name);
        assert_eq!(a.games, 40);
        assert_eq!(a.wins.iter().sum::<u64>() + a.draws, 40);
    }
}
