//! Information-set Monte Carlo tree search (ISMCTS) for the seat to move, over any game.
//!
//! Every iteration samples a world the searching seat cannot tell from the root
//! ([`Game::determinize`] for that seat, so a search started from the true state uses no
//! hidden information), walks down the tree choosing by UCT, finishes the game with a rollout
//! and credits each choice on the way with the final return of the seat that made it (max-n:
//! with more than two seats each seat maximises its own return). Rollouts ([`Rollout`]) play
//! the game's own cheap policy ([`Game::rollout_action`]; uniformly random unless the game
//! overrides it) and may stop early with the game's estimate ([`Game::rollout_cutoff`], e.g.
//! from the points at the end of a round), or play uniformly random moves to the end.
//!
//! Nodes are information sets, not states: below the root a node is found by a hash of the
//! mover's seat, its depth below the root and the mover's observation tensor, the way
//! OpenSpiel's ISMCTS keys its nodes by the information-state string. A seat's node therefore
//! never depends on what that seat cannot see (an opponent's secret choice, hidden hands), and
//! the statistics of an information set are shared by all the worlds that pass through it.
//! Exploration uses availability counts (Cowling, Powley and Whitehouse, 2012): the `ln N`
//! term of an action counts the visits in which it was legal. Each iteration adds at most one
//! node; at a node every legal action is tried once before any is tried twice.
//!
//! An opponent model ([`IsmctsConfig::opponents`]) may replace the other seats' search: they
//! then play the model's move (the game's rollout policy, or the first legal action) in the
//! tree and the rollouts alike, have no nodes, and every iteration is spent on the searching
//! seat's own choices against them.
//!
//! With several threads ([`IsmctsConfig::threads`]) the search is root-parallel: each thread
//! grows a tree of its own from its own seed for its share of the iterations, and the root
//! statistics of the trees are summed (Chaslot, Winands and van den Herik, 2008). The threads
//! share nothing while they search, so two threads run close to twice the iterations of one
//! in the same time.
//!
//! Without a time limit the search is a pure function of the root, the searching seat's
//! information, the seed and the number of threads.

use crate::actions::{Action, ActionSet};
use crate::cfr::key::KeyBuild;
use crate::game::{uniform_action, Game, Seat};
use crate::rng::{splitmix64, Rng};
use crate::search::belief::{Belief, Worlds};
use crate::search::threads::run_on_threads;
use std::collections::hash_map::{Entry, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How to search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IsmctsConfig {
    /// Iterations (sampled worlds) to run at most, shared among the threads; at least one
    /// always runs in each thread.
    pub iterations: u64,
    /// The exploration constant `c` of UCT: `mean + c * sqrt(ln(available) / visits)`.
    pub exploration: f64,
    /// Seed of the search's own generator (worlds, rollouts, tie-breaks among untried actions).
    pub seed: u64,
    /// Stop early once this much time has passed (the result then depends on the machine).
    pub time_limit: Option<Duration>,
    /// How rollouts finish a game.
    pub rollout: Rollout,
    /// Threads searching at once (root parallelism), from 1 to [`MAX_THREADS`]; 1 is the
    /// plain search on the calling thread.
    pub threads: usize,
    /// Where the worlds come from: with no model, [`Game::determinize`] of the root; with
    /// one, the weighted particles of a belief over the game's history, which the caller
    /// builds ([`crate::session::Session::ismcts`]) and passes to [`ismcts_in`].
    pub belief: Belief,
    /// How the other seats choose, in the tree and in the rollouts.
    pub opponents: Opponents,
}

/// How the search has the seats other than the searching one choose their moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Opponents {
    /// Each seat searches for itself (max-n: by UCT in the tree, the rollout policy below it).
    #[default]
    Search,
    /// The others play the game's rollout policy ([`Game::rollout_action`]) everywhere: no
    /// tree nodes of theirs, only the searching seat's choices are searched.
    Rollout,
    /// The others play their first legal action everywhere (a model of a fixed player that
    /// always does).
    FirstLegal,
}

