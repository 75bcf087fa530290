//! What the uniform planner's search ([`uniform`](super::uniform)) and its bottom-up tables
//! ([`uniform_tables`](super::uniform_tables)) both need to know beyond one hand: where a
//! capture leads ([`Then`]) and the [`Horizon`] that answers it.

use super::encoding::{Capture, Level};

/// What the search needs to know beyond one hand: where a capture leads, what the hands'
/// return is worth, and when the stalemate guard ends the game.
pub(super) trait Horizon {
    /// Where a capture by me (`by_me`) leads from `l`.
    fn capture(&self, l: Level, by_me: bool) -> Capture<Level>;
    /// What `l` is worth by the dragon's place where the hands are taken back.
    fn hand_end(&mut self, l: Level) -> [f64; 3];
    /// What `l` with the dragon at `side` is worth if the guard ends the game before
    /// round `round` (counted from 0), or `None` if the game goes on.
    fn guard(&self, l: Level, side: usize, round: u32) -> Option<f64>;
}

/// Where a capture leads, as [`Capture`] without allocating: at most two next levels.
#[derive(Clone, Copy)]
pub(super) enum Then {
    End(f64),
    Next([(f64, Level); 2], usize),
}

impl Then {
    /// Where `capture` leads.
    pub(super) fn of(capture: Capture<Level>) -> Self {
        match capture {
            Capture::End(v) => Then::End(v),
            Capture::Next(next) => {
                let mut out = [(0.0, Level::default()); 2];
                for (slot, &n) in out.iter_mut().zip(&next) {
                    *slot = n;
                }
                Then::Next(out, next.len().min(2))
            }
        }
    }
}
