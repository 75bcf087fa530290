//! The best card against an opponent who draws her card uniformly from her hand, planned
//! exactly to the end of the current hand.
//!
//! Both hands are public (see [`encoding`](super::encoding)), so against such an opponent the
//! rest of the hand is a one-player game with chance: a state is worth the best of my cards,
//! each worth the mean over her cards of the state after the round,
//! `V = max over my cards of the mean over hers of V(next)`, over both hands, the dragon's
//! place and the level (captures, dragon, pile; a capture draws the next dragon from the
//! pile). Where the hands are taken back, a state is worth what a race model says: I capture
//! the current dragon with a chance that depends only on its place, and every later one (it
//! starts in the centre) with the centre's chance; the game then ends as the captures add
//! up. Those three chances are the best response's own chance to capture a dragon from full
//! hands before the opponent does: the fixed point of the same recursion with a capture worth
//! 1 to its taker and 0 to the other, computed once ([`capture_chances`]). The stalemate
//! guard counts where it falls inside the hand. Values are my expected return.

use super::encoding::{
    capture_to, copies, guard_return, hand_size, kind_of, kinds, outcome, without, Capture,
    HandPairs, Level, Outcome, PublicState, CENTRE, FULL, KINDS, THEIRS,
};
use super::horizon::{Horizon, Then};
use super::uniform_tables::Tables;
use super::{Solver, Step};
use crate::error::{Error, Result};
use crate::games::duo_regna::{DuoRegna, CARDS};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// The race to one dragon is solved to this precision.
const RACE_TOLERANCE: f64 = 1e-12;
/// Iterations of the race's fixed point before the last one is taken.
const RACE_ITERATIONS: usize = 1000;

/// Not yet looked up (a next level's slot).
const UNKNOWN: usize = usize::MAX;

/// One level met by the search, with the values of its states already found.
struct Slot {
    level: Level,
    /// After a capture by me, by them; and the slots of the next levels, once looked up.
    captures: [Then; 2],
    next: [[usize; 2]; 2],
    end: [f64; 3],
    /// By side then pair of hands smaller than the largest root's (NaN: not yet found).
    values: Vec<f64>,
}

/// The values found so far, by level, for roots of up to `size` cards.
struct Memo {
    slots: Vec<Slot>,
    index: HashMap<Level, usize>,
    size: usize,
}

impl Memo {
    fn new(size: usize) -> Self {
        Memo {
            slots: Vec::new(),
            index: HashMap::new(),
            size,
        }
    }
}

/// The rest of a hand searched from one root state.
struct HandSearch<'a, H: Horizon> {
    horizon: &'a mut H,
    pairs: &'a HandPairs,
    memo: &'a mut Memo,
    outcomes: [[Outcome; KINDS]; KINDS],
    /// The round after the hand's end.
    end_round: u32,
}

impl<'a, H: Horizon> HandSearch<'a, H> {
    /// A search of a hand whose last round is `end_round - 1`.
    fn new(horizon: &'a mut H, pairs: &'a HandPairs, memo: &'a mut Memo, end_round: u32) -> Self {
        HandSearch {
            horizon,
            pairs,
            memo,
            outcomes: std::array::from_fn(|a| std::array::from_fn(|b| outcome(a, b))),
            end_round,
        }
    }

    /// The slot of level `l`, made on first use.
    fn slot(&mut self, l: Level) -> usize {
        if let Some(&i) = self.memo.index.get(&l) {
            return i;
        }
        let captures = [
            Then::of(self.horizon.capture(l, true)),
            Then::of(self.horizon.capture(l, false)),
        ];
        let end = self.horizon.hand_end(l);
        let slots = &mut self.memo.slots;
        slots.push(Slot {
            level: l,
            captures,
            next: [[UNKNOWN; 2]; 2],
            end,
            values: vec![f64::NAN; 3 * self.pairs.start(self.memo.size)],
        });
        self.memo.index.insert(l, slots.len() - 1);
        slots.len() - 1
    }

    /// The slot of the `i`-th next level after a capture (`who`: 0 by me, 1 by them) at `at`.
    fn next_slot(&mut self, at: usize, who: usize, i: usize) -> usize {
        let known = self.memo.slots[at].next[who][i];
        if known != UNKNOWN {
            return known;
        }
        let Then::Next(next, _) = self.memo.slots[at].captures[who] else {
            unreachable!("a capture that ends the game has no next level")
        };
        let found = self.slot(next[i].1);
        self.memo.slots[at].next[who][i] = found;
        found
    }

