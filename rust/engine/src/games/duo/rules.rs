//! Duo's rules in play: the deal, the legal moves, the moves applied and the end of a round.

use super::*;

// ---- Setup ----
impl Duo {
    /// The seat that started the current round: seat 0, then one seat to the left a round.
    pub fn first_player(&self, s: &State) -> Seat {
        (s.round.saturating_sub(1) as usize) % self.config.players
    }

    /// Whether cards are taken at chance nodes (`chance = "explicit"`).
    pub(super) fn explicit(&self) -> bool {
        self.config.chance == ChanceMode::Explicit
    }

    /// Cards in the hands (all of a round's deal so far while the deal is on).
    pub(super) fn in_hands(&self, s: &State) -> usize {
        s.hands[..self.config.players].iter().map(|h| h.len()).sum()
    }

    /// Whether a round's deal is on: the right pile has no card yet (it never is empty later).
    pub(super) fn dealing(&self, s: &State) -> bool {
        !s.over && s.piles[PILES - 1].is_empty()
    }

    /// Where the game waits for a chance outcome, if it does: only with explicit chance (a
    /// seeded game settles every card at once, so it never waits, and its moves pay for no
    /// look at the deal).
    pub(super) fn waiting(&self, s: &State) -> Option<TakeTo> {
        if self.explicit() {
            self.taking_to(s)
        } else {
            None
        }
    }

    /// The chance interface: where the next card taken from the draw pile goes, or `None`
    /// when nothing is to be taken. The deal: `hand_size` cards to each seat, one at a time
    /// from the round's first player on, then the left pile's card, the right pile's; then a
    /// card for the seat that chose to draw.
    pub fn taking_to(&self, s: &State) -> Option<TakeTo> {
        let n = self.config.players;
        if s.over || s.draw.is_empty() {
            None
        } else if !self.dealing(s) {
            (s.turn_pile == Some(DRAWING)).then_some(TakeTo::Draw)
        } else if !s.piles[0].is_empty() {
            Some(TakeTo::Pile(1))
        } else {
            let dealt = self.in_hands(s);
            if dealt < self.config.hand_size * n {
                Some(TakeTo::Deal((self.first_player(s) + dealt) % n))
            } else {
                Some(TakeTo::Pile(0))
            }
        }
    }

    /// Seeded: the generator answers every card the chance interface asks for, a uniformly
    /// random card of the draw pile (explicit: the game waits at the chance node).
    pub(super) fn settle(&self, s: &mut State) {
        if self.explicit() {
            return;
        }
        while let Some(to) = self.taking_to(s) {
            let i = s.rng.index(s.draw.len());
            let card = s.draw.nth(i).unwrap_or(0);
            self.take_card(s, to, card);
        }
    }

    /// Card `card` out of the draw pile and to where the chance interface said it goes.
    pub(super) fn take_card(&self, s: &mut State, to: TakeTo, card: usize) {
        s.draw.remove(card);
        match to {
            TakeTo::Deal(seat) => s.hands[seat].insert(card),
            TakeTo::Pile(p) => {
                s.tops[p] = card as u8;
                s.piles[p] = Set128::single(card);
            }
            TakeTo::Draw => {
                s.hands[s.current as usize].insert(card);
                s.turn_pile = None;
                if s.draw.is_empty() {
                    self.end_round(s, None);
                } else {
                    self.next_seat(s);
                }
            }
        }
    }

    pub(super) fn deal(&self, s: &mut State) {
        s.draw = self.deck;
        s.hands = [Set128::EMPTY; MAX_PLAYERS];
        s.piles = [Set128::EMPTY; PILES];
        s.current = self.first_player(s) as u8;
        s.turn_pile = None;
        s.turn_cards = Set128::EMPTY;
        self.settle(s);
    }
}

// ---- Legal moves ----
impl Duo {
    /// At a chance node: the cards of the draw pile (kept out of the players' path, which
    /// every move takes).
    #[cold]
    pub(super) fn outcomes(s: &State) -> ActionSet {
        let mut out = ActionSet::new();
        for c in s.draw.iter() {
            out.insert(c as Action);
        }
        out
    }

    /// The moves of the seat to move in a running round: for each pile the kinds of the
    /// cards she may play onto it ([`playable_kinds`]; none onto a pile closed for the rest
    /// of her turn), then "draw" or "end turn", whichever is legal. In action order: the
    /// left pile's plays, the right pile's, the last one.
    #[inline(always)]
    pub(super) fn moves(&self, s: &State) -> ([u128; PILES], Action) {
        let hand = s.hands[s.current as usize];
        let (open, stop) = match s.turn_pile {
            None => ([true; PILES], DRAW),
            Some(p) => (
                std::array::from_fn(|q| self.config.switch_piles || q == p as usize),
                END_TURN,
            ),
        };
        let kinds = std::array::from_fn(|p| {
            let fits = hand & MATCHES[s.tops[p] as usize];
            if open[p] {
                playable_kinds(fits)
            } else {
                0
            }
        });
        (kinds, stop)
    }
}

// ---- Apply ----
impl Duo {
    pub(super) fn next_seat(&self, s: &mut State) {
        let next = s.current as usize + 1; // `current` is a seat: below `players`
        s.current = if next == self.config.players {
            0
        } else {
            next as u8
        };
        s.turn_pile = None;
        s.turn_cards = Set128::EMPTY;
    }

    pub(super) fn play(&self, s: &mut State, pile: usize, kind: usize) {
        let seat = s.current as usize;
        let hand = s.hands[seat];
        let card = if kind < TURBO_KIND {
            kind
        } else {
            (hand - Set128::below(FIRST_TURBO))
                .first()
                .unwrap_or(FIRST_TURBO)
        };
        s.hands[seat].remove(card);
        s.piles[pile].insert(card);
        s.tops[pile] = card as u8;
        s.turn_pile = Some(pile as u8);
        s.turn_cards.insert(card);
        if s.hands[seat].is_empty() {
            self.end_round(s, Some(seat));
        }
    }

    pub(super) fn end_turn(&self, s: &mut State) {
        self.next_seat(s);
    }

    pub(super) fn draw(&self, s: &mut State) {
        s.turn_pile = Some(DRAWING);
        self.settle(s);
    }
}

// ---- Scoring ----
impl Duo {
    pub(super) fn end_round(&self, s: &mut State, winner: Option<Seat>) {
        let mut points = [0i32; MAX_PLAYERS];
        match winner {
            None => {
                for (p, h) in points.iter_mut().zip(&s.hands) {
                    *p = -(h.len() as i32);
                }
            }
            Some(w) => points[w] = s.hands.iter().map(|h| h.len() as i32).sum(),
        }
        for (score, p) in s.scores.iter_mut().zip(points) {
            *score = score.saturating_add(p);
        }
        s.last_points = Some(points);
        s.last_winner = winner.map(|w| w as u8);
        s.turn_pile = None;
        s.turn_cards = Set128::EMPTY;
        let best = s.scores.iter().copied().max().unwrap_or(0) as i64;
        if best >= self.target() || s.round >= self.round_limit() {
            s.over = true;
        } else {
            s.round += 1;
            self.deal(s);
        }
    }
}
