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

fn explicit(players: usize) -> Regnum {
    let mut g = game(players);
    g.config.chance = ChanceMode::Explicit;
    g
}

/// The rules state without its generator.
fn rules(s: &State) -> State {
    State {
        rng: Rng::new(0),
        ..*s
    }
}

#[test]
fn explicit_setup_gives_castles_standards_line_up_hands_and_discard_one_at_a_time() {
    let g = explicit(3);
    let mut s = g.new_state(Rng::new(2));
    let mut order = Vec::new();
    while let Some(t) = g.waiting(&s) {
        assert!(g.is_chance_node(&s) && g.current_player(&s).is_none());
        g.check_state(&s).unwrap();
        let outcomes = g.chance_outcomes(&s);
        let sum: f64 = outcomes.iter().map(|&(_, p)| p).sum();
        assert!((sum - 1.0).abs() < 1e-12);
        let legal: Vec<Action> = g.legal_actions(&s).iter().collect();
        assert_eq!(legal, outcomes.iter().map(|&(o, _)| o).collect::<Vec<_>>());
        match t {
            // Castles: each one left equally likely.
            Take::Castle(seat) => assert_eq!(outcomes.len(), 6 - seat),
            // Standards (4 of 8), smallest first: the first is 0 with C(7, 3) / C(8, 4).
            Take::Standard if s.standards == 0 => {
                assert_eq!(outcomes[0], (0, 35.0 / 70.0));
                assert_eq!(outcomes.len(), 5);
            }
            Take::Standard => {
                let highest = 15 - s.standards.leading_zeros() as Action;
                assert!(outcomes.iter().all(|&(o, _)| o > highest));
            }
            Take::Character(_) => assert_eq!(outcomes.len(), count(s.char_deck)),
            // Resource cards: by the copies of each kind left in the deck.
            Take::Resource(_) | Take::Discard => {
                let (k, p) = outcomes[0];
                assert_eq!(p, s.deck[k as usize] as f64 / total(&s.deck) as f64);
            }
            Take::Stolen(_) => unreachable!("no steal at the setup"),
        }
        order.push(t);
        g.apply(&mut s, outcomes[outcomes.len() / 2].0);
    }
    let mut want = vec![Take::Castle(0), Take::Castle(1), Take::Castle(2)];
    want.extend([Take::Standard; 4]);
    want.extend((0..LINEUP).map(Take::Character));
    want.extend((0..3).flat_map(|p| [Take::Resource(p); HAND_START]));
    want.push(Take::Discard);
    assert_eq!(order, want);
    assert_eq!((s.pending, g.current_player(&s)), (None, Some(0)));
    g.check_state(&s).unwrap();
    assert_eq!(count(s.standards as u64), 4);
}

/// Plays seed `seed` seeded and explicit side by side, the explicit chance nodes answered
/// by a generator that repeats the seeded game's draws, the same random moves in both.
fn explicit_fed_the_seeded_draws(players: usize, seed: u64) {
    let (seeded, g) = (game(players), explicit(players));
    let mut want = seeded.new_state(Rng::new(seed));
    let mut s = g.new_state(Rng::new(seed));
    // The seeded setup's shuffles, as outcomes: seat i's castle, the standards in play.
    let mut feed = Rng::new(seed);
    let mut castles: Vec<usize> = (0..6).collect();
    feed.shuffle(&mut castles);
    let mut standards: Vec<usize> = (0..8).collect();
    feed.shuffle(&mut standards);
    let mut fixed = castles[..players].to_vec();
    let mut in_play = standards[..players + 1].to_vec();
    in_play.sort_unstable();
    fixed.extend(in_play);
    let mut fixed = fixed.into_iter();
    let mut moves = Rng::new(seed ^ 99);
    loop {
        while let Some(t) = g.waiting(&s) {
            let o = match t {
                Take::Castle(_) | Take::Standard => fixed.next().unwrap(),
                _ => g.pool(&s, t).draw(&mut feed),
            };
            g.apply(&mut s, o as Action);
        }
        if want.phase == Phase::Over {
            break;
        }
        assert_eq!(rules(&s), rules(&want), "seed {seed}");
        assert_eq!(feed, want.rng);
        let legal = seeded.legal_actions(&want);
        assert_eq!(legal, g.legal_actions(&s));
        let a = legal.nth(moves.index(legal.len())).unwrap();
        seeded.apply(&mut want, a);
        g.apply(&mut s, a);
    }
    // The explicit game skips the refill after the last turn, which changes nothing else.
    assert_eq!(s.phase, Phase::Over);
    assert_eq!(
        State {
            lineup: want.lineup,
            char_deck: want.char_deck,
            ..rules(&s)
        },
        rules(&want)
    );
    assert_eq!(g.returns(&s), seeded.returns(&want));
}

