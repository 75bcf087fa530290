//! Regnum's rules in play: the setup and every card drawn or dealt, the legal moves, and
//! the moves applied.

use super::*;

// ---- Setup ----
impl Regnum {
    pub(super) fn advantage(&self, s: &State, seat: usize) -> Option<Advantage> {
        self.cards
            .castles
            .get(s.castles[seat] as usize)
            .and_then(|c| c.advantage)
    }

    pub(super) fn others(&self, seat: usize) -> impl Iterator<Item = usize> {
        (0..self.config.players).filter(move |&o| o != seat)
    }

    /// Whether random events are chance nodes (`chance = "explicit"`).
    pub(super) fn explicit(&self) -> bool {
        self.config.chance == ChanceMode::Explicit
    }

    /// Seats whose castle is given (all but while the explicit setup gives them).
    pub(super) fn castles_dealt(s: &State, players: usize) -> usize {
        match s.pending {
            Some(Pending::Setup { castles }) => castles as usize,
            _ => players,
        }
    }

    /// Draws up to `n` cards blind into the active player's hand (what is left when the
    /// deck runs out).
    pub(super) fn draw(&self, s: &mut State, n: u8) {
        s.pending = Some(Pending::Draw { left: n });
        self.resume(s);
    }

    /// The first empty line-up slot, while the character deck has cards to fill it.
    pub(super) fn empty_slot(s: &State) -> Option<usize> {
        if s.char_deck == 0 {
            return None;
        }
        s.lineup.iter().position(Option::is_none)
    }

    /// The chance interface: what the next outcome of the event under way is for, or `None`
    /// when nothing is left of it (or nothing is under way).
    pub fn taking(&self, s: &State) -> Option<Take> {
        let n = self.config.players;
        match s.pending? {
            Pending::Setup { castles } => {
                let deck = total(&s.deck) > 0;
                if (castles as usize) < n {
                    Some(Take::Castle(castles as usize))
                } else if count(s.standards as u64) <= n {
                    Some(Take::Standard)
                } else if let Some(slot) = Self::empty_slot(s) {
                    Some(Take::Character(slot))
                } else if let Some(seat) = (0..n).find(|&p| total(&s.hands[p]) < HAND_START) {
                    deck.then_some(Take::Resource(seat))
                } else {
                    (deck && s.discard.is_empty()).then_some(Take::Discard)
                }
            }
            Pending::Draw { left } => {
                (left > 0 && total(&s.deck) > 0).then_some(Take::Resource(s.active as usize))
            }
            Pending::Steal { victim } => Some(Take::Stolen(victim as usize)),
            Pending::Refill => Self::empty_slot(s).map(Take::Character),
        }
    }

    /// Where the game waits for a chance outcome: only with explicit chance (a seeded game
    /// settles every event at once, so it never waits).
    pub(super) fn waiting(&self, s: &State) -> Option<Take> {
        if s.pending.is_some() {
            self.taking(s)
        } else {
            None
        }
    }

    /// What the outcome of `t` is drawn from.
    pub(super) fn pool(&self, s: &State, t: Take) -> Pool {
        let all = |len: usize| (1u64 << len) - 1;
        match t {
            Take::Castle(seat) => Pool::Ids(
                s.castles[..seat]
                    .iter()
                    .fold(all(self.cards.castles.len()), |m, &c| m & !(1 << c)),
            ),
            Take::Standard => Pool::Rising {
                first: 16 - s.standards.leading_zeros() as usize,
                len: self.cards.standards.len(),
                need: self.config.players + 1 - count(s.standards as u64),
            },
            Take::Character(_) => Pool::Ids(s.char_deck),
            Take::Resource(_) | Take::Discard => Pool::Kinds(s.deck),
            Take::Stolen(victim) => Pool::Kinds(s.hands[victim]),
        }
    }

