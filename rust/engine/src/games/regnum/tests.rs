//! Regnum's rules, from the rulebook's sentences and the rulings.

use super::*;

fn game(players: usize) -> Regnum {
    let mut o = Options::new();
    o.insert("players".into(), Value::from(players));
    Regnum::from_options(&o).unwrap()
}

#[test]
fn set_up_deals_four_cards_and_a_line_up() {
    let g = game(3);
    let s = g.new_state(Rng::new(1));
    assert!(s.hands[..3].iter().all(|h| total(h) == 4));
    assert_eq!(s.lineup.iter().flatten().count(), 4);
    assert_eq!(count(s.standards as u64), 4);
    assert_eq!(s.discard.as_slice().len(), 1);
    assert_eq!(total(&s.deck), 60 - 12 - 1);
    g.check_state(&s).unwrap();
}