#[test]
fn an_explicit_game_fed_the_seeded_draws_is_the_seeded_game() {
    for players in 2..=MAX_PLAYERS {
        for seed in 0..20 {
            explicit_fed_the_seeded_draws(players, seed);
        }
    }
}

#[test]
fn explicit_draws_steals_and_refills_wait_at_chance_nodes() {
    let g = explicit(2);
    let mut s = g.new_state(Rng::new(4));
    while g.is_chance_node(&s) {
        let o = g.legal_actions(&s).nth(0).unwrap();
        g.apply(&mut s, o);
    }
    // Drawing two blind: two chance nodes for seat 0, named by the card and the seat.
    let before = s.hands[0];
    g.apply(&mut s, DRAW_TWO);
    assert_eq!(s.pending, Some(Pending::Draw { left: 2 }));
    assert_eq!(g.action_name(&s, 3), "draw Y for seat 0");
    g.check_state(&s).unwrap();
    g.apply(&mut s, 3);
    g.apply(&mut s, 3);
    assert_eq!(s.hands[0][3], before[3] + 2);
    assert_eq!((s.phase, g.current_player(&s)), (Phase::Main, Some(0)));
    // STEAL: after the victim is chosen, the card is drawn from her hand by its copies.
    for (seat, cards) in [(0, ["G", "P", "Y"].as_slice()), (1, &["G", "G", "O"])] {
        for k in 0..KINDS {
            s.deck[k] += s.hands[seat][k];
        }
        s.hands[seat] = hand(cards);
        for k in 0..KINDS {
            s.deck[k] -= s.hands[seat][k];
        }
    }
    let spy = g
        .cards
        .characters
        .iter()
        .position(|c| c.name == "Spy")
        .unwrap();
    s.realms[0] |= 1 << spy;
    s.char_deck &= !(1 << spy);
    for slot in s.lineup.iter_mut().filter(|c| **c == Some(spy as u8)) {
        *slot = None;
    }
    s.bought = 1;
    s.character = Some(spy as u8);
    s.phase = Phase::Steal;
    g.check_state(&s).unwrap();
    g.apply(&mut s, STEAL + 1);
    assert_eq!(g.chance_outcomes(&s), vec![(0, 2.0 / 3.0), (1, 1.0 / 3.0)]);
    assert_eq!(g.action_name(&s, 1), "steal O from seat 1");
    g.check_state(&s).unwrap();
    g.apply(&mut s, 1);
    assert_eq!((s.hands[1], s.known[1][0][1]), (hand(&["G", "G"]), 1));
    assert_eq!((s.phase, s.pending), (Phase::Main, None));
    // The end of the turn: the empty slots are refilled at chance nodes, then seat 1 moves.
    for slot in [0, 2] {
        if let Some(c) = s.lineup[slot].take() {
            s.gone |= 1 << c;
        }
    }
    g.apply(&mut s, END_TURN);
    assert_eq!(s.pending, Some(Pending::Refill));
    g.check_state(&s).unwrap();
    let c = g.legal_actions(&s).nth(0).unwrap();
    assert_eq!(
        g.action_name(&s, c),
        format!("reveal {} (slot 1)", g.char_name(c as usize))
    );
    g.apply(&mut s, c);
    let c = g.legal_actions(&s).nth(0).unwrap();
    g.apply(&mut s, c);
    assert_eq!((s.active, s.turn, g.current_player(&s)), (1, 1, Some(1)));
    assert!(s.lineup.iter().all(Option::is_some));
    g.check_state(&s).unwrap();
}

