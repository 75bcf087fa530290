//! Duo — match two of three characteristics to empty your hand first.
//!
//! Rules in ten lines: 64 Symbol cards (colour x number x shape), 12 Jokers of one
//! characteristic each, and with `turbo` 4 Turbo-Jokers. Each of 2-6 players gets 7 cards; two
//! cards start two discard piles. On her turn a player chooses one pile and plays one or more
//! cards onto it, one at a time, each matching the pile's new top card, then ends her turn; or
//! she plays nothing and draws one card. Symbol on Symbol: exactly 2 of 3 characteristics equal;
//! with a Joker: its one characteristic; never Joker on Joker; a Turbo-Joker matches anything
//! both ways. The round stops when a player plays her last card (she scores a point per card
//! left in the other hands) or when the last card of the draw pile is drawn (every player loses
//! a point per card in hand). The next round is dealt afresh; its first player is the previous
//! one's left neighbour. Reaching the target (10 / 15 / 20 for 2 / 3-4 / 5-6 players) wins.
//!
//! Rulings applied (see `docs/rules/duo.md`): a turn plays onto ONE pile (variant `switch_piles`: either
//! pile, card by card); a player who plays nothing draws one card and her turn ends; a starting
//! Joker is matched as a Joker; the round stops at once when the last card is drawn; scores may
//! go negative; seat 0 starts the first round. Ours: "end turn" is legal only after a card was
//! played; by default (`rounds` 0) the game is the rulebook's, to the target, with a stalemate
//! guard of 100 rounds; `rounds` N > 0 ends it after N rounds at most (`rounds=1`: a single
//! round, for benchmarks and learning); when the game ends the highest score wins, ties
//! sharing the win. Small variants (for exact game theory): `colours`, `numbers` and `shapes`
//! keep only the first values of each characteristic, `jokers = false` leaves the Jokers out,
//! `hand_size` deals fewer cards; the deck must hold the hands, the two pile cards and a card
//! to draw. A round is finite whatever the deck: every move lays a card from a hand or draws
//! one from the draw pile (its last card ends the round), except "end turn", which follows a
//! laid card.
//!
//! Randomness: the draw pile is a set; every card taken from it (dealing, drawing, turning the
//! two pile cards) is the `below(size)`-th remaining card in id order. A round deals
//! `hand_size` (7) cards to each seat, one at a time from the round's first player on, then
//! turns the left pile's card, then the right pile's. `determinize` refills the other hands,
//! in seat order, card by card from the cards the seat has not seen, leaves the rest as the
//! draw pile, then forks the state's generator.
//! Every card taken from the draw pile is asked of one chance interface ([`Duo::taking_to`]
//! says where the next card goes): with `chance = "seeded"` the generator answers at once
//! (the draw above), with `chance = "explicit"` the game stops at a chance node whose
//! outcomes are the draw pile's card ids, each equally likely; so the two cannot drift apart.

mod check;
mod observation;
mod policy;
mod rules;
#[cfg(test)]
mod tests;

use crate::actions::{Action, ActionSet};
use crate::bits::Set128;
use crate::chance::{draw_from_counts, ChanceMode, CHANCE_CHOICES};
use crate::error::Result;
use crate::game::{
    random_legal_action, seat_scores, uniform_action, winner_returns, Game, GameNames, Seat,
};
use crate::options::{declare_options, invalid, read, Allowed, Options};
use crate::outcome::{best_of, Outcome};
use crate::rng::Rng;
use crate::tensor::{TensorOut, TensorWriter};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

