//! Opponents a batch plays natively for the seats other than the learner's (see
//! [`crate::batch::Batch::step_seats`]): uniformly random moves, ISMCTS, a trained policy
//! network, or a fixed strategy that ignores the game, each drawing any randomness from the
//! game's own generator so that a game's moves follow from its seed, whatever the threads.
//!
//! A pool ([`OpponentPool`]) lists entries, each one opponent per other seat (in seat order,
//! the learner's seat left out), or none where the caller answers that seat itself; every
//! game that starts plays one entry, drawn from its seed by [`pool_entry`].

use crate::actions::{Action, ActionSet};
use crate::error::{Error, Result};
use crate::game::{Game, Seat};
use crate::policy::PolicyNet;
use crate::rng::{derive_seed, Rng};
use crate::search::{ismcts, IsmctsConfig};
use crate::workers::MIN_GAMES_PER_THREAD;
use std::sync::Arc;

/// One opponent the engine plays by itself.
#[derive(Clone, Debug)]
pub enum Opponent {
    /// A uniformly random legal move.
    Random,
    /// The move ISMCTS visits most from the seat's information (the only legal move at once,
    /// without a search); the search's seed is drawn from the game's generator.
    Ismcts(IsmctsConfig),
    /// A trained policy network of the seat's observation tensor: greedy, or sampling (one
    /// uniform draw from the game's generator a move).
    Policy {
        /// The network.
        net: Arc<PolicyNet>,
        /// Whether to sample from the policy's probabilities instead of taking its best move.
        sample: bool,
    },
    /// Always the legal action with the lowest id (`first-legal`).
    FirstLegal,
    /// Always the legal action with the highest id (`last-legal`).
    LastLegal,
    /// The first legal action in the fixed order of the keys `derive_seed(order, action)`
    /// (`fixed-order:order=N`).
    FixedOrder(u64),
}

/// Per-thread buffers of the opponents' forward passes, made once and reused on every move.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    /// The seat's observation tensor.
    tensor: Vec<f32>,
    /// A network's layers.
    net: Vec<f32>,
}

impl Scratch {
    /// Buffers for a game of `observation_size` floats and networks of `net_len` scratch.
    pub fn new(observation_size: usize, net_len: usize) -> Self {
        Scratch {
            tensor: vec![0.0; observation_size],
            net: vec![0.0; net_len],
        }
    }

    /// Buffers as large as both these and `other`.
    pub fn at_least(&self, other: &Scratch) -> Scratch {
        Scratch::new(
            self.tensor.len().max(other.tensor.len()),
            self.net.len().max(other.net.len()),
        )
    }
}

/// A uniform draw from `[0, 1)` with 53 random bits.
fn unit(rng: &mut Rng) -> f64 {
    let hi = u64::from(rng.next_u32() >> 5);
    let lo = u64::from(rng.next_u32() >> 6);
    ((hi << 26) | lo) as f64 / (1u64 << 53) as f64
}

impl Opponent {
    /// Games a thread should have to be worth its share when this opponent moves in them
    /// (a search is worth a thread by itself; a random move is cheaper than handing work over).
    pub fn min_games_per_thread(&self) -> usize {
        match self {
            Opponent::Random
            | Opponent::FirstLegal
            | Opponent::LastLegal
            | Opponent::FixedOrder(_) => MIN_GAMES_PER_THREAD,
            Opponent::Policy { .. } => 8,
            Opponent::Ismcts(_) => 1,
        }
    }

    /// Floats of scratch a move needs beyond the observation.
    fn net_len(&self) -> usize {
        match self {
            Opponent::Policy { net, .. } => net.scratch_len(),
            _ => 0,
        }
    }

