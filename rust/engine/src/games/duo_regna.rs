//! Duo Regna — two kingdoms duel for dragons.
//!
//! Rules in ten lines: each player holds the nine cards X, 0, 1, 2, 3, 4, 5, 6 (King), 6 (Queen).
//! Every round both choose a card in secret and reveal together. A shield (X) on either side:
//! no winner. A Bishop (4): the lower card wins (so the Jester beats it). A Jester (0): beats
//! a 6 (and the Bishop), loses to 1, 2, 3, 5. Otherwise the higher card wins; equal: no winner.
//! The winner pulls the dragon one step towards herself, or captures it from her own side;
//! a captured dragon is replaced from the pile, in the centre. After nine rounds both take
//! their nine cards back. Whoever has captured 4 dragons (cards show 1 or 2) wins.
//!
//! Rulings applied (see `docs/rules/duo-regna.md`): 16-card dragon deck, 10 singles and 6 doubles (`dragon_deck`);
//! seat 0 commits first, seat 1 second, seat 0's pending card hidden from seat 1; an empty
//! pile when a dragon is needed ends the game (most dragons wins, equal draws); the stalemate
//! guard `max_rounds` (180): most dragons, then the side the dragon lies on, else a draw.
//!
//! Randomness: `new_state` shuffles the dragon pile once (Fisher–Yates) and reveals its top.
//! `determinize` reshuffles the unrevealed pile, then (for seat 1) redraws seat 0's pending
//! card from seat 0's unplayed cards, then forks the state's generator.
//! With `chance = "explicit"` the pile is not shuffled: each dragon card to reveal (the first
//! one, and each that replaces a captured dragon) is a chance node whose outcomes are
//! 0 (a card of one dragon) and 1 (of two), weighted by how many of each are unrevealed;
//! the state is then one with no dragon on the track (`dragon == 0`) in a running game.

use crate::actions::{Action, ActionSet};
use crate::bits::{count, iter_bits, nth_bit};
use crate::chance::{draw_from_counts, ChanceMode, CHANCE_CHOICES};
use crate::error::Result;
use crate::game::{Game, GameNames, Seat};
use crate::options::{declare_options, invalid, read, Allowed, Options};
use crate::outcome::Outcome;
use crate::rng::Rng;
use crate::tensor::{TensorOut, TensorWriter};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

// ---- Constants ----
/// Number of cards in a kingdom (and of actions: play card `i`).
pub const CARDS: usize = 9;
/// Names of the cards, by index; the action "play card i" has the same name.
pub const CARD_NAMES: [&str; CARDS] = ["X", "0", "1", "2", "3", "4", "5", "6 king", "6 queen"];
/// A full hand.
const FULL_HAND: u16 = (1 << CARDS) - 1;
/// Most dragon cards a pile may hold.
pub const MAX_PILE: usize = 32;
/// Index of the shield card.
const SHIELD: u8 = 0;
/// Dragon positions on the panorama.
const SEAT0_SIDE: u8 = 0;
const CENTRE: u8 = 1;
const SEAT1_SIDE: u8 = 2;

/// Size of the observation tensor.
pub const TENSOR_SIZE: usize = 3 * CARDS + 1 + 3 + 2 + 3 + 2 * CARDS + 1;

// ---- Options ----
declare_options! {
    /// Duo Regna's options.
    pub struct DuoRegnaOptions {
        players: usize = 2, Allowed::Integer { min: 2, max: 2 }, "number of players";
        dragon_deck: [u8; 2] = [10, 6],
            Allowed::IntegerList { len: 2, min: 0, max: MAX_PILE as i64 },
            "two counts: cards showing one dragon, cards showing two (1-32 cards in all)";
        dragons_to_win: u8 = 4, Allowed::Integer { min: 1, max: 64 }, "dragons that win the duel";
        max_rounds: u32 = 180, Allowed::Integer { min: 1, max: 100_000 },
            "stalemate guard: rounds before the game is decided on dragons, then the dragon's side";
        chance: ChanceMode = ChanceMode::Seeded, Allowed::Choice(CHANCE_CHOICES),
            "'seeded' (the dragon pile is shuffled from the seed) or 'explicit' (each dragon card revealed is a chance node)",
            saved_default = ChanceMode::Seeded;
    }
}

/// The rules, with the options in force.
#[derive(Clone, Debug)]
pub struct DuoRegna {
    /// The options in force.
    pub config: DuoRegnaOptions,
}

impl DuoRegna {
    /// Cards showing one dragon.
    pub fn single_dragons(&self) -> u8 {
        self.config.dragon_deck[0]
    }