// ---- Constants ----
/// Most seats.
pub const MAX_PLAYERS: usize = 6;
/// Cards dealt to each seat by default (the `hand_size` option).
pub const HAND_SIZE: usize = 7;
/// Largest value of the `hand_size` option (two hands, two pile cards and one to draw fit the
/// whole Turbo-Duo deck).
pub const MAX_HAND_SIZE: usize = 38;
/// Values of each characteristic: colours, numbers, shapes.
pub const VALUES: usize = 4;
/// Symbol cards are ids `0..64`: `colour * 16 + number * 4 + shape`.
pub const SYMBOLS: usize = 64;
/// Jokers are ids `64..76`: `64 + characteristic * 4 + value` (colour, number, shape).
pub const FIRST_JOKER: usize = 64;
/// Turbo-Jokers are ids `76..80`.
pub const FIRST_TURBO: usize = 76;
/// Cards of the basic game.
pub const BASIC_CARDS: usize = 76;
/// Cards of Turbo-Duo.
pub const TURBO_CARDS: usize = 80;
/// Card kinds an action can play: every card id below 76, and one kind for any Turbo-Joker.
pub const KINDS: usize = 77;
/// The kind of every Turbo-Joker.
pub const TURBO_KIND: usize = 76;
/// The two discard piles: 0 is the left one, 1 the right one.
pub const PILES: usize = 2;
/// Names of the piles, as actions and observations give them.
pub const PILE_NAMES: [&str; PILES] = ["left", "right"];
/// Action `pile * KINDS + kind` plays a card; then come "draw" and "end turn".
pub const DRAW: Action = (PILES * KINDS) as Action;
/// The action that ends a turn in which a card was played.
pub const END_TURN: Action = DRAW + 1;
/// Size of the action space.
pub const NUM_ACTIONS: usize = END_TURN as usize + 1;
/// Largest value of the `rounds` option.
pub const MAX_ROUNDS: u32 = 10_000;
/// Rounds after which a game with `rounds` 0 (to the target) stops: the stalemate guard.
pub const STALEMATE_ROUNDS: u32 = 100;
/// Largest value of the `target` option.
const MAX_TARGET: i64 = 10_000;
/// Most points a round can move a score by (no more cards are in play).
const MAX_ROUND_POINTS: i64 = TURBO_CARDS as i64;
const COLOURS: [&str; 4] = ["blue", "red", "yellow", "green"];
const NUMBERS: [&str; 4] = ["1", "2", "3", "4"];
const SHAPES: [&str; 4] = ["circle", "square", "triangle", "cross"];
/// Size of the observation tensor.
pub const TENSOR_SIZE: usize = 5 * KINDS + PILES + 4 * MAX_PLAYERS + 1;

// ---- Options ----
declare_options! {
    /// Duo's options.
    pub struct DuoOptions {
        players: usize = 2, Allowed::Integer { min: 2, max: MAX_PLAYERS as i64 }, "number of players";
        target: Option<i64> = None, Allowed::Integer { min: 1, max: MAX_TARGET },
            "points that win the game (null: 10, 15 or 20 by player count)";
        rounds: u32 = 0, Allowed::Integer { min: 0, max: MAX_ROUNDS as i64 },
            "0: the rulebook's game, rounds until someone reaches the target (stopped after 100 rounds at most); otherwise at most this many rounds, highest score winning (1: a single round)";
        turbo: bool = false, Allowed::Boolean, "add the 4 Turbo-Jokers (Turbo-Duo)";
        switch_piles: bool = false, Allowed::Boolean, "variant: each card of a turn may go onto either pile";
        colours: usize = VALUES, Allowed::Integer { min: 1, max: VALUES as i64 },
            "small deck: only the first this many colours (blue, red, yellow, green) are in play", saved_default = VALUES;
        numbers: usize = VALUES, Allowed::Integer { min: 1, max: VALUES as i64 },
            "small deck: only the numbers 1 to this are in play", saved_default = VALUES;
        shapes: usize = VALUES, Allowed::Integer { min: 1, max: VALUES as i64 },
            "small deck: only the first this many shapes (circle, square, triangle, cross) are in play", saved_default = VALUES;
        jokers: bool = true, Allowed::Boolean,
            "the Jokers are in play (those of the colours, numbers and shapes in play)", saved_default = true;
        hand_size: usize = HAND_SIZE, Allowed::Integer { min: 1, max: MAX_HAND_SIZE as i64 },
            "cards dealt to each player (the deck must hold players x hand_size + 3 cards)", saved_default = HAND_SIZE;
        chance: ChanceMode = ChanceMode::Seeded, Allowed::Choice(CHANCE_CHOICES),
            "'seeded' (cards are drawn from the seed) or 'explicit' (each card dealt, turned or drawn is a chance node)",
            saved_default = ChanceMode::Seeded;
    }
}

/// The rulebook's target: 10 points for 2 players, 15 for 3-4, 20 for 5-6.
pub fn default_target(players: usize) -> i64 {
    match players {
        2 => 10,
        3 | 4 => 15,
        _ => 20,
    }
}

/// The rules, with the options in force.
#[derive(Clone, Debug)]
pub struct Duo {
    /// The options in force (`target` filled in).
    pub config: DuoOptions,
    /// The search's table of the chance to win from the points still needed, for needs up to
    /// `need_limit`: with two players [`win_chances`], with more [`finish_times`].
    win_chances: Vec<f64>,
    /// The largest need the table holds.
    need_limit: usize,
    /// The cards in play ([`deck_of`]).
    deck: Set128,
}

