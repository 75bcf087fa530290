//! Regnum's rules, from the rulebook's sentences and the rulings (the position tests through
//! the public API, on both backends, are in `tests/test_regnum.py`).

use super::*;

fn game(players: usize) -> Regnum {
    let mut o = Options::new();
    o.insert("players".into(), Value::from(players));
    Regnum::from_options(&o).unwrap()
}

/// A hand from kind names.
fn hand(cards: &[&str]) -> [u8; KINDS] {
    let mut h = [0; KINDS];
    for c in cards {
        h[KIND_NAMES.iter().position(|k| k == c).unwrap()] += 1;
    }
    h
}

fn slots(icons: &[&str]) -> Vec<u8> {
    icons
        .iter()
        .flat_map(|i| cards::parse_icon(&Value::from(*i)).unwrap())
        .collect()
}

#[test]
fn set_up_deals_four_cards_a_line_up_and_players_plus_one_standards() {
    let g = game(3);
    let s = g.new_state(Rng::new(1));
    assert!(s.hands[..3].iter().all(|h| total(h) == 4));
    assert_eq!(s.lineup.iter().flatten().count(), 4);
    assert_eq!(count(s.standards as u64), 4);
    assert_eq!(s.discard.as_slice().len(), 1);
    assert_eq!(total(&s.deck), 60 - 12 - 1);
    assert_eq!(count(s.char_deck), 32);
    g.check_state(&s).unwrap();
}

#[test]
fn feasibility_of_every_icon_kind() {
    let king = slots(&["G+O+P", "1"]);
    assert!(feasible(
        &hand(&["G", "O", "P", "Y"]),
        &king,
        0,
        None,
        false
    ));
    assert!(!feasible(
        &hand(&["G", "O", "Y", "Y"]),
        &king,
        0,
        None,
        false
    ));
    assert!(feasible(&hand(&["G", "O", "Y", "Y"]), &king, 0, None, true)); // Goldmint
    assert!(!feasible(
        &hand(&["G", "Y", "Y", "Y"]),
        &king,
        0,
        None,
        true
    )); // one wildcard only
    let two_green = slots(&["2G"]);
    assert!(feasible(&hand(&["G/O", "G/P"]), &two_green, 0, None, false));
    assert!(!feasible(&hand(&["G/O", "O"]), &two_green, 0, None, false));
    let pair = slots(&["2=", "G+O"]);
    assert!(feasible(
        &hand(&["P/Y", "P", "G/O", "O"]),
        &pair,
        0,
        None,
        false
    ));
    assert!(!feasible(
        &hand(&["P/Y", "G", "G/O", "O"]),
        &pair,
        0,
        None,
        false
    ));
    // After the first card of the pair named orange, the second must be orange too.
    assert!(!feasible(&hand(&["P", "G", "O"]), &pair, 1, Some(1), false));
    assert!(feasible(
        &hand(&["O/P", "G", "O"]),
        &pair,
        1,
        Some(1),
        false
    ));
    // A dual card cannot pay two slots.
    assert!(!feasible(&hand(&["G/O"]), &slots(&["G+O"]), 0, None, false));
}

#[test]
fn every_legal_payment_step_can_be_completed() {
    // From any hand, whatever legal step is taken, the payment stays open to the end.
    let g = game(2);
    let mut picker = Rng::new(5);
    for i in 0..300 {
        let mut s = g.new_state(Rng::new(i));
        s.phase = Phase::Main;
        for (k, n) in s.hands[0].iter_mut().enumerate() {
            *n = picker.below(3) as u8 * (k < 4 || picker.below(3) == 0) as u8;
        }
        let Some(buy) = g.legal_actions(&s).iter().find(|&a| a < PAY) else {
            continue;
        };
        g.apply(&mut s, buy);
        while s.phase == Phase::Pay {
            let legal = g.legal_actions(&s);
            assert!(!legal.is_empty(), "a dead end in game {i}");
            g.apply(&mut s, legal.nth(picker.index(legal.len())).unwrap());
        }
    }
}

/// A 2-player game in which seat 0 holds every card but one G, which is the last in the deck
/// (seat 1 holds none), with `final_round` as given.
fn last_card_game(final_round: &str) -> (Regnum, State) {
    let mut o = Options::new();
    o.insert("final_round".into(), Value::from(final_round));
    let g = Regnum::from_options(&o).unwrap();
    let mut s = g.new_state(Rng::new(3));
    for k in 0..KINDS {
        s.hands[0][k] += s.deck[k] + s.hands[1][k];
        s.hands[1][k] = 0;
        s.deck[k] = 0;
    }
    s.hands[0][0] -= 1;
    s.deck[0] = 1;
    (g, s)
}

#[test]
fn a_deck_running_out_finishes_the_round_then_plays_one_more() {
    let (g, mut s) = last_card_game("equal_turns");
    g.apply(&mut s, DRAW_TWO);
    assert_eq!(s.final_turns, Some(4));
    for (seat, left) in [(0, 4), (1, 3), (0, 2), (1, 1)] {
        assert_eq!((s.active, s.final_turns), (seat, Some(left)));
        g.check_state(&s).unwrap();
        if seat == 1 {
            g.apply(&mut s, DRAW_TWO);
            g.apply(&mut s, END_TURN); // seat 1 has nothing to discard
        } else {
            if s.phase == Phase::Draw {
                g.apply(&mut s, DRAW_TWO);
            }
            g.apply(&mut s, DISCARD);
        }
    }
    assert_eq!((s.phase, s.turn), (Phase::Over, 4));
    assert_eq!(g.current_player(&s), None);
}

#[test]
fn final_round_one_each_gives_each_player_one_more_turn() {
    let (g, mut s) = last_card_game("one_each");
    g.apply(&mut s, DRAW_TWO);
    assert_eq!(s.final_turns, Some(3));
    g.apply(&mut s, DISCARD); // seat 0 ends the turn that emptied the deck
    assert_eq!((s.active, s.final_turns), (1, Some(2)));
    g.apply(&mut s, DRAW_TWO);
    g.apply(&mut s, END_TURN); // seat 1 has nothing to discard
    assert_eq!((s.active, s.final_turns), (0, Some(1)));
    g.apply(&mut s, DRAW_TWO);
    g.apply(&mut s, DISCARD);
    assert_eq!(s.phase, Phase::Over);
    assert_eq!(g.current_player(&s), None);
}

#[test]
fn a_phase_is_named_as_saved_and_its_code_is_its_place() {
    assert_eq!(Phase::Draw2Discard.name(), "draw2_discard");
    assert_eq!(
        serde_json::to_value(Phase::SwapTake).unwrap(),
        serde_json::json!("swap_take")
    );
    assert_eq!((Phase::Draw as usize, Phase::COUNT), (0, 12));
}
