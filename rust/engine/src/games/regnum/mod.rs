//! Regnum — populate your realm with the most valuable characters.
//!
//! Rules in ten lines: each player has a castle (an advantage) and four resource cards; 4
//! characters lie in a line-up, players + 1 standards are on the table. A turn: draw two
//! resource cards blind or take the discard's top card; then buy characters from the line-up,
//! one after the other, paying each cost icon with resource cards (a dual card pays as one of
//! its two colours), or, having bought none, discard one resource card. A bought character's
//! effect happens at once. The line-up is refilled at the end of the turn. When either deck's
//! last card is drawn, the round in progress is finished and one more full round is played
//! from seat 0, so that everybody has had as many turns (`final_round`). Score: printed
//! points, score icons, 3 points per standard won (ties win nothing, except for Montreaux);
//! most points wins, then most inhabitants, then a shared win.
//!
//! Rulings applied (see `docs/rules/regnum.md`): the card set as data
//! (`python/regalia/data/regnum_cards.json`, option `card_set`); effects happen once, right
//! after buying, and do nothing without a legal target; removed and cleared characters leave
//! the game; TAX is answered in seat order from the active player's left; SWAP and SALVAGE
//! choose any card; several purchases per turn, each paid slot by slot; the final round
//! (`final_round`: equal turns by default); an empty deck draws what is left, and DRAW2's
//! discard follows only a card drawn; SWAP with an empty hand does nothing; the standards'
//! ties and Montreaux; the tie-break on
//! inhabitants, then a shared win. Ours (see `docs/rules/regnum.md`): the stalemate guard
//! `max_turns` (400 turns in all), the Jester bonus counted once per player, SWAP's taking
//! the last deck card is no draw.
//!
//! Randomness: the resource deck and the character deck are kept as multisets; every blind
//! draw takes a uniform card of what is left (`rng.index(size)`, walked in kind order / bit
//! order), which is the same as drawing from a shuffled deck. `new_state`: shuffle the
//! castles (seat i gets the i-th), shuffle the standards (the first players + 1 are in
//! play), draw the 4 line-up characters (slot order), deal 4 resources to each seat in turn,
//! draw the first discard. STEAL draws the stolen card uniformly from the victim's hand.
//! `determinize` deals the unseen cards again (other seats in order, then the rest is the
//! deck), retrying while a paying player could no longer complete her payment, then forks.
//! Every card drawn, dealt, turned up or stolen is asked of one chance interface (the event
//! under way is [`State::pending`]; [`Regnum::taking`] says what its next outcome is for):
//! with `chance = "seeded"` the generator answers at once (the draws above), with
//! `chance = "explicit"` the game stops at a chance node whose outcomes are the resource
//! kinds (weighted by the cards of each kind in the deck or the robbed hand) or the
//! character ids of the deck (each equally likely). The explicit setup gives the castles
//! seat by seat (each castle left equally likely) and puts the standards in play smallest
//! id first (the next one `j` weighted by the sets of standards after it that hold it, so
//! that each set comes once and all are equally likely), where the seeded one shuffles them
//! (Fisher–Yates cannot be replayed card by card without changing every seed's game), then
//! goes on as the seeded one does; the
//! explicit game skips the refill after the game's last turn, which changes nothing.

mod action;
mod bounds;
mod cards;
mod check;
mod observation;
mod payment;
mod pile;
mod rollout;
mod rules;
mod scoring;

pub use action::RegnumAction;
pub use cards::{
    parse_card_set, Advantage, CardSet, Condition, Effect, ScoreIcon, DEFAULT_CARD_SET, KINDS,
    KIND_NAMES,
};

use crate::actions::{Action, ActionSet};
use crate::bits::{count, iter_bits, nth_bit};
use crate::chance::{draw_from_counts, ChanceMode, CHANCE_CHOICES};
use crate::error::Result;
use crate::game::{winner_returns, Game, GameNames, Seat};
use crate::options::{declare_options, read, Allowed, Options};
use crate::outcome::{best_of, Outcome};
use crate::rng::Rng;
use crate::tensor::{TensorOut, TensorWriter};
use cards::{
    ANY, COLOURS, KIND_MASK, MAX_CASTLES, MAX_CHARACTERS, MAX_SLOTS, MAX_STANDARDS, PAIR_FIRST,
    PAIR_SECOND,
};
pub use payment::feasible;
use payment::{held, Demand, Step, Supply, ALL_KINDS, NATURAL};
use pile::Pile;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::sync::Arc;

