//! A Project Sol character sheet: attributes, skills with progress, Edge.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::advancement::Skill;
use crate::edge::Edge;

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
