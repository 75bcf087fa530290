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

use crate::actions::{Action, ActionSet};
use crate::chance::{draw_from_counts, ChanceMode, CHANCE_CHOICES};
use crate::error::Result;
use crate::game::{lead_returns, uniform_action, winner_returns, Game, GameNames, Seat};
use crate::options::{declare_options, invalid, read, Allowed, Options};
use crate::rng::Rng;
use crate::tensor::TensorWriter;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

// ---- Constants ----
/// Most seats.
pub const MAX_PLAYERS: usize = 4;
/// Kinds of cards.
pub const KINDS: usize = 8;
/// Cards in the game.
pub const DECK: usize = 40;
/// Cards in each player's combination.
pub const COMBO: usize = 4;
/// Number of Suits.
pub const SUITS: usize = 4;

/// Card kinds, in rank order (Knight and Princess rank equal).
pub const JESTER: u8 = 0;
/// A Peasant.
pub const PEASANT: u8 = 1;
/// An Assassin.
pub const ASSASSIN: u8 = 2;
/// A Courtesan.
pub const COURTESAN: u8 = 3;
/// A Herald.
pub const HERALD: u8 = 4;
/// A Knight.
pub const KNIGHT: u8 = 5;
/// A Princess.
pub const PRINCESS: u8 = 6;
/// A Queen.
pub const QUEEN: u8 = 7;
/// Names of the card kinds.
pub const CARD_NAMES: [&str; KINDS] = [
    "jester",
    "peasant",
    "assassin",
    "courtesan",
    "herald",
    "knight",
    "princess",
    "queen",
];
/// Copies of each kind.
pub const COPIES: [u8; KINDS] = [8, 4, 4, 4, 4, 4, 4, 8];
/// Rank of each kind for every comparison.
pub const RANK: [u8; KINDS] = [0, 1, 2, 3, 4, 5, 5, 6];
/// Value of each kind for the Game Suit.
pub const VALUE: [u8; KINDS] = [1, 4, 5, 6, 7, 10, 10, 10];
/// A deck entry nobody has seen yet (explicit chance): its kind is drawn at a chance node.
pub const UNSEEN: u8 = KINDS as u8;
/// Names of the Suits, in the order they are bet on and resolved.
pub const SUIT_NAMES: [&str; SUITS] = ["queens", "jesters", "pairs", "game"];
/// The most a Suit card is worth (what an automatic win pays, plus the chip).
pub const SUIT_MAX: [u8; SUITS] = [1, 1, 2, 2];
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

/// Cards in a set of counts (wrapping, never panicking, on a corrupt state).
fn hand_size(hand: &[u8; KINDS]) -> u8 {
    hand.iter().fold(0u8, |a, &c| a.wrapping_add(c))
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
        let seat = |base: Action| (action - base) as usize;
        let at = |base: Action| ((action - base) as usize / 4, (action - base) as usize % 4);
        let effect = |kind: u8| CARD_NAMES[kind as usize];
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
            PEASANT_SEAT..PEASANT_CARD => NameSeat {
                effect: effect(PEASANT),
                seat: seat(PEASANT_SEAT),
            },
            PEASANT_CARD..ASSASSIN_AT => ShowCard {
                effect: effect(PEASANT),
                card: card(PEASANT_CARD),
            },
            ASSASSIN_AT..COURTESAN_AT => {
                let (seat, slot) = at(ASSASSIN_AT);
                TargetCard {
                    effect: effect(ASSASSIN),
                    seat,
                    slot,
                }
            }
            COURTESAN_AT..HERALD_TAKE => {
                let (seat, slot) = at(COURTESAN_AT);
                TargetCard {
                    effect: effect(COURTESAN),
                    seat,
                    slot,
                }
            }
            HERALD_TAKE | HERALD_DECLINE => Herald {
                effect: effect(HERALD),
                take: action == HERALD_TAKE,
            },
            KNIGHT_SEAT..PRINCESS_CARD => NameSeat {
                effect: effect(KNIGHT),
                seat: seat(KNIGHT_SEAT),
            },
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
        s.scores[..self.config.players]
            .iter()
            .map(|&x| x as i64)
            .collect()
    }

    // ---- Observation ----
    fn observation_shape(&self) -> Vec<usize> {
        vec![TENSOR_SIZE]
    }

    fn observation(&self, s: &State, seat: Seat) -> Value {
        let n = self.config.players;
        let names = |counts: &[u8; KINDS]| -> Vec<&str> {
            (0..KINDS)
                .flat_map(|k| std::iter::repeat_n(CARD_NAMES[k], counts[k] as usize))
                .collect()
        };
        let table: Vec<Vec<Value>> = (0..n)
            .map(|k| {
                (0..s.table_len[k] as usize)
                    .map(|j| {
                        let card = self
                            .sees(s, seat, k, j)
                            .then(|| CARD_NAMES[s.table[k][j] as usize]);
                        json!({"card": card, "face_up": s.face_up[k] & (1 << j) != 0})
                    })
                    .collect()
            })
            .collect();
        let seats_in =
            |mask: u8| -> Vec<usize> { (0..n).filter(|&k| mask & (1 << k) != 0).collect() };
        let last = (s.round > 0).then(|| {
            (0..n)
                .map(|k| s.last_cards[k].map(|c| CARD_NAMES[c as usize]).to_vec())
                .collect::<Vec<_>>()
        });
        let wager = s.phase == Phase::Wager;
        json!({
            "seat": seat,
            "current_player": self.current_player(s),
            "phase": s.phase.name(),
            "decision": self.decision(s).map(|d| DECISIONS[d]),
            "round": s.round,
            "dealer": s.dealer,
            "turn": (s.phase != Phase::Over).then_some(s.turn),
            "scores": &s.scores[..n],
            "target": self.config.target,
            "hand": names(&s.hands[seat]),
            "hand_sizes": (0..n).map(|k| hand_size(&s.hands[k])).collect::<Vec<_>>(),
            "table": table,
            "deck_size": s.deck_len,
            "discard_size": hand_size(&s.discard),
            "no_changes": s.no_changes,
            "changed": s.changed,
            "exchanged": s.exchanged,
            "played": s.played,
            "passes": s.passes,
            "marked": names(&self.marked_for(s, seat)),
            "marked_count": hand_size(&s.marked),
            "herald_card": self.herald_card_for(s, seat).map(|c| CARD_NAMES[c as usize]),
            "suit": wager.then(|| SUIT_NAMES[s.suit as usize]),
            "suit_turns": s.suit_turns,
            "bets": s.bets.map(seats_in),
            "double_down": s.doubled,
            "suit_winners": s.won,
            "suit_points": s.gain,
            "last_combinations": last,
            "terminal": s.phase == Phase::Over,
        })
    }

    fn observation_tensor(&self, s: &State, seat: Seat, out: &mut [f32]) {
        let n = self.config.players;
        let mut w = TensorWriter::new(out);
        for &c in &s.hands[seat] {
            w.scalar(c as f32);
        }
        for &c in &self.marked_for(s, seat) {
            w.scalar(c as f32);
        }
        w.one_hot(KINDS, self.herald_card_for(s, seat).map(|c| c as usize));
        let current = self.current_player(s);
        for k in 0..MAX_PLAYERS {
            if k >= n {
                for _ in 0..SEAT_BLOCK {
                    w.scalar(0.0);
                }
                continue;
            }
            let j = (seat + k) % n;
            w.flag(true);
            w.scalar(hand_size(&s.hands[j]) as f32);
            for slot in 0..COMBO {
                let occupied = slot < s.table_len[j] as usize;
                w.flag(occupied);
                w.flag(occupied && s.face_up[j] & (1 << slot) != 0);
                let seen = occupied && self.sees(s, seat, j, slot);
                w.one_hot(KINDS, seen.then_some(s.table[j][slot] as usize));
            }
            w.scalar(s.scores[j] as f32 / self.config.target as f32);
            w.flag(s.dealer as usize == j);
            w.flag(s.phase != Phase::Over && s.turn as usize == j);
            w.flag(current == Some(j));
            for suit in 0..SUITS {
                w.flag(s.bets[suit] & (1 << j) != 0);
            }
            for suit in 0..SUITS {
                w.flag(s.doubled[suit] == Some(j as u8));
            }
            for suit in 0..SUITS {
                w.flag(s.won[suit] == Some(j as u8));
            }
        }
        w.one_hot(Phase::ALL.len(), Some(s.phase as usize));
        w.one_hot(DECISIONS.len(), self.decision(s));
        w.flag(s.no_changes);
        w.flag(s.changed);
        w.flag(s.played);
        w.scalar(s.passes as f32);
        w.scalar(hand_size(&s.marked) as f32);
        w.scalar(s.deck_len as f32);
        w.scalar(hand_size(&s.discard) as f32);
        w.one_hot(SUITS, (s.phase == Phase::Wager).then_some(s.suit as usize));
        w.scalar(s.suit_turns as f32);
        for &g in &s.gain {
            w.scalar(g as f32);
        }
    }

    fn determinize(&self, s: &State, seat: Seat, rng: &mut Rng) -> State {
        let mut d = *s;
        let fixed_top = self.herald_card_for(s, seat).is_some();
        let deck_hidden = d.deck_len as usize - fixed_top as usize;
        // The unseen cards, in kind order.
        let mut unseen = [0u8; KINDS];
        for k in (0..self.config.players).filter(|&k| k != seat) {
            for kind in 0..KINDS {
                unseen[kind] += d.hands[k][kind];
            }
            for j in 0..d.table_len[k] as usize {
                if d.face_up[k] & (1 << j) == 0 {
                    unseen[d.table[k][j] as usize] += 1;
                }
            }
        }
        for &c in d.deck[..deck_hidden].iter().filter(|&&c| c != UNSEEN) {
            unseen[c as usize] += 1;
        }
        for kind in 0..KINDS {
            unseen[kind] += d.discard[kind];
        }
        let mut pool = [0u8; DECK];
        let mut len = 0;
        for (kind, &count) in unseen.iter().enumerate() {
            for _ in 0..count {
                pool[len] = kind as u8;
                len += 1;
            }
        }
        rng.shuffle(&mut pool[..len]);
        let mut next = 0;
        let mut take = || {
            let c = pool[next];
            next += 1;
            c
        };
        for k in (0..self.config.players).filter(|&k| k != seat) {
            let size = hand_size(&d.hands[k]);
            d.hands[k] = [0; KINDS];
            for _ in 0..size {
                d.hands[k][take() as usize] += 1;
            }
            for j in 0..d.table_len[k] as usize {
                if d.face_up[k] & (1 << j) == 0 {
                    d.table[k][j] = take();
                }
            }
        }
        for i in 0..deck_hidden {
            if d.deck[i] != UNSEEN {
                d.deck[i] = take();
            }
        }
        let discard_size = hand_size(&d.discard);
        d.discard = [0; KINDS];
        for _ in 0..discard_size {
            d.discard[take() as usize] += 1;
        }
        // Another player's marks become the lowest cards of her resampled hand.
        let p = d.turn as usize;
        if p != seat && hand_size(&d.marked) > 0 {
            let mut left = hand_size(&d.marked);
            d.marked = [0; KINDS];
            for kind in 0..KINDS {
                let m = left.min(d.hands[p][kind]);
                d.marked[kind] = m;
                left -= m;
            }
        }
        d.rng = rng.fork();
        d
    }

    // ---- Checks ----
    fn check_state(&self, s: &State) -> std::result::Result<(), String> {
        check(self, s)
    }

    // ---- Search policy ----
    /// Rollouts play like the rule-based player where it matters most, with a random move one
    /// time in four: in the building phase exchange the cards that fit nothing, then declare
    /// "no changes" (playing no card: the rollout settles the hands soon), claim every Suit,
    /// double down with a very strong combination and stay after a Double Down with a fair one.
    fn rollout_action(&self, s: &State, legal: &ActionSet, rng: &mut Rng) -> Action {
        if rng.below(4) == 0 {
            return uniform_action(legal, rng);
        }
        let strength = || bet_strength(s.suit as usize, &s.table[s.turn as usize]);
        let choice = match s.phase {
            Phase::Wager if s.doubled[s.suit as usize].is_some() => {
                if strength() >= 1 {
                    WE_SHALL_SEE
                } else {
                    ALL_YOURS
                }
            }
            Phase::Wager if strength() >= 2 && legal.contains(DOUBLE_DOWN as usize) => DOUBLE_DOWN,
            Phase::Wager if legal.contains(BET_MINE as usize) => BET_MINE,
            Phase::Wager => BET_PASS,
            Phase::Build if s.effect == Effect::Nothing => build_rollout_action(s),
            _ => END_TURN,
        };
        if legal.contains(choice as usize) {
            choice
        } else {
            uniform_action(legal, rng)
        }
    }

    /// Rollouts stop once a round has been scored: the seats' point leads (over a quarter of
    /// the target) estimate the returns.
    fn rollout_cutoff(&self, from: &State, s: &State) -> Option<Vec<f64>> {
        (s.round > from.round)
            .then(|| lead_returns(&self.scores(s), self.config.target as f64 / 4.0))
    }
}