    /// Goes on with the event under way: seeded, the generator answers each outcome at
    /// once; explicit, the game waits at the chance node. When nothing is left of it, it
    /// ends (the end of a turn goes on to the next turn).
    pub(super) fn resume(&self, s: &mut State) {
        while let Some(t) = self.taking(s) {
            if self.explicit() {
                return;
            }
            let outcome = self.pool(s, t).draw(&mut s.rng);
            self.take(s, t, outcome);
        }
        if s.pending.take() == Some(Pending::Refill) {
            self.next_turn(s);
        }
    }

    /// Outcome `o` of `t`, to where it goes.
    pub(super) fn take(&self, s: &mut State, t: Take, o: usize) {
        match t {
            Take::Castle(seat) => {
                s.castles[seat] = o as u8;
                s.pending = Some(Pending::Setup {
                    castles: seat as u8 + 1,
                });
            }
            Take::Standard => s.standards |= 1 << o,
            Take::Character(slot) => {
                s.char_deck &= !(1 << o);
                s.lineup[slot] = Some(o as u8);
                if s.char_deck == 0 {
                    self.trigger_end(s);
                }
            }
            Take::Resource(seat) => {
                s.deck[o] -= 1;
                s.hands[seat][o] += 1;
                if total(&s.deck) == 0 {
                    self.trigger_end(s);
                }
                if let Some(Pending::Draw { left }) = &mut s.pending {
                    *left -= 1;
                }
            }
            Take::Discard => {
                s.deck[o] -= 1;
                s.discard.push(o as u8);
            }
            Take::Stolen(victim) => {
                let me = s.active as usize;
                s.hands[victim][o] -= 1;
                s.hands[me][o] += 1;
                s.known[me][victim][o] = s.known[me][victim][o].saturating_sub(1);
                self.hidden_loss(s, victim, Some(me));
                s.known[victim][me][o] += 1;
                s.pending = None;
                self.back_to_main(s);
            }
        }
    }
}

// ---- Legal moves ----
impl Regnum {
    /// At a chance node: the outcomes that can be drawn.
    #[cold]
    pub(super) fn outcomes(&self, s: &State, t: Take) -> ActionSet {
        let mut out = ActionSet::new();
        for (o, copies) in self.pool(s, t).counts() {
            if copies > 0 {
                out.insert(o);
            }
        }
        out
    }

    /// Inhabitants of other realms that EXCHANGE and REMOVE may target.
    pub(super) fn targets(&self, s: &State, me: usize) -> u64 {
        self.others(me)
            .filter(|&o| self.advantage(s, o) != Some(Advantage::Stonewall))
            .fold(0, |acc, o| acc | s.realms[o])
    }

    pub(super) fn steal_victims(&self, s: &State, me: usize) -> impl Iterator<Item = usize> + '_ {
        let hands = s.hands;
        let castles = s.castles;
        self.others(me).filter(move |&o| {
            total(&hands[o]) > 0
                && self
                    .cards
                    .castles
                    .get(castles[o] as usize)
                    .and_then(|c| c.advantage)
                    != Some(Advantage::Shadowfen)
        })
    }

    pub(super) fn wild(&self, s: &State) -> bool {
        self.advantage(s, s.active as usize) == Some(Advantage::Goldmint) && !s.wild_used
    }

    /// The legal payments of the current slot, `PAY + 4k + c`: a card of kind `k` the hand
    /// holds, as a colour `c` the slot takes (`1`: the card's lowest colour; the first card
    /// of a `2=`: any colour; its second: the colour the first one named), which the card
    /// pays naturally or as Goldmint's unused wildcard, after which the rest of the cost can
    /// still be paid (without the wildcard if this card used it).
    pub(super) fn payments(&self, s: &State, out: &mut ActionSet) {
        let hand = s.hands[s.active as usize];
        let slots = self.slots(s.character);
        let at = s.pay_step as usize;
        let Some(&slot) = slots.get(at) else {
            return;
        };
        let wild = self.wild(s);
        let step = Step::new(&hand, slots, at);
        let mut pay = |c: u8| {
            for k in iter_bits(step.payers(c, NATURAL[c as usize % 4], wild).into()) {
                out.insert(PAY + (4 * k) as Action + c as Action);
            }
        };
        match slot {
            // Any card, as its lowest colour: each pays that naturally.
            ANY => {
                for k in iter_bits(step.payers(0, ALL_KINDS, wild).into()) {
                    out.insert(PAY + (4 * k) as Action + lowest_colour(k) as Action);
                }
            }
            PAIR_FIRST => (0..4).for_each(pay),
            PAIR_SECOND => s.pair_colour.filter(|&c| c < 4).into_iter().for_each(pay),
            c @ 0..=3 => pay(c),
            _ => {}
        }
    }
}

