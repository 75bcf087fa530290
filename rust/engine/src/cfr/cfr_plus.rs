//! CFR+ over a whole [`Tree`] (Tammelin, 2014), as OpenSpiel's `CFRPlusSolver` runs it:
//! alternating updates (each iteration one traversal per seat in seat order, the current
//! policy updated after each), regret matching+ (cumulative regrets floored at zero after each
//! traversal) and linear averaging (iteration `t` adds `t` × the seat's reach × its current
//! strategy to the average). All in `f64`.
//!
//! A history where every seat's reach is zero is skipped, as OpenSpiel does. The budget is
//! looked at between iterations only, so that every iteration counted is whole.

use super::best_response::{exploitability, Exploitability};
use super::key::MAX_SEATS;
use super::tree::{Kind, Tree};
use crate::game::Seat;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The reach of each seat, then chance's.
type Reach = [f64; MAX_SEATS + 1];

/// A CFR+ run over one tree.
pub struct CfrPlus {
    tree: Arc<Tree>,
    regrets: Vec<f64>,
    cumulative: Vec<f64>,
    current: Vec<f64>,
    iterations: u64,
    /// Decision nodes visited (each one information-set update or read).
    visits: u64,
}

impl CfrPlus {
    /// A run over `tree`, the current policy uniform, nothing accumulated.
    pub fn new(tree: Arc<Tree>) -> Self {
        let n = tree.actions.len();
        CfrPlus {
            current: tree.uniform(),
            regrets: vec![0.0; n],
            cumulative: vec![0.0; n],
            tree,
            iterations: 0,
            visits: 0,
        }
    }

    /// The tree solved.
    pub fn tree(&self) -> &Arc<Tree> {
        &self.tree
    }

    /// Iterations done.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// Decision nodes visited so far.
    pub fn visits(&self) -> u64 {
        self.visits
    }

    /// Runs up to `iterations` more iterations, stopping early (between iterations) at
    /// `deadline` or once `stop` is set; returns how many ran.
    pub fn run(&mut self, iterations: u64, deadline: Option<Instant>, stop: &AtomicBool) -> u64 {
        let mut done = 0;
        while done < iterations
            && !stop.load(Ordering::Relaxed)
            && deadline.is_none_or(|d| Instant::now() < d)
        {
            self.iterate();
            done += 1;
        }
        done
    }

    /// One iteration: a traversal per seat, each followed by regret matching+.
    fn iterate(&mut self) {
        self.iterations += 1;
        let tree = Arc::clone(&self.tree);
        for seat in 0..tree.num_players {
            let mut reach: Reach = [0.0; MAX_SEATS + 1];
            reach[..=tree.num_players].fill(1.0);
            self.traverse(&tree, 0, seat, &reach);
            self.update_current(seat);
        }
    }

    /// Floors `seat`'s regrets at zero and sets its current policy by regret matching.
    fn update_current(&mut self, seat: Seat) {
        let tree = Arc::clone(&self.tree);
        for set in tree.sets.iter().filter(|s| s.seat == seat) {
            let range = set.first as usize..set.first as usize + set.len as usize;
            let regrets = &mut self.regrets[range.clone()];
            for r in regrets.iter_mut() {
                *r = r.max(0.0);
            }
            let total: f64 = regrets.iter().sum();
            let current = &mut self.current[range];
            for (p, r) in current.iter_mut().zip(regrets.iter()) {
                *p = if total > 0.0 {
                    r / total
                } else {
                    1.0 / set.len as f64
                };
            }
        }
    }

    /// `seat`'s value at node `n` under the current policy, updating its regrets and average.
    fn traverse(&mut self, tree: &Tree, n: u32, seat: Seat, reach: &Reach) -> f64 {
        let node = tree.nodes[n as usize];
        let players = tree.num_players;
        match node.kind {
            Kind::Terminal(r) => tree.returns[r as usize + seat],
            Kind::Chance => {
                let mut v = 0.0;
                for e in tree.node_edges(n) {
                    let mut next = *reach;
                    next[players] *= e.probability;
                    v += e.probability * self.traverse(tree, e.child, seat, &next);
                }
                v
            }
            Kind::Decision(s) => {
                if reach[..players].iter().all(|&r| r == 0.0) {
                    return 0.0;
                }
                self.visits += 1;
                let set = tree.sets[s as usize];
                let first = set.first as usize;
                let mover = set.seat;
                let edges = tree.node_edges(n);
                let mut v = 0.0;
                let mut children = if mover == seat {
                    Vec::with_capacity(edges.len())
                } else {
                    Vec::new()
                };
                for (j, e) in edges.iter().enumerate() {
                    let p = self.current[first + j];
                    let mut next = *reach;
                    next[mover] *= p;
                    let child = self.traverse(tree, e.child, seat, &next);
                    v += p * child;
                    if mover == seat {
                        children.push(child);
                    }
                }
                if mover == seat {
                    let others: f64 = (0..=players)
                        .filter(|&i| i != mover)
                        .map(|i| reach[i])
                        .product();
                    let weight = self.iterations as f64 * reach[mover];
                    for (j, child) in children.iter().enumerate() {
                        self.regrets[first + j] += others * (child - v);
                        self.cumulative[first + j] += weight * self.current[first + j];
                    }
                }
                v
            }
        }
    }

    /// The average policy, aligned with the tree's actions: each information set's
    /// cumulative strategy normalised, uniform where it is all zero.
    pub fn average(&self) -> Vec<f64> {
        let mut out = self.tree.uniform();
        for set in &self.tree.sets {
            let range = set.first as usize..set.first as usize + set.len as usize;
            let total: f64 = self.cumulative[range.clone()].iter().sum();
            if total > 0.0 {
                for i in range {
                    out[i] = self.cumulative[i] / total;
                }
            }
        }
        out
    }

    /// The current policy (regret matching of the regrets), aligned with the tree's actions.
    pub fn current(&self) -> &[f64] {
        &self.current
    }

    /// The exploitability of the average policy.
    pub fn exploitability(&self) -> Exploitability {
        exploitability(&self.tree, &self.average())
    }
}
