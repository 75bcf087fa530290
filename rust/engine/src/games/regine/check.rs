//! The invariants of a state read from JSON ([`Game::check_state`]).

use super::*;

/// Every invariant of a state read from JSON.
pub(super) fn check(g: &Regine, s: &State) -> std::result::Result<(), String> {
    let n = g.config.players;
    let ok = |cond: bool, msg: &str| if cond { Ok(()) } else { Err(msg.to_string()) };
    ok(s.rng.is_valid(), "generator increment must be odd")?;
    ok(
        (s.dealer as usize) < n && (s.turn as usize) < n && (s.effect_seat as usize) < n,
        "dealer, turn and effect seat must be seats",
    )?;
    // Every card is somewhere, exactly once.
    let len = s.deck_len as usize;
    ok(len <= DECK, "the deck holds at most 40 cards")?;
    ok(
        s.deck[..len]
            .iter()
            .all(|&c| (c as usize) < KINDS || (c == UNSEEN && g.explicit()))
            && s.deck[len..].iter().all(|&c| c == 0),
        "deck entries must be card kinds (or unseen, with explicit chance), zeros past its length",
    )?;
    for k in 0..MAX_PLAYERS {
        let tl = s.table_len[k] as usize;
        ok(tl <= COMBO, "a table holds at most 4 cards")?;
        ok(
            s.table[k][..tl].iter().all(|&c| (c as usize) < KINDS)
                && s.table[k][tl..].iter().all(|&c| c == 0)
                && s.face_up[k] >> tl == 0,
            "table entries must be card kinds, zeros (and face-down) past its length",
        )?;
        let here = s.hands[k].iter().map(|&c| c as usize).sum::<usize>() + tl;
        let want = if k < n { COMBO } else { 0 };
        ok(
            here == want || (g.explicit() && k < n && here < COMBO),
            "each seat must hold exactly 4 cards in hand and on the table (none for absent seats)",
        )?;
    }
    check_owed(g, s)?;
    let mut total = [0u32; KINDS];
    let mut unseen = 0;
    for &c in &s.deck[..len] {
        match total.get_mut(c as usize) {
            Some(t) => *t += 1,
            None => unseen += 1,
        }
    }
    for kind in 0..KINDS {
        total[kind] += s.discard[kind] as u32;
        for k in 0..MAX_PLAYERS {
            total[kind] += s.hands[k][kind] as u32;
        }
    }
    for k in 0..MAX_PLAYERS {
        for &c in &s.table[k][..s.table_len[k] as usize] {
            total[c as usize] += 1;
        }
    }
    ok(
        total.iter().zip(g.config.deck).all(|(&t, c)| t <= c as u32)
            && total.iter().sum::<u32>() + unseen == g.cards() as u32,
        "the cards do not add up to the game's deck",
    )?;
    // Scores, rounds and the end.
    let top = s.scores.iter().copied().max().unwrap_or(0);
    ok(
        s.scores[n..].iter().all(|&x| x == 0)
            && (top as u32) < g.config.target as u32 + MAX_ROUND_GAIN
            && s.round <= g.config.max_rounds,
        "scores or rounds out of range",
    )?;
    let ended = top >= g.config.target || s.round >= g.config.max_rounds;
    ok(
        (s.phase == Phase::Over) == ended
            || (s.phase == Phase::Wager && s.round < g.config.max_rounds),
        "the phase does not agree with the scores and rounds",
    )?;
    if s.phase == Phase::Build {
        ok(
            top < g.config.target,
            "a round cannot start with a score at the target",
        )?;
    }
    for suit in 0..SUITS {
        ok(
            s.bets[suit] >> n == 0
                && s.doubled[suit].is_none_or(|d| (d as usize) < n && s.bets[suit] >> d & 1 != 0)
                && s.won[suit].is_none_or(|w| (w as usize) < n)
                && s.gain[suit] as u32 <= 2 + 8,
            "bets, Double Downs and Suit results must name seats",
        )?;
    }
    ok(
        s.last_cards.iter().flatten().all(|&c| (c as usize) < KINDS)
            && s.last_cards[n..].iter().flatten().all(|&c| c == 0)
            && (s.round > 0 || s.last_cards.iter().flatten().all(|&c| c == 0)),
        "last round's combinations must be card kinds",
    )?;
    ok(
        s.passes < g.n() && s.suit_turns <= g.n(),
        "passes and turns must be below the number of seats",
    )?;
    if s.phase == Phase::Build {
        check_build(g, s)
    } else {
        check_wager(g, s)
    }
}