    /// Cards showing two dragons.
    pub fn double_dragons(&self) -> u8 {
        self.config.dragon_deck[1]
    }

    /// Whether dragon cards are chance outcomes (`chance = "explicit"`).
    fn explicit(&self) -> bool {
        self.config.chance == ChanceMode::Explicit
    }
}

// ---- Cards and actions ----
/// What an action means: action `c` plays card `c` (named as in [`CARD_NAMES`]); at a chance
/// node, outcome `d` reveals a dragon card showing `d + 1` dragons.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DuoRegnaAction {
    /// Play (seat 0: commit face down; seat 1: show) a card.
    Play {
        /// The card's name.
        card: &'static str,
    },
    /// A chance outcome: the dragon card revealed.
    Dragon {
        /// Dragons it shows (1 or 2).
        dragons: u8,
    },
}

impl std::fmt::Display for DuoRegnaAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DuoRegnaAction::Play { card } => f.write_str(card),
            DuoRegnaAction::Dragon { dragons: 1 } => f.write_str("reveal 1 dragon"),
            DuoRegnaAction::Dragon { dragons } => write!(f, "reveal {dragons} dragons"),
        }
    }
}

/// The value of a card for comparisons (`None` for the shield).
fn value(card: u8) -> Option<u8> {
    match card {
        SHIELD => None,
        1..=7 => Some(card - 1),
        _ => Some(6),
    }
}

/// Who wins a round when seat 0 shows `c0` and seat 1 shows `c1` (`None`: nobody).
pub fn round_winner(c0: u8, c1: u8) -> Option<Seat> {
    let (v0, v1) = (value(c0)?, value(c1)?);
    let higher = |a: u8, b: u8| if a > b { 0 } else { 1 };
    if v0 == v1 {
        None
    } else if v0 == 4 || v1 == 4 {
        Some(1 - higher(v0, v1)) // a Bishop: the lower card wins
    } else if v0 == 0 || v1 == 0 {
        let (jester, other) = if v0 == 0 { (0, v1) } else { (1, v0) };
        Some(if other == 6 { jester } else { 1 - jester })
    } else {
        Some(higher(v0, v1))
    }
}

// ---- State ----
/// The whole game state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The game's generator (used once, at set-up; kept so every state carries its future).
    pub rng: Rng,
    /// Each seat's hand as a 9-bit mask.
    pub hands: [u16; 2],
    /// Seat 0's committed card, not yet revealed.
    pub pending: Option<u8>,
    /// The dragon pile after shuffling: dragons per card; entries past `pile_len` are 0.
    pub pile: [u8; MAX_PILE],
    /// Number of dragon cards in the game.
    pub pile_len: u8,
    /// Index of the next card to reveal from `pile`.
    pub next_dragon: u8,
    /// Dragons on the current dragon card (0: none left).
    pub dragon: u8,
    /// Where the current dragon lies: 0 seat 0's side, 1 centre, 2 seat 1's side.
    pub dragon_side: u8,
    /// Dragons each seat has captured.
    pub captured: [u8; 2],
    /// Rounds revealed so far.
    pub round: u32,
    /// The two cards of the last reveal.
    pub last_reveal: Option<[u8; 2]>,
    /// Whether the game is over.
    pub over: bool,
}

impl Game for DuoRegna {
    type State = State;
    type ActionInfo = DuoRegnaAction;
    type Config = DuoRegnaOptions;

    const NAMES: GameNames = GameNames {
        name: "duo-regna",
        title: "Duo Regna",
        aliases: &["duoregna", "duo_regna"],
    };

    // ---- Options ----
    fn from_options(options: &Options) -> Result<Self> {
        let config: DuoRegnaOptions = read(Self::NAMES.name, options)?;
        let [single, double] = config.dragon_deck;
        if !(1..=MAX_PILE).contains(&(single as usize + double as usize)) {
            return Err(invalid(
                Self::NAMES.name,
                "dragon_deck",
                &format!("must hold 1 to {MAX_PILE} cards in all"),
            ));
        }
        Ok(DuoRegna { config })
    }

    fn config(&self) -> &DuoRegnaOptions {
        &self.config
    }

    // ---- Cards and actions ----
    fn num_actions(&self) -> usize {
        CARDS
    }

    fn action_info(&self, s: &State, action: Action) -> DuoRegnaAction {
        if self.is_chance_node(s) && action < 2 {
            return DuoRegnaAction::Dragon {
                dragons: action as u8 + 1,
            };
        }
        DuoRegnaAction::Play {
            card: CARD_NAMES[action as usize],
        }
    }

