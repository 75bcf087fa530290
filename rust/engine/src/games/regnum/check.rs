//! The invariants of a state read from JSON ([`Game::check_state`]).

use super::*;

impl Regnum {
    /// The random event under way: only with explicit chance, with an outcome left to draw,
    /// in the phase it belongs to; the setup deals in its order.
    pub(super) fn check_pending(&self, s: &State) -> std::result::Result<(), String> {
        let n = self.config.players;
        let Some(pending) = s.pending else {
            return Ok(());
        };
        if !self.explicit() {
            return Err(
                "a random event waits to be drawn, but this game draws from its seed".into(),
            );
        }
        let fits = match pending {
            Pending::Setup { castles } => castles as usize <= n,
            Pending::Draw { left } => {
                (1..=2).contains(&left) && matches!(s.phase, Phase::Main | Phase::Draw2Discard)
            }
            Pending::Steal { victim } => {
                s.phase == Phase::Steal
                    && (victim as usize) < n
                    && self
                        .steal_victims(s, s.active as usize)
                        .any(|v| v == victim as usize)
            }
            Pending::Refill => s.phase == Phase::Main && s.character.is_none(),
        };
        if !fits {
            return Err("the random event under way does not fit the state".into());
        }
        self.check_setup(s)?;
        let left = self.taking(s).map(|t| self.pool(s, t).counts());
        if !left.is_some_and(|c| c.iter().any(|&(_, n)| n > 0)) {
            return Err("a random event waits with nothing left to draw".into());
        }
        Ok(())
    }

    /// While the explicit setup deals: nothing has happened yet, and the castles, the
    /// standards, the line-up, the hands (seat by seat) and the first discard come in turn.
    pub(super) fn check_setup(&self, s: &State) -> std::result::Result<(), String> {
        let n = self.config.players;
        let Some(Pending::Setup { castles }) = s.pending else {
            return Ok(());
        };
        let hands: Vec<usize> = (0..n).map(|p| total(&s.hands[p])).collect();
        let lineup_full = Self::empty_slot(s).is_none();
        // Filled places first, then empty ones.
        let in_order = |filled: &[bool]| filled.windows(2).all(|w| w[0] || !w[1]);
        let fresh = s.phase == Phase::Draw
            && s.turn == 0
            && s.active == 0
            && s.decider == 0
            && s.final_turns.is_none()
            && s.gone == 0
            && s.realms.iter().all(|&r| r == 0)
            && s.known.iter().flatten().flatten().all(|&k| k == 0);
        let ordered = (castles as usize == n || s.standards == 0)
            && (count(s.standards as u64) == n + 1 || s.lineup.iter().all(Option::is_none))
            && in_order(&s.lineup.map(|c| c.is_some()))
            && (lineup_full || hands.iter().all(|&h| h == 0))
            && hands.iter().all(|&h| h <= HAND_START)
            && (1..n).all(|p| hands[p] == 0 || hands[p - 1] == HAND_START)
            && (s.discard.is_empty() || hands.iter().all(|&h| h == HAND_START));
        if !fresh || !ordered {
            return Err("the setup deals the castles, the standards, the line-up, the hands seat by seat, then the first discard, before anything else".into());
        }
        Ok(())
    }

    pub(super) fn check_places(&self, s: &State) -> std::result::Result<(), String> {
        let n = self.config.players;
        let nchars = self.cards.characters.len();
        let all = if nchars >= 64 {
            u64::MAX
        } else {
            (1u64 << nchars) - 1
        };
        let mut places = vec![s.char_deck, s.gone];
        places.extend_from_slice(&s.realms[..n]);
        for c in s.lineup.iter().flatten() {
            if *c as usize >= nchars {
                return Err("unknown character in the line-up".into());
            }
            places.push(1 << c);
        }
        if let Some(c) = s.character {
            if c as usize >= nchars {
                return Err("unknown character".into());
            }
            if s.phase == Phase::Pay {
                places.push(1 << c);
            }
        }
        let mut seen = 0u64;
        for m in places {
            if seen & m != 0 || m & !all != 0 {
                return Err("every character must be in one place at most".into());
            }
            seen |= m;
        }
        if seen != all {
            return Err("every character must be somewhere".into());
        }
        if s.realms[n..].iter().any(|&r| r != 0) {
            return Err("empty seats must have no realm".into());
        }
        Ok(())
    }

