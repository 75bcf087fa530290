//! The whole game tree of a game with explicit chance, for the exact methods (best response,
//! exploitability, CFR+): every history once, chance nodes with their probabilities, and the
//! decision nodes grouped into information sets by their compact key ([`super::key`]).
//!
//! Nodes are stored in pre-order (a parent before its children), each with its children's
//! edges in one contiguous block. A game whose tree is larger than the caller's limit is
//! refused before it is built ([`TooLarge`]): its size is first estimated from random paths
//! (Knuth's estimator) and, when that is not far beyond the limit, counted by a walk that
//! stops at the limit.

use super::key::{KeyBuild, Scratch, SeededTracker, Tracker, MAX_SEATS};
use crate::actions::Action;
use crate::error::Error;
use crate::game::{Game, Seat};
use crate::rng::Rng;
use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

/// The most histories a tree may hold: every index (of a node, an edge, a terminal's returns)
/// fits a `u32`.
pub const MAX_HISTORIES: u64 = u32::MAX as u64 / MAX_SEATS as u64;
/// Random paths behind a size estimate.
const PROBES: u32 = 256;
/// How far beyond the limit an estimate may be before the tree is refused without a count.
const ESTIMATE_SLACK: f64 = 4.0;

/// What a node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The game is over; its returns start at this index of [`Tree::returns`].
    Terminal(u32),
    /// A chance node: its edges carry the outcomes' probabilities.
    Chance,
    /// A decision of the information set with this index.
    Decision(u32),
}

/// One history.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// What it is.
    pub kind: Kind,
    /// Its parent (the root is its own parent).
    pub parent: u32,
    /// Where its edges start in [`Tree::edges`].
    pub first: u32,
    /// How many edges it has.
    pub len: u16,
}

/// A move from a node to a child.
#[derive(Clone, Copy, Debug)]
pub struct Edge {
    /// The action or chance outcome.
    pub action: Action,
    /// The outcome's probability at a chance node (0 at a decision).
    pub probability: f64,
    /// The child's index.
    pub child: u32,
}

/// An information set: the decision nodes whose mover has the same key.
#[derive(Clone, Copy, Debug)]
pub struct InfoSet {
    /// The compact key.
    pub key: u64,
    /// The seat that decides.
    pub seat: Seat,
    /// Where its actions start in [`Tree::actions`] (and a policy's probabilities).
    pub first: u32,
    /// How many actions it has.
    pub len: u16,
}

/// A game tree too large for the limit it was built with.
#[derive(Clone, Debug, PartialEq)]
pub struct TooLarge {
    /// The limit on histories.
    pub limit: u64,
    /// Estimated histories (at least `limit + 1` when counted that far).
    pub estimate: f64,
}

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.estimate.is_finite() {
            write!(
                f,
                "the game tree has about {:.3e} histories (estimated from {PROBES} random paths), more than the limit of {}: exact methods need a smaller variant (see docs/game-theory.md) or a larger limit",
                self.estimate, self.limit
            )
        } else {
            // The estimate's products of branching factors overflowed a float.
            write!(
                f,
                "the game tree has more than {:.3e} histories (too many to estimate from {PROBES} random paths), more than the limit of {}: exact methods need a smaller variant (see docs/game-theory.md)",
                f64::MAX, self.limit
            )
        }
    }
}

/// Why a tree could not be built.
#[derive(Clone, Debug, PartialEq)]
pub enum BuildError {
    /// The game is not one exact methods apply to.
    Game(Error),
    /// The tree is larger than the limit.
    TooLarge(TooLarge),
}

impl From<Error> for BuildError {
    fn from(e: Error) -> Self {
        BuildError::Game(e)
    }
}

/// The whole tree of one game.
#[derive(Clone, Debug, Default)]
pub struct Tree {
    /// Number of seats.
    pub num_players: usize,
    /// Every history, in pre-order; the root is node 0.
    pub nodes: Vec<Node>,
    /// Every node's edges, each node's in one block.
    pub edges: Vec<Edge>,
    /// Every information set, in the order first met.
    pub sets: Vec<InfoSet>,
    /// Each information set's key as the game's seeded mode has it ([`SeededTracker`]): what
    /// a policy trained on the seeded game is keyed by.
    pub seeded_keys: Vec<u64>,
    /// Every information set's legal actions, ascending, each set's in one block.
    pub actions: Vec<Action>,
    /// The decision nodes of each information set: `members[member_start[i]..member_start[i + 1]]`.
    pub members: Vec<u32>,
    /// Where each information set's members start (one more entry than sets).
    pub member_start: Vec<u32>,
    /// The returns of the terminal nodes, `num_players` each.
    pub returns: Vec<f64>,
    index: HashMap<u64, u32, KeyBuild>,
    /// A key met with another seat or other legal actions (a key collision), if any.
    collision: Option<u64>,
    /// Whether the walk was stopped before it ended.
    stopped: bool,
}