#[test]
fn a_waiting_random_event_is_refused_where_it_cannot_be() {
    let g = explicit(2);
    let mut s = g.new_state(Rng::new(4));
    // The seeded game never waits for a random event.
    assert!(game(2).check_state(&s).is_err());
    g.check_state(&s).unwrap();
    s.pending = Some(Pending::Setup { castles: 3 });
    assert!(g.check_state(&s).is_err());
    while g.is_chance_node(&s) {
        let o = g.legal_actions(&s).nth(0).unwrap();
        g.apply(&mut s, o);
    }
    for bad in [
        Pending::Steal { victim: 1 },
        Pending::Steal { victim: 9 },
        Pending::Draw { left: 0 },
        Pending::Draw { left: 3 },
        Pending::Setup { castles: 2 },
    ] {
        let mut t = s;
        t.pending = Some(bad);
        assert!(g.check_state(&t).is_err(), "{bad:?}");
    }
}

/// The payment check as it was first written (a hand's counts per colour set, and Hall's
/// condition for each colour a `2=` icon may be named): what the counted check must agree with.
mod reference {
    use super::*;

    const PAYERS: [u16; 16] = {
        let mut table = [0u16; 16];
        let mut set = 1;
        while set < 16 {
            let mut k = 0;
            while k < KINDS {
                if KIND_MASK[k] & set as u8 != 0 {
                    table[set] |= 1 << k;
                }
                k += 1;
            }
            set += 1;
        }
        table
    };

    struct Supply {
        per_set: [u32; 16],
        total: u32,
        kinds: u16,
    }

    fn supply(cnt: &[u8; KINDS]) -> Supply {
        let mut within = [0u32; 16];
        let (mut total, mut kinds) = (0, 0u16);
        for (k, &c) in cnt.iter().enumerate() {
            within[KIND_MASK[k] as usize] += c as u32;
            total += c as u32;
            kinds |= u16::from(c > 0) << k;
        }
        for bit in 0..4 {
            for m in 0..16 {
                if m >> bit & 1 == 1 {
                    within[m] += within[m ^ 1 << bit];
                }
            }
        }
        let per_set = std::array::from_fn(|set| total - within[15 ^ set]);
        Supply {
            per_set,
            total,
            kinds,
        }
    }

    fn hall(supply: &Supply, need: &[u32; 4], any: u32, wild: bool) -> bool {
        let total_need: u32 = need.iter().sum::<u32>() + any;
        if supply.total < total_need {
            return false;
        }
        if wild && total_need == 0 {
            return true;
        }
        let mut wildcards = supply.kinds;
        let mut demand = [0u32; 16];
        for set in 1..16usize {
            demand[set] = demand[set & (set - 1)] + need[set.trailing_zeros() as usize];
            if demand[set] == 0 {
                continue;
            }
            let (wanted, had) = (demand[set], supply.per_set[set]);
            if !wild {
                if wanted > had {
                    return false;
                }
                continue;
            }
            if wanted > had + 1 {
                return false;
            }
            if wanted == had + 1 {
                wildcards &= !PAYERS[set];
            }
            if wildcards == 0 {
                return false;
            }
        }
        true
    }

    pub fn feasible(
        cnt: &[u8; KINDS],
        slots: &[u8],
        start: usize,
        pair_colour: Option<u8>,
        wild: bool,
    ) -> bool {
        let supply = supply(cnt);
        let mut need = [0u32; 4];
        let (mut pairs, mut any) = (0u32, 0u32);
        let mut i = start;
        while i < slots.len() {
            match slots[i] {
                c @ 0..=3 => need[c as usize] += 1,
                PAIR_FIRST => {
                    pairs += 1;
                    i += 1;
                }
                PAIR_SECOND => match pair_colour {
                    Some(c) if c < 4 => need[c as usize] += 1,
                    _ => return false,
                },
                _ => any += 1,
            }
            i += 1;
        }
        if supply.total < need.iter().sum::<u32>() + any + 2 * pairs {
            return false;
        }
        (0..4u32.pow(pairs)).any(|mut combo| {
            let mut n = need;
            for _ in 0..pairs {
                n[(combo % 4) as usize] += 2;
                combo /= 4;
            }
            hall(&supply, &n, any, wild)
        })
    }