// ---- Setup ----
impl Regine {
    fn n(&self) -> u8 {
        self.config.players as u8
    }

    fn left(&self, seat: u8) -> u8 {
        (seat + 1) % self.n()
    }

    fn right(&self, seat: u8) -> u8 {
        (seat + self.n() - 1) % self.n()
    }

    fn seat_mask(&self) -> u8 {
        ((1u16 << self.config.players) - 1) as u8
    }

    /// Shuffles all 40 cards, deals 4 to each seat from the Dealer's left, opens Phase 1
    /// (explicit chance: the deck is all unseen, and the cards are dealt at chance nodes).
    fn deal(&self, s: &mut State) {
        s.deck = [0; DECK];
        if self.explicit() {
            s.deck[..self.cards()].fill(UNSEEN);
        } else {
            let mut i = 0;
            for (kind, &copies) in self.config.deck.iter().enumerate() {
                for _ in 0..copies {
                    s.deck[i] = kind as u8;
                    i += 1;
                }
            }
            s.rng.shuffle(&mut s.deck[..i]);
        }
        s.deck_len = self.cards() as u8;
        s.discard = [0; KINDS];
        s.hands = [[0; KINDS]; MAX_PLAYERS];
        s.table = [[0; COMBO]; MAX_PLAYERS];
        s.table_len = [0; MAX_PLAYERS];
        s.face_up = [0; MAX_PLAYERS];
        s.marked = [0; KINDS];
        for k in 1..=self.n() {
            let seat = (s.dealer + k) % self.n();
            for _ in 0..COMBO {
                self.draw(s, seat);
            }
        }
        s.phase = Phase::Build;
        s.turn = s.dealer;
        s.no_changes = false;
        s.changed = false;
        s.exchanged = false;
        s.played = false;
        s.passes = 0;
        s.effect = Effect::Nothing;
        s.effect_seat = 0;
        s.effect_slot = 0;
        s.suit = 0;
        s.suit_turns = 0;
        s.bets = [0; SUITS];
        s.doubled = [None; SUITS];
        if !self.config.build_phase && self.short_seat(s).is_none() {
            self.start_wagers(s);
        }
    }

    /// Cards in the game (40 unless the option `deck` says otherwise).
    fn cards(&self) -> usize {
        self.config.deck.iter().map(|&c| c as usize).sum()
    }

    /// An empty deck is rebuilt from the discard pile, shuffled (explicit chance: unseen).
    fn refill(&self, s: &mut State) {
        if s.deck_len > 0 {
            return;
        }
        if self.explicit() {
            let len = hand_size(&s.discard) as usize;
            s.deck[..len].fill(UNSEEN);
            s.discard = [0; KINDS];
            s.deck_len = len as u8;
            return;
        }
        let mut len = 0;
        for kind in 0..KINDS {
            for _ in 0..s.discard[kind] {
                s.deck[len] = kind as u8;
                len += 1;
            }
        }
        s.discard = [0; KINDS];
        s.deck_len = len as u8;
        s.rng.shuffle(&mut s.deck[..len]);
    }

    /// `seat` draws the top card (nothing if even the discard pile is empty; explicit
    /// chance: nothing yet, the seat is short of a card until [`Regine::complete_draws`]).
    fn draw(&self, s: &mut State, seat: u8) {
        if self.explicit() {
            return;
        }
        self.refill(s);
        if s.deck_len > 0 {
            s.deck_len -= 1;
            let card = s.deck[s.deck_len as usize];
            s.deck[s.deck_len as usize] = 0;
            s.hands[seat as usize][card as usize] += 1;
        }
    }
}