    // ---- Setup ----
    fn new_state(&self, mut rng: Rng) -> State {
        let mut pile = [0u8; MAX_PILE];
        let len = (self.single_dragons() + self.double_dragons()) as usize;
        for (i, slot) in pile.iter_mut().enumerate().take(len) {
            *slot = if i < self.single_dragons() as usize {
                1
            } else {
                2
            };
        }
        if !self.explicit() {
            rng.shuffle(&mut pile[..len]);
        }
        let mut s = State {
            rng,
            hands: [FULL_HAND; 2],
            pending: None,
            pile,
            pile_len: len as u8,
            next_dragon: 0,
            dragon: 0,
            dragon_side: CENTRE,
            captured: [0; 2],
            round: 0,
            last_reveal: None,
            over: false,
        };
        self.next_dragon_card(&mut s);
        s
    }

    // ---- Legal moves ----
    fn current_player(&self, s: &State) -> Option<Seat> {
        match (s.over || s.dragon == 0, s.pending) {
            (true, _) => None,
            (false, None) => Some(0),
            (false, Some(_)) => Some(1),
        }
    }

    fn is_chance_node(&self, s: &State) -> bool {
        !s.over && s.dragon == 0
    }

    fn chance_outcomes(&self, s: &State) -> Vec<(Action, f64)> {
        if !self.is_chance_node(s) {
            return Vec::new();
        }
        let unrevealed = &s.pile[s.next_dragon as usize..s.pile_len as usize];
        draw_from_counts((0..2u8).map(|d| {
            (
                d as Action,
                unrevealed.iter().filter(|&&c| c == d + 1).count() as u32,
            )
        }))
    }

    fn explicit_chance(&self) -> bool {
        self.explicit()
    }

    /// A round is two plays, one a seat, and the stalemate guard ends the game after
    /// `max_rounds` rounds; with explicit chance a history also holds a chance node for each
    /// dragon card revealed, at most [`DuoRegna::max_reveals`].
    fn max_history_len(&self) -> Option<usize> {
        let plays = 2 * self.config.max_rounds as usize;
        Some(
            plays
                + if self.explicit() {
                    self.max_reveals()
                } else {
                    0
                },
        )
    }

    /// A seat plays once a round, in at most `max_rounds` rounds.
    fn max_seat_actions(&self) -> Option<usize> {
        Some(self.config.max_rounds as usize)
    }

    fn legal_actions(&self, s: &State) -> ActionSet {
        if self.is_chance_node(s) {
            return self.chance_outcomes(s).iter().map(|&(d, _)| d).collect();
        }
        match self.current_player(s) {
            None => ActionSet::new(),
            Some(seat) => iter_bits(s.hands[seat] as u64)
                .map(|c| c as Action)
                .collect(),
        }
    }

    // ---- Apply ----
    fn apply(&self, s: &mut State, action: Action) {
        if self.is_chance_node(s) {
            return self.reveal_drawn_dragon(s, action as u8 + 1);
        }
        let card = action as u8;
        match s.pending {
            None => {
                s.hands[0] &= !(1 << card);
                s.pending = Some(card);
            }
            Some(c0) => {
                s.hands[1] &= !(1 << card);
                self.reveal(s, c0, card);
            }
        }
    }

    // ---- Scoring ----
    fn returns(&self, s: &State) -> Vec<f64> {
        if !s.over {
            return vec![0.0, 0.0];
        }
        match self.winner(s) {
            Some(0) => vec![1.0, -1.0],
            Some(_) => vec![-1.0, 1.0],
            None => vec![0.0, 0.0],
        }
    }

    fn scores(&self, s: &State) -> Vec<i64> {
        vec![s.captured[0] as i64, s.captured[1] as i64]
    }

    /// `"target_reached"` (a seat captured `dragons_to_win` dragons), `"dragon_pile_empty"`
    /// (a new dragon was needed and none was left) or `"round_guard"` (`max_rounds` rounds),
    /// checked in the order the rules end the game; `"dragon_side"` breaks a tie on dragons
    /// at the round guard.
    fn outcome(&self, s: &State) -> Option<Outcome> {
        if !s.over {
            return None;
        }
        let reason = if s.captured.iter().any(|&c| c >= self.config.dragons_to_win) {
            "target_reached"
        } else if s.dragon == 0 && s.next_dragon >= s.pile_len {
            "dragon_pile_empty"
        } else {
            "round_guard"
        };
        let winner = self.winner(s);
        let tie_break =
            (s.captured[0] == s.captured[1] && winner.is_some()).then_some("dragon_side");
        Some(Outcome::single(reason, self.scores(s), winner, tie_break))
    }