impl Opponents {
    /// Every kind, in the order of their names.
    pub const ALL: [Opponents; 3] = [Opponents::Search, Opponents::Rollout, Opponents::FirstLegal];

    /// The kind's name, as the Python API takes it.
    pub fn name(self) -> &'static str {
        match self {
            Opponents::Search => "search",
            Opponents::Rollout => "rollout",
            Opponents::FirstLegal => "first-legal",
        }
    }

    /// The kind called `name`, if any.
    pub fn from_name(name: &str) -> Option<Opponents> {
        Opponents::ALL.into_iter().find(|o| o.name() == name)
    }
}

/// The most threads one search may use.
pub const MAX_THREADS: usize = 256;

/// How a rollout chooses its moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Rollout {
    /// The game's cheap heuristic ([`Game::rollout_action`], usually mixed with random
    /// moves), stopped early where the game says ([`Game::rollout_cutoff`]).
    #[default]
    Heuristic,
    /// Uniformly random legal moves to the end of the game.
    Random,
}

impl Rollout {
    /// Every kind, in the order of their names.
    pub const ALL: [Rollout; 2] = [Rollout::Heuristic, Rollout::Random];

    /// The kind's name, as the Python API takes it.
    pub fn name(self) -> &'static str {
        match self {
            Rollout::Heuristic => "heuristic",
            Rollout::Random => "random",
        }
    }

    /// The kind called `name`, if any.
    pub fn from_name(name: &str) -> Option<Rollout> {
        Rollout::ALL.into_iter().find(|r| r.name() == name)
    }
}

impl Default for IsmctsConfig {
    fn default() -> Self {
        IsmctsConfig {
            iterations: 1000,
            exploration: 1.0,
            seed: 0,
            time_limit: None,
            rollout: Rollout::default(),
            threads: 1,
            belief: Belief::default(),
            opponents: Opponents::default(),
        }
    }
}

/// What the search learnt about one legal action at the root.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActionStats {
    /// The action.
    pub action: Action,
    /// Iterations that chose it.
    pub visits: u32,
    /// Mean return of the searching seat over those iterations.
    pub mean: f64,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct IsmctsResult {
    /// The root action visited most (ties: the higher mean, then the lower id).
    pub action: Action,
    /// Iterations run.
    pub iterations: u64,
    /// Every legal root action, ascending.
    pub root: Vec<ActionStats>,
}

/// Searches for the seat to move in `root`; `None` when the game is over.
pub fn ismcts<G: Game>(game: &G, root: &G::State, config: &IsmctsConfig) -> Option<IsmctsResult> {
    ismcts_until(game, root, config, &AtomicBool::new(false))
}

/// Iterations between two looks at the stop flag of [`ismcts_until`].
const STOP_CHECK: u64 = 128;

/// [`ismcts`] that also ends early once `stop` is set (by another thread: Ctrl-C at the
/// terminal), looking at it every `STOP_CHECK` iterations; one iteration always runs (in
/// each thread).
pub fn ismcts_until<G: Game>(
    game: &G,
    root: &G::State,
    config: &IsmctsConfig,
    stop: &AtomicBool,
) -> Option<IsmctsResult> {
    ismcts_in(game, root, config, stop, None)
}

