//! MCCFR against exact best responses on a game without chance, and its determinism.

use super::key::{Scratch, Tracker};
use super::mccfr::{Mccfr, Method};
use crate::actions::Action;
use crate::game::{Game, Seat};
use crate::games::duo_regna::DuoRegna;
use crate::rng::Rng;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

/// Duo Regna with one single dragon, one capture to win and two rounds: no chance at all
/// (the pile of one needs no shuffle), 9 × 9 × 8 × 8 histories.
fn tiny() -> DuoRegna {
    let options = serde_json::json!({"dragon_deck": [1, 0], "dragons_to_win": 1, "max_rounds": 2});
    DuoRegna::from_options(options.as_object().unwrap()).unwrap()
}

/// A node of the whole tree: the state, the keys, and the other seats' reach.
type Node<G> = (<G as Game>::State, Tracker, f64);

/// Exact best responses against the average strategy of `m` in a game without chance.
struct BestResponse<'m, G: Game> {
    m: &'m Mccfr<G>,
    seat: Seat,
    /// `seat`'s histories by information set, each with the other seats' reach.
    sets: HashMap<u64, Vec<Node<G>>>,
    chosen: HashMap<u64, Action>,
}

impl<'m, G: Game> BestResponse<'m, G> {
    fn new(m: &'m Mccfr<G>, seat: Seat) -> Self {
        BestResponse {
            m,
            seat,
            sets: HashMap::new(),
            chosen: HashMap::new(),
        }
    }

    fn average(&self, key: u64, state: &G::State) -> Vec<(Action, f64)> {
        match self.m.table().average(key) {
            Some(avg) => avg.into_iter().map(|(a, p)| (a, p as f64)).collect(),
            None => {
                let legal = self.m.game().legal_actions(state);
                let n = legal.len() as f64;
                legal.iter().map(|a| (a, 1.0 / n)).collect()
            }
        }
    }

    fn child(&self, state: &G::State, tracker: &Tracker, a: Action) -> (G::State, Tracker) {
        let game = self.m.game();
        let (mut s, mut t) = (state.clone(), *tracker);
        let mover = game.current_player(&s).unwrap_or_default();
        t.apply(game, &mut s, mover, a, &mut Scratch::new(game));
        (s, t)
    }

    /// Collects every history of `seat`'s information sets.
    fn collect(&mut self, state: G::State, tracker: Tracker, reach: f64) {
        let Some(mover) = self.m.game().current_player(&state) else {
            return;
        };
        let key = tracker.key(mover);
        if mover == self.seat {
            for a in self.m.game().legal_actions(&state).iter() {
                let (s, t) = self.child(&state, &tracker, a);
                self.collect(s, t, reach);
            }
            self.sets
                .entry(key)
                .or_default()
                .push((state, tracker, reach));
        } else {
            for (a, p) in self.average(key, &state) {
                let (s, t) = self.child(&state, &tracker, a);
                self.collect(s, t, reach * p);
            }
        }
    }

    /// `seat`'s value from `state` when it best-responds.
    fn value(&mut self, state: &G::State, tracker: &Tracker) -> f64 {
        let game = self.m.game();
        let Some(mover) = game.current_player(state) else {
            return game.returns(state)[self.seat];
        };
        let key = tracker.key(mover);
        if mover == self.seat {
            let a = self.choose(key);
            let (s, t) = self.child(state, tracker, a);
            self.value(&s, &t)
        } else {
            let mut v = 0.0;
            for (a, p) in self.average(key, state) {
                let (s, t) = self.child(state, tracker, a);
                v += p * self.value(&s, &t);
            }
            v
        }
    }

    /// The best action of `seat` at its information set `key`.
    fn choose(&mut self, key: u64) -> Action {
        if let Some(&a) = self.chosen.get(&key) {
            return a;
        }
        let histories = self.sets[&key].clone();
        let legal = self.m.game().legal_actions(&histories[0].0);
        let mut best = (f64::NEG_INFINITY, 0);
        for a in legal.iter() {
            let mut v = 0.0;
            for (state, tracker, reach) in &histories {
                let (s, t) = self.child(state, tracker, a);
                v += reach * self.value(&s, &t);
            }
            if v > best.0 {
                best = (v, a);
            }
        }
        self.chosen.insert(key, best.1);
        best.1
    }
}

/// NashConv of the average strategy of `m`: what each seat gains by best-responding,
/// summed (the game is zero-sum, so the profile's values sum to zero).
fn nash_conv<G: Game>(m: &Mccfr<G>) -> f64 {
    let game = m.game();
    let root = game.new_state(Rng::new(0));
    let tracker = Tracker::new(game, &root, &mut Scratch::new(game));
    (0..game.num_players())
        .map(|seat| {
            let mut br = BestResponse::new(m, seat);
            br.collect(root.clone(), tracker, 1.0);
            br.value(&root, &tracker)
        })
        .sum()
}

fn solved(method: Method, iterations: u64, seed: u64) -> Mccfr<DuoRegna> {
    let mut m = Mccfr::new(tiny(), method, seed);
    assert_eq!(m.run(iterations, None, &AtomicBool::new(false)), iterations);
    m
}

#[test]
fn the_tiny_game_has_no_chance() {
    // Two deals played alike look alike to both seats at every step, to the end.
    let game = tiny();
    let (mut a, mut b) = (game.new_state(Rng::new(1)), game.new_state(Rng::new(2)));
    let mut rng = Rng::new(3);
    while let Some(mover) = game.current_player(&a) {
        for seat in 0..2 {
            assert_eq!(game.observation(&a, seat), game.observation(&b, seat));
        }
        assert_eq!(game.current_player(&b), Some(mover));
        let action = crate::game::uniform_action(&game.legal_actions(&a), &mut rng);
        game.apply(&mut a, action);
        game.apply(&mut b, action);
    }
    assert_eq!(game.returns(&a), game.returns(&b));
}

#[test]
fn external_sampling_approaches_an_equilibrium() {
    let uniform = nash_conv(&solved(Method::External, 0, 1));
    let short = nash_conv(&solved(Method::External, 2_000, 1));
    let long = nash_conv(&solved(Method::External, 20_000, 1));
    assert!(uniform > 0.5, "uniform play is exploitable: {uniform}");
    assert!(
        short < uniform && long < short && long < 0.1,
        "{uniform} -> {short} -> {long}"
    );
}

#[test]
fn outcome_sampling_approaches_an_equilibrium() {
    let uniform = nash_conv(&solved(Method::Outcome, 0, 1));
    let short = nash_conv(&solved(Method::Outcome, 10_000, 2));
    let long = nash_conv(&solved(Method::Outcome, 200_000, 2));
    assert!(
        long < short && long < uniform / 4.0,
        "{uniform} -> {short} -> {long}"
    );
}

#[test]
fn a_seed_fixes_the_run() {
    for method in [Method::External, Method::Outcome] {
        let a = solved(method, 50, 7).table().averages();
        let b = solved(method, 50, 7).table().averages();
        let c = solved(method, 50, 8).table().averages();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}

#[test]
fn a_stop_flag_stops_the_run() {
    let mut m = Mccfr::new(tiny(), Method::External, 1);
    assert_eq!(m.run(10, None, &AtomicBool::new(true)), 0);
    assert_eq!(m.counts().iterations, 0);
    assert_eq!(m.run(3, None, &AtomicBool::new(false)), 3);
    assert_eq!(m.counts().iterations, 3);
    assert!(m.counts().updates > 0 && !m.table().is_empty());
}