/// Explicit chance: the seats short of cards (each owed cards of the deck) and the deck's
/// unseen cards, as play leaves them.
fn check_owed(g: &Regine, s: &State) -> std::result::Result<(), String> {
    let ok = |cond: bool, msg: &str| if cond { Ok(()) } else { Err(msg.to_string()) };
    let deck = &s.deck[..s.deck_len as usize];
    let herald_top = s.effect == Effect::HeraldChoice && deck.last().is_some_and(|&c| c != UNSEEN);
    let below = &deck[..deck.len() - usize::from(herald_top)];
    ok(
        below
            .iter()
            .skip_while(|&&c| c != UNSEEN)
            .all(|&c| c == UNSEEN),
        "the cards a Herald put back lie under the unseen cards",
    )?;
    let held: Vec<u8> = (1..=g.n())
        .map(|k| (s.dealer + k) % g.n())
        .map(|k| hand_size(&s.hands[k as usize]) + s.table_len[k as usize])
        .collect();
    let short = held.iter().filter(|&&c| c < COMBO as u8).count();
    if short == 0 {
        return Ok(());
    }
    ok(
        s.phase == Phase::Build
            && s.effect == Effect::Nothing
            && hand_size(&s.marked) == 0
            && deck.last() == Some(&UNSEEN),
        "a seat is owed a card only in Phase 1, with no effect pending, from an unseen deck",
    )?;
    let dealing = held.windows(2).all(|w| w[0] == COMBO as u8 || w[1] == 0);
    ok(
        short == 1
            || (dealing
                && s.table_len == [0; MAX_PLAYERS]
                && s.turn == s.dealer
                && !(s.no_changes || s.changed || s.exchanged || s.played)
                && s.passes == 0
                && s.discard == [0; KINDS]),
        "only the deal leaves several seats short of cards, in the order it deals",
    )
}

fn check_build(g: &Regine, s: &State) -> std::result::Result<(), String> {
    let ok = |cond: bool, msg: &str| if cond { Ok(()) } else { Err(msg.to_string()) };
    ok(
        s.bets == [0; SUITS] && s.doubled == [None; SUITS] && s.suit == 0 && s.suit_turns == 0,
        "no bets during Phase 1",
    )?;
    ok(
        !s.exchanged || s.changed,
        "an exchange uses the turn's change",
    )?;
    ok(
        g.config.build_phase || g.short_seat(s).is_some(),
        "without Phase 1 the hands go face down as dealt",
    )?;
    let p = s.turn as usize;
    let marking = hand_size(&s.marked) > 0;
    ok(
        !marking
            || (s.effect == Effect::Nothing
                && !s.changed
                && !s.no_changes
                && (0..KINDS).all(|k| s.marked[k] <= s.hands[p][k])),
        "marked cards must be in the hand of a player free to exchange",
    )?;
    let d = s.effect_seat;
    let du = d as usize;
    let valid = match s.effect {
        Effect::Nothing => d == 0 && s.effect_slot == 0,
        Effect::PeasantName | Effect::KnightName => {
            g.has_opponent_with_cards(s, d) && s.effect_slot == 0
        }
        Effect::PeasantShow | Effect::PrincessDiscard => {
            hand_size(&s.hands[du]) > 0 && s.effect_slot == 0
        }
        Effect::AssassinTarget => s.table_len.iter().any(|&l| l > 0) && s.effect_slot == 0,
        Effect::CourtesanTarget => g.any_face_down(s) && s.effect_slot == 0,
        Effect::KnightDiscard => g.explicit() && hand_size(&s.hands[du]) > 0 && s.effect_slot == 0,
        Effect::HeraldChoice => {
            let j = s.effect_slot as usize;
            s.deck_len > 0
                && j < s.table_len[du] as usize
                && s.face_up[du] & (1 << j) != 0
                && s.table[du][j] == HERALD
        }
    };
    ok(valid, "the pending effect is not possible here")?;
    ok(
        s.effect != Effect::Nothing || marking || g.can_act(s) || g.short_seat(s).is_some(),
        "the turn's player must have something to do",
    )
}

fn check_wager(g: &Regine, s: &State) -> std::result::Result<(), String> {
    let ok = |cond: bool, msg: &str| if cond { Ok(()) } else { Err(msg.to_string()) };
    ok(
        s.hands.iter().all(|h| hand_size(h) == 0)
            && s.marked == [0; KINDS]
            && s.effect == Effect::Nothing
            && s.effect_seat == 0
            && s.effect_slot == 0
            && !s.no_changes
            && !s.changed
            && !s.exchanged
            && !s.played,
        "after Phase 1 all cards are on the table and no turn is open",
    )?;
    let suit = s.suit as usize;
    ok(
        suit < g.config.suits,
        "the Suit must be one of the Suits played",
    )?;
    if s.phase == Phase::Over {
        return ok(
            s.turn == 0 && s.suit == 0 && s.passes == 0 && s.suit_turns == 0,
            "a finished game has no turn",
        );
    }
    for later in suit + 1..SUITS {
        ok(
            s.bets[later] == 0
                && s.doubled[later].is_none()
                && s.won[later].is_none()
                && s.gain[later] == 0,
            "Suits not yet bet on carry no bets",
        )?;
    }
    for earlier in 0..suit {
        ok(
            s.won[earlier].is_none() == (s.bets[earlier].count_ones() != 1)
                && s.won[earlier].is_none_or(|w| s.bets[earlier] == 1 << w)
                && s.gain[earlier] == s.won[earlier].map_or(0, |_| 1 + SUIT_MAX[earlier]),
            "a Suit closed with one chip is won by that chip",
        )?;
    }
    ok(
        s.won[suit].is_none() && s.gain[suit] == 0,
        "the current Suit is not won yet",
    )?;
    if let Some(doubler) = s.doubled[suit] {
        ok(
            s.turn != doubler && s.bets[suit] & (1 << s.turn) != 0 && s.suit_turns == g.n(),
            "after a Double Down only another bettor replies",
        )?;
    }
    Ok(())
}
