//! Duell der Drachen (Duel of Dragons) — dragons compete for five territories.
//!
//! Rules in ten lines: 45 cards, five colours (red, blue, green, yellow, white) valued 1–9; one
//! territory per colour, its strength marker in the middle. Each player holds 5 cards, one
//! display card lies face up beside each territory, the rest is the deck. A move puts a card from
//! hand on one's own side of a territory that holds fewer than 3 of one's cards: face up only on
//! the territory of its colour, face down on any (at most 3 face down per player on the board).
//! The opponent then takes that territory's display card, which is replaced from the deck. If the
//! mover's face-up strength there is now greater, the marker moves to her side. All 5 markers on
//! one side win at once; a player who cannot play at the start of her turn loses. When both sides
//! are full, face-down cards are revealed (only those of the territory's colour count); each marker
//! goes to the stronger side, unless it has at least double a non-zero weaker side (then to the
//! weaker); equal leaves it. Most markers wins; equal is a draw.
//!
//! Rulings applied (see `docs/rules/duell-der-drachen.md`): the card set above; seat 0 moves first; face-up comparison only
//! during play; the final count as described. Ours: the 5-marker win is checked before the final
//! count; when the game ends every card is shown; the deck is a set, each refill draws a random
//! card of it (the same as the top card of a shuffled deck).
//!
//! Options: `values` (cards per colour, 9), `hand_size` (5); a smaller board for small trees:
//! `territories` (5: the first colours of the list), `cards_per_side` (3) and
//! `face_down_limit` (3), where all `territories` markers on one side win at once;
//! territories × values ≥ 2 × hand_size + territories (two hands and the display).
//!
//! Randomness: `new_state` shuffles all cards once (Fisher–Yates over the ids in ascending
//! order): the first `hand_size` go to seat 0, the next to seat 1, the next five to the display
//! (red to white), the rest form the deck. Each refill draws `rng.index(deck size)`-th card of
//! the deck (ascending ids). `determinize` (running games only; a finished game shows every
//! card) shuffles the unknown cards (ascending ids), gives the first ones to the opponent's
//! concealed pool (hand and face-down cards) beside the cards the seat knows she holds, the rest
//! to the deck, shuffles the pool (ascending ids) and deals it to her face-down slots (red to
//! white), then her hand; repeated while the opponent, due to move, would have no legal move;
//! then forks the state's generator.
//! With `chance = "explicit"` nothing is shuffled: every card dealt and every refill is a chance
//! node whose outcomes are the deck's cards (a card's id, each equally likely): first seat 0's
//! hand card by card, then seat 1's, then the display from red to white; a display card taken
//! is replaced at a chance node after the move (none once the game is over). The refill is the
//! same draw as the seeded mode's (a uniform card of the deck), asked of the chance node instead
//! of the generator.

use crate::actions::{Action, ActionSet};
use crate::bits::{count, iter_bits, nth_bit};
use crate::chance::{draw_from_counts, ChanceMode, CHANCE_CHOICES};
use crate::error::Result;
use crate::game::{uniform_action, Game, GameNames, Seat};
use crate::options::{declare_options, invalid, read, Allowed, Options};
use crate::outcome::Outcome;
use crate::rng::Rng;
use crate::tensor::{TensorOut, TensorWriter};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

// ---- Constants ----
/// Most territories (and colours), the game's; the `territories` option may play fewer.
pub const TERRITORIES: usize = 5;
/// The colours, by index; territory `t` has colour `t`.
pub const COLOURS: [&str; TERRITORIES] = ["red", "blue", "green", "yellow", "white"];
/// Cards a player may place on her side of one territory (the `cards_per_side` option's
/// default and largest value).
pub const SLOTS: usize = 3;
/// Face-down cards a player may have on the board in all (the `face_down_limit` option's
/// default and largest value).
pub const MAX_FACE_DOWN: usize = 3;
/// Most cards per colour the `values` option allows (so that every card set fits a `u64`).
pub const MAX_VALUES: usize = 12;
/// Most cards in a game.
pub const MAX_CARDS: usize = TERRITORIES * MAX_VALUES;
/// Draws `determinize` tries before it keeps the hidden cards as they are.
const MAX_TRIES: usize = 10_000;
/// For each set `m` of one colour's values (bit i = the card of value i + 1): the sum of the
/// values.
static VALUE_SUMS: [u8; 1 << MAX_VALUES] = {
    let mut sums = [0u8; 1 << MAX_VALUES];
    let mut m = 1;
    while m < sums.len() {
        // The lowest card's value plus the sum of the others.
        sums[m] = sums[m & (m - 1)] + m.trailing_zeros() as u8 + 1;
        m += 1;
    }
    sums
};

// ---- Options ----
declare_options! {
    /// Duell der Drachen's options.
    pub struct DuellDerDrachenOptions {
        players: usize = 2, Allowed::Integer { min: 2, max: 2 }, "number of players";
        values: u8 = 9, Allowed::Integer { min: 2, max: MAX_VALUES as i64 },
            "cards per colour, valued 1 to this (5 x values must be at least 2 x hand_size + 5)";
        hand_size: u8 = 5, Allowed::Integer { min: 1, max: 27 },
            "cards dealt to each player (as far as the card set allows)";
        territories: usize = TERRITORIES, Allowed::Integer { min: 2, max: TERRITORIES as i64 },
            "territories in play, one per colour (the first of red, blue, green, yellow, white); all their markers on one side win at once",
            saved_default = TERRITORIES;
        cards_per_side: usize = SLOTS, Allowed::Integer { min: 1, max: SLOTS as i64 },
            "cards a player may place on her side of one territory", saved_default = SLOTS;
        face_down_limit: usize = MAX_FACE_DOWN, Allowed::Integer { min: 0, max: MAX_FACE_DOWN as i64 },
            "face-down cards a player may have on the board in all", saved_default = MAX_FACE_DOWN;
        chance: ChanceMode = ChanceMode::Seeded, Allowed::Choice(CHANCE_CHOICES),
            "'seeded' (cards are shuffled and drawn from the seed) or 'explicit' (each card dealt or drawn is a chance node)",
            saved_default = ChanceMode::Seeded;
    }
}

/// The rules, with the options in force.
#[derive(Clone, Debug)]
pub struct DuellDerDrachen {
    /// The options in force.
    pub config: DuellDerDrachenOptions,
}

// ---- Cards and actions ----
/// What an action does: a card from hand to a territory, face up or face down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// The card played.
    pub card: usize,
    /// The territory it goes to.
    pub territory: usize,
    /// Whether it is played face down.
    pub face_down: bool,
}

