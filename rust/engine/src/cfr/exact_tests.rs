//! The whole tree, best responses and CFR+ on small Duo Regna variants with explicit chance.

use super::best_response::{best_response_value, exploitability, values};
use super::cfr_plus::CfrPlus;
use super::key::{Scratch, Tracker};
use super::tree::{count_up_to, BuildError, Kind, Tree};
use crate::game::Game;
use crate::games::duo_regna::DuoRegna;
use crate::rng::Rng;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

fn duo_regna(options: serde_json::Value) -> DuoRegna {
    DuoRegna::from_options(options.as_object().unwrap()).unwrap()
}

/// One round, a pile of a single and a double dragon: 183 histories, 4 information sets.
fn one_round() -> DuoRegna {
    duo_regna(
        serde_json::json!({"dragon_deck": [1, 1], "dragons_to_win": 1, "max_rounds": 1, "chance": "explicit"}),
    )
}

/// Two rounds, a pile of two singles and a double: 11,847 histories.
fn two_rounds() -> DuoRegna {
    duo_regna(
        serde_json::json!({"dragon_deck": [2, 1], "dragons_to_win": 2, "max_rounds": 2, "chance": "explicit"}),
    )
}

#[test]
fn the_tree_holds_every_history_once_with_its_key() {
    let game = two_rounds();
    let tree = Tree::build(&game, 1_000_000).unwrap();
    let root = game.new_state(Rng::new(0));
    assert_eq!(
        Some(tree.nodes.len() as u64),
        count_up_to(&game, &root, u64::MAX)
    );
    let mut chance = 0;
    for (n, node) in tree.nodes.iter().enumerate() {
        let edges = tree.node_edges(n as u32);
        match node.kind {
            Kind::Chance => {
                chance += 1;
                let total: f64 = edges.iter().map(|e| e.probability).sum();
                assert!((total - 1.0).abs() < 1e-12 && edges.len() > 1);
            }
            Kind::Decision(s) => {
                let actions: Vec<_> = edges.iter().map(|e| e.action).collect();
                assert_eq!(actions, tree.set_actions(s));
            }
            Kind::Terminal(_) => assert!(edges.is_empty()),
        }
    }
    assert!(chance > 0);
    // Every member of every information set, replayed from the root, has the set's key.
    let mut scratch = Scratch::new(&game);
    for s in 0..tree.sets.len() as u32 {
        let set = tree.sets[s as usize];
        for &h in tree.set_members(s) {
            let mut state = game.new_state(Rng::new(0));
            let mut tracker = Tracker::new(&game, &state, &mut scratch);
            for a in tree.history(h) {
                let mover = game.current_player(&state).unwrap_or(usize::MAX);
                tracker.apply(&game, &mut state, mover, a, &mut scratch);
            }
            assert_eq!(game.current_player(&state), Some(set.seat));
            assert_eq!(tracker.key(set.seat), set.key);
        }
    }
}

#[test]
fn a_tree_beyond_the_limit_is_refused_with_its_estimate() {
    let game = duo_regna(serde_json::json!({"chance": "explicit"}));
    match Tree::build(&game, 1000) {
        Err(BuildError::TooLarge(t)) => assert!(t.limit == 1000 && t.estimate > 1e6, "{t:?}"),
        other => panic!("{other:?}"),
    }
    // Just beyond the limit: counted, not only estimated.
    let small = two_rounds();
    assert!(matches!(
        Tree::build(&small, 11_846),
        Err(BuildError::TooLarge(_))
    ));
    assert!(Tree::build(&small, 11_847).is_ok());
    let stopped = Tree::build_until(&small, 11_847, &AtomicBool::new(true));
    assert!(matches!(stopped, Err(BuildError::Game(_))));
    let seeded = duo_regna(serde_json::json!({"max_rounds": 1}));
    assert!(matches!(
        Tree::build(&seeded, 1000),
        Err(BuildError::Game(_))
    ));
}

/// `seat`'s best value over every pure strategy of its own, by enumeration.
fn best_pure_value(tree: &Tree, policy: &[f64], seat: usize) -> f64 {
    let mine: Vec<usize> = (0..tree.sets.len())
        .filter(|&s| tree.sets[s].seat == seat)
        .collect();
    let mut choice = vec![0usize; mine.len()];
    let mut best = f64::NEG_INFINITY;
    loop {
        let mut p = policy.to_vec();
        for (&s, &c) in mine.iter().zip(&choice) {
            let set = tree.sets[s];
            for j in 0..set.len as usize {
                p[set.first as usize + j] = if j == c { 1.0 } else { 0.0 };
            }
        }
        best = best.max(values(tree, &p)[seat]);
        let mut i = 0;
        while i < mine.len() {
            choice[i] += 1;
            if choice[i] < tree.sets[mine[i]].len as usize {
                break;
            }
            choice[i] = 0;
            i += 1;
        }
        if i == mine.len() {
            return best;
        }
    }
}

#[test]
fn the_best_response_is_the_best_pure_strategy() {
    let tree = Tree::build(&one_round(), 10_000).unwrap();
    assert_eq!(tree.sets.len(), 4);
    // A lopsided policy, not uniform, so that the best response has something to find.
    let mut policy = tree.uniform();
    for set in &tree.sets {
        let (first, len) = (set.first as usize, set.len as usize);
        let total: f64 = (1..=len).map(|j| j as f64).sum();
        for j in 0..len {
            policy[first + j] = (j + 1) as f64 / total;
        }
    }
    for seat in 0..2 {
        let exact = best_response_value(&tree, &policy, seat);
        assert!((exact - best_pure_value(&tree, &policy, seat)).abs() < 1e-12);
        assert!(exact > values(&tree, &policy)[seat]);
    }
}