    // ---- Observation ----
    fn observation_shape(&self) -> Vec<usize> {
        vec![TENSOR_SIZE]
    }

    fn observation(&self, s: &State, seat: Seat) -> Value {
        let opp = 1 - seat;
        let opp_hand = s.hands[opp]
            | if opp == 0 {
                s.pending.map_or(0, |c| 1 << c)
            } else {
                0
            };
        let my_choice = if seat == 0 {
            s.pending.map(|c| CARD_NAMES[c as usize])
        } else {
            None
        };
        json!({
            "seat": seat,
            "current_player": self.current_player(s),
            "round": s.round,
            "hand": Self::card_list(s.hands[seat]),
            "opponent_hand": Self::card_list(opp_hand),
            "committed": s.pending.is_some(),
            "my_choice": my_choice,
            "dragon": if s.dragon > 0 { Some(s.dragon) } else { None },
            "dragon_side": match (s.dragon, s.dragon_side) {
                (0, _) | (_, CENTRE) => None,
                (_, side) => Some(if side == SEAT0_SIDE { 0 } else { 1 }),
            },
            "captured": s.captured,
            "dragons_in_pile": s.pile_len - s.next_dragon,
            "last_reveal": s.last_reveal.map(|r| [CARD_NAMES[r[0] as usize], CARD_NAMES[r[1] as usize]]),
            "terminal": s.over,
        })
    }

    fn write_observation<O: TensorOut + ?Sized>(&self, s: &State, seat: Seat, out: &mut O) {
        let opp = 1 - seat;
        let mut w = TensorWriter::new(out);
        w.mask((s.hands[seat]) as u64, CARDS);
        let opp_hand = s.hands[opp]
            | if opp == 0 {
                s.pending.map_or(0, |c| 1 << c)
            } else {
                0
            };
        w.mask((opp_hand) as u64, CARDS);
        w.mask(
            (if seat == 0 {
                s.pending.map_or(0, |c| 1 << c)
            } else {
                0
            }) as u64,
            CARDS,
        );
        w.flag(s.pending.is_some());
        let mine = if seat == 0 { SEAT0_SIDE } else { SEAT1_SIDE };
        w.one_hot(
            3,
            (s.dragon > 0).then_some({
                if s.dragon_side == mine {
                    0
                } else if s.dragon_side == CENTRE {
                    1
                } else {
                    2
                }
            }),
        );
        w.one_hot(2, (s.dragon > 0).then(|| (s.dragon - 1) as usize));
        w.scalar(s.captured[seat] as f32 / self.config.dragons_to_win as f32);
        w.scalar(s.captured[opp] as f32 / self.config.dragons_to_win as f32);
        w.scalar((s.pile_len - s.next_dragon) as f32 / s.pile_len.max(1) as f32);
        let last = s.last_reveal.unwrap_or([0, 0]);
        w.one_hot(CARDS, s.last_reveal.map(|_| last[seat] as usize));
        w.one_hot(CARDS, s.last_reveal.map(|_| last[opp] as usize));
        w.flag(self.current_player(s) == Some(seat));
    }

    fn determinize(&self, s: &State, seat: Seat, rng: &mut Rng) -> State {
        let mut d = *s;
        let (next, len) = (d.next_dragon as usize, d.pile_len as usize);
        rng.shuffle(&mut d.pile[next..len]);
        if let (1, Some(c)) = (seat, d.pending) {
            let pool = d.hands[0] | (1 << c);
            let pick =
                nth_bit(pool as u64, rng.index(count(pool as u64))).unwrap_or(c as usize) as u8;
            d.pending = Some(pick);
            d.hands[0] = pool & !(1 << pick);
        }
        d.rng = rng.fork();
        d
    }

