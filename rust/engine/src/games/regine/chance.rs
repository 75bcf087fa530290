//! Explicit chance (`chance = "explicit"`): which random event a state waits on, the odds of
//! its outcomes, and the outcome drawn applied.

use super::*;

impl Regine {
    /// Whether random events are chance nodes (`chance = "explicit"`).
    pub(super) fn explicit(&self) -> bool {
        self.config.chance == ChanceMode::Explicit
    }

    /// The first seat from the Dealer's left short of its 4 cards (explicit chance: owed a
    /// card of the deck).
    pub(super) fn short_seat(&self, s: &State) -> Option<u8> {
        (1..=self.n())
            .map(|k| (s.dealer + k) % self.n())
            .find(|&k| hand_size(&s.hands[k as usize]) + s.table_len[k as usize] < COMBO as u8)
    }

    /// The chance node `s` is, if it is one: the Knight's victim's loss, a card a short seat
    /// draws, or the unseen top card a Herald's owner is about to look at.
    pub fn chance_event(&self, s: &State) -> Option<ChanceEvent> {
        if !self.explicit() || s.phase != Phase::Build {
            return None;
        }
        if s.effect == Effect::KnightDiscard {
            return Some(ChanceEvent::KnightLoss(s.effect_seat));
        }
        if let Some(seat) = self.short_seat(s) {
            return Some(ChanceEvent::Draw(seat));
        }
        let top = (s.deck_len as usize).checked_sub(1).map(|i| s.deck[i]);
        (s.effect == Effect::HeraldChoice && top == Some(UNSEEN)).then_some(ChanceEvent::HeraldTop)
    }

    /// How many cards of each kind the outcomes of `event` are drawn from: the victim's hand,
    /// or the unseen cards (those of the 40 in no hand, on no table, in no discard pile and
    /// not known in the deck).
    pub(super) fn outcome_counts(&self, s: &State, event: ChanceEvent) -> [u8; KINDS] {
        if let ChanceEvent::KnightLoss(seat) = event {
            return s.hands[seat as usize];
        }
        let mut left = self.config.deck;
        let mut take = |kind: u8| {
            if let Some(c) = left.get_mut(kind as usize) {
                *c = c.saturating_sub(1);
            }
        };
        for &c in &s.deck[..s.deck_len as usize] {
            take(c);
        }
        for k in 0..MAX_PLAYERS {
            for &c in &s.table[k][..s.table_len[k] as usize] {
                take(c);
            }
            for kind in 0..KINDS {
                for _ in 0..s.hands[k][kind] {
                    take(kind as u8);
                }
            }
        }
        for kind in 0..KINDS {
            for _ in 0..s.discard[kind] {
                take(kind as u8);
            }
        }
        left
    }

    /// A chance outcome: the card `kind` where `event` puts it, then what follows.
    pub(super) fn apply_chance(&self, s: &mut State, event: ChanceEvent, kind: u8) {
        match event {
            ChanceEvent::Draw(seat) => {
                s.deck_len -= 1;
                s.deck[s.deck_len as usize] = 0;
                s.hands[seat as usize][kind as usize] += 1;
            }
            ChanceEvent::HeraldTop => s.deck[s.deck_len as usize - 1] = kind,
            ChanceEvent::KnightLoss(seat) => {
                self.clear_effect(s);
                self.discard_and_draw(s, seat, kind);
            }
        }
        self.settle(s);
    }

    /// Explicit chance: the cards owed that are no chance (a known card on top of the deck, a
    /// deck rebuilt from the discard pile) are drawn at once.
    pub(super) fn complete_draws(&self, s: &mut State) {
        while let Some(seat) = self.short_seat(s) {
            self.refill(s);
            let Some(top) = (s.deck_len as usize).checked_sub(1) else {
                return;
            };
            if s.deck[top] == UNSEEN {
                return;
            }
            s.hands[seat as usize][s.deck[top] as usize] += 1;
            s.deck[top] = 0;
            s.deck_len -= 1;
        }
    }
}