// ---- Legal moves ----
impl Regine {
    fn legal_build(&self, s: &State, out: &mut ActionSet) {
        let d = s.effect_seat as usize;
        let add_cards = |out: &mut ActionSet, base: Action, seat: usize| {
            for kind in 0..KINDS {
                if s.hands[seat][kind] > 0 {
                    out.insert(base + kind as Action);
                }
            }
        };
        let add_opponents = |out: &mut ActionSet, base: Action| {
            for k in 0..self.config.players {
                if k != d && hand_size(&s.hands[k]) > 0 {
                    out.insert(base + k as Action);
                }
            }
        };
        match s.effect {
            Effect::PeasantName => add_opponents(out, PEASANT_SEAT),
            Effect::PeasantShow => add_cards(out, PEASANT_CARD, d),
            Effect::AssassinTarget | Effect::CourtesanTarget => {
                let base = if s.effect == Effect::AssassinTarget {
                    ASSASSIN_AT
                } else {
                    COURTESAN_AT
                };
                for k in 0..self.config.players {
                    for j in 0..s.table_len[k] as usize {
                        if s.effect == Effect::AssassinTarget || s.face_up[k] & (1 << j) == 0 {
                            out.insert(base + (4 * k + j) as Action);
                        }
                    }
                }
            }
            Effect::HeraldChoice => {
                out.insert(HERALD_TAKE);
                out.insert(HERALD_DECLINE);
            }
            Effect::KnightName => add_opponents(out, KNIGHT_SEAT),
            Effect::PrincessDiscard => add_cards(out, PRINCESS_CARD, d),
            _ => {
                let p = s.turn as usize;
                let hand = &s.hands[p];
                if hand_size(&s.marked) > 0 {
                    let low = (0..KINDS).rev().find(|&k| s.marked[k] > 0).unwrap_or(0);
                    for kind in low..KINDS {
                        if s.marked[kind] < hand[kind] {
                            out.insert(MARK + kind as Action);
                        }
                    }
                    out.insert(CONFIRM_EXCHANGE);
                    return;
                }
                if !s.played {
                    add_cards(out, PLAY_UP, p);
                    add_cards(out, PLAY_DOWN, p);
                }
                if !s.changed && !s.no_changes {
                    add_cards(out, MARK, p);
                    out.insert(NO_CHANGES);
                }
                out.insert(END_TURN);
            }
        }
    }
}

// ---- Apply ----
impl Regine {
    /// Puts `card` from `seat`'s hand on her table; returns its slot.
    fn put_on_table(&self, s: &mut State, seat: u8, card: u8, up: bool) -> u8 {
        let p = seat as usize;
        s.hands[p][card as usize] -= 1;
        let slot = s.table_len[p];
        s.table[p][slot as usize] = card;
        s.table_len[p] += 1;
        if up {
            s.face_up[p] |= 1 << slot;
        }
        slot
    }

    fn has_opponent_with_cards(&self, s: &State, seat: u8) -> bool {
        (0..self.n()).any(|k| k != seat && hand_size(&s.hands[k as usize]) > 0)
    }

    fn any_face_down(&self, s: &State) -> bool {
        (0..self.config.players).any(|k| count_face_down(s, k) > 0)
    }

    fn set_effect(&self, s: &mut State, effect: Effect, seat: u8, slot: u8) {
        s.effect = effect;
        s.effect_seat = seat;
        s.effect_slot = slot;
    }

    fn clear_effect(&self, s: &mut State) {
        self.set_effect(s, Effect::Nothing, 0, 0);
    }

    /// Applies the effect of the face-up card in `seat`'s `slot`, decided by `seat`.
    fn trigger(&self, s: &mut State, seat: u8, slot: u8) {
        match s.table[seat as usize][slot as usize] {
            JESTER => s.no_changes = false,
            PEASANT if self.has_opponent_with_cards(s, seat) => {
                self.set_effect(s, Effect::PeasantName, seat, 0)
            }
            ASSASSIN => self.set_effect(s, Effect::AssassinTarget, seat, 0),
            COURTESAN if self.any_face_down(s) => {
                self.set_effect(s, Effect::CourtesanTarget, seat, 0)
            }
            HERALD => {
                self.refill(s);
                if s.deck_len > 0 {
                    self.set_effect(s, Effect::HeraldChoice, seat, slot);
                }
            }
            KNIGHT if self.has_opponent_with_cards(s, seat) => {
                self.set_effect(s, Effect::KnightName, seat, 0)
            }
            PRINCESS if hand_size(&s.hands[seat as usize]) > 0 => {
                self.set_effect(s, Effect::PrincessDiscard, seat, 0)
            }
            _ => {}
        }
    }

    /// Whether the turn's player can still exchange, declare or play.
    fn can_act(&self, s: &State) -> bool {
        let change = !s.changed && !s.no_changes;
        let play = !s.played && hand_size(&s.hands[s.turn as usize]) > 0;
        change || play
    }

    /// After a Phase 1 step: the turn ends by itself when nothing is left to do (explicit
    /// chance: once every card owed is drawn).
    fn settle(&self, s: &mut State) {
        if self.explicit() {
            self.complete_draws(s);
            if self.is_chance_node(s) {
                return;
            }
            if s.phase == Phase::Build && !self.config.build_phase {
                return self.start_wagers(s);
            }
        }
        if s.phase == Phase::Build
            && s.effect == Effect::Nothing
            && hand_size(&s.marked) == 0
            && !self.can_act(s)
        {
            self.end_turn(s);
        }
    }

    /// Ends the turn; a player who can do nothing passes at once; all passing ends Phase 1.
    fn end_turn(&self, s: &mut State) {
        loop {
            if s.exchanged || s.played {
                s.passes = 0;
            } else {
                s.passes += 1;
            }
            if s.passes >= self.n() {
                self.start_wagers(s);
                return;
            }
            s.turn = self.left(s.turn);
            s.changed = false;
            s.exchanged = false;
            s.played = false;
            if self.can_act(s) {
                return;
            }
        }
    }

    /// Hands go face down on the table; betting opens on the first Suit with the Dealer.
    fn start_wagers(&self, s: &mut State) {
        for seat in 0..self.n() {
            for kind in 0..KINDS as u8 {
                while s.hands[seat as usize][kind as usize] > 0 {
                    self.put_on_table(s, seat, kind, false);
                }
            }
        }
        s.phase = Phase::Wager;
        s.turn = s.dealer;
        s.no_changes = false;
        s.changed = false;
        s.exchanged = false;
        s.played = false;
        s.passes = 0;
        s.suit = 0;
        s.suit_turns = 0;
        s.won = [None; SUITS];
        s.gain = [0; SUITS];
    }

    fn apply_build(&self, s: &mut State, a: Action) {
        let turn = s.turn;
        let decider = s.effect_seat;
        let card = |base: Action| (a - base) as u8;
        match a {
            PLAY_UP..PLAY_DOWN => {
                let slot = self.put_on_table(s, turn, card(PLAY_UP), true);
                s.played = true;
                self.trigger(s, turn, slot);
            }
            PLAY_DOWN..MARK => {
                self.put_on_table(s, turn, card(PLAY_DOWN), false);
                s.played = true;
            }
            MARK..CONFIRM_EXCHANGE => s.marked[card(MARK) as usize] += 1,
            CONFIRM_EXCHANGE => self.exchange(s),
            NO_CHANGES => {
                s.no_changes = true;
                s.changed = true;
            }
            END_TURN => self.end_turn(s),
            PEASANT_SEAT..PEASANT_CARD => {
                self.set_effect(s, Effect::PeasantShow, card(PEASANT_SEAT), 0);
            }
            PEASANT_CARD..ASSASSIN_AT => {
                self.clear_effect(s);
                let slot = self.put_on_table(s, decider, card(PEASANT_CARD), true);
                self.trigger(s, decider, slot);
            }
            ASSASSIN_AT..COURTESAN_AT => {
                self.clear_effect(s);
                let (seat, slot) = (card(ASSASSIN_AT) / 4, card(ASSASSIN_AT) % 4);
                self.eliminate(s, seat, slot);
            }
            COURTESAN_AT..HERALD_TAKE => {
                self.clear_effect(s);
                let (seat, slot) = (card(COURTESAN_AT) / 4, card(COURTESAN_AT) % 4);
                s.face_up[seat as usize] |= 1 << slot;
                self.trigger(s, seat, slot);
            }
            HERALD_TAKE => {
                let slot = s.effect_slot;
                self.clear_effect(s);
                s.discard[HERALD as usize] += 1;
                s.deck_len -= 1;
                let top = s.deck[s.deck_len as usize];
                s.deck[s.deck_len as usize] = 0;
                s.table[decider as usize][slot as usize] = top;
                self.trigger(s, decider, slot);
            }
            HERALD_DECLINE => {
                self.clear_effect(s);
                s.deck[..s.deck_len as usize].rotate_right(1);
            }
            KNIGHT_SEAT..PRINCESS_CARD if self.explicit() => {
                self.set_effect(s, Effect::KnightDiscard, card(KNIGHT_SEAT), 0);
            }
            KNIGHT_SEAT..PRINCESS_CARD => {
                self.clear_effect(s);
                let victim = card(KNIGHT_SEAT);
                let hand = s.hands[victim as usize];
                let mut pick = s.rng.below(hand_size(&hand) as u32) as u8;
                let mut lost = 0;
                for (kind, &count) in hand.iter().enumerate() {
                    if pick < count {
                        lost = kind;
                        break;
                    }
                    pick -= count;
                }
                self.discard_and_draw(s, victim, lost as u8);
            }
            _ => {
                self.clear_effect(s);
                self.discard_and_draw(s, decider, card(PRINCESS_CARD));
            }
        }
        self.settle(s);
    }

