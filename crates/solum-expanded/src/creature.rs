//! NPCs and monsters (the optional rule "Hitpoints and NPCs"): a combat pool, hit points and
//! damage, decoupled from attributes. A bestiary ships with the crate; a GM adds files of
//! the same shape.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::MAX_POOL;
use crate::fight::{MAX_DAMAGE, MAX_FIGHT_HP};

/// The bestiary shipped with solum.
pub const SHIPPED_BESTIARY: &str = include_str!("../data/bestiary.toml");

/// An NPC or monster for standard combat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = expanded::Creature))]
pub struct Creature {
    /// What it is.
    pub name: String,
    /// Combat dice (Body + a background).
    pub pool: u32,
    /// Hit points.
    pub hit_points: u32,
    /// Damage of its melee weapon.
    pub damage: u32,
    /// Orders opponents in initiative (Mind, high first).
    #[serde(default = "one")]
    pub mind: u32,
    /// Damage of its ranged weapon, if it can shoot.
    #[serde(default)]
    pub ranged_damage: Option<u32>,
    /// Its ranged weapon is made to fight vehicles (S10): it harms vehicles of any size.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub anti_vehicle: bool,
    /// Free notes.
    #[serde(default)]
    pub notes: String,
}

fn one() -> u32 {
    1
}

/// An opposition for fast static combat: a difficulty, hit points and damage (S11).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = expanded::StaticFoe))]
pub struct StaticFoe {
    /// What it is.
    pub name: String,
    /// The difficulty the hero rolls against each round.
    pub difficulty: u32,
    /// Hit points.
    pub hit_points: u32,
    /// Damage dealt to the hero on a failed round.
    pub damage: u32,
    /// Free notes.
    #[serde(default)]
    pub notes: String,
}

/// A bestiary file: `[[creature]]` and `[[static]]` entries.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BestiaryFile {
    /// Creatures for standard combat.
    #[serde(default)]
    pub creature: Vec<Creature>,
    /// Oppositions for fast static combat.
    #[serde(default, rename = "static")]
    pub static_foes: Vec<StaticFoe>,
}

/// A bestiary entry that breaks the rules.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{entry}: {field}: {problem}")]
pub struct CreatureError {
    /// The entry's name.
    pub entry: String,
    /// The field at fault.
    pub field: &'static str,
    /// What is wrong.
    pub problem: String,
}

impl Creature {
    /// Checks the numbers are ones the engine can use; the problem repeats the value and
    /// the limit.
    pub fn validate(&self) -> Result<(), CreatureError> {
        let err = |field, problem: String| CreatureError {
            entry: self.name.clone(),
            field,
            problem,
        };
        if self.name.trim().is_empty() {
            return Err(err("name", "a creature needs a name".to_owned()));
        }
        if !(1..=MAX_POOL).contains(&self.pool) {
            return Err(err(
                "pool",
                format!(
                    "{} dice is not possible: a pool has 1 to {MAX_POOL}",
                    self.pool
                ),
            ));
        }
        check_hit_points(self.hit_points).map_err(|p| err("hit_points", p))?;
        check_damage(self.damage).map_err(|p| err("damage", p))?;
        if let Some(d) = self.ranged_damage {
            check_damage(d).map_err(|p| err("ranged_damage", p))?;
        }
        if !(1..=MAX_POOL).contains(&self.mind) {
            return Err(err(
                "mind",
                format!("{} is not possible: mind is 1 to {MAX_POOL}", self.mind),
            ));
        }
        if self.anti_vehicle && self.ranged_damage.is_none() {
            return Err(err(
                "anti_vehicle",
                "only a ranged weapon (ranged_damage) can be made to fight vehicles".to_string(),
            ));
        }
        Ok(())
    }
}

fn check_hit_points(hp: u32) -> Result<(), String> {
    if (1..=MAX_FIGHT_HP).contains(&hp) {
        Ok(())
    } else {
        Err(format!(
            "{hp} is not possible: 1 to {MAX_FIGHT_HP} hit points"
        ))
    }
}

fn check_damage(damage: u32) -> Result<(), String> {
    if damage <= MAX_DAMAGE {
        Ok(())
    } else {
        Err(format!(
            "{damage} is not possible: damage is 0 to {MAX_DAMAGE}"
        ))
    }
}

impl StaticFoe {
    /// Checks the numbers are ones the engine can use; the problem repeats the value and
    /// the limit.
    pub fn validate(&self) -> Result<(), CreatureError> {
        let err = |field, problem: String| CreatureError {
            entry: self.name.clone(),
            field,
            problem,
        };
        if self.name.trim().is_empty() {
            return Err(err("name", "an opposition needs a name".to_owned()));
        }
        if !(1..=crate::MAX_DIFFICULTY).contains(&self.difficulty) {
            return Err(err(
                "difficulty",
                format!(
                    "{} is not possible: a difficulty is 1 to {}",
                    self.difficulty,
                    crate::MAX_DIFFICULTY
                ),
            ));
        }
        check_hit_points(self.hit_points).map_err(|p| err("hit_points", p))?;
        check_damage(self.damage).map_err(|p| err("damage", p))?;
        Ok(())
    }
}