/// [`ismcts_until`] whose worlds are drawn from `worlds` (in proportion to their weights:
/// a belief's particles, each a state the seat cannot tell from `root`) instead of
/// [`Game::determinize`] of the root.
pub fn ismcts_in<G: Game>(
    game: &G,
    root: &G::State,
    config: &IsmctsConfig,
    stop: &AtomicBool,
    worlds: Option<&Worlds<G::State>>,
) -> Option<IsmctsResult> {
    let seat = game.current_player(root)?;
    let threads = config.threads.clamp(1, MAX_THREADS);
    let iterations = config.iterations.max(1);
    let slots: Vec<Mutex<Option<Tally>>> = (0..threads).map(|_| Mutex::new(None)).collect();
    // One deadline for every thread, set before any starts: a helper that wakes late stops
    // with the others instead of keeping the caller waiting past the budget. A limit beyond
    // what the clock can count is none.
    let deadline = config
        .time_limit
        .and_then(|t| Instant::now().checked_add(t));
    run_on_threads(threads, &|k| {
        let share =
            iterations / threads as u64 + u64::from((k as u64) < iterations % threads as u64);
        let seed = if threads == 1 {
            config.seed
        } else {
            thread_seed(config.seed, k)
        };
        let limits = Limits {
            iterations: share,
            deadline,
            stop,
        };
        let tally = search_tree(game, (root, worlds), seat, config, seed, &limits);
        *slots[k].lock().unwrap_or_else(|e| e.into_inner()) = Some(tally);
    });
    let mut sum = Tally::default();
    for slot in slots {
        if let Some(t) = slot.into_inner().unwrap_or_else(|e| e.into_inner()) {
            sum.add(&t);
        }
    }
    let root_stats: Vec<ActionStats> = game
        .legal_actions(root)
        .iter()
        .map(|a| {
            let (visits, total) = sum.root.get(&a).copied().unwrap_or((0, 0.0));
            ActionStats {
                action: a,
                visits: u32::try_from(visits).unwrap_or(u32::MAX),
                mean: if visits == 0 {
                    0.0
                } else {
                    total / visits as f64
                },
            }
        })
        .collect();
    let best = root_stats.iter().copied().reduce(|best, s| {
        let better = s.visits > best.visits || (s.visits == best.visits && s.mean > best.mean);
        if better {
            s
        } else {
            best
        }
    })?;
    Some(IsmctsResult {
        action: best.action,
        iterations: sum.iterations,
        root: root_stats,
    })
}

/// The seed of thread `k` of a search seeded `seed` with several threads.
fn thread_seed(seed: u64, k: usize) -> u64 {
    let mut h = seed ^ (k as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    splitmix64(&mut h)
}

/// What one tree found at the root: iterations run, and per root action its visits and
/// total return (summed over the trees of a parallel search).
#[derive(Default)]
struct Tally {
    iterations: u64,
    root: std::collections::BTreeMap<Action, (u64, f64)>,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.iterations += other.iterations;
        for (&a, &(visits, total)) in &other.root {
            let e = self.root.entry(a).or_insert((0, 0.0));
            e.0 += visits;
            e.1 += total;
        }
    }
}

/// When one tree's search ends: after `iterations` iterations, at `deadline`, or once
/// `stop` is raised (at least one iteration runs).
struct Limits<'a> {
    iterations: u64,
    deadline: Option<Instant>,
    stop: &'a AtomicBool,
}

/// One tree searched from `seed` until its `limits`, in worlds drawn from `worlds` or else
/// determinized from `root`; its root statistics.
fn search_tree<G: Game>(
    game: &G,
    (root, worlds): (&G::State, Option<&Worlds<G::State>>),
    seat: Seat,
    config: &IsmctsConfig,
    seed: u64,
    limits: &Limits<'_>,
) -> Tally {
    let mut search = Search {
        game,
        rng: Rng::new(seed),
        tree: Tree::new(),
        tensor: vec![0.0; game.observation_shape().iter().product()],
        path: Vec::new(),
        exploration: config.exploration,
        rollout: config.rollout,
        seat,
        opponents: config.opponents,
    };
    let mut done = 0;
    while done < limits.iterations.max(1) {
        if done > 0 && limits.deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        if done > 0 && done % STOP_CHECK == 0 && limits.stop.load(Ordering::Relaxed) {
            break;
        }
        let world = match worlds {
            Some(w) => w.draw(&mut search.rng),
            None => game.determinize(root, seat, &mut search.rng),
        };
        search.iterate(world);
        done += 1;
    }
    Tally {
        iterations: done,
        root: search.tree.nodes[ROOT]
            .edges
            .iter()
            .map(|e| (e.action, (u64::from(e.visits), e.total)))
            .collect(),
    }
}

