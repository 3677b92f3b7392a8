//! The sheets a journal re-derives: every record that changes a stored sheet keeps the sheet
//! after the change, so reading the journal in order gives what each stored sheet must be.
//! `journal verify` compares every stored sheet with it, so a sheet edited behind the
//! journal's back (directly in the database) is found.

use std::collections::HashMap;

use serde::Serialize;
use serde_json::Value;
use solum_store::{Sheet, name_key};

use crate::journal::Record;
use crate::records::{SheetChange, empty_sheet, stored_as_now};

/// The systems whose stored sheets the journal re-derives.
pub(crate) use crate::records::SHEET_SYSTEMS as SYSTEMS;

/// One stored sheet that differs from what its journal gives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SheetMismatch {
    /// Its system (`expanded`, `sol`, `classic`, …).
    pub system: String,
    /// Its name as stored.
    pub name: String,
    /// What differs, in words.
    pub reason: String,
    /// What differs, field by field: `recorded` is the stored value, `derived` what the
    /// journal gives (empty when no journal entry made the sheet, or the journal gives a
    /// sheet that is not stored).
    pub differences: Vec<crate::FieldDifference>,
}

/// The sheet bodies the journal gives, by system and name key.
#[derive(Default)]
pub(crate) struct SheetReplay {
    sheets: HashMap<(&'static str, String), Value>,
    /// The entry that last gave each sheet.
    given_at: HashMap<(&'static str, String), i64>,
    /// The entry being read.
    seq: i64,
}

impl SheetReplay {
    /// The sheets the journal gives that are not among `stored` (system and name key), as
    /// mismatches: a sheet deleted behind the journal's back. Only a sheet last given by an
    /// entry after `imported_through` can be told: `journal import` appends entries without
    /// storing their sheets, and an imported entry cannot be told from one written here.
    /// A removed creature's empty row is nothing lost, so it is not reported either.
    pub(crate) fn missing(
        &self,
        stored: &std::collections::HashSet<(&'static str, String)>,
        imported_through: i64,
    ) -> Vec<SheetMismatch> {
        let mut missing: Vec<(i64, SheetMismatch)> = self
            .sheets
            .iter()
            .filter(|(key, _)| !stored.contains(*key))
            .filter(|(key, body)| empty_sheet(key.0).as_ref() != Some(*body))
            .filter_map(|(key, body)| {
                let seq = *self.given_at.get(key)?;
                (seq > imported_through).then(|| {
                    let name = body
                        .get("name")
                        .and_then(Value::as_str)
                        .map_or_else(|| key.1.clone(), str::to_owned);
                    (
                        seq,
                        SheetMismatch {
                            system: key.0.to_owned(),
                            name,
                            reason: format!(
                                "the journal gives it (last by entry {seq}), but it is not stored \
                                 (deleted behind the journal's back)"
                            ),
                            differences: Vec::new(),
                        },
                    )
                })
            })
            .collect();
        missing.sort_by_key(|m| m.0);
        missing.into_iter().map(|(_, m)| m).collect()
    }

    /// Reads the next record of the journal; `secret` when it is a game master's secret
    /// entry, which changes no sheet until it is revealed if its kind says so. Each kind
    /// says what it does to the sheets ([`crate::records::SystemRecord::sheet_changes`]).
    pub(crate) fn read(&mut self, seq: i64, record: &Record, secret: bool) {
        self.seq = seq;
        let changes = match record {
            Record::Reveal { record, .. } => match record.system() {
                Some(kind) if !kind.changes_sheets_in_secret() => {
                    let sheets = &self.sheets;
                    kind.sheet_changes_on_reveal(&|system, name| {
                        sheets.get(&(system, name_key(name))).cloned()
                    })
                }
                _ => Vec::new(),
            },
            other => match other.system() {
                Some(kind) if !secret || kind.changes_sheets_in_secret() => kind.sheet_changes(),
                _ => Vec::new(),
            },
        };
        for change in changes {
            self.apply(change);
        }
    }

    fn apply(&mut self, change: SheetChange) {
        match change {
            SheetChange::Put { system, name, body } => {
                self.given_at.insert((system, name_key(&name)), self.seq);
                self.sheets.insert((system, name_key(&name)), body);
            }
            SheetChange::Remove { system, name } => {
                self.sheets.remove(&(system, name_key(&name)));
            }
            SheetChange::HitPoints {
                system,
                name,
                hit_points,
            } => {
                let k = (system, name_key(&name));
                if let Some(Value::Object(body)) = self.sheets.get_mut(&k) {
                    body.insert("hit_points".into(), hit_points.into());
                }
            }
        }
    }

    /// Compares a stored sheet with what the journal gives; `None` when they agree, or when
    /// the journal holds no record of it and the sheet is an empty creature row.
    pub(crate) fn compare(&self, system: &'static str, stored: &Sheet) -> Option<SheetMismatch> {
        let mismatch = |reason: String, differences| SheetMismatch {
            system: system.to_owned(),
            name: stored.name.clone(),
            reason,
            differences,
        };
        let body = stored_as_now(system, &stored.body);
        match self.sheets.get(&(system, name_key(&stored.name))) {
            None => Some(mismatch(
                "stored, but no journal entry made it (changed behind the journal's back)".into(),
                Vec::new(),
            )),
            Some(derived) if *derived == *body => None,
            Some(derived) => {
                let mut differences = Vec::new();
                crate::divergence::differences_of("", body.as_ref(), derived, &mut differences);
                let words: Vec<String> = differences
                    .iter()
                    .map(|d| {
                        format!(
                            "{}: stored {}, the journal gives {}",
                            d.path, d.recorded, d.derived
                        )
                    })
                    .collect();
                Some(mismatch(
                    if words.is_empty() {
                        "differs from what its journal gives".into()
                    } else {
                        words.join("; ")
                    },
                    differences,
                ))
            }
        }
    }
}
