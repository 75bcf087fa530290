//! Regine's rules in play: the deal, the legal moves of the building phase and the
//! moves of both phases applied.

use super::*;

// ---- Setup ----
impl Regine {
    pub(super) fn n(&self) -> u8 {
        self.config.players as u8
    }

    pub(super) fn left(&self, seat: u8) -> u8 {
        (seat + 1) % self.n()
    }

    pub(super) fn right(&self, seat: u8) -> u8 {
        (seat + self.n() - 1) % self.n()
    }

    pub(super) fn seat_mask(&self) -> u8 {
        ((1u16 << self.config.players) - 1) as u8
    }

    /// Shuffles all 40 cards, deals 4 to each seat from the Dealer's left, opens Phase 1
    /// (explicit chance: the deck is all unseen, and the cards are dealt at chance nodes).
    pub(super) fn deal(&self, s: &mut State) {
        s.deck = [0; DECK];
        if self.explicit() {
            s.deck[..self.cards()].fill(UNSEEN);
        } else {
            let mut i = 0;
            for (kind, &copies) in self.config.deck.iter().enumerate() {
                for _ in 0..copies {
                    s.deck[i] = kind as u8;
                    i += 1;
                }
            }
            s.rng.shuffle(&mut s.deck[..i]);
        }
        s.deck_len = self.cards() as u8;
        s.discard = [0; KINDS];
        s.hands = [[0; KINDS]; MAX_PLAYERS];
        s.table = [[0; COMBO]; MAX_PLAYERS];
        s.table_len = [0; MAX_PLAYERS];
        s.face_up = [0; MAX_PLAYERS];
        s.marked = [0; KINDS];
        for k in 1..=self.n() {
            let seat = (s.dealer + k) % self.n();
            for _ in 0..COMBO {
                self.draw(s, seat);
            }
        }
        self.start_phase(s, Phase::Build);
        s.effect = Effect::Nothing;
        s.effect_seat = 0;
        s.effect_slot = 0;
        s.bets = [0; SUITS];
        s.doubled = [None; SUITS];
        if !self.config.build_phase && self.short_seat(s).is_none() {
            self.start_wagers(s);
        }
    }

    /// Cards in the game (40 unless the option `deck` says otherwise).
    pub(super) fn cards(&self) -> usize {
        self.config.deck.iter().map(|&c| c as usize).sum()
    }

    /// An empty deck is rebuilt from the discard pile, shuffled (explicit chance: unseen).
    pub(super) fn refill(&self, s: &mut State) {
        if s.deck_len > 0 {
            return;
        }
        if self.explicit() {
            let len = hand_size(&s.discard) as usize;
            s.deck[..len].fill(UNSEEN);
            s.discard = [0; KINDS];
            s.deck_len = len as u8;
            return;
        }
        let mut len = 0;
        for kind in 0..KINDS {
            for _ in 0..s.discard[kind] {
                s.deck[len] = kind as u8;
                len += 1;
            }
        }
        s.discard = [0; KINDS];
        s.deck_len = len as u8;
        s.rng.shuffle(&mut s.deck[..len]);
    }

    /// `seat` draws the top card (nothing if even the discard pile is empty; explicit
    /// chance: nothing yet, the seat is short of a card until [`Regine::complete_draws`]).
    pub(super) fn draw(&self, s: &mut State, seat: u8) {
        if self.explicit() {
            return;
        }
        self.refill(s);
        if s.deck_len > 0 {
            s.deck_len -= 1;
            let card = s.deck[s.deck_len as usize];
            s.deck[s.deck_len as usize] = 0;
            s.hands[seat as usize][card as usize] += 1;
        }
    }
}

