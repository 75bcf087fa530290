//! Regine's rules, scoring, chance and checks, tested.

use super::policy::build_rollout_action;
use super::*;

fn game(players: usize) -> Regine {
    let mut o = Options::new();
    o.insert("players".into(), Value::from(players));
    Regine::from_options(&o).unwrap()
}

fn kinds(names: [&str; COMBO]) -> [u8; COMBO] {
    names.map(|n| CARD_NAMES.iter().position(|&c| c == n).unwrap() as u8)
}

fn key(suit: usize, names: [&str; COMBO]) -> Option<[u8; 7]> {
    suit_key(suit, &kinds(names))
}

#[test]
fn pairs_rank_two_pairs_over_three_over_a_pair_and_four_as_two_pairs() {
    let two = key(2, ["jester", "jester", "peasant", "peasant"]);
    let three = key(2, ["queen", "queen", "queen", "jester"]);
    let pair = key(2, ["queen", "queen", "knight", "herald"]);
    assert!(two > three && three > pair);
    let four = key(2, ["jester"; 4]);
    assert!(key(2, ["queen", "queen", "knight", "knight"]) > four);
    assert_eq!(
        four.map(|k| k[0]),
        two.map(|k| k[0]),
        "four of a kind counts as two pairs"
    );
    assert_eq!(key(2, ["knight", "princess", "queen", "jester"]), None);
    assert!(
        pair > key(2, ["knight", "knight", "queen", "herald"]),
        "Queens above Knights"
    );
    assert_eq!(suit_points(2, &pair.unwrap()), 1);
    assert_eq!(suit_points(2, &three.unwrap()), 2);
}

#[test]
fn bet_strength_follows_the_rule_based_player() {
    let strength = |suit, names| bet_strength(suit, &kinds(names));
    assert_eq!(strength(0, ["queen", "queen", "queen", "jester"]), 2);
    assert_eq!(strength(0, ["queen", "queen", "herald", "jester"]), 1);
    assert_eq!(strength(1, ["queen", "queen", "herald", "jester"]), 0);
    assert_eq!(strength(2, ["queen", "queen", "jester", "jester"]), 2);
    assert_eq!(strength(2, ["herald", "herald", "herald", "jester"]), 1);
    assert_eq!(strength(2, ["herald", "herald", "queen", "jester"]), 0);
    assert_eq!(
        strength(3, ["queen", "knight", "princess", "jester"]),
        2,
        "31"
    );
    assert_eq!(
        strength(3, ["queen", "knight", "princess", "herald"]),
        1,
        "37"
    );
    assert_eq!(
        strength(3, ["queen", "knight", "herald", "courtesan"]),
        0,
        "33"
    );
}

#[test]
fn rollouts_exchange_the_cards_that_fit_nothing_then_declare_no_changes() {
    let g = game(2);
    let mut s = g.new_state(Rng::new(3));
    let p = s.turn as usize;
    // A Queen, a pair of Heralds split between hand and table, a Peasant and a Knight.
    s.hands[p] = [0; KINDS];
    for kind in [QUEEN, HERALD, PEASANT, KNIGHT] {
        s.hands[p][kind as usize] += 1;
    }
    s.table[p][0] = HERALD;
    s.table_len[p] = 1;
    assert_eq!(build_rollout_action(&s), MARK + PEASANT as Action);
    s.marked[PEASANT as usize] = 1;
    assert_eq!(build_rollout_action(&s), MARK + KNIGHT as Action);
    s.marked[KNIGHT as usize] = 1;
    assert_eq!(build_rollout_action(&s), CONFIRM_EXCHANGE);
    s.marked = [0; KINDS];
    s.hands[p][PEASANT as usize] = 0;
    s.hands[p][KNIGHT as usize] = 0;
    s.hands[p][JESTER as usize] = 2;
    assert_eq!(build_rollout_action(&s), NO_CHANGES);
    s.changed = true;
    assert_eq!(build_rollout_action(&s), END_TURN);
}

