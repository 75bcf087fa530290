//! Belief over worlds: a particle filter for one seat over the history of a game with
//! explicit chance, whose weighted worlds an ISMCTS can search instead of worlds dealt
//! uniformly by [`Game::determinize`].
//!
//! A particle is a full state the searching seat cannot tell from the true one. The filter
//! starts every particle as a determinization of the game's start, then follows the history
//! step by step, given only what the seat saw: its observation tensor after each step, and its
//! own actions. At every step each particle takes one of the moves that lead, in its world, to
//! exactly the observation the seat saw:
//! - at a chance node, an outcome among those consistent with that observation, drawn by the
//!   outcomes' probabilities (an outcome the seat saw is forced, an unseen one resampled); the
//!   particle's weight is multiplied by the probability of the consistent outcomes;
//! - at an opponent's decision, an action consistent with that observation (the one the seat
//!   saw played, or any it could not tell apart), drawn by the opponent model; the weight is
//!   multiplied by the model's probability of those actions in the particle (zero when none is
//!   legal there: a particle whose opponent plays a card it does not hold dies);
//! - at the seat's own decision, its own action.
//!
//! A particle that dies (weight zero) is dealt again, [`Game::determinize`] of the step's
//! state for the seat, with the mean weight of the living: it forgets what happened before
//! but fits all that is seen now. When the effective sample size falls below half the
//! particles, they are resampled (systematic resampling). Opponent models ([`BeliefModel`]):
//! uniformly random among the legal actions (the evidence is then only what is legal), or a
//! tremble around the game's cheap policy ([`Game::policy_probabilities`]).
//!
//! The filter reads the seat's observation tensors, so it assumes (as the search's keys do)
//! that a tensor tells apart every two observations that differ. Everything is drawn from
//! the filter's own seeded generator.

use crate::actions::{Action, ActionSet};
use crate::game::{Game, Seat};
use crate::rng::Rng;

/// The opponent model a belief weighs the opponents' decisions with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BeliefModel {
    /// No belief: every world is [`Game::determinize`] of the root (plain ISMCTS).
    #[default]
    None,
    /// Opponents play uniformly at random among their legal actions.
    Uniform,
    /// Opponents play the game's cheap policy ([`Game::policy_probabilities`]) or, with
    /// probability [`TREMBLE`], uniformly at random.
    Rollout,
}

/// The chance that the `Rollout` model's opponent plays a uniformly random legal action
/// instead of its policy's.
pub const TREMBLE: f64 = 0.1;

impl BeliefModel {
    /// Every model, in the order of their names.
    pub const ALL: [BeliefModel; 3] = [
        BeliefModel::None,
        BeliefModel::Uniform,
        BeliefModel::Rollout,
    ];

    /// The model's name, as the Python API takes it.
    pub fn name(self) -> &'static str {
        match self {
            BeliefModel::None => "none",
            BeliefModel::Uniform => "uniform",
            BeliefModel::Rollout => "rollout",
        }
    }

    /// The model called `name`, if any.
    pub fn from_name(name: &str) -> Option<BeliefModel> {
        BeliefModel::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The model's probability of each action of `legal` in `s` (in the order of `legal`).
    fn probabilities<G: Game>(
        self,
        game: &G,
        s: &G::State,
        legal: &ActionSet,
    ) -> Vec<(Action, f64)> {
        let uniform = 1.0 / legal.len().max(1) as f64;
        match self {
            BeliefModel::None | BeliefModel::Uniform => {
                legal.iter().map(|a| (a, uniform)).collect()
            }
            BeliefModel::Rollout => game
                .policy_probabilities(s, legal)
                .into_iter()
                .map(|(a, p)| (a, (1.0 - TREMBLE) * p + TREMBLE * uniform))
                .collect(),
        }
    }
}

/// How a search builds its belief: the model and the number of particles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Belief {
    /// The opponent model (`None`: no belief).
    pub model: BeliefModel,
    /// Particles the filter keeps, from 1 to [`MAX_PARTICLES`].
    pub particles: usize,
}