/// The counts of a tree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Every history (decisions, chance nodes and ends).
    pub histories: u64,
    /// Decision nodes.
    pub decisions: u64,
    /// Chance nodes.
    pub chance: u64,
    /// Ends of the game.
    pub terminals: u64,
    /// Information sets.
    pub infosets: u64,
}

/// Nodes between two looks at the stop flag while the tree is walked.
const CHECK_EVERY: u32 = 4096;

/// The mover passed to [`Tracker::apply`] at a chance node: no seat, so nobody "played" it.
const NOBODY: Seat = Seat::MAX;

impl Tree {
    /// Enumerates the whole tree of `game` (which must have explicit chance), refusing it
    /// before any work when it has more than `limit` histories.
    pub fn build<G: Game>(game: &G, limit: u64) -> Result<Tree, BuildError> {
        Tree::build_until(game, limit, &AtomicBool::new(false))
    }

    /// [`Tree::build`], given up (with an error) once `stop` is set. The limit is capped at
    /// [`MAX_HISTORIES`] (the tree's indices are `u32`).
    pub fn build_until<G: Game>(
        game: &G,
        limit: u64,
        stop: &AtomicBool,
    ) -> Result<Tree, BuildError> {
        if !game.explicit_chance() {
            return Err(Error::InvalidArgument(format!(
                "exact methods need the whole tree with its chance events: make {} with chance=\"explicit\" (regalia.games() lists the games that have that option)",
                G::NAMES.name
            ))
            .into());
        }
        if game.num_players() > MAX_SEATS {
            return Err(Error::InvalidArgument(format!(
                "exact methods handle at most {MAX_SEATS} seats"
            ))
            .into());
        }
        let limit = limit.min(MAX_HISTORIES);
        let root = game.new_state(Rng::new(0));
        let estimate = estimate_size(game, &root, PROBES, 0x7EE5);
        let refuse = |estimate: f64| {
            Err(BuildError::TooLarge(TooLarge {
                limit,
                estimate: estimate.max(limit as f64 + 1.0),
            }))
        };
        if estimate > ESTIMATE_SLACK * limit as f64 {
            return refuse(estimate);
        }
        if count_up_to(game, &root, limit).is_none() {
            return refuse(estimate);
        }
        let mut tree = Tree {
            num_players: game.num_players(),
            ..Tree::default()
        };
        let mut scratch = Scratch::new(game);
        let tracker = Tracker::new(game, &root, &mut scratch);
        let seeded = SeededTracker::new(game, &root, &mut scratch);
        tree.add(game, root, (tracker, seeded), 0, stop, &mut scratch);
        if tree.stopped {
            return Err(Error::InvalidArgument("the game tree's walk was stopped".into()).into());
        }
        if let Some(key) = tree.collision {
            return Err(Error::InvalidState(format!(
                "two information states with different legal actions share the key {key:#x}"
            ))
            .into());
        }
        tree.group_members();
        Ok(tree)
    }