#[test]
fn rollouts_claim_suits_and_stop_when_the_round_is_scored() {
    let g = game(2);
    let mut s = g.new_state(Rng::new(3));
    let mut rng = Rng::new(5);
    let start = s;
    let (mut claims, mut bets) = (0, 0);
    while s.round == start.round {
        assert_eq!(g.rollout_cutoff(&start, &s), None);
        let legal = g.legal_actions(&s);
        let a = g.rollout_action(&s, &legal, &mut rng);
        assert!(legal.contains(a as usize));
        if legal.contains(BET_MINE as usize) {
            bets += 1;
            claims += usize::from(a == BET_MINE);
        }
        g.apply(&mut s, a);
    }
    assert!(
        bets > 0 && claims * 2 > bets,
        "{claims} claims in {bets} bets"
    );
    let lead = i64::from(s.scores[0]) - i64::from(s.scores[1]);
    let expected = (lead as f64 / (31.0 / 4.0)).tanh();
    assert_eq!(
        g.rollout_cutoff(&start, &s),
        Some(vec![expected, -expected])
    );
}

#[test]
fn game_is_31_then_the_highest_from_32_and_nothing_below() {
    let g31 = key(3, ["queen", "knight", "princess", "jester"]).unwrap();
    let g40 = key(3, ["queen"; 4]).unwrap();
    assert!(g31 > g40);
    assert_eq!((suit_points(3, &g31), suit_points(3, &g40)), (2, 1));
    assert_eq!(key(3, ["queen", "queen", "herald", "jester"]), None, "28");
    let more_queens = key(3, ["queen", "queen", "knight", "knight"]);
    assert!(more_queens > key(3, ["queen", "knight", "knight", "princess"]));
}

#[test]
fn jesters_tie_goes_to_the_lower_cards_queens_tie_to_the_higher() {
    let low = key(1, ["jester", "jester", "peasant", "queen"]);
    assert!(low > key(1, ["jester", "jester", "queen", "queen"]));
    let high = key(0, ["queen", "knight", "jester", "jester"]);
    assert!(high > key(0, ["queen", "herald", "jester", "jester"]));
    assert_eq!(high, key(0, ["queen", "princess", "jester", "jester"]));
}

#[test]
fn every_seat_always_holds_four_cards_and_the_deck_adds_up() {
    for players in 2..=4 {
        let g = game(players);
        let mut s = g.new_state(Rng::new(players as u64));
        let mut picker = Rng::new(99);
        while g.current_player(&s).is_some() {
            g.check_state(&s).unwrap();
            let legal = g.legal_actions(&s);
            g.apply(&mut s, legal.nth(picker.index(legal.len())).unwrap());
        }
        g.check_state(&s).unwrap();
        assert!(s.scores.iter().any(|&x| x >= 31));
    }
}

fn explicit(players: usize) -> Regine {
    let mut g = game(players);
    g.config.chance = ChanceMode::Explicit;
    g
}

#[test]
fn explicit_chance_deals_card_by_card_from_the_dealers_left() {
    let g = explicit(3);
    let mut s = g.new_state(Rng::new(1));
    assert_eq!(s.deck, [UNSEEN; DECK]);
    for k in [1u8, 2, 0] {
        for dealt in 0..COMBO {
            assert_eq!(g.chance_event(&s), Some(ChanceEvent::Draw(k)));
            assert_eq!(g.current_player(&s), None);
            g.check_state(&s).unwrap();
            let outcomes = g.chance_outcomes(&s);
            let total: f64 = outcomes.iter().map(|&(_, p)| p).sum();
            assert!((total - 1.0).abs() < 1e-12);
            if k == 1 && dealt == 0 {
                assert_eq!(outcomes[0], (JESTER as Action, 8.0 / 40.0));
                assert_eq!(outcomes[1], (PEASANT as Action, 4.0 / 40.0));
            }
            let queen = g.legal_actions(&s).contains(QUEEN as usize);
            g.apply(&mut s, if queen { QUEEN } else { JESTER } as Action);
        }
    }
    assert_eq!(s.hands[0][JESTER as usize], 4, "only 8 Queens");
    assert_eq!(hand_size(&s.hands[0]), 4);
    assert_eq!(g.current_player(&s), Some(0), "the Dealer begins");
    assert_eq!(s.deck_len, 28);
    assert!(!g.legal_actions(&s).contains(QUEEN as usize));
}