// ---- Constants ----
/// Most seats.
pub const MAX_PLAYERS: usize = 4;
/// Characters in the line-up.
pub const LINEUP: usize = 4;
const HAND_START: usize = 4;
/// Wizards owned -> points (more than four score as four).
const WIZARD_POINTS: [i64; 5] = [0, 2, 4, 7, 10];
const JESTER_BONUS: i64 = 2;
const STANDARD_POINTS: i64 = 3;
const BANNERHOLD_POINTS: i64 = 4;
/// Tries at resampling a paying player's hand that can still complete her payment.
const DETERMINIZE_TRIES: usize = 100;
const SLOT_NAMES: [&str; 7] = ["G", "O", "P", "Y", "2=", "2=", "1"];

/// Action: draw two resource cards blind.
pub const DRAW_TWO: Action = 0;
/// Action: take the discard's top card.
pub const TAKE_DISCARD: Action = 1;
/// Actions: buy the character in line-up slot `i`.
pub const BUY: Action = 2;
/// Actions: pay the current slot with a card of kind `k` as colour `c` (`PAY + 4k + c`).
pub const PAY: Action = BUY + LINEUP as Action;
/// Actions: discard a card of kind `k`.
pub const DISCARD: Action = PAY + (KINDS * 4) as Action;
/// Action: end the turn.
pub const END_TURN: Action = DISCARD + KINDS as Action;
/// Actions: steal from seat `p`.
pub const STEAL: Action = END_TURN + 1;
/// Actions: take a card of kind `k` from the discard pile.
pub const SALVAGE: Action = STEAL + MAX_PLAYERS as Action;
/// Actions: take a card of kind `k` from the deck.
pub const SWAP_TAKE: Action = SALVAGE + KINDS as Action;
/// Actions: give a card of kind `k` to the deck.
pub const SWAP_GIVE: Action = SWAP_TAKE + KINDS as Action;
/// Actions: target character `c` (EXCHANGE or REMOVE).
pub const TARGET: Action = SWAP_GIVE + KINDS as Action;
/// Size of the action space.
pub const NUM_ACTIONS: usize = TARGET as usize + MAX_CHARACTERS;

const SEAT_FEATURES: usize = 1 + MAX_CASTLES + MAX_CHARACTERS + 1 + KINDS;
/// Size of the observation tensor.
pub const TENSOR_SIZE: usize = KINDS
    + MAX_PLAYERS * SEAT_FEATURES
    + LINEUP * MAX_CHARACTERS
    + 2 * KINDS
    + 2
    + MAX_STANDARDS
    + Phase::COUNT
    + MAX_PLAYERS
    + MAX_CHARACTERS
    + MAX_SLOTS
    + 4
    + 5
    + KINDS;

// ---- Options ----
/// The end once a deck runs out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinalRound {
    /// The round finished, then one more full round from seat 0.
    EqualTurns,
    /// One more turn each, from the next player on.
    OneEach,
}

declare_options! {
    /// Regnum's options.
    pub struct RegnumOptions {
        players: usize = 2, Allowed::Integer { min: 2, max: MAX_PLAYERS as i64 }, "number of players";
        card_set: Option<Arc<Value>> = None, Allowed::Data,
            "the card set as a dict of the structure of regalia/data/regnum_cards.json (null: that file)";
        max_turns: u32 = 400, Allowed::Integer { min: 1, max: 100_000 },
            "stalemate guard: the game ends after this many turns in all";
        final_round: FinalRound = FinalRound::EqualTurns, Allowed::Choice(&["equal_turns", "one_each"]),
            "the end once a deck runs out: 'equal_turns' (finish the round, then one more round from seat 0) or 'one_each' (one more turn each, from the next player)",
            // Saves from before this option were played with one more turn each.
            saved_default = FinalRound::OneEach;
        chance: ChanceMode = ChanceMode::Seeded, Allowed::Choice(CHANCE_CHOICES),
            "'seeded' (cards are shuffled and drawn from the seed) or 'explicit' (each castle, standard, character and resource card dealt, drawn or stolen is a chance node)",
            saved_default = ChanceMode::Seeded;
    }
}

/// The rules, with the options in force and the card set they give.
#[derive(Clone, Debug)]
pub struct Regnum {
    /// The options in force.
    pub config: RegnumOptions,
    /// The card set in play (`config.card_set`, or the default file's).
    pub cards: Arc<CardSet>,
    /// Each character's cost as the payment check weighs it (`None`: it cannot be paid).
    costs: Arc<[Option<Demand>]>,
}

// ---- Cards and actions ----
fn total(cards: &[u8; KINDS]) -> usize {
    cards.iter().map(|&c| c as usize).sum()
}

