//! The invariants of a state read from JSON ([`Game::check_state`]).

use super::*;

impl Duo {
    /// Every invariant of a state read from JSON ([`Game::check_state`]).
    pub(super) fn check_invariants(&self, s: &State) -> std::result::Result<(), String> {
        let n = self.config.players;
        if !s.rng.is_valid() {
            return Err("generator increment must be odd".into());
        }
        if s.hands[n..].iter().any(|h| !h.is_empty()) || s.scores[n..].iter().any(|&x| x != 0) {
            return Err("seats beyond the players must have no cards and no points".into());
        }
        let parts = s.hands[..n].iter().chain(&s.piles);
        let everything = parts.clone().fold(s.draw, |a, &b| a | b);
        let total = parts.map(|p| p.len()).sum::<usize>() + s.draw.len();
        let deck = self.deck_size();
        if everything != self.deck || total != deck {
            return Err(
                "every card of the deck must be in exactly one hand, pile or the draw pile".into(),
            );
        }
        let dealing = self.dealing(s);
        if (0..PILES)
            .any(|p| !(s.piles[p].contains(s.tops[p] as usize) || dealing && s.piles[p].is_empty()))
        {
            return Err("each pile's top card must be in that pile".into());
        }
        if (dealing || s.turn_pile == Some(DRAWING)) && !self.explicit() {
            return Err(
                "a card is waiting to be taken, but this game takes them from its seed".into(),
            );
        }
        if dealing {
            let in_hands = self.in_hands(s);
            let first = self.first_player(s);
            let dealt = |i: usize| (in_hands.min(self.config.hand_size * n) + n - 1 - i) / n;
            if (0..n).any(|i| s.hands[(first + i) % n].len() != dealt(i))
                || (!s.piles[0].is_empty() && in_hands != self.config.hand_size * n)
                || s.piles[0].len() > 1
                || s.turn_pile.is_some()
                || s.current as usize != first
            {
                return Err(
                    "a deal in progress gives cards in turn from the first player, then the piles"
                        .into(),
                );
            }
        }
        if s.current as usize >= n {
            return Err("the current seat is out of range".into());
        }
        if !(1..=self.round_limit()).contains(&s.round) {
            return Err("the round number is out of range".into());
        }
        let bound = MAX_ROUND_POINTS * s.round as i64;
        if s.scores.iter().any(|&x| (x as i64).abs() > bound) {
            return Err("a score is out of range for the rounds played".into());
        }
        if !s.over && !dealing && (s.draw.is_empty() || s.hands[..n].iter().any(|h| h.is_empty())) {
            return Err("a running round must have a draw pile and no empty hand".into());
        }
        match s.turn_pile {
            None if !s.turn_cards.is_empty() => {
                return Err("cards played this turn without a chosen pile".into());
            }
            None => {}
            Some(DRAWING) if !s.turn_cards.is_empty() || s.over || dealing => {
                return Err(
                    "a seat draws only at the start of her turn, in a running round".into(),
                );
            }
            Some(DRAWING) => {}
            Some(p) => {
                let p = p as usize;
                if p >= PILES || !s.turn_cards.contains(s.tops[p] as usize) || s.over {
                    return Err("the turn's pile must be a pile whose top was played this turn, in a running game".into());
                }
                if !(s.turn_cards - (s.piles[0] | s.piles[1])).is_empty()
                    || (!self.config.switch_piles && !(s.turn_cards - s.piles[p]).is_empty())
                {
                    return Err("the cards played this turn must lie on the turn's pile".into());
                }
            }
        }
        if s.last_points.is_none() != (s.round == 1 && !s.over) {
            return Err(
                "the last round's points must be given exactly when a round has ended".into(),
            );
        }
        if s.last_points
            .is_some_and(|p| p[n..].iter().any(|&x| x != 0))
        {
            return Err("seats beyond the players must have no points".into());
        }
        if s.last_winner
            .is_some_and(|w| w as usize >= n || s.last_points.is_none())
        {
            return Err("the last round's winner is out of range".into());
        }
        let best = s.scores[..n].iter().copied().max().unwrap_or(0) as i64;
        let decided = best >= self.target() || (s.over && s.round >= self.round_limit());
        if s.over != decided {
            return Err("'over' does not agree with the scores and the rounds".into());
        }
        Ok(())
    }
}