    fn exchange(&self, s: &mut State) {
        let p = s.turn as usize;
        let count = hand_size(&s.marked);
        for kind in 0..KINDS {
            s.hands[p][kind] -= s.marked[kind];
            s.discard[kind] += s.marked[kind];
        }
        s.marked = [0; KINDS];
        for _ in 0..count {
            self.draw(s, s.turn);
        }
        s.changed = true;
        s.exchanged = true;
    }

    fn discard_and_draw(&self, s: &mut State, seat: u8, card: u8) {
        s.hands[seat as usize][card as usize] -= 1;
        s.discard[card as usize] += 1;
        self.draw(s, seat);
    }

    /// The Assassin: the card leaves the table for the discard pile; its owner draws.
    fn eliminate(&self, s: &mut State, seat: u8, slot: u8) {
        let p = seat as usize;
        let (j, len) = (slot as usize, s.table_len[p] as usize);
        s.discard[s.table[p][j] as usize] += 1;
        s.table[p].copy_within(j + 1..len, j);
        s.table[p][len - 1] = 0;
        let below = s.face_up[p] & ((1 << slot) - 1);
        s.face_up[p] = below | ((s.face_up[p] >> (slot + 1)) << slot);
        s.table_len[p] -= 1;
        self.draw(s, seat);
    }

    fn apply_wager(&self, s: &mut State, a: Action) {
        let p = s.turn;
        let suit = s.suit as usize;
        match a {
            BET_PASS | BET_MINE => {
                if a == BET_MINE {
                    s.bets[suit] |= 1 << p;
                    s.passes = 0;
                } else {
                    s.passes += 1;
                }
                s.suit_turns = (s.suit_turns + 1).min(self.n());
                if s.passes >= self.n() {
                    self.close_suit(s);
                } else {
                    s.turn = self.right(p);
                }
            }
            DOUBLE_DOWN => {
                s.doubled[suit] = Some(p);
                self.next_reply(s, p);
            }
            ALL_YOURS => {
                s.bets[suit] &= !(1 << p);
                self.next_reply(s, p);
            }
            _ => self.next_reply(s, p),
        }
    }

    /// After a Double Down, each other bettor replies once, to the right from the doubler.
    fn next_reply(&self, s: &mut State, from: u8) {
        let doubler = s.doubled[s.suit as usize].unwrap_or(from);
        let mut k = self.right(from);
        while k != doubler {
            if s.bets[s.suit as usize] & (1 << k) != 0 {
                s.turn = k;
                return;
            }
            k = self.right(k);
        }
        self.close_suit(s);
    }

    /// A Suit with a single chip is won at once (chip plus the Suit's most); next Suit.
    fn close_suit(&self, s: &mut State) {
        let suit = s.suit as usize;
        if s.bets[suit].count_ones() == 1 {
            let w = s.bets[suit].trailing_zeros() as u8;
            s.won[suit] = Some(w);
            s.gain[suit] = 1 + SUIT_MAX[suit];
            s.scores[w as usize] += s.gain[suit] as u16;
        }
        s.passes = 0;
        s.suit_turns = 0;
        s.turn = s.dealer;
        if suit + 1 < self.config.suits {
            s.suit += 1;
        } else {
            self.resolve(s);
        }
    }
}

impl Regine {
    /// Whether random events are chance nodes (`chance = "explicit"`).
    fn explicit(&self) -> bool {
        self.config.chance == ChanceMode::Explicit
    }

    /// The first seat from the Dealer's left short of its 4 cards (explicit chance: owed a
    /// card of the deck).
    fn short_seat(&self, s: &State) -> Option<u8> {
        (1..=self.n())
            .map(|k| (s.dealer + k) % self.n())
            .find(|&k| hand_size(&s.hands[k as usize]) + s.table_len[k as usize] < COMBO as u8)
    }

    /// The chance node `s` is, if it is one: the Knight's victim's loss, a card a short seat
    /// draws, or the unseen top card a Herald's owner is about to look at.
    pub fn chance_event(&self, s: &State) -> Option<ChanceEvent> {
        if !self.explicit() || s.phase != Phase::Build {
            return None;
        }
        if s.effect == Effect::KnightDiscard {
            return Some(ChanceEvent::KnightLoss(s.effect_seat));
        }
        if let Some(seat) = self.short_seat(s) {
            return Some(ChanceEvent::Draw(seat));
        }
        let top = (s.deck_len as usize).checked_sub(1).map(|i| s.deck[i]);
        (s.effect == Effect::HeraldChoice && top == Some(UNSEEN)).then_some(ChanceEvent::HeraldTop)
    }

    /// How many cards of each kind the outcomes of `event` are drawn from: the victim's hand,
    /// or the unseen cards (those of the 40 in no hand, on no table, in no discard pile and
    /// not known in the deck).
    fn outcome_counts(&self, s: &State, event: ChanceEvent) -> [u8; KINDS] {
        if let ChanceEvent::KnightLoss(seat) = event {
            return s.hands[seat as usize];
        }
        let mut left = self.config.deck;
        let mut take = |kind: u8| {
            if let Some(c) = left.get_mut(kind as usize) {
                *c = c.saturating_sub(1);
            }
        };
        for &c in &s.deck[..s.deck_len as usize] {
            take(c);
        }
        for k in 0..MAX_PLAYERS {
            for &c in &s.table[k][..s.table_len[k] as usize] {
                take(c);
            }
            for kind in 0..KINDS {
                for _ in 0..s.hands[k][kind] {
                    take(kind as u8);
                }
            }
        }
        for kind in 0..KINDS {
            for _ in 0..s.discard[kind] {
                take(kind as u8);
            }
        }
        left
    }

    /// A chance outcome: the card `kind` where `event` puts it, then what follows.
    fn apply_chance(&self, s: &mut State, event: ChanceEvent, kind: u8) {
        match event {
            ChanceEvent::Draw(seat) => {
                s.deck_len -= 1;
                s.deck[s.deck_len as usize] = 0;
                s.hands[seat as usize][kind as usize] += 1;
            }
            ChanceEvent::HeraldTop => s.deck[s.deck_len as usize - 1] = kind,
            ChanceEvent::KnightLoss(seat) => {
                self.clear_effect(s);
                self.discard_and_draw(s, seat, kind);
            }
        }
        self.settle(s);
    }

    /// Explicit chance: the cards owed that are no chance (a known card on top of the deck, a
    /// deck rebuilt from the discard pile) are drawn at once.
    fn complete_draws(&self, s: &mut State) {
        while let Some(seat) = self.short_seat(s) {
            self.refill(s);
            let Some(top) = (s.deck_len as usize).checked_sub(1) else {
                return;
            };
            if s.deck[top] == UNSEEN {
                return;
            }
            s.hands[seat as usize][s.deck[top] as usize] += 1;
            s.deck[top] = 0;
            s.deck_len -= 1;
        }
    }
}

fn count_face_down(s: &State, seat: usize) -> u32 {
    let all = (1u8 << s.table_len[seat]) - 1;
    (all & !s.face_up[seat]).count_ones()
}

// ---- Scoring ----
impl Regine {
    /// The winner of `suit` among the seats in `mask`, with the Suit's points.
    pub fn suit_winner(&self, s: &State, suit: usize, mask: u8) -> Option<(u8, u8)> {
        let mut best: Option<(u8, [u8; 7])> = None;
        for k in 0..self.n() {
            let seat = (s.dealer + k) % self.n();
            if mask & (1 << seat) == 0 {
                continue;
            }
            if let Some(key) = suit_key(suit, &s.table[seat as usize]) {
                if best.is_none_or(|(_, b)| key > b) {
                    best = Some((seat, key));
                }
            }
        }
        best.map(|(seat, key)| (seat, suit_points(suit, &key)))
    }