// ---- Legal moves ----
impl Regine {
    pub(super) fn legal_build(&self, s: &State, out: &mut ActionSet) {
        let d = s.effect_seat as usize;
        let add_cards = |out: &mut ActionSet, base: Action, seat: usize| {
            for kind in 0..KINDS {
                if s.hands[seat][kind] > 0 {
                    out.insert(base + kind as Action);
                }
            }
        };
        let add_opponents = |out: &mut ActionSet, base: Action| {
            for k in 0..self.config.players {
                if k != d && hand_size(&s.hands[k]) > 0 {
                    out.insert(base + k as Action);
                }
            }
        };
        match s.effect {
            Effect::PeasantName => add_opponents(out, PEASANT_SEAT),
            Effect::PeasantShow => add_cards(out, PEASANT_CARD, d),
            Effect::AssassinTarget | Effect::CourtesanTarget => {
                let base = if s.effect == Effect::AssassinTarget {
                    ASSASSIN_AT
                } else {
                    COURTESAN_AT
                };
                for k in 0..self.config.players {
                    for j in 0..s.table_len[k] as usize {
                        if s.effect == Effect::AssassinTarget || s.face_up[k] & (1 << j) == 0 {
                            out.insert(base + (4 * k + j) as Action);
                        }
                    }
                }
            }
            Effect::HeraldChoice => {
                out.insert(HERALD_TAKE);
                out.insert(HERALD_DECLINE);
            }
            Effect::KnightName => add_opponents(out, KNIGHT_SEAT),
            Effect::PrincessDiscard => add_cards(out, PRINCESS_CARD, d),
            _ => {
                let p = s.turn as usize;
                let hand = &s.hands[p];
                if hand_size(&s.marked) > 0 {
                    let low = (0..KINDS).rev().find(|&k| s.marked[k] > 0).unwrap_or(0);
                    for kind in low..KINDS {
                        if s.marked[kind] < hand[kind] {
                            out.insert(MARK + kind as Action);
                        }
                    }
                    out.insert(CONFIRM_EXCHANGE);
                    return;
                }
                if !s.played {
                    add_cards(out, PLAY_UP, p);
                    add_cards(out, PLAY_DOWN, p);
                }
                if !s.changed && !s.no_changes {
                    add_cards(out, MARK, p);
                    out.insert(NO_CHANGES);
                }
                out.insert(END_TURN);
            }
        }
    }
}

// ---- Apply ----
impl Regine {
    /// Puts `card` from `seat`'s hand on her table; returns its slot.
    pub(super) fn put_on_table(&self, s: &mut State, seat: u8, card: u8, up: bool) -> u8 {
        let p = seat as usize;
        s.hands[p][card as usize] -= 1;
        let slot = s.table_len[p];
        s.table[p][slot as usize] = card;
        s.table_len[p] += 1;
        if up {
            s.face_up[p] |= 1 << slot;
        }
        slot
    }

    pub(super) fn has_opponent_with_cards(&self, s: &State, seat: u8) -> bool {
        (0..self.n()).any(|k| k != seat && hand_size(&s.hands[k as usize]) > 0)
    }

    pub(super) fn any_face_down(&self, s: &State) -> bool {
        (0..self.config.players).any(|k| count_face_down(s, k) > 0)
    }

    pub(super) fn set_effect(&self, s: &mut State, effect: Effect, seat: u8, slot: u8) {
        s.effect = effect;
        s.effect_seat = seat;
        s.effect_slot = slot;
    }

    pub(super) fn clear_effect(&self, s: &mut State) {
        self.set_effect(s, Effect::Nothing, 0, 0);
    }

    /// Applies the effect of the face-up card in `seat`'s `slot`, decided by `seat`.
    pub(super) fn trigger(&self, s: &mut State, seat: u8, slot: u8) {
        match s.table[seat as usize][slot as usize] {
            JESTER => s.no_changes = false,
            PEASANT if self.has_opponent_with_cards(s, seat) => {
                self.set_effect(s, Effect::PeasantName, seat, 0)
            }
            ASSASSIN => self.set_effect(s, Effect::AssassinTarget, seat, 0),
            COURTESAN if self.any_face_down(s) => {
                self.set_effect(s, Effect::CourtesanTarget, seat, 0)
            }
            HERALD => {
                self.refill(s);
                if s.deck_len > 0 {
                    self.set_effect(s, Effect::HeraldChoice, seat, slot);
                }
            }
            KNIGHT if self.has_opponent_with_cards(s, seat) => {
                self.set_effect(s, Effect::KnightName, seat, 0)
            }
            PRINCESS if hand_size(&s.hands[seat as usize]) > 0 => {
                self.set_effect(s, Effect::PrincessDiscard, seat, 0)
            }
            _ => {}
        }
    }

    /// Whether the turn's player can still exchange, declare or play.
    pub(super) fn can_act(&self, s: &State) -> bool {
        let change = !s.changed && !s.no_changes;
        let play = !s.played && hand_size(&s.hands[s.turn as usize]) > 0;
        change || play
    }