/// Index of the root node.
const ROOT: usize = 0;

/// One action's statistics at an information set.
#[derive(Clone, Copy, Debug)]
struct Edge {
    action: Action,
    visits: u32,
    available: u32,
    total: f64,
}

impl Edge {
    fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.total / self.visits as f64
        }
    }
}

/// An information set: its actions seen so far, sorted by id.
#[derive(Default)]
struct Node {
    edges: Vec<Edge>,
}

impl Node {
    /// Counts every legal action as available once, then picks one: a random untried action
    /// if there is one, else the best by UCT (the lowest id among equals).
    fn select(&mut self, legal: &ActionSet, exploration: f64, rng: &mut Rng) -> Action {
        let mut i = 0;
        for a in legal.iter() {
            while i < self.edges.len() && self.edges[i].action < a {
                i += 1;
            }
            if i == self.edges.len() || self.edges[i].action != a {
                let fresh = Edge {
                    action: a,
                    visits: 0,
                    available: 0,
                    total: 0.0,
                };
                self.edges.insert(i, fresh);
            }
            self.edges[i].available += 1;
            i += 1;
        }
        let playable = || {
            self.edges
                .iter()
                .filter(|e| legal.contains(e.action as usize))
        };
        let untried = playable().filter(|e| e.visits == 0).count();
        if untried > 0 {
            let k = rng.index(untried);
            if let Some(e) = playable().filter(|e| e.visits == 0).nth(k) {
                return e.action;
            }
        }
        let mut best = (f64::NEG_INFINITY, 0);
        for e in playable() {
            let n = e.visits as f64;
            let score = e.mean() + exploration * ((e.available as f64).ln() / n).sqrt();
            if score > best.0 {
                best = (score, e.action);
            }
        }
        best.1
    }

    fn credit(&mut self, a: Action, reward: f64) {
        if let Ok(i) = self.edges.binary_search_by_key(&a, |e| e.action) {
            self.edges[i].visits += 1;
            self.edges[i].total += reward;
        }
    }
}

/// Information sets found by key; node `ROOT` is the root's.
struct Tree {
    nodes: Vec<Node>,
    /// Keys are hashes already: the map uses them as they are.
    index: HashMap<u64, usize, KeyBuild>,
}

impl Tree {
    fn new() -> Self {
        Tree {
            nodes: vec![Node::default()],
            index: HashMap::default(),
        }
    }

    /// The node of `key`, and whether it was just created.
    fn node(&mut self, key: u64) -> (usize, bool) {
        let next = self.nodes.len();
        match self.index.entry(key) {
            Entry::Occupied(e) => (*e.get(), false),
            Entry::Vacant(e) => {
                e.insert(next);
                self.nodes.push(Node::default());
                (next, true)
            }
        }
    }
}

/// An outcome of the chance node `s` (explicit chance), drawn by its probability.
#[cold]
fn chance_outcome<G: Game>(game: &G, s: &G::State, rng: &mut Rng) -> Action {
    let outcomes = game.chance_outcomes(s);
    let mut u = f64::from(rng.next_u32()) / 4_294_967_296.0;
    for &(a, p) in &outcomes {
        if u < p {
            return a;
        }
        u -= p;
    }
    outcomes.last().map_or(0, |o| o.0)
}

/// The key of the information set of `seat` at `depth` with observation tensor `tensor`.
fn info_key(seat: Seat, depth: u32, tensor: &[f32]) -> u64 {
    let mut h = ((seat as u64) << 32) | depth as u64;
    for &x in tensor {
        h = (h.rotate_left(5) ^ x.to_bits() as u64).wrapping_mul(0x517C_C1B7_2722_0A95);
    }
    splitmix64(&mut h)
}