    /// The value of each of my kinds (`f64::NEG_INFINITY` for kinds not held) in the state of
    /// level slot `at`, dragon at `side`, hands `mine` and `theirs` (of equal size).
    fn kind_values(&mut self, at: usize, side: usize, mine: u16, theirs: u16) -> [f64; KINDS] {
        let j = hand_size(mine);
        let next_round = self.end_round + 1 - j as u32;
        let (rows, cols) = (kinds(mine), kinds(theirs));
        let captures = self.memo.slots[at].captures;
        let mut values = [f64::NEG_INFINITY; KINDS];
        for &a in &rows.0[..rows.1] {
            let m = without(mine, a);
            let mut total = 0.0;
            for &b in &cols.0[..cols.1] {
                let t = without(theirs, b);
                let after = match Solver::step(side, self.outcomes[a][b]) {
                    Step::Stay(s) => self.continue_at(at, s, m, t, next_round),
                    Step::Capture(by_me) => {
                        let who = usize::from(!by_me);
                        match captures[who] {
                            Then::End(v) => v,
                            Then::Next(next, n) => (0..n)
                                .map(|i| {
                                    let to = self.next_slot(at, who, i);
                                    next[i].0 * self.continue_at(to, CENTRE, m, t, next_round)
                                })
                                .sum(),
                        }
                    }
                };
                total += copies(theirs, b) as f64 / j as f64 * after;
            }
            values[a] = total;
        }
        values
    }

    /// The value at the start of round `round` in level slot `at`, dragon at `side`, with
    /// the hands left.
    fn continue_at(&mut self, at: usize, side: usize, mine: u16, theirs: u16, round: u32) -> f64 {
        let slot = &self.memo.slots[at];
        if let Some(v) = self.horizon.guard(slot.level, side, round) {
            return v;
        }
        if mine == 0 {
            return slot.end[side];
        }
        let i = side * self.pairs.start(self.memo.size) + self.pairs.index(mine, theirs);
        let known = slot.values[i];
        if !known.is_nan() {
            return known;
        }
        let best = self
            .kind_values(at, side, mine, theirs)
            .into_iter()
            .fold(f64::NEG_INFINITY, f64::max);
        self.memo.slots[at].values[i] = best;
        best
    }
}

/// The race to one dragon: a capture is worth 1 to me and 0 to them, and the hands' return
/// is worth `chances` by the dragon's place.
struct Race {
    chances: [f64; 3],
}

impl Horizon for Race {
    fn capture(&self, _: Level, by_me: bool) -> Capture<Level> {
        Capture::End(f64::from(u8::from(by_me)))
    }
    fn hand_end(&mut self, _: Level) -> [f64; 3] {
        self.chances
    }
    fn guard(&self, _: Level, _: usize, _: u32) -> Option<f64> {
        None
    }
}

impl Race {
    /// The race's fixed point from the chances 1, 1/2 and 0, `hand` giving the value of full
    /// hands by the dragon's place where the hands' return is the race's own chances.
    fn fixed_point(mut hand: impl FnMut(&mut Race) -> [f64; 3]) -> [f64; 3] {
        let mut race = Race {
            chances: [1.0, 0.5, 0.0],
        };
        for _ in 0..RACE_ITERATIONS {
            let next = hand(&mut race);
            let moved = (0..3).map(|s| (next[s] - race.chances[s]).abs());
            let done = moved.fold(0.0, f64::max) <= RACE_TOLERANCE;
            race.chances = next;
            if done {
                break;
            }
        }
        race.chances
    }
}

/// The best response's chance to capture a dragon that lies on my side, in the centre, or
/// on theirs, from full hands, before the uniform opponent does (the race's fixed point).
pub fn capture_chances() -> [f64; 3] {
    static CHANCES: OnceLock<[f64; 3]> = OnceLock::new();
    *CHANCES.get_or_init(|| {
        let pairs = HandPairs::new();
        Race::fixed_point(|race| {
            // One level (the race ends at a capture), filled afresh for these chances.
            let mut tables = Tables::new(&pairs);
            std::array::from_fn(|side| {
                let v = tables.kind_values(race, Level::default(), side, FULL, FULL);
                v.into_iter().fold(f64::NEG_INFINITY, f64::max)
            })
        })
    })
}

/// The game beyond the hand: the real captures and guard, the race model where the hands
/// are taken back.
struct Game {
    game: DuoRegna,
    chances: [f64; 3],
    race: HashMap<Level, [f64; 3]>,
}

impl Game {
    fn new(game: &DuoRegna) -> Self {
        Game {
            game: game.clone(),
            chances: capture_chances(),
            race: HashMap::new(),
        }
    }

