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
//! The same recursion with the opponent's card drawn from the rule-based player's choice
//! (`rules`) gives the best response to that player.
//!
//! Run: `cargo run --release -p regalia-engine --example duo_regna_best_response [random|rules]
//! [options JSON]` (the default game takes about a minute on one core).

use regalia_engine::games::duo_regna::{round_winner, DuoRegna, State, CARDS};
use regalia_engine::{Game, Options};

/// A full hand.
const FULL: u16 = (1 << CARDS) - 1;
/// Where the dragon lies, from the best-responding player's side.
const MINE: usize = 0;
const CENTRE: usize = 1;
const THEIRS: usize = 2;

/// What a round's reveal does to the track, from my side (the value indexes tables).
#[derive(Clone, Copy)]
enum Outcome {
    Nobody = 0,
    Me = 1,
    Them = 2,
}

/// The best-responding player's card `a` against the opponent's `b`.
fn outcome(a: usize, b: usize) -> Outcome {
    match round_winner(a as u8, b as u8) {
        None => Outcome::Nobody,
        Some(0) => Outcome::Me,
        Some(_) => Outcome::Them,
    }
}

/// The captures, the current dragon and the unrevealed pile: what changes only on a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Level {
    mine: u8,
    theirs: u8,
    dragon: u8,
    singles: u8,
    doubles: u8,
}

/// Where a capture leads.
enum Capture {
    /// The game ends; the win probability.
    End(f64),
    /// A new dragon: (chance, level) for each value it may show.
    Next(Vec<(f64, usize)>),
}

/// How the opponent chooses her card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// Uniformly at random among her unplayed cards (the `random` agent).
    Random,
    /// As the `rules` agent (python/regalia/agents/rules/duo_regna.py): the card with the best
    /// round balance (won minus lost) against my unplayed cards, then the one winning
    /// against fewest of them, uniformly among equals.
    Rules,
}

impl Opponent {
    /// The chance of each card of hers (`theirs`) against my unplayed cards (`mine`).
    pub fn chances(self, theirs: u16, mine: u16) -> [f64; CARDS] {
        let held = |c: usize, hand: u16| hand & (1 << c) != 0;
        let mut chance = [0.0; CARDS];
        let mut best = (i32::MIN, i32::MIN);
        for b in (0..CARDS).filter(|&b| held(b, theirs)) {
            let key = match self {
                Opponent::Random => (0, 0),
                Opponent::Rules => {
                    let (mut balance, mut wins) = (0, 0);
                    for a in (0..CARDS).filter(|&a| held(a, mine)) {
                        match outcome(a, b) {
                            Outcome::Them => (balance, wins) = (balance + 1, wins + 1),
                            Outcome::Me => balance -= 1,
                            Outcome::Nobody => {}
                        }
                    }
                    (balance, -wins)
                }
            };
            if key > best {
                (best, chance) = (key, [0.0; CARDS]);
            }
            if key == best {
                chance[b] = 1.0;
            }
        }
        let ties: f64 = chance.iter().sum();
        chance.map(|c| c / ties)
    }
}

/// Hands of `k` cards are numbered `0..binomial(9, k)` in increasing mask order.
struct Hands {
    rank: [usize; 1 << CARDS],
    count: [usize; CARDS + 1],
}

impl Hands {
    fn new() -> Self {
        let mut rank = [0; 1 << CARDS];
        let mut count = [0; CARDS + 1];
        for (mask, r) in rank.iter_mut().enumerate() {
            let k = mask.count_ones() as usize;
            *r = count[k];
            count[k] += 1;
        }
        Hands { rank, count }
    }

    /// Index of the pair (mine, theirs), both of the same size.
    fn pair(&self, mine: u16, theirs: u16) -> usize {
        let k = mine.count_ones() as usize;
        self.rank[mine as usize] * self.count[k] + self.rank[theirs as usize]
    }

    /// Number of pairs of `k`-card hands.
    fn pairs(&self, k: usize) -> usize {
        self.count[k] * self.count[k]
    }
}

/// The exact best response to an opponent, round by round.
pub struct BestResponse {
    game: DuoRegna,
    opponent: Opponent,
    hands: Hands,
    levels: Vec<Level>,
    /// Where a capture by me (0) or the opponent (1) leads from each level.
    captures: Vec<[Capture; 2]>,
    /// `values[r]`: the win probability at the start of round `r` (0-based), by level, then
    /// dragon side, then hand pair; `values[max_rounds]` is empty (the game is over).
    values: Vec<Vec<f64>>,
}