/// The most particles a belief may keep.
pub const MAX_PARTICLES: usize = 100_000;

impl Default for Belief {
    fn default() -> Self {
        Belief {
            model: BeliefModel::None,
            particles: 64,
        }
    }
}

/// A uniform draw from `[0, 1)`.
fn unit(rng: &mut Rng) -> f64 {
    f64::from(rng.next_u32()) / 4_294_967_296.0
}

/// The index drawn from `weights` (not all zero) in proportion to them.
fn draw_weighted(weights: impl Iterator<Item = f64> + Clone, rng: &mut Rng) -> usize {
    let total: f64 = weights.clone().sum();
    let mut u = unit(rng) * total;
    let mut last = 0;
    for (i, w) in weights.enumerate() {
        if w > 0.0 {
            last = i;
            if u < w {
                return i;
            }
            u -= w;
        }
    }
    last
}

/// One seat's weighted worlds, followed step by step through a game's history.
#[derive(Clone, Debug)]
pub struct ParticleFilter<G: Game> {
    seat: Seat,
    model: BeliefModel,
    particles: Vec<G::State>,
    weights: Vec<f64>,
    rng: Rng,
    /// The seat's observation tensor after the step (what it saw), and a particle's.
    seen: Vec<f32>,
    tensor: Vec<f32>,
}

impl<G: Game> ParticleFilter<G> {
    /// `belief.particles` worlds for `seat` at `start` (the game's start: nothing seen yet
    /// but the seat's own view), each [`Game::determinize`] of it, equally weighted.
    pub fn new(game: &G, start: &G::State, seat: Seat, belief: Belief, seed: u64) -> Self {
        let mut rng = Rng::new(seed);
        let k = belief.particles.clamp(1, MAX_PARTICLES);
        let size = game.observation_shape().iter().product();
        ParticleFilter {
            seat,
            model: belief.model,
            particles: (0..k)
                .map(|_| game.determinize(start, seat, &mut rng))
                .collect(),
            weights: vec![1.0 / k as f64; k],
            rng,
            seen: vec![0.0; size],
            tensor: vec![0.0; size],
        }
    }

    /// The seat the filter is for.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The worlds and their weights (summing to one).
    pub fn worlds(&self) -> impl Iterator<Item = (&G::State, f64)> {
        self.particles.iter().zip(self.weights.iter().copied())
    }

    /// Follows one step of the game: in `before` (a state the seat cannot tell from the
    /// true one before the step), `action` was played, leading to `after` (ditto). Only the
    /// seat's view of `after` is read, and `action` only when it is the seat's own.
    pub fn step(&mut self, game: &G, before: &G::State, action: Action, after: &G::State) {
        let chance = game.is_chance_node(before);
        let own = game.current_player(before) == Some(self.seat);
        self.seen.fill(0.0);
        game.observation_tensor(after, self.seat, &mut self.seen);
        let mut dead = Vec::new();
        for i in 0..self.particles.len() {
            let p = &self.particles[i];
            let moves: Vec<(Action, f64)> = if chance {
                game.chance_outcomes(p)
            } else if own {
                let legal = game.legal_actions(p);
                if legal.contains(action as usize) {
                    vec![(action, 1.0)]
                } else {
                    Vec::new()
                }
            } else {
                let legal = game.legal_actions(p);
                self.model.probabilities(game, p, &legal)
            };
            let mut fits: Vec<(G::State, f64)> = Vec::new();
            for (m, prob) in moves {
                if prob <= 0.0 {
                    continue;
                }
                let mut q = p.clone();
                game.apply(&mut q, m);
                self.tensor.fill(0.0);
                game.observation_tensor(&q, self.seat, &mut self.tensor);
                if self.tensor == self.seen {
                    fits.push((q, prob));
                }
            }
            let mass: f64 = fits.iter().map(|f| f.1).sum();
            if fits.is_empty() || mass <= 0.0 {
                dead.push(i);
                continue;
            }
            let k = draw_weighted(fits.iter().map(|f| f.1), &mut self.rng);
            self.particles[i] = fits.swap_remove(k).0;
            self.weights[i] *= mass;
        }
        self.renew(game, after, &dead);
    }