#[test]
fn explicit_chance_draws_the_knights_loss_the_heralds_card_and_the_replacements() {
    let g = explicit(2);
    let mut s = g.new_state(Rng::new(1));
    for kind in [
        KNIGHT, HERALD, JESTER, JESTER, QUEEN, QUEEN, PEASANT, ASSASSIN,
    ] {
        g.apply(&mut s, kind as Action);
    }
    // Seat 1 holds knight, herald, jester, jester; the Dealer (seat 0) begins.
    assert_eq!((s.turn, g.current_player(&s)), (0, Some(0)));
    g.apply(&mut s, END_TURN);
    g.apply(&mut s, PLAY_UP + KNIGHT as Action);
    g.apply(&mut s, KNIGHT_SEAT);
    assert_eq!(g.chance_event(&s), Some(ChanceEvent::KnightLoss(0)));
    assert_eq!(
        g.chance_outcomes(&s),
        vec![
            (PEASANT as Action, 0.25),
            (ASSASSIN as Action, 0.25),
            (QUEEN as Action, 0.5)
        ]
    );
    assert_eq!(g.action_name(&s, QUEEN as Action), "seat 0 loses queen");
    g.check_state(&s).unwrap();
    g.apply(&mut s, QUEEN as Action);
    assert_eq!(s.discard[QUEEN as usize], 1);
    assert_eq!(g.chance_event(&s), Some(ChanceEvent::Draw(0)));
    // 32 cards unseen (8 dealt, one of them discarded), 6 Queens among them.
    let p = g.chance_outcomes(&s);
    assert!(p.contains(&(QUEEN as Action, 6.0 / 32.0)), "{p:?}");
    g.apply(&mut s, COURTESAN as Action);
    assert_eq!(s.hands[0][COURTESAN as usize], 1);
    assert_eq!(
        g.current_player(&s),
        Some(1),
        "the Knight's owner still has her turn"
    );
    for a in [END_TURN, END_TURN, PLAY_UP + HERALD as Action] {
        assert!(g.legal_actions(&s).contains(a as usize));
        g.apply(&mut s, a);
    }
    assert_eq!(g.chance_event(&s), Some(ChanceEvent::HeraldTop));
    let herald_view = g.observation(&s, 1);
    assert_eq!(herald_view["herald_card"], Value::Null);
    g.apply(&mut s, PRINCESS as Action);
    assert_eq!(g.current_player(&s), Some(1));
    assert_eq!(g.observation(&s, 1)["herald_card"], "princess");
    assert_eq!(g.observation(&s, 0)["herald_card"], Value::Null);
    g.apply(&mut s, HERALD_DECLINE);
    assert_eq!(s.deck[0], PRINCESS, "put at the bottom, known");
    g.check_state(&s).unwrap();
    // A determinization keeps the unseen cards unseen and the card at the bottom a card.
    let d = g.determinize(&s, 0, &mut Rng::new(3));
    g.check_state(&d).unwrap();
    assert_eq!(
        d.deck[1..s.deck_len as usize],
        s.deck[1..s.deck_len as usize]
    );
    assert!(d.deck[0] < UNSEEN);
    // The seeded mode refuses what only explicit chance makes.
    let seeded = game(2);
    assert!(seeded.check_state(&s).is_err());
}

#[test]
fn explicit_games_end_and_every_step_is_valid() {
    for players in 2..=4 {
        let g = explicit(players);
        let mut s = g.new_state(Rng::new(players as u64));
        let mut picker = Rng::new(7);
        let mut chance_nodes = 0;
        while s.phase != Phase::Over {
            g.check_state(&s).unwrap();
            let legal = g.legal_actions(&s);
            if g.is_chance_node(&s) {
                chance_nodes += 1;
                let outcomes = g.chance_outcomes(&s);
                let kinds: Vec<Action> = outcomes.iter().map(|&(a, _)| a).collect();
                assert_eq!(kinds, legal.iter().collect::<Vec<_>>());
                assert!(g.current_player(&s).is_none());
            } else {
                assert!(g.current_player(&s).is_some());
            }
            g.apply(&mut s, legal.nth(picker.index(legal.len())).unwrap());
        }
        g.check_state(&s).unwrap();
        assert!(chance_nodes > 4 * players, "{chance_nodes}");
    }
}

