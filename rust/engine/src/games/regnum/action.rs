//! What a Regnum action means, as `State.action_info` shows it; its `Display` is the
//! action's name.

use serde::Serialize;
use std::fmt;

/// One decoded action: resource cards by kind name (`"G"`, `"G/O"`, ...), characters by
/// name, line-up slots from 0 (the names count them from 1), seats by index.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RegnumAction {
    /// Draw two resource cards blind.
    DrawTwo,
    /// Take the discard pile's top card.
    TakeDiscard,
    /// Buy the character in a line-up slot.
    Buy {
        /// The line-up slot, from 0.
        slot: usize,
        /// The character there (`None`: the slot is empty).
        character: Option<String>,
    },
    /// Pay the current payment slot with a resource card as a colour.
    Pay {
        /// The resource card's kind.
        card: &'static str,
        /// The colour it pays as.
        colour: char,
        /// Whether it pays as a colour it does not show (a wildcard).
        wild: bool,
        /// Whether the card shows this colour only (its name then leaves the colour out).
        #[serde(skip)]
        single: bool,
    },
    /// Discard a resource card.
    Discard {
        /// The resource card's kind.
        card: &'static str,
    },
    /// End the turn.
    EndTurn,
    /// Steal a random resource card from a seat.
    Steal {
        /// The seat robbed.
        seat: usize,
    },
    /// Take a resource card from the discard pile.
    Salvage {
        /// The resource card's kind.
        card: &'static str,
    },
    /// Take a resource card from the deck (the first half of a swap).
    TakeFromDeck {
        /// The resource card's kind.
        card: &'static str,
    },
    /// Give a resource card to the deck (the second half of a swap).
    GiveToDeck {
        /// The resource card's kind.
        card: &'static str,
    },
    /// Exchange the character just bought for one in a realm.
    ExchangeFor {
        /// The character taken.
        character: String,
    },
    /// Remove a character from a realm.
    Remove {
        /// The character removed.
        character: String,
    },
    /// Name a character where no effect waits for one (never legal).
    Target {
        /// The character named.
        character: String,
    },
    /// A chance outcome (explicit chance): the castle a seat gets at the setup.
    Castle {
        /// The castle's name.
        castle: String,
        /// The seat that gets it.
        seat: usize,
    },
    /// A chance outcome: a standard put in play at the setup.
    Standard {
        /// The standard's name.
        standard: String,
    },
    /// A chance outcome: the character turned up into a line-up slot.
    Reveal {
        /// The character's name.
        character: String,
        /// The line-up slot, from 0.
        slot: usize,
    },
    /// A chance outcome: a blind resource card for a seat's hand (dealt or drawn).
    Blind {
        /// The resource card's kind.
        card: &'static str,
        /// The seat that gets it.
        seat: usize,
    },
    /// A chance outcome: the first card of the discard pile.
    FirstDiscard {
        /// The resource card's kind.
        card: &'static str,
    },
    /// A chance outcome: the card STEAL takes at random from a seat's hand.
    Stolen {
        /// The resource card's kind.
        card: &'static str,
        /// The seat robbed.
        seat: usize,
    },
}

impl fmt::Display for RegnumAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use RegnumAction::*;
        match self {
            DrawTwo => f.write_str("draw two"),
            TakeDiscard => f.write_str("take discard"),
            Buy {
                slot,
                character: None,
            } => write!(f, "buy slot {} (empty)", slot + 1),
            Buy {
                slot,
                character: Some(c),
            } => write!(f, "buy {c} (slot {})", slot + 1),
            Pay {
                card,
                colour,
                wild: true,
                ..
            } => write!(f, "pay {card} as {colour} (wild)"),
            Pay {
                card, single: true, ..
            } => write!(f, "pay {card}"),
            Pay { card, colour, .. } => write!(f, "pay {card} as {colour}"),
            Discard { card } => write!(f, "discard {card}"),
            EndTurn => f.write_str("end turn"),
            Steal { seat } => write!(f, "steal from seat {seat}"),
            Salvage { card } => write!(f, "salvage {card}"),
            TakeFromDeck { card } => write!(f, "take {card} from the deck"),
            GiveToDeck { card } => write!(f, "give {card} to the deck"),
            ExchangeFor { character } => write!(f, "exchange for {character}"),
            Remove { character } => write!(f, "remove {character}"),
            Target { character } => write!(f, "target {character}"),
            Castle { castle, seat } => write!(f, "give {castle} to seat {seat}"),
            Standard { standard } => write!(f, "put up standard {standard}"),
            Reveal { character, slot } => write!(f, "reveal {character} (slot {})", slot + 1),
            Blind { card, seat } => write!(f, "draw {card} for seat {seat}"),
            FirstDiscard { card } => write!(f, "turn up {card} onto the discard pile"),
            Stolen { card, seat } => write!(f, "steal {card} from seat {seat}"),
        }
    }
}