    /// Deals the dead particles again from `now` for the seat (with the mean weight of the
    /// living, or all equal if none lives), normalises the weights and resamples when the
    /// effective sample size is below half the particles.
    fn renew(&mut self, game: &G, now: &G::State, dead: &[usize]) {
        let k = self.particles.len();
        let living = k - dead.len();
        for &i in dead {
            self.weights[i] = 0.0;
        }
        let total: f64 = self.weights.iter().sum();
        let fresh = if living == 0 || total <= 0.0 || !total.is_finite() {
            self.weights.fill(1.0);
            1.0
        } else {
            total / living as f64
        };
        for &i in dead {
            self.particles[i] = game.determinize(now, self.seat, &mut self.rng);
            self.weights[i] = fresh;
        }
        let total: f64 = self.weights.iter().sum();
        for w in &mut self.weights {
            *w /= total;
        }
        let ess = 1.0 / self.weights.iter().map(|w| w * w).sum::<f64>();
        if ess < k as f64 / 2.0 {
            self.resample();
        }
    }

    /// Systematic resampling: `k` particles drawn in proportion to their weights with one
    /// uniform offset, then weighted equally.
    fn resample(&mut self) {
        let k = self.particles.len();
        let step = 1.0 / k as f64;
        let mut u = unit(&mut self.rng) * step;
        let mut chosen = Vec::with_capacity(k);
        let (mut i, mut cum) = (0, self.weights[0]);
        for _ in 0..k {
            while u > cum && i + 1 < k {
                i += 1;
                cum += self.weights[i];
            }
            chosen.push(self.particles[i].clone());
            u += step;
        }
        self.particles = chosen;
        self.weights.fill(step);
    }
}

/// Weighted worlds to draw the roots of a search from.
#[derive(Clone, Debug)]
pub struct Worlds<S> {
    states: Vec<S>,
    /// Cumulative weights, the last one the total.
    cumulative: Vec<f64>,
}

impl<S: Clone> Worlds<S> {
    /// The worlds of a filter.
    pub fn of<G: Game<State = S>>(filter: &ParticleFilter<G>) -> Self {
        let mut total = 0.0;
        let (states, cumulative) = filter
            .worlds()
            .map(|(s, w)| {
                total += w;
                (s.clone(), total)
            })
            .unzip();
        Worlds { states, cumulative }
    }

    /// The given worlds, equally weighted (none: `None`).
    pub fn equal(states: Vec<S>) -> Option<Self> {
        (!states.is_empty()).then(|| Worlds {
            cumulative: (1..=states.len()).map(|k| k as f64).collect(),
            states,
        })
    }

