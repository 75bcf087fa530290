//! Regine — build a four-card combination, bet on four Suits.
//!
//! Rules in ten lines: 40 cards (8 Jesters, 4 each of Peasant, Assassin, Courtesan, Herald,
//! Knight, Princess, 8 Queens); 4 dealt to each of 2–4 players. Phase 1, from the Dealer to the
//! left: on her turn a player may once exchange cards with the deck (or declare "no changes",
//! which locks exchanges until a Jester is played face up) and once play a card face up (its
//! effect applies) or face down, in either order, or pass; the phase ends when everyone passes
//! in a row, and hands go face down: everyone has 4 cards in front of her. Phase 2, for each
//! Suit (Queens, Jesters, Pairs, Game), from the Dealer to the right: pass, "mine" (one chip),
//! Double Down (answered by "all yours" / "we shall see"); a lone bettor wins at once. Phase 3:
//! each remaining Suit goes to the best combination among its bettors (or everybody). First to
//! 31 points (checked at round end) wins.
//!
//! Rulings applied (see `docs/rules/regine.md`): next Dealer to the left (`dealer_rotation`); Dealer-first seat
//! priority; ranks Queen > Knight = Princess > Herald > Courtesan > Assassin > Peasant > Jester;
//! a turn is a pass when nothing was exchanged or played; the discard pile is reshuffled when
//! the deck runs out; Peasant and Knight name only opponents holding a card; out-of-turn effects
//! are decided by the card's owner; unlimited chips, one Double Down per Suit. Ours (see
//! `docs/rules/regine.md`): exchanges mark cards in ascending order then confirm; Queens and
//! Jesters always have a winner; Pairs ties compare the combination then the other cards; the
//! stalemate guard `max_rounds`.
//!
//! Randomness, in order: each round shuffles all 40 cards (Fisher–Yates) and deals 4 from the
//! top to each seat from the Dealer's left; an empty deck is rebuilt from the discard pile
//! (cards in kind order, then shuffled); a Knight's victim loses `below(hand size)`-th card of
//! her hand in kind order. `determinize` shuffles the unseen cards once and deals them back to
//! the other hands, the others' face-down cards, the deck and the discard pile, in that order.
//!
//! Explicit chance (`chance = "explicit"`): nothing is shuffled. A card of the deck nobody has
//! seen is [`UNSEEN`] until it is drawn, and every random event is a chance node whose outcomes
//! are card kinds, each as likely as its share of the unseen cards (or of the victim's hand):
//! each card dealt or drawn ([`ChanceEvent::Draw`], the seat short of cards first from the
//! Dealer's left), the deck's top card a Herald looks at ([`ChanceEvent::HeraldTop`]) and the
//! card a Knight's victim loses ([`ChanceEvent::KnightLoss`]). A reshuffled deck is all unseen;
//! a card a Herald put at the bottom stays known and is drawn when its turn comes.

// Counts per kind and per seat are parallel arrays: index loops read best here.
#![allow(clippy::needless_range_loop)]

mod cards;
mod chance;
mod check;
mod observation;
mod policy;
mod rules;
mod scoring;
#[cfg(test)]
mod tests;

pub use cards::{
    bet_strength, suit_key, ASSASSIN, CARD_NAMES, COMBO, COPIES, COURTESAN, DECK, HERALD, JESTER,
    KINDS, KNIGHT, PEASANT, PRINCESS, QUEEN, RANK, SUITS, SUIT_MAX, SUIT_NAMES, UNSEEN, VALUE,
};
use cards::{hand_size, suit_points};

use crate::actions::{Action, ActionSet};
use crate::chance::{draw_from_counts, ChanceMode, CHANCE_CHOICES};
use crate::error::Result;
use crate::game::{
    lead_returns, seat_scores, uniform_action, winner_returns, Game, GameNames, Seat,
};
use crate::options::{declare_options, invalid, read, Allowed, Options};
use crate::outcome::Outcome;
use crate::rng::Rng;
use crate::tensor::{TensorOut, TensorWriter};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

// ---- Constants ----
/// Most seats.
pub const MAX_PLAYERS: usize = 4;
/// Most points one seat can win in a round (4 doubled chips on every Suit).
const MAX_ROUND_GAIN: u32 = 40;

