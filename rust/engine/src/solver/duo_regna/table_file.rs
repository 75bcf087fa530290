//! The solved table as bytes, to be kept in a cache file: a header naming the game's options
//! and the table's shape, the values (little-endian `f64`), and a checksum of all of it. A
//! damaged, cut-off or foreign file is refused, never trusted.

use super::{Horizon, Solver};
use crate::error::{Error, Result};
use crate::games::duo_regna::DuoRegna;
use crate::rng::splitmix64;

/// The file's first bytes.
const MAGIC: &[u8; 8] = b"RGDRSOLV";
/// Bumped whenever the layout or the solve changes.
const VERSION: u32 = 1;
/// Magic, version, deck (2 bytes), dragons to win, horizon tag, max rounds, value count.
const HEADER: usize = 8 + 4 + 4 + 4 + 8;

/// A checksum of `bytes` (any length): each 8-byte word mixed in with SplitMix64.
fn checksum(bytes: &[u8]) -> u64 {
    let mut h = 0x5EED_D00D_u64 ^ bytes.len() as u64;
    for chunk in bytes.chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        h ^= u64::from_le_bytes(word);
        h = splitmix64(&mut h);
    }
    h
}

impl Solver {
    /// The table as bytes (see the module comment).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + 8 * self.values.len() + 8);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        let g = &self.game;
        let tag = u8::from(self.horizon == Horizon::Stationary);
        out.extend_from_slice(&[
            g.single_dragons(),
            g.double_dragons(),
            g.config.dragons_to_win,
            tag,
        ]);
        out.extend_from_slice(&g.config.max_rounds.to_le_bytes());
        out.extend_from_slice(&(self.values.len() as u64).to_le_bytes());
        for v in &self.values {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&checksum(&out).to_le_bytes());
        out
    }

    /// The table of `game` read from `bytes`; an `InvalidState` error if they are damaged,
    /// cut off, of another version, or of other options.
    pub fn from_bytes(game: &DuoRegna, bytes: &[u8]) -> Result<Self> {
        let bad =
            |m: &str| Error::InvalidState(format!("not a usable Duo Regna solver table: {m}"));
        if bytes.len() < HEADER + 8 {
            return Err(bad("too short"));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        if !sum
            .iter()
            .zip(checksum(body).to_le_bytes())
            .all(|(a, b)| *a == b)
        {
            return Err(bad("the checksum does not match (damaged or cut off)"));
        }
        let word =
            |at: usize| u32::from_le_bytes([body[at], body[at + 1], body[at + 2], body[at + 3]]);
        if &body[..8] != MAGIC || word(8) != VERSION {
            return Err(bad("another format or version"));
        }
        let mut s = Solver::empty(game, Solver::horizon(game)?)?;
        let tag = u8::from(s.horizon == Horizon::Stationary);
        let options = [
            game.single_dragons(),
            game.double_dragons(),
            game.config.dragons_to_win,
            tag,
        ];
        if body[12..16] != options || word(16) != game.config.max_rounds {
            return Err(bad("made for other options"));
        }
        let count = u64::from_le_bytes(body[20..28].try_into().map_err(|_| bad("short header"))?);
        if count != s.values.len() as u64 || body.len() != HEADER + 8 * s.values.len() {
            return Err(bad("the table has the wrong size"));
        }
        for (v, b) in s.values.iter_mut().zip(body[HEADER..].chunks_exact(8)) {
            *v = f64::from_le_bytes(b.try_into().map_err(|_| bad("cut off"))?);
            if !(v.is_finite() && v.abs() <= 1.0 + 1e-9) {
                return Err(bad("a value is out of range"));
            }
        }
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    fn small() -> DuoRegna {
        let options =
            serde_json::json!({"dragon_deck": [1, 1], "dragons_to_win": 2, "max_rounds": 3});
        DuoRegna::from_options(options.as_object().expect("object")).expect("options")
    }

    #[test]
    fn a_table_round_trips_and_any_damage_is_refused() {
        let g = small();
        let s = Solver::build(&g, &mut |_, _| true)
            .expect("solvable")
            .expect("not stopped");
        let bytes = s.to_bytes();
        let back = Solver::from_bytes(&g, &bytes).expect("round trip");
        assert_eq!(back.values, s.values);
        // Cut off anywhere, or any byte changed: refused.
        for cut in [0, 7, HEADER, bytes.len() / 2, bytes.len() - 1] {
            assert!(
                Solver::from_bytes(&g, &bytes[..cut]).is_err(),
                "cut at {cut}"
            );
        }
        for at in [
            0,
            9,
            13,
            17,
            21,
            HEADER + 3,
            bytes.len() / 2,
            bytes.len() - 3,
        ] {
            let mut damaged = bytes.clone();
            damaged[at] ^= 0x10;
            assert!(Solver::from_bytes(&g, &damaged).is_err(), "byte {at}");
        }
        // Another game's options: refused even with a valid checksum.
        let other =
            serde_json::json!({"dragon_deck": [1, 1], "dragons_to_win": 2, "max_rounds": 2});
        let other = DuoRegna::from_options(other.as_object().expect("object")).expect("options");
        assert!(Solver::from_bytes(&other, &bytes).is_err());
    }
}
