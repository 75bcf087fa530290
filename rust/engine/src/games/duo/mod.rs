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

use crate::actions::{Action, ActionSet};
use crate::bits::Set128;
use crate::chance::{draw_from_counts, ChanceMode, CHANCE_CHOICES};
use crate::error::Result;
use crate::game::{random_legal_action, uniform_action, winner_returns, Game, GameNames, Seat};
use crate::options::{declare_options, invalid, read, Allowed, Options};
use crate::rng::Rng;
use crate::tensor::TensorWriter;
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
        let need_limit = (2 * target as usize).clamp(1, MAX_NEED);
        let win_chances = if config.players == 2 {
            win_chances(need_limit)
        } else {
            finish_times(config.players, need_limit)
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
        json!({
            "seat": seat,
            "current_player": self.current_player(s),
            "round": s.round,
            "first_player": self.first_player(s),
            "target": self.target(),
            "scores": &s.scores[..n],
            "hand": names(s.hands[seat]),
            "hand_sizes": s.hands[..n].iter().map(|h| h.len()).collect::<Vec<_>>(),
            "draw_pile": s.draw.len(),
            "pile_tops": ([0usize, 1].map(|p| (!s.piles[p].is_empty()).then(|| card_name(s.tops[p] as usize)))),
            "pile_cards": s.piles.map(names),
            "turn_pile": s.turn_pile.filter(|&p| p != DRAWING).map(|p| PILE_NAMES[p as usize]),
            "turn_cards": names(s.turn_cards),
            "last_round": s.last_points.map(|points| json!({
                "winner": s.last_winner,
                "points": &points[..n],
            })),
            "terminal": s.over,
        })
    }

    fn observation_tensor(&self, s: &State, seat: Seat, out: &mut [f32]) {
        let n = self.config.players;
        let mut w = TensorWriter::new(out);
        Self::write_cards(&mut w, s.hands[seat]);
        for p in 0..PILES {
            w.one_hot(
                KINDS,
                (!s.piles[p].is_empty()).then(|| kind_of(s.tops[p] as usize)),
            );
        }
        for p in 0..PILES {
            Self::write_cards(&mut w, s.piles[p]);
        }
        w.one_hot(
            PILES,
            s.turn_pile.filter(|&p| p != DRAWING).map(|p| p as usize),
        );
        for k in 0..MAX_PLAYERS {
            let size = s.hands[(seat + k) % n].len();
            w.scalar(if k < n {
                size as f32 / self.config.hand_size as f32
            } else {
                0.0
            });
        }
        for k in 0..MAX_PLAYERS {
            let score = s.scores[(seat + k) % n];
            w.scalar(if k < n {
                score as f32 / self.target() as f32
            } else {
                0.0
            });
        }
        w.scalar(s.draw.len() as f32 / self.deck_size() as f32);
        let relative = |x: usize| (x + n - seat) % n;
        w.one_hot(MAX_PLAYERS, self.current_player(s).map(relative));
        w.one_hot(MAX_PLAYERS, Some(relative(self.first_player(s))));
    }

    fn determinize(&self, s: &State, seat: Seat, rng: &mut Rng) -> State {
        let mut d = *s;
        let mut unseen = d.draw;
        for (i, h) in d.hands.iter().enumerate().take(self.config.players) {
            if i != seat {
                unseen = unseen | *h;
            }
        }
        for i in (0..self.config.players).filter(|&i| i != seat) {
            let size = d.hands[i].len();
            let mut hand = Set128::EMPTY;
            for _ in 0..size {
                let card = unseen.nth(rng.index(unseen.len())).unwrap_or(0);
                unseen.remove(card);
                hand.insert(card);
            }
            d.hands[i] = hand;
        }
        d.draw = unseen;
        d.rng = rng.fork();
        d
    }

    // ---- Checks ----
    fn check_state(&self, s: &State) -> std::result::Result<(), String> {
        let n = self.config.players;
        if !s.rng.is_valid() {
            return Err("generator increment must be odd".into());
        }
        if s.hands[n..].iter().any(|h| !h.is_empty()) || s.scores[n..].iter().any(|&x| x != 0) {
            return Err("seats beyond the players must have no cards and no points".into());
        }
        let parts = s.hands[..n].iter().chain(&s.piles);
        let everything = parts.clone().fold(s.draw, |a, &b| a | b);
        let total = parts.map(|p| p.len()).sum::<usize>() + s.draw.len();
        let deck = self.deck_size();
        if everything != self.deck || total != deck {
            return Err(
                "every card of the deck must be in exactly one hand, pile or the draw pile".into(),
            );
        }
        let dealing = self.dealing(s);
        if (0..PILES)
            .any(|p| !(s.piles[p].contains(s.tops[p] as usize) || dealing && s.piles[p].is_empty()))
        {
            return Err("each pile's top card must be in that pile".into());
        }
        if (dealing || s.turn_pile == Some(DRAWING)) && !self.explicit() {
            return Err(
                "a card is waiting to be taken, but this game takes them from its seed".into(),
            );
        }
        if dealing {
            let in_hands = self.in_hands(s);
            let first = self.first_player(s);
            let dealt = |i: usize| (in_hands.min(self.config.hand_size * n) + n - 1 - i) / n;
            if (0..n).any(|i| s.hands[(first + i) % n].len() != dealt(i))
                || (!s.piles[0].is_empty() && in_hands != self.config.hand_size * n)
                || s.piles[0].len() > 1
                || s.turn_pile.is_some()
                || s.current as usize != first
            {
                return Err(
                    "a deal in progress gives cards in turn from the first player, then the piles"
                        .into(),
                );
            }
        }
        if s.current as usize >= n {
            return Err("the current seat is out of range".into());
        }
        if !(1..=self.round_limit()).contains(&s.round) {
            return Err("the round number is out of range".into());
        }
        let bound = MAX_ROUND_POINTS * s.round as i64;
        if s.scores.iter().any(|&x| (x as i64).abs() > bound) {
            return Err("a score is out of range for the rounds played".into());
        }
        if !s.over && !dealing && (s.draw.is_empty() || s.hands[..n].iter().any(|h| h.is_empty())) {
            return Err("a running round must have a draw pile and no empty hand".into());
        }
        match s.turn_pile {
            None if !s.turn_cards.is_empty() => {
                return Err("cards played this turn without a chosen pile".into());
            }
            None => {}
            Some(DRAWING) if !s.turn_cards.is_empty() || s.over || dealing => {
                return Err(
                    "a seat draws only at the start of her turn, in a running round".into(),
                );
            }
            Some(DRAWING) => {}
            Some(p) => {
                let p = p as usize;
                if p >= PILES || !s.turn_cards.contains(s.tops[p] as usize) || s.over {
                    return Err("the turn's pile must be a pile whose top was played this turn, in a running game".into());
                }
                if !(s.turn_cards - (s.piles[0] | s.piles[1])).is_empty()
                    || (!self.config.switch_piles && !(s.turn_cards - s.piles[p]).is_empty())
                {
                    return Err("the cards played this turn must lie on the turn's pile".into());
                }
            }
        }
        if s.last_points.is_none() != (s.round == 1 && !s.over) {
            return Err(
                "the last round's points must be given exactly when a round has ended".into(),
            );
        }
        if s.last_points
            .is_some_and(|p| p[n..].iter().any(|&x| x != 0))
        {
            return Err("seats beyond the players must have no points".into());
        }
        if s.last_winner
            .is_some_and(|w| w as usize >= n || s.last_points.is_none())
        {
            return Err("the last round's winner is out of range".into());
        }
        let best = s.scores[..n].iter().copied().max().unwrap_or(0) as i64;
        let decided = best >= self.target() || (s.over && s.round >= self.round_limit());
        if s.over != decided {
            return Err("'over' does not agree with the scores and the rounds".into());
        }
        Ok(())
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

// ---- Setup ----
impl Duo {
    /// The seat that started the current round: seat 0, then one seat to the left a round.
    pub fn first_player(&self, s: &State) -> Seat {
        (s.round.saturating_sub(1) as usize) % self.config.players
    }

    /// Whether cards are taken at chance nodes (`chance = "explicit"`).
    fn explicit(&self) -> bool {
        self.config.chance == ChanceMode::Explicit
    }

    /// Cards in the hands (all of a round's deal so far while the deal is on).
    fn in_hands(&self, s: &State) -> usize {
        s.hands[..self.config.players].iter().map(|h| h.len()).sum()
    }

    /// Whether a round's deal is on: the right pile has no card yet (it never is empty later).
    fn dealing(&self, s: &State) -> bool {
        !s.over && s.piles[PILES - 1].is_empty()
    }

    /// Where the game waits for a chance outcome, if it does: only with explicit chance (a
    /// seeded game settles every card at once, so it never waits, and its moves pay for no
    /// look at the deal).
    fn waiting(&self, s: &State) -> Option<TakeTo> {
        if self.explicit() {
            self.taking_to(s)
        } else {
            None
        }
    }

    /// The chance interface: where the next card taken from the draw pile goes, or `None`
    /// when nothing is to be taken. The deal: `hand_size` cards to each seat, one at a time
    /// from the round's first player on, then the left pile's card, the right pile's; then a
    /// card for the seat that chose to draw.
    pub fn taking_to(&self, s: &State) -> Option<TakeTo> {
        let n = self.config.players;
        if s.over || s.draw.is_empty() {
            None
        } else if !self.dealing(s) {
            (s.turn_pile == Some(DRAWING)).then_some(TakeTo::Draw)
        } else if !s.piles[0].is_empty() {
            Some(TakeTo::Pile(1))
        } else {
            let dealt = self.in_hands(s);
            if dealt < self.config.hand_size * n {
                Some(TakeTo::Deal((self.first_player(s) + dealt) % n))
            } else {
                Some(TakeTo::Pile(0))
            }
        }
    }

    /// Seeded: the generator answers every card the chance interface asks for, a uniformly
    /// random card of the draw pile (explicit: the game waits at the chance node).
    fn settle(&self, s: &mut State) {
        if self.explicit() {
            return;
        }
        while let Some(to) = self.taking_to(s) {
            let i = s.rng.index(s.draw.len());
            let card = s.draw.nth(i).unwrap_or(0);
            self.take_card(s, to, card);
        }
    }

    /// Card `card` out of the draw pile and to where the chance interface said it goes.
    fn take_card(&self, s: &mut State, to: TakeTo, card: usize) {
        s.draw.remove(card);
        match to {
            TakeTo::Deal(seat) => s.hands[seat].insert(card),
            TakeTo::Pile(p) => {
                s.tops[p] = card as u8;
                s.piles[p] = Set128::single(card);
            }
            TakeTo::Draw => {
                s.hands[s.current as usize].insert(card);
                s.turn_pile = None;
                if s.draw.is_empty() {
                    self.end_round(s, None);
                } else {
                    self.next_seat(s);
                }
            }
        }
    }

    fn deal(&self, s: &mut State) {
        s.draw = self.deck;
        s.hands = [Set128::EMPTY; MAX_PLAYERS];
        s.piles = [Set128::EMPTY; PILES];
        s.current = self.first_player(s) as u8;
        s.turn_pile = None;
        s.turn_cards = Set128::EMPTY;
        self.settle(s);
    }
}

// ---- Legal moves ----
impl Duo {
    /// At a chance node: the cards of the draw pile (kept out of the players' path, which
    /// every move takes).
    #[cold]
    fn outcomes(s: &State) -> ActionSet {
        let mut out = ActionSet::new();
        for c in s.draw.iter() {
            out.insert(c as Action);
        }
        out
    }

    /// The moves of the seat to move in a running round: for each pile the kinds of the
    /// cards she may play onto it ([`playable_kinds`]; none onto a pile closed for the rest
    /// of her turn), then "draw" or "end turn", whichever is legal. In action order: the
    /// left pile's plays, the right pile's, the last one.
    #[inline(always)]
    fn moves(&self, s: &State) -> ([u128; PILES], Action) {
        let hand = s.hands[s.current as usize];
        let (open, stop) = match s.turn_pile {
            None => ([true; PILES], DRAW),
            Some(p) => (
                std::array::from_fn(|q| self.config.switch_piles || q == p as usize),
                END_TURN,
            ),
        };
        let kinds = std::array::from_fn(|p| {
            let fits = hand & MATCHES[s.tops[p] as usize];
            if open[p] {
                playable_kinds(fits)
            } else {
                0
            }
        });
        (kinds, stop)
    }
}

// ---- Apply ----
impl Duo {
    fn next_seat(&self, s: &mut State) {
        let next = s.current as usize + 1; // `current` is a seat: below `players`
        s.current = if next == self.config.players {
            0
        } else {
            next as u8
        };
        s.turn_pile = None;
        s.turn_cards = Set128::EMPTY;
    }

    fn play(&self, s: &mut State, pile: usize, kind: usize) {
        let seat = s.current as usize;
        let hand = s.hands[seat];
        let card = if kind < TURBO_KIND {
            kind
        } else {
            (hand - Set128::below(FIRST_TURBO))
                .first()
                .unwrap_or(FIRST_TURBO)
        };
        s.hands[seat].remove(card);
        s.piles[pile].insert(card);
        s.tops[pile] = card as u8;
        s.turn_pile = Some(pile as u8);
        s.turn_cards.insert(card);
        if s.hands[seat].is_empty() {
            self.end_round(s, Some(seat));
        }
    }

    fn end_turn(&self, s: &mut State) {
        self.next_seat(s);
    }

    fn draw(&self, s: &mut State) {
        s.turn_pile = Some(DRAWING);
        self.settle(s);
    }
}

// ---- Scoring ----
impl Duo {
    fn end_round(&self, s: &mut State, winner: Option<Seat>) {
        let mut points = [0i32; MAX_PLAYERS];
        match winner {
            None => {
                for (p, h) in points.iter_mut().zip(&s.hands) {
                    *p = -(h.len() as i32);
                }
            }
            Some(w) => points[w] = s.hands.iter().map(|h| h.len() as i32).sum(),
        }
        for (score, p) in s.scores.iter_mut().zip(points) {
            *score = score.saturating_add(p);
        }
        s.last_points = Some(points);
        s.last_winner = winner.map(|w| w as u8);
        s.turn_pile = None;
        s.turn_cards = Set128::EMPTY;
        let best = s.scores.iter().copied().max().unwrap_or(0) as i64;
        if best >= self.target() || s.round >= self.round_limit() {
            s.over = true;
        } else {
            s.round += 1;
            self.deal(s);
        }
    }
}

// ---- Observation ----
impl Duo {
    fn write_cards(w: &mut TensorWriter, set: Set128) {
        w.mask(set.0 as u64, SYMBOLS);
        w.mask((set.0 >> SYMBOLS) as u64, FIRST_TURBO - SYMBOLS);
        let turbos = (set - Set128::below(FIRST_TURBO)).len();
        w.scalar(turbos as f32 / (TURBO_CARDS - FIRST_TURBO) as f32);
    }
}

// ---- Search policy ----
/// How often a round between two players sharing greedy shedding (always the first card that
/// fits) ended with the winner scoring 1, 2, ... 12 points, over 100 000 rounds (the last
/// entry counts 12 or more; the rounds that ran the draw pile out, about one in ten, are left
/// out). The search's estimate of the chance to win a game from its scores rests on it.
const ROUND_POINTS: [u32; 12] = [
    15816, 20550, 19049, 14244, 9541, 5711, 2960, 1435, 627, 224, 135, 85,
];

/// Points still needed beyond which the table of [`win_chances`] stops (a need is clamped).
const MAX_NEED: usize = 256;

/// For two players who still need `a` and `b` points (`1..=n` each), the chance that the first
/// wins the game, at index `(a - 1) * n + (b - 1)`, if every later round is won by either
/// player alike and scores as [`ROUND_POINTS`] says.
fn win_chances(n: usize) -> Vec<f64> {
    let total = ROUND_POINTS.iter().sum::<u32>() as f64;
    let mut v = vec![0.0; n * n];
    for a in 1..=n {
        for b in 1..=n {
            let mut chance = 0.0;
            for (k, &weight) in (1..).zip(&ROUND_POINTS) {
                let half = weight as f64 / total / 2.0;
                chance += half
                    * if k >= a {
                        1.0
                    } else {
                        v[(a - k - 1) * n + b - 1]
                    };
                chance += half
                    * if k >= b {
                        0.0
                    } else {
                        v[(a - 1) * n + b - k - 1]
                    };
            }
            v[(a - 1) * n + b - 1] = chance;
        }
    }
    v
}

/// How often a round between 3, 4, 5 and 6 players sharing greedy shedding ended with the
/// winner scoring 1, 2, ... 32 points, over 100 000 rounds each (the last entry counts 32 or
/// more; the rounds that ran the draw pile out, under one in fifty, are left out; seed 1).
/// Re-measured by `cargo run --release -p regalia-engine --example duo_strength 100000 1 0
/// PLAYERS`.
const ROUND_POINTS_MORE: [[u32; 32]; MAX_PLAYERS - 2] = [
    [
        0, 3191, 9316, 14323, 16256, 15479, 12736, 9591, 6701, 4459, 2763, 1580, 776, 639, 201, 79,
        34, 7, 6, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ],
    [
        0, 0, 696, 2990, 6644, 10156, 12634, 13390, 12357, 10649, 8367, 6575, 4882, 3482, 2378,
        1591, 1040, 562, 359, 248, 321, 44, 11, 2, 2, 0, 0, 0, 0, 0, 0, 0,
    ],
    [
        0, 0, 0, 155, 861, 2399, 4745, 7520, 9388, 10678, 10990, 10194, 8933, 7823, 6278, 5046,
        3873, 2953, 2247, 1661, 1208, 833, 573, 382, 244, 193, 113, 301, 29, 1, 1, 0,
    ],
    [
        0, 0, 0, 0, 44, 242, 775, 1957, 3458, 5364, 7073, 8464, 9157, 9206, 8715, 7861, 6992, 6002,
        5038, 4159, 3217, 2625, 2144, 1723, 1313, 1047, 762, 588, 432, 258, 207, 720,
    ],
];

/// Points in time at which [`finish_times`] is tabulated.
const TIME_STEPS: usize = 128;

/// [`finish_times_from`] the round points measured for `players` (more than two).
fn finish_times(players: usize, n: usize) -> Vec<f64> {
    finish_times_from(&ROUND_POINTS_MORE[players.clamp(3, MAX_PLAYERS) - 3], n)
}

/// When a player who still needs `a` points (`1..=n`) reaches them if each round's winner
/// scores as the counts `points` (of 1, 2, ... points) say and every player wins rounds at the
/// same rate, one a unit of time (independent clocks of that rate order the round winners as
/// uniform draws, so the first to finish is the game's winner): at `TIME_STEPS` even steps of
/// time, the chance she has not yet finished at index `(a - 1) * TIME_STEPS + k`, then, after
/// `n * TIME_STEPS` entries, the density of her finishing there.
fn finish_times_from(points: &[u32], n: usize) -> Vec<f64> {
    let total = points.iter().sum::<u32>() as f64;
    // wins[(a - 1) * n + m - 1]: the chance that the m-th round win first brings a points.
    let mut wins = vec![0.0; n * n];
    let mut short = vec![0.0; n]; // short[s]: the chance of exactly s (< n) points so far
    short[0] = 1.0;
    let mut reached = vec![0.0; n];
    for m in 1..=n {
        let mut next = vec![0.0; n];
        for (s, &p) in short.iter().enumerate().filter(|(_, &p)| p > 0.0) {
            for (k, &w) in (1..).zip(points).take_while(|&(k, _)| s + k < n) {
                next[s + k] += p * w as f64 / total;
            }
        }
        short = next;
        let mut below = 0.0;
        for a in 1..=n {
            below += short[a - 1];
            let now = 1.0 - below;
            wins[(a - 1) * n + m - 1] = now - reached[a - 1];
            reached[a - 1] = now;
        }
    }
    // Finishing by time t takes a Poisson count of wins of at least the m needed.
    let at = |a: usize, t: f64| {
        let (mut poisson, mut below, mut survival, mut density) = ((-t).exp(), 0.0, 0.0, 0.0);
        for (m, &w) in (1..).zip(&wins[(a - 1) * n..a * n]) {
            below += poisson;
            survival += w * below;
            density += w * poisson;
            poisson *= t / m as f64;
        }
        (survival, density)
    };
    // Up to the time by which even the largest need is met almost surely.
    let end = (1..)
        .map(f64::from)
        .find(|&t| at(n, t).0 < 1e-12 || t > 1e4)
        .unwrap_or(1.0);
    let step = end / TIME_STEPS as f64;
    let mut table = vec![0.0; 2 * n * TIME_STEPS];
    for a in 1..=n {
        for k in 0..TIME_STEPS {
            let (survival, density) = at(a, (k as f64 + 0.5) * step);
            table[(a - 1) * TIME_STEPS + k] = survival;
            table[(n + a - 1) * TIME_STEPS + k] = density;
        }
    }
    table
}

impl Duo {
    /// With two players, seat 0's estimated edge from scores `s` between rounds: its chance
    /// to win the game less seat 1's ([`win_chances`]; exactly zero for equal needs).
    fn game_edge(&self, s: &State) -> f64 {
        let chance = |a: usize, b: usize| self.win_chances[(a - 1) * self.need_limit + b - 1];
        chance(self.need(s, 0), self.need(s, 1)) - chance(self.need(s, 1), self.need(s, 0))
    }

    /// The points `seat` still needs, clamped to the table's `1..=need_limit`.
    fn need(&self, s: &State, seat: Seat) -> usize {
        (self.target() - s.scores[seat] as i64).clamp(1, self.need_limit as i64) as usize
    }

    /// With more than two players, each seat's expected return from scores `s` between
    /// rounds: with `p` its chance to be the first to reach the target ([`finish_times`]), the
    /// returns of a single winner, `p - (1 - p) / (players - 1)` (zero-sum).
    fn game_values(&self, s: &State) -> Vec<f64> {
        let n = self.config.players;
        let rows: [usize; MAX_PLAYERS] = std::array::from_fn(|i| {
            if i < n {
                (self.need(s, i) - 1) * TIME_STEPS
            } else {
                0
            }
        });
        let (survival, density) = self.win_chances.split_at(self.need_limit * TIME_STEPS);
        let mut chances = [0.0; MAX_PLAYERS];
        for k in 0..TIME_STEPS {
            // Each seat finishing at step k while every other is still short.
            let mut before = [1.0; MAX_PLAYERS + 1];
            for i in 0..n {
                before[i + 1] = before[i] * survival[rows[i] + k];
            }
            let mut after = 1.0;
            for i in (0..n).rev() {
                chances[i] += density[rows[i] + k] * before[i] * after;
                after *= survival[rows[i] + k];
            }
        }
        let total: f64 = chances[..n].iter().sum();
        let others = (n - 1) as f64;
        chances[..n]
            .iter()
            .map(|&c| (c / total) - (1.0 - c / total) / others)
            .collect()
    }
}

// ---- Tests ----
#[cfg(test)]
mod tests {
    use super::*;

    /// The rulebook's game to the target.
    fn game(players: usize) -> Duo {
        let mut o = Options::new();
        o.insert("players".into(), json!(players));
        o.insert("rounds".into(), json!(0));
        Duo::from_options(&o).unwrap()
    }

    fn card(name: &str) -> usize {
        (0..TURBO_CARDS).find(|&c| card_name(c) == name).unwrap()
    }

    #[test]
    fn names_and_ids_agree() {
        assert_eq!(card_name(0), "blue 1 circle");
        assert_eq!(card("red 3 triangle"), 16 + 2 * 4 + 2);
        assert_eq!(card("green 4 cross"), 63);
        assert_eq!(card("blue joker"), 64);
        assert_eq!(card("4 joker"), 71);
        assert_eq!(card("cross joker"), 75);
        assert_eq!(card_name(79), "turbo-joker");
    }

    #[test]
    fn matching_follows_the_rulebook() {
        // Symbol on Symbol: exactly two of the three characteristics.
        assert!(matches(card("red 3 circle"), card("red 3 cross")));
        assert!(matches(card("red 1 cross"), card("red 3 cross")));
        assert!(matches(card("blue 3 cross"), card("red 3 cross")));
        assert!(!matches(card("blue 1 cross"), card("red 3 cross")));
        assert!(!matches(card("blue 1 circle"), card("red 3 cross")));
        // Onto a Joker: its one characteristic; a Joker onto a Symbol: the same.
        assert!(matches(card("red 1 circle"), card("red joker")));
        assert!(!matches(card("blue 1 circle"), card("red joker")));
        assert!(matches(card("square joker"), card("green 2 square")));
        assert!(!matches(card("circle joker"), card("green 2 square")));
        assert!(!matches(card("2 joker"), card("2 joker")));
        // Never Joker on Joker; a Turbo-Joker on anything and anything on it.
        assert!(!matches(card("red joker"), card("blue joker")));
        assert!(!matches(card("3 joker"), card("red joker")));
        assert!(matches(79, card("red joker")) && matches(card("red joker"), 76));
        assert!(matches(76, 77) && matches(76, card("blue 1 circle")));
        // Every Symbol card matches exactly 9 Symbol cards and 3 Jokers.
        for m in &MATCHES[..SYMBOLS] {
            assert_eq!((*m - Set128::below(FIRST_TURBO)).len(), 4);
            assert_eq!((*m & Set128::below(FIRST_TURBO)).len(), 12);
        }
    }

    /// A round in progress: the given hands and pile tops, the other cards in the draw pile
    /// except that only `draw` of them stay there (the rest lie under the left pile).
    fn position(g: &Duo, hands: &[&[&str]], tops: [&str; 2], draw: usize) -> State {
        let mut s = g.new_state(Rng::new(1));
        s.hands = [Set128::EMPTY; MAX_PLAYERS];
        for (h, names) in s.hands.iter_mut().zip(hands) {
            names.iter().for_each(|n| h.insert(card(n)));
        }
        s.tops = tops.map(|n| card(n) as u8);
        s.piles = tops.map(|n| Set128::single(card(n)));
        let placed = s.hands.iter().fold(s.piles[0] | s.piles[1], |a, &h| a | h);
        let rest = Set128::below(BASIC_CARDS) - placed;
        s.draw = Set128::EMPTY;
        for (i, c) in rest.iter().enumerate() {
            if i < draw {
                s.draw.insert(c);
            } else {
                s.piles[0].insert(c);
            }
        }
        assert_eq!(g.check_state(&s), Ok(()));
        s
    }

    #[test]
    fn the_fast_random_move_draws_what_the_legal_set_gives() {
        // Every variant whose moves differ: seats, switching piles, Turbo-Jokers, a small
        // deck, explicit chance (whose chance nodes take the slow path).
        let variants = [
            json!({"players": 2, "rounds": 1}),
            json!({"players": 4, "switch_piles": true, "rounds": 2}),
            json!({"players": 3, "turbo": true, "rounds": 2}),
            json!({"players": 6, "turbo": true, "switch_piles": true, "rounds": 1}),
            json!({"colours": 2, "numbers": 2, "shapes": 3, "hand_size": 2, "rounds": 3}),
            json!({"turbo": true, "chance": "explicit", "rounds": 1}),
        ];
        for (i, options) in variants.into_iter().enumerate() {
            let options: Options = serde_json::from_value(options).unwrap();
            let g = Duo::from_options(&options).unwrap();
            for seed in 0..40 {
                let mut s = g.new_state(Rng::new(seed));
                let mut picker = Rng::new(seed ^ 77);
                loop {
                    let mut slow = picker;
                    let want = random_legal_action(&g.legal_actions(&s), &mut slow);
                    let got = g.random_legal_action(&s, &mut picker);
                    assert_eq!((got, picker), (want, slow), "variant {i}, seed {seed}");
                    match got {
                        Some(a) => g.apply(&mut s, a),
                        None => break,
                    }
                }
                assert!(s.over);
            }
        }
    }

    #[test]
    fn rollouts_play_a_fitting_card_and_draw_only_when_none_fits() {
        let g = game(2);
        let hands: [&[&str]; 2] = [&["red 3 circle", "green 1 square"], &["blue 1 cross"]];
        let mut s = position(&g, &hands, ["red 3 cross", "yellow 2 circle"], 40);
        let mut rng = Rng::new(4);
        for _ in 0..20 {
            let a = g.rollout_action(&s, &g.legal_actions(&s), &mut rng);
            assert_eq!(a, card("red 3 circle") as Action, "the only card that fits");
        }
        g.apply(&mut s, card("red 3 circle") as Action);
        assert_eq!(
            g.rollout_action(&s, &g.legal_actions(&s), &mut rng),
            END_TURN
        );
        g.apply(&mut s, END_TURN);
        assert_eq!(g.rollout_action(&s, &g.legal_actions(&s), &mut rng), DRAW);
    }

    #[test]
    fn rollouts_stop_at_the_end_of_the_round_with_the_chance_to_win_the_game() {
        let g = game(2);
        let mut s = g.new_state(Rng::new(3));
        let mut rng = Rng::new(5);
        let start = s;
        while s.round == start.round {
            assert_eq!(g.rollout_cutoff(&start, &s), None);
            let a = g.rollout_action(&s, &g.legal_actions(&s), &mut rng);
            g.apply(&mut s, a);
        }
        assert!(!s.over && s.scores[..2] != [0, 0], "{:?}", s.scores);
        let v = g.game_edge(&s);
        assert_eq!(g.rollout_cutoff(&start, &s), Some(vec![v, -v]));
        let lead = s.scores[0] - s.scores[1];
        assert!(
            lead.signum() as f64 == v.signum() || lead == 0 && v == 0.0,
            "{v} {lead}"
        );
        // More players: the expected returns from each seat's chance to win; the round's
        // winner now leads and is the favourite.
        let g = game(3);
        let mut s = g.new_state(Rng::new(3));
        let start = s;
        while s.round == start.round {
            let a = g.rollout_action(&s, &g.legal_actions(&s), &mut rng);
            g.apply(&mut s, a);
        }
        let values = g.game_values(&s);
        assert_eq!(g.rollout_cutoff(&start, &s), Some(values.clone()));
        let winner = s.last_winner.expect("a player went out") as usize;
        assert!(
            (0..3).all(|i| i == winner || values[i] < values[winner]),
            "{values:?}"
        );
    }

    /// `game_values` of `g` with the given scores.
    fn values(g: &Duo, scores: &[i32]) -> Vec<f64> {
        let mut s = g.new_state(Rng::new(1));
        s.scores[..scores.len()].copy_from_slice(scores);
        g.game_values(&s)
    }

    #[test]
    fn the_chances_of_more_players_are_zero_sum_and_symmetric() {
        let mut rng = Rng::new(9);
        for players in 3..=MAX_PLAYERS {
            let g = game(players);
            let target = g.target() as i32;
            for _ in 0..50 {
                let scores: Vec<i32> = (0..players)
                    .map(|_| rng.index(target as usize) as i32 - 3)
                    .collect();
                let v = values(&g, &scores);
                assert!(v.iter().sum::<f64>().abs() < 1e-12, "{v:?}");
                let bottom = -1.0 / (players - 1) as f64;
                assert!(v.iter().all(|&x| x > bottom && x < 1.0), "{v:?}");
                // Turning the seats round turns the values round.
                let turned: Vec<i32> = (0..players).map(|i| scores[(i + 1) % players]).collect();
                let w = values(&g, &turned);
                for i in 0..players {
                    assert!((w[i] - v[(i + 1) % players]).abs() < 1e-12, "{v:?} {w:?}");
                }
            }
            // Equal scores: no seat is favoured.
            let v = values(&g, &vec![4; players]);
            assert!(v.iter().all(|x| x.abs() < 1e-12), "{v:?}");
        }
    }

    #[test]
    fn a_point_more_raises_a_seat_and_lowers_the_others() {
        for players in 3..=MAX_PLAYERS {
            let g = game(players);
            let target = g.target() as i32;
            for mine in -3..target - 1 {
                for theirs in [-2, 0, 5, target - 1] {
                    let mut scores = vec![theirs; players];
                    scores[1] = mine;
                    let before = values(&g, &scores);
                    scores[1] += 1;
                    let after = values(&g, &scores);
                    // Never lower; equal where the round's fewest points cover both needs.
                    assert!(after[1] >= before[1] - 1e-12, "{players} {mine} {theirs}");
                    for i in (0..players).filter(|&i| i != 1) {
                        assert!(after[i] <= before[i] + 1e-12, "{players} {mine} {theirs}");
                    }
                }
            }
            // From far behind to a point short: strictly better, the others strictly worse.
            let mut scores = vec![5; players];
            scores[1] = -3;
            let before = values(&g, &scores);
            scores[1] = target - 1;
            let after = values(&g, &scores);
            assert!(after[1] > before[1] + 0.1, "{before:?} {after:?}");
            assert!((0..players).all(|i| i == 1 || after[i] < before[i]));
        }
    }

    #[test]
    fn the_race_of_two_is_the_two_player_chance_to_win() {
        // The finishing times built from the two-player round points give what the exact
        // two-player table gives (up to the time steps' error).
        let g = game(2);
        let mut race = g.clone();
        race.win_chances = finish_times_from(&ROUND_POINTS, g.need_limit);
        for x in -5..10 {
            for y in -5..10 {
                let mut s = g.new_state(Rng::new(1));
                s.scores[..2].copy_from_slice(&[x, y]);
                let v = race.game_values(&s);
                assert!((v[0] - g.game_edge(&s)).abs() < 0.01, "{x} {y} {v:?}");
            }
        }
    }

    #[test]
    fn the_edge_grows_with_the_lead_and_the_end_in_sight() {
        let g = game(2);
        let edge = |mine: i32, theirs: i32| {
            let mut s = g.new_state(Rng::new(1));
            s.scores[..2].copy_from_slice(&[mine, theirs]);
            g.game_edge(&s)
        };
        for x in -5..9 {
            assert_eq!(edge(x, x), 0.0);
            for y in -5..9 {
                assert_eq!(edge(x, y), -edge(y, x));
                assert!(edge(x + 1, y) > edge(x, y), "{x} {y}");
            }
        }
        // The same lead of 3 is worth more near the target: 9-6 against 3-0.
        assert!(edge(9, 6) > edge(3, 0));
        // One point from the target against none: the other must win the next rounds.
        assert!(edge(9, 0) > 0.75 && edge(9, 0) < 1.0, "{}", edge(9, 0));
    }

    #[test]
    fn going_out_scores_the_cards_left_in_the_other_hands() {
        // The rulebook: B still has 2 cards and C 3, so A scores 5 points.
        let g = game(3);
        let hands: [&[&str]; 3] = [
            &["red 3 circle"],
            &["blue 1 square", "green 2 circle"],
            &["yellow 4 triangle", "blue 2 cross", "red joker"],
        ];
        let mut s = position(&g, &hands, ["red 3 cross", "yellow 2 circle"], 40);
        assert!(g.legal_actions(&s).contains(card("red 3 circle")));
        g.apply(&mut s, card("red 3 circle") as Action);
        assert_eq!(g.scores(&s), vec![5, 0, 0]);
        assert_eq!((s.round, s.current, s.last_winner), (2, 1, Some(0)));
        assert!(s.hands[..3].iter().all(|h| h.len() == HAND_SIZE));
        assert_eq!(g.check_state(&s), Ok(()));
    }

    #[test]
    fn explicit_chance_asks_for_every_card_the_seeded_mode_draws() {
        let seeded = Duo::from_options(&Options::new()).unwrap();
        let mut explicit = seeded.clone();
        explicit.config.chance = ChanceMode::Explicit;
        // The explicit deal, fed the cards the seeded deal drew (in the order drawn), is the
        // seeded deal: the same chance interface asks for them.
        let want = seeded.new_state(Rng::new(9));
        let mut rng = Rng::new(9);
        let mut s = explicit.new_state(Rng::new(9));
        let mut steps = 0;
        while let Some(to) = explicit.taking_to(&s) {
            assert!(explicit.is_chance_node(&s) && explicit.current_player(&s).is_none());
            let outcomes = explicit.chance_outcomes(&s);
            assert_eq!(outcomes.len(), s.draw.len());
            let card = s.draw.nth(rng.index(s.draw.len())).unwrap();
            if steps == 0 {
                assert_eq!(to, TakeTo::Deal(0));
                assert_eq!(
                    explicit.action_name(&s, card as Action),
                    format!("take {} for seat 0", card_name(card))
                );
            }
            explicit.check_state(&s).unwrap();
            explicit.apply(&mut s, card as Action);
            steps += 1;
        }
        assert_eq!(steps, HAND_SIZE * 2 + PILES);
        assert_eq!(
            (s.hands, s.piles, s.tops, s.draw),
            (want.hands, want.piles, want.tops, want.draw)
        );
        // Drawing: the seat waits at a chance node for her card, then the turn passes.
        explicit.apply(&mut s, DRAW);
        assert_eq!(explicit.taking_to(&s), Some(TakeTo::Draw));
        explicit.check_state(&s).unwrap();
        let card = s.draw.first().unwrap();
        explicit.apply(&mut s, card as Action);
        assert!(s.hands[0].contains(card) && s.current == 1 && s.turn_pile.is_none());
        // A seeded state never waits for a card.
        let mut t = want;
        t.turn_pile = Some(DRAWING);
        assert!(seeded.check_state(&t).is_err());
    }

    #[test]
    fn drawing_the_last_card_costs_every_player_her_hand() {
        let g = game(2);
        let hands: [&[&str]; 2] = [&["red 3 circle", "blue 1 square"], &["yellow 4 triangle"]];
        let mut s = position(&g, &hands, ["red 1 cross", "yellow 2 circle"], 1);
        s.scores[1] = 2;
        g.apply(&mut s, DRAW);
        assert_eq!(g.scores(&s), vec![-3, 1]);
        assert_eq!(s.last_points, Some([-3, -1, 0, 0, 0, 0]));
        assert_eq!((s.round, s.current, s.last_winner), (2, 1, None));
    }

    #[test]
    fn a_deal_gives_seven_cards_each_and_two_piles() {
        for players in 2..=MAX_PLAYERS {
            let g = game(players);
            let s = g.new_state(Rng::new(players as u64));
            assert!(s.hands[..players].iter().all(|h| h.len() == HAND_SIZE));
            assert_eq!(s.draw.len(), BASIC_CARDS - HAND_SIZE * players - 2);
            assert_eq!(g.check_state(&s), Ok(()));
            assert_eq!(g.current_player(&s), Some(0));
        }
    }

    #[test]
    fn the_default_deck_is_the_whole_deck_and_small_decks_keep_their_values() {
        let mut config = game(2).config;
        assert_eq!(deck_of(&config), Set128::below(BASIC_CARDS));
        config.turbo = true;
        assert_eq!(deck_of(&config), Set128::below(TURBO_CARDS));
        (config.colours, config.numbers, config.shapes) = (1, 2, 2);
        let names: Vec<String> = deck_of(&config).iter().map(card_name).collect();
        let expected = [
            "blue 1 circle",
            "blue 1 square",
            "blue 2 circle",
            "blue 2 square",
            "blue joker",
            "1 joker",
            "2 joker",
            "circle joker",
            "square joker",
            "turbo-joker",
            "turbo-joker",
            "turbo-joker",
            "turbo-joker",
        ];
        assert_eq!(names, expected);
        config.jokers = false;
        config.turbo = false;
        assert_eq!(deck_of(&config).len(), 4);
    }
}