/// Where the card of a chance node goes (explicit chance).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawTo {
    /// Dealt to a seat's hand.
    Hand(usize),
    /// The display card beside a territory.
    Display(usize),
}

/// What an action means, as `State.action_info` shows it: a [`Move`] with names; at a chance
/// node, outcome `c` is card `c` dealt or drawn.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DuellAction {
    /// A chance outcome: a card dealt to a seat's hand or drawn for a display place.
    Draw {
        /// The card's name, `"<colour> <value>"`.
        card: String,
        /// The seat it is dealt to (`None`: the display).
        seat: Option<usize>,
        /// The territory whose display place it fills (`None`: a hand).
        display: Option<&'static str>,
    },
    /// A card from hand to a territory.
    Play {
        /// The card's name, `"<colour> <value>"`.
        card: String,
        /// The territory it goes to (a face-up card: its own colour's).
        territory: &'static str,
        /// Face up (its value counts) or face down.
        face_up: bool,
    },
}

impl std::fmt::Display for DuellAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DuellAction::Draw {
                card,
                seat: Some(seat),
                ..
            } => write!(f, "deal {card} to seat {seat}"),
            DuellAction::Draw { card, display, .. } => {
                write!(f, "draw {card} for {}", display.unwrap_or_default())
            }
            DuellAction::Play {
                card,
                face_up: true,
                ..
            } => write!(f, "{card} face up"),
            DuellAction::Play {
                card, territory, ..
            } => write!(f, "{card} face down on {territory}"),
        }
    }
}

impl DuellDerDrachen {
    /// Number of cards in the game.
    pub fn num_cards(&self) -> usize {
        self.territories() * self.config.values as usize
    }

    /// Number of territories (and colours) in play.
    pub fn territories(&self) -> usize {
        self.config.territories
    }

    fn all_cards(&self) -> u64 {
        (1u64 << self.num_cards()) - 1
    }

    /// The colour (territory) of `card`.
    pub fn colour(&self, card: usize) -> usize {
        card / self.config.values as usize
    }

    /// The value of `card`, 1 to `values`.
    pub fn value(&self, card: usize) -> u32 {
        (card % self.config.values as usize) as u32 + 1
    }

    /// The cards of colour `t`.
    fn colour_cards(&self, t: usize) -> u64 {
        ((1u64 << self.config.values) - 1) << (t * self.config.values as usize)
    }

    /// A card's name, e.g. `"red 7"`.
    pub fn card_name(&self, card: usize) -> String {
        format!(
            "{} {}",
            COLOURS[self.colour(card) % TERRITORIES],
            self.value(card)
        )
    }

    fn names(&self, cards: u64) -> Vec<String> {
        iter_bits(cards).map(|c| self.card_name(c)).collect()
    }

    /// The action that plays `card` to territory `t`, face down or face up (then `t` must be
    /// the card's colour).
    pub fn action(&self, card: usize, t: usize, face_down: bool) -> Action {
        if face_down {
            (self.num_cards() + card * self.territories() + t) as Action
        } else {
            card as Action
        }
    }

    /// What action `a` (an id in range) does.
    pub fn decode(&self, a: Action) -> Move {
        let (a, n) = (a as usize, self.num_cards());
        if a < n {
            Move {
                card: a,
                territory: self.colour(a),
                face_down: false,
            }
        } else {
            let (i, territories) = (a - n, self.territories());
            Move {
                card: i / territories,
                territory: i % territories,
                face_down: true,
            }
        }
    }
}

/// Writes the ids of `mask` into `out` in ascending order; returns how many.
fn fill(out: &mut [u8; MAX_CARDS], mask: u64) -> usize {
    let mut n = 0;
    for (slot, c) in out.iter_mut().zip(iter_bits(mask)) {
        *slot = c as u8;
        n += 1;
    }
    n
}

// ---- State ----
/// The whole game state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The game's generator (set-up and every refill of the display).
    pub rng: Rng,
    /// The seat to move; once over, the seat that would have moved next.
    pub player: u8,
    /// Each seat's hand (bit `c` = card `c`).
    pub hands: [u64; 2],
    /// `board[seat][t]`: the cards on `seat`'s side of territory `t`, face up and face down.
    pub board: [[u64; TERRITORIES]; 2],
    /// Each seat's face-down cards on the board.
    pub face_down: [u64; 2],
    /// The display card beside each territory (none once the deck ran out).
    pub display: [Option<u8>; TERRITORIES],
    /// The deck, as a set: each refill draws a random card of it.
    pub deck: u64,
    /// Cards each seat took from the display and has not played face up since: her opponent
    /// saw them, and knows they are in her hand or among her face-down cards.
    pub known: [u64; 2],
    /// Where each territory's strength marker lies: a seat's side, or `None` for the middle.
    pub markers: [Option<u8>; TERRITORIES],
    /// Whether the final count (both sides full, face-down cards revealed) has been made.
    pub final_count: bool,
    /// Whether the game is over.
    pub over: bool,
    /// The winner once over (`None`: a draw).
    pub winner: Option<u8>,
}

impl Game for DuellDerDrachen {
    type State = State;
    type ActionInfo = DuellAction;
    type Config = DuellDerDrachenOptions;

    const NAMES: GameNames = GameNames {
        name: "duell-der-drachen",
        title: "Duell der Drachen",
        aliases: &["duel-of-dragons", "duell_der_drachen", "duell"],
    };

    // ---- Options ----
    fn from_options(options: &Options) -> Result<Self> {
        let config: DuellDerDrachenOptions = read(Self::NAMES.name, options)?;
        let (values, hand_size) = (config.values as usize, config.hand_size as usize);
        let territories = config.territories;
        if territories * values < 2 * hand_size + territories {
            return Err(invalid(
                Self::NAMES.name,
                "hand_size",
                &format!(
                    "of {hand_size} needs {} cards (two hands and the display), but {values} values per colour in {territories} colours make {}",
                    2 * hand_size + territories,
                    territories * values
                ),
            ));
        }
        Ok(DuellDerDrachen { config })
    }

    fn config(&self) -> &DuellDerDrachenOptions {
        &self.config
    }

    // ---- Cards and actions ----
    fn num_actions(&self) -> usize {
        self.num_cards() * (1 + self.territories())
    }