/// The kind of the `r`-th card of `cards` (kinds in order; the last kind past the end): the
/// number of kinds whose cards all come before it.
fn kind_at(cards: &[u8; KINDS], r: usize) -> usize {
    let mut upto = 0;
    let before = cards.iter().fold(0, |n, &c| {
        upto += c as usize;
        n + usize::from(upto <= r)
    });
    before.min(KINDS - 1)
}

fn lowest_colour(k: usize) -> u8 {
    KIND_MASK[k].trailing_zeros() as u8
}

impl Regnum {
    fn slots(&self, c: Option<u8>) -> &[u8] {
        c.and_then(|c| self.cards.characters.get(c as usize))
            .map_or(&[], |ch| ch.slots.as_slice())
    }

    /// Whether the hand `supply` pays character `c`'s whole cost (a character the card set
    /// does not have costs nothing, as [`Regnum::slots`] gives it no slots).
    fn buyable(&self, supply: &Supply, c: u8, wild: bool) -> bool {
        match self.costs.get(c as usize) {
            Some(cost) => cost.as_ref().is_some_and(|d| supply.pays(d, wild)),
            None => true,
        }
    }

    fn char_name(&self, c: usize) -> String {
        self.cards
            .characters
            .get(c)
            .map_or_else(|| format!("#{c}"), |ch| ch.name.clone())
    }

    /// At a chance node, what outcome `o` means, if it is an id of what is drawn there (any
    /// castle, standard, character or resource kind of the card set, drawable now or not).
    fn outcome_info(&self, s: &State, o: usize) -> Option<RegnumAction> {
        use RegnumAction::*;
        let cards = &self.cards;
        Some(match self.waiting(s)? {
            Take::Castle(seat) => Castle {
                castle: cards.castles.get(o)?.name.clone(),
                seat,
            },
            Take::Standard => Standard {
                standard: cards.standards.get(o)?.name.clone(),
            },
            Take::Character(slot) => Reveal {
                character: cards.characters.get(o)?.name.clone(),
                slot,
            },
            Take::Resource(seat) => Blind {
                card: KIND_NAMES.get(o)?,
                seat,
            },
            Take::Discard => FirstDiscard {
                card: KIND_NAMES.get(o)?,
            },
            Take::Stolen(seat) => Stolen {
                card: KIND_NAMES.get(o)?,
                seat,
            },
        })
    }
}

// ---- State ----
/// Who decides what, now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum Phase {
    /// The active player draws two blind or takes the discard's top card.
    Draw,
    /// The active player buys, discards one card, or ends the turn.
    Main,
    /// The active player pays the next slot of a cost.
    Pay,
    /// STEAL: choose the victim.
    Steal,
    /// TAX: the decider discards one card.
    Tax,
    /// DRAW2: the active player discards one card.
    Draw2Discard,
    /// SWAP: take a card from the deck.
    SwapTake,
    /// SWAP: give a card to the deck.
    SwapGive,
    /// SALVAGE: take a card from the discard pile.
    Salvage,
    /// EXCHANGE: choose the inhabitant.
    Exchange,
    /// REMOVE: choose the inhabitant.
    Remove,
    /// The game is over.
    Over,
}

impl Phase {
    /// How many phases there are (`Over` is the last: a phase's code is its place).
    pub const COUNT: usize = Phase::Over as usize + 1;

    /// The phase's name, as saved states and observations give it.
    fn name(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default()
    }
}

/// The whole game state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The game's generator.
    pub rng: Rng,
    /// Each seat's castle (index into the card set; 0 for empty seats).
    pub castles: [u8; MAX_PLAYERS],
    /// The standards in play (bit = index into the card set).
    pub standards: u16,
    /// The line-up (character indices), `None` for an empty slot.
    pub lineup: [Option<u8>; LINEUP],
    /// The character deck (bit = character index).
    pub char_deck: u64,
    /// Characters that have left the game.
    pub gone: u64,
    /// Each seat's realm.
    pub realms: [u64; MAX_PLAYERS],
    /// Each seat's hand: cards per resource kind.
    pub hands: [[u8; KINDS]; MAX_PLAYERS],
    /// The resource deck: cards per kind.
    pub deck: [u8; KINDS],
    /// The discard pile, bottom first.
    pub discard: Pile,
    /// `known[x][o][k]`: seat `x` knows that seat `o` holds at least this many cards of kind `k`.
    pub known: [[[u8; KINDS]; MAX_PLAYERS]; MAX_PLAYERS],
    /// Who decides what.
    pub phase: Phase,
    /// Whose turn it is.
    pub active: u8,
    /// Who decides now (the active player, or a taxed player).
    pub decider: u8,
    /// Turns completed.
    pub turn: u32,
    /// Characters bought this turn.
    pub bought: u8,
    /// Goldmint's wildcard has been used this turn.
    pub wild_used: bool,
    /// The character being paid for, or whose effect is resolving.
    pub character: Option<u8>,
    /// The next slot of the payment.
    pub pay_step: u8,
    /// The colour of a `2=` icon whose first card is paid.
    pub pair_colour: Option<u8>,
    /// Turns left once a deck has run out (the current one included), `None` before.
    pub final_turns: Option<u8>,
    /// The random event under way, whose next outcome the game waits for (explicit chance;
    /// a seeded game settles each at once, so its states at rest have none and are saved
    /// as before, without the field).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<Pending>,
}

