//! Regnum's card set: the data file embedded at build time, read and validated once at `make`
//! (mirrored by `python/regalia/cards/regnum.py`: both accept and refuse the same sets).

use crate::error::{Error, Result};
use serde_json::{Map, Value};

/// The default card set (the same file the Python package ships).
pub const DEFAULT_CARD_SET: &str =
    include_str!("../../../../../python/regalia/data/regnum_cards.json");

/// Resource colours, as letters: green, orange, purple, grey.
pub const COLOURS: [char; 4] = ['G', 'O', 'P', 'Y'];
/// Number of resource kinds: the four singles, then the six duals.
pub const KINDS: usize = 10;
/// The name of each resource kind.
pub const KIND_NAMES: [&str; KINDS] =
    ["G", "O", "P", "Y", "G/O", "G/P", "G/Y", "O/P", "O/Y", "P/Y"];
/// The colours (bit `c` = colour `c`) each kind can pay as.
pub const KIND_MASK: [u8; KINDS] = [1, 2, 4, 8, 3, 5, 9, 6, 10, 12];
/// Character colours.
pub const CHAR_COLOURS: [&str; 3] = ["blue", "red", "yellow"];

/// Payment slot: the first card of a `2=` icon (it names the colour of the pair).
pub const PAIR_FIRST: u8 = 4;
/// Payment slot: the second card of a `2=` icon (the colour the first one named).
pub const PAIR_SECOND: u8 = 5;
/// Payment slot: any one card. Slots 0-3 are one card of that colour.
pub const ANY: u8 = 6;

/// Most characters in a set (they are kept as bits of a `u64`).
pub const MAX_CHARACTERS: usize = 64;
/// Most castles in a set.
pub const MAX_CASTLES: usize = 8;
/// Most standards in a set.
pub const MAX_STANDARDS: usize = 16;
/// Most cards a cost may need.
pub const MAX_SLOTS: usize = 8;
/// Most `2=` icons in one cost.
pub(super) const MAX_PAIRS: usize = 2;
/// Most resource cards in a set.
pub const MAX_RESOURCES: usize = 128;
const MIN_RESOURCES: usize = 20;
const MIN_CHARACTERS: usize = 8;
const MAX_NAME: usize = 40;

/// What a character does right after it is bought.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Take 1 card at random from another player's hand.
    Steal,
    /// Remove all characters from the line-up.
    Clear,
    /// Every other player discards 1 resource.
    Tax,
    /// Draw 2 resources, then discard 1.
    Draw2,
    /// Draw 1 resource.
    Draw1,
    /// Exchange 1 resource for any card of the deck.
    Swap,
    /// Take any card of the discard pile.
    Salvage,
    /// Exchange this character for an inhabitant of another realm.
    Exchange,
    /// Remove an inhabitant of another realm.
    Remove,
}
const EFFECTS: [(&str, Effect); 9] = [
    ("STEAL", Effect::Steal),
    ("CLEAR", Effect::Clear),
    ("TAX", Effect::Tax),
    ("DRAW2", Effect::Draw2),
    ("DRAW1", Effect::Draw1),
    ("SWAP", Effect::Swap),
    ("SALVAGE", Effect::Salvage),
    ("EXCHANGE", Effect::Exchange),
    ("REMOVE", Effect::Remove),
];

/// A character's score icon, counted at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreIcon {
    /// +1 with the King.
    King1,
    /// +2 with the King.
    King2,
    /// +1 with the Queen.
    Queen1,
    /// +2 with the Queen.
    Queen2,
    /// +1 per character of a colour (0 blue, 1 red, 2 yellow).
    PerColour(u8),
    /// A Jester.
    Jester,
    /// A Wizard.
    Wizard,
}
const SCORE_ICONS: [(&str, ScoreIcon); 9] = [
    ("+1K", ScoreIcon::King1),
    ("+2K", ScoreIcon::King2),
    ("+1Q", ScoreIcon::Queen1),
    ("+2Q", ScoreIcon::Queen2),
    ("B+", ScoreIcon::PerColour(0)),
    ("R+", ScoreIcon::PerColour(1)),
    ("Yl+", ScoreIcon::PerColour(2)),
    ("J", ScoreIcon::Jester),
    ("W", ScoreIcon::Wizard),
];