    fn action_info(&self, s: &State, action: Action) -> DuellAction {
        if let Some(to) = self
            .drawing_to(s)
            .filter(|_| (action as usize) < self.num_cards())
        {
            let (seat, display) = match to {
                DrawTo::Hand(seat) => (Some(seat), None),
                DrawTo::Display(t) => (None, Some(COLOURS[t])),
            };
            return DuellAction::Draw {
                card: self.card_name(action as usize),
                seat,
                display,
            };
        }
        let m = self.decode(action);
        DuellAction::Play {
            card: self.card_name(m.card),
            territory: COLOURS[m.territory],
            face_up: !m.face_down,
        }
    }

    // ---- Setup ----
    fn new_state(&self, mut rng: Rng) -> State {
        if self.explicit() {
            return State {
                rng,
                player: 0,
                hands: [0; 2],
                board: [[0; TERRITORIES]; 2],
                face_down: [0; 2],
                display: [None; TERRITORIES],
                deck: self.all_cards(),
                known: [0; 2],
                markers: [None; TERRITORIES],
                final_count: false,
                over: false,
                winner: None,
            };
        }
        let mut cards = [0u8; MAX_CARDS];
        let n = fill(&mut cards, self.all_cards());
        rng.shuffle(&mut cards[..n]);
        let h = self.config.hand_size as usize;
        let mask = |cs: &[u8]| cs.iter().fold(0u64, |m, &c| m | 1 << c);
        let territories = self.territories();
        let mut display = [None; TERRITORIES];
        for (t, slot) in display.iter_mut().take(territories).enumerate() {
            *slot = Some(cards[2 * h + t]);
        }
        State {
            rng,
            player: 0,
            hands: [mask(&cards[..h]), mask(&cards[h..2 * h])],
            board: [[0; TERRITORIES]; 2],
            face_down: [0; 2],
            display,
            deck: mask(&cards[2 * h + territories..n]),
            known: [0; 2],
            markers: [None; TERRITORIES],
            final_count: false,
            over: false,
            winner: None,
        }
    }

    // ---- Legal moves ----
    fn current_player(&self, s: &State) -> Option<Seat> {
        (!s.over && !self.is_chance_node(s)).then_some(s.player as usize)
    }

    fn is_chance_node(&self, s: &State) -> bool {
        self.drawing_to(s).is_some()
    }

    fn chance_outcomes(&self, s: &State) -> Vec<(Action, f64)> {
        if !self.is_chance_node(s) {
            return Vec::new();
        }
        draw_from_counts(iter_bits(s.deck).map(|c| (c as Action, 1)))
    }

    fn explicit_chance(&self) -> bool {
        self.explicit()
    }

    /// Every move lays a card on the board, which holds `2 × territories × cards_per_side`;
    /// with explicit chance every chance node also takes a card out of the deck, which holds
    /// each card once.
    fn max_history_len(&self) -> Option<usize> {
        let moves = 2 * self.territories() * self.config.cards_per_side;
        Some(moves + if self.explicit() { self.num_cards() } else { 0 })
    }

    /// Each of a seat's moves lays a card on her own side of the board.
    fn max_seat_actions(&self) -> Option<usize> {
        Some(self.territories() * self.config.cards_per_side)
    }

    fn legal_actions(&self, s: &State) -> ActionSet {
        let mut set = ActionSet::new();
        if self.is_chance_node(s) {
            set.insert_bits(0, s.deck);
            return set;
        }
        if s.over {
            return set;
        }
        let seat = s.player as usize;
        let room = self.room(s, seat);
        let hand = s.hands[seat];
        // Face up: a card whose colour's territory is open (face-up ids are the card ids).
        set.insert_bits(0, hand & room.face_up);
        // Face down: each card on any open territory, the card's run of ids at once.
        if room.face_down {
            for card in iter_bits(hand) {
                set.insert_bits(self.action(card, 0, true) as usize, room.open as u64);
            }
        }
        set
    }

    // ---- Apply ----
    fn apply(&self, s: &mut State, action: Action) {
        if let Some(to) = self.drawing_to(s) {
            return Self::place_drawn(s, to, action as u8);
        }
        let m = self.decode(action);
        let mover = s.player as usize;
        let bit = 1u64 << m.card;
        s.hands[mover] &= !bit;
        s.board[mover][m.territory] |= bit;
        if m.face_down {
            s.face_down[mover] |= bit;
        } else {
            s.known[mover] &= !bit;
        }
        self.hand_over(s, m.territory, 1 - mover);
        let took = self.compare(s, m.territory, mover);
        s.player = 1 - s.player;
        self.end_of_move(s, mover, took);
    }

    // ---- Scoring ----
    fn returns(&self, s: &State) -> Vec<f64> {
        match (s.over, s.winner) {
            (true, Some(0)) => vec![1.0, -1.0],
            (true, Some(_)) => vec![-1.0, 1.0],
            _ => vec![0.0, 0.0],
        }
    }

    fn scores(&self, s: &State) -> Vec<i64> {
        (0..2)
            .map(|seat| Self::markers_of(s, seat) as i64)
            .collect()
    }

    /// `"all_markers"` (a seat took every marker), `"board_full"` (the final count after
    /// both sides filled up) or `"no_legal_move"` (the seat to move had none and lost).
    fn outcome(&self, s: &State) -> Option<Outcome> {
        if !s.over {
            return None;
        }
        let winner = s.winner.map(usize::from);
        let reason = if s.final_count {
            "board_full"
        } else if winner.is_some() && self.all_markers(s).map(usize::from) == winner {
            "all_markers"
        } else {
            "no_legal_move"
        };
        Some(Outcome::single(reason, self.scores(s), winner, None))
    }

    // ---- Observation ----
    fn observation_shape(&self) -> Vec<usize> {
        let (n, t) = (self.num_cards(), self.territories());
        vec![(6 + 3 * t) * n + (self.config.cards_per_side + 6) * t + 7]
    }