/// The cards the options put in play: the Symbol cards of the first `colours` colours,
/// `numbers` numbers and `shapes` shapes; with `jokers` the Jokers of those values; with
/// `turbo` the Turbo-Jokers. The defaults give the whole deck.
pub fn deck_of(config: &DuoOptions) -> Set128 {
    let limits = [config.colours, config.numbers, config.shapes];
    let mut deck = Set128::EMPTY;
    for card in 0..TURBO_CARDS {
        let wanted = if card < SYMBOLS {
            true
        } else if card < FIRST_TURBO {
            config.jokers
        } else {
            config.turbo
        };
        let within = (0..3).all(|k| characteristic(card, k).is_none_or(|v| v < limits[k]));
        if wanted && within {
            deck.insert(card);
        }
    }
    deck
}

impl Duo {
    /// Points that win.
    pub fn target(&self) -> i64 {
        self.config
            .target
            .unwrap_or_else(|| default_target(self.config.players))
    }

    fn deck_size(&self) -> usize {
        self.deck.len()
    }

    /// The most moves `seats` seats, dealt `dealt` cards in all, make in one round. Let `D`
    /// be the draw pile after the deal (the deck less the hands and the two pile cards). A
    /// move draws a card, lays one, or ends a turn in which cards were laid (at most one per
    /// laid card); a card is drawn once at most, so there are `D` draws at most, and laid once
    /// at most, so the seats lay at most the cards they were dealt or drew less those they
    /// still hold when the round stops. The round stops either when its last card is drawn:
    /// then every hand held a card before that draw, and the card drawn last is not laid, so
    /// the seats lay `dealt + D - 1 - seats` cards at most; or when a seat lays her last
    /// card: then fewer than `D` cards were drawn, each other seat holds a card, and the last
    /// turn has no "end turn", which leaves the same count of moves. Either way the seats make
    /// at most `D + 2 × (dealt + D - seats - 1)` moves.
    pub fn round_moves(&self, dealt: usize, seats: usize) -> usize {
        let draws = self.deck_size() - self.config.players * self.config.hand_size - PILES;
        draws + 2 * (dealt + draws - seats - 1)
    }

    fn round_limit(&self) -> u32 {
        if self.config.rounds == 0 {
            STALEMATE_ROUNDS
        } else {
            self.config.rounds
        }
    }
}

// ---- Cards and actions ----
/// Characteristic `kind` (0 colour, 1 number, 2 shape) of `card`: 0-3, or `None` when the
/// card does not have it (a Joker of another characteristic, a Turbo-Joker).
pub const fn characteristic(card: usize, kind: usize) -> Option<usize> {
    if card < SYMBOLS {
        Some((card >> (4 - 2 * kind)) & 3)
    } else if card < FIRST_TURBO && (card - FIRST_JOKER) / 4 == kind {
        Some((card - FIRST_JOKER) % 4)
    } else {
        None
    }
}

/// Whether `card` may be played onto `top`.
pub const fn matches(card: usize, top: usize) -> bool {
    if card >= FIRST_TURBO || top >= FIRST_TURBO {
        return true;
    }
    if card >= SYMBOLS && top >= SYMBOLS {
        return false;
    }
    let mut same = 0;
    let mut kind = 0;
    while kind < 3 {
        if let (Some(a), Some(b)) = (characteristic(card, kind), characteristic(top, kind)) {
            if a == b {
                same += 1;
            }
        }
        kind += 1;
    }
    if card < SYMBOLS && top < SYMBOLS {
        same == 2
    } else {
        same == 1
    }
}

const fn match_table() -> [Set128; TURBO_CARDS] {
    let mut table = [Set128::EMPTY; TURBO_CARDS];
    let mut top = 0;
    while top < TURBO_CARDS {
        let mut card = 0;
        while card < TURBO_CARDS {
            if card != top && matches(card, top) {
                table[top].0 |= 1 << card;
            }
            card += 1;
        }
        top += 1;
    }
    table
}

/// For each top card, the set of cards that may be played onto it.
const MATCHES: [Set128; TURBO_CARDS] = match_table();

