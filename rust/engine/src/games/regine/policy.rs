//! How the search's rollouts play Regine ([`Game::rollout_action`]).

use super::*;

impl Regine {
    /// Rollouts play like the rule-based player where it matters most, with a random move one
    /// time in four: in the building phase exchange the cards that fit nothing, then declare
    /// "no changes" (playing no card: the rollout settles the hands soon), claim every Suit,
    /// double down with a very strong combination and stay after a Double Down with a fair one.
    pub(super) fn rollout_move(&self, s: &State, legal: &ActionSet, rng: &mut Rng) -> Action {
        if rng.below(4) == 0 {
            return uniform_action(legal, rng);
        }
        let strength = || bet_strength(s.suit as usize, &s.table[s.turn as usize]);
        let choice = match s.phase {
            Phase::Wager if s.doubled[s.suit as usize].is_some() => {
                if strength() >= 1 {
                    WE_SHALL_SEE
                } else {
                    ALL_YOURS
                }
            }
            Phase::Wager if strength() >= 2 && legal.contains(DOUBLE_DOWN as usize) => DOUBLE_DOWN,
            Phase::Wager if legal.contains(BET_MINE as usize) => BET_MINE,
            Phase::Wager => BET_PASS,
            Phase::Build if s.effect == Effect::Nothing => build_rollout_action(s),
            _ => END_TURN,
        };
        if legal.contains(choice as usize) {
            choice
        } else {
            uniform_action(legal, rng)
        }
    }
}

/// The rule-based player's building move for rollouts: exchange once the hand cards that fit
/// nothing (not a Queen, a Jester or part of a pair with an own card), declare "no changes"
/// once none is left, else end the turn.
pub(super) fn build_rollout_action(s: &State) -> Action {
    let p = s.turn as usize;
    let mut own = s.hands[p];
    for &card in &s.table[p][..s.table_len[p] as usize] {
        own[card as usize] += 1;
    }
    let loose = |kind: usize| kind != QUEEN as usize && kind != JESTER as usize && own[kind] < 2;
    let marking = hand_size(&s.marked) > 0;
    if marking || (!s.changed && !s.no_changes) {
        let low = (0..KINDS).rev().find(|&k| s.marked[k] > 0).unwrap_or(0);
        if let Some(kind) = (low..KINDS).find(|&k| loose(k) && s.marked[k] < s.hands[p][k]) {
            return MARK + kind as Action;
        }
        if marking {
            return CONFIRM_EXCHANGE;
        }
        if (0..KINDS).all(|k| s.hands[p][k] == 0 || !loose(k)) {
            return NO_CHANGES;
        }
    }
    END_TURN
}
