//! What a seat sees of a Regine game: the JSON observation, the tensor, and a
//! determinization (the unseen cards dealt anew).

use super::*;

impl Regine {
    /// Index into [`DECISIONS`] of what the current player decides.
    pub(super) fn decision(&self, s: &State) -> Option<usize> {
        match s.phase {
            _ if self.is_chance_node(s) => None,
            Phase::Build if s.effect != Effect::Nothing => Some(1 + s.effect as usize),
            Phase::Build if hand_size(&s.marked) > 0 => Some(1),
            Phase::Build => Some(0),
            Phase::Wager if s.doubled[s.suit as usize].is_some() => Some(10),
            Phase::Wager => Some(9),
            _ => None,
        }
    }

    /// Whether `seat` sees the card in `owner`'s table slot `slot`.
    pub(super) fn sees(&self, s: &State, seat: usize, owner: usize, slot: usize) -> bool {
        owner == seat || s.face_up[owner] & (1 << slot) != 0
    }

    pub(super) fn herald_card_for(&self, s: &State, seat: usize) -> Option<u8> {
        let top = (s.deck_len as usize).checked_sub(1).map(|i| s.deck[i]);
        top.filter(|&c| {
            c != UNSEEN && s.effect == Effect::HeraldChoice && s.effect_seat as usize == seat
        })
    }

    pub(super) fn marked_for(&self, s: &State, seat: usize) -> [u8; KINDS] {
        if s.phase == Phase::Build && s.turn as usize == seat {
            s.marked
        } else {
            [0; KINDS]
        }
    }