    /// After a Phase 1 step: the turn ends by itself when nothing is left to do (explicit
    /// chance: once every card owed is drawn).
    pub(super) fn settle(&self, s: &mut State) {
        if self.explicit() {
            self.complete_draws(s);
            if self.is_chance_node(s) {
                return;
            }
            if s.phase == Phase::Build && !self.config.build_phase {
                return self.start_wagers(s);
            }
        }
        if s.phase == Phase::Build
            && s.effect == Effect::Nothing
            && hand_size(&s.marked) == 0
            && !self.can_act(s)
        {
            self.end_turn(s);
        }
    }

    /// Ends the turn; a player who can do nothing passes at once; all passing ends Phase 1.
    pub(super) fn end_turn(&self, s: &mut State) {
        loop {
            if s.exchanged || s.played {
                s.passes = 0;
            } else {
                s.passes += 1;
            }
            if s.passes >= self.n() {
                self.start_wagers(s);
                return;
            }
            s.turn = self.left(s.turn);
            s.changed = false;
            s.exchanged = false;
            s.played = false;
            if self.can_act(s) {
                return;
            }
        }
    }

    /// Hands go face down on the table; betting opens on the first Suit with the Dealer.
    pub(super) fn start_wagers(&self, s: &mut State) {
        for seat in 0..self.n() {
            for kind in 0..KINDS as u8 {
                while s.hands[seat as usize][kind as usize] > 0 {
                    self.put_on_table(s, seat, kind, false);
                }
            }
        }
        self.start_phase(s, Phase::Wager);
        s.won = [None; SUITS];
        s.gain = [0; SUITS];
    }

    /// Starts `phase` from the Dealer: nothing exchanged, played or passed yet, the first
    /// Suit next.
    fn start_phase(&self, s: &mut State, phase: Phase) {
        s.phase = phase;
        s.turn = s.dealer;
        s.no_changes = false;
        s.changed = false;
        s.exchanged = false;
        s.played = false;
        s.passes = 0;
        s.suit = 0;
        s.suit_turns = 0;
    }

    pub(super) fn apply_build(&self, s: &mut State, a: Action) {
        let turn = s.turn;
        let decider = s.effect_seat;
        let card = |base: Action| (a - base) as u8;
        match a {
            PLAY_UP..PLAY_DOWN => {
                let slot = self.put_on_table(s, turn, card(PLAY_UP), true);
                s.played = true;
                self.trigger(s, turn, slot);
            }
            PLAY_DOWN..MARK => {
                self.put_on_table(s, turn, card(PLAY_DOWN), false);
                s.played = true;
            }
            MARK..CONFIRM_EXCHANGE => s.marked[card(MARK) as usize] += 1,
            CONFIRM_EXCHANGE => self.exchange(s),
            NO_CHANGES => {
                s.no_changes = true;
                s.changed = true;
            }
            END_TURN => self.end_turn(s),
            PEASANT_SEAT..PEASANT_CARD => {
                self.set_effect(s, Effect::PeasantShow, card(PEASANT_SEAT), 0);
            }
            PEASANT_CARD..ASSASSIN_AT => {
                self.clear_effect(s);
                let slot = self.put_on_table(s, decider, card(PEASANT_CARD), true);
                self.trigger(s, decider, slot);
            }
            ASSASSIN_AT..COURTESAN_AT => {
                self.clear_effect(s);
                let (seat, slot) = (card(ASSASSIN_AT) / 4, card(ASSASSIN_AT) % 4);
                self.eliminate(s, seat, slot);
            }
            COURTESAN_AT..HERALD_TAKE => {
                self.clear_effect(s);
                let (seat, slot) = (card(COURTESAN_AT) / 4, card(COURTESAN_AT) % 4);
                s.face_up[seat as usize] |= 1 << slot;
                self.trigger(s, seat, slot);
            }
            HERALD_TAKE => {
                let slot = s.effect_slot;
                self.clear_effect(s);
                s.discard[HERALD as usize] += 1;
                s.deck_len -= 1;
                let top = s.deck[s.deck_len as usize];
                s.deck[s.deck_len as usize] = 0;
                s.table[decider as usize][slot as usize] = top;
                self.trigger(s, decider, slot);
            }
            HERALD_DECLINE => {
                self.clear_effect(s);
                s.deck[..s.deck_len as usize].rotate_right(1);
            }
            KNIGHT_SEAT..PRINCESS_CARD if self.explicit() => {
                self.set_effect(s, Effect::KnightDiscard, card(KNIGHT_SEAT), 0);
            }
            KNIGHT_SEAT..PRINCESS_CARD => {
                self.clear_effect(s);
                let victim = card(KNIGHT_SEAT);
                let hand = s.hands[victim as usize];
                let mut pick = s.rng.below(hand_size(&hand) as u32) as u8;
                let mut lost = 0;
                for (kind, &count) in hand.iter().enumerate() {
                    if pick < count {
                        lost = kind;
                        break;
                    }
                    pick -= count;
                }
                self.discard_and_draw(s, victim, lost as u8);
            }
            _ => {
                self.clear_effect(s);
                self.discard_and_draw(s, decider, card(PRINCESS_CARD));
            }
        }
        self.settle(s);
    }