    /// Adds the subtree of `state` (whose parent is `parent`); its index.
    fn add<G: Game>(
        &mut self,
        game: &G,
        state: G::State,
        (tracker, seeded): (Tracker, SeededTracker),
        parent: u32,
        stop: &AtomicBool,
        scratch: &mut Scratch,
    ) -> u32 {
        let at = self.nodes.len() as u32;
        if at % CHECK_EVERY == 0 && stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        if self.stopped {
            return at;
        }
        let mover = game.current_player(&state);
        let outcomes: Vec<(Action, f64)> = if game.is_chance_node(&state) {
            game.chance_outcomes(&state)
        } else {
            game.legal_actions(&state)
                .iter()
                .map(|a| (a, 0.0))
                .collect()
        };
        let kind = match mover {
            Some(seat) if !outcomes.is_empty() => {
                let set = self.set_of(tracker.key(seat), seat, &outcomes);
                if set as usize == self.seeded_keys.len() {
                    self.seeded_keys.push(seeded.key(seat));
                }
                Kind::Decision(set)
            }
            _ if outcomes.is_empty() => {
                let start = self.returns.len() as u32;
                self.returns.extend(game.returns(&state));
                Kind::Terminal(start)
            }
            _ => Kind::Chance,
        };
        let first = self.edges.len() as u32;
        self.nodes.push(Node {
            kind,
            parent,
            first,
            len: outcomes.len() as u16,
        });
        self.edges
            .extend(outcomes.iter().map(|&(action, probability)| Edge {
                action,
                probability,
                child: 0,
            }));
        for (i, &(action, _)) in outcomes.iter().enumerate() {
            let (mut child, mut t, mut u) = (state.clone(), tracker, seeded);
            let by = mover.unwrap_or(NOBODY);
            t.apply_unless_over(game, &mut child, by, action, scratch);
            u.after(game, &child, by, action, scratch);
            let c = self.add(game, child, (t, u), at, stop, scratch);
            self.edges[first as usize + i].child = c;
        }
        at
    }

    /// The information set of `key` (made the first time, with these actions).
    fn set_of(&mut self, key: u64, seat: Seat, outcomes: &[(Action, f64)]) -> u32 {
        if let Some(&i) = self.index.get(&key) {
            let set = self.sets[i as usize];
            let same = set.seat == seat
                && self
                    .set_actions(i)
                    .iter()
                    .copied()
                    .eq(outcomes.iter().map(|o| o.0));
            if !same {
                self.collision.get_or_insert(key);
            }
            return i;
        }
        let i = self.sets.len() as u32;
        self.sets.push(InfoSet {
            key,
            seat,
            first: self.actions.len() as u32,
            len: outcomes.len() as u16,
        });
        self.actions.extend(outcomes.iter().map(|o| o.0));
        self.index.insert(key, i);
        i
    }

    /// Lists each information set's decision nodes.
    fn group_members(&mut self) {
        let mut counts = vec![0u32; self.sets.len() + 1];
        for n in &self.nodes {
            if let Kind::Decision(s) = n.kind {
                counts[s as usize + 1] += 1;
            }
        }
        for i in 1..counts.len() {
            counts[i] += counts[i - 1];
        }
        let mut next = counts.clone();
        self.members = vec![0; counts[self.sets.len()] as usize];
        for (i, n) in self.nodes.iter().enumerate() {
            if let Kind::Decision(s) = n.kind {
                self.members[next[s as usize] as usize] = i as u32;
                next[s as usize] += 1;
            }
        }
        self.member_start = counts;
    }

    /// The information set with `key`, if the tree has it.
    pub fn set_index(&self, key: u64) -> Option<u32> {
        self.index.get(&key).copied()
    }

    /// The legal actions of information set `i`.
    pub fn set_actions(&self, i: u32) -> &[Action] {
        let s = self.sets[i as usize];
        &self.actions[s.first as usize..s.first as usize + s.len as usize]
    }

    /// The decision nodes of information set `i`.
    pub fn set_members(&self, i: u32) -> &[u32] {
        &self.members
            [self.member_start[i as usize] as usize..self.member_start[i as usize + 1] as usize]
    }

    /// The edges of node `n`.
    pub fn node_edges(&self, n: u32) -> &[Edge] {
        let node = self.nodes[n as usize];
        &self.edges[node.first as usize..node.first as usize + node.len as usize]
    }

    /// The actions (and chance outcomes) from the root to node `n`.
    pub fn history(&self, n: u32) -> Vec<Action> {
        let mut path = Vec::new();
        let mut at = n;
        while at != 0 {
            let parent = self.nodes[at as usize].parent;
            let edge = self.node_edges(parent).iter().find(|e| e.child == at);
            path.extend(edge.map(|e| e.action));
            at = parent;
        }
        path.reverse();
        path
    }

    /// How many histories of each kind, and information sets.
    pub fn counts(&self) -> Counts {
        let mut c = Counts {
            histories: self.nodes.len() as u64,
            infosets: self.sets.len() as u64,
            ..Counts::default()
        };
        for n in &self.nodes {
            match n.kind {
                Kind::Terminal(_) => c.terminals += 1,
                Kind::Chance => c.chance += 1,
                Kind::Decision(_) => c.decisions += 1,
            }
        }
        c
    }