/// A castle's advantage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Advantage {
    /// Wins every standard its owner is tied for.
    Montreaux,
    /// Inhabitants cannot be targeted by EXCHANGE or REMOVE.
    Stonewall,
    /// Once per turn, one card of a payment counts as any colour.
    Goldmint,
    /// Taking the discard's top card also draws 1 blind card.
    Riverford,
    /// Never the target of STEAL, never discards for TAX.
    Shadowfen,
    /// Each standard won is worth 4 points.
    Bannerhold,
}
const ADVANTAGES: [(&str, Advantage); 6] = [
    ("MONTREAUX", Advantage::Montreaux),
    ("STONEWALL", Advantage::Stonewall),
    ("GOLDMINT", Advantage::Goldmint),
    ("RIVERFORD", Advantage::Riverford),
    ("SHADOWFEN", Advantage::Shadowfen),
    ("BANNERHOLD", Advantage::Bannerhold),
];

/// What a standard counts (the most of it wins).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Condition {
    /// Characters of a colour (0 blue, 1 red, 2 yellow).
    Colour(u8),
    /// Inhabitants.
    Inhabitants,
    /// Resource cards in hand.
    Hand,
    /// Wizards.
    Wizards,
    /// Characters with an effect.
    Effects,
    /// min(blue, red, yellow).
    FewestColour,
}
const CONDITIONS: [(&str, Condition); 8] = [
    ("BLUE", Condition::Colour(0)),
    ("RED", Condition::Colour(1)),
    ("YELLOW", Condition::Colour(2)),
    ("INHABITANTS", Condition::Inhabitants),
    ("HAND", Condition::Hand),
    ("WIZARDS", Condition::Wizards),
    ("EFFECTS", Condition::Effects),
    ("FEWEST_COLOUR", Condition::FewestColour),
];

/// One character card.
#[derive(Clone, Debug)]
pub struct Character {
    /// Its id in the data file.
    pub id: u32,
    /// Its printed name.
    pub name: String,
    /// 0 blue, 1 red, 2 yellow.
    pub colour: u8,
    /// The payment slots of its cost, in order.
    pub slots: Vec<u8>,
    /// Its effect, if any.
    pub effect: Option<Effect>,
    /// Printed points.
    pub points: i64,
    /// Its score icon, if any.
    pub score: Option<ScoreIcon>,
}

/// One castle card.
#[derive(Clone, Debug)]
pub struct Castle {
    /// Its printed name.
    pub name: String,
    /// Its advantage, if any.
    pub advantage: Option<Advantage>,
}

/// One standard.
#[derive(Clone, Debug)]
pub struct Standard {
    /// Its printed name.
    pub name: String,
    /// What it counts.
    pub counts: Condition,
}

/// A validated card set.
#[derive(Clone, Debug)]
pub struct CardSet {
    /// Resource cards of each kind.
    pub resources: [u8; KINDS],
    /// The characters (a character's index is its bit in the masks).
    pub characters: Vec<Character>,
    /// The castles.
    pub castles: Vec<Castle>,
    /// The standards.
    pub standards: Vec<Standard>,
    /// The index of the King (for `+1K`/`+2K`).
    pub king: Option<usize>,
    /// The index of the Queen (for `+1Q`/`+2Q`).
    pub queen: Option<usize>,
}

type Bad<T> = std::result::Result<T, String>;