    fn observation(&self, s: &State, seat: Seat) -> Value {
        let opp = 1 - seat;
        let territories: Vec<Value> = (0..self.territories())
            .map(|t| {
                let face_down: Vec<Vec<String>> = (0..2)
                    .map(|i| {
                        let cards = s.board[i][t] & s.face_down[i];
                        if i == seat || s.over {
                            self.names(cards)
                        } else {
                            vec!["hidden".to_string(); count(cards)]
                        }
                    })
                    .collect();
                json!({
                    "colour": COLOURS[t],
                    "display": s.display[t].map(|c| self.card_name(c as usize)),
                    "marker": s.markers[t],
                    "face_up": [
                        self.names(s.board[0][t] & !s.face_down[0]),
                        self.names(s.board[1][t] & !s.face_down[1]),
                    ],
                    "face_down": face_down,
                    "strength": [self.territory_strength(s, 0, t), self.territory_strength(s, 1, t)],
                })
            })
            .collect();
        json!({
            "seat": seat,
            "current_player": self.current_player(s),
            "terminal": s.over,
            "winner": s.winner,
            "final_count": s.final_count,
            "hand": self.names(s.hands[seat]),
            "opponent_hand": s.over.then(|| self.names(s.hands[opp])),
            "hand_sizes": [count(s.hands[0]), count(s.hands[1])],
            "deck": count(s.deck),
            "known_cards": [self.names(s.known[0]), self.names(s.known[1])],
            "territories": territories,
        })
    }

    fn write_observation<O: TensorOut + ?Sized>(&self, s: &State, seat: Seat, out: &mut O) {
        let opp = 1 - seat;
        let n = self.num_cards();
        let (territories, per_side) = (self.territories(), self.config.cards_per_side);
        let mut w = TensorWriter::new(out);
        let shown = |mask: u64| if s.over { mask } else { 0 };
        let face_up = |i: usize| s.board[i].iter().fold(0, |m, &c| m | c) & !s.face_down[i];
        w.mask(s.hands[seat], n);
        w.mask(shown(s.hands[opp]), n);
        w.mask(face_up(seat), n);
        w.mask(face_up(opp), n);
        for t in 0..territories {
            w.mask(s.board[seat][t] & s.face_down[seat], n);
        }
        for t in 0..territories {
            w.mask(shown(s.board[opp][t] & s.face_down[opp]), n);
        }
        for card in &s.display[..territories] {
            w.mask(card.map_or(0, |c| 1 << c), n);
        }
        w.mask(s.known[opp], n);
        w.mask(s.known[seat], n);
        for t in 0..territories {
            let side = s.markers[t].map(|m| if m as usize == seat { 0 } else { 2 });
            w.one_hot(3, Some(side.unwrap_or(1)));
        }
        for t in 0..territories {
            w.one_hot(
                per_side + 1,
                Some(count(s.board[opp][t] & s.face_down[opp])),
            );
        }
        let most = (per_side * self.config.values as usize) as f32;
        for t in 0..territories {
            w.scalar(self.territory_strength(s, seat, t) as f32 / most);
            w.scalar(self.territory_strength(s, opp, t) as f32 / most);
        }
        w.scalar(count(s.deck) as f32 / n as f32);
        w.scalar(count(s.hands[opp]) as f32 / n as f32);
        let limit = self.config.face_down_limit.max(1) as f32;
        w.scalar(count(s.face_down[seat]) as f32 / limit);
        w.scalar(count(s.face_down[opp]) as f32 / limit);
        w.flag(self.current_player(s) == Some(seat));
        w.flag(s.final_count);
        w.flag(s.over);
    }

    fn determinize(&self, s: &State, seat: Seat, rng: &mut Rng) -> State {
        let mut d = *s;
        if !s.over {
            let opp = 1 - seat;
            let concealed = s.hands[opp] | s.face_down[opp];
            let free = (concealed | s.deck) & !s.known[opp];
            let n_unknown = count(concealed & !s.known[opp]);
            let must_move = s.player as usize == opp && !self.dealing(s);
            for _ in 0..MAX_TRIES {
                let mut trial = *s;
                self.resample(&mut trial, opp, free, n_unknown, rng);
                if !must_move || self.has_legal_move(&trial, opp) {
                    d = trial;
                    break;
                }
            }
        }
        d.rng = rng.fork();
        d
    }

    // ---- Checks ----
    fn check_state(&self, s: &State) -> std::result::Result<(), String> {
        if !s.rng.is_valid() {
            return Err("generator increment must be odd".into());
        }
        if s.player > 1
            || s.winner.is_some_and(|w| w > 1)
            || s.markers.iter().flatten().any(|&m| m > 1)
        {
            return Err("seats must be 0 or 1".into());
        }
        self.check_cards(s)?;
        self.check_progress(s)
    }

    // ---- Search policy ----
    /// Rollouts play face up, as a player who knows the game does, with a random move one
    /// time in four: a card that takes or keeps the territory's marker without reaching
    /// double the other side (which would lose the territory at the final count), else any
    /// card that fits face up; face down only when no card fits.
    fn rollout_action(&self, s: &State, legal: &ActionSet, rng: &mut Rng) -> Action {
        if rng.below(4) == 0 {
            return uniform_action(legal, rng);
        }
        let (mut best, mut choice, mut ties) = (i32::MIN, None, 0);
        for a in self.face_up(legal) {
            let score = self.face_up_score(s, a);
            if score > best {
                (best, choice, ties) = (score, Some(a), 1);
            } else if score == best {
                ties += 1;
                if rng.below(ties) == 0 {
                    choice = Some(a);
                }
            }
        }
        choice.unwrap_or_else(|| uniform_action(legal, rng))
    }

    /// The rollout policy's probabilities: a quarter spread evenly over every legal action,
    /// the rest evenly over the best-scored face-up cards (over every action if none fits
    /// face up).
    fn policy_probabilities(&self, s: &State, legal: &ActionSet) -> Vec<(Action, f64)> {
        let best = self.face_up(legal).map(|a| self.face_up_score(s, a)).max();
        let is_best = |a: Action| match best {
            Some(b) => (a as usize) < self.num_cards() && self.face_up_score(s, a) == b,
            None => true,
        };
        let n_best = legal.iter().filter(|&a| is_best(a)).count().max(1) as f64;
        let uniform = 0.25 / legal.len().max(1) as f64;
        legal
            .iter()
            .map(|a| (a, uniform + if is_best(a) { 0.75 / n_best } else { 0.0 }))
            .collect()
    }
}

// ---- Legal moves ----
/// Where a seat may play, her hand aside.
struct Room {
    /// The territories in play with room on her side (bit `t`).
    open: u32,
    /// The cards of the open territories' colours: those she may play face up.
    face_up: u64,
    /// Whether she may still play a card face down.
    face_down: bool,
}

impl Room {
    /// Whether a seat with this room and `hand` could play a card.
    fn any_move(&self, hand: u64) -> bool {
        hand != 0 && self.open != 0 && (self.face_down || hand & self.face_up != 0)
    }
}

