//! The best win probability any player can reach in Duo Regna against an opponent who plays
//! uniformly at random, computed exactly by backward induction over the public state.
//!
//! Against such an opponent the game is a one-player game with chance: both hands are known
//! (every card is played once per nine rounds and every reveal is public), the opponent's card
//! is uniform over her unplayed cards, and the next dragon is uniform over the unrevealed pile.
//! So the state that matters is the round, both hands, where the dragon lies, its value, the
//! captures and the unrevealed pile's singles and doubles; the optimal win probability
//! satisfies `V = max over my cards of the mean over her cards of V(next)`, with the stalemate
//! guard (`max_rounds`) making the recursion finite: it runs from the last round back to the
//! first. The committing order (seat 0 first) does not matter against a random opponent, and
//! the rules treat both seats alike, so one number holds for either seat. Draws count as
//! non-wins.
//!
//! The same recursion with the opponent's card drawn from an earlier rule-based player's
//! choice (the best single round, `rules`) gives the best response to that player. The state
//! is numbered as the solver numbers it (`regalia_engine::solver::duo_regna::encoding`).
//!
//! Run: `cargo run --release -p regalia-engine --example duo_regna_best_response [random|rules]
//! [options JSON]` (the default game takes about a minute on one core).

use regalia_engine::games::duo_regna::{DuoRegna, State, CARDS};
use regalia_engine::solver::duo_regna::encoding::{
    capture, cards_of_kind, copies, first_levels, guard_return, hand_size, kinds, levels, outcome,
    public_state, without, Capture, HandPairs, Level, Outcome, CENTRE, FULL, KINDS, MINE, THEIRS,
};
use regalia_engine::{Game, Options};
use std::collections::HashMap;

/// How the opponent chooses her card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// Uniformly at random among her unplayed cards (the `random` agent).
    Random,
    /// As the `rules` agent once did: the card with the best round balance (won minus lost)
    /// against my unplayed cards, then the one winning against fewest of them, uniformly
    /// among equals.
    Rules,
}

impl Opponent {
    /// The chance of each kind of card of hers (`theirs`) against my unplayed cards (`mine`),
    /// both hand codes of the solver's encoding.
    pub fn chances(self, theirs: u16, mine: u16) -> [f64; KINDS] {
        let mut chance = [0.0; KINDS];
        let mut best = (i32::MIN, i32::MIN);
        let (mine_kinds, theirs_kinds) = (kinds(mine), kinds(theirs));
        for &b in &theirs_kinds.0[..theirs_kinds.1] {
            let key = match self {
                Opponent::Random => (0, 0),
                Opponent::Rules => {
                    let (mut balance, mut wins) = (0, 0);
                    for &a in &mine_kinds.0[..mine_kinds.1] {
                        let n = copies(mine, a) as i32;
                        match outcome(a, b) {
                            Outcome::Them => (balance, wins) = (balance + n, wins + n),
                            Outcome::Me => balance -= n,
                            Outcome::Nobody => {}
                        }
                    }
                    (balance, -wins)
                }
            };
            if key > best {
                (best, chance) = (key, [0.0; KINDS]);
            }
            if key == best {
                chance[b] = copies(theirs, b) as f64;
            }
        }
        let ties: f64 = chance.iter().sum();
        chance.map(|c| c / ties)
    }
}

/// My win probability from my return where the game ends: draws count as non-wins.
fn win(ret: f64) -> f64 {
    f64::from(u8::from(ret > 0.0))
}

/// The exact best response to an opponent, round by round, over the solver's public state.
pub struct BestResponse {
    game: DuoRegna,
    opponent: Opponent,
    pairs: HandPairs,
    levels: Vec<Level>,
    index: HashMap<Level, usize>,
    /// Where a capture by me (0) or the opponent (1) leads from each level.
    captures: Vec<[Capture; 2]>,
    /// `values[r]`: the win probability at the start of round `r` (0-based), by level, then
    /// dragon side, then pair of hands of that round's size; `values[max_rounds]` is empty
    /// (the game is over).
    values: Vec<Vec<f64>>,
}

