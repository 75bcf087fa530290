//! What a seat sees of a Duo game: the JSON observation, the tensor, and a determinization
//! (the unseen cards dealt anew).

use super::*;

impl Duo {
    pub(super) fn write_cards<O: TensorOut + ?Sized>(w: &mut TensorWriter<O>, set: Set128) {
        w.mask(set.0 as u64, SYMBOLS);
        w.mask((set.0 >> SYMBOLS) as u64, FIRST_TURBO - SYMBOLS);
        let turbos = (set - Set128::below(FIRST_TURBO)).len();
        w.scalar(turbos as f32 / (TURBO_CARDS - FIRST_TURBO) as f32);
    }

    /// What `seat` sees, as JSON ([`Game::observation`]).
    pub(super) fn observation_value(&self, s: &State, seat: Seat) -> Value {
        let n = self.config.players;
        json!({
            "seat": seat,
            "current_player": self.current_player(s),
            "round": s.round,
            "first_player": self.first_player(s),
            "target": self.target(),
            "scores": &s.scores[..n],
            "hand": names(s.hands[seat]),
            "hand_sizes": s.hands[..n].iter().map(|h| h.len()).collect::<Vec<_>>(),
            "draw_pile": s.draw.len(),
            "pile_tops": ([0usize, 1].map(|p| (!s.piles[p].is_empty()).then(|| card_name(s.tops[p] as usize)))),
            "pile_cards": s.piles.map(names),
            "turn_pile": s.turn_pile.filter(|&p| p != DRAWING).map(|p| PILE_NAMES[p as usize]),
            "turn_cards": names(s.turn_cards),
            "last_round": s.last_points.map(|points| json!({
                "winner": s.last_winner,
                "points": &points[..n],
            })),
            "terminal": s.over,
        })
    }

    /// What `seat` sees, as floats ([`Game::observation_tensor`]).
    pub(super) fn write_observation_tensor<O: TensorOut + ?Sized>(
        &self,
        s: &State,
        seat: Seat,
        out: &mut O,
    ) {
        let n = self.config.players;
        let mut w = TensorWriter::new(out);
        Self::write_cards(&mut w, s.hands[seat]);
        for p in 0..PILES {
            w.one_hot(
                KINDS,
                (!s.piles[p].is_empty()).then(|| kind_of(s.tops[p] as usize)),
            );
        }
        for p in 0..PILES {
            Self::write_cards(&mut w, s.piles[p]);
        }
        w.one_hot(
            PILES,
            s.turn_pile.filter(|&p| p != DRAWING).map(|p| p as usize),
        );
        // The seats from `seat` on, in turn (no division: this runs at every step of the
        // solvers' information-state keys); zeros for the seats the game has not.
        let turn = || (seat..n).chain(0..seat);
        for p in turn() {
            w.scalar(s.hands[p].len() as f32 / self.config.hand_size as f32);
        }
        for _ in n..MAX_PLAYERS {
            w.scalar(0.0);
        }
        let target = self.target() as f32;
        for p in turn() {
            w.scalar(s.scores[p] as f32 / target);
        }
        for _ in n..MAX_PLAYERS {
            w.scalar(0.0);
        }
        w.scalar(s.draw.len() as f32 / self.deck_size() as f32);
        let relative = |x: usize| (x + n - seat) % n;
        w.one_hot(MAX_PLAYERS, self.current_player(s).map(relative));
        w.one_hot(MAX_PLAYERS, Some(relative(self.first_player(s))));
    }

    /// A state `seat` cannot tell from `s`, the unseen cards dealt anew ([`Game::determinize`]).
    pub(super) fn determinized(&self, s: &State, seat: Seat, rng: &mut Rng) -> State {
        let mut d = *s;
        let mut unseen = d.draw;
        for (i, h) in d.hands.iter().enumerate().take(self.config.players) {
            if i != seat {
                unseen = unseen | *h;
            }
        }
        for i in (0..self.config.players).filter(|&i| i != seat) {
            let size = d.hands[i].len();
            let mut hand = Set128::EMPTY;
            for _ in 0..size {
                let card = unseen.nth(rng.index(unseen.len())).unwrap_or(0);
                unseen.remove(card);
                hand.insert(card);
            }
            d.hands[i] = hand;
        }
        d.draw = unseen;
        d.rng = rng.fork();
        d
    }
}
