//! Exact best responses and exploitability over a whole [`Tree`].
//!
//! A policy is one probability per information set and legal action, aligned with
//! [`Tree::actions`]. A seat's best response chooses one action per information set of its
//! own, the one that maximises the counterfactual value summed over the histories in the
//! set (each weighted by the reach of chance and the other seats), as OpenSpiel's
//! `BestResponsePolicy` does; its value is the seat's expected return when it plays that
//! against the policy. `exploitability = (Σ best-response values − Σ policy values) / seats`,
//! OpenSpiel's `exploitability` (its NashConv over the number of players; the games are
//! zero-sum, so the policy's values sum to zero).

use super::tree::{Kind, Tree};
use crate::game::Seat;

/// What a policy is worth.
#[derive(Clone, Debug, PartialEq)]
pub struct Exploitability {
    /// Each seat's expected return when every seat plays the policy.
    pub policy_values: Vec<f64>,
    /// Each seat's expected return when it best-responds to the others' policy.
    pub best_response_values: Vec<f64>,
    /// Σ (best-response value − policy value) over the seats.
    pub nash_conv: f64,
    /// `nash_conv / seats`.
    pub exploitability: f64,
}

/// The exploitability of `policy` (aligned with `tree.actions`).
pub fn exploitability(tree: &Tree, policy: &[f64]) -> Exploitability {
    let policy_values = values(tree, policy);
    let best_response_values: Vec<f64> = (0..tree.num_players)
        .map(|seat| best_response_value(tree, policy, seat))
        .collect();
    let nash_conv: f64 = best_response_values
        .iter()
        .zip(&policy_values)
        .map(|(b, v)| b - v)
        .sum();
    Exploitability {
        exploitability: nash_conv / tree.num_players as f64,
        policy_values,
        best_response_values,
        nash_conv,
    }
}

/// The weight of edge `j` of a node of kind `kind` under `policy` (1 at `free`'s decisions).
fn weight(
    tree: &Tree,
    policy: &[f64],
    kind: Kind,
    j: usize,
    probability: f64,
    free: Option<Seat>,
) -> f64 {
    match kind {
        Kind::Chance => probability,
        Kind::Decision(s) => {
            let set = tree.sets[s as usize];
            if Some(set.seat) == free {
                1.0
            } else {
                policy[set.first as usize + j]
            }
        }
        Kind::Terminal(_) => 0.0,
    }
}

/// Every seat's expected return under `policy`, from the root.
pub fn values(tree: &Tree, policy: &[f64]) -> Vec<f64> {
    let seats = tree.num_players;
    let mut v = vec![0.0; tree.nodes.len() * seats];
    for n in (0..tree.nodes.len()).rev() {
        let node = tree.nodes[n];
        if let Kind::Terminal(r) = node.kind {
            v[n * seats..(n + 1) * seats]
                .copy_from_slice(&tree.returns[r as usize..r as usize + seats]);
            continue;
        }
        for (j, e) in tree.node_edges(n as u32).iter().enumerate() {
            let w = weight(tree, policy, node.kind, j, e.probability, None);
            for s in 0..seats {
                v[n * seats + s] += w * v[e.child as usize * seats + s];
            }
        }
    }
    v[..seats].to_vec()
}

/// `seat`'s best-response value against `policy`.
pub fn best_response_value(tree: &Tree, policy: &[f64], seat: Seat) -> f64 {
    let mut br = BestResponse::new(tree, policy, seat);
    br.value_of(0)
}

/// One seat's best response being computed: values of nodes and choices of information sets,
/// each computed once.
struct BestResponse<'t> {
    tree: &'t Tree,
    policy: &'t [f64],
    seat: Seat,
    /// The reach of chance and the other seats at each node.
    reach: Vec<f64>,
    value: Vec<f64>,
    choice: Vec<Option<usize>>,
}

impl<'t> BestResponse<'t> {
    /// The walk for `seat` against `policy`, with every node's reach by the others and chance.
    fn new(tree: &'t Tree, policy: &'t [f64], seat: Seat) -> Self {
        let mut reach = vec![0.0; tree.nodes.len()];
        reach[0] = 1.0;
        for n in 0..tree.nodes.len() {
            let kind = tree.nodes[n].kind;
            for (j, e) in tree.node_edges(n as u32).iter().enumerate() {
                reach[e.child as usize] =
                    reach[n] * weight(tree, policy, kind, j, e.probability, Some(seat));
            }
        }
        BestResponse {
            tree,
            policy,
            seat,
            reach,
            value: vec![f64::NAN; tree.nodes.len()],
            choice: vec![None; tree.sets.len()],
        }
    }

