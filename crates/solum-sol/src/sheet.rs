//! A Project Sol character sheet: attributes, skills with progress, Edge.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::advancement::Skill;
use crate::edge::{Burn, Edge, EdgeError};

/// The physical attributes, one of which Not Dead Yet lowers.
pub const PHYSICAL: [&str; 4] = ["BOD", "AGI", "REA", "STR"];

/// Not Dead Yet cannot be burnt as asked.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NotDeadYetError {
    /// No Edge attribute left to burn.
    #[error(transparent)]
    Edge(#[from] EdgeError),
    /// The sheet has no physical attribute above 0.
    #[error("no physical attribute (BOD, AGI, REA, STR) above 0 to lower")]
    NoPhysical,
    /// Several attributes tie for highest and none was chosen.
    #[error("{} tie for the highest physical attribute at {value}: choose one of them", .tied.join(", "))]
    Tie {
        /// The tied attributes.
        tied: Vec<String>,
        /// Their value.
        value: u32,
    },
    /// The chosen attribute is not (one of) the highest.
    #[error("{chosen} is not the highest physical attribute: choose {}", .highest.join(" or "))]
    NotHighest {
        /// The attribute named.
        chosen: String,
        /// The highest ones.
        highest: Vec<String>,
    },
}

/// What Not Dead Yet did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Lowered {
    /// The attribute lowered, as the sheet names it.
    pub attribute: String,
    /// Its value before.
    pub from: u32,
    /// Its value now.
    pub to: u32,
}

/// The version of the sheet format written by this code.
pub const SHEET_SCHEMA: u32 = 1;

/// A Project Sol character.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sheet {
    /// File format version.
    pub schema: u32,
    /// Name.
    pub name: String,
    /// Edge: attribute and points now.
    pub edge: Edge,
    /// Attributes by name (AGI, LOG, REA …).
    #[serde(default)]
    pub attributes: BTreeMap<String, u32>,
    /// Skills.
    #[serde(default)]
    pub skills: Vec<Skill>,
    /// Training sessions used this game session (one allowed).
    #[serde(default)]
    pub trained_this_session: bool,
}

impl Sheet {
    /// An attribute by name, any case.
    pub fn attribute(&self, name: &str) -> Option<u32> {
        self.attributes
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| *v)
    }

    /// The highest physical attributes present on the sheet (several on a tie), as the
    /// sheet names them, and their value.
    pub fn highest_physical(&self) -> (Vec<String>, u32) {
        let physical: Vec<(&String, u32)> = self
            .attributes
            .iter()
            .filter(|(k, _)| PHYSICAL.iter().any(|p| p.eq_ignore_ascii_case(k)))
            .map(|(k, v)| (k, *v))
            .collect();
        let top = physical.iter().map(|(_, v)| *v).max().unwrap_or(0);
        let names = physical
            .iter()
            .filter(|(_, v)| *v == top)
            .map(|(k, _)| (*k).clone())
            .collect();
        (names, top)
    }

    /// Not Dead Yet (P2): burns a point of Edge and lowers the highest physical attribute
    /// (BOD, AGI, REA, STR) by 1; on a tie the player names which (`choice`, any case).
    /// Nothing changes when it fails.
    pub fn not_dead_yet(&mut self, choice: Option<&str>) -> Result<Lowered, NotDeadYetError> {
        if self.edge.attribute == 0 {
            return Err(EdgeError::NothingToBurn.into());
        }
        let (highest, value) = self.highest_physical();
        if value == 0 {
            return Err(NotDeadYetError::NoPhysical);
        }
        let name = match choice {
            Some(c) => highest
                .iter()
                .find(|h| h.eq_ignore_ascii_case(c))
                .cloned()
                .ok_or_else(|| NotDeadYetError::NotHighest {
                    chosen: c.to_owned(),
                    highest: highest.clone(),
                })?,
            None if highest.len() == 1 => highest[0].clone(),
            None => {
                return Err(NotDeadYetError::Tie {
                    tied: highest,
                    value,
                });
            }
        };
        self.edge.burn(Burn::NotDeadYet)?;
        let v = self.attributes.get_mut(&name).expect("found above");
        *v -= 1;
        Ok(Lowered {
            attribute: name,
            from: value,
            to: value - 1,
        })
    }

    /// A skill by name, any case.
    pub fn skill_mut(&mut self, name: &str) -> Option<&mut Skill> {
        self.skills
            .iter_mut()
            .find(|s| s.name.eq_ignore_ascii_case(name))
    }

    /// A skill's ranks (0 if the sheet does not list it).
    pub fn ranks(&self, name: &str) -> u32 {
        self.skills
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
            .map_or(0, |s| s.ranks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sheet(attrs: &[(&str, u32)], edge: u32) -> Sheet {
        Sheet {
            schema: SHEET_SCHEMA,
            name: "Cole".into(),
            edge: Edge::new(edge),
            attributes: attrs.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect(),
            skills: Vec::new(),
            trained_this_session: false,
        }
    }

    #[test]
    fn not_dead_yet_lowers_the_highest_physical_attribute() {
        // LOG 6 is higher but mental: AGI 5 is the highest physical attribute.
        let mut s = sheet(&[("BOD", 3), ("AGI", 5), ("REA", 4), ("LOG", 6)], 2);
        let l = s.not_dead_yet(None).unwrap();
        assert_eq!((l.attribute.as_str(), l.from, l.to), ("AGI", 5, 4));
        assert_eq!(s.attribute("AGI"), Some(4));
        assert_eq!((s.edge.attribute, s.edge.points), (1, 1));
        // Naming another than the highest is refused, and changes nothing.
        let before = s.clone();
        // Now AGI 4 and REA 4 tie.
        assert!(matches!(
            s.not_dead_yet(Some("BOD")),
            Err(NotDeadYetError::NotHighest { .. })
        ));
        assert_eq!(s, before);
    }

    #[test]
    fn a_tie_is_the_players_choice() {
        let mut s = sheet(&[("bod", 4), ("STR", 4), ("AGI", 2)], 1);
        let err = s.not_dead_yet(None).unwrap_err();
        assert_eq!(
            err,
            NotDeadYetError::Tie {
                tied: vec!["STR".into(), "bod".into()],
                value: 4
            }
        );
        assert!(err.to_string().contains("STR, bod tie"));
        assert_eq!(s.edge.attribute, 1, "nothing burnt on an error");
        let l = s.not_dead_yet(Some("BOD")).unwrap();
        assert_eq!((l.attribute.as_str(), l.to), ("bod", 3));
        // No Edge left to burn: refused before anything changes.
        assert_eq!(
            s.not_dead_yet(Some("STR")),
            Err(NotDeadYetError::Edge(EdgeError::NothingToBurn))
        );
        assert_eq!(s.attribute("STR"), Some(4));
        // No physical attribute at all.
        assert_eq!(
            sheet(&[("LOG", 3)], 1).not_dead_yet(None),
            Err(NotDeadYetError::NoPhysical)
        );
    }
}