/// A random event under way (explicit chance): what is left of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Pending {
    /// The setup, `castles` castles given so far: the castles to seats 0, 1, ... in turn,
    /// then the standards, the line-up slot by slot, four resource cards to each seat in
    /// turn, the first discard (what comes next is read from what is dealt).
    Setup {
        /// Castles given so far (seats `0..castles` have theirs).
        castles: u8,
    },
    /// Blind resource cards for the active player (fewer if the deck runs out).
    Draw {
        /// Cards still to draw.
        left: u8,
    },
    /// STEAL: the card taken at random from a hand.
    Steal {
        /// The seat robbed.
        victim: u8,
    },
    /// The end of a turn: the empty line-up slots refilled in order, then the next turn.
    Refill,
}

/// What the next chance outcome is for (the chance interface, [`Regnum::taking`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Take {
    /// A castle (outcome: its index in the card set) for a seat.
    Castle(usize),
    /// A standard (outcome: its index) put in play.
    Standard,
    /// A character (outcome: its index) turned up into a line-up slot.
    Character(usize),
    /// A blind resource card (outcome: its kind) into a seat's hand.
    Resource(usize),
    /// The first card of the discard pile (outcome: its kind).
    Discard,
    /// The card (outcome: its kind) STEAL takes at random from a seat's hand.
    Stolen(usize),
}

/// What a chance outcome is drawn from: cards per resource kind, a set of ids, or the next
/// of a set drawn in rising order.
#[derive(Clone, Copy, Debug)]
enum Pool {
    Kinds([u8; KINDS]),
    Ids(u64),
    /// `need` of the ids `first..len`, drawn as a set, smallest first: the next is `j` with
    /// weight C(len - 1 - j, need - 1), the sets after it that hold it (so each set comes
    /// once, all equally likely).
    Rising {
        first: usize,
        len: usize,
        need: usize,
    },
}

/// The binomial coefficient C(n, k) (small arguments: at most C(15, 8)).
fn binomial(n: usize, k: usize) -> u32 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u64, |c, i| c * (n - i) as u64 / (i + 1) as u64) as u32
}

impl Pool {
    /// Each outcome with its copies.
    fn counts(self) -> Vec<(Action, u32)> {
        match self {
            Pool::Kinds(c) => (0..KINDS).map(|k| (k as Action, c[k] as u32)).collect(),
            Pool::Ids(m) => iter_bits(m).map(|i| (i as Action, 1)).collect(),
            Pool::Rising { first, len, need } => (first..len)
                .map(|j| (j as Action, binomial(len - 1 - j, need.saturating_sub(1))))
                .collect(),
        }
    }

    /// The generator's draw: the `index(size)`-th card (kinds in order, ids in bit order).
    fn draw(self, rng: &mut Rng) -> usize {
        match self {
            Pool::Kinds(c) => kind_at(&c, rng.index(total(&c))),
            Pool::Ids(m) => nth_bit(m, rng.index(count(m))).unwrap_or(0),
            Pool::Rising { .. } => {
                let counts = self.counts();
                let mut r = rng.index(counts.iter().map(|&(_, c)| c as usize).sum());
                for (o, c) in counts {
                    if r < c as usize {
                        return o as usize;
                    }
                    r -= c as usize;
                }
                0
            }
        }
    }
}

impl Game for Regnum {
    type State = State;
    type ActionInfo = RegnumAction;
    type Config = RegnumOptions;

    const NAMES: GameNames = GameNames {
        name: "regnum",
        title: "Regnum",
        aliases: &[],
    };