    /// The move of `seat`, the player to move in `state` (`legal` its moves, not empty),
    /// drawing from `rng`; `None` if the opponent cannot choose (a network of another size).
    pub fn choose<G: Game>(
        &self,
        game: &G,
        state: &G::State,
        seat: Seat,
        legal: &ActionSet,
        rng: &mut Rng,
        scratch: &mut Scratch,
    ) -> Option<Action> {
        match self {
            Opponent::Random => legal.nth(rng.index(legal.len().max(1))),
            Opponent::Ismcts(config) => {
                if legal.len() == 1 {
                    return legal.nth(0);
                }
                let seed = (u64::from(rng.next_u32()) << 32) | u64::from(rng.next_u32());
                let config = IsmctsConfig { seed, ..*config };
                ismcts(game, state, &config).map(|r| r.action)
            }
            Opponent::Policy { net, sample } => {
                let draw = sample.then(|| unit(rng));
                let tensor = scratch.tensor.get_mut(..net.inputs())?;
                tensor.fill(0.0); // a game writes only the entries it sets
                game.observation_tensor(state, seat, tensor);
                net.choose(tensor, legal, draw, &mut scratch.net)
            }
            Opponent::FirstLegal => legal.iter().next(),
            Opponent::LastLegal => legal.iter().last(),
            Opponent::FixedOrder(order) => legal
                .iter()
                .min_by_key(|&a| derive_seed(*order, u64::from(a))),
        }
    }
}

/// Entries of opponents, one drawn for each game that starts.
#[derive(Clone, Debug)]
pub struct OpponentPool {
    /// Each entry: one opponent per other seat in seat order (`None`: the caller's).
    entries: Vec<Arc<[Option<Opponent>]>>,
}

/// The entry of a pool of `len` entries that the game started from `game_seed` plays: `0` for
/// one entry, else `derive_seed(game_seed, 0x0990) % len` (as `regalia.seat_batch` draws it).
pub fn pool_entry(game_seed: u64, len: usize) -> usize {
    if len <= 1 {
        return 0;
    }
    (derive_seed(game_seed, 0x0990) % len as u64) as usize
}

impl OpponentPool {
    /// A pool of `entries` (at least one).
    pub fn new(entries: Vec<Vec<Option<Opponent>>>) -> Result<Self> {
        if entries.is_empty() {
            return Err(Error::InvalidArgument(
                "an opponent pool needs at least one entry".into(),
            ));
        }
        Ok(OpponentPool {
            entries: entries.into_iter().map(Arc::from).collect(),
        })
    }

    /// Refuses a pool that does not fit a game of `num_players` seats, observations of
    /// `observation_size` floats and `num_actions` actions, naming the entry and what differs.
    pub fn check(
        &self,
        num_players: usize,
        observation_size: usize,
        num_actions: usize,
    ) -> Result<()> {
        for (k, entry) in self.entries.iter().enumerate() {
            if entry.len() + 1 != num_players {
                return Err(Error::InvalidArgument(format!(
                    "entry {k} of the opponent pool has {} opponents; a game of {num_players} seats needs {}",
                    entry.len(),
                    num_players.saturating_sub(1)
                )));
            }
            for opponent in entry.iter().flatten() {
                let Opponent::Policy { net, .. } = opponent else {
                    continue;
                };
                if (net.inputs(), net.outputs()) != (observation_size, num_actions) {
                    return Err(Error::InvalidArgument(format!(
                        "entry {k} of the opponent pool: a policy network of {} inputs and {} actions; this game has observations of {observation_size} floats and {num_actions} actions",
                        net.inputs(),
                        net.outputs()
                    )));
                }
            }
        }
        Ok(())
    }

    /// The entry the game started from `game_seed` plays.
    pub fn draw(&self, game_seed: u64) -> Arc<[Option<Opponent>]> {
        let k = pool_entry(game_seed, self.entries.len());
        self.entries[k.min(self.entries.len() - 1)].clone()
    }

    /// Every opponent of every entry.
    fn opponents(&self) -> impl Iterator<Item = &Opponent> {
        self.entries.iter().flat_map(|e| e.iter().flatten())
    }

    /// The fewest games a thread should have (see [`Opponent::min_games_per_thread`]).
    pub fn min_games_per_thread(&self) -> usize {
        let fewest = self.opponents().map(Opponent::min_games_per_thread).min();
        fewest.unwrap_or(MIN_GAMES_PER_THREAD)
    }