/// What the current player decides, by decision index (see `decision`).
const DECISIONS: [&str; 11] = [
    "turn",
    "exchange",
    "peasant: name an opponent",
    "peasant: show a card",
    "assassin: eliminate a card",
    "courtesan: flip a face-down card",
    "herald: take the top card?",
    "knight: name an opponent",
    "princess: discard a card",
    "bet",
    "reply to the double down",
];

/// Action ids (`+ card`, `+ seat`, `+ 4 * seat + slot` where noted).
const PLAY_UP: Action = 0;
const PLAY_DOWN: Action = 8;
const MARK: Action = 16;
const CONFIRM_EXCHANGE: Action = 24;
const NO_CHANGES: Action = 25;
const END_TURN: Action = 26;
const PEASANT_SEAT: Action = 27;
const PEASANT_CARD: Action = 31;
const ASSASSIN_AT: Action = 39;
const COURTESAN_AT: Action = 55;
const HERALD_TAKE: Action = 71;
const HERALD_DECLINE: Action = 72;
const KNIGHT_SEAT: Action = 73;
const PRINCESS_CARD: Action = 77;
const BET_PASS: Action = 85;
const BET_MINE: Action = 86;
const DOUBLE_DOWN: Action = 87;
const ALL_YOURS: Action = 88;
const WE_SHALL_SEE: Action = 89;
/// Size of the action space.
pub const NUM_ACTIONS: usize = 90;

/// Floats per seat in the observation tensor.
const SEAT_BLOCK: usize = 2 + COMBO * (2 + KINDS) + 1 + 3 + 3 * SUITS;
/// Size of the observation tensor.
pub const TENSOR_SIZE: usize =
    3 * KINDS + MAX_PLAYERS * SEAT_BLOCK + 3 + DECISIONS.len() + 5 + 2 + SUITS + 1 + SUITS;

// ---- Options ----
/// Who deals the next round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rotation {
    /// The player to the Dealer's left.
    Left,
    /// The player to the Dealer's right.
    Right,
}

declare_options! {
    /// Regine's options.
    pub struct RegineOptions {
        players: usize = 4, Allowed::Integer { min: 2, max: MAX_PLAYERS as i64 }, "number of players";
        dealer_rotation: Rotation = Rotation::Left, Allowed::Choice(&["left", "right"]),
            "who deals next: 'left' (the rulings' default) or 'right' of the Dealer";
        target: u16 = 31, Allowed::Integer { min: 1, max: 1000 }, "points that end the game";
        max_rounds: u16 = 100, Allowed::Integer { min: 1, max: 10_000 },
            "stalemate guard: rounds before the game ends on points";
        deck: [u8; KINDS] = COPIES, Allowed::IntegerList { len: KINDS, min: 0, max: 8 },
            "copies of each card, Jester to Queen (a small deck: 4 cards a player to 40 in all)",
            saved_default = COPIES;
        suits: usize = SUITS, Allowed::Integer { min: 1, max: SUITS as i64 },
            "Suits played, in order (a short game: 1 plays Queens alone, 2 Queens and Jesters)",
            saved_default = SUITS;
        build_phase: bool = true, Allowed::Boolean,
            "play Phase 1 (building the hands); false: the hands go face down as dealt",
            saved_default = true;
        chance: ChanceMode = ChanceMode::Seeded, Allowed::Choice(CHANCE_CHOICES),
            "'seeded' (cards are shuffled from the seed) or 'explicit' (each card dealt or drawn, each card a Herald turns and each card a Knight takes is a chance node)",
            saved_default = ChanceMode::Seeded;
    }
}

/// The rules, with the options in force.
#[derive(Clone, Debug)]
pub struct Regine {
    /// The options in force.
    pub config: RegineOptions,
}