    // ---- Options ----
    fn from_options(options: &Options) -> Result<Self> {
        let config: RegnumOptions = read(Self::NAMES.name, options)?;
        let cards = parse_card_set(config.card_set.as_deref(), config.players)?;
        let costs = cards
            .characters
            .iter()
            .map(|c| Demand::of(&c.slots, 0, None))
            .collect();
        Ok(Regnum {
            config,
            cards: Arc::new(cards),
            costs,
        })
    }

    fn config(&self) -> &RegnumOptions {
        &self.config
    }

    // ---- Cards and actions ----
    fn num_actions(&self) -> usize {
        NUM_ACTIONS
    }

    fn action_info(&self, s: &State, action: Action) -> RegnumAction {
        use RegnumAction::*;
        if let Some(info) = self.outcome_info(s, action as usize) {
            return info;
        }
        let kind = |base: Action| KIND_NAMES[(action - base) as usize];
        match action {
            DRAW_TWO => DrawTwo,
            TAKE_DISCARD => TakeDiscard,
            a if a < PAY => {
                let slot = (a - BUY) as usize;
                Buy {
                    slot,
                    character: s.lineup[slot].map(|c| self.char_name(c as usize)),
                }
            }
            a if a < DISCARD => {
                let x = (a - PAY) as usize;
                let (k, c) = (x / 4, x % 4);
                Pay {
                    card: KIND_NAMES[k],
                    colour: COLOURS[c],
                    wild: KIND_MASK[k] >> c & 1 == 0,
                    single: KIND_MASK[k] == 1 << c,
                }
            }
            a if a < END_TURN => Discard {
                card: kind(DISCARD),
            },
            END_TURN => EndTurn,
            a if a < SALVAGE => Steal {
                seat: (a - STEAL) as usize,
            },
            a if a < SWAP_TAKE => Salvage {
                card: kind(SALVAGE),
            },
            a if a < SWAP_GIVE => TakeFromDeck {
                card: kind(SWAP_TAKE),
            },
            a if a < TARGET => GiveToDeck {
                card: kind(SWAP_GIVE),
            },
            // The targets, the last ids (the caller has checked that `action` is in range).
            a => {
                let character = self.char_name((a - TARGET) as usize);
                match s.phase {
                    Phase::Exchange => ExchangeFor { character },
                    Phase::Remove => Remove { character },
                    _ => Target { character },
                }
            }
        }
    }

    // ---- Setup ----
    fn new_state(&self, rng: Rng) -> State {
        let n = self.config.players;
        let nchars = self.cards.characters.len();
        let mut s = State {
            rng,
            castles: [0; MAX_PLAYERS],
            standards: 0,
            lineup: [None; LINEUP],
            char_deck: if nchars >= 64 {
                u64::MAX
            } else {
                (1 << nchars) - 1
            },
            gone: 0,
            realms: [0; MAX_PLAYERS],
            hands: [[0; KINDS]; MAX_PLAYERS],
            deck: self.cards.resources,
            discard: Pile::default(),
            known: [[[0; KINDS]; MAX_PLAYERS]; MAX_PLAYERS],
            phase: Phase::Draw,
            active: 0,
            decider: 0,
            turn: 0,
            bought: 0,
            wild_used: false,
            character: None,
            pay_step: 0,
            pair_colour: None,
            final_turns: None,
            pending: Some(Pending::Setup { castles: 0 }),
        };
        if !self.explicit() {
            // Seeded: one shuffle of the castles (seat i gets the i-th) and one of the
            // standards (the first players + 1 are in play), as every seed always dealt.
            let mut castles: Vec<u8> = (0..self.cards.castles.len() as u8).collect();
            s.rng.shuffle(&mut castles);
            let mut standards: Vec<u16> = (0..self.cards.standards.len() as u16).collect();
            s.rng.shuffle(&mut standards);
            s.castles[..n].copy_from_slice(&castles[..n]);
            s.standards = standards[..n + 1].iter().fold(0, |m, &i| m | 1 << i);
            s.pending = Some(Pending::Setup { castles: n as u8 });
        }
        self.resume(&mut s);
        s
    }

    // ---- Legal moves ----
    fn current_player(&self, s: &State) -> Option<Seat> {
        (s.phase != Phase::Over && s.pending.is_none()).then_some(s.decider as usize)
    }

    fn is_chance_node(&self, s: &State) -> bool {
        self.waiting(s).is_some()
    }

    fn chance_outcomes(&self, s: &State) -> Vec<(Action, f64)> {
        match self.waiting(s) {
            Some(t) => draw_from_counts(self.pool(s, t).counts()),
            None => Vec::new(),
        }
    }

    fn explicit_chance(&self) -> bool {
        self.explicit()
    }