impl BestResponse {
    /// Solves `game` (only the dragon deck, the dragons to win and the rounds matter).
    pub fn solve(game: &DuoRegna, opponent: Opponent) -> Self {
        let levels = levels(game);
        let index: HashMap<Level, usize> =
            levels.iter().enumerate().map(|(i, &l)| (l, i)).collect();
        let find = |l: Level| index.get(&l).copied();
        let captures = levels
            .iter()
            .map(|&l| [capture(game, l, true, find), capture(game, l, false, find)])
            .collect();
        let rounds = game.config.max_rounds as usize;
        let mut solver = BestResponse {
            game: game.clone(),
            opponent,
            pairs: HandPairs::new(),
            levels,
            index,
            captures,
            values: vec![Vec::new(); rounds + 1],
        };
        for r in (0..rounds).rev() {
            solver.values[r] = solver.solve_round(r);
        }
        solver
    }

    /// Cards in each hand at the start of round `r`.
    fn hand_size(r: usize) -> usize {
        CARDS - r % CARDS
    }

    /// The index of a pair of hands among the pairs of their size (0 for empty hands).
    fn pair(&self, mine: u16, theirs: u16) -> usize {
        if mine == 0 {
            0
        } else {
            self.pairs.index(mine, theirs) - self.pairs.start(hand_size(mine))
        }
    }

    /// The value at the start of round `r` (`r == max_rounds`: the game ends by the guard).
    fn value(&self, r: usize, level: usize, side: usize, mine: u16, theirs: u16) -> f64 {
        if r == self.game.config.max_rounds as usize {
            return win(guard_return(self.levels[level], side));
        }
        let (mine, theirs) = if mine == 0 {
            (FULL, FULL)
        } else {
            (mine, theirs)
        };
        let n = self.pairs.count(Self::hand_size(r));
        self.values[r][(level * 3 + side) * n + self.pair(mine, theirs)]
    }

    /// The win probability after the round's reveal went to `who`, from the start of `r + 1`.
    fn after(&self, r: usize, level: usize, side: usize, who: Outcome, h: (u16, u16)) -> f64 {
        let next = |level: usize, side: usize| self.value(r + 1, level, side, h.0, h.1);
        let captured = |me: bool| match &self.captures[level][usize::from(!me)] {
            Capture::End(ret) => win(*ret),
            Capture::Next(to) => to.iter().map(|&(p, l)| p * next(l, CENTRE)).sum(),
        };
        match (who, side) {
            (Outcome::Nobody, _) => next(level, side),
            (Outcome::Me, MINE) => captured(true),
            (Outcome::Them, THEIRS) => captured(false),
            (Outcome::Me, _) => next(level, side - 1),
            (Outcome::Them, _) => next(level, side + 1),
        }
    }

    /// The win probability with each of my kinds (`NEG_INFINITY` for those not held) at the
    /// start of round `r`, from `after(outcome, mine, theirs)` for the state after the round.
    fn kind_values(
        &self,
        mine: u16,
        theirs: u16,
        after: impl Fn(Outcome, u16, u16) -> f64,
    ) -> [f64; KINDS] {
        let chance = self.opponent.chances(theirs, mine);
        let (rows, cols) = (kinds(mine), kinds(theirs));
        let mut out = [f64::NEG_INFINITY; KINDS];
        for &a in &rows.0[..rows.1] {
            let mut total = 0.0;
            for &b in cols.0[..cols.1].iter().filter(|&&b| chance[b] > 0.0) {
                total += chance[b] * after(outcome(a, b), without(mine, a), without(theirs, b));
            }
            out[a] = total;
        }
        out
    }