    /// Phase 3: every Suit not won yet goes to the best combination among its bettors
    /// (everybody when nobody bet); then the round ends.
    fn resolve(&self, s: &mut State) {
        for suit in 0..self.config.suits {
            if s.won[suit].is_some() {
                continue;
            }
            let mask = if s.bets[suit] != 0 {
                s.bets[suit]
            } else {
                self.seat_mask()
            };
            if let Some((w, points)) = self.suit_winner(s, suit, mask) {
                let chips = s.bets[suit].count_ones() as u8;
                let mult = if s.doubled[suit].is_some() { 2 } else { 1 };
                s.won[suit] = Some(w);
                s.gain[suit] = points + chips * mult;
                s.scores[w as usize] += s.gain[suit] as u16;
            }
        }
        for seat in 0..self.config.players {
            let mut combo = s.table[seat];
            combo.sort_unstable();
            s.last_cards[seat] = combo;
        }
        s.round += 1;
        let top = s.scores.iter().copied().max().unwrap_or(0);
        if top >= self.config.target || s.round >= self.config.max_rounds {
            s.phase = Phase::Over;
            s.turn = 0;
            s.suit = 0;
        } else {
            s.dealer = if self.config.dealer_rotation == Rotation::Right {
                self.right(s.dealer)
            } else {
                self.left(s.dealer)
            };
            self.deal(s);
        }
    }

    /// The winner: most points, ties to the last Dealer, then to her left.
    fn winner(&self, s: &State) -> u8 {
        let mut best = s.dealer;
        for k in 1..self.n() {
            let seat = (s.dealer + k) % self.n();
            if s.scores[seat as usize] > s.scores[best as usize] {
                best = seat;
            }
        }
        best
    }
}

/// A combination's ranks, highest first.
fn ranks_desc(combo: &[u8; COMBO]) -> [u8; COMBO] {
    let mut r = combo.map(|c| RANK[c as usize]);
    r.sort_unstable_by(|a, b| b.cmp(a));
    r
}

fn count_kind(combo: &[u8; COMBO], kind: u8) -> u8 {
    combo.iter().filter(|&&c| c == kind).count() as u8
}

/// How a combination ranks for a Suit (higher is better), or `None` if it cannot win it.
pub fn suit_key(suit: usize, combo: &[u8; COMBO]) -> Option<[u8; 7]> {
    let r = ranks_desc(combo);
    match suit {
        0 => Some([count_kind(combo, QUEEN), r[0], r[1], r[2], r[3], 0, 0]),
        1 => Some([
            count_kind(combo, JESTER),
            6 - r[3],
            6 - r[2],
            6 - r[1],
            6 - r[0],
            0,
            0,
        ]),
        2 => pairs_key(combo),
        _ => {
            let total: u8 = combo.iter().map(|&c| VALUE[c as usize]).sum();
            let tier = match total {
                31 => 2,
                32..=40 => 1,
                _ => return None,
            };
            let q = count_kind(combo, QUEEN);
            Some([tier, total, q, r[0], r[1], r[2], r[3]])
        }
    }
}

/// Pairs: category (1 pair, 2 three of a kind, 3 two pairs or four of a kind), the ranks of
/// the combination, then the other cards, highest first.
fn pairs_key(combo: &[u8; COMBO]) -> Option<[u8; 7]> {
    let mut counts = [0u8; KINDS];
    for &c in combo {
        counts[c as usize] += 1;
    }
    let mut pair: Option<usize> = None;
    for kind in (0..KINDS).rev() {
        let rank = RANK[kind];
        match (counts[kind], pair) {
            (4, _) => return Some([3, rank, rank, 0, 0, 0, 0]),
            (3, _) => return Some([2, rank, other_ranks(combo, kind)[0], 0, 0, 0, 0]),
            (2, Some(high)) => return Some([3, RANK[high], rank, 0, 0, 0, 0]),
            (2, None) => pair = Some(kind),
            _ => {}
        }
    }
    let kind = pair?;
    let o = other_ranks(combo, kind);
    Some([1, RANK[kind], o[0], o[1], 0, 0, 0])
}

/// The ranks of the cards not of `kind`, highest first (zeros after them).
fn other_ranks(combo: &[u8; COMBO], kind: usize) -> [u8; COMBO] {
    let mut r = [0u8; COMBO];
    let mut m = 0;
    for &c in combo {
        if c as usize != kind {
            r[m] = RANK[c as usize];
            m += 1;
        }
    }
    r.sort_unstable_by(|a, b| b.cmp(a));
    r
}

/// What a Suit pays for the winning key (before chips).
fn suit_points(suit: usize, key: &[u8; 7]) -> u8 {
    match suit {
        2 => {
            if key[0] == 1 {
                1
            } else {
                2
            }
        }
        3 => key[0],
        _ => 1,
    }
}

// ---- Observation ----
impl Regine {
    /// Index into [`DECISIONS`] of what the current player decides.
    fn decision(&self, s: &State) -> Option<usize> {
        match s.phase {
            _ if self.is_chance_node(s) => None,
            Phase::Build if s.effect != Effect::Nothing => Some(1 + s.effect as usize),
            Phase::Build if hand_size(&s.marked) > 0 => Some(1),
            Phase::Build => Some(0),
            Phase::Wager if s.doubled[s.suit as usize].is_some() => Some(10),
            Phase::Wager => Some(9),
            _ => None,
        }
    }

    /// Whether `seat` sees the card in `owner`'s table slot `slot`.
    fn sees(&self, s: &State, seat: usize, owner: usize, slot: usize) -> bool {
        owner == seat || s.face_up[owner] & (1 << slot) != 0
    }

    fn herald_card_for(&self, s: &State, seat: usize) -> Option<u8> {
        let top = (s.deck_len as usize).checked_sub(1).map(|i| s.deck[i]);
        top.filter(|&c| {
            c != UNSEEN && s.effect == Effect::HeraldChoice && s.effect_seat as usize == seat
        })
    }

    fn marked_for(&self, s: &State, seat: usize) -> [u8; KINDS] {
        if s.phase == Phase::Build && s.turn as usize == seat {
            s.marked
        } else {
            [0; KINDS]
        }
    }
}

// ---- Checks ----
/// Every invariant of a state read from JSON.
fn check(g: &Regine, s: &State) -> std::result::Result<(), String> {
    let n = g.config.players;
    let ok = |cond: bool, msg: &str| if cond { Ok(()) } else { Err(msg.to_string()) };
    ok(s.rng.is_valid(), "generator increment must be odd")?;
    ok(
        (s.dealer as usize) < n && (s.turn as usize) < n && (s.effect_seat as usize) < n,
        "dealer, turn and effect seat must be seats",
    )?;
    // Every card is somewhere, exactly once.
    let len = s.deck_len as usize;
    ok(len <= DECK, "the deck holds at most 40 cards")?;
    ok(
        s.deck[..len]
            .iter()
            .all(|&c| (c as usize) < KINDS || (c == UNSEEN && g.explicit()))
            && s.deck[len..].iter().all(|&c| c == 0),
        "deck entries must be card kinds (or unseen, with explicit chance), zeros past its length",
    )?;
    for k in 0..MAX_PLAYERS {
        let tl = s.table_len[k] as usize;
        ok(tl <= COMBO, "a table holds at most 4 cards")?;
        ok(
            s.table[k][..tl].iter().all(|&c| (c as usize) < KINDS)
                && s.table[k][tl..].iter().all(|&c| c == 0)
                && s.face_up[k] >> tl == 0,
            "table entries must be card kinds, zeros (and face-down) past its length",
        )?;
        let here = s.hands[k].iter().map(|&c| c as usize).sum::<usize>() + tl;
        let want = if k < n { COMBO } else { 0 };
        ok(
            here == want || (g.explicit() && k < n && here < COMBO),
            "each seat must hold exactly 4 cards in hand and on the table (none for absent seats)",
        )?;
    }
    check_owed(g, s)?;
    let mut total = [0u32; KINDS];
    let mut unseen = 0;
    for &c in &s.deck[..len] {
        match total.get_mut(c as usize) {
            Some(t) => *t += 1,
            None => unseen += 1,
        }
    }
    for kind in 0..KINDS {
        total[kind] += s.discard[kind] as u32;
        for k in 0..MAX_PLAYERS {
            total[kind] += s.hands[k][kind] as u32;
        }
    }
    for k in 0..MAX_PLAYERS {
        for &c in &s.table[k][..s.table_len[k] as usize] {
            total[c as usize] += 1;
        }
    }
    ok(
        total.iter().zip(g.config.deck).all(|(&t, c)| t <= c as u32)
            && total.iter().sum::<u32>() + unseen == g.cards() as u32,
        "the cards do not add up to the game's deck",
    )?;
    // Scores, rounds and the end.
    let top = s.scores.iter().copied().max().unwrap_or(0);
    ok(
        s.scores[n..].iter().all(|&x| x == 0)
            && (top as u32) < g.config.target as u32 + MAX_ROUND_GAIN
            && s.round <= g.config.max_rounds,
        "scores or rounds out of range",
    )?;
    let ended = top >= g.config.target || s.round >= g.config.max_rounds;
    ok(
        (s.phase == Phase::Over) == ended
            || (s.phase == Phase::Wager && s.round < g.config.max_rounds),
        "the phase does not agree with the scores and rounds",
    )?;
    if s.phase == Phase::Build {
        ok(
            top < g.config.target,
            "a round cannot start with a score at the target",
        )?;
    }
    for suit in 0..SUITS {
        ok(
            s.bets[suit] >> n == 0
                && s.doubled[suit].is_none_or(|d| (d as usize) < n && s.bets[suit] >> d & 1 != 0)
                && s.won[suit].is_none_or(|w| (w as usize) < n)
                && s.gain[suit] as u32 <= 2 + 8,
            "bets, Double Downs and Suit results must name seats",
        )?;
    }
    ok(
        s.last_cards.iter().flatten().all(|&c| (c as usize) < KINDS)
            && s.last_cards[n..].iter().flatten().all(|&c| c == 0)
            && (s.round > 0 || s.last_cards.iter().flatten().all(|&c| c == 0)),
        "last round's combinations must be card kinds",
    )?;
    ok(
        s.passes < g.n() && s.suit_turns <= g.n(),
        "passes and turns must be below the number of seats",
    )?;
    if s.phase == Phase::Build {
        check_build(g, s)
    } else {
        check_wager(g, s)
    }
}

