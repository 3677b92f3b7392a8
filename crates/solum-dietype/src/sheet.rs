//! A die-type character: the smallest sheet the text supports.
//!
//! The text gives a character ability die types ("the ability die type determines what die
//! type you roll whenever you try to do something covered by that ability", d4 to d12) and
//! skills that give chances (skilled 2, specialised 3, the most 4; unskilled is 1). It names
//! no fixed list of abilities or skills, so a sheet names its own. Weapons are the one other
//! thing it ties to a character: quality is dice of damage, and a magical weapon carries a
//! flat modifier (−4 to +4). Hit points and armour are not in the text; they are not on the
//! sheet.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::DieType;

/// The longest name on a sheet (the character, an ability, a skill, a weapon).
pub const MAX_NAME: usize = 100;
/// The most abilities, skills or weapons one sheet lists.
pub const MAX_ENTRIES: usize = 50;
/// The longest notes, in characters.
pub const MAX_NOTES: usize = 4_000;

/// A weapon: its damage die (one per point of quality) and its flat modifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = dietype::Weapon))]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    /// The damage die.
    pub die: DieType,
    /// The flat modifier, −4 to +4 (a Dagger +1: 1).
    #[serde(default)]
    pub modifier: i32,
}

/// A weapon as a player writes it on one line: its die and modifier, `d4`, `d4+1`, `d8-2`.
impl std::str::FromStr for Weapon {
    type Err = solum_dice::ShorthandError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        let (die, modifier) = match t.find(['+', '-']) {
            Some(i) => (
                &t[..i],
                t[i..]
                    .parse::<i32>()
                    .map_err(|_| solum_dice::ShorthandError::Part {
                        written: s.trim().to_owned(),
                        problem: "the modifier is a number, -4 to +4".into(),
                    })?,
            ),
            None => (t.as_str(), 0),
        };
        let die =
            die.parse()
                .map_err(|e: crate::DieTypeError| solum_dice::ShorthandError::Part {
                    written: s.trim().to_owned(),
                    problem: e.to_string(),
                })?;
        Ok(Self { die, modifier })
    }
}

/// A die-type character sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = dietype::Sheet))]
#[serde(deny_unknown_fields)]
pub struct Sheet {
    /// The character's name.
    pub name: String,
    /// Each ability's die type.
    #[serde(default)]
    pub abilities: BTreeMap<String, DieType>,
    /// Each skill's chances: 1 (unskilled) to 4.
    #[serde(default)]
    pub skills: BTreeMap<String, u32>,
    /// Weapons by name.
    #[serde(default)]
    pub weapons: BTreeMap<String, Weapon>,
    /// Free notes.
    #[serde(default)]
    pub notes: String,
}

/// A sheet that breaks a rule or a limit: the field and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{field}: {problem}")]
pub struct SheetError {
    /// The field, as the TOML sheet names it (`skills.swords`).
    pub field: String,
    /// What is wrong.
    pub problem: String,
}

fn fail<T>(field: impl Into<String>, problem: impl Into<String>) -> Result<T, SheetError> {
    Err(SheetError {
        field: field.into(),
        problem: problem.into(),
    })
}

/// Checks a name: words, at most [`MAX_NAME`] characters, no control characters.
pub fn check_name(field: &str, name: &str) -> Result<(), SheetError> {
    let t = name.trim();
    if t.is_empty() {
        return fail(field, "needs words");
    }
    if t != name {
        return fail(field, format!("`{name}` has spaces around it"));
    }
    let len = t.chars().count();
    if len > MAX_NAME {
        return fail(field, format!("{len} characters; the limit is {MAX_NAME}"));
    }
    if t.chars().any(char::is_control) {
        return fail(field, "holds a control character");
    }
    Ok(())
}

/// Finds `named` among `keys` in any case.
fn find<'a, V>(map: &'a BTreeMap<String, V>, named: &str) -> Option<(&'a String, &'a V)> {
    let key = named.trim().to_lowercase();
    map.iter().find(|(k, _)| k.to_lowercase() == key)
}