/// The slots of one cost icon: `1`, `2=`, `2G` or `G+O(+P...)`.
pub fn parse_icon(icon: &Value) -> Bad<Vec<u8>> {
    let bad = || format!("unknown cost icon {icon} (use 1, 2=, 2G or G+O+P with colours GOPY)");
    let Some(text) = icon.as_str() else {
        return Err(format!("a cost icon must be a string, got {icon}"));
    };
    let colour = |s: &str| {
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => COLOURS.iter().position(|&x| x == c).map(|i| i as u8),
            _ => None,
        }
    };
    if text == "1" {
        return Ok(vec![ANY]);
    }
    if text == "2=" {
        return Ok(vec![PAIR_FIRST, PAIR_SECOND]);
    }
    if let Some(c) = text.strip_prefix('2').and_then(colour) {
        return Ok(vec![c, c]);
    }
    let mut slots = Vec::new();
    for part in text.split('+') {
        let c = colour(part).ok_or_else(bad)?;
        if slots.contains(&c) {
            return Err(bad());
        }
        slots.push(c);
    }
    Ok(slots)
}

fn int(v: Option<&Value>, what: &str, lo: i64, hi: i64) -> Bad<i64> {
    match v.and_then(|x| x.as_i64()) {
        Some(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(format!(
            "{what} must be an integer from {lo} to {hi}, got {}",
            v.unwrap_or(&Value::Null)
        )),
    }
}

fn name(v: &Value, what: &str) -> Bad<String> {
    let ok = v.as_str().filter(|s| {
        !s.is_empty()
            && s.len() <= MAX_NAME
            && s.chars().all(|c| (' '..='~').contains(&c))
            && s.split_whitespace().collect::<Vec<_>>().join(" ") == *s
    });
    ok.map(str::to_string).ok_or_else(|| {
        format!("{what} must be 1 to {MAX_NAME} printable ASCII characters, single-spaced, got {v}")
    })
}

fn object<'a>(
    v: &'a Value,
    what: &str,
    keys: &[&str],
    required: &[&str],
) -> Bad<&'a Map<String, Value>> {
    let obj = v
        .as_object()
        .ok_or_else(|| format!("{what} must be an object, got {v}"))?;
    if let Some(k) = obj.keys().find(|k| !keys.contains(&k.as_str())) {
        return Err(format!(
            "{what} has an unknown field '{k}' (fields: {})",
            keys.join(", ")
        ));
    }
    if let Some(k) = required.iter().find(|k| !obj.contains_key(**k)) {
        return Err(format!("{what} has no field '{k}'"));
    }
    Ok(obj)
}

fn code<T: Copy>(
    v: Option<&Value>,
    what: &str,
    codes: &[(&str, T)],
    nullable: bool,
) -> Bad<Option<T>> {
    let v = v.unwrap_or(&Value::Null);
    if v.is_null() && nullable {
        return Ok(None);
    }
    v.as_str()
        .and_then(|s| codes.iter().find(|(c, _)| *c == s))
        .map(|(_, t)| Some(*t))
        .ok_or_else(|| {
            let names: Vec<&str> = codes.iter().map(|(c, _)| *c).collect();
            let null = if nullable { "null or " } else { "" };
            format!("{what} must be {null}one of {}, got {v}", names.join(", "))
        })
}

fn list<'a>(v: &'a Value, what: &str, lo: usize, hi: usize) -> Bad<&'a Vec<Value>> {
    v.as_array()
        .filter(|a| (lo..=hi).contains(&a.len()))
        .ok_or_else(|| format!("{what} must be a list of {lo} to {hi} entries"))
}

fn unique<'a>(items: impl Iterator<Item = (i64, &'a str)>, what: &str) -> Bad<()> {
    let mut ids = Vec::new();
    let mut names = Vec::new();
    for (id, n) in items {
        if ids.contains(&id) {
            return Err(format!("{what}: id {id} appears twice"));
        }
        let lower = n.to_lowercase();
        if names.contains(&lower) {
            return Err(format!("{what}: name '{n}' appears twice"));
        }
        ids.push(id);
        names.push(lower);
    }
    Ok(())
}