// ---- Cards and actions ----
/// What an action means, as `State.action_info` shows it: the decision it answers and
/// what it chooses (cards by name, seats and table slots by index). Every effect's decision
/// carries the `effect` (the card's name) it belongs to.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RegineAction {
    /// Play a card from hand to the table.
    Play {
        /// The card.
        card: &'static str,
        /// Face up (its effect fires) or face down.
        face_up: bool,
    },
    /// Mark a card of the hand to exchange.
    Exchange {
        /// The card.
        card: &'static str,
    },
    /// Exchange the marked cards with the deck.
    ConfirmExchange,
    /// Declare "there are no changes".
    NoChanges,
    /// End the turn.
    EndTurn,
    /// Name an opponent (Peasant, Knight).
    NameSeat {
        /// `"peasant"` or `"knight"`.
        effect: &'static str,
        /// The seat named.
        seat: usize,
    },
    /// Show a card of the hand face up (named by a Peasant).
    ShowCard {
        /// `"peasant"`.
        effect: &'static str,
        /// The card.
        card: &'static str,
    },
    /// Aim at a card on the table (Assassin: eliminate it; Courtesan: turn it face up).
    TargetCard {
        /// `"assassin"` or `"courtesan"`.
        effect: &'static str,
        /// Whose table.
        seat: usize,
        /// The slot of that seat's table.
        slot: usize,
    },
    /// Take the deck's top card, or put it at the bottom (Herald).
    Herald {
        /// `"herald"`.
        effect: &'static str,
        /// Take it (true) or put it at the bottom.
        take: bool,
    },
    /// Discard a card of the hand (Princess).
    Discard {
        /// `"princess"`.
        effect: &'static str,
        /// The card.
        card: &'static str,
    },
    /// Pass on the Suit bet on.
    Pass,
    /// Claim the Suit.
    Mine,
    /// Double the stakes of the Suit.
    DoubleDown,
    /// Leave the doubled Suit to the doubler.
    AllYours,
    /// Stay in the doubled Suit.
    WeShallSee,
    /// A chance outcome (explicit chance): a seat draws a card of this kind.
    Draw {
        /// The card.
        card: &'static str,
        /// The seat that draws it.
        seat: usize,
    },
    /// A chance outcome: the deck's top card, which the Herald's owner looks at.
    HeraldTop {
        /// The card.
        card: &'static str,
    },
    /// A chance outcome: the card the Knight's victim loses at random.
    KnightLoss {
        /// The card.
        card: &'static str,
        /// The victim.
        seat: usize,
    },
}

impl std::fmt::Display for RegineAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use RegineAction::*;
        match self {
            Play {
                card,
                face_up: true,
            } => write!(f, "play {card} face up"),
            Play { card, .. } => write!(f, "play {card} face down"),
            Exchange { card } => write!(f, "exchange {card}"),
            ConfirmExchange => f.write_str("confirm exchange"),
            NoChanges => f.write_str("there are no changes"),
            EndTurn => f.write_str("end turn"),
            NameSeat { effect, seat } => write!(f, "{effect}: seat {seat}"),
            ShowCard { effect, card } => write!(f, "{effect}: show {card}"),
            TargetCard { effect, seat, slot } => write!(f, "{effect}: seat {seat} slot {slot}"),
            Herald { effect, take: true } => write!(f, "{effect}: take the top card"),
            Herald { effect, .. } => write!(f, "{effect}: put it at the bottom"),
            Discard { effect, card } => write!(f, "{effect}: discard {card}"),
            Pass => f.write_str("pass"),
            Mine => f.write_str("mine"),
            DoubleDown => f.write_str("double down"),
            AllYours => f.write_str("all yours"),
            WeShallSee => f.write_str("we shall see"),
            Draw { card, seat } => write!(f, "draw {card} for seat {seat}"),
            HeraldTop { card } => write!(f, "the top card is {card}"),
            KnightLoss { card, seat } => write!(f, "seat {seat} loses {card}"),
        }
    }
}

// ---- State ----
coded_enum! {
    /// The part of the game being played.
    pub enum Phase {
        /// Phase 1: the players build their hands.
        Build,
        /// Phase 2: the bets on the Suits.
        Wager,
        /// The game is over.
        Over,
    }
}

impl Phase {
    /// The name observations give the phase.
    fn name(self) -> &'static str {
        match self {
            Phase::Build => "build",
            Phase::Wager => "wager",
            Phase::Over => "over",
        }
    }
}

coded_enum! {
    /// The card effect waiting for a decision in Phase 1 (made by `effect_seat`).
    pub enum Effect {
        /// None.
        Nothing,
        /// The Peasant's owner names an opponent.
        PeasantName,
        /// The named opponent shows a card face up.
        PeasantShow,
        /// The Assassin's owner eliminates a card on the table.
        AssassinTarget,
        /// The Courtesan's owner turns a face-down card up.
        CourtesanTarget,
        /// The Herald's owner takes the top card or puts it at the bottom.
        HeraldChoice,
        /// The Knight's owner names an opponent.
        KnightName,
        /// The Princess's owner discards a card.
        PrincessDiscard,
        /// The Knight's victim (`effect_seat`) loses a card at random (explicit chance).
        KnightDiscard,
    }
}