/// What an action means, as `State.action_info` shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DuoAction {
    /// A card from hand onto a pile.
    Play {
        /// The card's name (as in the observation's hand).
        card: String,
        /// The pile, `"left"` or `"right"`.
        pile: &'static str,
    },
    /// Draw a card (nothing was played this turn).
    Draw,
    /// End a turn in which cards were played.
    EndTurn,
    /// A chance outcome: a card taken from the draw pile (explicit chance).
    Take {
        /// The card's name (a Turbo-Joker numbered 1 to 4: each is its own outcome).
        card: String,
        /// The seat whose hand it goes to (`None`: a pile).
        seat: Option<usize>,
        /// The pile it is turned onto at the deal (`None`: a hand).
        pile: Option<&'static str>,
    },
}

/// Where the next card taken from the draw pile goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TakeTo {
    /// Dealt to a seat's hand.
    Deal(usize),
    /// Turned onto a pile at the deal.
    Pile(usize),
    /// Drawn by the seat to move, which chose to draw.
    Draw,
}

/// `turn_pile` while the seat to move waits for the card she draws (explicit chance).
const DRAWING: u8 = PILES as u8;

/// The name of card `card` as a chance outcome: its name, a Turbo-Joker numbered.
fn outcome_name(card: usize) -> String {
    if card >= FIRST_TURBO {
        format!("turbo-joker {}", card - FIRST_TURBO + 1)
    } else {
        card_name(card)
    }
}

impl std::fmt::Display for DuoAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DuoAction::Play { card, pile } => write!(f, "play {card} on {pile}"),
            DuoAction::Draw => f.write_str("draw"),
            DuoAction::EndTurn => f.write_str("end turn"),
            DuoAction::Take {
                card,
                seat: Some(seat),
                ..
            } => write!(f, "take {card} for seat {seat}"),
            DuoAction::Take { card, pile, .. } => {
                write!(f, "turn {card} onto {}", pile.unwrap_or_default())
            }
        }
    }
}

/// `"red 3 triangle"`, `"blue joker"`, `"3 joker"`, `"circle joker"` or `"turbo-joker"`.
pub fn card_name(card: usize) -> String {
    if card < SYMBOLS {
        format!(
            "{} {} {}",
            COLOURS[card >> 4],
            NUMBERS[(card >> 2) & 3],
            SHAPES[card & 3]
        )
    } else if card < FIRST_TURBO {
        let j = card - FIRST_JOKER;
        let names = [COLOURS, NUMBERS, SHAPES][j / 4];
        format!("{} joker", names[j % 4])
    } else {
        "turbo-joker".to_string()
    }
}

/// The action kind of a card: its id, all Turbo-Jokers sharing one kind.
pub fn kind_of(card: usize) -> usize {
    card.min(TURBO_KIND)
}

/// The kinds of the cards of `cards` as a bit set (bit `k`: kind `k`): every card below the
/// Turbo-Jokers is its own kind, and any Turbo-Joker sets the one Turbo kind.
#[inline(always)]
fn playable_kinds(cards: Set128) -> u128 {
    let turbo = cards.0 >> FIRST_TURBO != 0;
    (cards & Set128::below(FIRST_TURBO)).0 | (turbo as u128) << TURBO_KIND
}

fn names(set: Set128) -> Vec<String> {
    set.iter().map(card_name).collect()
}

// ---- State ----
/// The whole game state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The game's generator: every card taken from the draw pile is drawn with it.
    pub rng: Rng,
    /// Each seat's hand (seats past the players hold nothing).
    pub hands: [Set128; MAX_PLAYERS],
    /// The draw pile, as a set: its order is drawn card by card.
    pub draw: Set128,
    /// The cards of each discard pile this round (public).
    pub piles: [Set128; PILES],
    /// The top card of each discard pile.
    pub tops: [u8; PILES],
    /// The seat whose turn it is (at the end: the seat that ended the game).
    pub current: u8,
    /// The round, from 1.
    pub round: u32,
    /// Each seat's points (seats past the players have none).
    pub scores: [i32; MAX_PLAYERS],
    /// The pile the current turn plays on (the last one played on with `switch_piles`);
    /// `None` before the turn's first card.
    pub turn_pile: Option<u8>,
    /// The cards played in the current turn.
    pub turn_cards: Set128,
    /// The points each seat got in the last round that ended.
    pub last_points: Option<[i32; MAX_PLAYERS]>,
    /// Who played her last card in the last round that ended (`None`: the draw pile ran out).
    pub last_winner: Option<u8>,
    /// Whether the game is over.
    pub over: bool,
}

impl Game for Duo {
    type State = State;
    type ActionInfo = DuoAction;
    type Config = DuoOptions;