impl Sheet {
    /// Checks the sheet against the text (skills 1 to 4 chances, modifiers −4 to +4) and the
    /// limits; names are unique in any case.
    pub fn validate(&self) -> Result<(), SheetError> {
        check_name("name", &self.name)?;
        fn names<V>(what: &str, map: &BTreeMap<String, V>) -> Result<(), SheetError> {
            if map.len() > MAX_ENTRIES {
                return fail(
                    what,
                    format!("{} listed; the limit is {MAX_ENTRIES}", map.len()),
                );
            }
            let mut seen = std::collections::BTreeSet::new();
            for k in map.keys() {
                check_name(&format!("{what}.{k}"), k)?;
                if !seen.insert(k.to_lowercase()) {
                    return fail(format!("{what}.{k}"), "listed twice (names ignore case)");
                }
            }
            Ok(())
        }
        names("abilities", &self.abilities)?;
        names("skills", &self.skills)?;
        names("weapons", &self.weapons)?;
        for (k, &c) in &self.skills {
            if !(1..=4).contains(&c) {
                return fail(
                    format!("skills.{k}"),
                    format!("{c} chances: a skill gives 1 (unskilled) to 4 chances"),
                );
            }
        }
        for (k, w) in &self.weapons {
            if !(-4..=4).contains(&w.modifier) {
                return fail(
                    format!("weapons.{k}.modifier"),
                    format!("{}: modifiers run from -4 to +4", w.modifier),
                );
            }
        }
        let notes = self.notes.chars().count();
        if notes > MAX_NOTES {
            return fail(
                "notes",
                format!("{notes} characters; the limit is {MAX_NOTES}"),
            );
        }
        if self
            .notes
            .chars()
            .any(|c| c.is_control() && c != '\n' && c != '\t')
        {
            return fail("notes", "holds a control character");
        }
        Ok(())
    }

    /// An ability's name as written and its die type, named in any case.
    pub fn ability(&self, named: &str) -> Result<(&str, DieType), SheetError> {
        find(&self.abilities, named)
            .map(|(k, &d)| (k.as_str(), d))
            .ok_or_else(|| SheetError {
                field: "ability".into(),
                problem: format!(
                    "{} has no ability `{}` (theirs: {})",
                    self.name,
                    named.trim(),
                    listed(self.abilities.keys())
                ),
            })
    }

    /// A skill's name as written and its chances, named in any case.
    pub fn skill(&self, named: &str) -> Result<(&str, u32), SheetError> {
        find(&self.skills, named)
            .map(|(k, &c)| (k.as_str(), c))
            .ok_or_else(|| SheetError {
                field: "skill".into(),
                problem: format!(
                    "{} has no skill `{}` (theirs: {})",
                    self.name,
                    named.trim(),
                    listed(self.skills.keys())
                ),
            })
    }

    /// A weapon's name as written and its stats, named in any case.
    pub fn weapon(&self, named: &str) -> Result<(&str, Weapon), SheetError> {
        find(&self.weapons, named)
            .map(|(k, &w)| (k.as_str(), w))
            .ok_or_else(|| SheetError {
                field: "weapon".into(),
                problem: format!(
                    "{} has no weapon `{}` (theirs: {})",
                    self.name,
                    named.trim(),
                    listed(self.weapons.keys())
                ),
            })
    }
}

fn listed<'a>(keys: impl Iterator<Item = &'a String>) -> String {
    let v: Vec<&str> = keys.map(String::as_str).collect();
    if v.is_empty() {
        "none".into()
    } else {
        v.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn aria() -> Sheet {
        Sheet {
            name: "Aria".into(),
            abilities: [("Agility".to_owned(), DieType::D8)].into(),
            skills: [("Swords".to_owned(), 2)].into(),
            weapons: [(
                "Dagger".to_owned(),
                Weapon {
                    die: DieType::D4,
                    modifier: 1,
                },
            )]
            .into(),
            notes: String::new(),
        }
    }

    #[test]
    fn a_sheet_holds_the_text_s_ranges() {
        assert!(aria().validate().is_ok());
        let mut s = aria();
        s.skills.insert("Bows".into(), 5);
        assert_eq!(s.validate().unwrap_err().field, "skills.Bows");
        let mut s = aria();
        s.skills.insert("Bows".into(), 0);
        assert!(s.validate().is_err());
        let mut s = aria();
        s.weapons.get_mut("Dagger").unwrap().modifier = 5;
        assert_eq!(s.validate().unwrap_err().field, "weapons.Dagger.modifier");
        let mut s = aria();
        s.abilities.insert("agility".into(), DieType::D4);
        assert!(s.validate().unwrap_err().problem.contains("twice"));
    }

    #[test]
    fn entries_are_found_in_any_case() {
        let s = aria();
        assert_eq!(s.ability("agility").unwrap(), ("Agility", DieType::D8));
        assert_eq!(s.skill(" SWORDS ").unwrap(), ("Swords", 2));
        assert!(s.skill("bows").unwrap_err().problem.contains("Swords"));
    }

    #[test]
    fn the_toml_sheet_reads_die_types_as_written() {
        let s: Sheet = toml::from_str(
            "name = \"Aria\"\n[abilities]\nAgility = \"d8\"\n[skills]\nSwords = 2\n",
        )
        .unwrap();
        assert_eq!(s.abilities["Agility"], DieType::D8);
        assert!(toml::from_str::<Sheet>("name = \"A\"\n[abilities]\nX = \"d7\"\n").is_err());
    }
}
