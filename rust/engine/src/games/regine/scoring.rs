//! The end of a round: each Suit's winner and points, and the game's winner.

use super::*;

impl Regine {
    /// The winner of `suit` among the seats in `mask`, with the Suit's points.
    pub fn suit_winner(&self, s: &State, suit: usize, mask: u8) -> Option<(u8, u8)> {
        let mut best: Option<(u8, [u8; 7])> = None;
        for k in 0..self.n() {
            let seat = (s.dealer + k) % self.n();
            if mask & (1 << seat) == 0 {
                continue;
            }
            if let Some(key) = suit_key(suit, &s.table[seat as usize]) {
                if best.is_none_or(|(_, b)| key > b) {
                    best = Some((seat, key));
                }
            }
        }
        best.map(|(seat, key)| (seat, suit_points(suit, &key)))
    }

    /// Phase 3: every Suit not won yet goes to the best combination among its bettors
    /// (everybody when nobody bet); then the round ends.
    pub(super) fn resolve(&self, s: &mut State) {
        for suit in 0..self.config.suits {
            if s.won[suit].is_some() {
                continue;
            }
            let mask = if s.bets[suit] != 0 {
                s.bets[suit]
            } else {
                self.seat_mask()
            };
            if let Some((w, points)) = self.suit_winner(s, suit, mask) {
                let chips = s.bets[suit].count_ones() as u8;
                let mult = if s.doubled[suit].is_some() { 2 } else { 1 };
                s.won[suit] = Some(w);
                s.gain[suit] = points + chips * mult;
                s.scores[w as usize] += s.gain[suit] as u16;
            }
        }
        for seat in 0..self.config.players {
            let mut combo = s.table[seat];
            combo.sort_unstable();
            s.last_cards[seat] = combo;
        }
        s.round += 1;
        let top = s.scores.iter().copied().max().unwrap_or(0);
        if top >= self.config.target || s.round >= self.config.max_rounds {
            s.phase = Phase::Over;
            s.turn = 0;
            s.suit = 0;
        } else {
            s.dealer = if self.config.dealer_rotation == Rotation::Right {
                self.right(s.dealer)
            } else {
                self.left(s.dealer)
            };
            self.deal(s);
        }
    }

    /// The winner: most points, ties to the last Dealer, then to her left.
    pub(super) fn winner(&self, s: &State) -> u8 {
        let mut best = s.dealer;
        for k in 1..self.n() {
            let seat = (s.dealer + k) % self.n();
            if s.scores[seat as usize] > s.scores[best as usize] {
                best = seat;
            }
        }
        best
    }
}
