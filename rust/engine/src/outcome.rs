//! How a finished game ended (its "end report"): why it ended, who won, the final points and
//! the tie-break that decided, if any. Each game states it once ([`crate::Game::outcome`]);
//! it is made only when asked, never on a step.
//!
//! Everything in it is public once the game is over: the reason and the winners follow from
//! the final scores and what every seat sees of the board, so showing it to any seat reveals
//! nothing hidden.

use crate::game::Seat;
use serde::Serialize;

/// The end report of a finished game.
///
/// `winners` lists the seats that won, in seat order: one, several on a shared win, and none on
/// a draw; a win every seat shares is a draw (so `winners` is empty exactly when every
/// seat's return is zero, and otherwise holds exactly the seats with a positive return).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// Why the game ended: a short identifier, stable, stated per game in its rules page
    /// (e.g. `"target_reached"`, `"round_guard"`).
    pub reason: &'static str,
    /// The seats that won, ascending (empty: a draw).
    pub winners: Vec<Seat>,
    /// Each seat's final game points, the same as [`crate::Game::scores`].
    pub scores: Vec<i64>,
    /// The tie-break that decided between seats level on points (e.g. `"inhabitants"`),
    /// `None` when the points alone decided or nothing could (a draw, a shared win).
    pub tie_break: Option<&'static str>,
}

impl Outcome {
    /// The report of a game that ended for `reason` with `scores`, won by the seats flagged in
    /// `won` (all of them or none: a draw), decided by `tie_break`.
    pub fn new(
        reason: &'static str,
        scores: Vec<i64>,
        won: &[bool],
        tie_break: Option<&'static str>,
    ) -> Outcome {
        let winners: Vec<Seat> = (0..won.len()).filter(|&k| won[k]).collect();
        let draw = winners.len() == won.len();
        Outcome {
            reason,
            winners: if draw { Vec::new() } else { winners },
            scores,
            tie_break,
        }
    }

    /// The report of a game won by `winner` alone, or drawn (`None`).
    pub fn single(
        reason: &'static str,
        scores: Vec<i64>,
        winner: Option<Seat>,
        tie_break: Option<&'static str>,
    ) -> Outcome {
        let won: Vec<bool> = (0..scores.len()).map(|k| Some(k) == winner).collect();
        Outcome::new(reason, scores, &won, tie_break)
    }
}

/// Which seats have the highest of `keys` (compared whole, e.g. `(points, inhabitants)`).
pub fn best_of<K: Ord + Copy>(keys: &[K]) -> Vec<bool> {
    match keys.iter().max() {
        Some(best) => keys.iter().map(|k| k == best).collect(),
        None => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::{best_of, Outcome};

    #[test]
    fn every_seat_winning_is_a_draw() {
        let draw = Outcome::new("round_guard", vec![3, 3], &[true, true], None);
        assert!(draw.winners.is_empty());
        let shared = Outcome::new("round_guard", vec![3, 3, 1], &[true, true, false], None);
        assert_eq!(shared.winners, vec![0, 1]);
        let one = Outcome::single("target_reached", vec![2, 9], Some(1), None);
        assert_eq!(one.winners, vec![1]);
        assert!(Outcome::single("board_full", vec![2, 2], None, None)
            .winners
            .is_empty());
    }

    #[test]
    fn best_of_flags_every_seat_with_the_highest_key() {
        assert_eq!(best_of(&[(3, 1), (3, 2), (1, 9)]), vec![false, true, false]);
        assert_eq!(best_of(&[4, 4, 1]), vec![true, true, false]);
        assert!(best_of::<i64>(&[]).is_empty());
    }
}
