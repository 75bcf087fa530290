//! Bounds on the length of Regnum's histories (they size the information-state tensor that
//! keeps a seat's whole record, [`crate::recall::whole_record_slots`]).
//!
//! A turn is one draw (two blind cards, or the discard's top card), then purchases, then the
//! turn's end. The line-up holds [`LINEUP`] characters and is refilled only when a turn ends
//! (CLEAR empties it; EXCHANGE gives the bought character to another realm, not to the
//! line-up), so a turn buys [`LINEUP`] characters at most. A purchase is the buy, one payment
//! a slot of the character's cost, and what its effect asks for, one effect a character: TAX
//! a discard from each other seat, SWAP a card taken and one given, DRAW2 a discard, STEAL,
//! SALVAGE, EXCHANGE and REMOVE a choice each, CLEAR and DRAW1 none. The turn then ends with
//! "end turn", or, with nothing bought, with the discard that ends it. No advantage adds a
//! move (Riverford adds a blind card to the draw, Goldmint changes how a card pays). The game
//! stops after `max_turns` turns at the latest.

use super::{Regnum, HAND_START, LINEUP};

impl Regnum {
    /// Chance nodes of a turn (explicit chance) at most: two blind cards at its draw (or the
    /// Riverford card), two at most for each purchase's effect (DRAW2; DRAW1 and the card
    /// STEAL takes are one), and the refill of the line-up.
    pub const TURN_CHANCE: usize = 2 + 2 * LINEUP + LINEUP;

    /// The most payment slots of a character of the card set.
    fn most_slots(&self) -> usize {
        self.cards
            .characters
            .iter()
            .map(|c| c.slots.len())
            .max()
            .unwrap_or(0)
    }

    /// Moves of all the seats in one turn at most: the draw, [`LINEUP`] purchases of a buy,
    /// the payments and the most moves an effect asks for (TAX: one a seat but the active
    /// one; SWAP: two), and the turn's end.
    pub fn turn_moves(&self) -> usize {
        let effect = (self.config.players - 1).max(2);
        2 + LINEUP * (1 + self.most_slots() + effect)
    }

    /// Moves of the active seat in one turn at most: as [`Regnum::turn_moves`], with at most
    /// two moves of her own for an effect (SWAP; TAX's discards are the others').
    pub fn own_turn_moves(&self) -> usize {
        2 + LINEUP * (1 + self.most_slots() + 2)
    }

    /// Chance nodes of the setup (explicit chance): a castle a seat, `players + 1`
    /// standards, the line-up, `HAND_START` (4) cards a seat, and the discard pile's first card.
    pub fn setup_chance(&self) -> usize {
        let n = self.config.players;
        n + (n + 1) + LINEUP + n * HAND_START + 1
    }
}
