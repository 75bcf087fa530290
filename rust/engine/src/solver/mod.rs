//! Games solved exactly: equilibrium strategies computed ahead, instead of searched.
//!
//! [`matrix_game`] solves small two-player zero-sum matrix games (the generic part);
//! [`duo_regna`] solves Duo Regna, a simultaneous-move game whose state is public, by
//! backward induction over its states with one matrix game per state.

pub mod duo_regna;
pub mod matrix_game;