    const NAMES: GameNames = GameNames {
        name: "duo",
        title: "Duo",
        aliases: &[],
    };

    // ---- Options ----
    fn from_options(options: &Options) -> Result<Self> {
        let mut config: DuoOptions = read(Self::NAMES.name, options)?;
        config.target = Some(config.target.unwrap_or(default_target(config.players)));
        let deck = deck_of(&config);
        let needed = config.players * config.hand_size + PILES + 1;
        if deck.len() < needed {
            return Err(invalid(
                Self::NAMES.name,
                "hand_size",
                &format!(
                    "of {} for {} players needs {needed} cards (the hands, two pile cards and one to draw), but the deck holds {}",
                    config.hand_size,
                    config.players,
                    deck.len()
                ),
            ));
        }
        let target = config.target.unwrap_or(default_target(config.players));
        let need_limit = (2 * target as usize).clamp(1, policy::MAX_NEED);
        let win_chances = if config.players == 2 {
            policy::win_chances(need_limit)
        } else {
            policy::finish_times(config.players, need_limit)
        };
        Ok(Duo {
            config,
            win_chances,
            need_limit,
            deck,
        })
    }

    fn config(&self) -> &DuoOptions {
        &self.config
    }

    // ---- Cards and actions ----
    fn num_actions(&self) -> usize {
        NUM_ACTIONS
    }

    fn action_info(&self, s: &State, action: Action) -> DuoAction {
        if let Some(to) = self
            .waiting(s)
            .filter(|_| self.deck.contains(action as usize))
        {
            let (seat, pile) = match to {
                TakeTo::Deal(seat) => (Some(seat), None),
                TakeTo::Draw => (Some(s.current as usize), None),
                TakeTo::Pile(p) => (None, Some(PILE_NAMES[p])),
            };
            return DuoAction::Take {
                card: outcome_name(action as usize),
                seat,
                pile,
            };
        }
        match action {
            DRAW => DuoAction::Draw,
            END_TURN => DuoAction::EndTurn,
            a => DuoAction::Play {
                card: card_name(a as usize % KINDS),
                pile: PILE_NAMES[a as usize / KINDS],
            },
        }
    }

    // ---- Setup ----
    fn new_state(&self, rng: Rng) -> State {
        let mut s = State {
            rng,
            hands: [Set128::EMPTY; MAX_PLAYERS],
            draw: Set128::EMPTY,
            piles: [Set128::EMPTY; PILES],
            tops: [0; PILES],
            current: 0,
            round: 1,
            scores: [0; MAX_PLAYERS],
            turn_pile: None,
            turn_cards: Set128::EMPTY,
            last_points: None,
            last_winner: None,
            over: false,
        };
        self.deal(&mut s);
        s
    }

    // ---- Legal moves ----
    fn current_player(&self, s: &State) -> Option<Seat> {
        (!s.over && self.waiting(s).is_none()).then_some(s.current as usize)
    }

    fn is_chance_node(&self, s: &State) -> bool {
        self.waiting(s).is_some()
    }

    fn chance_outcomes(&self, s: &State) -> Vec<(Action, f64)> {
        if !self.is_chance_node(s) {
            return Vec::new();
        }
        draw_from_counts(s.draw.iter().map(|c| (c as Action, 1)))
    }

    fn explicit_chance(&self) -> bool {
        self.explicit()
    }

    /// A game has at most `rounds` rounds (100, the stalemate guard, with `rounds` 0), each
    /// of at most [`Duo::round_moves`] moves of all the seats; with explicit chance a round
    /// also takes every card of the deck at most, each at a chance node (dealt, turned onto a
    /// pile or drawn), and no card twice, since played cards never go back to the draw pile.
    fn max_history_len(&self) -> Option<usize> {
        let n = self.config.players;
        let chance = if self.explicit() { self.deck_size() } else { 0 };
        Some(
            self.round_limit() as usize * (self.round_moves(n * self.config.hand_size, n) + chance),
        )
    }

    /// A seat makes at most [`Duo::round_moves`] moves of her own in each round.
    fn max_seat_actions(&self) -> Option<usize> {
        Some(self.round_limit() as usize * self.round_moves(self.config.hand_size, 1))
    }

