//! Duo's rules, chance, scoring and search policy, tested.

use super::policy::{finish_times_from, ROUND_POINTS};
use super::*;

/// The rulebook's game to the target.
fn game(players: usize) -> Duo {
    let mut o = Options::new();
    o.insert("players".into(), json!(players));
    o.insert("rounds".into(), json!(0));
    Duo::from_options(&o).unwrap()
}

fn card(name: &str) -> usize {
    (0..TURBO_CARDS).find(|&c| card_name(c) == name).unwrap()
}

#[test]
fn names_and_ids_agree() {
    assert_eq!(card_name(0), "blue 1 circle");
    assert_eq!(card("red 3 triangle"), 16 + 2 * 4 + 2);
    assert_eq!(card("green 4 cross"), 63);
    assert_eq!(card("blue joker"), 64);
    assert_eq!(card("4 joker"), 71);
    assert_eq!(card("cross joker"), 75);
    assert_eq!(card_name(79), "turbo-joker");
}

#[test]
fn matching_follows_the_rulebook() {
    // Symbol on Symbol: exactly two of the three characteristics.
    assert!(matches(card("red 3 circle"), card("red 3 cross")));
    assert!(matches(card("red 1 cross"), card("red 3 cross")));
    assert!(matches(card("blue 3 cross"), card("red 3 cross")));
    assert!(!matches(card("blue 1 cross"), card("red 3 cross")));
    assert!(!matches(card("blue 1 circle"), card("red 3 cross")));
    // Onto a Joker: its one characteristic; a Joker onto a Symbol: the same.
    assert!(matches(card("red 1 circle"), card("red joker")));
    assert!(!matches(card("blue 1 circle"), card("red joker")));
    assert!(matches(card("square joker"), card("green 2 square")));
    assert!(!matches(card("circle joker"), card("green 2 square")));
    assert!(!matches(card("2 joker"), card("2 joker")));
    // Never Joker on Joker; a Turbo-Joker on anything and anything on it.
    assert!(!matches(card("red joker"), card("blue joker")));
    assert!(!matches(card("3 joker"), card("red joker")));
    assert!(matches(79, card("red joker")) && matches(card("red joker"), 76));
    assert!(matches(76, 77) && matches(76, card("blue 1 circle")));
    // Every Symbol card matches exactly 9 Symbol cards and 3 Jokers.
    for m in &MATCHES[..SYMBOLS] {
        assert_eq!((*m - Set128::below(FIRST_TURBO)).len(), 4);
        assert_eq!((*m & Set128::below(FIRST_TURBO)).len(), 12);
    }
}

/// A round in progress: the given hands and pile tops, the other cards in the draw pile
/// except that only `draw` of them stay there (the rest lie under the left pile).
fn position(g: &Duo, hands: &[&[&str]], tops: [&str; 2], draw: usize) -> State {
    let mut s = g.new_state(Rng::new(1));
    s.hands = [Set128::EMPTY; MAX_PLAYERS];
    for (h, names) in s.hands.iter_mut().zip(hands) {
        names.iter().for_each(|n| h.insert(card(n)));
    }
    s.tops = tops.map(|n| card(n) as u8);
    s.piles = tops.map(|n| Set128::single(card(n)));
    let placed = s.hands.iter().fold(s.piles[0] | s.piles[1], |a, &h| a | h);
    let rest = Set128::below(BASIC_CARDS) - placed;
    s.draw = Set128::EMPTY;
    for (i, c) in rest.iter().enumerate() {
        if i < draw {
            s.draw.insert(c);
        } else {
            s.piles[0].insert(c);
        }
    }
    assert_eq!(g.check_state(&s), Ok(()));
    s
}