impl DuellDerDrachen {
    /// Where `seat` may play: one pass over her side of the board, without branches.
    #[inline]
    fn room(&self, s: &State, seat: usize) -> Room {
        let (values, per_side) = (self.config.values, self.config.cards_per_side);
        // Bit t of `open`, and bit t × values of `firsts` (the place of the colour's first
        // card): territory t has room. Built from the last territory down.
        let (mut open, mut firsts) = (0u32, 0u64);
        for &cell in s.board[seat].iter().rev() {
            let has_room = count(cell) < per_side;
            open = open << 1 | u32::from(has_room);
            firsts = firsts << values | u64::from(has_room);
        }
        // The colours' blocks of cards do not overlap: the product has no carries.
        let face_up = firsts * ((1 << values) - 1);
        Room {
            open: open & ((1 << self.territories()) - 1),
            face_up: face_up & self.all_cards(),
            face_down: count(s.face_down[seat]) < self.config.face_down_limit,
        }
    }

    /// Whether `seat` could play a card now.
    pub fn has_legal_move(&self, s: &State, seat: usize) -> bool {
        self.room(s, seat).any_move(s.hands[seat])
    }
}

// ---- Apply ----
impl DuellDerDrachen {
    /// Whether cards are dealt and drawn at chance nodes (`chance = "explicit"`).
    fn explicit(&self) -> bool {
        self.config.chance == ChanceMode::Explicit
    }

    /// Explicit chance, before the first move: the hands are still being dealt.
    fn dealing(&self, s: &State) -> bool {
        let h = self.config.hand_size as usize;
        self.explicit()
            && s.board.iter().flatten().all(|&c| c == 0)
            && s.hands.iter().any(|&m| count(m) < h)
    }

    /// Where the card of the chance node `s` is goes, or `None` if `s` is no chance node:
    /// seat 0's hand, seat 1's, then each empty display place while the deck has cards.
    #[inline]
    pub fn drawing_to(&self, s: &State) -> Option<DrawTo> {
        if !self.explicit() || s.over || s.deck == 0 {
            return None;
        }
        let h = self.config.hand_size as usize;
        if self.dealing(s) {
            return Some(DrawTo::Hand(usize::from(count(s.hands[0]) >= h)));
        }
        s.display[..self.territories()]
            .iter()
            .position(Option::is_none)
            .map(DrawTo::Display)
    }

    /// A chance node's card, out of the deck and into its place.
    fn place_drawn(s: &mut State, to: DrawTo, card: u8) {
        s.deck &= !(1 << card);
        match to {
            DrawTo::Hand(seat) => s.hands[seat] |= 1 << card,
            DrawTo::Display(t) => s.display[t] = Some(card),
        }
    }

    /// A random card of the deck, taken out of it (`None` if the deck is empty).
    fn draw(s: &mut State) -> Option<u8> {
        let n = count(s.deck);
        if n == 0 {
            return None;
        }
        let card = nth_bit(s.deck, s.rng.index(n))?;
        s.deck &= !(1 << card);
        Some(card as u8)
    }

    /// The mover's opponent takes the display card of `t` (if any); the deck replaces it
    /// (explicit chance: at the chance node after the move).
    fn hand_over(&self, s: &mut State, t: usize, taker: usize) {
        if let Some(card) = s.display[t] {
            s.hands[taker] |= 1 << card;
            s.known[taker] |= 1 << card;
            s.display[t] = if self.explicit() { None } else { Self::draw(s) };
        }
    }

    /// The marker of `t` moves to the mover's side if her face-up strength is now greater (a
    /// move is made before the final count, so only face-up cards count); returns whether.
    fn compare(&self, s: &mut State, t: usize, mover: usize) -> bool {
        let face_up = |seat: usize| self.strength(s.board[seat][t] & !s.face_down[seat], t);
        let greater = face_up(mover) > face_up(1 - mover);
        if greater {
            s.markers[t] = Some(mover as u8);
        }
        greater
    }

    /// Both sides full: reveal, count, move the markers, decide.
    fn count_finally(&self, s: &mut State) {
        s.final_count = true;
        for t in 0..self.territories() {
            let (a, b) = (
                self.strength(s.board[0][t], t),
                self.strength(s.board[1][t], t),
            );
            if a != b {
                let (strong, weak) = if a > b { (0u8, 1u8) } else { (1, 0) };
                let (hi, lo) = (a.max(b), a.min(b));
                s.markers[t] = Some(if lo > 0 && hi >= 2 * lo { weak } else { strong });
            }
        }
        let (m0, m1) = (Self::markers_of(s, 0), Self::markers_of(s, 1));
        s.winner = match m0.cmp(&m1) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        s.over = true;
    }

    /// After a move: all markers win, a full board is counted, a stuck player loses.
    /// `took`: whether the move took a marker. A running game never has all markers on one
    /// side, so only then can they all be the mover's.
    fn end_of_move(&self, s: &mut State, mover: usize, took: bool) {
        if took && self.all_markers(s) == Some(mover as u8) {
            s.over = true;
            s.winner = Some(mover as u8);
            return;
        }
        let next = 1 - mover;
        let room = self.room(s, next);
        // A full board leaves the next seat no room: only then is it looked at.
        if room.open == 0 && self.board_full(s) {
            self.count_finally(s);
        } else if !room.any_move(s.hands[next]) {
            s.over = true;
            s.winner = Some(mover as u8);
        }
    }
}

// ---- Scoring ----
impl DuellDerDrachen {
    /// The total value of the cards of colour `t` among `cards`.
    fn strength(&self, cards: u64, t: usize) -> u32 {
        // Bit i of `own`: the card of value i + 1. At most 12 values: the last mask changes
        // nothing but spares the bounds check.
        let values = self.config.values as usize;
        let own = (cards >> (t * values)) as usize & ((1 << values) - 1) & (VALUE_SUMS.len() - 1);
        u32::from(VALUE_SUMS[own])
    }

    /// `seat`'s strength in territory `t`: face-up cards, or after the final count every card
    /// of the territory's colour.
    #[inline]
    pub fn territory_strength(&self, s: &State, seat: usize, t: usize) -> u32 {
        let counted = if s.final_count {
            s.board[seat][t]
        } else {
            s.board[seat][t] & !s.face_down[seat]
        };
        self.strength(counted, t)
    }

    /// The seat holding the markers of every territory in play (five in the game), if any.
    fn all_markers(&self, s: &State) -> Option<u8> {
        let first = s.markers[0]?;
        s.markers[..self.territories()]
            .iter()
            .all(|&m| m == Some(first))
            .then_some(first)
    }