    // ---- Checks ----
    fn check_state(&self, s: &State) -> std::result::Result<(), String> {
        if !s.rng.is_valid() {
            return Err("generator increment must be odd".into());
        }
        if s.hands.iter().any(|&h| h > FULL_HAND) || s.hands[1] == 0 {
            return Err("hands must hold up to 9 cards, seat 1's at least one".into());
        }
        if let Some(c) = s.pending {
            if c as usize >= CARDS || s.hands[0] & (1 << c) != 0 || s.over {
                return Err(
                    "seat 0's pending card must be a card not in her hand, in a running game"
                        .into(),
                );
            }
        }
        let played0 = CARDS - count(s.hands[0] as u64) - s.pending.is_some() as usize;
        if played0 != CARDS - count(s.hands[1] as u64) {
            return Err("both seats must have played the same number of cards".into());
        }
        // The length is checked before the pile is cut at it (a saved `pile_len` may be anything).
        let len = s.pile_len as usize;
        let Some((pile, rest)) = (len == (self.single_dragons() + self.double_dragons()) as usize)
            .then(|| s.pile.split_at_checked(len))
            .flatten()
        else {
            return Err("the dragon pile does not match the 'dragon_deck' option".into());
        };
        let ones = pile.iter().filter(|&&d| d == 1).count();
        let twos = pile.iter().filter(|&&d| d == 2).count();
        if ones != self.single_dragons() as usize
            || twos != self.double_dragons() as usize
            || rest.iter().any(|&d| d != 0)
        {
            return Err("the dragon pile does not match the 'dragon_deck' option".into());
        }
        let drawing = self.is_chance_node(s);
        if (s.next_dragon == 0 && !drawing)
            || s.next_dragon > s.pile_len
            || s.dragon_side > 2
            || s.dragon > 2
        {
            return Err("the dragon track is out of range".into());
        }
        if drawing
            && (!self.explicit()
                || s.pending.is_some()
                || s.next_dragon == s.pile_len
                || s.dragon_side != CENTRE)
        {
            return Err(
                "a running game must have a dragon, but for a dragon card to draw (explicit chance, nobody to play, cards left)"
                    .into(),
            );
        }
        if s.dragon > 0 && s.dragon != s.pile[s.next_dragon as usize - 1] {
            return Err("the current dragon is not the last card revealed".into());
        }
        if s.captured.iter().map(|&c| c as usize).sum::<usize>() > 2 * MAX_PILE
            || s.round > self.config.max_rounds
            || s.last_reveal
                .is_some_and(|r| r.iter().any(|&c| c as usize >= CARDS))
            || s.last_reveal.is_some() != (s.round > 0)
        {
            return Err("captures, rounds or the last reveal are out of range".into());
        }
        let decided = s.captured.iter().any(|&c| c >= self.config.dragons_to_win)
            || s.round >= self.config.max_rounds
            || (s.dragon == 0 && !drawing);
        if s.over != decided {
            return Err("'over' does not agree with the captures, the rounds and the pile".into());
        }
        Ok(())
    }

    // ---- Search policy ----
    /// Rollouts stop once a round has been revealed (a long random tail only adds noise to
    /// a game of many rounds): the captured dragons, plus half the current dragon's worth
    /// towards the seat on whose side it lies, over half the dragons that win, squashed by
    /// `tanh`, estimate the returns.
    fn rollout_cutoff(&self, from: &State, s: &State) -> Option<Vec<f64>> {
        (s.pending.is_none() && s.round > from.round).then(|| {
            let towards_seat_0 = 1.0 - s.dragon_side as f64;
            let lead = s.captured[0] as f64 - s.captured[1] as f64
                + 0.5 * s.dragon as f64 * towards_seat_0;
            let v = (2.0 * lead / self.config.dragons_to_win as f64).tanh();
            vec![v, -v]
        })
    }
}

// ---- Legal moves ----
impl DuoRegna {
    /// The most dragon cards a game reveals: the first one, then one after each capture the
    /// game goes on from, and never more than the pile holds. A capture takes two rounds at
    /// least (a revealed dragon lies in the centre: a won round brings it to the winner's
    /// side, a second one captures it), and a capture in the last round ends the game, so the
    /// `k`-th capture comes in round `2k` at the earliest and at most `(max_rounds - 1) / 2`
    /// captures lead to a reveal. A capture that does not win leaves its seat short of
    /// `dragons_to_win`, and each capture takes a dragon at least, so the game goes on after
    /// at most `2 × (dragons_to_win - 1)` captures.
    pub fn max_reveals(&self) -> usize {
        let pile = (self.single_dragons() + self.double_dragons()) as usize;
        let by_rounds = (self.config.max_rounds as usize - 1) / 2;
        let by_wins = 2 * (self.config.dragons_to_win as usize - 1);
        pile.min(1 + by_rounds.min(by_wins))
    }
}

// ---- Apply ----
impl DuoRegna {
    /// A dragon card is needed: the pile's next one (seeded), or a chance node (explicit);
    /// an empty pile ends the game.
    fn next_dragon_card(&self, s: &mut State) {
        if self.explicit() && s.next_dragon < s.pile_len {
            s.dragon = 0;
            s.dragon_side = CENTRE;
        } else {
            self.reveal_next_dragon(s);
        }
    }