    /// At most `max_turns` turns, each of at most [`Regnum::turn_moves`] moves and, with
    /// explicit chance, [`Regnum::TURN_CHANCE`] chance nodes, after the setup's
    /// [`Regnum::setup_chance`] (see `bounds.rs` for why).
    fn max_history_len(&self) -> Option<usize> {
        let turns = self.config.max_turns as usize;
        let (setup, turn) = if self.explicit() {
            (self.setup_chance(), Self::TURN_CHANCE)
        } else {
            (0, 0)
        };
        Some(setup + turns * (self.turn_moves() + turn))
    }

    /// A seat's own turns, each of at most [`Regnum::own_turn_moves`] of her moves, and a
    /// TAX discard at most for each character bought in the others' turns.
    fn max_seat_actions(&self) -> Option<usize> {
        let turns = self.config.max_turns as usize;
        let own = turns.div_ceil(self.config.players);
        Some(own * self.own_turn_moves() + (turns - own) * LINEUP)
    }

    fn legal_actions(&self, s: &State) -> ActionSet {
        if let Some(t) = self.waiting(s) {
            return self.outcomes(s, t);
        }
        let me = s.decider as usize;
        let hand = s.hands[me];
        let mut out = ActionSet::new();
        // The actions `base + k` for each kind `k` of `cards` that has a card.
        let kinds = |cards: &[u8; KINDS], base: Action, out: &mut ActionSet| {
            out.insert_bits(base as usize, held(cards));
        };
        match s.phase {
            Phase::Draw => {
                out.insert(DRAW_TWO);
                if !s.discard.is_empty() {
                    out.insert(TAKE_DISCARD);
                }
            }
            Phase::Main => {
                let (supply, wild) = (Supply::of(&hand), self.wild(s));
                for (i, c) in s.lineup.iter().enumerate() {
                    let ok = c.is_some_and(|c| self.buyable(&supply, c, wild));
                    out.insert_bits(BUY as usize + i, u64::from(ok));
                }
                if s.bought == 0 {
                    kinds(&hand, DISCARD, &mut out);
                }
                if s.bought > 0 || total(&hand) == 0 {
                    out.insert(END_TURN);
                }
            }
            Phase::Pay => self.payments(s, &mut out),
            Phase::Tax | Phase::Draw2Discard => kinds(&hand, DISCARD, &mut out),
            Phase::Steal => {
                for o in self.steal_victims(s, me) {
                    out.insert(STEAL + o as Action);
                }
            }
            Phase::Salvage => {
                let pile = std::array::from_fn(|k| u8::from(s.discard.count(k as u8) > 0));
                kinds(&pile, SALVAGE, &mut out)
            }
            Phase::SwapTake => kinds(&s.deck, SWAP_TAKE, &mut out),
            Phase::SwapGive => kinds(&hand, SWAP_GIVE, &mut out),
            Phase::Exchange | Phase::Remove => {
                for c in iter_bits(self.targets(s, me)) {
                    out.insert(TARGET + c as Action);
                }
            }
            Phase::Over => {}
        }
        out
    }

    // ---- Apply ----
    fn apply(&self, s: &mut State, action: Action) {
        if let Some(t) = self.waiting(s) {
            self.take(s, t, action as usize);
            return self.resume(s);
        }
        let me = s.decider as usize;
        match action {
            DRAW_TWO => {
                s.phase = Phase::Main;
                self.draw(s, 2);
            }
            TAKE_DISCARD => {
                if let Some(k) = s.discard.pop() {
                    s.hands[me][k as usize] += 1;
                    self.public_gain(s, me, k as usize);
                }
                s.phase = Phase::Main;
                if self.advantage(s, me) == Some(Advantage::Riverford) {
                    self.draw(s, 1);
                }
            }
            a if a < PAY => self.buy(s, (a - BUY) as usize),
            a if a < DISCARD => {
                let x = (a - PAY) as usize;
                self.pay(s, x / 4, (x % 4) as u8);
            }
            a if a < END_TURN => self.discard(s, (a - DISCARD) as usize),
            END_TURN => self.end_turn(s),
            a if a < SALVAGE => {
                s.pending = Some(Pending::Steal {
                    victim: (a - STEAL) as u8,
                });
                self.resume(s);
            }
            a if a < SWAP_TAKE => {
                let k = (a - SALVAGE) as usize;
                s.discard.take(k as u8);
                s.hands[me][k] += 1;
                self.public_gain(s, me, k);
                self.back_to_main(s);
            }
            a if a < SWAP_GIVE => {
                let k = (a - SWAP_TAKE) as usize;
                s.deck[k] -= 1;
                s.hands[me][k] += 1;
                s.phase = Phase::SwapGive;
            }
            a if a < TARGET => {
                let k = (a - SWAP_GIVE) as usize;
                s.hands[me][k] -= 1;
                s.deck[k] += 1;
                self.hidden_loss(s, me, None);
                self.back_to_main(s);
            }
            a => self.target(s, (a - TARGET) as usize),
        }
    }