    /// All values at the start of round `r`, from those of round `r + 1`.
    fn solve_round(&self, r: usize) -> Vec<f64> {
        let k = Self::hand_size(r);
        let n = self.pairs.count(k);
        let later: &[u16] = if k == 1 {
            &[0]
        } else {
            self.pairs.hands(k - 1)
        };
        let mut out = vec![0.0; self.levels.len() * 3 * n];
        let mut after: [Vec<f64>; 3] = Default::default();
        for level in 0..self.levels.len() {
            for side in 0..3 {
                // The value after each outcome of the reveal, for every pair of next hands.
                for (who, values) in [Outcome::Nobody, Outcome::Me, Outcome::Them]
                    .into_iter()
                    .zip(after.iter_mut())
                {
                    values.clear();
                    values.resize(later.len() * later.len(), 0.0);
                    for &m in later {
                        for &t in later {
                            values[self.pair(m, t)] = self.after(r, level, side, who, (m, t));
                        }
                    }
                }
                let block = &mut out[(level * 3 + side) * n..][..n];
                for &mine in self.pairs.hands(k) {
                    for &theirs in self.pairs.hands(k) {
                        let v = self.kind_values(mine, theirs, |o, m, t| {
                            after[o as usize][self.pair(m, t)]
                        });
                        block[self.pair(mine, theirs)] =
                            v.into_iter().fold(f64::NEG_INFINITY, f64::max);
                    }
                }
            }
        }
        out
    }

    /// My best kind of card at the start of round `r` and its win probability.
    pub fn best_kind(
        &self,
        r: usize,
        level: usize,
        side: usize,
        mine: u16,
        theirs: u16,
    ) -> (usize, f64) {
        let v = self.kind_values(mine, theirs, |o, m, t| {
            self.after(r, level, side, o, (m, t))
        });
        (0..KINDS).fold(
            (KINDS, -1.0),
            |best, a| if v[a] > best.1 { (a, v[a]) } else { best },
        )
    }

    /// The win probability from the start of a game (averaged over the first dragon).
    pub fn start_value(&self) -> f64 {
        let mut v = 0.0;
        for (chance, start) in first_levels(&self.game) {
            if let Some(&l) = self.index.get(&start) {
                v += chance * self.value(0, l, CENTRE, FULL, FULL);
            }
        }
        v
    }

    /// The best card for the seat to move, `me`, in a running game's state `s`.
    pub fn best_move(&self, s: &State, me: usize) -> usize {
        let p = public_state(s).expect("a running game");
        assert_eq!(p.seat, me, "the best response moves for the seat to move");
        let level = self.index[&p.level];
        let (kind, _) = self.best_kind(p.round as usize, level, p.side, p.mine, p.theirs);
        cards_of_kind(p.my_cards, kind)
            .next()
            .expect("a card of the best kind")
    }
}