/// A bestiary key: lower case, with `-` and `_` read as spaces, so `trooper-squad` on a
/// command line finds "trooper squad".
fn key(name: &str) -> String {
    name.trim().to_lowercase().replace(['-', '_'], " ")
}

/// Creatures and static oppositions by lower-case name; later files override earlier ones.
#[derive(Debug, Clone, Default)]
pub struct Bestiary {
    creatures: BTreeMap<String, Creature>,
    static_foes: BTreeMap<String, StaticFoe>,
}

impl Bestiary {
    /// The shipped bestiary.
    pub fn shipped() -> Self {
        let mut b = Self::default();
        let file = parse_bestiary(SHIPPED_BESTIARY).expect("the shipped bestiary parses");
        b.add(file).expect("the shipped bestiary is valid");
        b
    }

    /// Adds the entries of a file (validated), replacing entries of the same name.
    /// The same name twice in one file is refused (which would win is not clear).
    pub fn add(&mut self, file: BestiaryFile) -> Result<(), CreatureError> {
        let duplicate = |name: &str| CreatureError {
            entry: name.to_owned(),
            field: "name",
            problem: "the same name appears twice in this file".to_owned(),
        };
        let mut seen = std::collections::BTreeSet::new();
        for c in &file.creature {
            c.validate()?;
            if !seen.insert(key(&c.name)) {
                return Err(duplicate(&c.name));
            }
        }
        let mut seen = std::collections::BTreeSet::new();
        for s in &file.static_foes {
            s.validate()?;
            if !seen.insert(key(&s.name)) {
                return Err(duplicate(&s.name));
            }
        }
        for c in file.creature {
            self.creatures.insert(key(&c.name), c);
        }
        for s in file.static_foes {
            self.static_foes.insert(key(&s.name), s);
        }
        Ok(())
    }

    /// A creature by name (any case).
    pub fn creature(&self, name: &str) -> Option<&Creature> {
        self.creatures.get(&key(name))
    }

    /// A static opposition by name (any case).
    pub fn static_foe(&self, name: &str) -> Option<&StaticFoe> {
        self.static_foes.get(&key(name))
    }

    /// All creatures, by name.
    pub fn creatures(&self) -> impl Iterator<Item = &Creature> {
        self.creatures.values()
    }

    /// All static oppositions, by name.
    pub fn static_foes(&self) -> impl Iterator<Item = &StaticFoe> {
        self.static_foes.values()
    }
}

/// Reads a bestiary file's text (TOML). The caller reads the file; this only parses.
pub fn parse_bestiary(text: &str) -> Result<BestiaryFile, toml::de::Error> {
    toml::from_str(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_bestiary_loads() {
        let b = Bestiary::shipped();
        let orc = b.creature("Orc").unwrap();
        assert_eq!((orc.pool, orc.hit_points, orc.damage), (2, 3, 2));
        let squad = b.static_foe("trooper squad").unwrap();
        assert_eq!(
            (squad.difficulty, squad.hit_points, squad.damage),
            (4, 5, 2)
        );
        assert!(b.creatures().count() >= 10);
        assert_eq!(b.static_foe("Trooper-Squad"), Some(squad));
        assert!(b.creature("giant_rat").is_some());
    }

    fn file(text: &str) -> BestiaryFile {
        parse_bestiary(text).unwrap()
    }

    #[test]
    fn out_of_range_numbers_name_the_entry_the_field_and_the_limit() {
        let mut b = Bestiary::default();
        let e = b
            .add(file(
                "[[creature]]\nname = \"titan\"\npool = 100000\nhit_points = 5\ndamage = 1\n",
            ))
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "titan: pool: 100000 dice is not possible: a pool has 1 to 1000"
        );
        let e = b
            .add(file(
                "[[creature]]\nname = \"wall\"\npool = 2\nhit_points = 10001\ndamage = 1\n",
            ))
            .unwrap_err();
        assert_eq!(e.field, "hit_points");
        assert!(e.problem.contains("10001") && e.problem.contains("10000"));
        let e = b
            .add(file(
                "[[static]]\nname = \"horde\"\ndifficulty = 4\nhit_points = 5\ndamage = 4294967295\n",
            ))
            .unwrap_err();
        assert_eq!(e.field, "damage");
        let e = b
            .add(file(
                "[[creature]]\nname = \"rat\"\npool = 1\nhit_points = 1\ndamage = 1\n\n[[creature]]\nname = \"Rat\"\npool = 2\nhit_points = 1\ndamage = 1\n",
            ))
            .unwrap_err();
        assert_eq!((e.entry.as_str(), e.field), ("Rat", "name"));
        let e = b
            .add(file(
                "[[static]]\nname = \" \"\ndifficulty = 4\nhit_points = 5\ndamage = 1\n",
            ))
            .unwrap_err();
        assert_eq!(e.field, "name");
        // Nothing of a refused file is added.
        assert!(b.creature("rat").is_none());
    }
}