// ---- Apply ----
impl Regnum {
    /// Starts the end when a deck runs out: the turns left, the current one included.
    pub(super) fn trigger_end(&self, s: &mut State) {
        if s.final_turns.is_none() {
            let n = self.config.players;
            let left = if self.config.final_round == FinalRound::EqualTurns {
                2 * n - s.active as usize
            } else {
                n + 1
            };
            s.final_turns = Some(left as u8);
        }
    }

    /// The most turns left when the end starts.
    pub(super) fn most_final_turns(&self) -> usize {
        if self.config.final_round == FinalRound::EqualTurns {
            2 * self.config.players
        } else {
            self.config.players + 1
        }
    }

    pub(super) fn public_gain(&self, s: &mut State, seat: usize, k: usize) {
        for o in self.others(seat) {
            s.known[o][seat][k] += 1;
        }
    }

    pub(super) fn public_loss(&self, s: &mut State, seat: usize, k: usize) {
        for o in self.others(seat) {
            s.known[o][seat][k] = s.known[o][seat][k].saturating_sub(1);
        }
    }

    pub(super) fn hidden_loss(&self, s: &mut State, seat: usize, skip: Option<usize>) {
        for o in self.others(seat).filter(|&o| Some(o) != skip) {
            for x in s.known[o][seat].iter_mut() {
                *x = x.saturating_sub(1);
            }
        }
    }

    pub(super) fn discard_card(&self, s: &mut State, seat: usize, k: usize) {
        s.hands[seat][k] -= 1;
        s.discard.push(k as u8);
        self.public_loss(s, seat, k);
    }

    pub(super) fn buy(&self, s: &mut State, slot: usize) {
        s.character = s.lineup[slot];
        s.lineup[slot] = None;
        s.phase = Phase::Pay;
        s.pay_step = 0;
        s.pair_colour = None;
    }

    pub(super) fn pay(&self, s: &mut State, k: usize, c: u8) {
        let me = s.active as usize;
        let Some(ci) = s.character else {
            return;
        };
        let Some(ch) = self.cards.characters.get(ci as usize) else {
            return;
        };
        if KIND_MASK[k] >> c & 1 == 0 {
            s.wild_used = true;
        }
        let slot = ch.slots.get(s.pay_step as usize).copied();
        s.pair_colour = (slot == Some(PAIR_FIRST)).then_some(c);
        self.discard_card(s, me, k);
        s.pay_step += 1;
        if (s.pay_step as usize) < ch.slots.len() {
            return;
        }
        s.realms[me] |= 1 << ci;
        s.bought += 1;
        s.pay_step = 0;
        s.pair_colour = None;
        self.effect(s, ch.effect);
    }

