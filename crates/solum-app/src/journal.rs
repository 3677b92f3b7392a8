//! What the journal keeps: one [`Record`] per entry, with every input and every die, so that
//! history never depends on rolling again and [`replay`] can re-derive each roll.

use serde::{Deserialize, Serialize};
use solum_dice::{DiceSource, RecordingDice, SeededDice, TypedDice};
use solum_expanded::oracle::{self, Leaning, OracleOutcome};

use crate::AppError;

/// The schema version of the records this build writes.
pub const RECORD_SCHEMA: i64 = 1;

/// How the dice of a roll were chosen, and what they showed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rolled {
    /// The generator's seed, when the program rolled.
    pub seed: Option<u64>,
    /// True when a player rolled real dice and typed the faces in.
    pub typed: bool,
    /// Every face, in the order the rule drew them.
    pub faces: Vec<u32>,
}

/// One journal entry's content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Record {
    /// The player's own words.
    Note {
        /// The text.
        text: String,
    },
    /// A scene begins: its description and what the hero wants from it.
    SceneStart {
        /// A short description.
        title: String,
        /// The hero's goal, if set.
        goal: Option<String>,
    },
    /// The open scene ends.
    SceneEnd {
        /// How it ended, if said.
        summary: Option<String>,
    },
    /// A yes/no question put to the oracle (S12).
    Oracle {
        /// The question as asked.
        question: String,
        /// Plain, advantage or disadvantage.
        leaning: Leaning,
        /// The dice.
        rolled: Rolled,
        /// The answer, event and disposition.
        outcome: OracleOutcome,
    },
}

impl Record {
    /// The tag stored beside the record.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Note { .. } => "note",
            Self::SceneStart { .. } => "scene-start",
            Self::SceneEnd { .. } => "scene-end",
            Self::Oracle { .. } => "oracle",
        }
    }
}

/// A stored entry as the application shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JournalEntry {
    /// Position in the journal.
    pub seq: i64,
    /// When it happened (RFC 3339, UTC).
    pub at: String,
    /// What happened.
    #[serde(flatten)]
    pub record: Record,
}

/// Re-derives a record's rolls from its seed or typed faces. `Ok(None)`: it matches (or has
/// no dice); `Ok(Some(reason))`: it does not, and why.
pub fn replay(record: &Record) -> Result<Option<String>, AppError> {
    match record {
        Record::Note { .. } | Record::SceneStart { .. } | Record::SceneEnd { .. } => Ok(None),
        Record::Oracle {
            leaning,
            rolled,
            outcome,
            ..
        } => {
            let derived = derive(rolled, |d| oracle::ask(*leaning, d));
            Ok(match derived {
                Err(e) => Some(format!("its dice cannot be replayed: {e}")),
                Ok((_, faces)) if faces != rolled.faces => Some(format!(
                    "recorded faces {:?}, the {} gives {:?}",
                    rolled.faces,
                    if rolled.typed { "typed dice" } else { "seed" },
                    faces
                )),
                Ok((again, _)) if again != *outcome => Some(format!(
                    "recorded answer {}, the dice give {}",
                    outcome.answer.text(),
                    again.answer.text()
                )),
                Ok(_) => None,
            })
        }
    }
}

/// Runs a rule on the source a [`Rolled`] names, returning its outcome and the faces drawn.
fn derive<T>(
    rolled: &Rolled,
    rule: impl FnOnce(&mut dyn DiceSource) -> Result<T, solum_dice::DiceError>,
) -> Result<(T, Vec<u32>), AppError> {
    if rolled.typed {
        let mut dice = RecordingDice::new(TypedDice::new(rolled.faces.clone()));
        let out = rule(&mut dice)?;
        let faces = dice.faces().iter().map(|&(_, f)| f).collect();
        let typed = dice.into_inner();
        typed
            .finish()
            .map_err(|(used, given)| AppError::UnusedDice { given, used })?;
        Ok((out, faces))
    } else {
        let seed = rolled.seed.ok_or(AppError::BadImport(
            "a generated roll without its seed".into(),
        ))?;
        let mut dice = RecordingDice::new(SeededDice::new(seed));
        let out = rule(&mut dice)?;
        let faces = dice.faces().iter().map(|&(_, f)| f).collect();
        Ok((out, faces))
    }
}

/// Rolls a rule from a fresh source and keeps what a [`Rolled`] needs.
pub(crate) fn roll<T>(
    dice: crate::Dice,
    rule: impl FnOnce(&mut dyn DiceSource) -> Result<T, solum_dice::DiceError>,
) -> Result<(T, Rolled), AppError> {
    let rolled = match dice {
        crate::Dice::Seed(seed) => Rolled {
            seed: Some(seed),
            typed: false,
            faces: Vec::new(),
        },
        crate::Dice::Fresh => Rolled {
            seed: Some(SeededDice::from_entropy().seed()),
            typed: false,
            faces: Vec::new(),
        },
        crate::Dice::Typed(faces) => Rolled {
            seed: None,
            typed: true,
            faces,
        },
    };
    let (out, faces) = derive(&rolled, rule)?;
    Ok((out, Rolled { faces, ..rolled }))
}