    fn markers_of(s: &State, seat: usize) -> usize {
        s.markers.iter().filter(|&&m| m == Some(seat as u8)).count()
    }

    /// Whether both sides of every territory in play are full.
    fn board_full(&self, s: &State) -> bool {
        let per_side = self.config.cards_per_side;
        s.board.iter().all(|side| {
            side[..self.territories()]
                .iter()
                .fold(true, |full, &c| full & (count(c) == per_side))
        })
    }
}

// ---- Observation ----
impl DuellDerDrachen {
    /// Deals `opp`'s concealed cards anew: `known` plus `n_unknown` of `free`, the rest of
    /// `free` to the deck (see the module header for the order of draws).
    fn resample(&self, d: &mut State, opp: usize, free: u64, n_unknown: usize, rng: &mut Rng) {
        let mut list = [0u8; MAX_CARDS];
        let nf = fill(&mut list, free);
        rng.shuffle(&mut list[..nf]);
        let mut pool = d.known[opp];
        for &c in &list[..n_unknown.min(nf)] {
            pool |= 1 << c;
        }
        d.deck = 0;
        for &c in &list[n_unknown.min(nf)..nf] {
            d.deck |= 1 << c;
        }
        let np = fill(&mut list, pool);
        rng.shuffle(&mut list[..np]);
        let mut next = list[..np].iter();
        let old_face_down = d.face_down[opp];
        d.face_down[opp] = 0;
        for t in 0..TERRITORIES {
            let slots = count(d.board[opp][t] & old_face_down);
            let mut cell = d.board[opp][t] & !old_face_down;
            for &c in next.by_ref().take(slots) {
                cell |= 1 << c;
                d.face_down[opp] |= 1 << c;
            }
            d.board[opp][t] = cell;
        }
        d.hands[opp] = next.fold(0, |m, &c| m | 1 << c);
    }
}

// ---- Checks ----
impl DuellDerDrachen {
    fn check_cards(&self, s: &State) -> std::result::Result<(), String> {
        let n = self.num_cards();
        if s.display.iter().flatten().any(|&c| c as usize >= n) {
            return Err("a display card is out of range".into());
        }
        let territories = self.territories();
        let unused = territories..TERRITORIES;
        if unused.clone().any(|t| {
            s.board.iter().any(|side| side[t] != 0)
                || s.display[t].is_some()
                || s.markers[t].is_some()
        }) {
            return Err("a territory not in play holds no card, display card or marker".into());
        }
        let mut seen = 0u64;
        let display = s.display.iter().flatten().map(|&c| 1u64 << c);
        let places = s.hands.iter().chain(s.board.iter().flatten()).copied();
        for m in places.chain(display).chain([s.deck]) {
            if m & !self.all_cards() != 0 || m & seen != 0 {
                return Err("every card must be in exactly one place".into());
            }
            seen |= m;
        }
        if seen != self.all_cards() {
            return Err("every card must be in exactly one place".into());
        }
        for seat in 0..2 {
            let on_board = s.board[seat].iter().fold(0, |m, &c| m | c);
            if s.face_down[seat] & !on_board != 0
                || count(s.face_down[seat]) > self.config.face_down_limit
            {
                return Err(
                    "face-down cards must be on their owner's side, within the limit".into(),
                );
            }
            for t in 0..territories {
                let cell = s.board[seat][t];
                if count(cell) > self.config.cards_per_side
                    || cell & !s.face_down[seat] & !self.colour_cards(t) != 0
                {
                    return Err("a territory side holds more cards than it may or a face-up card of another colour".into());
                }
            }
            if s.known[seat] & !(s.hands[seat] | s.face_down[seat]) != 0 {
                return Err("known cards must be in their holder's hand or face down".into());
            }
        }
        let display = &s.display[..territories];
        if display.iter().any(Option::is_none) && s.deck != 0 && !self.explicit() {
            return Err("a display place is empty while the deck is not".into());
        }
        if self.dealing(s) {
            let h = self.config.hand_size as usize;
            if s.display.iter().any(Option::is_some)
                || s.known != [0, 0]
                || (s.hands[1] != 0 && count(s.hands[0]) != h)
                || s.hands.iter().any(|&m| count(m) > h)
            {
                return Err(
                    "while the hands are dealt, seat 0's comes first and the display waits".into(),
                );
            }
        } else if self.explicit()
            && s.board.iter().flatten().any(|&c| c != 0)
            && display.iter().filter(|d| d.is_none()).count() > 1
            && s.deck != 0
        {
            return Err("one display place at a time is refilled after the deal".into());
        }
        Ok(())
    }

    fn check_progress(&self, s: &State) -> std::result::Result<(), String> {
        let played = |seat: usize| s.board[seat].iter().map(|&c| count(c)).sum::<usize>();
        if played(0) != played(1) + s.player as usize {
            return Err("seat 0 moves first and the seats alternate".into());
        }
        let all = self.all_markers(s);
        let mover = 1 - s.player;
        if !s.over {
            if s.winner.is_some() || s.final_count || all.is_some() || self.board_full(s) {
                return Err(
                    "a running game has no winner, all markers on one side or a full board".into(),
                );
            }
            if !self.dealing(s) && !self.has_legal_move(s, s.player as usize) {
                return Err("the seat to move must have a legal move".into());
            }
        } else if s.final_count {
            let (m0, m1) = (Self::markers_of(s, 0), Self::markers_of(s, 1));
            let want = if m0 == m1 {
                None
            } else {
                Some(if m0 > m1 { 0 } else { 1 })
            };
            if !self.board_full(s) || s.winner != want {
                return Err(
                    "the final count needs a full board and names the seat with most markers"
                        .into(),
                );
            }
        } else if s.winner != Some(mover)
            || !(all == Some(mover)
                || (!self.board_full(s) && !self.has_legal_move(s, s.player as usize)))
        {
            return Err("a game ends by all markers, a stuck player or the final count".into());
        }
        Ok(())
    }
}

// ---- Search policy ----
impl DuellDerDrachen {
    /// The face-up actions of `legal` (the card ids, below every face-down one).
    fn face_up<'a>(&'a self, legal: &'a ActionSet) -> impl Iterator<Item = Action> + 'a {
        legal
            .iter()
            .take_while(move |&a| (a as usize) < self.num_cards())
    }