    pub(super) fn effect(&self, s: &mut State, effect: Option<Effect>) {
        let me = s.active as usize;
        s.phase = Phase::Main;
        match effect {
            Some(Effect::Steal) if self.steal_victims(s, me).next().is_some() => {
                s.phase = Phase::Steal;
            }
            Some(Effect::Clear) => {
                for c in s.lineup.iter().flatten() {
                    s.gone |= 1 << c;
                }
                s.lineup = [None; LINEUP];
            }
            Some(Effect::Tax) => self.next_taxed(s, me),
            Some(Effect::Draw2) => {
                // "Draw 2, then discard 1": the discard follows only a card drawn.
                if total(&s.deck) > 0 {
                    s.phase = Phase::Draw2Discard;
                }
                self.draw(s, 2);
            }
            Some(Effect::Draw1) => {
                self.draw(s, 1);
            }
            Some(Effect::Swap) if total(&s.deck) > 0 && total(&s.hands[me]) > 0 => {
                s.phase = Phase::SwapTake;
            }
            Some(Effect::Salvage) if !s.discard.is_empty() => s.phase = Phase::Salvage,
            Some(Effect::Exchange) if self.targets(s, me) != 0 => s.phase = Phase::Exchange,
            Some(Effect::Remove) if self.targets(s, me) != 0 => s.phase = Phase::Remove,
            _ => {}
        }
        if s.phase == Phase::Main {
            s.character = None;
        }
    }

    /// The next player after `after` (in seat order from the active player's left) who must
    /// discard for TAX, or back to the active player.
    pub(super) fn next_taxed(&self, s: &mut State, after: usize) {
        let me = s.active as usize;
        let mut o = (after + 1) % self.config.players;
        while o != me {
            if total(&s.hands[o]) > 0 && self.advantage(s, o) != Some(Advantage::Shadowfen) {
                s.phase = Phase::Tax;
                s.decider = o as u8;
                return;
            }
            o = (o + 1) % self.config.players;
        }
        s.decider = me as u8;
        s.phase = Phase::Main;
    }

    pub(super) fn back_to_main(&self, s: &mut State) {
        s.phase = Phase::Main;
        s.decider = s.active;
        s.character = None;
    }

    pub(super) fn discard(&self, s: &mut State, k: usize) {
        let me = s.decider as usize;
        self.discard_card(s, me, k);
        match s.phase {
            Phase::Main => self.end_turn(s),
            Phase::Tax => {
                self.next_taxed(s, me);
                if s.phase == Phase::Main {
                    s.character = None;
                }
            }
            _ => self.back_to_main(s),
        }
    }

    pub(super) fn target(&self, s: &mut State, c: usize) {
        let me = s.active as usize;
        let Some(owner) = (0..self.config.players).find(|&o| s.realms[o] >> c & 1 == 1) else {
            return;
        };
        s.realms[owner] &= !(1 << c);
        if s.phase == Phase::Remove {
            s.gone |= 1 << c;
        } else if let Some(mine) = s.character {
            s.realms[me] = (s.realms[me] & !(1 << mine)) | (1 << c);
            s.realms[owner] |= 1 << mine;
        }
        self.back_to_main(s);
    }

    /// The turn ends: the line-up is refilled, then the next turn begins. With explicit
    /// chance the refill after the game's last turn, which changes nothing, is skipped.
    pub(super) fn end_turn(&self, s: &mut State) {
        let last = s.turn + 1 >= self.config.max_turns || s.final_turns == Some(1);
        if self.explicit() && last {
            return self.next_turn(s);
        }
        s.pending = Some(Pending::Refill);
        self.resume(s);
    }

    pub(super) fn next_turn(&self, s: &mut State) {
        s.turn += 1;
        s.bought = 0;
        s.wild_used = false;
        s.character = None;
        let mut over = s.turn >= self.config.max_turns;
        if let Some(f) = s.final_turns.as_mut() {
            *f = f.saturating_sub(1);
            over = over || *f == 0;
        }
        if over {
            s.phase = Phase::Over;
            return;
        }
        s.active = ((s.active as usize + 1) % self.config.players) as u8;
        s.decider = s.active;
        s.phase = Phase::Draw;
    }
}