/// Explicit chance: the seats short of cards (each owed cards of the deck) and the deck's
/// unseen cards, as play leaves them.
fn check_owed(g: &Regine, s: &State) -> std::result::Result<(), String> {
    let ok = |cond: bool, msg: &str| if cond { Ok(()) } else { Err(msg.to_string()) };
    let deck = &s.deck[..s.deck_len as usize];
    let herald_top = s.effect == Effect::HeraldChoice && deck.last().is_some_and(|&c| c != UNSEEN);
    let below = &deck[..deck.len() - usize::from(herald_top)];
    ok(
        below
            .iter()
            .skip_while(|&&c| c != UNSEEN)
            .all(|&c| c == UNSEEN),
        "the cards a Herald put back lie under the unseen cards",
    )?;
    let held: Vec<u8> = (1..=g.n())
        .map(|k| (s.dealer + k) % g.n())
        .map(|k| hand_size(&s.hands[k as usize]) + s.table_len[k as usize])
        .collect();
    let short = held.iter().filter(|&&c| c < COMBO as u8).count();
    if short == 0 {
        return Ok(());
    }
    ok(
        s.phase == Phase::Build
            && s.effect == Effect::Nothing
            && hand_size(&s.marked) == 0
            && deck.last() == Some(&UNSEEN),
        "a seat is owed a card only in Phase 1, with no effect pending, from an unseen deck",
    )?;
    let dealing = held.windows(2).all(|w| w[0] == COMBO as u8 || w[1] == 0);
    ok(
        short == 1
            || (dealing
                && s.table_len == [0; MAX_PLAYERS]
                && s.turn == s.dealer
                && !(s.no_changes || s.changed || s.exchanged || s.played)
                && s.passes == 0
                && s.discard == [0; KINDS]),
        "only the deal leaves several seats short of cards, in the order it deals",
    )
}

fn check_build(g: &Regine, s: &State) -> std::result::Result<(), String> {
    let ok = |cond: bool, msg: &str| if cond { Ok(()) } else { Err(msg.to_string()) };
    ok(
        s.bets == [0; SUITS] && s.doubled == [None; SUITS] && s.suit == 0 && s.suit_turns == 0,
        "no bets during Phase 1",
    )?;
    ok(
        !s.exchanged || s.changed,
        "an exchange uses the turn's change",
    )?;
    ok(
        g.config.build_phase || g.short_seat(s).is_some(),
        "without Phase 1 the hands go face down as dealt",
    )?;
    let p = s.turn as usize;
    let marking = hand_size(&s.marked) > 0;
    ok(
        !marking
            || (s.effect == Effect::Nothing
                && !s.changed
                && !s.no_changes
                && (0..KINDS).all(|k| s.marked[k] <= s.hands[p][k])),
        "marked cards must be in the hand of a player free to exchange",
    )?;
    let d = s.effect_seat;
    let du = d as usize;
    let valid = match s.effect {
        Effect::Nothing => d == 0 && s.effect_slot == 0,
        Effect::PeasantName | Effect::KnightName => {
            g.has_opponent_with_cards(s, d) && s.effect_slot == 0
        }
        Effect::PeasantShow | Effect::PrincessDiscard => {
            hand_size(&s.hands[du]) > 0 && s.effect_slot == 0
        }
        Effect::AssassinTarget => s.table_len.iter().any(|&l| l > 0) && s.effect_slot == 0,
        Effect::CourtesanTarget => g.any_face_down(s) && s.effect_slot == 0,
        Effect::KnightDiscard => g.explicit() && hand_size(&s.hands[du]) > 0 && s.effect_slot == 0,
        Effect::HeraldChoice => {
            let j = s.effect_slot as usize;
            s.deck_len > 0
                && j < s.table_len[du] as usize
                && s.face_up[du] & (1 << j) != 0
                && s.table[du][j] == HERALD
        }
    };
    ok(valid, "the pending effect is not possible here")?;
    ok(
        s.effect != Effect::Nothing || marking || g.can_act(s) || g.short_seat(s).is_some(),
        "the turn's player must have something to do",
    )
}

fn check_wager(g: &Regine, s: &State) -> std::result::Result<(), String> {
    let ok = |cond: bool, msg: &str| if cond { Ok(()) } else { Err(msg.to_string()) };
    ok(
        s.hands.iter().all(|h| hand_size(h) == 0)
            && s.marked == [0; KINDS]
            && s.effect == Effect::Nothing
            && s.effect_seat == 0
            && s.effect_slot == 0
            && !s.no_changes
            && !s.changed
            && !s.exchanged
            && !s.played,
        "after Phase 1 all cards are on the table and no turn is open",
    )?;
    let suit = s.suit as usize;
    ok(
        suit < g.config.suits,
        "the Suit must be one of the Suits played",
    )?;
    if s.phase == Phase::Over {
        return ok(
            s.turn == 0 && s.suit == 0 && s.passes == 0 && s.suit_turns == 0,
            "a finished game has no turn",
        );
    }
    for later in suit + 1..SUITS {
        ok(
            s.bets[later] == 0
                && s.doubled[later].is_none()
                && s.won[later].is_none()
                && s.gain[later] == 0,
            "Suits not yet bet on carry no bets",
        )?;
    }
    for earlier in 0..suit {
        ok(
            s.won[earlier].is_none() == (s.bets[earlier].count_ones() != 1)
                && s.won[earlier].is_none_or(|w| s.bets[earlier] == 1 << w)
                && s.gain[earlier] == s.won[earlier].map_or(0, |_| 1 + SUIT_MAX[earlier]),
            "a Suit closed with one chip is won by that chip",
        )?;
    }
    ok(
        s.won[suit].is_none() && s.gain[suit] == 0,
        "the current Suit is not won yet",
    )?;
    if let Some(doubler) = s.doubled[suit] {
        ok(
            s.turn != doubler && s.bets[suit] & (1 << s.turn) != 0 && s.suit_turns == g.n(),
            "after a Double Down only another bettor replies",
        )?;
    }
    Ok(())
}

// ---- Search policy ----
/// The rule-based player's building move for rollouts: exchange once the hand cards that fit
/// nothing (not a Queen, a Jester or part of a pair with an own card), declare "no changes"
/// once none is left, else end the turn.
fn build_rollout_action(s: &State) -> Action {
    let p = s.turn as usize;
    let mut own = s.hands[p];
    for &card in &s.table[p][..s.table_len[p] as usize] {
        own[card as usize] += 1;
    }
    let loose = |kind: usize| kind != QUEEN as usize && kind != JESTER as usize && own[kind] < 2;
    let marking = hand_size(&s.marked) > 0;
    if marking || (!s.changed && !s.no_changes) {
        let low = (0..KINDS).rev().find(|&k| s.marked[k] > 0).unwrap_or(0);
        if let Some(kind) = (low..KINDS).find(|&k| loose(k) && s.marked[k] < s.hands[p][k]) {
            return MARK + kind as Action;
        }
        if marking {
            return CONFIRM_EXCHANGE;
        }
        if (0..KINDS).all(|k| s.hands[p][k] == 0 || !loose(k)) {
            return NO_CHANGES;
        }
    }
    END_TURN
}

