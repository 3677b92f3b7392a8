//! How a use case journals: it rolls a rule on the dice it was given ([`roll`]), keeps what
//! a [`Rolled`] needs to re-derive it ([`derive`]), and stores its record kind as an entry
//! ([`new_entry`], [`append`]).
//!
//! A system's record kind is [`Journaled`]: its tag is all the journal needs to store it, so
//! a system names no other system and not the journal's [`crate::Record`], which names every
//! kind (the registry is the one list of `record_kinds!` in `journal.rs`).

use jiff::Timestamp;
use serde::Serialize;
use solum_dice::{DiceSource, RecordingDice, SeededDice, TypedDice};
use solum_store::{Entry, NewEntry, WriteTx};

use crate::rolled::{RECORD_SCHEMA, Rolled};
use crate::{AppError, Dice};

/// A system's record kind, stored as its fields beside the `kind` tag (the form of its
/// variant of [`crate::Record`], which reads it back).
pub(crate) trait Journaled: Serialize {
    /// The tag it is stored under: its variant's tag in [`crate::Record`].
    const KIND: &'static str;
}

/// The journal entry for `record`, dated `at`.
pub(crate) fn new_entry<R: Journaled>(at: &Timestamp, record: &R) -> Result<NewEntry, AppError> {
    let internal = |problem: String| AppError::internal("record", problem);
    let serde_json::Value::Object(mut body) =
        serde_json::to_value(record).map_err(|e| internal(e.to_string()))?
    else {
        return Err(internal(format!("a {} record is not an object", R::KIND)));
    };
    body.insert("kind".into(), R::KIND.into());
    Ok(NewEntry {
        at: at.to_owned(),
        kind: R::KIND.to_owned(),
        schema: RECORD_SCHEMA,
        body: serde_json::Value::Object(body),
    })
}

/// Appends `record` in the write `tx`, dated `at`: the entry as stored.
pub(crate) fn append_stored<R: Journaled>(
    tx: &mut dyn WriteTx,
    at: &Timestamp,
    record: &R,
) -> Result<Entry, AppError> {
    tx.append(&[new_entry(at, record)?])?
        .pop()
        .ok_or_else(|| AppError::internal("record", "the store kept no entry"))
}

/// Appends `record` in the write `tx`, dated `at`: the entry's number.
pub(crate) fn append<R: Journaled>(
    tx: &mut dyn WriteTx,
    at: &Timestamp,
    record: &R,
) -> Result<i64, AppError> {
    append_stored(tx, at, record).map(|e| e.seq)
}

/// Runs a rule on the source a [`Rolled`] names, returning its outcome and the faces drawn.
pub(crate) fn derive<T>(
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
        let seed = rolled.seed.ok_or(crate::ImportProblem::RollWithoutSeed)?;
        let mut dice = RecordingDice::new(SeededDice::new(seed));
        let out = rule(&mut dice)?;
        let faces = dice.faces().iter().map(|&(_, f)| f).collect();
        Ok((out, faces))
    }
}

/// Rolls a rule from a fresh source and keeps what a [`Rolled`] needs.
pub(crate) fn roll<T>(
    dice: Dice,
    rule: impl FnOnce(&mut dyn DiceSource) -> Result<T, solum_dice::DiceError>,
) -> Result<(T, Rolled), AppError> {
    let rolled = match dice {
        Dice::Seed(seed) => Rolled {
            seed: Some(seed),
            typed: false,
            faces: Vec::new(),
        },
        Dice::Fresh => Rolled {
            seed: Some(SeededDice::from_entropy().seed()),
            typed: false,
            faces: Vec::new(),
        },
        Dice::Typed(faces) => Rolled {
            seed: None,
            typed: true,
            faces,
        },
    };
    let (out, faces) = derive(&rolled, rule)?;
    Ok((out, Rolled { faces, ..rolled }))
}