    /// Whether paying the current slot with a card of kind `k` as colour `c` is legal.
    pub fn pay_ok(g: &Regnum, s: &State, k: usize, c: u8) -> bool {
        let hand = s.hands[s.active as usize];
        let slots = g.slots(s.character);
        let Some(&slot) = slots.get(s.pay_step as usize) else {
            return false;
        };
        let natural = KIND_MASK[k] >> c & 1 == 1;
        if hand[k] == 0 {
            return false;
        }
        if slot == ANY {
            if c != lowest_colour(k) {
                return false;
            }
        } else if slot != PAIR_FIRST {
            let want = if slot == PAIR_SECOND {
                s.pair_colour
            } else {
                Some(slot)
            };
            if Some(c) != want {
                return false;
            }
        }
        let wild = g.wild(s);
        if !natural && !wild {
            return false;
        }
        let mut rest = hand;
        rest[k] -= 1;
        let pair = (slot == PAIR_FIRST).then_some(c);
        feasible(&rest, slots, s.pay_step as usize + 1, pair, wild && natural)
    }
}

/// A random hand: mostly small, now and then large (past what a cost could need of a kind).
fn random_hand(rng: &mut Rng) -> [u8; KINDS] {
    let most = [2, 3, 6, 20][rng.index(4)];
    std::array::from_fn(|_| rng.below(most + 1) as u8)
}

/// A random cost of one to four icons, at most two of them `2=`.
fn random_cost(rng: &mut Rng) -> Vec<u8> {
    let icons = [
        "1", "2=", "2G", "2O", "2P", "2Y", "G", "O", "P", "Y", "G+O", "O+P+Y", "G+P",
    ];
    let mut cost: Vec<&str> = Vec::new();
    for _ in 0..=rng.index(4) {
        let icon = icons[rng.index(icons.len())];
        if icon != "2=" || cost.iter().filter(|&&i| i == "2=").count() < 2 {
            cost.push(icon);
        }
    }
    slots(&cost)
}

#[test]
fn the_counted_payment_check_agrees_with_the_first_one() {
    let mut rng = Rng::new(11);
    for _ in 0..40_000 {
        let hand = random_hand(&mut rng);
        let cost = random_cost(&mut rng);
        let start = rng.index(cost.len() + 1);
        let pair = [None, Some(0), Some(1), Some(2), Some(3), Some(5)][rng.index(6)];
        let wild = rng.below(2) == 0;
        assert_eq!(
            feasible(&hand, &cost, start, pair, wild),
            reference::feasible(&hand, &cost, start, pair, wild),
            "hand {hand:?}, cost {cost:?} from {start}, pair {pair:?}, wild {wild}"
        );
    }
}

#[test]
fn the_legal_payments_agree_with_the_first_check() {
    // Every payment step of random purchases, Goldmint's wildcard used or not, against the
    // first check of each card and colour.
    let g = game(2);
    let mut rng = Rng::new(12);
    let mut steps = 0;
    for i in 0..3000 {
        let mut s = g.new_state(Rng::new(i));
        s.phase = Phase::Main;
        s.hands[0] = random_hand(&mut rng);
        s.wild_used = rng.below(2) == 0;
        if rng.below(2) == 0 {
            if let Some(gold) = (0..g.cards.castles.len())
                .find(|&c| g.cards.castles[c].advantage == Some(Advantage::Goldmint))
            {
                s.castles[0] = gold as u8;
            }
        }
        let Some(buy) = g.legal_actions(&s).iter().find(|&a| a < PAY) else {
            continue;
        };
        g.apply(&mut s, buy);
        while s.phase == Phase::Pay {
            let legal = g.legal_actions(&s);
            let mut want = ActionSet::new();
            for k in 0..KINDS {
                for c in 0..4u8 {
                    if reference::pay_ok(&g, &s, k, c) {
                        want.insert(PAY + (k * 4) as Action + c as Action);
                    }
                }
            }
            assert_eq!(legal, want, "game {i}, state {s:?}");
            g.apply(&mut s, legal.nth(rng.index(legal.len())).unwrap());
            steps += 1;
        }
    }
    assert!(steps > 1000, "only {steps} payment steps");
}

#[test]
fn kind_at_walks_the_cards_in_kind_order() {
    let mut rng = Rng::new(13);
    for _ in 0..2000 {
        let cards = random_hand(&mut rng);
        let mut walked = Vec::new();
        for (k, &c) in cards.iter().enumerate() {
            walked.extend(std::iter::repeat_n(k, c as usize));
        }
        for r in 0..walked.len() + 3 {
            assert_eq!(
                kind_at(&cards, r),
                walked.get(r).copied().unwrap_or(KINDS - 1)
            );
        }
        assert_eq!(
            held(&cards),
            (0..KINDS)
                .filter(|&k| cards[k] > 0)
                .fold(0, |m, k| m | 1 << k)
        );
    }
}