    /// A world drawn in proportion to its weight.
    pub fn draw(&self, rng: &mut Rng) -> S {
        let total = self.cumulative.last().copied().unwrap_or(0.0);
        let u = unit(rng) * total;
        let i = self.cumulative.partition_point(|&c| c <= u);
        self.states[i.min(self.states.len() - 1)].clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::duo::{matches, Duo, State as DuoState, DRAW};
    use crate::session::Session;
    use serde_json::json;
    use std::sync::Arc;

    fn duo(players: usize) -> Arc<Duo> {
        let mut o = crate::options::Options::new();
        o.insert("players".into(), json!(players));
        o.insert("chance".into(), json!("explicit"));
        o.insert("rounds".into(), json!(1));
        Arc::new(Duo::from_options(&o).expect("valid options"))
    }

    fn belief(model: BeliefModel, particles: usize) -> Belief {
        Belief { model, particles }
    }

    /// A game played from `seed` by the rollout policy, chance drawn by its probabilities,
    /// until `stop` says so (given the session) or the game ends.
    fn played(g: &Arc<Duo>, seed: u64, stop: impl Fn(&Session<Duo>) -> bool) -> Session<Duo> {
        let mut s = Session::new(g.clone(), seed);
        let mut rng = Rng::new(seed ^ 0xF00D);
        while !s.is_terminal() && !stop(&s) {
            let a = if s.is_chance_node() {
                let outcomes = s.chance_outcomes().expect("a chance node");
                outcomes[rng.index(outcomes.len())].0
            } else {
                g.rollout_action(s.state(), s.legal_actions(), &mut rng)
            };
            s.apply(i64::from(a)).expect("legal");
        }
        s
    }

    fn tensor(g: &Duo, s: &DuoState, seat: Seat) -> Vec<f32> {
        let mut t = vec![0.0; g.observation_shape().iter().product()];
        g.observation_tensor(s, seat, &mut t);
        t
    }

    #[test]
    fn every_particle_fits_what_the_seat_saw_at_every_step() {
        let g = duo(3);
        for model in [BeliefModel::Uniform, BeliefModel::Rollout] {
            let s = played(&g, 4, |_| false);
            let mut filter =
                ParticleFilter::new(&*g, &g.new_state(Rng::new(4)), 1, belief(model, 16), 9);
            let mut now = g.new_state(Rng::new(4));
            for &a in s.history() {
                let before = now;
                g.apply(&mut now, a);
                filter.step(&*g, &before, a, &now);
                let seen = tensor(&g, &now, 1);
                for (w, weight) in filter.worlds() {
                    assert_eq!(tensor(&g, w, 1), seen);
                    assert!(weight > 0.0);
                }
                let total: f64 = filter.worlds().map(|w| w.1).sum();
                assert!((total - 1.0).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn a_belief_goes_on_from_the_last_as_if_built_afresh_and_needs_explicit_chance() {
        let g = duo(2);
        let s = played(&g, 7, |s| {
            s.history().len() > 80 && s.current_player() == Some(0)
        });
        let b = belief(BeliefModel::Rollout, 8);
        let states = |x: &Session<Duo>| -> Vec<_> {
            let f = x.belief(0, b).expect("a game from its seed");
            f.worlds().map(|(w, p)| (*w, p)).collect()
        };
        // The same game, its belief asked for along the way (kept and gone on from).
        let mut stepped = Session::new(g.clone(), 7);
        for (i, &a) in s.history().iter().enumerate() {
            if i % 20 == 0 && stepped.current_player() == Some(0) {
                states(&stepped);
            }
            stepped.apply(i64::from(a)).expect("legal");
        }
        assert_eq!(states(&stepped), states(&s));
        assert_eq!(states(&s), states(&s));
        let seeded =
            Arc::new(Duo::from_options(&crate::options::Options::new()).expect("defaults"));
        let err = Session::new(seeded, 1).belief(0, b).expect_err("seeded");
        assert!(err.to_string().contains("chance='explicit'"), "{err}");
    }

    /// Seat 1 drew in `s` just now: the weighted share of `worlds` in which a card of its
    /// hand fitted a top (the drawn card is not yet dealt: the hand is the one it drew with).
    fn fitting_share<'a>(s: &DuoState, worlds: impl Iterator<Item = (&'a DuoState, f64)>) -> f64 {
        let fits = |w: &DuoState| {
            w.hands[1]
                .iter()
                .any(|c| s.tops.iter().any(|&t| matches(c, t as usize)))
        };
        worlds.filter(|(w, _)| fits(w)).map(|(_, p)| p).sum()
    }

    #[test]
    fn after_a_draw_the_rollout_model_believes_the_drawer_had_nothing_that_fit() {
        // Games played by the rollout policy (as a greedy shedder plays): stop right after
        // seat 1 chose to draw, before its card is dealt. Plain determinization deals its hand
        // at random; the belief weighs those hands by how likely drawing was with them.
        let g = duo(2);
        let (mut plain, mut believed, mut positions) = (0.0, 0.0, 0);
        for seed in 0..12 {
            let s = played(&g, seed, |s| {
                s.history().len() > 30
                    && s.history().last() == Some(&DRAW)
                    && s.state().current == 1
            });
            if s.is_terminal() {
                continue;
            }
            positions += 1;
            let worlds =
                ParticleFilter::new(&*g, s.state(), 0, belief(BeliefModel::None, 400), seed);
            plain += fitting_share(s.state(), worlds.worlds());
            let filter = s
                .belief(0, belief(BeliefModel::Rollout, 400))
                .expect("explicit");
            believed += fitting_share(s.state(), filter.worlds());
        }
        assert!(positions >= 6, "{positions}");
        assert!(
            believed < plain / 2.0,
            "{believed} {plain} over {positions}"
        );
    }

    #[test]
    fn the_belief_and_its_search_read_nothing_the_seat_did_not_see() {
        // Two games seat 0 cannot tell apart: the second deals a card of seat 1's hand (never
        // played) where the first dealt a card still in the draw pile, and the other way round.
        let g = duo(2);
        let s = played(&g, 11, |s| {
            s.history().len() > 30 && s.current_player() == Some(0)
        });
        let (c, d) = (
            s.state().hands[1].first().expect("a card") as Action,
            s.state().draw.first().expect("a card") as Action,
        );
        let mut other = Session::new(g.clone(), 11);
        for &a in s.history() {
            let swapped = match a {
                _ if !other.is_chance_node() => a,
                a if a == c => d,
                a if a == d => c,
                a => a,
            };
            other
                .apply(i64::from(swapped))
                .expect("legal in the other game");
        }
        assert_ne!(s.state().hands[1], other.state().hands[1]);
        assert_eq!(tensor(&g, s.state(), 0), tensor(&g, other.state(), 0));
        for model in [BeliefModel::Uniform, BeliefModel::Rollout] {
            let b = belief(model, 16);
            let worlds = |x: &Session<Duo>| -> Vec<_> {
                let f = x.belief(0, b).expect("explicit");
                f.worlds().map(|(w, p)| (*w, p)).collect()
            };
            assert_eq!(worlds(&s), worlds(&other));
            let config = crate::search::IsmctsConfig {
                iterations: 200,
                seed: 3,
                belief: b,
                ..Default::default()
            };
            let never = std::sync::atomic::AtomicBool::new(false);
            let found = s.ismcts(&config, &never).expect("explicit");
            assert!(found.is_some());
            assert_eq!(found, other.ismcts(&config, &never).expect("explicit"));
        }
    }

    /// Along a game played by `game`'s rollout policy: the policy's probabilities sum to one
    /// over the legal actions, and its moves follow them (4000 draws a position).
    fn policy_probabilities_describe_the_rollout_policy<G: Game>(game: &G, seed: u64) {
        let mut s = game.new_state(Rng::new(seed));
        let mut rng = Rng::new(seed);
        let mut checked = 0;
        while !game.legal_actions(&s).is_empty() && checked < 12 {
            let legal = game.legal_actions(&s);
            if game.current_player(&s).is_some() && legal.len() > 1 {
                let probs = game.policy_probabilities(&s, &legal);
                assert_eq!(
                    probs.iter().map(|p| p.0).collect::<Vec<_>>(),
                    legal.iter().collect::<Vec<_>>()
                );
                assert!((probs.iter().map(|p| p.1).sum::<f64>() - 1.0).abs() < 1e-9);
                let mut counts = vec![0u32; probs.len()];
                for _ in 0..4000 {
                    let a = game.rollout_action(&s, &legal, &mut rng);
                    counts[probs.iter().position(|p| p.0 == a).expect("legal")] += 1;
                }
                for (c, (a, p)) in counts.iter().zip(&probs) {
                    let f = f64::from(*c) / 4000.0;
                    assert!((f - p).abs() < 0.035, "action {a}: played {f}, said {p}");
                }
                checked += 1;
            }
            let a = game.rollout_action(&s, &legal, &mut rng);
            game.apply(&mut s, a);
        }
        assert!(checked > 0);
    }

    #[test]
    fn the_rollout_models_are_the_rollout_policies() {
        let duell = crate::games::duell_der_drachen::DuellDerDrachen::from_options(
            &crate::options::Options::new(),
        )
        .expect("defaults");
        for seed in 0..3 {
            policy_probabilities_describe_the_rollout_policy(&*duo(2), seed);
            policy_probabilities_describe_the_rollout_policy(&duell, seed);
        }
    }
}