fn character(v: &Value, i: usize) -> Bad<Character> {
    let what = format!("characters[{i}]");
    let keys = ["id", "name", "colour", "cost", "effect", "points", "score"];
    let c = object(v, &what, &keys, &["id", "name", "colour", "cost", "points"])?;
    let id = int(c.get("id"), &format!("{what}.id"), 0, u32::MAX as i64)? as u32;
    let name = name(&c["name"], &format!("{what}.name"))?;
    let colours: Vec<(&str, u8)> = CHAR_COLOURS.iter().zip(0..).map(|(&n, i)| (n, i)).collect();
    let colour = code(c.get("colour"), &format!("{what}.colour"), &colours, false)?.unwrap_or(0);
    let mut slots = Vec::new();
    for icon in list(&c["cost"], &format!("{what}.cost"), 1, MAX_SLOTS)? {
        slots.extend(parse_icon(icon).map_err(|e| format!("{what}.cost: {e}"))?);
    }
    if slots.len() > MAX_SLOTS || slots.iter().filter(|&&s| s == PAIR_FIRST).count() > MAX_PAIRS {
        return Err(format!(
            "{what}.cost may need at most {MAX_SLOTS} cards and {MAX_PAIRS} '2=' icons"
        ));
    }
    Ok(Character {
        id,
        name,
        colour,
        slots,
        effect: code(c.get("effect"), &format!("{what}.effect"), &EFFECTS, true)?,
        points: int(c.get("points"), &format!("{what}.points"), -100, 100)?,
        score: code(c.get("score"), &format!("{what}.score"), &SCORE_ICONS, true)?,
    })
}

fn parse(data: &Value, players: usize) -> Bad<CardSet> {
    let keys = [
        "resources",
        "king",
        "queen",
        "characters",
        "castles",
        "standards",
    ];
    let d = object(
        data,
        "the card set",
        &keys,
        &["resources", "characters", "castles", "standards"],
    )?;
    let res = object(&d["resources"], "resources", &KIND_NAMES, &[])?;
    let mut resources = [0u8; KINDS];
    for (slot, k) in resources.iter_mut().zip(KIND_NAMES) {
        let given = res.get(k).unwrap_or(&Value::from(0)).clone();
        *slot = int(
            Some(&given),
            &format!("resources['{k}']"),
            0,
            MAX_RESOURCES as i64,
        )? as u8;
    }
    let total: usize = resources.iter().map(|&r| r as usize).sum();
    if !(MIN_RESOURCES..=MAX_RESOURCES).contains(&total) {
        return Err(format!(
            "resources must hold {MIN_RESOURCES} to {MAX_RESOURCES} cards in all, not {total}"
        ));
    }
    let characters = list(&d["characters"], "characters", 0, MAX_CHARACTERS)?
        .iter()
        .enumerate()
        .map(|(i, c)| character(c, i))
        .collect::<Bad<Vec<_>>>()?;
    if characters.len() < MIN_CHARACTERS {
        return Err(format!(
            "characters must be a list of {MIN_CHARACTERS} to {MAX_CHARACTERS} entries"
        ));
    }
    unique(
        characters.iter().map(|c| (c.id as i64, c.name.as_str())),
        "characters",
    )?;
    let mut castles = Vec::new();
    let mut castle_ids = Vec::new();
    for (i, v) in list(&d["castles"], "castles", 1, MAX_CASTLES)?
        .iter()
        .enumerate()
    {
        let what = format!("castles[{i}]");
        let c = object(v, &what, &["id", "name", "advantage"], &["id", "name"])?;
        castle_ids.push(int(c.get("id"), &format!("{what}.id"), 0, u32::MAX as i64)?);
        castles.push(Castle {
            name: name(&c["name"], &format!("{what}.name"))?,
            advantage: code(
                c.get("advantage"),
                &format!("{what}.advantage"),
                &ADVANTAGES,
                true,
            )?,
        });
    }
    unique(
        castle_ids
            .iter()
            .copied()
            .zip(castles.iter().map(|c| c.name.as_str())),
        "castles",
    )?;
    if castles.len() < players {
        return Err(format!(
            "castles must hold at least one castle per player ({players})"
        ));
    }
    let mut standards = Vec::new();
    let mut standard_ids = Vec::new();
    for (i, v) in list(&d["standards"], "standards", 1, MAX_STANDARDS)?
        .iter()
        .enumerate()
    {
        let what = format!("standards[{i}]");
        let s = object(
            v,
            &what,
            &["id", "name", "counts"],
            &["id", "name", "counts"],
        )?;
        standard_ids.push(int(s.get("id"), &format!("{what}.id"), 0, u32::MAX as i64)?);
        let name = name(&s["name"], &format!("{what}.name"))?;
        let counts = code(
            s.get("counts"),
            &format!("{what}.counts"),
            &CONDITIONS,
            false,
        )?;
        standards.push(Standard {
            name,
            counts: counts.unwrap_or(Condition::Hand),
        });
    }
    unique(
        standard_ids
            .iter()
            .copied()
            .zip(standards.iter().map(|s| s.name.as_str())),
        "standards",
    )?;
    if standards.len() < players + 1 {
        return Err(format!(
            "standards must hold at least players + 1 ({}) standards",
            players + 1
        ));
    }
    let royal = |key: &str| -> Bad<Option<usize>> {
        match d.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_i64()
                .filter(|_| !v.is_boolean())
                .and_then(|id| characters.iter().position(|c| c.id as i64 == id))
                .map(Some)
                .ok_or_else(|| format!("{key} must be null or the id of a character, got {v}")),
        }
    };
    let (king, queen) = (royal("king")?, royal("queen")?);
    Ok(CardSet {
        resources,
        characters,
        castles,
        standards,
        king,
        queen,
    })
}