    /// The uniform policy: every information set's probabilities, uniform over its actions.
    pub fn uniform(&self) -> Vec<f64> {
        let mut p = Vec::with_capacity(self.actions.len());
        for s in &self.sets {
            p.extend(std::iter::repeat_n(1.0 / s.len as f64, s.len as usize));
        }
        p
    }

    /// A policy aligned with the tree's information sets from `table`: at each information
    /// set the stored probabilities of its legal actions, normalised; uniform where the table
    /// lacks the key or gives no weight to any legal action (the `cfr` agent's rule).
    pub fn policy_from_table(&self, table: PolicyTable<'_>) -> Vec<f64> {
        self.policy_by_keys(|i| self.sets[i].key, table)
    }

    /// [`Tree::policy_from_table`] for a table keyed as the game's seeded mode keys
    /// ([`Tree::seeded_keys`]): a policy trained on the seeded game, measured on this one.
    pub fn policy_from_seeded_table(&self, table: PolicyTable<'_>) -> Vec<f64> {
        self.policy_by_keys(|i| self.seeded_keys[i], table)
    }

    /// A table's policy, each information set `i` looked up by `key_of(i)`.
    fn policy_by_keys(&self, key_of: impl Fn(usize) -> u64, table: PolicyTable<'_>) -> Vec<f64> {
        let PolicyTable {
            keys,
            counts,
            actions,
            probs,
        } = table;
        let mut starts = Vec::with_capacity(keys.len());
        let mut at = 0usize;
        for &c in counts {
            starts.push(at);
            at += c as usize;
        }
        let mut out = self.uniform();
        for (i, set) in self.sets.iter().enumerate() {
            let Ok(k) = keys.binary_search(&key_of(i)) else {
                continue;
            };
            let range = starts[k]..starts[k] + counts[k] as usize;
            let (stored_a, stored_p) = (&actions[range.clone()], &probs[range]);
            let legal = self.set_actions(i as u32);
            let weights: Vec<f64> = legal
                .iter()
                .map(|a| {
                    stored_a
                        .iter()
                        .position(|s| s == a)
                        .map_or(0.0, |j| stored_p[j] as f64)
                })
                .collect();
            let total: f64 = weights.iter().sum();
            if total > 0.0 {
                let first = set.first as usize;
                for (j, w) in weights.iter().enumerate() {
                    out[first + j] = w / total;
                }
            }
        }
        out
    }
}

/// A policy table as slices: keys ascending, and each key's `counts` actions and
/// probabilities in turn (as `Mccfr::averages` gives them).
#[derive(Clone, Copy, Debug)]
pub struct PolicyTable<'a> {
    /// The information-set keys, ascending.
    pub keys: &'a [u64],
    /// How many actions each key has.
    pub counts: &'a [u16],
    /// Every key's actions in turn.
    pub actions: &'a [Action],
    /// Their probabilities.
    pub probs: &'a [f32],
}

/// Knuth's estimate of the number of histories below `root`: the mean over `probes` random
/// paths of `1 + b1 + b1 b2 + ...`, the products of the branching factors met.
pub fn estimate_size<G: Game>(game: &G, root: &G::State, probes: u32, seed: u64) -> f64 {
    let mut rng = Rng::new(seed);
    let mut total = 0.0;
    for _ in 0..probes {
        let (mut state, mut width, mut sum) = (root.clone(), 1.0f64, 1.0f64);
        loop {
            let legal = game.legal_actions(&state);
            if legal.is_empty() {
                break;
            }
            width *= legal.len() as f64;
            sum += width;
            let a = crate::game::uniform_action(&legal, &mut rng);
            game.apply(&mut state, a);
        }
        total += sum;
    }
    total / probes as f64
}

/// The number of histories below `root`, or `None` once it exceeds `limit`.
pub fn count_up_to<G: Game>(game: &G, root: &G::State, limit: u64) -> Option<u64> {
    fn walk<G: Game>(game: &G, state: &G::State, seen: &mut u64, limit: u64) -> bool {
        *seen += 1;
        if *seen > limit {
            return false;
        }
        for a in game.legal_actions(state).iter() {
            let mut child = state.clone();
            game.apply(&mut child, a);
            if !walk(game, &child, seen, limit) {
                return false;
            }
        }
        true
    }
    let mut seen = 0;
    walk(game, root, &mut seen, limit).then_some(seen)
}