    pub(super) fn check_cards(&self, s: &State) -> std::result::Result<(), String> {
        let n = self.config.players;
        if s.discard.as_slice().iter().any(|&k| k as usize >= KINDS) {
            return Err("the discard pile holds unknown cards".into());
        }
        for k in 0..KINDS {
            let held: usize = s.hands[..n].iter().map(|h| h[k] as usize).sum::<usize>()
                + s.deck[k] as usize
                + s.discard.count(k as u8);
            if held != self.cards.resources[k] as usize {
                return Err(format!(
                    "the {} cards do not add up to the card set's",
                    KIND_NAMES[k]
                ));
            }
        }
        if s.hands[n..].iter().any(|h| total(h) > 0) {
            return Err("empty seats must have no hand".into());
        }
        for x in 0..MAX_PLAYERS {
            for o in 0..MAX_PLAYERS {
                if x >= n || o >= n || x == o {
                    if total(&s.known[x][o]) > 0 {
                        return Err("knowledge of an empty seat or of one's own hand".into());
                    }
                } else if (0..KINDS).any(|k| s.known[x][o][k] > s.hands[o][k]) {
                    return Err("a seat knows of cards that are not in the hand".into());
                }
            }
        }
        Ok(())
    }

    pub(super) fn check_phase(&self, s: &State) -> std::result::Result<(), String> {
        let me = s.active as usize;
        let hand = s.hands[s.decider as usize];
        let ph = s.phase;
        if s.bought as usize > MAX_CHARACTERS {
            return Err("too many characters bought".into());
        }
        if ((total(&s.deck) == 0 && ph != Phase::SwapGive) || s.char_deck == 0)
            && s.final_turns.is_none()
        {
            return Err("a deck is empty but the end is not triggered".into());
        }
        if ph != Phase::Tax && s.decider != s.active {
            return Err("only a taxed player decides out of turn".into());
        }
        let needs_char = !matches!(ph, Phase::Draw | Phase::Main | Phase::Over);
        if needs_char != s.character.is_some() {
            return Err("the character being bought does not fit the phase".into());
        }
        if ph != Phase::Pay && (s.pay_step != 0 || s.pair_colour.is_some()) {
            return Err("payment fields outside a payment".into());
        }
        if matches!(ph, Phase::Draw | Phase::Over) && (s.bought != 0 || s.wild_used) {
            return Err("turn fields outside a turn".into());
        }
        if ph == Phase::Pay {
            let slots = self.slots(s.character);
            let Some(&slot) = slots.get(s.pay_step as usize) else {
                return Err("payment step out of range".into());
            };
            if (slot == PAIR_SECOND) != s.pair_colour.is_some() || s.pair_colour.unwrap_or(0) >= 4 {
                return Err("the pair colour does not fit the payment".into());
            }
            if !self.payment_open(s) {
                return Err("the payment cannot be completed".into());
            }
        } else if needs_char {
            let mine = s.character.is_some_and(|c| s.realms[me] >> c & 1 == 1);
            if !mine || s.bought == 0 {
                return Err(
                    "the character whose effect resolves is not the active player's".into(),
                );
            }
        }
        let stuck = match ph {
            Phase::Exchange | Phase::Remove => self.targets(s, me) == 0,
            Phase::Steal => self.steal_victims(s, me).next().is_none(),
            Phase::Tax => {
                s.decider == s.active
                    || total(&hand) == 0
                    || self.advantage(s, s.decider as usize) == Some(Advantage::Shadowfen)
            }
            // A DRAW2 whose cards are still to be drawn (explicit chance) is not stuck.
            Phase::Draw2Discard => total(&hand) == 0 && s.pending.is_none(),
            Phase::SwapGive => total(&hand) == 0,
            Phase::SwapTake => total(&s.deck) == 0 || total(&hand) == 0,
            Phase::Salvage => s.discard.is_empty(),
            _ => false,
        };
        if stuck {
            return Err(format!("nobody can act in phase {}", ph.name()));
        }
        Ok(())
    }
}