    /// The race model's expected return at `l` by the current dragon's place.
    fn race_value(&mut self, l: Level) -> [f64; 3] {
        if let Some(&v) = self.race.get(&l) {
            return v;
        }
        let mut after = [0.0; 2];
        for (by_me, value) in [true, false].into_iter().zip(after.iter_mut()) {
            *value = match capture_to(&self.game, l, by_me) {
                Capture::End(v) => v,
                Capture::Next(next) => next
                    .into_iter()
                    .map(|(p, to)| p * self.race_value(to)[CENTRE])
                    .sum(),
            };
        }
        let v = self.chances.map(|c| c * after[0] + (1.0 - c) * after[1]);
        self.race.insert(l, v);
        v
    }
}

impl Horizon for Game {
    fn capture(&self, l: Level, by_me: bool) -> Capture<Level> {
        capture_to(&self.game, l, by_me)
    }
    fn hand_end(&mut self, l: Level) -> [f64; 3] {
        self.race_value(l)
    }
    fn guard(&self, l: Level, side: usize, round: u32) -> Option<f64> {
        (round >= self.game.config.max_rounds).then(|| guard_return(l, side))
    }
}

/// Plans against a uniformly mixing opponent in one Duo Regna game (see the module comment).
/// The values found are kept for later calls in tables filled bottom-up (at most one value
/// per level, dragon place and pair of hands: 45 MB if a game visits all 72 levels of the
/// default game), except near the stalemate guard, where they depend on the round and a
/// search finds them afresh.
pub struct UniformPlanner {
    game: DuoRegna,
    pairs: HandPairs,
    kept: Mutex<(Game, Tables)>,
}

impl UniformPlanner {
    /// A planner for `game`.
    pub fn new(game: &DuoRegna) -> Self {
        let pairs = HandPairs::new();
        let tables = Tables::new(&pairs);
        UniformPlanner {
            game: game.clone(),
            pairs,
            kept: Mutex::new((Game::new(game), tables)),
        }
    }

    /// The game planned for.
    pub fn game(&self) -> &DuoRegna {
        &self.game
    }

    /// My expected return with each card of my hand (by action id; `NaN` for cards I do not
    /// hold) in the public state `p` of this planner's game, the rest of the hand played best
    /// against an opponent who draws each of her cards uniformly.
    pub fn card_values(&self, p: &PublicState) -> Result<[f64; CARDS]> {
        let size = hand_size(p.mine);
        if size == 0 || hand_size(p.theirs) != size || p.side > THEIRS {
            return Err(Error::InvalidState(
                "the planner needs two hands of equal, non-zero size and a dragon's place".into(),
            ));
        }
        let end_round = p.round.saturating_add(size as u32);
        let by_kind = if end_round < self.game.config.max_rounds {
            let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
            let (horizon, tables) = &mut *kept;
            tables.kind_values(horizon, p.level, p.side, p.mine, p.theirs)
        } else {
            let mut horizon = Game::new(&self.game);
            let mut memo = Memo::new(size);
            Self::search(&mut horizon, &self.pairs, &mut memo, end_round, p)
        };
        let mut out = [f64::NAN; CARDS];
        for (card, value) in out.iter_mut().enumerate() {
            if p.my_cards & (1 << card) != 0 {
                *value = by_kind[kind_of(card)];
            }
        }
        Ok(out)
    }

    /// The kind values at `p` by a search of the rest of the hand whose last round is
    /// `end_round - 1`, top-down, with the values `memo` holds and keeping those it finds.
    fn search(
        horizon: &mut Game,
        pairs: &HandPairs,
        memo: &mut Memo,
        end_round: u32,
        p: &PublicState,
    ) -> [f64; KINDS] {
        let mut search = HandSearch::new(horizon, pairs, memo, end_round);
        let at = search.slot(p.level);
        search.kind_values(at, p.side, p.mine, p.theirs)
    }
}

#[cfg(test)]
mod tests {
    use super::super::encoding::{public_state, public_state_of_view, MINE};
    use super::super::mean_over_reveals;
    use super::super::tests::played;
    use super::*;
    use crate::game::Game as _;
    use crate::games::duo_regna::State;
    use crate::rng::Rng;

    fn game(options: serde_json::Value) -> DuoRegna {
        DuoRegna::from_options(options.as_object().expect("an object")).expect("valid options")
    }