    #[inline(always)] // every move of every playout and search asks for it
    fn legal_actions(&self, s: &State) -> ActionSet {
        let mut out = ActionSet::new();
        if s.over {
            return out;
        }
        if self.is_chance_node(s) {
            return Self::outcomes(s);
        }
        let (kinds, stop) = self.moves(s);
        for (p, kinds) in kinds.into_iter().enumerate() {
            out.insert_bits(p * KINDS, kinds as u64);
            out.insert_bits(p * KINDS + 64, (kinds >> 64) as u64);
        }
        out.insert(stop);
        out
    }

    /// The draw of [`crate::game::random_legal_action`], counted and picked from
    /// `Duo::moves` without building the set (every step of a native playout asks for it).
    #[inline(always)]
    fn random_legal_action(&self, s: &State, rng: &mut Rng) -> Option<Action> {
        if s.over || self.is_chance_node(s) {
            return random_legal_action(&self.legal_actions(s), rng);
        }
        let (kinds, stop) = self.moves(s);
        let counts = kinds.map(|k| k.count_ones() as usize);
        let mut k = rng.index(counts[0] + counts[1] + 1);
        for (p, (kinds, count)) in kinds.into_iter().zip(counts).enumerate() {
            if k < count {
                return Set128(kinds)
                    .nth(k)
                    .map(|kind| (p * KINDS + kind) as Action);
            }
            k -= count;
        }
        Some(stop)
    }

    // ---- Apply ----
    #[inline]
    fn apply(&self, s: &mut State, action: Action) {
        if let Some(to) = self.waiting(s) {
            return self.take_card(s, to, action as usize);
        }
        match action {
            DRAW => self.draw(s),
            END_TURN => self.end_turn(s),
            _ => {
                let a = action as usize;
                self.play(s, a / KINDS, a % KINDS);
            }
        }
    }

    // ---- Scoring ----
    fn returns(&self, s: &State) -> Vec<f64> {
        let scores = &s.scores[..self.config.players];
        if !s.over {
            return vec![0.0; self.config.players];
        }
        let best = scores.iter().copied().max().unwrap_or(0);
        let winners: Vec<bool> = scores.iter().map(|&x| x == best).collect();
        winner_returns(&winners)
    }

    fn scores(&self, s: &State) -> Vec<i64> {
        seat_scores(&s.scores, self.config.players)
    }

    /// `"target_reached"` (a seat reached the target), `"rounds_played"` (the `rounds` a game
    /// was set to) or `"round_guard"` (the stalemate guard of a game to the target); the
    /// highest score wins, ties share.
    fn outcome(&self, s: &State) -> Option<Outcome> {
        if !s.over {
            return None;
        }
        let scores = self.scores(s);
        let reason = if scores.iter().any(|&x| x >= self.target()) {
            "target_reached"
        } else if self.config.rounds > 0 {
            "rounds_played"
        } else {
            "round_guard"
        };
        let won = best_of(&scores);
        Some(Outcome::new(reason, scores, &won, None))
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
        self.check_invariants(s)
    }

    // ---- Search policy ----
    /// Rollouts keep playing while a card fits, as the rule-based player does: a random card
    /// that fits; "draw" or "end turn" only when none does.
    fn rollout_action(&self, _s: &State, legal: &ActionSet, rng: &mut Rng) -> Action {
        let stop = legal.len() - 1; // exactly one of "draw" and "end turn" is always legal
        if stop == 0 {
            return uniform_action(legal, rng);
        }
        legal.nth(rng.index(stop)).unwrap_or_default()
    }

    /// The rollout policy's probabilities: each card that fits equally, "draw" or "end
    /// turn" only when none does.
    fn policy_probabilities(&self, _s: &State, legal: &ActionSet) -> Vec<(Action, f64)> {
        let stop = legal.len() - 1;
        legal
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let p = match (stop, i == stop) {
                    (0, _) => 1.0,
                    (_, true) => 0.0,
                    _ => 1.0 / stop as f64,
                };
                (a, p)
            })
            .collect()
    }

    /// Rollouts stop once a round has been scored (the rest of a game to the target is mostly
    /// the luck of later deals). With two players the returns are estimated from how many
    /// points each still needs (`win_chances`: a lead counts for more the closer the game is
    /// to its end); with more, from each seat's chance to reach the target first
    /// (`finish_times`), as the expected returns of a single winner.
    fn rollout_cutoff(&self, from: &State, s: &State) -> Option<Vec<f64>> {
        (s.round > from.round).then(|| {
            if self.config.players == 2 {
                let v = self.game_edge(s);
                vec![v, -v]
            } else {
                self.game_values(s)
            }
        })
    }
}