fn main() {
    let opponent = match std::env::args().nth(1).as_deref() {
        None | Some("random") => Opponent::Random,
        Some("rules") => Opponent::Rules,
        Some(other) => panic!("the opponent is 'random' or 'rules', not {other:?}"),
    };
    let text = std::env::args().nth(2).unwrap_or_else(|| "{}".into());
    let options: Options = serde_json::from_str(&text).expect("options as a JSON object");
    let game = DuoRegna::from_options(&options).expect("valid Duo Regna options");
    let start = std::time::Instant::now();
    let solved = BestResponse::solve(&game, opponent);
    println!(
        "Duo Regna {}: the best response to {opponent:?} wins {:.9} of games \
         ({} levels, {:.1} s)",
        serde_json::Value::Object(game.options()),
        solved.start_value(),
        solved.levels.len(),
        start.elapsed().as_secs_f64()
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use regalia_engine::solver::duo_regna::encoding::{hand_of_cards, kind_of};
    use regalia_engine::solver::duo_regna::mean_over_reveals;
    use regalia_engine::Rng;

    fn game(options: &str) -> DuoRegna {
        DuoRegna::from_options(&serde_json::from_str(options).expect("JSON")).expect("options")
    }

    /// Seat 0's win probability by brute force over the engine's own rules: seat 0 maximises,
    /// seat 1 plays as `opponent`, and every dragon revealed is drawn from the cards left (the
    /// pile's order in the state is not known to seat 0).
    fn expectimax(g: &DuoRegna, opponent: Opponent, s: &State) -> f64 {
        if g.current_player(s).is_none() {
            return f64::from(u8::from(g.returns(s)[0] > 0.0));
        }
        let mut best: f64 = 0.0;
        for a in g.legal_actions(s).iter() {
            let mut after_a = *s;
            g.apply(&mut after_a, a);
            let chance =
                opponent.chances(hand_of_cards(after_a.hands[1]), hand_of_cards(s.hands[0]));
            let mut total = 0.0;
            for b in g.legal_actions(&after_a).iter() {
                let mut after_b = after_a;
                g.apply(&mut after_b, b);
                let kind = kind_of(b as usize);
                total += chance[kind] / copies(hand_of_cards(after_a.hands[1]), kind) as f64
                    * if after_b.next_dragon > s.next_dragon && !after_b.over {
                        mean_over_reveals(&after_b, s.next_dragon as usize, |t| {
                            expectimax(g, opponent, t)
                        })
                    } else {
                        expectimax(g, opponent, &after_b)
                    };
            }
            best = best.max(total);
        }
        best
    }

    #[test]
    fn it_agrees_with_brute_force_over_the_engine() {
        // Four rounds, two dragons to win, a pile of two singles and two doubles: captures,
        // new dragons of either value, wins and the stalemate guard all happen.
        let g = game(r#"{"dragon_deck": [2, 2], "dragons_to_win": 2, "max_rounds": 4}"#);
        for opponent in [Opponent::Random, Opponent::Rules] {
            let mut expected = 0.0;
            for (order, chance) in [
                ([1, 1, 2, 2], 1.0 / 6.0),
                ([1, 2, 1, 2], 1.0 / 3.0),
                ([2, 1, 1, 2], 1.0 / 3.0),
                ([2, 2, 1, 1], 1.0 / 6.0),
            ] {
                let mut s = g.new_state(Rng::new(1));
                s.pile[..4].copy_from_slice(&order);
                s.dragon = order[0];
                assert_eq!(g.check_state(&s), Ok(()));
                expected += chance * expectimax(&g, opponent, &s);
            }
            let solved = BestResponse::solve(&g, opponent).start_value();
            assert!(
                (solved - expected).abs() < 1e-12,
                "{opponent:?}: {solved} vs {expected}"
            );
            assert!(expected > 0.0 && expected < 1.0);
        }
    }

    #[test]
    fn its_policy_wins_as_often_as_it_says_over_full_hands() {
        // Twelve rounds (the hands are taken back after nine). The policy, played by either
        // seat through the engine against the opponent's cards, wins at the computed rate.
        let g = game(r#"{"dragon_deck": [3, 2], "dragons_to_win": 3, "max_rounds": 12}"#);
        for opponent in [Opponent::Random, Opponent::Rules] {
            let solved = BestResponse::solve(&g, opponent);
            let p = solved.start_value();
            let (games, mut wins) = (20_000, 0);
            let mut rng = Rng::new(7);
            for i in 0..games {
                let me = i % 2;
                let mut s = g.new_state(Rng::new(1000 + i as u64));
                while let Some(seat) = g.current_player(&s) {
                    let a = if seat == me {
                        solved.best_move(&s, me)
                    } else {
                        let mine = s.hands[me] | s.pending.map_or(0, |c| 1 << c);
                        let chance =
                            opponent.chances(hand_of_cards(s.hands[seat]), hand_of_cards(mine));
                        let cards: Vec<usize> = (0..CARDS)
                            .filter(|&c| s.hands[seat] & (1 << c) != 0 && chance[kind_of(c)] > 0.0)
                            .collect();
                        cards[rng.index(cards.len())]
                    };
                    assert!(g.legal_actions(&s).contains(a));
                    g.apply(&mut s, a as u16);
                }
                wins += usize::from(g.returns(&s)[me] > 0.0);
            }
            let rate = wins as f64 / games as f64;
            let sd = (p * (1.0 - p) / games as f64).sqrt();
            // (The rules player's choice can be foreseen: a best response to it never loses.)
            assert!(
                (rate - p).abs() <= 4.0 * sd + 1e-12,
                "{opponent:?}: won {rate}, computed {p}"
            );
        }
    }
}