    /// Explicit chance: reveals a card showing `dragons`, moved to the top of the
    /// unrevealed pile (the rest of it keeps no order that matters).
    fn reveal_drawn_dragon(&self, s: &mut State, dragons: u8) {
        let (next, len) = (s.next_dragon as usize, s.pile_len as usize);
        if let Some(i) = (next..len).find(|&i| s.pile[i] == dragons) {
            s.pile.swap(next, i);
        }
        self.reveal_next_dragon(s);
    }

    fn reveal_next_dragon(&self, s: &mut State) {
        if s.next_dragon < s.pile_len {
            s.dragon = s.pile[s.next_dragon as usize];
            s.next_dragon += 1;
            s.dragon_side = CENTRE;
        } else {
            s.dragon = 0;
            s.over = true;
        }
    }

    fn move_dragon(&self, s: &mut State, winner: Seat) {
        let own_side = if winner == 0 { SEAT0_SIDE } else { SEAT1_SIDE };
        if s.dragon_side == own_side {
            s.captured[winner] = s.captured[winner].saturating_add(s.dragon);
            if s.captured[winner] >= self.config.dragons_to_win {
                s.dragon = 0; // captured: no dragon is left on the track
                s.over = true;
            } else {
                self.next_dragon_card(s);
            }
        } else if winner == 0 {
            s.dragon_side -= 1;
        } else {
            s.dragon_side += 1;
        }
    }

    fn reveal(&self, s: &mut State, c0: u8, c1: u8) {
        s.pending = None;
        s.last_reveal = Some([c0, c1]);
        s.round += 1;
        if let Some(w) = round_winner(c0, c1) {
            self.move_dragon(s, w);
        }
        if s.hands == [0, 0] {
            s.hands = [FULL_HAND; 2];
        }
        if s.round >= self.config.max_rounds {
            s.over = true;
        }
    }
}

// ---- Scoring ----
impl DuoRegna {
    fn winner(&self, s: &State) -> Option<Seat> {
        use std::cmp::Ordering::*;
        match s.captured[0].cmp(&s.captured[1]) {
            Greater => Some(0),
            Less => Some(1),
            Equal if s.dragon > 0 && s.dragon_side == SEAT0_SIDE => Some(0),
            Equal if s.dragon > 0 && s.dragon_side == SEAT1_SIDE => Some(1),
            Equal => None,
        }
    }
}

// ---- Observation ----
impl DuoRegna {
    fn card_list(mask: u16) -> Vec<&'static str> {
        iter_bits(mask as u64).map(|c| CARD_NAMES[c]).collect()
    }
}