    /// How the rollout policy scores playing card `a` face up: 2 if it takes or keeps the
    /// territory's marker, less 3 if it reaches double the other side's strength there.
    fn face_up_score(&self, s: &State, a: Action) -> i32 {
        let me = s.player as usize;
        let t = self.colour(a as usize);
        let mine = self.territory_strength(s, me, t) + self.value(a as usize);
        let theirs = self.territory_strength(s, 1 - me, t);
        2 * i32::from(mine > theirs) - 3 * i32::from(theirs > 0 && mine >= 2 * theirs)
    }
}

// ---- Tests ----
#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> DuellDerDrachen {
        DuellDerDrachen::from_options(&Options::new()).unwrap()
    }

    /// The card `"red 7"` etc.
    fn card(g: &DuellDerDrachen, name: &str) -> usize {
        (0..g.num_cards())
            .find(|&c| g.card_name(c) == name)
            .unwrap()
    }

    fn mask(g: &DuellDerDrachen, names: &[&str]) -> u64 {
        names.iter().fold(0, |m, n| m | 1 << card(g, n))
    }

    fn colour(name: &str) -> usize {
        COLOURS.iter().position(|&c| c == name).unwrap()
    }

    fn up(g: &DuellDerDrachen, name: &str) -> Action {
        let c = card(g, name);
        g.action(c, g.colour(c), false)
    }

    fn down(g: &DuellDerDrachen, name: &str, on: &str) -> Action {
        g.action(card(g, name), colour(on), true)
    }

    /// A position: the given hands and display, every other card in the deck, an empty board.
    fn position(g: &DuellDerDrachen, hands: [&[&str]; 2], display: [&str; TERRITORIES]) -> State {
        let mut s = g.new_state(Rng::new(1));
        s.hands = [mask(g, hands[0]), mask(g, hands[1])];
        s.display = display.map(|n| Some(card(g, n) as u8));
        s.deck = g.all_cards() & !s.hands[0] & !s.hands[1] & !mask(g, &display);
        s
    }

    /// Moves every card of `names` onto `seat`'s side of territory `t` (face up where the
    /// colour matches, else face down) and out of hands and deck.
    fn place(
        g: &DuellDerDrachen,
        s: &mut State,
        seat: usize,
        t: usize,
        names: &[&str],
        face_down: bool,
    ) {
        let m = mask(g, names);
        s.hands[0] &= !m;
        s.hands[1] &= !m;
        s.deck &= !m;
        s.board[seat][t] |= m;
        if face_down {
            s.face_down[seat] |= m;
        }
    }

    #[test]
    fn face_up_only_on_its_colour_face_down_anywhere() {
        let g = game();
        let s = position(
            &g,
            [&["red 7", "blue 2"], &["green 1"]],
            ["red 1", "blue 1", "green 2", "yellow 1", "white 1"],
        );
        let legal = g.legal_actions(&s);
        assert!(legal.contains(up(&g, "red 7") as usize));
        assert!(legal.contains(up(&g, "blue 2") as usize));
        for t in COLOURS {
            assert!(
                legal.contains(down(&g, "red 7", t) as usize),
                "face down on {t}"
            );
        }
        assert_eq!(legal.len(), 2 + 2 * 5);
        assert_eq!(g.action_name(&s, up(&g, "red 7")), "red 7 face up");
        assert_eq!(
            g.action_name(&s, down(&g, "red 7", "blue")),
            "red 7 face down on blue"
        );
    }

    #[test]
    fn the_opponent_takes_the_display_card_and_the_deck_refills_it() {
        let g = game();
        let mut s = position(
            &g,
            [&["red 7"], &["green 1"]],
            ["red 1", "blue 1", "green 2", "yellow 1", "white 1"],
        );
        let deck = s.deck;
        g.apply(&mut s, up(&g, "red 7"));
        assert_eq!(s.hands[1], mask(&g, &["green 1", "red 1"]));
        assert_eq!(s.known[1], mask(&g, &["red 1"]));
        let new = s.display[0].unwrap() as u64;
        assert!(deck & (1 << new) != 0 && s.deck == deck & !(1 << new));
        assert_eq!(s.markers[0], Some(0));
        assert_eq!(s.player, 1);
    }

    #[test]
    fn explicit_chance_deals_hands_then_display_then_refills_after_each_move() {
        let mut g = game();
        g.config.chance = ChanceMode::Explicit;
        g.config.hand_size = 2;
        let mut s = g.new_state(Rng::new(4));
        let n = g.num_cards();
        let mut dealt = Vec::new();
        for want in [
            DrawTo::Hand(0),
            DrawTo::Hand(0),
            DrawTo::Hand(1),
            DrawTo::Hand(1),
        ]
        .into_iter()
        .chain((0..TERRITORIES).map(DrawTo::Display))
        {
            assert_eq!(g.drawing_to(&s), Some(want));
            assert!(g.current_player(&s).is_none());
            let outcomes = g.chance_outcomes(&s);
            assert_eq!(outcomes.len(), n - dealt.len());
            assert!(outcomes
                .iter()
                .all(|&(_, p)| p == 1.0 / (n - dealt.len()) as f64));
            g.check_state(&s).unwrap();
            let card = outcomes[outcomes.len() / 2].0;
            g.apply(&mut s, card);
            dealt.push(card as u64);
        }
        assert_eq!(s.hands[0], 1 << dealt[0] | 1 << dealt[1]);
        assert_eq!(s.hands[1], 1 << dealt[2] | 1 << dealt[3]);
        assert_eq!(s.display[4], Some(dealt[8] as u8));
        assert_eq!(g.current_player(&s), Some(0));
        // A move hands the display card over; its place is refilled at the next chance node.
        let a = g.legal_actions(&s).nth(0).unwrap();
        let t = g.decode(a).territory;
        g.apply(&mut s, a);
        assert_eq!(g.drawing_to(&s), Some(DrawTo::Display(t)));
        assert!(s.display[t].is_none() && s.hands[1] & (1 << dealt[4 + t]) != 0);
        g.check_state(&s).unwrap();
        let card = g.legal_actions(&s).nth(0).unwrap();
        assert_eq!(
            g.action_name(&s, card),
            format!("draw {} for {}", g.card_name(card as usize), COLOURS[t])
        );
        g.apply(&mut s, card);
        assert_eq!(
            (s.display[t], g.current_player(&s)),
            (Some(card as u8), Some(1))
        );
        // In the seeded mode the same empty place is no chance node but a broken state.
        let seeded = game();
        let mut t0 = seeded.new_state(Rng::new(4));
        t0.deck |= 1 << t0.display[0].unwrap();
        t0.display[0] = None;
        assert!(!seeded.is_chance_node(&t0) && seeded.check_state(&t0).is_err());
    }

    #[test]
    fn final_count_reveals_and_applies_the_doubling_rule() {
        let g = game();
        let mut s = position(
            &g,
            [&[], &[]],
            ["red 1", "blue 1", "green 1", "yellow 1", "white 1"],
        );
        // A full board; `*` marks a face-down card.
        let layout: [[[&str; 3]; 2]; TERRITORIES] = [
            [["red 9", "red 8", "red 6"], ["red 7", "red 1", "red 3"]], // 23 vs 11: double
            [
                ["blue 5", "blue 4", "blue 3"],
                ["blue 7", "blue 6", "blue 2"],
            ], // 12 vs 15
            [
                ["green 8", "green 7", "green 6"],
                ["white 9*", "white 8*", "yellow 8*"],
            ], // 21 vs 0
            [
                ["yellow 2", "yellow 3", "yellow 4*"],
                ["yellow 5", "yellow 6", "yellow 7"],
            ], // 9 vs 18
            [
                ["white 2", "white 3", "white 4"],
                ["white 5", "white 6", "white 7"],
            ], // 9 vs 18
        ];
        for (t, sides) in layout.iter().enumerate() {
            for (seat, names) in sides.iter().enumerate() {
                for n in names {
                    let fd = n.ends_with('*');
                    place(&g, &mut s, seat, t, &[n.trim_end_matches('*')], fd);
                }
            }
        }
        s.display = [None; TERRITORIES];
        s.deck = 0;
        s.hands[0] = g.all_cards() & !s.board.iter().flatten().fold(0, |m, &c| m | c);
        g.count_finally(&mut s);
        assert_eq!(
            s.markers,
            [Some(1), Some(1), Some(0), Some(0), Some(0)],
            "double goes to the weaker side; a weaker 0 does not; exactly double does"
        );
        assert_eq!(
            g.territory_strength(&s, 0, 3),
            9,
            "a revealed card of the colour counts"
        );
        assert_eq!(
            g.territory_strength(&s, 1, 2),
            0,
            "revealed cards of other colours are discarded"
        );
        assert_eq!((s.winner, s.over), (Some(0), true));
        assert_eq!(g.check_state(&s), Ok(()));
    }

    #[test]
    fn rollouts_take_a_marker_short_of_double_and_play_face_up() {
        let g = game();
        let mut s = position(
            &g,
            [&["red 5", "red 9", "blue 1"], &["green 1"]],
            ["red 1", "blue 4", "green 2", "yellow 2", "white 2"],
        );
        place(&g, &mut s, 0, 3, &["yellow 1"], false);
        place(&g, &mut s, 0, 4, &["white 1"], false);
        place(&g, &mut s, 1, 0, &["red 4"], false);
        place(&g, &mut s, 1, 1, &["blue 2"], false);
        s.markers = [Some(1), Some(1), None, Some(0), Some(0)];
        assert_eq!(g.check_state(&s), Ok(()));
        // Red 5 takes red (5 > 4); red 9 would too, but 9 is double 4 and loses it in the end;
        // blue 1 takes nothing. Face down only by the random move one time in four.
        let legal = g.legal_actions(&s);
        let mut rng = Rng::new(3);
        let (mut red_5, mut face_down) = (0, 0);
        for _ in 0..400 {
            let a = g.rollout_action(&s, &legal, &mut rng);
            assert!(legal.contains(a as usize));
            red_5 += usize::from(a == up(&g, "red 5"));
            face_down += usize::from(g.decode(a).face_down);
        }
        assert!(red_5 > 300 && face_down < 100, "{red_5} {face_down}");
    }

    #[test]
    fn strength_is_the_sum_of_the_values_of_the_colour_s_cards() {
        let mut rng = Rng::new(4);
        for values in 2..=MAX_VALUES as u8 {
            let mut g = game();
            g.config.values = values;
            for _ in 0..2000 {
                let cards =
                    (u64::from(rng.next_u32()) << 32 | u64::from(rng.next_u32())) & g.all_cards();
                for t in 0..TERRITORIES {
                    let sum: u32 = iter_bits(cards)
                        .filter(|&c| g.colour(c) == t)
                        .map(|c| g.value(c))
                        .sum();
                    assert_eq!(g.strength(cards, t), sum, "values {values}, {cards:#x}");
                }
            }
        }
    }

    /// The smallest board: red and blue valued 1 and 2, a card each, one card a side.
    fn small_board(chance: ChanceMode) -> DuellDerDrachen {
        let mut g = game();
        g.config.territories = 2;
        g.config.values = 2;
        g.config.hand_size = 1;
        g.config.cards_per_side = 1;
        g.config.face_down_limit = 1;
        g.config.chance = chance;
        g
    }

    /// The deepest history below `s`, checking every state on the way.
    fn deepest(g: &DuellDerDrachen, s: &State) -> usize {
        assert_eq!(g.check_state(s), Ok(()));
        let legal = g.legal_actions(s);
        legal
            .iter()
            .map(|a| {
                let mut child = *s;
                g.apply(&mut child, a);
                1 + deepest(g, &child)
            })
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn a_small_board_keeps_its_bound_on_histories_and_its_unused_places_empty() {
        let g = small_board(ChanceMode::Explicit);
        assert_eq!((g.num_actions(), g.max_history_len()), (4 * 3, Some(4 + 4)));
        // All four cards are dealt and every side takes one card: the bound is reached.
        assert_eq!(deepest(&g, &g.new_state(Rng::new(0))), 8);
        assert_eq!(g.max_seat_actions(), Some(2));
        assert_eq!(crate::recall::whole_record_slots(&g), Some(1 + 8 + 2));
        let seeded = small_board(ChanceMode::Seeded);
        assert_eq!(seeded.max_history_len(), Some(4));
        let s = seeded.new_state(Rng::new(2));
        assert_eq!(deepest(&seeded, &s), 4);
        assert!(s.display[2..]
            .iter()
            .chain(&s.markers[2..])
            .all(Option::is_none));
        let mut bad = s;
        bad.markers[4] = Some(0);
        assert!(seeded.check_state(&bad).is_err());
    }

    #[test]
    fn decode_and_action_agree() {
        let g = game();
        for a in 0..g.num_actions() as Action {
            let m = g.decode(a);
            assert_eq!(g.action(m.card, m.territory, m.face_down), a);
        }
        assert_eq!(g.num_actions(), 270);
    }
}