#[test]
fn the_fast_random_move_draws_what_the_legal_set_gives() {
    // Every variant whose moves differ: seats, switching piles, Turbo-Jokers, a small
    // deck, explicit chance (whose chance nodes take the slow path).
    let variants = [
        json!({"players": 2, "rounds": 1}),
        json!({"players": 4, "switch_piles": true, "rounds": 2}),
        json!({"players": 3, "turbo": true, "rounds": 2}),
        json!({"players": 6, "turbo": true, "switch_piles": true, "rounds": 1}),
        json!({"colours": 2, "numbers": 2, "shapes": 3, "hand_size": 2, "rounds": 3}),
        json!({"turbo": true, "chance": "explicit", "rounds": 1}),
    ];
    for (i, options) in variants.into_iter().enumerate() {
        let options: Options = serde_json::from_value(options).unwrap();
        let g = Duo::from_options(&options).unwrap();
        for seed in 0..40 {
            let mut s = g.new_state(Rng::new(seed));
            let mut picker = Rng::new(seed ^ 77);
            loop {
                let mut slow = picker;
                let want = random_legal_action(&g.legal_actions(&s), &mut slow);
                let got = g.random_legal_action(&s, &mut picker);
                assert_eq!((got, picker), (want, slow), "variant {i}, seed {seed}");
                match got {
                    Some(a) => g.apply(&mut s, a),
                    None => break,
                }
            }
            assert!(s.over);
        }
    }
}

#[test]
fn rollouts_play_a_fitting_card_and_draw_only_when_none_fits() {
    let g = game(2);
    let hands: [&[&str]; 2] = [&["red 3 circle", "green 1 square"], &["blue 1 cross"]];
    let mut s = position(&g, &hands, ["red 3 cross", "yellow 2 circle"], 40);
    let mut rng = Rng::new(4);
    for _ in 0..20 {
        let a = g.rollout_action(&s, &g.legal_actions(&s), &mut rng);
        assert_eq!(a, card("red 3 circle") as Action, "the only card that fits");
    }
    g.apply(&mut s, card("red 3 circle") as Action);
    assert_eq!(
        g.rollout_action(&s, &g.legal_actions(&s), &mut rng),
        END_TURN
    );
    g.apply(&mut s, END_TURN);
    assert_eq!(g.rollout_action(&s, &g.legal_actions(&s), &mut rng), DRAW);
}

#[test]
fn rollouts_stop_at_the_end_of_the_round_with_the_chance_to_win_the_game() {
    let g = game(2);
    let mut s = g.new_state(Rng::new(3));
    let mut rng = Rng::new(5);
    let start = s;
    while s.round == start.round {
        assert_eq!(g.rollout_cutoff(&start, &s), None);
        let a = g.rollout_action(&s, &g.legal_actions(&s), &mut rng);
        g.apply(&mut s, a);
    }
    assert!(!s.over && s.scores[..2] != [0, 0], "{:?}", s.scores);
    let v = g.game_edge(&s);
    assert_eq!(g.rollout_cutoff(&start, &s), Some(vec![v, -v]));
    let lead = s.scores[0] - s.scores[1];
    assert!(
        lead.signum() as f64 == v.signum() || lead == 0 && v == 0.0,
        "{v} {lead}"
    );
    // More players: the expected returns from each seat's chance to win; the round's
    // winner now leads and is the favourite.
    let g = game(3);
    let mut s = g.new_state(Rng::new(3));
    let start = s;
    while s.round == start.round {
        let a = g.rollout_action(&s, &g.legal_actions(&s), &mut rng);
        g.apply(&mut s, a);
    }
    let values = g.game_values(&s);
    assert_eq!(g.rollout_cutoff(&start, &s), Some(values.clone()));
    let winner = s.last_winner.expect("a player went out") as usize;
    assert!(
        (0..3).all(|i| i == winner || values[i] < values[winner]),
        "{values:?}"
    );
}

/// `game_values` of `g` with the given scores.
fn values(g: &Duo, scores: &[i32]) -> Vec<f64> {
    let mut s = g.new_state(Rng::new(1));
    s.scores[..scores.len()].copy_from_slice(scores);
    g.game_values(&s)
}

#[test]
fn the_chances_of_more_players_are_zero_sum_and_symmetric() {
    let mut rng = Rng::new(9);
    for players in 3..=MAX_PLAYERS {
        let g = game(players);
        let target = g.target() as i32;
        for _ in 0..50 {
            let scores: Vec<i32> = (0..players)
                .map(|_| rng.index(target as usize) as i32 - 3)
                .collect();
            let v = values(&g, &scores);
            assert!(v.iter().sum::<f64>().abs() < 1e-12, "{v:?}");
            let bottom = -1.0 / (players - 1) as f64;
            assert!(v.iter().all(|&x| x > bottom && x < 1.0), "{v:?}");
            // Turning the seats round turns the values round.
            let turned: Vec<i32> = (0..players).map(|i| scores[(i + 1) % players]).collect();
            let w = values(&g, &turned);
            for i in 0..players {
                assert!((w[i] - v[(i + 1) % players]).abs() < 1e-12, "{v:?} {w:?}");
            }
        }
        // Equal scores: no seat is favoured.
        let v = values(&g, &vec![4; players]);
        assert!(v.iter().all(|x| x.abs() < 1e-12), "{v:?}");
    }
}

