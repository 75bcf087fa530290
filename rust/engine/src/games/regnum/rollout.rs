//! Search policy for Regnum (not rules; the pure-Python reference has none): the cheap move a
//! search's rollout plays, one time in four a uniformly random move instead.
//!
//! Moves: draw two blind (Riverford: take the discard's top card, which draws a blind card
//! too); buy the affordable character worth most per card it costs (worth as the end would
//! count it for the buyer: printed points, score icons, a point for each standard in play it
//! counts for), again while the hand pays for one; pay with natural single cards first, then
//! duals, the wildcard last; with nothing to buy, discard the card the line-up needs least;
//! take the card it needs most; steal from the fullest hand; exchange for, or remove, the
//! inhabitant with the most printed points. Rollouts play to the end of the game: stopping a
//! few turns on with an estimate of the lead did worse (see "How strong the built-in agents
//! are" in docs/agents.md).

use super::scoring::Tally;
use super::*;
use crate::game::uniform_action;

/// The part of a King's or Queen's score icon counted while nobody owns that royal yet.
const ROYAL_HOPE: f64 = 0.5;

impl Regnum {
    /// What character `c` would add to `seat`'s final score if bought now (a rough count:
    /// its points, its score icon, a point for each standard in play it counts for); `t` is
    /// the seat's tally, counted once for all the characters weighed.
    fn worth(&self, s: &State, seat: usize, t: &Tally, c: usize) -> f64 {
        let Some(ch) = self.cards.characters.get(c) else {
            return 0.0;
        };
        let royal = |r: Option<usize>| match r {
            Some(r) if s.realms[seat] >> r & 1 == 1 => 1.0,
            Some(r) if (s.gone | s.realms.iter().fold(0, |m, x| m | x)) >> r & 1 == 0 => ROYAL_HOPE,
            _ => 0.0,
        };
        let mut w = ch.points as f64;
        w += match ch.score {
            Some(ScoreIcon::King1) => royal(self.cards.king),
            Some(ScoreIcon::King2) => 2.0 * royal(self.cards.king),
            Some(ScoreIcon::Queen1) => royal(self.cards.queen),
            Some(ScoreIcon::Queen2) => 2.0 * royal(self.cards.queen),
            Some(ScoreIcon::PerColour(col)) => {
                (t.colours[col as usize % 3] + (ch.colour == col) as i64) as f64
            }
            Some(ScoreIcon::Wizard) => {
                let w = (t.wizards as usize).min(WIZARD_POINTS.len() - 2);
                (WIZARD_POINTS[w + 1] - WIZARD_POINTS[w]) as f64
            }
            Some(ScoreIcon::Jester) => 1.0,
            None => 0.0,
        };
        for i in iter_bits(s.standards as u64) {
            let counts = self.cards.standards.get(i).map(|st| st.counts);
            w += match counts {
                Some(Condition::Colour(col)) if ch.colour == col => 1.0,
                Some(Condition::Inhabitants) => 1.0,
                Some(Condition::Wizards) if ch.score == Some(ScoreIcon::Wizard) => 1.0,
                Some(Condition::Effects) if ch.effect.is_some() => 1.0,
                _ => 0.0,
            };
        }
        w
    }

    /// How much each colour the line-up's costs ask for.
    fn needs(&self, s: &State) -> [f64; 4] {
        let mut need = [0.0; 4];
        for c in s.lineup.iter().flatten() {
            for &slot in self.slots(Some(*c)) {
                if slot < PAIR_FIRST {
                    need[slot as usize] += 1.0;
                }
            }
        }
        need
    }

    /// How much a card of kind `k` helps `hand` pay for what the line-up asks (duals a
    /// little more: they pay either colour).
    fn usefulness(k: usize, hand: &[u8; KINDS], need: &[f64; 4]) -> f64 {
        let held = |c: usize| -> f64 {
            (0..KINDS)
                .filter(|&j| KIND_MASK[j] >> c & 1 == 1)
                .map(|j| hand[j] as f64)
                .sum()
        };
        let fit = (0..4)
            .filter(|&c| KIND_MASK[k] >> c & 1 == 1)
            .map(|c| need[c] - held(c))
            .fold(f64::NEG_INFINITY, f64::max);
        fit + if k >= 4 { 0.5 } else { 0.0 }
    }