/// What a chance node decides (explicit chance), see [`Regine::chance_event`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChanceEvent {
    /// The card this seat draws (the deal, an exchange, a card replaced).
    Draw(u8),
    /// The deck's top card, which the Herald's owner looks at.
    HeraldTop,
    /// The card this seat, named by a Knight, loses.
    KnightLoss(u8),
}

/// Saves the 40-card deck as a JSON list (serde's arrays stop at 32).
mod deck_serde {
    use super::DECK;
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(deck: &[u8; DECK], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(deck.iter())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u8; DECK], D::Error> {
        let v = Vec::<u8>::deserialize(d)?;
        v.try_into()
            .map_err(|_| D::Error::custom("the deck must be a list of 40 entries"))
    }
}

/// The whole game state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The game's generator.
    pub rng: Rng,
    /// The deck, bottom first: the top card is `deck[deck_len - 1]`; the rest is 0 (explicit
    /// chance: a card not drawn yet is [`UNSEEN`]).
    #[serde(with = "deck_serde")]
    pub deck: [u8; DECK],
    /// Cards in the deck.
    pub deck_len: u8,
    /// The face-down discard pile, as counts per kind.
    pub discard: [u8; KINDS],
    /// Each seat's hand, as counts per kind.
    pub hands: [[u8; KINDS]; MAX_PLAYERS],
    /// Each seat's cards on the table, in the order played (entries past `table_len` are 0).
    pub table: [[u8; COMBO]; MAX_PLAYERS],
    /// Cards each seat has on the table.
    pub table_len: [u8; MAX_PLAYERS],
    /// Bit `j`: seat's table card `j` lies face up.
    pub face_up: [u8; MAX_PLAYERS],
    /// Cards the turn's player has marked for an exchange (counts per kind).
    pub marked: [u8; KINDS],
    /// Points.
    pub scores: [u16; MAX_PLAYERS],
    /// Rounds completed.
    pub round: u16,
    /// This round's Dealer.
    pub dealer: u8,
    /// The part of the game being played.
    pub phase: Phase,
    /// Whose turn it is (Phase 1) or whose bet (Phase 2).
    pub turn: u8,
    /// "There are no changes" is in force.
    pub no_changes: bool,
    /// The turn's player has exchanged or declared "no changes" this turn.
    pub changed: bool,
    /// The turn's player has exchanged this turn.
    pub exchanged: bool,
    /// The turn's player has played a card this turn.
    pub played: bool,
    /// Consecutive passes (Phase 1 turns, or bets on the current Suit).
    pub passes: u8,
    /// The pending card effect.
    pub effect: Effect,
    /// Who decides the pending effect.
    pub effect_seat: u8,
    /// The table slot of the card whose effect is pending (used by the Herald).
    pub effect_slot: u8,
    /// The Suit being bet on.
    pub suit: u8,
    /// Bets taken on the current Suit so far (capped at the number of seats).
    pub suit_turns: u8,
    /// Seats with a chip on each Suit (bit masks).
    pub bets: [u8; SUITS],
    /// Who Doubled Down on each Suit.
    pub doubled: [Option<u8>; SUITS],
    /// Who won each Suit (this round's automatic wins during Phase 2, else the last round's).
    pub won: [Option<u8>; SUITS],
    /// Points the winner of each Suit took.
    pub gain: [u8; SUITS],
    /// Each seat's combination at the end of the last round, sorted (zeros before round 1).
    pub last_cards: [[u8; COMBO]; MAX_PLAYERS],
}

impl Game for Regine {
    type State = State;
    type ActionInfo = RegineAction;
    type Config = RegineOptions;

    const NAMES: GameNames = GameNames {
        name: "regine",
        title: "Regine",
        aliases: &[],
    };

    // ---- Options ----
    fn from_options(options: &Options) -> Result<Self> {
        let config: RegineOptions = read(Self::NAMES.name, options)?;
        let cards: usize = config.deck.iter().map(|&c| c as usize).sum();
        if !(COMBO * config.players..=DECK).contains(&cards) {
            return Err(invalid(
                Self::NAMES.name,
                "deck",
                &format!(
                    "must hold 4 cards a player ({}) to {DECK} in all, not {cards}",
                    COMBO * config.players
                ),
            ));
        }
        Ok(Regine { config })
    }

    fn config(&self) -> &RegineOptions {
        &self.config
    }

