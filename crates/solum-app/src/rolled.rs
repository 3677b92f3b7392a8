//! The dice a journal record keeps: the seed or the typed faces, and every face drawn. Plain
//! data that every record kind and a divergence name, so it depends on no other module.

use serde::{Deserialize, Serialize};

/// The schema version of the records this build writes.
pub const RECORD_SCHEMA: i64 = 1;

/// How the dice of a roll were chosen, and what they showed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Rolled {
    /// The generator's seed, when the program rolled.
    pub seed: Option<u64>,
    /// True when a player rolled real dice and typed the faces in.
    pub typed: bool,
    /// Every face, in the order the rule drew them.
    pub faces: Vec<u32>,
}

/// Dice faces as the lines and the story write them: `4 2 6`.
pub(crate) fn faces(dice: &[u32]) -> String {
    dice.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// `text` with its first letter upper case.
pub(crate) fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