#[test]
fn cfr_plus_approaches_an_equilibrium() {
    let tree = Arc::new(Tree::build(&two_rounds(), 1_000_000).unwrap());
    let uniform = exploitability(&tree, &tree.uniform()).exploitability;
    let mut run = CfrPlus::new(tree.clone());
    let stop = AtomicBool::new(false);
    assert_eq!(run.run(10, None, &stop), 10);
    let short = run.exploitability().exploitability;
    run.run(190, None, &stop);
    let long = run.exploitability();
    assert_eq!(run.iterations(), 200);
    assert!(
        uniform > 0.3
            && short < uniform
            && long.exploitability < short
            && long.exploitability < 0.01,
        "{uniform} -> {short} -> {long:?}"
    );
    // Zero-sum: the policy's values cancel; a best response never does worse than the policy.
    assert!((long.policy_values[0] + long.policy_values[1]).abs() < 1e-12);
    for seat in 0..2 {
        assert!(long.best_response_values[seat] >= long.policy_values[seat]);
    }
    assert_eq!(CfrPlus::new(tree).run(5, None, &AtomicBool::new(true)), 0);
}

/// Three rounds, a pile of a single and a double: 530,635 histories, chance inside the game
/// (each captured dragon's replacement).
fn three_rounds() -> DuoRegna {
    duo_regna(
        serde_json::json!({"dragon_deck": [1, 1], "dragons_to_win": 2, "max_rounds": 3, "chance": "explicit"}),
    )
}

#[test]
fn no_key_of_the_tree_stands_for_two_information_state_strings() {
    use crate::session::Session;
    use std::collections::HashMap;
    let game = Arc::new(three_rounds());
    let tree = Tree::build(&*game, 1_000_000).unwrap();
    assert!(tree.counts().chance > 1);
    // Every decision node's information-state string and key, by the session, against its
    // set's key.
    let mut strings: HashMap<u64, String> = HashMap::new();
    let mut stack = vec![(0u32, Session::new(game.clone(), 0))];
    while let Some((n, session)) = stack.pop() {
        if let Kind::Decision(s) = tree.nodes[n as usize].kind {
            let set = tree.sets[s as usize];
            let text = session.information_state_string(set.seat as i64).unwrap();
            let key = session.information_state_key(set.seat as i64).unwrap();
            assert_eq!(key, set.key);
            assert_eq!(
                strings.entry(set.key).or_insert_with(|| text.clone()),
                &text
            );
        }
        for e in tree.node_edges(n) {
            let mut child = session.clone();
            child.apply(e.action as i64).unwrap();
            stack.push((e.child, child));
        }
    }
    assert_eq!(strings.len(), tree.sets.len());
}

#[test]
fn a_best_response_played_as_a_strategy_is_worth_its_value_and_its_line_ends_best() {
    let tree = Tree::build(&two_rounds(), 100_000).unwrap();
    let uniform = tree.uniform();
    for seat in 0..2 {
        let (value, choices) = super::best_response::best_response(&tree, &uniform, seat);
        assert!((value - best_response_value(&tree, &uniform, seat)).abs() < 1e-12);
        let mut profile = uniform.clone();
        for (s, set) in tree.sets.iter().enumerate() {
            let first = set.first as usize;
            match choices[s] {
                Some(j) if set.seat == seat => {
                    profile[first..first + set.len as usize].fill(0.0);
                    profile[first + j] = 1.0;
                }
                None if set.seat != seat => {}
                other => panic!("set {s} of seat {} has choice {other:?}", set.seat),
            }
        }
        assert!((values(&tree, &profile)[seat] - value).abs() < 1e-12);
        let (end, probability) =
            super::best_response::principal_line(&tree, &profile, seat).unwrap();
        let Kind::Terminal(r) = tree.nodes[end as usize].kind else {
            panic!("the line ends at an end of the game");
        };
        let best = tree
            .returns
            .chunks(2)
            .map(|r| r[seat])
            .fold(f64::MIN, f64::max);
        assert_eq!(tree.returns[r as usize + seat], best);
        assert!(probability > 0.0 && probability <= 1.0);
    }
}

#[test]
fn seeded_keys_take_in_a_run_of_chance_outcomes_once() {
    // The seeded game deals its first dragon inside the first step; the explicit game shows it
    // at a chance node first. At the first decision the seeded key is a seeded game's key.
    let explicit = two_rounds();
    let tree = Tree::build(&explicit, 100_000).unwrap();
    assert_eq!(tree.seeded_keys.len(), tree.sets.len());
    let seeded =
        duo_regna(serde_json::json!({"dragon_deck": [2, 1], "dragons_to_win": 2, "max_rounds": 2}));
    let mut scratch = Scratch::new(&seeded);
    for seed in 0..20 {
        let state = seeded.new_state(Rng::new(seed));
        let key = Tracker::new(&seeded, &state, &mut scratch).key(0);
        assert!(tree.seeded_keys.contains(&key), "seed {seed}");
    }
}