    /// Scratch for the pool's opponents in a game of `observation_size` floats.
    pub fn scratch(&self, observation_size: usize) -> Scratch {
        let net_len = self.opponents().map(Opponent::net_len).max().unwrap_or(0);
        Scratch::new(observation_size, net_len)
    }
}

/// Seat `seat`'s opponent in `entry` when the learner sits at `learner` (the entry lists the
/// other seats in order); `None` for the learner's seat or a seat the caller answers.
pub fn opponent_at(entry: &[Option<Opponent>], learner: Seat, seat: Seat) -> Option<&Opponent> {
    if seat == learner {
        return None;
    }
    let k = if seat < learner { seat } else { seat - 1 };
    entry.get(k)?.as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{Activation, Layer};

    #[test]
    fn entries_list_the_other_seats_in_order() {
        let net = Arc::new(
            PolicyNet::new(
                vec![Layer {
                    weight: vec![0.0; 2],
                    bias: vec![0.0, 1.0],
                    inputs: 1,
                }],
                Activation::Tanh,
            )
            .expect("one layer"),
        );
        let policy = Opponent::Policy { net, sample: false };
        let entry = [Some(Opponent::Random), None, Some(policy)];
        assert!(opponent_at(&entry, 1, 1).is_none());
        assert!(matches!(opponent_at(&entry, 1, 0), Some(Opponent::Random)));
        assert!(opponent_at(&entry, 1, 2).is_none());
        assert!(matches!(
            opponent_at(&entry, 1, 3),
            Some(Opponent::Policy { .. })
        ));
        assert!(matches!(opponent_at(&entry, 0, 1), Some(Opponent::Random)));
        assert!(opponent_at(&entry, 0, 4).is_none());
    }

    #[test]
    fn a_pool_draws_every_entry_from_the_seed_and_checks_its_entries() {
        let entries = vec![vec![Some(Opponent::Random)], vec![None], vec![None]];
        let pool = OpponentPool::new(entries).expect("three entries");
        pool.check(2, 5, 3).expect("two seats");
        let mut seen = [0; 3];
        for seed in 0..300 {
            let k = pool_entry(seed, 3);
            seen[k] += 1;
            assert_eq!(pool.draw(seed)[0].is_some(), k == 0);
        }
        assert!(seen.iter().all(|&c| c > 60), "{seen:?}");
        assert_eq!(pool_entry(12345, 1), 0);
        assert!(OpponentPool::new(vec![]).is_err());
        let pool = OpponentPool::new(vec![vec![None], vec![None, None]]).expect("entries");
        let e = pool.check(2, 5, 3).expect_err("two in one");
        assert!(e.to_string().contains("entry 1"), "{e}");
    }

    #[test]
    fn fixed_strategies_pick_by_their_order() {
        let game = crate::games::duo_regna::DuoRegna::from_options(&crate::options::Options::new())
            .expect("default options");
        let state = game.new_state(Rng::new(4));
        let legal: ActionSet = [2, 5, 7].into_iter().collect();
        let mut rng = Rng::new(0);
        let mut scratch = Scratch::default();
        let mut choose = |o: Opponent| o.choose(&game, &state, 0, &legal, &mut rng, &mut scratch);
        assert_eq!(choose(Opponent::FirstLegal), Some(2));
        assert_eq!(choose(Opponent::LastLegal), Some(7));
        for order in 0..20 {
            let first = [2u16, 5, 7]
                .into_iter()
                .min_by_key(|&a| derive_seed(order, u64::from(a)));
            assert_eq!(choose(Opponent::FixedOrder(order)), first);
        }
        let picks: std::collections::BTreeSet<_> =
            (0..20).map(|k| choose(Opponent::FixedOrder(k))).collect();
        assert_eq!(picks.len(), 3, "every action comes first in some order");
    }

    #[test]
    fn unit_draws_lie_in_the_unit_interval_and_spread_over_it() {
        let mut rng = Rng::new(3);
        let draws: Vec<f64> = (0..4000).map(|_| unit(&mut rng)).collect();
        assert!(draws.iter().all(|&u| (0.0..1.0).contains(&u)));
        let low = draws.iter().filter(|&&u| u < 0.25).count();
        assert!((800..1200).contains(&low), "{low}");
    }
}