    // ---- Cards and actions ----
    fn num_actions(&self) -> usize {
        NUM_ACTIONS
    }

    fn action_info(&self, s: &State, action: Action) -> RegineAction {
        use RegineAction::*;
        let card = |base: Action| CARD_NAMES[(action - base) as usize];
        if let Some(event) = self.chance_event(s).filter(|_| action < KINDS as Action) {
            let card = card(0);
            return match event {
                ChanceEvent::Draw(seat) => Draw {
                    card,
                    seat: seat as usize,
                },
                ChanceEvent::HeraldTop => HeraldTop { card },
                ChanceEvent::KnightLoss(seat) => KnightLoss {
                    card,
                    seat: seat as usize,
                },
            };
        }
        let effect = |kind: u8| CARD_NAMES[kind as usize];
        let name_seat = |kind: u8, base: Action| NameSeat {
            effect: effect(kind),
            seat: (action - base) as usize,
        };
        let target = |kind: u8, base: Action| TargetCard {
            effect: effect(kind),
            seat: (action - base) as usize / 4,
            slot: (action - base) as usize % 4,
        };
        match action {
            PLAY_UP..PLAY_DOWN => Play {
                card: card(PLAY_UP),
                face_up: true,
            },
            PLAY_DOWN..MARK => Play {
                card: card(PLAY_DOWN),
                face_up: false,
            },
            MARK..CONFIRM_EXCHANGE => Exchange { card: card(MARK) },
            CONFIRM_EXCHANGE => ConfirmExchange,
            NO_CHANGES => NoChanges,
            END_TURN => EndTurn,
            PEASANT_SEAT..PEASANT_CARD => name_seat(PEASANT, PEASANT_SEAT),
            PEASANT_CARD..ASSASSIN_AT => ShowCard {
                effect: effect(PEASANT),
                card: card(PEASANT_CARD),
            },
            ASSASSIN_AT..COURTESAN_AT => target(ASSASSIN, ASSASSIN_AT),
            COURTESAN_AT..HERALD_TAKE => target(COURTESAN, COURTESAN_AT),
            HERALD_TAKE | HERALD_DECLINE => Herald {
                effect: effect(HERALD),
                take: action == HERALD_TAKE,
            },
            KNIGHT_SEAT..PRINCESS_CARD => name_seat(KNIGHT, KNIGHT_SEAT),
            PRINCESS_CARD..BET_PASS => Discard {
                effect: effect(PRINCESS),
                card: card(PRINCESS_CARD),
            },
            BET_PASS => Pass,
            BET_MINE => Mine,
            DOUBLE_DOWN => DoubleDown,
            ALL_YOURS => AllYours,
            // The last id (the caller has checked that `action` is in range).
            WE_SHALL_SEE.. => WeShallSee,
        }
    }

    // ---- Setup ----
    fn new_state(&self, rng: Rng) -> State {
        let mut s = State {
            rng,
            deck: [0; DECK],
            deck_len: 0,
            discard: [0; KINDS],
            hands: [[0; KINDS]; MAX_PLAYERS],
            table: [[0; COMBO]; MAX_PLAYERS],
            table_len: [0; MAX_PLAYERS],
            face_up: [0; MAX_PLAYERS],
            marked: [0; KINDS],
            scores: [0; MAX_PLAYERS],
            round: 0,
            dealer: 0,
            phase: Phase::Build,
            turn: 0,
            no_changes: false,
            changed: false,
            exchanged: false,
            played: false,
            passes: 0,
            effect: Effect::Nothing,
            effect_seat: 0,
            effect_slot: 0,
            suit: 0,
            suit_turns: 0,
            bets: [0; SUITS],
            doubled: [None; SUITS],
            won: [None; SUITS],
            gain: [0; SUITS],
            last_cards: [[0; COMBO]; MAX_PLAYERS],
        };
        self.deal(&mut s);
        s
    }

    // ---- Legal moves ----
    fn current_player(&self, s: &State) -> Option<Seat> {
        match s.phase {
            Phase::Over => None,
            _ if self.is_chance_node(s) => None,
            Phase::Build if s.effect != Effect::Nothing => Some(s.effect_seat as usize),
            _ => Some(s.turn as usize),
        }
    }

    fn is_chance_node(&self, s: &State) -> bool {
        self.chance_event(s).is_some()
    }