/// How strong a four-card combination is for betting on `suit`: 2 strong enough to double
/// down (three Queens or Jesters, two pairs, exactly 31), 1 to stay after a Double Down (two
/// Queens or Jesters, three of a kind, 37 or more), else 0. The search's rollouts and the
/// rule-based player (through the binding) both bet by it.
pub fn bet_strength(suit: usize, combo: &[u8; COMBO]) -> u8 {
    match (suit, suit_key(suit, combo)) {
        (_, None) => 0,
        (0..=2, Some(k)) => u8::from(k[0] >= 2) + u8::from(k[0] >= 3),
        (_, Some(k)) => 2 * u8::from(k[0] == 2) + u8::from(k[0] != 2 && k[1] >= 37),
    }
}

// ---- Tests ----
#[cfg(test)]
mod tests {
    use super::*;

    fn game(players: usize) -> Regine {
        let mut o = Options::new();
        o.insert("players".into(), Value::from(players));
        Regine::from_options(&o).unwrap()
    }

    fn kinds(names: [&str; COMBO]) -> [u8; COMBO] {
        names.map(|n| CARD_NAMES.iter().position(|&c| c == n).unwrap() as u8)
    }

    fn key(suit: usize, names: [&str; COMBO]) -> Option<[u8; 7]> {
        suit_key(suit, &kinds(names))
    }

    #[test]
    fn pairs_rank_two_pairs_over_three_over_a_pair_and_four_as_two_pairs() {
        let two = key(2, ["jester", "jester", "peasant", "peasant"]);
        let three = key(2, ["queen", "queen", "queen", "jester"]);
        let pair = key(2, ["queen", "queen", "knight", "herald"]);
        assert!(two > three && three > pair);
        let four = key(2, ["jester"; 4]);
        assert!(key(2, ["queen", "queen", "knight", "knight"]) > four);
        assert_eq!(
            four.map(|k| k[0]),
            two.map(|k| k[0]),
            "four of a kind counts as two pairs"
        );
        assert_eq!(key(2, ["knight", "princess", "queen", "jester"]), None);
        assert!(
            pair > key(2, ["knight", "knight", "queen", "herald"]),
            "Queens above Knights"
        );
        assert_eq!(suit_points(2, &pair.unwrap()), 1);
        assert_eq!(suit_points(2, &three.unwrap()), 2);
    }

    #[test]
    fn bet_strength_follows_the_rule_based_player() {
        let strength = |suit, names| bet_strength(suit, &kinds(names));
        assert_eq!(strength(0, ["queen", "queen", "queen", "jester"]), 2);
        assert_eq!(strength(0, ["queen", "queen", "herald", "jester"]), 1);
        assert_eq!(strength(1, ["queen", "queen", "herald", "jester"]), 0);
        assert_eq!(strength(2, ["queen", "queen", "jester", "jester"]), 2);
        assert_eq!(strength(2, ["herald", "herald", "herald", "jester"]), 1);
        assert_eq!(strength(2, ["herald", "herald", "queen", "jester"]), 0);
        assert_eq!(
            strength(3, ["queen", "knight", "princess", "jester"]),
            2,
            "31"
        );
        assert_eq!(
            strength(3, ["queen", "knight", "princess", "herald"]),
            1,
            "37"
        );
        assert_eq!(
            strength(3, ["queen", "knight", "herald", "courtesan"]),
            0,
            "33"
        );
    }

    #[test]
    fn rollouts_exchange_the_cards_that_fit_nothing_then_declare_no_changes() {
        let g = game(2);
        let mut s = g.new_state(Rng::new(3));
        let p = s.turn as usize;
        // A Queen, a pair of Heralds split between hand and table, a Peasant and a Knight.
        s.hands[p] = [0; KINDS];
        for kind in [QUEEN, HERALD, PEASANT, KNIGHT] {
            s.hands[p][kind as usize] += 1;
        }
        s.table[p][0] = HERALD;
        s.table_len[p] = 1;
        assert_eq!(build_rollout_action(&s), MARK + PEASANT as Action);
        s.marked[PEASANT as usize] = 1;
        assert_eq!(build_rollout_action(&s), MARK + KNIGHT as Action);
        s.marked[KNIGHT as usize] = 1;
        assert_eq!(build_rollout_action(&s), CONFIRM_EXCHANGE);
        s.marked = [0; KINDS];
        s.hands[p][PEASANT as usize] = 0;
        s.hands[p][KNIGHT as usize] = 0;
        s.hands[p][JESTER as usize] = 2;
        assert_eq!(build_rollout_action(&s), NO_CHANGES);
        s.changed = true;
        assert_eq!(build_rollout_action(&s), END_TURN);
    }

    #[test]
    fn rollouts_claim_suits_and_stop_when_the_round_is_scored() {
        let g = game(2);
        let mut s = g.new_state(Rng::new(3));
        let mut rng = Rng::new(5);
        let start = s;
        let (mut claims, mut bets) = (0, 0);
        while s.round == start.round {
            assert_eq!(g.rollout_cutoff(&start, &s), None);
            let legal = g.legal_actions(&s);
            let a = g.rollout_action(&s, &legal, &mut rng);
            assert!(legal.contains(a as usize));
            if legal.contains(BET_MINE as usize) {
                bets += 1;
                claims += usize::from(a == BET_MINE);
            }
            g.apply(&mut s, a);
        }
        assert!(
            bets > 0 && claims * 2 > bets,
            "{claims} claims in {bets} bets"
        );
        let lead = i64::from(s.scores[0]) - i64::from(s.scores[1]);
        let expected = (lead as f64 / (31.0 / 4.0)).tanh();
        assert_eq!(
            g.rollout_cutoff(&start, &s),
            Some(vec![expected, -expected])
        );
    }

    #[test]
    fn game_is_31_then_the_highest_from_32_and_nothing_below() {
        let g31 = key(3, ["queen", "knight", "princess", "jester"]).unwrap();
        let g40 = key(3, ["queen"; 4]).unwrap();
        assert!(g31 > g40);
        assert_eq!((suit_points(3, &g31), suit_points(3, &g40)), (2, 1));
        assert_eq!(key(3, ["queen", "queen", "herald", "jester"]), None, "28");
        let more_queens = key(3, ["queen", "queen", "knight", "knight"]);
        assert!(more_queens > key(3, ["queen", "knight", "knight", "princess"]));
    }

    #[test]
    fn jesters_tie_goes_to_the_lower_cards_queens_tie_to_the_higher() {
        let low = key(1, ["jester", "jester", "peasant", "queen"]);
        assert!(low > key(1, ["jester", "jester", "queen", "queen"]));
        let high = key(0, ["queen", "knight", "jester", "jester"]);
        assert!(high > key(0, ["queen", "herald", "jester", "jester"]));
        assert_eq!(high, key(0, ["queen", "princess", "jester", "jester"]));
    }

    #[test]
    fn every_seat_always_holds_four_cards_and_the_deck_adds_up() {
        for players in 2..=4 {
            let g = game(players);
            let mut s = g.new_state(Rng::new(players as u64));
            let mut picker = Rng::new(99);
            while g.current_player(&s).is_some() {
                g.check_state(&s).unwrap();
                let legal = g.legal_actions(&s);
                g.apply(&mut s, legal.nth(picker.index(legal.len())).unwrap());
            }
            g.check_state(&s).unwrap();
            assert!(s.scores.iter().any(|&x| x >= 31));
        }
    }

    fn explicit(players: usize) -> Regine {
        let mut g = game(players);
        g.config.chance = ChanceMode::Explicit;
        g
    }

    #[test]
    fn explicit_chance_deals_card_by_card_from_the_dealers_left() {
        let g = explicit(3);
        let mut s = g.new_state(Rng::new(1));
        assert_eq!(s.deck, [UNSEEN; DECK]);
        for k in [1u8, 2, 0] {
            for dealt in 0..COMBO {
                assert_eq!(g.chance_event(&s), Some(ChanceEvent::Draw(k)));
                assert_eq!(g.current_player(&s), None);
                g.check_state(&s).unwrap();
                let outcomes = g.chance_outcomes(&s);
                let total: f64 = outcomes.iter().map(|&(_, p)| p).sum();
                assert!((total - 1.0).abs() < 1e-12);
                if k == 1 && dealt == 0 {
                    assert_eq!(outcomes[0], (JESTER as Action, 8.0 / 40.0));
                    assert_eq!(outcomes[1], (PEASANT as Action, 4.0 / 40.0));
                }
                let queen = g.legal_actions(&s).contains(QUEEN as usize);
                g.apply(&mut s, if queen { QUEEN } else { JESTER } as Action);
            }
        }
        assert_eq!(s.hands[0][JESTER as usize], 4, "only 8 Queens");
        assert_eq!(hand_size(&s.hands[0]), 4);
        assert_eq!(g.current_player(&s), Some(0), "the Dealer begins");
        assert_eq!(s.deck_len, 28);
        assert!(!g.legal_actions(&s).contains(QUEEN as usize));
    }