impl BestResponse {
    /// Solves `game` (only the dragon deck, the dragons to win and the rounds matter).
    pub fn solve(game: &DuoRegna, opponent: Opponent) -> Self {
        let hands = Hands::new();
        let (n1, n2, win) = (
            game.single_dragons(),
            game.double_dragons(),
            game.config.dragons_to_win,
        );
        let mut levels = Vec::new();
        for mine in 0..win {
            for theirs in 0..win {
                for dragon in 1..=2u8 {
                    for singles in 0..=n1 {
                        for doubles in 0..=n2 {
                            let revealed = (n1 - singles) as u32 + 2 * (n2 - doubles) as u32;
                            if revealed == mine as u32 + theirs as u32 + dragon as u32
                                && (if dragon == 1 {
                                    singles < n1
                                } else {
                                    doubles < n2
                                })
                            {
                                levels.push(Level {
                                    mine,
                                    theirs,
                                    dragon,
                                    singles,
                                    doubles,
                                });
                            }
                        }
                    }
                }
            }
        }
        let rounds = game.config.max_rounds as usize;
        let mut solver = BestResponse {
            game: game.clone(),
            opponent,
            hands,
            levels,
            captures: Vec::new(),
            values: vec![Vec::new(); rounds + 1],
        };
        solver.captures = (0..solver.levels.len())
            .map(|l| [solver.capture(l, true), solver.capture(l, false)])
            .collect();
        for r in (0..rounds).rev() {
            solver.values[r] = solver.solve_round(r);
        }
        solver
    }

    /// Cards in each hand at the start of round `r`.
    fn hand_size(r: usize) -> usize {
        CARDS - r % CARDS
    }

    /// The value at the start of round `r` (`r == max_rounds`: the game ends by the guard).
    fn value(&self, r: usize, level: usize, side: usize, mine: u16, theirs: u16) -> f64 {
        if r == self.game.config.max_rounds as usize {
            let l = self.levels[level];
            let win = l.mine > l.theirs || (l.mine == l.theirs && side == MINE);
            return f64::from(u8::from(win));
        }
        let k = Self::hand_size(r);
        let (mine, theirs) = if mine == 0 {
            (FULL, FULL)
        } else {
            (mine, theirs)
        };
        let n = self.hands.pairs(k);
        self.values[r][(level * 3 + side) * n + self.hands.pair(mine, theirs)]
    }

    /// What a capture by me (`me`) or the opponent leads to from `level`: the game's end
    /// with a win probability, or the next levels (a new dragon in the centre) with their
    /// chances.
    fn capture(&self, level: usize, me: bool) -> Capture {
        let l = self.levels[level];
        let (mut m, mut t) = (l.mine, l.theirs);
        if me {
            m = m.saturating_add(l.dragon);
        } else {
            t = t.saturating_add(l.dragon);
        }
        let left = l.singles + l.doubles;
        if m >= self.game.config.dragons_to_win || t >= self.game.config.dragons_to_win || left == 0
        {
            return Capture::End(f64::from(u8::from(m > t))); // no dragon left: most dragons wins
        }
        let mut next = Vec::new();
        for (dragon, n) in [(1u8, l.singles), (2u8, l.doubles)] {
            if n > 0 {
                let to = Level {
                    mine: m,
                    theirs: t,
                    dragon,
                    singles: l.singles - u8::from(dragon == 1),
                    doubles: l.doubles - u8::from(dragon == 2),
                };
                let i = self.levels.iter().position(|&x| x == to);
                next.push((
                    n as f64 / left as f64,
                    i.unwrap_or_else(|| panic!("{to:?}")),
                ));
            }
        }
        Capture::Next(next)
    }

    /// The win probability at the start of round `r` after a capture from `level`.
    fn after_capture(&self, r: usize, level: usize, me: bool, mine: u16, theirs: u16) -> f64 {
        match &self.captures[level][usize::from(!me)] {
            Capture::End(v) => *v,
            Capture::Next(next) => next
                .iter()
                .map(|&(p, l)| p * self.value(r, l, CENTRE, mine, theirs))
                .sum(),
        }
    }

    /// The win probability after the round's reveal went to `who`, from the start of `r + 1`.
    fn after(&self, r: usize, level: usize, side: usize, who: Outcome, h: (u16, u16)) -> f64 {
        let next = r + 1;
        match (who, side) {
            (Outcome::Nobody, _) => self.value(next, level, side, h.0, h.1),
            (Outcome::Me, MINE) => self.after_capture(next, level, true, h.0, h.1),
            (Outcome::Them, THEIRS) => self.after_capture(next, level, false, h.0, h.1),
            (Outcome::Me, _) => self.value(next, level, side - 1, h.0, h.1),
            (Outcome::Them, _) => self.value(next, level, side + 1, h.0, h.1),
        }
    }

