//! How often a way of playing wins against another, computed exactly: the same backward walk
//! over the public state as the solve, through the real stalemate guard, with each player's
//! card chosen by its own rule. Against the solver's strategy, the best response measures
//! how much that strategy can be exploited.

use super::encoding::{copies, guard_return, hand_size, kinds, without, CENTRE, FULL, KINDS};
use super::{Horizon, Solver, HAND};
use crate::error::{Error, Result};
use crate::games::duo_regna::CARDS;

/// What a game's end is worth, for [`Solver::evaluate`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// 1 for a win, 0 for a draw or a loss: the result is a win probability.
    Wins,
    /// The return: +1, 0 or -1 (what the solver maximises).
    Returns,
}

/// A way to choose cards, for [`Solver::evaluate`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// The solver's equilibrium strategy, exactly as [`Solver::policy`] plays it.
    Solver,
    /// Uniformly at random among the cards in hand (the `random` agent).
    Uniform,
    /// The best response to the other player, who knows its strategy (only for `me`).
    Best,
    /// Always the first card in hand (X, 0, 1, .., 6): a fixed order.
    First,
    /// Always the last card in hand (6, 5, .., X): the reverse order.
    Last,
}

impl Solver {
    /// What `me` scores on average against `them` from the start of a game (over the first
    /// dragon). Both seats are alike: every player here chooses from the public state only.
    /// `(Best, Solver)` is the most any player can get against the solver;
    /// `progress(done, total)` is called after each level of each hand, and the walk stops
    /// (`None`) when it returns `false`.
    pub fn evaluate(
        &self,
        me: Player,
        them: Player,
        score: Score,
        progress: &mut dyn FnMut(usize, usize) -> bool,
    ) -> Result<Option<f64>> {
        if them == Player::Best {
            return Err(Error::InvalidArgument(
                "only the first player can be the best response".into(),
            ));
        }
        let rounds = self.game.config.max_rounds;
        let (n, size) = (self.levels.len(), self.pairs.len());
        let full = self.pairs.index(FULL, FULL);
        let mut values = vec![0.0; n * 3 * size];
        let mut next_hand = vec![0.0; n * 3];
        // A stationary table plays the same strategy in every hand: solved once, kept.
        let mut kept: Vec<[f64; KINDS]> = match self.horizon {
            Horizon::Stationary => vec![[f64::NAN; KINDS]; n * 3 * size],
            Horizon::Exact { .. } => Vec::new(),
        };
        let hands = rounds.div_ceil(HAND) as usize;
        let win = |ret: f64| match score {
            Score::Wins => f64::from(u8::from(ret > 0.0)),
            Score::Returns => ret,
        };
        // The value after each outcome of a round, by the hands left: for this walk, and
        // from the solver's table for my side and for theirs.
        let mut after: [Vec<f64>; 3] = Default::default();
        let mut mine_after: [Vec<f64>; 3] = Default::default();
        let mut their_after: [Vec<f64>; 3] = Default::default();
        for (done, hand) in (0..hands).rev().enumerate() {
            for l in 0..n {
                for k in 1..=CARDS {
                    let r = Self::round_of(hand, k);
                    if r >= rounds {
                        continue;
                    }
                    for side in 0..3 {
                        // What each outcome is worth to me, by the hands left.
                        let value = |l2: usize, s2: usize, m: u16, t: u16| {
                            if r + 1 >= rounds {
                                win(guard_return(self.levels[l2], s2))
                            } else if m == 0 {
                                next_hand[l2 * 3 + s2]
                            } else {
                                values[(l2 * 3 + s2) * size + self.pairs.index(m, t)]
                            }
                        };
                        self.fill_after(l, side, k, &mut after, win, value);
                        let unsolved = |l2: usize, s2: usize| {
                            kept.get((l2 * 3 + s2) * size + self.pairs.start(k))
                                .is_none_or(|p| p[0].is_nan())
                        };
                        if me == Player::Solver && unsolved(l, side) {
                            self.after_tables(r, l, side, k, &mut mine_after);
                        }
                        if them == Player::Solver && unsolved(self.mirror[l], 2 - side) {
                            self.after_tables(r, self.mirror[l], 2 - side, k, &mut their_after);
                        }
                        for &mine in self.pairs.hands(k) {
                            for &theirs in self.pairs.hands(k) {
                                let mut strategy =
                                    |tables: &[Vec<f64>; 3],
                                     l2: usize,
                                     s2: usize,
                                     a: u16,
                                     b: u16| {
                                        let at = (l2 * 3 + s2) * size + self.pairs.index(a, b);
                                        if let Some(p) = kept.get(at).filter(|p| !p[0].is_nan()) {
                                            return *p;
                                        }
                                        let p = self.game_from(tables, k, a, b).solve().row;
                                        if let Some(slot) = kept.get_mut(at) {
                                            *slot = p;
                                        }
                                        p
                                    };
                                let theirs_play = match them {
                                    Player::Solver => strategy(
                                        &their_after,
                                        self.mirror[l],
                                        2 - side,
                                        theirs,
                                        mine,
                                    ),
                                    other => fixed(other, theirs),
                                };
                                let mine_play = match me {
                                    Player::Solver => strategy(&mine_after, l, side, mine, theirs),
                                    other => fixed(other, mine),
                                };
                                let (rows, cols) = (kinds(mine), kinds(theirs));
                                let mean: [f64; KINDS] = std::array::from_fn(|i| {
                                    if i >= rows.1 {
                                        return 0.0;
                                    }
                                    let (a, m) = (rows.0[i], without(mine, rows.0[i]));
                                    (0..cols.1)
                                        .map(|j| {
                                            let b = cols.0[j];
                                            let o = self.outcomes[a][b] as usize;
                                            theirs_play[j]
                                                * after[o]
                                                    [self.next_index(k, m, without(theirs, b))]
                                        })
                                        .sum()
                                });
                                let v = match me {
                                    Player::Best => mean[..rows.1]
                                        .iter()
                                        .copied()
                                        .fold(f64::NEG_INFINITY, f64::max),
                                    _ => (0..rows.1).map(|i| mine_play[i] * mean[i]).sum(),
                                };
                                values[(l * 3 + side) * size + self.pairs.index(mine, theirs)] = v;
                            }
                        }
                    }
                }
                if !progress(done * n + l + 1, hands * n) {
                    return Ok(None);
                }
            }
            for (i, v) in next_hand.iter_mut().enumerate() {
                *v = values[i * size + full];
            }
        }
        Ok(Some(self.over_first_dragon(|l| next_hand[l * 3 + CENTRE])))
    }
}

/// The chance of each kind of a hand (in `kinds` order) for a player who ignores the game.
fn fixed(player: Player, hand: u16) -> [f64; KINDS] {
    let mut p = [0.0; KINDS];
    match player {
        Player::First => p[0] = 1.0,
        Player::Last => p[kinds(hand).1 - 1] = 1.0,
        _ => p = uniform(hand),
    }
    p
}

/// The chance of each kind of a hand (in `kinds` order) when a card is drawn uniformly.
fn uniform(hand: u16) -> [f64; KINDS] {
    let (ks, n) = kinds(hand);
    let size = hand_size(hand) as f64;
    let mut p = [0.0; KINDS];
    for (i, &k) in ks[..n].iter().enumerate() {
        p[i] = copies(hand, k) as f64 / size;
    }
    p
}