// ---- Tests ----
#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> DuoRegna {
        DuoRegna::from_options(&Options::new()).unwrap()
    }

    fn card(name: &str) -> u8 {
        CARD_NAMES.iter().position(|&n| n == name).unwrap() as u8
    }

    /// The whole comparison table, written out from the rulebook and the rulings.
    #[test]
    fn comparison_table() {
        let names = ["X", "0", "1", "2", "3", "4", "5", "6 king", "6 queen"];
        // Expected winner of (row vs column): '0' row wins, '1' column wins, '-' nobody.
        let table = [
            "---------", // X: a shield on either side, nobody wins
            "--1110100", // 0: loses to 1, 2, 3, 5; beats the Bishop and both 6s
            "-0-110111", // 1: beats 0, and the Bishop (lower wins)
            "-00-10111", // 2
            "-000-0111", // 3
            "-1111-000", // 4: the lower card wins, the Jester included
            "-00001-11", // 5: loses to the Bishop (lower wins)
            "-100010--", // 6 king: equal to the queen
            "-100010--", // 6 queen
        ];
        for (i, row) in table.iter().enumerate() {
            for (j, want) in row.chars().enumerate() {
                let got = match round_winner(card(names[i]), card(names[j])) {
                    None => '-',
                    Some(0) => '0',
                    Some(_) => '1',
                };
                assert_eq!(got, want, "{} vs {}", names[i], names[j]);
            }
        }
    }

    fn play(g: &DuoRegna, s: &mut State, c0: &str, c1: &str) {
        g.apply(s, card(c0) as Action);
        g.apply(s, card(c1) as Action);
    }

    #[test]
    fn dragon_moves_and_is_captured_from_each_position() {
        let g = game();
        let mut s = g.new_state(Rng::new(5));
        let first = s.dragon;
        assert_eq!(s.dragon_side, CENTRE);
        play(&g, &mut s, "5", "3"); // seat 0 wins: centre -> seat 0's side
        assert_eq!(s.dragon_side, SEAT0_SIDE);
        play(&g, &mut s, "3", "5"); // seat 1 wins: seat 0's side -> centre
        assert_eq!(s.dragon_side, CENTRE);
        play(&g, &mut s, "1", "2"); // seat 1: centre -> seat 1's side
        assert_eq!(s.dragon_side, SEAT1_SIDE);
        play(&g, &mut s, "X", "2"); // shield: nothing
        assert_eq!(s.dragon_side, SEAT1_SIDE);
        play(&g, &mut s, "6 king", "6 queen"); // equal: nothing
        assert_eq!(s.dragon_side, SEAT1_SIDE);
        play(&g, &mut s, "2", "4"); // bishop: lower (2, seat 0) wins -> centre
        assert_eq!(s.dragon_side, CENTRE);
        play(&g, &mut s, "4", "0"); // jester beats bishop: seat 1 -> seat 1's side
        assert_eq!(s.dragon_side, SEAT1_SIDE);
        play(&g, &mut s, "0", "6 king"); // jester beats king: seat 0 -> centre
        assert_eq!(s.dragon_side, CENTRE);
        assert_eq!(s.captured, [0, 0]);
        assert_eq!(s.dragon, first);
    }

    #[test]
    fn capture_reveals_next_dragon_and_hands_recover_after_nine_rounds() {
        let g = game();
        let mut s = g.new_state(Rng::new(9));
        let (first, second) = (s.pile[0], s.pile[1]);
        play(&g, &mut s, "5", "3"); // to seat 0's side
        play(&g, &mut s, "6 king", "1"); // captured by seat 0
        assert_eq!(s.captured, [first, 0]);
        assert_eq!(
            (s.dragon, s.dragon_side, s.next_dragon),
            (second, CENTRE, 2)
        );
        for (a, b) in [
            ("X", "X"),
            ("0", "0"),
            ("1", "2"),
            ("2", "5"),
            ("3", "6 king"),
            ("4", "4"),
            ("6 queen", "6 queen"),
        ] {
            play(&g, &mut s, a, b);
        }
        assert_eq!(s.round, 9);
        assert_eq!(s.hands, [FULL_HAND; 2], "hands recovered after nine rounds");
    }

    fn explicit(deck: [u8; 2]) -> DuoRegna {
        let mut g = game();
        g.config.dragon_deck = deck;
        g.config.chance = ChanceMode::Explicit;
        g
    }

    #[test]
    fn explicit_chance_draws_each_dragon_card_from_those_unrevealed() {
        let g = explicit([2, 1]);
        let mut s = g.new_state(Rng::new(1));
        assert!(g.is_chance_node(&s) && g.current_player(&s).is_none());
        assert_eq!(g.chance_outcomes(&s), vec![(0, 2.0 / 3.0), (1, 1.0 / 3.0)]);
        assert_eq!(g.legal_actions(&s).iter().collect::<Vec<_>>(), vec![0, 1]);
        assert_eq!(g.action_name(&s, 1), "reveal 2 dragons");
        g.check_state(&s).unwrap();
        g.apply(&mut s, 1);
        assert_eq!((s.dragon, s.dragon_side, s.next_dragon), (2, CENTRE, 1));
        assert_eq!(g.current_player(&s), Some(0));
        assert_eq!(
            g.action_name(&s, 1),
            "0",
            "a player's action ids are cards again"
        );
        // Seat 0 pulls the dragon to her side, then captures it: the next card is drawn.
        play(&g, &mut s, "6 king", "1");
        play(&g, &mut s, "6 queen", "2");
        assert_eq!(s.captured, [2, 0]);
        assert!(g.is_chance_node(&s) && !s.over);
        assert_eq!(
            g.chance_outcomes(&s),
            vec![(0, 1.0)],
            "only single dragons are left"
        );
        g.check_state(&s).unwrap();
        g.apply(&mut s, 0);
        assert_eq!((s.dragon, s.next_dragon), (1, 2));
    }

    #[test]
    fn explicit_chance_ends_on_an_empty_pile_without_a_chance_node() {
        let g = explicit([1, 0]);
        let mut s = g.new_state(Rng::new(1));
        assert_eq!(g.chance_outcomes(&s), vec![(0, 1.0)]);
        g.apply(&mut s, 0);
        play(&g, &mut s, "5", "3");
        play(&g, &mut s, "6 king", "1");
        assert!(s.over && !g.is_chance_node(&s));
        assert_eq!(g.returns(&s), vec![1.0, -1.0]);
        // A seeded game never stops at a chance node, and a chance node is no seeded state.
        let seeded = game();
        let mut t = seeded.new_state(Rng::new(1));
        assert!(!seeded.is_chance_node(&t) && seeded.chance_outcomes(&t).is_empty());
        t.dragon = 0;
        assert!(seeded.check_state(&t).is_err());
    }

    #[test]
    fn four_dragons_win() {
        let mut g = game();
        g.config.dragon_deck = [4, 0];
        let mut s = g.new_state(Rng::new(1));
        for _ in 0..3 {
            play(&g, &mut s, "5", "3");
            play(&g, &mut s, "6 king", "1");
            play(&g, &mut s, "2", "X");
            // refill every third capture pattern: play the rest to recover the hand
            for (a, b) in [
                ("X", "0"),
                ("0", "2"),
                ("1", "4"),
                ("3", "5"),
                ("4", "6 king"),
                ("6 queen", "6 queen"),
            ] {
                play(&g, &mut s, a, b);
            }
        }
        assert!(!s.over);
        let before = s.captured[0];
        play(&g, &mut s, "5", "3");
        play(&g, &mut s, "6 king", "1");
        assert_eq!(s.captured[0], before + 1);
        assert!(s.captured[0] >= 4 && s.over);
        assert_eq!(s.dragon, 0, "the captured dragon leaves the track");
        assert_eq!(g.returns(&s), vec![1.0, -1.0]);
        assert_eq!(g.current_player(&s), None);
        assert!(g.legal_actions(&s).is_empty());
    }

    #[test]
    fn empty_pile_ends_the_game_and_round_cap_uses_dragon_side() {
        let mut g = game();
        g.config.dragon_deck = [1, 0];
        let mut s = g.new_state(Rng::new(1));
        play(&g, &mut s, "5", "3");
        play(&g, &mut s, "6 king", "1");
        assert!(s.over && s.dragon == 0);
        assert_eq!(g.returns(&s), vec![1.0, -1.0]);
        let ended = g.outcome(&s).unwrap();
        assert_eq!(
            (ended.reason, ended.winners, ended.scores, ended.tie_break),
            ("dragon_pile_empty", vec![0], vec![1, 0], None)
        );

        let mut g = game();
        g.config.max_rounds = 1;
        let mut s = g.new_state(Rng::new(1));
        assert_eq!(g.outcome(&s), None);
        play(&g, &mut s, "1", "2");
        assert!(s.over);
        assert_eq!(
            g.returns(&s),
            vec![-1.0, 1.0],
            "tie on dragons: the dragon lies on seat 1's side"
        );
        let ended = g.outcome(&s).unwrap();
        assert_eq!(
            (ended.reason, ended.winners, ended.tie_break),
            ("round_guard", vec![1], Some("dragon_side"))
        );
        let mut s = g.new_state(Rng::new(1));
        play(&g, &mut s, "X", "2");
        assert_eq!(
            g.returns(&s),
            vec![0.0, 0.0],
            "dragon in the centre: a draw"
        );
        let ended = g.outcome(&s).unwrap();
        assert!(
            ended.reason == "round_guard" && ended.winners.is_empty() && ended.tie_break.is_none()
        );
    }

    #[test]
    fn rollouts_stop_after_a_round_with_the_dragons_as_estimate() {
        let g = game();
        let start = g.new_state(Rng::new(2));
        let mut s = start;
        g.apply(&mut s, card("5") as Action);
        assert_eq!(
            g.rollout_cutoff(&start, &s),
            None,
            "a card is still pending"
        );
        g.apply(&mut s, card("3") as Action);
        // Seat 0 won the round: the dragon moved from the centre to her side.
        assert_eq!(s.dragon_side, 0);
        let lead = 0.5 * s.dragon as f64;
        let v = (2.0 * lead / 4.0).tanh();
        assert_eq!(g.rollout_cutoff(&start, &s), Some(vec![v, -v]));
        assert_eq!(
            g.rollout_cutoff(&s, &s),
            None,
            "no round since the rollout began"
        );
        let mut t = s;
        t.captured = [0, 3];
        t.dragon_side = 1;
        let v = (2.0 * -3.0 / 4.0f64).tanh();
        assert_eq!(g.rollout_cutoff(&start, &t), Some(vec![v, -v]));
    }
}