fn small(chance: &str) -> Regine {
    let mut o = Options::new();
    o.insert("players".into(), Value::from(2));
    o.insert("deck".into(), json!([3, 0, 0, 0, 0, 0, 2, 3]));
    o.insert("build_phase".into(), Value::from(false));
    o.insert("max_rounds".into(), Value::from(1));
    o.insert("chance".into(), Value::from(chance));
    Regine::from_options(&o).unwrap()
}

#[test]
fn the_small_deck_without_phase_1_goes_from_the_deal_to_the_wagers() {
    let seeded = small("seeded");
    let s = seeded.new_state(Rng::new(2));
    assert_eq!((s.phase, s.deck_len), (Phase::Wager, 0));
    assert!(s.table[..2]
        .iter()
        .flatten()
        .all(|&c| [JESTER, PRINCESS, QUEEN].contains(&c)));
    seeded.check_state(&s).unwrap();
    let g = small("explicit");
    let mut s = g.new_state(Rng::new(2));
    assert_eq!(
        g.chance_outcomes(&s),
        vec![
            (0, 3.0 / 8.0),
            (PRINCESS as Action, 2.0 / 8.0),
            (QUEEN as Action, 3.0 / 8.0)
        ]
    );
    for kind in [QUEEN, QUEEN, PRINCESS, JESTER, QUEEN, PRINCESS, JESTER] {
        g.apply(&mut s, kind as Action);
        assert_eq!(s.phase, Phase::Build);
        g.check_state(&s).unwrap();
    }
    assert_eq!(g.chance_outcomes(&s), vec![(0, 1.0)]);
    g.apply(&mut s, JESTER as Action);
    assert_eq!((s.phase, g.current_player(&s)), (Phase::Wager, Some(0)));
    let mut sorted = s.table[1];
    sorted.sort_unstable();
    assert_eq!(sorted, [JESTER, PRINCESS, QUEEN, QUEEN], "31 points");
    // Bad decks are refused.
    for deck in [
        json!([1, 0, 0, 0, 0, 0, 2, 3]),
        json!([8, 8, 8, 8, 8, 0, 0, 8]),
    ] {
        let mut o = Options::new();
        o.insert("players".into(), Value::from(2));
        o.insert("deck".into(), deck);
        assert!(Regine::from_options(&o).is_err());
    }
}

#[test]
fn an_exchange_keeps_the_hand_size_and_a_peasant_chain_returns_to_the_turn() {
    let g = game(2);
    let mut s = g.new_state(Rng::new(1));
    s.hands = [[0; KINDS]; MAX_PLAYERS];
    s.hands[0][PEASANT as usize] = 1;
    s.hands[0][QUEEN as usize] = 3;
    s.hands[1][JESTER as usize] = 2;
    s.hands[1][KNIGHT as usize] = 2;
    // Put the cards taken from the deal back so that the counts add up.
    let mut rest = COPIES;
    for h in &s.hands[..2] {
        for k in 0..KINDS {
            rest[k] -= h[k];
        }
    }
    let mut len = 0;
    for (k, &c) in rest.iter().enumerate() {
        for _ in 0..c {
            s.deck[len] = k as u8;
            len += 1;
        }
    }
    s.deck_len = len as u8;
    s.no_changes = true;
    g.check_state(&s).unwrap();
    g.apply(&mut s, PLAY_UP + PEASANT as Action);
    assert_eq!((s.effect, s.effect_seat), (Effect::PeasantName, 0));
    g.apply(&mut s, PEASANT_SEAT + 1);
    assert_eq!(g.current_player(&s), Some(1));
    g.apply(&mut s, PEASANT_CARD + JESTER as Action);
    assert!(!s.no_changes, "the shown Jester lifts the lock");
    assert_eq!(g.current_player(&s), Some(0));
    g.apply(&mut s, MARK + QUEEN as Action);
    g.apply(&mut s, CONFIRM_EXCHANGE);
    assert_eq!(hand_size(&s.hands[0]), 3);
    assert_eq!(s.turn, 1, "both actions used: the turn passed");
    g.check_state(&s).unwrap();
}