    /// What `seat` sees, as JSON ([`Game::observation`]).
    pub(super) fn observation_value(&self, s: &State, seat: Seat) -> Value {
        let n = self.config.players;
        let names = |counts: &[u8; KINDS]| -> Vec<&str> {
            (0..KINDS)
                .flat_map(|k| std::iter::repeat_n(CARD_NAMES[k], counts[k] as usize))
                .collect()
        };
        let table: Vec<Vec<Value>> = (0..n)
            .map(|k| {
                (0..s.table_len[k] as usize)
                    .map(|j| {
                        let card = self
                            .sees(s, seat, k, j)
                            .then(|| CARD_NAMES[s.table[k][j] as usize]);
                        json!({"card": card, "face_up": s.face_up[k] & (1 << j) != 0})
                    })
                    .collect()
            })
            .collect();
        let seats_in =
            |mask: u8| -> Vec<usize> { (0..n).filter(|&k| mask & (1 << k) != 0).collect() };
        let last = (s.round > 0).then(|| {
            (0..n)
                .map(|k| s.last_cards[k].map(|c| CARD_NAMES[c as usize]).to_vec())
                .collect::<Vec<_>>()
        });
        let wager = s.phase == Phase::Wager;
        json!({
            "seat": seat,
            "current_player": self.current_player(s),
            "phase": s.phase.name(),
            "decision": self.decision(s).map(|d| DECISIONS[d]),
            "round": s.round,
            "dealer": s.dealer,
            "turn": (s.phase != Phase::Over).then_some(s.turn),
            "scores": &s.scores[..n],
            "target": self.config.target,
            "hand": names(&s.hands[seat]),
            "hand_sizes": (0..n).map(|k| hand_size(&s.hands[k])).collect::<Vec<_>>(),
            "table": table,
            "deck_size": s.deck_len,
            "discard_size": hand_size(&s.discard),
            "no_changes": s.no_changes,
            "changed": s.changed,
            "exchanged": s.exchanged,
            "played": s.played,
            "passes": s.passes,
            "marked": names(&self.marked_for(s, seat)),
            "marked_count": hand_size(&s.marked),
            "herald_card": self.herald_card_for(s, seat).map(|c| CARD_NAMES[c as usize]),
            "suit": wager.then(|| SUIT_NAMES[s.suit as usize]),
            "suit_turns": s.suit_turns,
            "bets": s.bets.map(seats_in),
            "double_down": s.doubled,
            "suit_winners": s.won,
            "suit_points": s.gain,
            "last_combinations": last,
            "terminal": s.phase == Phase::Over,
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
        for &c in &s.hands[seat] {
            w.scalar(c as f32);
        }
        for &c in &self.marked_for(s, seat) {
            w.scalar(c as f32);
        }
        w.one_hot(KINDS, self.herald_card_for(s, seat).map(|c| c as usize));
        let current = self.current_player(s);
        for k in 0..MAX_PLAYERS {
            if k >= n {
                for _ in 0..SEAT_BLOCK {
                    w.scalar(0.0);
                }
                continue;
            }
            let j = (seat + k) % n;
            w.flag(true);
            w.scalar(hand_size(&s.hands[j]) as f32);
            for slot in 0..COMBO {
                let occupied = slot < s.table_len[j] as usize;
                w.flag(occupied);
                w.flag(occupied && s.face_up[j] & (1 << slot) != 0);
                let seen = occupied && self.sees(s, seat, j, slot);
                w.one_hot(KINDS, seen.then_some(s.table[j][slot] as usize));
            }
            w.scalar(s.scores[j] as f32 / self.config.target as f32);
            w.flag(s.dealer as usize == j);
            w.flag(s.phase != Phase::Over && s.turn as usize == j);
            w.flag(current == Some(j));
            for suit in 0..SUITS {
                w.flag(s.bets[suit] & (1 << j) != 0);
            }
            for suit in 0..SUITS {
                w.flag(s.doubled[suit] == Some(j as u8));
            }
            for suit in 0..SUITS {
                w.flag(s.won[suit] == Some(j as u8));
            }
        }
        w.one_hot(Phase::ALL.len(), Some(s.phase as usize));
        w.one_hot(DECISIONS.len(), self.decision(s));
        w.flag(s.no_changes);
        w.flag(s.changed);
        w.flag(s.played);
        w.scalar(s.passes as f32);
        w.scalar(hand_size(&s.marked) as f32);
        w.scalar(s.deck_len as f32);
        w.scalar(hand_size(&s.discard) as f32);
        w.one_hot(SUITS, (s.phase == Phase::Wager).then_some(s.suit as usize));
        w.scalar(s.suit_turns as f32);
        for &g in &s.gain {
            w.scalar(g as f32);
        }
    }

    /// A state `seat` cannot tell from `s`, the unseen cards dealt anew ([`Game::determinize`]).
    pub(super) fn determinized(&self, s: &State, seat: Seat, rng: &mut Rng) -> State {
        let mut d = *s;
        let fixed_top = self.herald_card_for(s, seat).is_some();
        let deck_hidden = d.deck_len as usize - fixed_top as usize;
        // The unseen cards, in kind order.
        let mut unseen = [0u8; KINDS];
        for k in (0..self.config.players).filter(|&k| k != seat) {
            for kind in 0..KINDS {
                unseen[kind] += d.hands[k][kind];
            }
            for j in 0..d.table_len[k] as usize {
                if d.face_up[k] & (1 << j) == 0 {
                    unseen[d.table[k][j] as usize] += 1;
                }
            }
        }
        for &c in d.deck[..deck_hidden].iter().filter(|&&c| c != UNSEEN) {
            unseen[c as usize] += 1;
        }
        for kind in 0..KINDS {
            unseen[kind] += d.discard[kind];
        }
        let mut pool = [0u8; DECK];
        let mut len = 0;
        for (kind, &count) in unseen.iter().enumerate() {
            for _ in 0..count {
                pool[len] = kind as u8;
                len += 1;
            }
        }
        rng.shuffle(&mut pool[..len]);
        let mut next = 0;
        let mut take = || {
            let c = pool[next];
            next += 1;
            c
        };
        for k in (0..self.config.players).filter(|&k| k != seat) {
            let size = hand_size(&d.hands[k]);
            d.hands[k] = [0; KINDS];
            for _ in 0..size {
                d.hands[k][take() as usize] += 1;
            }
            for j in 0..d.table_len[k] as usize {
                if d.face_up[k] & (1 << j) == 0 {
                    d.table[k][j] = take();
                }
            }
        }
        for i in 0..deck_hidden {
            if d.deck[i] != UNSEEN {
                d.deck[i] = take();
            }
        }
        let discard_size = hand_size(&d.discard);
        d.discard = [0; KINDS];
        for _ in 0..discard_size {
            d.discard[take() as usize] += 1;
        }
        // Another player's marks become the lowest cards of her resampled hand.
        let p = d.turn as usize;
        if p != seat && hand_size(&d.marked) > 0 {
            let mut left = hand_size(&d.marked);
            d.marked = [0; KINDS];
            for kind in 0..KINDS {
                let m = left.min(d.hands[p][kind]);
                d.marked[kind] = m;
                left -= m;
            }
        }
        d.rng = rng.fork();
        d
    }
}