/// The state of one search.
struct Search<'g, G: Game> {
    game: &'g G,
    rng: Rng,
    tree: Tree,
    tensor: Vec<f32>,
    /// The choices of the current iteration: node, action, seat that chose.
    path: Vec<(usize, Action, Seat)>,
    exploration: f64,
    rollout: Rollout,
    /// The searching seat.
    seat: Seat,
    opponents: Opponents,
}

impl<G: Game> Search<'_, G> {
    /// One iteration in the sampled `world`: descend, add a node, roll out, back up.
    fn iterate(&mut self, mut world: G::State) {
        self.path.clear();
        let mut node = ROOT;
        let mut depth = 0u32;
        loop {
            if self.game.is_chance_node(&world) {
                let outcome = chance_outcome(self.game, &world, &mut self.rng);
                self.game.apply(&mut world, outcome);
                continue;
            }
            let Some(player) = self.game.current_player(&world) else {
                break;
            };
            if let Some(a) = self.modelled(player, &world) {
                self.game.apply(&mut world, a);
                depth += 1;
                continue;
            }
            if depth > 0 {
                self.tensor.fill(0.0);
                self.game
                    .observation_tensor(&world, player, &mut self.tensor);
                let created;
                (node, created) = self.tree.node(info_key(player, depth, &self.tensor));
                if created {
                    break;
                }
            }
            let legal = self.game.legal_actions(&world);
            let a = self.tree.nodes[node].select(&legal, self.exploration, &mut self.rng);
            self.path.push((node, a, player));
            self.game.apply(&mut world, a);
            depth += 1;
        }
        let returns = self.rollout(world);
        for &(node, a, player) in &self.path {
            let reward = returns.get(player).copied().unwrap_or(0.0);
            self.tree.nodes[node].credit(a, reward);
        }
    }

    /// The move of `player` in `s` if the opponent model fixes it (another seat than the
    /// searching one, modelled as a fixed player).
    fn modelled(&mut self, player: Seat, s: &G::State) -> Option<Action> {
        if player == self.seat {
            return None;
        }
        match self.opponents {
            Opponents::Search => None,
            Opponents::Rollout => {
                let legal = self.game.legal_actions(s);
                Some(self.game.rollout_action(s, &legal, &mut self.rng))
            }
            Opponents::FirstLegal => self.game.legal_actions(s).nth(0),
        }
    }

    /// Finishes the game by the rollout policy (the modelled opponents' moves where the
    /// model fixes them); the final returns (with the heuristic, the game's estimate where it
    /// cuts the rollout off).
    fn rollout(&mut self, world: G::State) -> Vec<f64> {
        let (game, seat, opponents) = (self.game, self.seat, self.opponents);
        let forced = move |s: &G::State, legal: &ActionSet| match opponents {
            Opponents::FirstLegal if game.current_player(s) != Some(seat) => legal.nth(0),
            _ => None,
        };
        match self.rollout {
            Rollout::Heuristic => {
                let from = world.clone();
                self.play_out(world, |s, legal, rng| match game.rollout_cutoff(&from, s) {
                    Some(returns) => Err(returns),
                    None => {
                        Ok(forced(s, legal).unwrap_or_else(|| game.rollout_action(s, legal, rng)))
                    }
                })
            }
            Rollout::Random => self.play_out(world, |s, legal, rng| {
                Ok(match forced(s, legal) {
                    Some(a) => a,
                    None if opponents == Opponents::Rollout
                        && game.current_player(s) != Some(seat) =>
                    {
                        game.rollout_action(s, legal, rng)
                    }
                    None => uniform_action(legal, rng),
                })
            }),
        }
    }

    /// Plays the moves of `policy` (given the state, its legal actions and the search's
    /// generator) until the game ends, its returns, or the policy stops with its estimate
    /// (`Err`). One loop for each policy: the random one pays for nothing it does not use (a
    /// copy of the rollout's start, the policy's choice among kinds at every step).
    #[inline(always)]
    fn play_out<P>(&mut self, mut world: G::State, mut policy: P) -> Vec<f64>
    where
        P: FnMut(&G::State, &ActionSet, &mut Rng) -> Result<Action, Vec<f64>>,
    {
        loop {
            let legal = self.game.legal_actions(&world);
            if legal.is_empty() {
                return self.game.returns(&world);
            }
            if self.game.is_chance_node(&world) {
                let outcome = chance_outcome(self.game, &world, &mut self.rng);
                self.game.apply(&mut world, outcome);
                continue;
            }
            match policy(&world, &legal, &mut self.rng) {
                Ok(a) => self.game.apply(&mut world, a),
                Err(returns) => return returns,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::duo_regna::DuoRegna;
    use crate::options::Options;

    fn duo_regna() -> DuoRegna {
        DuoRegna::from_options(&Options::new()).expect("default options")
    }

    fn config(iterations: u64, seed: u64) -> IsmctsConfig {
        IsmctsConfig {
            iterations,
            seed,
            ..IsmctsConfig::default()
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_search() {
        let g = duo_regna();
        let s = g.new_state(Rng::new(3));
        let a = ismcts(&g, &s, &config(300, 9));
        assert_eq!(a, ismcts(&g, &s, &config(300, 9)));
        let a = a.expect("not over");
        assert_eq!(a.iterations, 300);
        assert_eq!(a.root.iter().map(|r| r.visits as u64).sum::<u64>(), 300);
        assert!(g.legal_actions(&s).contains(a.action as usize));
    }

    #[test]
    fn a_finished_game_has_nothing_to_search() {
        let g = duo_regna();
        let mut s = g.new_state(Rng::new(1));
        let mut rng = Rng::new(2);
        while let Some(a) = {
            let legal = g.legal_actions(&s);
            legal.nth(rng.index(legal.len().max(1)))
        } {
            g.apply(&mut s, a);
        }
        assert_eq!(ismcts(&g, &s, &config(10, 0)), None);
    }

    #[test]
    fn a_stop_flag_ends_the_search_after_one_round_of_checks() {
        let g = duo_regna();
        let s = g.new_state(Rng::new(3));
        let r =
            ismcts_until(&g, &s, &config(1_000_000, 1), &AtomicBool::new(true)).expect("not over");
        assert_eq!(r.iterations, STOP_CHECK);
    }

    #[test]
    fn a_time_limit_stops_the_search_early() {
        let g = duo_regna();
        let s = g.new_state(Rng::new(3));
        let mut c = config(u64::MAX, 1);
        c.time_limit = Some(Duration::from_millis(20));
        let r = ismcts(&g, &s, &c).expect("not over");
        assert!(r.iterations >= 1 && r.iterations < u64::MAX);
    }

    #[test]
    fn a_time_limit_beyond_the_clock_is_no_limit() {
        let g = duo_regna();
        let s = g.new_state(Rng::new(3));
        let mut c = config(50, 1);
        c.time_limit = Some(Duration::MAX);
        assert_eq!(ismcts(&g, &s, &c).expect("not over").iterations, 50);
    }

    #[test]
    fn a_tree_that_starts_after_the_deadline_runs_one_iteration() {
        let g = duo_regna();
        let s = g.new_state(Rng::new(3));
        let never = AtomicBool::new(false);
        let late = Limits {
            iterations: u64::MAX,
            deadline: Some(Instant::now()),
            stop: &never,
        };
        let seat = g.current_player(&s).expect("not over");
        let t = search_tree(&g, (&s, None), seat, &config(0, 1), 1, &late);
        assert_eq!(t.iterations, 1);
    }

    #[test]
    fn threads_share_the_iterations_and_repeat_for_a_seed() {
        let g = duo_regna();
        let s = g.new_state(Rng::new(3));
        let mut c = config(301, 9);
        c.threads = 2;
        let r = ismcts(&g, &s, &c).expect("not over");
        assert_eq!(Some(r.clone()), ismcts(&g, &s, &c));
        assert_eq!(r.iterations, 301);
        assert_eq!(r.root.iter().map(|x| x.visits as u64).sum::<u64>(), 301);
        assert_ne!(
            Some(r),
            ismcts(&g, &s, &config(301, 9)),
            "two trees are not the one tree"
        );
        c.iterations = 2;
        c.threads = 3;
        assert_eq!(
            ismcts(&g, &s, &c).map(|r| r.iterations),
            Some(3),
            "one iteration a thread at least"
        );
    }

    #[test]
    fn the_threads_sum_what_their_trees_found() {
        let g = duo_regna();
        let s = g.new_state(Rng::new(4));
        let mut c = config(400, 5);
        c.threads = 2;
        let both = ismcts(&g, &s, &c).expect("not over");
        let alone: Vec<_> = (0..2)
            .map(|k| ismcts(&g, &s, &config(200, thread_seed(5, k))).expect("not over"))
            .collect();
        for (i, x) in both.root.iter().enumerate() {
            let (a, b) = (alone[0].root[i], alone[1].root[i]);
            assert_eq!(x.visits, a.visits + b.visits);
            let total = a.mean * a.visits as f64 + b.mean * b.visits as f64;
            assert!((x.mean * x.visits as f64 - total).abs() < 1e-9);
        }
    }

    #[test]
    fn opponent_models_are_found_by_name() {
        for o in Opponents::ALL {
            assert_eq!(Opponents::from_name(o.name()), Some(o));
        }
        assert_eq!(Opponents::from_name("rules"), None);
    }

    #[test]
    fn modelled_opponents_repeat_for_a_seed_and_change_the_search() {
        let g = duo_regna();
        let s = g.new_state(Rng::new(3));
        let plain = ismcts(&g, &s, &config(400, 9)).expect("not over");
        for opponents in [Opponents::Rollout, Opponents::FirstLegal] {
            for threads in [1, 2] {
                let mut c = config(400, 9);
                c.opponents = opponents;
                c.threads = threads;
                let r = ismcts(&g, &s, &c).expect("not over");
                assert_eq!(Some(r.clone()), ismcts(&g, &s, &c));
                assert_eq!(r.root.iter().map(|x| x.visits as u64).sum::<u64>(), 400);
                if threads == 1 {
                    assert_ne!(r.root, plain.root, "{opponents:?}");
                }
            }
        }
    }

    #[test]
    fn it_takes_the_winning_card() {
        // Seat 1 to choose; seat 0 has committed one of its last cards 1, 2, 3. The dragon lies
        // on seat 1's side and capturing it wins: the 5 beats all three; the Jester (0) loses
        // to each and the shield (X) wins nothing.
        let g = duo_regna();
        let mut s = g.new_state(Rng::new(5));
        s.hands = [(1 << 2) | (1 << 3), (1 << 0) | (1 << 1) | (1 << 6)];
        s.pending = Some(4);
        s.dragon_side = 2;
        s.captured = [0, 4 - s.dragon];
        s.round = 6;
        s.last_reveal = Some([1, 1]);
        assert_eq!(g.check_state(&s), Ok(()));
        assert_eq!(g.current_player(&s), Some(1));
        for (threads, opponents) in [
            (1, Opponents::Search),
            (2, Opponents::Search),
            (1, Opponents::FirstLegal),
        ] {
            let mut c = config(200, 4);
            c.threads = threads;
            c.opponents = opponents;
            let r = ismcts(&g, &s, &c).expect("not over");
            assert_eq!(r.action, 6, "{r:?}");
            assert!(r
                .root
                .iter()
                .find(|x| x.action == 6)
                .is_some_and(|x| x.mean == 1.0));
        }
    }
}