    /// Seat `me`'s expected return with each of its cards at `s` (seat 0 to move) by brute
    /// force over the engine's rules: the other seat draws uniformly from her hand, `me`
    /// plays best afterwards, and a new dragon is any card left in the pile.
    fn by_brute_force(g: &DuoRegna, s: &State, me: usize) -> [f64; CARDS] {
        let mut out = [f64::NAN; CARDS];
        let (mine, theirs) = (s.hands[me], s.hands[1 - me]);
        let n = theirs.count_ones() as f64;
        for a in (0..CARDS).filter(|&a| mine & (1 << a) != 0) {
            let mut total = 0.0;
            for b in (0..CARDS).filter(|&b| theirs & (1 << b) != 0) {
                let mut t = *s;
                let (first, second) = if me == 0 { (a, b) } else { (b, a) };
                g.apply(&mut t, first as u16);
                g.apply(&mut t, second as u16);
                total += if t.next_dragon > s.next_dragon && !t.over {
                    mean_over_reveals(&t, s.next_dragon as usize, |t| best(g, t, me))
                } else {
                    best(g, &t, me)
                };
            }
            out[a] = total / n;
        }
        out
    }

    fn best(g: &DuoRegna, s: &State, me: usize) -> f64 {
        if s.over {
            return g.returns(s)[me];
        }
        by_brute_force(g, s, me)
            .into_iter()
            .filter(|v| !v.is_nan())
            .fold(f64::NEG_INFINITY, f64::max)
    }

    #[test]
    fn it_agrees_with_brute_force_when_the_guard_falls_in_the_hand() {
        // From the fourteenth round: five cards each, the guard after four more rounds;
        // captures and new dragons of either value happen on the way.
        let g =
            game(serde_json::json!({"dragon_deck": [2, 2], "dragons_to_win": 3, "max_rounds": 17}));
        let planner = UniformPlanner::new(&g);
        let (mut captured, mut tested) = (0, 0);
        for seed in 0..24 {
            let s = played(&g, seed, 13);
            if s.over {
                continue;
            }
            tested += 1;
            captured += usize::from(s.captured != [0, 0]);
            for me in 0..2 {
                let expected = by_brute_force(&g, &s, me);
                // Seat 1 moves once seat 0 has committed: any card, it is hidden from seat 1.
                let mut t = s;
                if me == 1 {
                    g.apply(&mut t, g.legal_actions(&s).iter().last().expect("a card"));
                }
                let p = public_state(&t).expect("running");
                assert_eq!(p.seat, me);
                assert_eq!(public_state_of_view(&g, &g.observation(&t, me)), Ok(p));
                let got = planner.card_values(&p).expect("a state of the game");
                for c in 0..CARDS {
                    assert_eq!(
                        got[c].is_nan(),
                        expected[c].is_nan(),
                        "seed {seed}, card {c}"
                    );
                    if !got[c].is_nan() {
                        assert!(
                            (got[c] - expected[c]).abs() < 1e-12,
                            "seed {seed}, seat {me}, card {c}: {} vs {}",
                            got[c],
                            expected[c]
                        );
                    }
                }
            }
        }
        assert!(
            tested >= 8 && captured > 0,
            "{tested} positions, {captured} with captures"
        );
    }

    #[test]
    fn values_kept_between_calls_do_not_depend_on_the_order_of_the_calls() {
        // One planner sees a game's states forward, the other backward: what each kept from
        // earlier calls gives the same values as what the other found afresh.
        let g =
            game(serde_json::json!({"dragon_deck": [4, 3], "dragons_to_win": 4, "max_rounds": 24}));
        let mut states = Vec::new();
        let mut s = g.new_state(Rng::new(5));
        let mut rng = Rng::new(6);
        while let Some(p) = public_state(&s) {
            states.push(p);
            let legal = g.legal_actions(&s);
            g.apply(
                &mut s,
                legal.iter().nth(rng.index(legal.len())).expect("a card"),
            );
        }
        assert!(states.len() > 20 && states.iter().any(|p| p.round + 9 >= 24));
        let (forward, backward) = (UniformPlanner::new(&g), UniformPlanner::new(&g));
        let there: Vec<_> = states.iter().map(|p| forward.card_values(p)).collect();
        for (p, expected) in states.iter().zip(there).rev() {
            let got = backward.card_values(p).expect("a state of the game");
            let expected = expected.expect("a state of the game");
            assert!(
                (0..CARDS).all(|c| got[c].to_bits() == expected[c].to_bits()),
                "{p:?}"
            );
        }
    }