/// Validates a card set given as JSON data (`None`: the default set) for `players` seats.
pub fn parse_card_set(data: Option<&Value>, players: usize) -> Result<CardSet> {
    let default;
    let data = match data {
        Some(d) => d,
        None => {
            default = serde_json::from_str::<Value>(DEFAULT_CARD_SET).map_err(|e| {
                Error::InvalidOption(format!("regnum: the default card set is not JSON: {e}"))
            })?;
            &default
        }
    };
    parse(data, players).map_err(|e| {
        Error::InvalidOption(format!(
            "regnum: option 'card_set' is not a valid card set: {e}"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_default_set_is_valid_and_complete() {
        let set = parse_card_set(None, 4).unwrap();
        assert_eq!(set.resources.iter().map(|&r| r as usize).sum::<usize>(), 60);
        assert_eq!(set.characters.len(), 36);
        assert_eq!((set.castles.len(), set.standards.len()), (6, 8));
        assert_eq!(set.characters[5].slots, vec![PAIR_FIRST, PAIR_SECOND, 0, 1]);
        assert_eq!((set.king, set.queen), (Some(0), Some(1)));
    }

    #[test]
    fn icons_parse_and_bad_ones_are_refused() {
        assert_eq!(parse_icon(&json!("G+O+P")).unwrap(), vec![0, 1, 2]);
        assert_eq!(parse_icon(&json!("2Y")).unwrap(), vec![3, 3]);
        assert_eq!(parse_icon(&json!("1")).unwrap(), vec![ANY]);
        for bad in [json!("G+G"), json!("2X"), json!(""), json!(3), json!("G+")] {
            assert!(parse_icon(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn malformed_sets_are_refused_with_the_reason() {
        let base: Value = serde_json::from_str(DEFAULT_CARD_SET).unwrap();
        let mut v = base.clone();
        v["characters"][3]["cost"] = json!(["2Q"]);
        let e = parse_card_set(Some(&v), 2).unwrap_err().to_string();
        assert!(e.contains("characters[3].cost") && e.contains("2Q"), "{e}");
        let mut v = base.clone();
        v["castles"] = json!([{"id": 1, "name": "A"}]);
        let e = parse_card_set(Some(&v), 2).unwrap_err().to_string();
        assert!(e.contains("one castle per player"), "{e}");
        let mut v = base;
        v["characters"][1]["name"] = json!("king");
        let e = parse_card_set(Some(&v), 2).unwrap_err().to_string();
        assert!(e.contains("appears twice"), "{e}");
    }
}