    /// All values at the start of round `r`, from those of round `r + 1`.
    fn solve_round(&self, r: usize) -> Vec<f64> {
        let k = Self::hand_size(r);
        let (n, next_k) = (self.hands.pairs(k), if k == 1 { CARDS } else { k - 1 });
        let masks = |k: usize| -> Vec<u16> {
            (0..=FULL)
                .filter(|m| m.count_ones() as usize == k)
                .collect()
        };
        let (now, later) = (masks(k), masks(k - 1));
        let next_index = |m: u16, t: u16| if m == 0 { 0 } else { self.hands.pair(m, t) };
        let mut out = vec![0.0; self.levels.len() * 3 * n];
        let mut after = [
            vec![0.0; self.hands.pairs(next_k)],
            vec![0.0; self.hands.pairs(next_k)],
            vec![0.0; self.hands.pairs(next_k)],
        ];
        for level in 0..self.levels.len() {
            for side in 0..3 {
                // The value after each outcome of the reveal, for every pair of next hands.
                for (who, values) in [Outcome::Nobody, Outcome::Me, Outcome::Them]
                    .into_iter()
                    .zip(after.iter_mut())
                {
                    for &m in &later {
                        for &t in &later {
                            values[next_index(m, t)] = self.after(r, level, side, who, (m, t));
                        }
                    }
                }
                let block = &mut out[(level * 3 + side) * n..][..n];
                for &mine in &now {
                    for &theirs in &now {
                        let chance = self.opponent.chances(theirs, mine);
                        let mut best = f64::NEG_INFINITY;
                        for a in (0..CARDS).filter(|a| mine & (1 << a) != 0) {
                            let mut total = 0.0;
                            for b in (0..CARDS).filter(|&b| chance[b] > 0.0) {
                                let j = next_index(mine & !(1 << a), theirs & !(1 << b));
                                total += chance[b] * after[outcome(a, b) as usize][j];
                            }
                            best = best.max(total);
                        }
                        block[self.hands.pair(mine, theirs)] = best;
                    }
                }
            }
        }
        out
    }

    /// My best card at the start of round `r` and its win probability.
    pub fn best_card(
        &self,
        r: usize,
        level: usize,
        side: usize,
        mine: u16,
        theirs: u16,
    ) -> (usize, f64) {
        let chance = self.opponent.chances(theirs, mine);
        let mut best = (CARDS, -1.0);
        for a in (0..CARDS).filter(|a| mine & (1 << a) != 0) {
            let mut total = 0.0;
            for b in (0..CARDS).filter(|&b| chance[b] > 0.0) {
                let h = (mine & !(1 << a), theirs & !(1 << b));
                total += chance[b] * self.after(r, level, side, outcome(a, b), h);
            }
            if total > best.1 {
                best = (a, total);
            }
        }
        best
    }

    /// The win probability from the start of a game (averaged over the first dragon).
    pub fn start_value(&self) -> f64 {
        let g = &self.game;
        let total = (g.single_dragons() + g.double_dragons()) as f64;
        let mut v = 0.0;
        for (dragon, n) in [(1u8, g.single_dragons()), (2u8, g.double_dragons())] {
            let start = Level {
                mine: 0,
                theirs: 0,
                dragon,
                singles: g.single_dragons() - u8::from(dragon == 1),
                doubles: g.double_dragons() - u8::from(dragon == 2),
            };
            if let Some(l) = self.levels.iter().position(|&x| x == start) {
                v += n as f64 / total * self.value(0, l, CENTRE, FULL, FULL);
            }
        }
        v
    }

    /// The best card for seat `me` in a running game's state `s` (before its own choice).
    pub fn best_move(&self, s: &State, me: usize) -> usize {
        let unrevealed = &s.pile[s.next_dragon as usize..s.pile_len as usize];
        let level = Level {
            mine: s.captured[me],
            theirs: s.captured[1 - me],
            dragon: s.dragon,
            singles: unrevealed.iter().filter(|&&d| d == 1).count() as u8,
            doubles: unrevealed.iter().filter(|&&d| d == 2).count() as u8,
        };
        let level = self.levels.iter().position(|&x| x == level);
        let side = if me == 0 {
            s.dragon_side
        } else {
            2 - s.dragon_side
        } as usize;
        let theirs = s.hands[1 - me] | s.pending.map_or(0, |c| 1 << c);
        let r = s.round as usize;
        self.best_card(
            r,
            level.expect("a reachable level"),
            side,
            s.hands[me],
            theirs,
        )
        .0
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
            let chance = opponent.chances(after_a.hands[1], s.hands[0]);
            let mut total = 0.0;
            for b in g.legal_actions(&after_a).iter() {
                let mut after_b = after_a;
                g.apply(&mut after_b, b);
                total += chance[b as usize]
                    * if after_b.next_dragon > s.next_dragon && !after_b.over {
                        drawn(g, opponent, s.next_dragon as usize, &after_b)
                    } else {
                        expectimax(g, opponent, &after_b)
                    };
            }
            best = best.max(total);
        }
        best
    }

    /// The mean of `expectimax` over each card that the dragon just revealed at `at` could
    /// have been, by how many of the cards then left show each value.
    fn drawn(g: &DuoRegna, opponent: Opponent, at: usize, s: &State) -> f64 {
        let left = at..s.pile_len as usize;
        let mut total = 0.0;
        for i in left.clone() {
            let mut t = *s;
            t.pile.swap(at, i);
            t.dragon = t.pile[at];
            total += expectimax(g, opponent, &t);
        }
        total / left.len() as f64
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
                        let chance = opponent.chances(s.hands[seat], mine);
                        let cards: Vec<usize> = (0..CARDS).filter(|&c| chance[c] > 0.0).collect();
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
