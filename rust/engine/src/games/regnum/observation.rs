//! What a seat sees of a Regnum game.

use super::*;

impl Regnum {
    pub(super) fn cards_list(counts: &[u8; KINDS]) -> Vec<&'static str> {
        (0..KINDS)
            .flat_map(|k| std::iter::repeat_n(KIND_NAMES[k], counts[k] as usize))
            .collect()
    }

    pub(super) fn payment_open(&self, d: &State) -> bool {
        feasible(
            &d.hands[d.active as usize],
            self.slots(d.character),
            d.pay_step as usize,
            d.pair_colour,
            self.wild(d),
        )
    }

    /// Whether `seat` is looking through the resource deck (SWAP).
    pub(super) fn sees_deck(s: &State, seat: usize) -> bool {
        s.phase == Phase::SwapTake && s.active as usize == seat
    }

    /// Other seats' unknown cards and the deck, dealt again from the cards `seat` has not
    /// seen (the deck stays as it is while `seat` looks through it).
    pub(super) fn resample(&self, s: &State, seat: usize, rng: &mut Rng) -> State {
        let mut d = *s;
        let keep_deck = Self::sees_deck(s, seat);
        let mut pool = if keep_deck { [0; KINDS] } else { d.deck };
        for o in self.others(seat) {
            for (k, slot) in pool.iter_mut().enumerate() {
                *slot += d.hands[o][k] - d.known[seat][o][k];
            }
        }
        for o in self.others(seat) {
            let unknown = total(&d.hands[o]) - total(&d.known[seat][o]);
            d.hands[o] = d.known[seat][o];
            for _ in 0..unknown {
                let k = kind_at(&pool, rng.index(total(&pool)));
                pool[k] -= 1;
                d.hands[o][k] += 1;
            }
        }
        if !keep_deck {
            d.deck = pool;
        }
        for x in 0..MAX_PLAYERS {
            for o in 0..MAX_PLAYERS {
                for k in 0..KINDS {
                    d.known[x][o][k] = d.known[x][o][k].min(d.hands[o][k]);
                }
            }
        }
        d
    }
}