    // ---- Scoring ----
    fn returns(&self, s: &State) -> Vec<f64> {
        if s.phase != Phase::Over {
            return vec![0.0; self.config.players];
        }
        winner_returns(&best_of(&self.final_keys(s)))
    }

    fn scores(&self, s: &State) -> Vec<i64> {
        self.points(s)
    }

    /// `"final_round"` (a deck ran out and the final round was played) or `"turn_guard"`
    /// (`max_turns` turns in all); most points wins, then `"inhabitants"` (most characters
    /// in the realm), then a shared win.
    fn outcome(&self, s: &State) -> Option<Outcome> {
        if s.phase != Phase::Over {
            return None;
        }
        let reason = if s.final_turns == Some(0) {
            "final_round"
        } else {
            "turn_guard"
        };
        let won = best_of(&self.final_keys(s));
        let scores = self.points(s);
        let level = best_of(&scores);
        let tie_break = (won != level).then_some("inhabitants");
        Some(Outcome::new(reason, scores, &won, tie_break))
    }

    // ---- Observation ----
    fn observation_shape(&self) -> Vec<usize> {
        vec![TENSOR_SIZE]
    }

    fn observation(&self, s: &State, seat: Seat) -> Value {
        let n = self.config.players;
        let cards = &self.cards;
        let ch = s.character.and_then(|c| cards.characters.get(c as usize));
        let names =
            |mask: u64| -> Vec<String> { iter_bits(mask).map(|c| self.char_name(c)).collect() };
        let dealt = Self::castles_dealt(s, n);
        let castle = |p: usize| {
            (p < dealt).then(|| {
                cards
                    .castles
                    .get(s.castles[p] as usize)
                    .map_or("?", |c| c.name.as_str())
            })
        };
        json!({
            "seat": seat,
            "current_player": self.current_player(s),
            "active": s.active,
            "turn": s.turn,
            "phase": s.phase,
            "character": ch.map(|c| c.name.as_str()),
            "cost": ch.map(|c| c.slots.iter().map(|&x| SLOT_NAMES[x as usize % 7]).collect::<Vec<_>>()),
            "pay_step": (s.phase == Phase::Pay).then_some(s.pay_step),
            "pair_colour": s.pair_colour.map(|c| COLOURS[c as usize % 4].to_string()),
            "bought": s.bought,
            "wild_used": s.wild_used,
            "hand": Self::cards_list(&s.hands[seat]),
            "castles": (0..n).map(castle).collect::<Vec<_>>(),
            "realms": (0..n).map(|p| names(s.realms[p])).collect::<Vec<_>>(),
            "hand_sizes": (0..n).map(|p| total(&s.hands[p])).collect::<Vec<_>>(),
            "known": (0..n).map(|p| if p == seat { Vec::new() } else { Self::cards_list(&s.known[seat][p]) }).collect::<Vec<_>>(),
            "lineup": s.lineup.iter().map(|c| c.map(|c| self.char_name(c as usize))).collect::<Vec<_>>(),
            "discard": s.discard.as_slice().iter().map(|&k| KIND_NAMES[k as usize % KINDS]).collect::<Vec<_>>(),
            "resource_deck": total(&s.deck),
            "character_deck": count(s.char_deck),
            "gone": names(s.gone),
            "deck_cards": Self::sees_deck(s, seat).then(|| Self::cards_list(&s.deck)),
            "standards": iter_bits(s.standards as u64).map(|i| cards.standards.get(i).map_or("?", |st| st.name.as_str())).collect::<Vec<_>>(),
            "final_turns": s.final_turns,
            "scores": self.points(s),
            "terminal": s.phase == Phase::Over,
        })
    }