    pub(super) fn exchange(&self, s: &mut State) {
        let p = s.turn as usize;
        let count = hand_size(&s.marked);
        for kind in 0..KINDS {
            s.hands[p][kind] -= s.marked[kind];
            s.discard[kind] += s.marked[kind];
        }
        s.marked = [0; KINDS];
        for _ in 0..count {
            self.draw(s, s.turn);
        }
        s.changed = true;
        s.exchanged = true;
    }

    pub(super) fn discard_and_draw(&self, s: &mut State, seat: u8, card: u8) {
        s.hands[seat as usize][card as usize] -= 1;
        s.discard[card as usize] += 1;
        self.draw(s, seat);
    }

    /// The Assassin: the card leaves the table for the discard pile; its owner draws.
    pub(super) fn eliminate(&self, s: &mut State, seat: u8, slot: u8) {
        let p = seat as usize;
        let (j, len) = (slot as usize, s.table_len[p] as usize);
        s.discard[s.table[p][j] as usize] += 1;
        s.table[p].copy_within(j + 1..len, j);
        s.table[p][len - 1] = 0;
        let below = s.face_up[p] & ((1 << slot) - 1);
        s.face_up[p] = below | ((s.face_up[p] >> (slot + 1)) << slot);
        s.table_len[p] -= 1;
        self.draw(s, seat);
    }

    pub(super) fn apply_wager(&self, s: &mut State, a: Action) {
        let p = s.turn;
        let suit = s.suit as usize;
        match a {
            BET_PASS | BET_MINE => {
                if a == BET_MINE {
                    s.bets[suit] |= 1 << p;
                    s.passes = 0;
                } else {
                    s.passes += 1;
                }
                s.suit_turns = (s.suit_turns + 1).min(self.n());
                if s.passes >= self.n() {
                    self.close_suit(s);
                } else {
                    s.turn = self.right(p);
                }
            }
            DOUBLE_DOWN => {
                s.doubled[suit] = Some(p);
                self.next_reply(s, p);
            }
            ALL_YOURS => {
                s.bets[suit] &= !(1 << p);
                self.next_reply(s, p);
            }
            _ => self.next_reply(s, p),
        }
    }

    /// After a Double Down, each other bettor replies once, to the right from the doubler.
    pub(super) fn next_reply(&self, s: &mut State, from: u8) {
        let doubler = s.doubled[s.suit as usize].unwrap_or(from);
        let mut k = self.right(from);
        while k != doubler {
            if s.bets[s.suit as usize] & (1 << k) != 0 {
                s.turn = k;
                return;
            }
            k = self.right(k);
        }
        self.close_suit(s);
    }

    /// A Suit with a single chip is won at once (chip plus the Suit's most); next Suit.
    pub(super) fn close_suit(&self, s: &mut State) {
        let suit = s.suit as usize;
        if s.bets[suit].count_ones() == 1 {
            let w = s.bets[suit].trailing_zeros() as u8;
            s.won[suit] = Some(w);
            s.gain[suit] = 1 + SUIT_MAX[suit];
            s.scores[w as usize] += s.gain[suit] as u16;
        }
        s.passes = 0;
        s.suit_turns = 0;
        s.turn = s.dealer;
        if suit + 1 < self.config.suits {
            s.suit += 1;
        } else {
            self.resolve(s);
        }
    }
}

/// Cards face down in front of `seat`.
pub(super) fn count_face_down(s: &State, seat: usize) -> u32 {
    let all = (1u8 << s.table_len[seat]) - 1;
    (all & !s.face_up[seat]).count_ones()
}