    /// Of the actions `base + k` in `legal`, the card kind the line-up needs most (`keep`) or
    /// least, judged against the decider's hand.
    fn by_need(&self, s: &State, legal: &ActionSet, base: Action, keep: bool) -> Option<Action> {
        let hand = s.hands[s.decider as usize];
        let need = self.needs(s);
        let sign = if keep { 1.0 } else { -1.0 };
        let mut best: Option<(f64, Action)> = None;
        for k in 0..KINDS {
            let a = base + k as Action;
            if legal.contains(a as usize) {
                let v = sign * Self::usefulness(k, &hand, &need);
                if best.is_none_or(|(b, _)| v > b) {
                    best = Some((v, a));
                }
            }
        }
        best.map(|(_, a)| a)
    }

    /// The rollout's move (see the module's header).
    pub(super) fn rollout_move(&self, s: &State, legal: &ActionSet, rng: &mut Rng) -> Action {
        if rng.below(4) == 0 {
            return uniform_action(legal, rng);
        }
        match self.rollout_choice(s, legal) {
            Some(a) if legal.contains(a as usize) => a,
            _ => uniform_action(legal, rng),
        }
    }

    /// The policy's move without the random ones (`None`: no opinion).
    fn rollout_choice(&self, s: &State, legal: &ActionSet) -> Option<Action> {
        let me = s.decider as usize;
        match s.phase {
            Phase::Draw => {
                if self.advantage(s, me) == Some(Advantage::Riverford)
                    && legal.contains(TAKE_DISCARD as usize)
                {
                    Some(TAKE_DISCARD)
                } else {
                    Some(DRAW_TWO)
                }
            }
            Phase::Main => {
                let mut best: Option<(f64, Action)> = None;
                let mut tally = None;
                for i in 0..LINEUP {
                    let a = BUY + i as Action;
                    if let (true, Some(c)) = (legal.contains(a as usize), s.lineup[i]) {
                        let cost = self.slots(Some(c)).len().max(1) as f64;
                        let t = tally.get_or_insert_with(|| self.tally(s, me));
                        let v = self.worth(s, me, t, c as usize) / cost;
                        if best.is_none_or(|(b, _)| v > b) {
                            best = Some((v, a));
                        }
                    }
                }
                best.map(|(_, a)| a)
                    .or_else(|| legal.contains(END_TURN as usize).then_some(END_TURN))
                    .or_else(|| self.by_need(s, legal, DISCARD, false))
            }
            Phase::Pay => legal.iter().max_by_key(|&a| {
                let x = (a - PAY) as usize;
                let (k, c) = (x / 4, x % 4);
                let natural = KIND_MASK[k] >> c & 1 == 1;
                // Natural before wild, singles before duals, then the lowest id.
                (natural, k < 4, std::cmp::Reverse(a))
            }),
            Phase::Tax | Phase::Draw2Discard => self.by_need(s, legal, DISCARD, false),
            Phase::SwapGive => self.by_need(s, legal, SWAP_GIVE, false),
            Phase::SwapTake => self.by_need(s, legal, SWAP_TAKE, true),
            Phase::Salvage => self.by_need(s, legal, SALVAGE, true),
            Phase::Steal => legal
                .iter()
                .max_by_key(|&a| (total(&s.hands[(a - STEAL) as usize]), std::cmp::Reverse(a))),
            Phase::Exchange | Phase::Remove => legal.iter().max_by_key(|&a| {
                let c = (a - TARGET) as usize;
                let pts = self.cards.characters.get(c).map_or(0, |ch| ch.points);
                (pts, std::cmp::Reverse(a))
            }),
            Phase::Over => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A two-player game in its main phase: seat 0 holds `hand` (kinds by name), the line-up
    /// is `lineup` (character indices), the standards in play are blue, hand and wizards.
    fn position(hand: &[&str], lineup: [usize; LINEUP]) -> (Regnum, State) {
        let g = Regnum::from_options(&Options::new()).expect("default options");
        let mut s = g.new_state(Rng::new(1));
        for slot in s.lineup.iter_mut().flatten() {
            s.char_deck |= 1 << *slot;
        }
        for (i, &c) in lineup.iter().enumerate() {
            s.char_deck &= !(1 << c);
            s.lineup[i] = Some(c as u8);
        }
        for k in 0..KINDS {
            s.deck[k] += s.hands[0][k];
            s.hands[0][k] = 0;
        }
        for name in hand {
            let k = KIND_NAMES.iter().position(|n| n == name).expect("a kind");
            s.deck[k] -= 1;
            s.hands[0][k] += 1;
        }
        s.standards = 1 << 0 | 1 << 4 | 1 << 5;
        s.castles[..2].copy_from_slice(&[0, 1]); // Montreaux and Stonewall: no wildcard
        s.phase = Phase::Main;
        g.check_state(&s).expect("a valid position");
        (g, s)
    }

    // Character indices of the default set.
    const KING: usize = 0;
    const LADY_IN_WAITING: usize = 7;
    const GENERAL: usize = 12;
    const SQUIRE: usize = 19;

    #[test]
    fn rollouts_buy_the_character_worth_most_per_card() {
        // King: 3 points and the blue standard, 4 cards (1 a card); Lady-in-waiting: 1 point,
        // +2Q half counted while the Queen is free, the blue standard, 2 cards (1.5 a card);
        // Squire: nothing the end counts, 1 card.
        let (g, s) = position(
            &["G", "O", "P", "Y", "Y", "Y"],
            [KING, SQUIRE, LADY_IN_WAITING, GENERAL],
        );
        let legal = g.legal_actions(&s);
        for slot in 0..LINEUP {
            assert!(
                legal.contains(BUY as usize + slot),
                "slot {slot} affordable"
            );
        }
        assert_eq!(g.rollout_choice(&s, &legal), Some(BUY + 2));
        // The Queen's icons count in full once the buyer owns her.
        let mut s2 = s;
        s2.realms[0] = 1 << 1; // seat 0 owns the Queen
        let t = g.tally(&s2, 0);
        assert_eq!(g.worth(&s2, 0, &t, LADY_IN_WAITING), 1.0 + 2.0 + 1.0);
    }

    #[test]
    fn rollouts_discard_the_card_the_line_up_needs_least_when_nothing_is_affordable() {
        // Nothing is affordable with G, G, G (every cost asks for more, or other colours).
        let (g, s) = position(
            &["G", "G", "G", "Y"],
            [KING, LADY_IN_WAITING, GENERAL, KING + 1],
        );
        let legal = g.legal_actions(&s);
        assert!((0..LINEUP).all(|i| !legal.contains(BUY as usize + i)));
        // The line-up asks for G twice (King, General), Y four times (Lady twice, General,
        // Queen): three Gs held make a G the card needed least.
        assert_eq!(g.rollout_choice(&s, &legal), Some(DISCARD));
        // Having bought, it ends the turn instead.
        let mut s2 = s;
        s2.bought = 1;
        let legal = g.legal_actions(&s2);
        assert_eq!(g.rollout_choice(&s2, &legal), Some(END_TURN));
    }

    #[test]
    fn rollouts_pay_with_single_natural_cards_first() {
        let (g, mut s) = position(
            &["G/O", "G", "O", "P", "Y"],
            [KING, SQUIRE, LADY_IN_WAITING, GENERAL],
        );
        g.apply(&mut s, BUY); // the King: G+O+P, 1
        let legal = g.legal_actions(&s);
        assert!(legal.contains((PAY + 4 * 4) as usize), "the dual may pay G");
        assert_eq!(g.rollout_choice(&s, &legal), Some(PAY));
    }

    #[test]
    fn rollouts_play_only_legal_moves_to_the_end() {
        let g = Regnum::from_options(&Options::new()).expect("default options");
        let mut rng = Rng::new(4);
        for seed in 0..20 {
            let mut s = g.new_state(Rng::new(seed));
            let mut bought = 0;
            while g.current_player(&s).is_some() {
                let legal = g.legal_actions(&s);
                let a = g.rollout_action(&s, &legal, &mut rng);
                assert!(legal.contains(a as usize));
                bought += (s.phase == Phase::Main && (BUY..PAY).contains(&a)) as u32;
                g.apply(&mut s, a);
                g.check_state(&s).expect("a valid state");
            }
            assert!(bought >= 5, "game {seed}: {bought} purchases");
        }
    }
}
