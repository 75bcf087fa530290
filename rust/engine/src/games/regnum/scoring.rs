//! The end of the game: what the standards, bonuses and characters count for each seat.

use super::*;

/// What the standards and bonuses count for one seat.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Tally {
    pub(super) colours: [i64; 3],
    pub(super) inhabitants: i64,
    pub(super) hand: i64,
    pub(super) wizards: i64,
    pub(super) effects: i64,
    pub(super) jesters: i64,
}

impl Tally {
    pub(super) fn value(&self, cond: Condition) -> i64 {
        match cond {
            Condition::Colour(c) => self.colours[c as usize % 3],
            Condition::Inhabitants => self.inhabitants,
            Condition::Hand => self.hand,
            Condition::Wizards => self.wizards,
            Condition::Effects => self.effects,
            Condition::FewestColour => self.colours.iter().copied().min().unwrap_or(0),
        }
    }
}

impl Regnum {
    /// What each standard and bonus counts for `seat`.
    pub(super) fn tally(&self, s: &State, seat: usize) -> Tally {
        let mut t = Tally {
            hand: total(&s.hands[seat]) as i64,
            ..Tally::default()
        };
        for c in iter_bits(s.realms[seat]) {
            let Some(ch) = self.cards.characters.get(c) else {
                continue;
            };
            t.colours[ch.colour as usize % 3] += 1;
            t.inhabitants += 1;
            t.wizards += (ch.score == Some(ScoreIcon::Wizard)) as i64;
            t.jesters += (ch.score == Some(ScoreIcon::Jester)) as i64;
            t.effects += ch.effect.is_some() as i64;
        }
        t
    }

    /// Each standard in play with the seats that win it (bit set).
    pub fn standard_winners(&self, s: &State) -> Vec<(usize, u8)> {
        let tallies: Vec<Tally> = (0..self.config.players).map(|p| self.tally(s, p)).collect();
        iter_bits(s.standards as u64)
            .map(|i| {
                let cond = self
                    .cards
                    .standards
                    .get(i)
                    .map_or(Condition::Hand, |st| st.counts);
                let values: Vec<i64> = tallies.iter().map(|t| t.value(cond)).collect();
                let best = values.iter().copied().max().unwrap_or(0);
                let mut tied: Vec<usize> = (0..self.config.players)
                    .filter(|&p| best >= 1 && values[p] == best)
                    .collect();
                if tied.len() > 1 {
                    tied.retain(|&p| self.advantage(s, p) == Some(Advantage::Montreaux));
                }
                (i, tied.iter().fold(0u8, |m, &p| m | 1 << p))
            })
            .collect()
    }

    pub(super) fn points(&self, s: &State) -> Vec<i64> {
        let n = self.config.players;
        let tallies: Vec<Tally> = (0..n).map(|p| self.tally(s, p)).collect();
        let has = |p: usize, c: Option<usize>| c.is_some_and(|c| s.realms[p] >> c & 1 == 1);
        let mut points: Vec<i64> = (0..n)
            .map(|p| {
                let t = &tallies[p];
                let (king, queen) = (has(p, self.cards.king), has(p, self.cards.queen));
                let mut sum = 0;
                for c in iter_bits(s.realms[p]) {
                    let Some(ch) = self.cards.characters.get(c) else {
                        continue;
                    };
                    sum += ch.points;
                    sum += match ch.score {
                        Some(ScoreIcon::King1) if king => 1,
                        Some(ScoreIcon::King2) if king => 2,
                        Some(ScoreIcon::Queen1) if queen => 1,
                        Some(ScoreIcon::Queen2) if queen => 2,
                        Some(ScoreIcon::PerColour(col)) => t.colours[col as usize % 3],
                        _ => 0,
                    };
                }
                if (0..n).all(|o| o == p || t.jesters > tallies[o].jesters) {
                    sum += JESTER_BONUS;
                }
                sum + WIZARD_POINTS[(t.wizards as usize).min(WIZARD_POINTS.len() - 1)]
            })
            .collect();
        for (_, winners) in self.standard_winners(s) {
            for p in iter_bits(winners as u64) {
                points[p] += if self.advantage(s, p) == Some(Advantage::Bannerhold) {
                    BANNERHOLD_POINTS
                } else {
                    STANDARD_POINTS
                };
            }
        }
        points
    }

    /// What decides the winner, per seat: points, then inhabitants (characters in the realm).
    pub(super) fn final_keys(&self, s: &State) -> Vec<(i64, usize)> {
        let points = self.points(s);
        (0..self.config.players)
            .map(|p| (points[p], count(s.realms[p])))
            .collect()
    }
}