    #[test]
    fn the_tables_give_the_top_down_searchs_values_to_the_bit() {
        // Every decision of random games, seat to move: the planner gives what the planner
        // before the tables gave, bit for bit (the same sums in the same order), including
        // after captures and where a capture ends the game, whether it meets the decisions
        // in the games' order or backward (its first calls mid-hand, on any side, its
        // tables filled from small hands up). That planner kept one top-down search's
        // values across calls, and searched afresh near the guard, as this one still does
        // (the tables ignore the guard: this checks they are not used there).
        for options in [
            serde_json::json!({}),
            serde_json::json!({"dragon_deck": [3, 2], "dragons_to_win": 3}),
            serde_json::json!({"dragon_deck": [4, 3], "dragons_to_win": 4, "max_rounds": 40}),
        ] {
            let g = game(options);
            let pairs = HandPairs::new();
            let mut before = (Game::new(&g), Memo::new(CARDS));
            let mut decisions = Vec::new();
            for seed in 0..16 {
                let mut s = g.new_state(Rng::new(seed));
                let mut rng = Rng::new(seed + 50);
                while let Some(p) = public_state(&s) {
                    let end_round = p.round + hand_size(p.mine) as u32;
                    let expected = if end_round < g.config.max_rounds {
                        let (horizon, memo) = &mut before;
                        UniformPlanner::search(horizon, &pairs, memo, end_round, &p)
                    } else {
                        let mut memo = Memo::new(hand_size(p.mine));
                        let horizon = &mut Game::new(&g);
                        UniformPlanner::search(horizon, &pairs, &mut memo, end_round, &p)
                    };
                    decisions.push((p, expected));
                    let legal = g.legal_actions(&s);
                    g.apply(
                        &mut s,
                        legal.iter().nth(rng.index(legal.len())).expect("a card"),
                    );
                }
            }
            let (forward, backward) = (UniformPlanner::new(&g), UniformPlanner::new(&g));
            let in_order = decisions.iter().map(|d| (&forward, d));
            for (planner, (p, expected)) in
                in_order.chain(decisions.iter().rev().map(|d| (&backward, d)))
            {
                let got = planner.card_values(p).expect("a state of the game");
                for c in 0..CARDS {
                    let want = if p.my_cards & (1 << c) != 0 {
                        expected[kind_of(c)]
                    } else {
                        f64::NAN
                    };
                    assert_eq!(got[c].to_bits(), want.to_bits(), "{p:?}, card {c}");
                }
            }
            let count =
                |f: &dyn Fn(&PublicState) -> bool| decisions.iter().filter(|d| f(&d.0)).count();
            let captured = count(&|p| p.level.mine + p.level.theirs > 0);
            let near_guard = count(&|p| p.round + hand_size(p.mine) as u32 >= g.config.max_rounds);
            assert!(
                decisions.len() > 300 && captured > 50,
                "{} states, {captured} after captures",
                decisions.len()
            );
            assert_eq!(
                near_guard > 0,
                g.config.max_rounds == 40,
                "{near_guard} near the guard"
            );
        }
    }

    #[test]
    fn the_race_by_tables_is_the_race_by_search_to_the_bit() {
        // The fixed point as it was found before the tables: each iteration a search of the
        // hand from full hands, top-down.
        let pairs = HandPairs::new();
        let by_search = Race::fixed_point(|race| {
            let mut memo = Memo::new(CARDS);
            let mut search = HandSearch::new(race, &pairs, &mut memo, CARDS as u32);
            let at = search.slot(Level::default());
            std::array::from_fn(|side| {
                let v = search.kind_values(at, side, FULL, FULL);
                v.into_iter().fold(f64::NEG_INFINITY, f64::max)
            })
        });
        assert_eq!(
            capture_chances().map(f64::to_bits),
            by_search.map(f64::to_bits)
        );
    }

    #[test]
    fn the_capture_race_favours_the_side_the_dragon_lies_on() {
        let c = capture_chances();
        assert!(
            c[MINE] > c[CENTRE] && c[CENTRE] > 0.5 && c[CENTRE] > c[THEIRS],
            "{c:?}"
        );
        assert!(c[THEIRS] > 0.0 && c[MINE] < 1.0);
    }

    #[test]
    fn the_public_state_of_a_view_is_the_states() {
        let g = DuoRegna::from_options(&Default::default()).expect("default");
        for seed in 0..20 {
            let mut s = g.new_state(Rng::new(seed));
            let mut rng = Rng::new(seed + 100);
            while let Some(seat) = g.current_player(&s) {
                let view = public_state_of_view(&g, &g.observation(&s, seat));
                assert_eq!(view, Ok(public_state(&s).expect("running")));
                assert!(public_state_of_view(&g, &g.observation(&s, 1 - seat)).is_err());
                let legal = g.legal_actions(&s);
                g.apply(
                    &mut s,
                    legal.iter().nth(rng.index(legal.len())).expect("a card"),
                );
            }
            assert!(public_state_of_view(&g, &g.observation(&s, 0)).is_err());
        }
    }
}