#[test]
fn a_point_more_raises_a_seat_and_lowers_the_others() {
    for players in 3..=MAX_PLAYERS {
        let g = game(players);
        let target = g.target() as i32;
        for mine in -3..target - 1 {
            for theirs in [-2, 0, 5, target - 1] {
                let mut scores = vec![theirs; players];
                scores[1] = mine;
                let before = values(&g, &scores);
                scores[1] += 1;
                let after = values(&g, &scores);
                // Never lower; equal where the round's fewest points cover both needs.
                assert!(after[1] >= before[1] - 1e-12, "{players} {mine} {theirs}");
                for i in (0..players).filter(|&i| i != 1) {
                    assert!(after[i] <= before[i] + 1e-12, "{players} {mine} {theirs}");
                }
            }
        }
        // From far behind to a point short: strictly better, the others strictly worse.
        let mut scores = vec![5; players];
        scores[1] = -3;
        let before = values(&g, &scores);
        scores[1] = target - 1;
        let after = values(&g, &scores);
        assert!(after[1] > before[1] + 0.1, "{before:?} {after:?}");
        assert!((0..players).all(|i| i == 1 || after[i] < before[i]));
    }
}

#[test]
fn the_race_of_two_is_the_two_player_chance_to_win() {
    // The finishing times built from the two-player round points give what the exact
    // two-player table gives (up to the time steps' error).
    let g = game(2);
    let mut race = g.clone();
    race.win_chances = finish_times_from(&ROUND_POINTS, g.need_limit);
    for x in -5..10 {
        for y in -5..10 {
            let mut s = g.new_state(Rng::new(1));
            s.scores[..2].copy_from_slice(&[x, y]);
            let v = race.game_values(&s);
            assert!((v[0] - g.game_edge(&s)).abs() < 0.01, "{x} {y} {v:?}");
        }
    }
}

#[test]
fn the_edge_grows_with_the_lead_and_the_end_in_sight() {
    let g = game(2);
    let edge = |mine: i32, theirs: i32| {
        let mut s = g.new_state(Rng::new(1));
        s.scores[..2].copy_from_slice(&[mine, theirs]);
        g.game_edge(&s)
    };
    for x in -5..9 {
        assert_eq!(edge(x, x), 0.0);
        for y in -5..9 {
            assert_eq!(edge(x, y), -edge(y, x));
            assert!(edge(x + 1, y) > edge(x, y), "{x} {y}");
        }
    }
    // The same lead of 3 is worth more near the target: 9-6 against 3-0.
    assert!(edge(9, 6) > edge(3, 0));
    // One point from the target against none: the other must win the next rounds.
    assert!(edge(9, 0) > 0.75 && edge(9, 0) < 1.0, "{}", edge(9, 0));
}

#[test]
fn going_out_scores_the_cards_left_in_the_other_hands() {
    // The rulebook: B still has 2 cards and C 3, so A scores 5 points.
    let g = game(3);
    let hands: [&[&str]; 3] = [
        &["red 3 circle"],
        &["blue 1 square", "green 2 circle"],
        &["yellow 4 triangle", "blue 2 cross", "red joker"],
    ];
    let mut s = position(&g, &hands, ["red 3 cross", "yellow 2 circle"], 40);
    assert!(g.legal_actions(&s).contains(card("red 3 circle")));
    g.apply(&mut s, card("red 3 circle") as Action);
    assert_eq!(g.scores(&s), vec![5, 0, 0]);
    assert_eq!((s.round, s.current, s.last_winner), (2, 1, Some(0)));
    assert!(s.hands[..3].iter().all(|h| h.len() == HAND_SIZE));
    assert_eq!(g.check_state(&s), Ok(()));
}