    #[test]
    fn explicit_chance_draws_the_knights_loss_the_heralds_card_and_the_replacements() {
        let g = explicit(2);
        let mut s = g.new_state(Rng::new(1));
        for kind in [
            KNIGHT, HERALD, JESTER, JESTER, QUEEN, QUEEN, PEASANT, ASSASSIN,
        ] {
            g.apply(&mut s, kind as Action);
        }
        // Seat 1 holds knight, herald, jester, jester; the Dealer (seat 0) begins.
        assert_eq!((s.turn, g.current_player(&s)), (0, Some(0)));
        g.apply(&mut s, END_TURN);
        g.apply(&mut s, PLAY_UP + KNIGHT as Action);
        g.apply(&mut s, KNIGHT_SEAT);
        assert_eq!(g.chance_event(&s), Some(ChanceEvent::KnightLoss(0)));
        assert_eq!(
            g.chance_outcomes(&s),
            vec![
                (PEASANT as Action, 0.25),
                (ASSASSIN as Action, 0.25),
                (QUEEN as Action, 0.5)
            ]
        );
        assert_eq!(g.action_name(&s, QUEEN as Action), "seat 0 loses queen");
        g.check_state(&s).unwrap();
        g.apply(&mut s, QUEEN as Action);
        assert_eq!(s.discard[QUEEN as usize], 1);
        assert_eq!(g.chance_event(&s), Some(ChanceEvent::Draw(0)));
        // 32 cards unseen (8 dealt, one of them discarded), 6 Queens among them.
        let p = g.chance_outcomes(&s);
        assert!(p.contains(&(QUEEN as Action, 6.0 / 32.0)), "{p:?}");
        g.apply(&mut s, COURTESAN as Action);
        assert_eq!(s.hands[0][COURTESAN as usize], 1);
        assert_eq!(
            g.current_player(&s),
            Some(1),
            "the Knight's owner still has her turn"
        );
        for a in [END_TURN, END_TURN, PLAY_UP + HERALD as Action] {
            assert!(g.legal_actions(&s).contains(a as usize));
            g.apply(&mut s, a);
        }
        assert_eq!(g.chance_event(&s), Some(ChanceEvent::HeraldTop));
        let herald_view = g.observation(&s, 1);
        assert_eq!(herald_view["herald_card"], Value::Null);
        g.apply(&mut s, PRINCESS as Action);
        assert_eq!(g.current_player(&s), Some(1));
        assert_eq!(g.observation(&s, 1)["herald_card"], "princess");
        assert_eq!(g.observation(&s, 0)["herald_card"], Value::Null);
        g.apply(&mut s, HERALD_DECLINE);
        assert_eq!(s.deck[0], PRINCESS, "put at the bottom, known");
        g.check_state(&s).unwrap();
        // A determinization keeps the unseen cards unseen and the card at the bottom a card.
        let d = g.determinize(&s, 0, &mut Rng::new(3));
        g.check_state(&d).unwrap();
        assert_eq!(
            d.deck[1..s.deck_len as usize],
            s.deck[1..s.deck_len as usize]
        );
        assert!(d.deck[0] < UNSEEN);
        // The seeded mode refuses what only explicit chance makes.
        let seeded = game(2);
        assert!(seeded.check_state(&s).is_err());
    }

    #[test]
    fn explicit_games_end_and_every_step_is_valid() {
        for players in 2..=4 {
            let g = explicit(players);
            let mut s = g.new_state(Rng::new(players as u64));
            let mut picker = Rng::new(7);
            let mut chance_nodes = 0;
            while s.phase != Phase::Over {
                g.check_state(&s).unwrap();
                let legal = g.legal_actions(&s);
                if g.is_chance_node(&s) {
                    chance_nodes += 1;
                    let outcomes = g.chance_outcomes(&s);
                    let kinds: Vec<Action> = outcomes.iter().map(|&(a, _)| a).collect();
                    assert_eq!(kinds, legal.iter().collect::<Vec<_>>());
                    assert!(g.current_player(&s).is_none());
                } else {
                    assert!(g.current_player(&s).is_some());
                }
                g.apply(&mut s, legal.nth(picker.index(legal.len())).unwrap());
            }
            g.check_state(&s).unwrap();
            assert!(chance_nodes > 4 * players, "{chance_nodes}");
        }
    }

    fn small(chance: &str) -> Regine {
        let mut o = Options::new();
        o.insert("players".into(), Value::from(2));
        o.insert("deck".into(), json!([3, 0, 0, 0, 0, 0, 2, 3]));
        o.insert("build_phase".into(), Value::from(false));
        o.insert("max_rounds".into(), Value::from(1));
        o.insert("chance".into(), Value::from(chance));
        Regine::from_options(&o).unwrap()
    }

    #[test]
    fn the_small_deck_without_phase_1_goes_from_the_deal_to_the_wagers() {
        let seeded = small("seeded");
        let s = seeded.new_state(Rng::new(2));
        assert_eq!((s.phase, s.deck_len), (Phase::Wager, 0));
        assert!(s.table[..2]
            .iter()
            .flatten()
            .all(|&c| [JESTER, PRINCESS, QUEEN].contains(&c)));
        seeded.check_state(&s).unwrap();
        let g = small("explicit");
        let mut s = g.new_state(Rng::new(2));
        assert_eq!(
            g.chance_outcomes(&s),
            vec![
                (0, 3.0 / 8.0),
                (PRINCESS as Action, 2.0 / 8.0),
                (QUEEN as Action, 3.0 / 8.0)
            ]
        );
        for kind in [QUEEN, QUEEN, PRINCESS, JESTER, QUEEN, PRINCESS, JESTER] {
            g.apply(&mut s, kind as Action);
            assert_eq!(s.phase, Phase::Build);
            g.check_state(&s).unwrap();
        }
        assert_eq!(g.chance_outcomes(&s), vec![(0, 1.0)]);
        g.apply(&mut s, JESTER as Action);
        assert_eq!((s.phase, g.current_player(&s)), (Phase::Wager, Some(0)));
        let mut sorted = s.table[1];
        sorted.sort_unstable();
        assert_eq!(sorted, [JESTER, PRINCESS, QUEEN, QUEEN], "31 points");
        // Bad decks are refused.
        for deck in [
            json!([1, 0, 0, 0, 0, 0, 2, 3]),
            json!([8, 8, 8, 8, 8, 0, 0, 8]),
        ] {
            let mut o = Options::new();
            o.insert("players".into(), Value::from(2));
            o.insert("deck".into(), deck);
            assert!(Regine::from_options(&o).is_err());
        }
    }

    #[test]
    fn an_exchange_keeps_the_hand_size_and_a_peasant_chain_returns_to_the_turn() {
        let g = game(2);
        let mut s = g.new_state(Rng::new(1));
        s.hands = [[0; KINDS]; MAX_PLAYERS];
        s.hands[0][PEASANT as usize] = 1;
        s.hands[0][QUEEN as usize] = 3;
        s.hands[1][JESTER as usize] = 2;
        s.hands[1][KNIGHT as usize] = 2;
        // Put the cards taken from the deal back so that the counts add up.
        let mut rest = COPIES;
        for h in &s.hands[..2] {
            for k in 0..KINDS {
                rest[k] -= h[k];
            }
        }
        let mut len = 0;
        for (k, &c) in rest.iter().enumerate() {
            for _ in 0..c {
                s.deck[len] = k as u8;
                len += 1;
            }
        }
        s.deck_len = len as u8;
        s.no_changes = true;
        g.check_state(&s).unwrap();
        g.apply(&mut s, PLAY_UP + PEASANT as Action);
        assert_eq!((s.effect, s.effect_seat), (Effect::PeasantName, 0));
        g.apply(&mut s, PEASANT_SEAT + 1);
        assert_eq!(g.current_player(&s), Some(1));
        g.apply(&mut s, PEASANT_CARD + JESTER as Action);
        assert!(!s.no_changes, "the shown Jester lifts the lock");
        assert_eq!(g.current_player(&s), Some(0));
        g.apply(&mut s, MARK + QUEEN as Action);
        g.apply(&mut s, CONFIRM_EXCHANGE);
        assert_eq!(hand_size(&s.hands[0]), 3);
        assert_eq!(s.turn, 1, "both actions used: the turn passed");
        g.check_state(&s).unwrap();
    }
}