    fn chance_outcomes(&self, s: &State) -> Vec<(Action, f64)> {
        match self.chance_event(s) {
            Some(event) => {
                let counts = self.outcome_counts(s, event);
                draw_from_counts((0..KINDS).map(|k| (k as Action, counts[k] as u32)))
            }
            None => Vec::new(),
        }
    }

    fn explicit_chance(&self) -> bool {
        self.explicit()
    }

    fn legal_actions(&self, s: &State) -> ActionSet {
        let mut out = ActionSet::new();
        if let Some(event) = self.chance_event(s) {
            let counts = self.outcome_counts(s, event);
            for kind in (0..KINDS).filter(|&k| counts[k] > 0) {
                out.insert(kind as Action);
            }
            return out;
        }
        match s.phase {
            Phase::Build => self.legal_build(s, &mut out),
            Phase::Wager => {
                let p = s.turn;
                if s.doubled[s.suit as usize].is_some() {
                    out.insert(ALL_YOURS);
                    out.insert(WE_SHALL_SEE);
                } else {
                    out.insert(BET_PASS);
                    if s.bets[s.suit as usize] & (1 << p) == 0 {
                        out.insert(BET_MINE);
                    } else if s.suit_turns >= self.n() {
                        out.insert(DOUBLE_DOWN);
                    }
                }
            }
            _ => {}
        }
        out
    }

    // ---- Apply ----
    fn apply(&self, s: &mut State, action: Action) {
        if let Some(event) = self.chance_event(s) {
            self.apply_chance(s, event, action as u8);
        } else if s.phase == Phase::Build {
            self.apply_build(s, action);
        } else {
            self.apply_wager(s, action);
        }
    }

    // ---- Scoring ----
    fn returns(&self, s: &State) -> Vec<f64> {
        if s.phase != Phase::Over {
            return vec![0.0; self.config.players];
        }
        let w = self.winner(s) as usize;
        let winners: Vec<bool> = (0..self.config.players).map(|k| k == w).collect();
        winner_returns(&winners)
    }

    fn scores(&self, s: &State) -> Vec<i64> {
        seat_scores(&s.scores, self.config.players)
    }

    /// `"target_reached"` (a seat has `target` points at the end of a round) or
    /// `"round_guard"` (`max_rounds` rounds); most points wins, and `"nearest_dealer"` breaks
    /// a tie: the last Dealer, then the seats to her left in order.
    fn outcome(&self, s: &State) -> Option<Outcome> {
        if s.phase != Phase::Over {
            return None;
        }
        let scores = self.scores(s);
        let top = scores.iter().copied().max().unwrap_or(0);
        let reason = if top >= i64::from(self.config.target) {
            "target_reached"
        } else {
            "round_guard"
        };
        let tied = scores.iter().filter(|&&x| x == top).count() > 1;
        let winner = Some(self.winner(s) as Seat);
        Some(Outcome::single(
            reason,
            scores,
            winner,
            tied.then_some("nearest_dealer"),
        ))
    }

    // ---- Observation ----
    fn observation_shape(&self) -> Vec<usize> {
        vec![TENSOR_SIZE]
    }

    fn observation(&self, s: &State, seat: Seat) -> Value {
        self.observation_value(s, seat)
    }

    fn write_observation<O: TensorOut + ?Sized>(&self, s: &State, seat: Seat, out: &mut O) {
        self.write_observation_tensor(s, seat, out)
    }

    fn determinize(&self, s: &State, seat: Seat, rng: &mut Rng) -> State {
        self.determinized(s, seat, rng)
    }

    // ---- Checks ----
    fn check_state(&self, s: &State) -> std::result::Result<(), String> {
        check::check(self, s)
    }

    // ---- Search policy ----
    /// Rollouts play like the rule-based player where it matters most, with a random move one
    /// time in four: in the building phase exchange the cards that fit nothing, then declare
    /// "no changes" (playing no card: the rollout settles the hands soon), claim every Suit,
    /// double down with a very strong combination and stay after a Double Down with a fair one.
    fn rollout_action(&self, s: &State, legal: &ActionSet, rng: &mut Rng) -> Action {
        self.rollout_move(s, legal, rng)
    }

    /// Rollouts stop once a round has been scored: the seats' point leads (over a quarter of
    /// the target) estimate the returns.
    fn rollout_cutoff(&self, from: &State, s: &State) -> Option<Vec<f64>> {
        (s.round > from.round)
            .then(|| lead_returns(&self.scores(s), self.config.target as f64 / 4.0))
    }
}