#[test]
fn explicit_chance_asks_for_every_card_the_seeded_mode_draws() {
    let seeded = Duo::from_options(&Options::new()).unwrap();
    let mut explicit = seeded.clone();
    explicit.config.chance = ChanceMode::Explicit;
    // The explicit deal, fed the cards the seeded deal drew (in the order drawn), is the
    // seeded deal: the same chance interface asks for them.
    let want = seeded.new_state(Rng::new(9));
    let mut rng = Rng::new(9);
    let mut s = explicit.new_state(Rng::new(9));
    let mut steps = 0;
    while let Some(to) = explicit.taking_to(&s) {
        assert!(explicit.is_chance_node(&s) && explicit.current_player(&s).is_none());
        let outcomes = explicit.chance_outcomes(&s);
        assert_eq!(outcomes.len(), s.draw.len());
        let card = s.draw.nth(rng.index(s.draw.len())).unwrap();
        if steps == 0 {
            assert_eq!(to, TakeTo::Deal(0));
            assert_eq!(
                explicit.action_name(&s, card as Action),
                format!("take {} for seat 0", card_name(card))
            );
        }
        explicit.check_state(&s).unwrap();
        explicit.apply(&mut s, card as Action);
        steps += 1;
    }
    assert_eq!(steps, HAND_SIZE * 2 + PILES);
    assert_eq!(
        (s.hands, s.piles, s.tops, s.draw),
        (want.hands, want.piles, want.tops, want.draw)
    );
    // Drawing: the seat waits at a chance node for her card, then the turn passes.
    explicit.apply(&mut s, DRAW);
    assert_eq!(explicit.taking_to(&s), Some(TakeTo::Draw));
    explicit.check_state(&s).unwrap();
    let card = s.draw.first().unwrap();
    explicit.apply(&mut s, card as Action);
    assert!(s.hands[0].contains(card) && s.current == 1 && s.turn_pile.is_none());
    // A seeded state never waits for a card.
    let mut t = want;
    t.turn_pile = Some(DRAWING);
    assert!(seeded.check_state(&t).is_err());
}

#[test]
fn drawing_the_last_card_costs_every_player_her_hand() {
    let g = game(2);
    let hands: [&[&str]; 2] = [&["red 3 circle", "blue 1 square"], &["yellow 4 triangle"]];
    let mut s = position(&g, &hands, ["red 1 cross", "yellow 2 circle"], 1);
    s.scores[1] = 2;
    g.apply(&mut s, DRAW);
    assert_eq!(g.scores(&s), vec![-3, 1]);
    assert_eq!(s.last_points, Some([-3, -1, 0, 0, 0, 0]));
    assert_eq!((s.round, s.current, s.last_winner), (2, 1, None));
}

#[test]
fn a_deal_gives_seven_cards_each_and_two_piles() {
    for players in 2..=MAX_PLAYERS {
        let g = game(players);
        let s = g.new_state(Rng::new(players as u64));
        assert!(s.hands[..players].iter().all(|h| h.len() == HAND_SIZE));
        assert_eq!(s.draw.len(), BASIC_CARDS - HAND_SIZE * players - 2);
        assert_eq!(g.check_state(&s), Ok(()));
        assert_eq!(g.current_player(&s), Some(0));
    }
}

#[test]
fn the_default_deck_is_the_whole_deck_and_small_decks_keep_their_values() {
    let mut config = game(2).config;
    assert_eq!(deck_of(&config), Set128::below(BASIC_CARDS));
    config.turbo = true;
    assert_eq!(deck_of(&config), Set128::below(TURBO_CARDS));
    (config.colours, config.numbers, config.shapes) = (1, 2, 2);
    let names: Vec<String> = deck_of(&config).iter().map(card_name).collect();
    let expected = [
        "blue 1 circle",
        "blue 1 square",
        "blue 2 circle",
        "blue 2 square",
        "blue joker",
        "1 joker",
        "2 joker",
        "circle joker",
        "square joker",
        "turbo-joker",
        "turbo-joker",
        "turbo-joker",
        "turbo-joker",
    ];
    assert_eq!(names, expected);
    config.jokers = false;
    config.turbo = false;
    assert_eq!(deck_of(&config).len(), 4);
}