    /// The seat's value at node `n` when it best-responds from there on.
    fn value_of(&mut self, n: u32) -> f64 {
        let known = self.value[n as usize];
        if !known.is_nan() {
            return known;
        }
        let tree = self.tree;
        let node = tree.nodes[n as usize];
        let v = match node.kind {
            Kind::Terminal(r) => tree.returns[r as usize + self.seat],
            Kind::Decision(s) if tree.sets[s as usize].seat == self.seat => {
                let j = self.choose(s);
                self.value_of(tree.node_edges(n)[j].child)
            }
            kind => {
                let mut v = 0.0;
                for (j, e) in tree.node_edges(n).iter().enumerate() {
                    let w = weight(tree, self.policy, kind, j, e.probability, None);
                    if w != 0.0 {
                        v += w * self.value_of(e.child);
                    }
                }
                v
            }
        };
        self.value[n as usize] = v;
        v
    }

    /// The best action (its index) at the seat's information set `s`: the largest sum over
    /// its histories of their reach times the action's value (the first such action).
    fn choose(&mut self, s: u32) -> usize {
        if let Some(j) = self.choice[s as usize] {
            return j;
        }
        let tree = self.tree;
        let len = tree.sets[s as usize].len as usize;
        let mut totals = vec![0.0; len];
        for &h in tree.set_members(s) {
            let reach = self.reach[h as usize];
            for (j, e) in tree.node_edges(h).iter().enumerate() {
                totals[j] += reach * self.value_of(e.child);
            }
        }
        let mut best = 0;
        for (j, &t) in totals.iter().enumerate() {
            if t > totals[best] {
                best = j;
            }
        }
        self.choice[s as usize] = Some(best);
        best
    }
}

/// `seat`'s best response to `policy` as a strategy: its value, and for every information set
/// the index of the action it plays (`None` at the other seats' sets). At a set the policy
/// and chance never reach, where every action is worth the same nothing, it plays the action
/// best summed over the set's histories as if each were reached (a sensible answer should
/// the policy ever go there, as a deviation from it could).
pub fn best_response(tree: &Tree, policy: &[f64], seat: Seat) -> (f64, Vec<Option<usize>>) {
    let mut br = BestResponse::new(tree, policy, seat);
    let value = br.value_of(0);
    for s in 0..tree.sets.len() as u32 {
        if tree.sets[s as usize].seat != seat || br.choice[s as usize].is_some() {
            continue;
        }
        let reached = tree
            .set_members(s)
            .iter()
            .any(|&h| br.reach[h as usize] > 0.0);
        if reached {
            br.choose(s);
            continue;
        }
        let len = tree.sets[s as usize].len as usize;
        let mut totals = vec![0.0; len];
        for &h in tree.set_members(s) {
            for (j, e) in tree.node_edges(h).iter().enumerate() {
                totals[j] += br.value_of(e.child);
            }
        }
        let mut best = 0;
        for (j, &t) in totals.iter().enumerate() {
            if t > totals[best] {
                best = j;
            }
        }
        br.choice[s as usize] = Some(best);
    }
    (value, br.choice)
}

/// The line of play where `seat` does best against the others under `profile` (every seat's
/// probabilities, aligned with `tree.actions`; the seat's own included): of the ends reached
/// with a probability above zero, those where `seat`'s return is highest (within `1e-9`), and
/// of them the most probable. Its node, and its probability under the profile and chance.
pub fn principal_line(tree: &Tree, profile: &[f64], seat: Seat) -> Option<(u32, f64)> {
    let mut reach = vec![0.0; tree.nodes.len()];
    reach[0] = 1.0;
    let mut best: Option<(u32, f64, f64)> = None;
    for n in 0..tree.nodes.len() {
        let node = tree.nodes[n];
        if reach[n] <= 0.0 {
            continue;
        }
        if let Kind::Terminal(r) = node.kind {
            let ret = tree.returns[r as usize + seat];
            let better = match best {
                None => true,
                Some((_, b_ret, b_reach)) => {
                    ret > b_ret + 1e-9 || (ret >= b_ret - 1e-9 && reach[n] > b_reach)
                }
            };
            if better {
                best = Some((n as u32, ret, reach[n]));
            }
            continue;
        }
        for (j, e) in tree.node_edges(n as u32).iter().enumerate() {
            reach[e.child as usize] =
                reach[n] * weight(tree, profile, node.kind, j, e.probability, None);
        }
    }
    best.map(|(n, _, p)| (n, p))
}