    fn write_observation<O: TensorOut + ?Sized>(&self, s: &State, seat: Seat, out: &mut O) {
        let n = self.config.players;
        let dealt = Self::castles_dealt(s, n);
        let mut w = TensorWriter::new(out);
        for k in 0..KINDS {
            w.scalar(s.hands[seat][k] as f32);
        }
        for r in 0..MAX_PLAYERS {
            let p = (seat + r) % n;
            let present = r < n;
            w.flag(present);
            w.one_hot(
                MAX_CASTLES,
                (present && p < dealt).then_some(s.castles[p] as usize),
            );
            w.mask(if present { s.realms[p] } else { 0 }, MAX_CHARACTERS);
            w.scalar(if present {
                total(&s.hands[p]) as f32
            } else {
                0.0
            });
            for k in 0..KINDS {
                w.scalar(if present && r > 0 {
                    s.known[seat][p][k] as f32
                } else {
                    0.0
                });
            }
        }
        for c in s.lineup {
            w.one_hot(MAX_CHARACTERS, c.map(|c| c as usize));
        }
        for k in 0..KINDS {
            w.scalar(s.discard.count(k as u8) as f32);
        }
        w.one_hot(KINDS, s.discard.top().map(|k| k as usize));
        w.scalar(total(&s.deck) as f32);
        w.scalar(count(s.char_deck) as f32);
        w.mask(s.standards as u64, MAX_STANDARDS);
        w.one_hot(Phase::COUNT, Some(s.phase as usize));
        w.one_hot(
            MAX_PLAYERS,
            (s.phase != Phase::Over).then_some((s.decider as usize + n - seat) % n),
        );
        w.one_hot(MAX_CHARACTERS, s.character.map(|c| c as usize));
        w.one_hot(
            MAX_SLOTS,
            (s.phase == Phase::Pay).then_some(s.pay_step as usize),
        );
        w.one_hot(4, s.pair_colour.map(|c| c as usize));
        w.flag(s.wild_used);
        w.scalar(s.bought as f32);
        w.flag(s.final_turns.is_some());
        w.scalar(s.final_turns.unwrap_or(0) as f32);
        w.flag(self.current_player(s) == Some(seat));
        let seen = if Self::sees_deck(s, seat) {
            s.deck
        } else {
            [0; KINDS]
        };
        for k in seen {
            w.scalar(k as f32);
        }
    }

    fn determinize(&self, s: &State, seat: Seat, rng: &mut Rng) -> State {
        let mut found = None;
        for _ in 0..DETERMINIZE_TRIES {
            let d = self.resample(s, seat, rng);
            if d.phase != Phase::Pay || d.active as usize == seat || self.payment_open(&d) {
                found = Some(d);
                break;
            }
        }
        let mut d = found.unwrap_or(*s);
        d.rng = rng.fork();
        d
    }

    // ---- Checks ----
    fn check_state(&self, s: &State) -> std::result::Result<(), String> {
        let n = self.config.players;
        if !s.rng.is_valid() {
            return Err("generator increment must be odd".into());
        }
        self.check_pending(s)?;
        let dealt = Self::castles_dealt(s, n);
        let seats = &s.castles[..dealt];
        let distinct = (0..dealt).all(|i| !seats[..i].contains(&seats[i]));
        if seats
            .iter()
            .any(|&c| c as usize >= self.cards.castles.len())
            || !distinct
            || s.castles[dealt..].iter().any(|&c| c != 0)
        {
            return Err("each seat must hold a different castle of the card set".into());
        }
        let setup = matches!(s.pending, Some(Pending::Setup { .. }));
        let standards = count(s.standards as u64);
        if (s.standards as u64) >> self.cards.standards.len() != 0
            || standards > n + 1
            || (standards < n + 1 && !setup)
        {
            return Err("players + 1 standards of the card set must be in play".into());
        }
        self.check_places(s)?;
        self.check_cards(s)?;
        if s.active as usize >= n || s.decider as usize >= n {
            return Err("the active player and the decider must be seats".into());
        }
        if s.turn > self.config.max_turns
            || s.final_turns
                .is_some_and(|f| f as usize > self.most_final_turns())
        {
            return Err("the turn count or the final turns are out of range".into());
        }
        let running = s.phase != Phase::Over;
        if self.config.final_round == FinalRound::EqualTurns
            && running
            && s.final_turns
                .is_some_and(|f| (s.active as usize + f as usize) % n != 0)
        {
            return Err("the final turns must end with a full round".into());
        }
        if (s.phase == Phase::Over) != (s.turn == self.config.max_turns || s.final_turns == Some(0))
        {
            return Err("the end of the game does not agree with the turns played".into());
        }
        self.check_phase(s)
    }

    // ---- Search policy ----
    /// Rollouts play a cheap sound turn: draw, buy the character worth most per card, else
    /// discard the card the line-up needs least (see `rollout.rs`).
    fn rollout_action(&self, s: &State, legal: &ActionSet, rng: &mut Rng) -> Action {
        self.rollout_move(s, legal, rng)
    }
}

// ---- Tests ----
#[cfg(test)]
mod tests;
