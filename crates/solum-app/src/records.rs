//! What the journal asks each record kind a system adds (registered in `journal.rs`'s
//! `record_kinds!`): its answers, one impl of [`SystemRecord`] per kind.
//!
//! The journal asks every such kind the same questions (does it hold dice, its line, its
//! replay, its limits for an import) through [`SystemRecord`]; [`crate::journal::Record::system`] hands each
//! kind over. A new kind is one line of `record_kinds!` in `journal.rs` (its variant and its
//! tag) and an impl of [`SystemRecord`] below.

use serde::Serialize;
use serde_json::Value;
use solum_store::name_key;

use crate::AppError;
use crate::rolled::{Rolled, capitalized};

/// What a record does to the stored sheets, as `journal verify` re-derives them.
#[derive(Debug, Clone, PartialEq)]
pub enum SheetChange {
    /// The sheet of `system` whose name is `name` is now `body`.
    Put {
        /// Its system (`expanded`, `sol`, …).
        system: &'static str,
        /// Its name.
        name: String,
        /// The sheet as stored.
        body: Value,
    },
    /// The sheet of `system` named `name` is no longer under that name (it was renamed).
    Remove {
        /// Its system.
        system: &'static str,
        /// Its old name.
        name: String,
    },
    /// A sheet's hit points, written back by a fight.
    HitPoints {
        /// Its system.
        system: &'static str,
        /// The sheet's name.
        name: String,
        /// Its hit points now.
        hit_points: u32,
    },
}

impl SheetChange {
    fn put<T: Serialize>(system: &'static str, name: &str, body: &T) -> Self {
        // Serializing a value that was just deserialized cannot fail; a failure shows as a
        // mismatch against `null`.
        Self::Put {
            system,
            name: name.to_owned(),
            body: serde_json::to_value(body).unwrap_or(Value::Null),
        }
    }
}

/// The systems whose stored sheets the journal re-derives (combats and classic fights in
/// progress are replay state, checked by replaying their own records).
pub(crate) const SHEET_SYSTEMS: [&str; 6] = [
    crate::characters::SYSTEM,
    crate::sol::SYSTEM,
    crate::classic::SYSTEM,
    crate::dietype::SYSTEM,
    crate::soluna::SYSTEM,
    crate::creatures::SYSTEM,
];

/// The body a removed entry of `system` leaves stored (a creature's empty row), which is
/// nothing lost when it is missing.
pub(crate) fn empty_sheet(system: &str) -> Option<Value> {
    (system == crate::creatures::SYSTEM)
        .then(|| serde_json::to_value(crate::creatures::stored_body(None)).unwrap_or(Value::Null))
}

/// A stored sheet body as this build writes it: a Project Sol sheet stored by an older solum
/// has no `progress_this_encounter` (P3's mark, false when absent), which the journal's
/// sheets, read by this build, always show.
pub(crate) fn stored_as_now<'a>(system: &str, body: &'a Value) -> std::borrow::Cow<'a, Value> {
    match body {
        Value::Object(o)
            if system == crate::sol::SYSTEM && !o.contains_key("progress_this_encounter") =>
        {
            let mut o = o.clone();
            o.insert("progress_this_encounter".into(), Value::Bool(false));
            std::borrow::Cow::Owned(Value::Object(o))
        }
        _ => std::borrow::Cow::Borrowed(body),
    }
}

/// The sheets as the journal gives them so far, for a change that applies a rule to them
/// (a revealed Project Sol test): the body of `system`'s sheet named `name`.
pub type SheetsSoFar<'a> = &'a dyn Fn(&'static str, &str) -> Option<Value>;

/// What the journal asks of a record kind a system adds.
pub trait SystemRecord {
    /// True when the record holds dice that `verify` rolls again.
    fn has_dice(&self) -> bool;
    /// One line for the story.
    fn summary(&self) -> String;
    /// What the page's feed and `journal show` say of it: the summary, unless the kind says
    /// which system it is (a table may play several).
    fn line(&self) -> String {
        self.summary()
    }
    /// Re-derives the record on its own: `None` when it matches, or how it diverges.
    fn replay(&self) -> Option<crate::Divergence>;
    /// The limits of a record made at the table, checked again for an imported journal.
    fn check(&self) -> Result<(), AppError>;
    /// The roll, for a record that keeps one.
    fn rolled(&self) -> Option<&Rolled> {
        None
    }
    /// What it does to the stored sheets (nothing, for a roll).
    fn sheet_changes(&self) -> Vec<SheetChange> {
        Vec::new()
    }
    /// False when a game master's secret entry of this kind changes no sheet until it is
    /// revealed (a Project Sol test).
    fn changes_sheets_in_secret(&self) -> bool {
        true
    }
    /// What its reveal does to the sheets (after a secret entry that changed none), given
    /// the sheets as the journal gives them at the reveal.
    fn sheet_changes_on_reveal(&self, _sheets: SheetsSoFar<'_>) -> Vec<SheetChange> {
        Vec::new()
    }
}

/// The questions a kind answers with its own methods of the same names.
macro_rules! answers_itself {
    ($ty:ty) => {
        fn has_dice(&self) -> bool {
            <$ty>::has_dice(self)
        }
        fn summary(&self) -> String {
            <$ty>::summary(self)
        }
        fn replay(&self) -> Option<crate::Divergence> {
            <$ty>::replay(self)
        }
        fn check(&self) -> Result<(), AppError> {
            <$ty>::check(self)
        }
    };
}

impl SystemRecord for crate::characters::CharacterRecord {
    answers_itself!(crate::characters::CharacterRecord);
    fn sheet_changes(&self) -> Vec<SheetChange> {
        use crate::characters::{CharacterChange as C, SYSTEM};
        match &self.change {
            C::Created { sheet, .. } | C::Imported { sheet } => {
                vec![SheetChange::put(SYSTEM, &sheet.name, sheet)]
            }
            C::Edited { after, .. }
            | C::Advanced { after, .. }
            | C::PointGranted { after, .. }
            | C::Rested { after, .. } => renamed(SYSTEM, &self.name, &after.name, after),
            _ => Vec::new(),
        }
    }
}

/// A sheet stored under `after_name` (its record names it `name`): the old name goes when it
/// was renamed.
fn renamed<T: Serialize>(
    system: &'static str,
    name: &str,
    after_name: &str,
    after: &T,
) -> Vec<SheetChange> {
    let mut changes = Vec::new();
    if name_key(after_name) != name_key(name) {
        changes.push(SheetChange::Remove {
            system,
            name: name.to_owned(),
        });
    }
    changes.push(SheetChange::put(system, after_name, after));
    changes
}

impl SystemRecord for crate::fast_static::StaticRecord {
    answers_itself!(crate::fast_static::StaticRecord);
    /// Each call of a fast static combat writes the hero's hit points.
    fn sheet_changes(&self) -> Vec<SheetChange> {
        match &self.change {
            crate::fast_static::StaticChange::Rounds {
                sheet: Some((_, hp)),
                ..
            } => vec![SheetChange::HitPoints {
                system: crate::characters::SYSTEM,
                name: self.hero.clone(),
                hit_points: *hp,
            }],
            _ => Vec::new(),
        }
    }
}

impl SystemRecord for crate::vehicles::VehicleRecord {
    answers_itself!(crate::vehicles::VehicleRecord);
    fn rolled(&self) -> Option<&Rolled> {
        Some(&self.rolled)
    }
}

impl SystemRecord for crate::notation::NotationRecord {
    answers_itself!(crate::notation::NotationRecord);
    fn line(&self) -> String {
        capitalized(&self.summary())
    }
    fn rolled(&self) -> Option<&Rolled> {
        Some(&self.rolled)
    }
}

impl SystemRecord for crate::classic::ClassicRecord {
    answers_itself!(crate::classic::ClassicRecord);
    fn line(&self) -> String {
        format!("So1um (original): {}", self.summary())
    }
    fn sheet_changes(&self) -> Vec<SheetChange> {
        use crate::classic::{ClassicChange as C, SYSTEM};
        match &self.change {
            C::Created { hero, .. } | C::Imported { hero } => {
                vec![SheetChange::put(SYSTEM, &hero.name, hero)]
            }
            C::Rested { after, .. } | C::Gear { after, .. } | C::Notes { after, .. } => {
                vec![SheetChange::put(SYSTEM, &after.name, after)]
            }
            C::Fight(f) => f
                .sheet_after
                .iter()
                .map(|after| SheetChange::put(SYSTEM, &after.0.name, &after.0))
                .collect(),
            C::Check { .. } => Vec::new(),
        }
    }
}

impl SystemRecord for crate::soluna::SolunaRecord {
    answers_itself!(crate::soluna::SolunaRecord);
    fn line(&self) -> String {
        format!("Sol'una: {}", self.summary())
    }
    fn sheet_changes(&self) -> Vec<SheetChange> {
        use crate::soluna::{SYSTEM, SolunaChange as C};
        let put = |c: &crate::soluna::Character| SheetChange::put(SYSTEM, &c.name, c);
        match &self.change {
            C::Created { character } => vec![put(character)],
            C::Edited { after, .. } => vec![put(after)],
            C::Imported { characters } => characters.iter().map(put).collect(),
            C::Played(p) => p.sheets.iter().flat_map(|x| &x.after).map(put).collect(),
            C::Abandoned { sheets, .. } => sheets.after.iter().map(put).collect(),
            C::Test { .. } | C::Skirmish { .. } => Vec::new(),
        }
    }
}

impl SystemRecord for crate::dietype::DietypeRecord {
    answers_itself!(crate::dietype::DietypeRecord);
    fn line(&self) -> String {
        format!("Die types: {}", self.summary())
    }
    fn sheet_changes(&self) -> Vec<SheetChange> {
        use crate::dietype::{DietypeChange as C, SYSTEM};
        match &self.change {
            C::Created { sheet } | C::Imported { sheet } => {
                vec![SheetChange::put(SYSTEM, &sheet.name, sheet)]
            }
            C::Edited { after, .. } => renamed(SYSTEM, &self.name, &after.name, after),
            C::Roll { .. } => Vec::new(),
        }
    }
}

impl SystemRecord for crate::sol::SolRecord {
    answers_itself!(crate::sol::SolRecord);
    fn line(&self) -> String {
        format!("Project Sol: {}", self.summary())
    }
    fn sheet_changes(&self) -> Vec<SheetChange> {
        use crate::sol::{SYSTEM, SolChange as C};
        let put = |s: &solum_sol::sheet::Sheet| SheetChange::put(SYSTEM, &s.name, s);
        match &self.change {
            C::Created { sheet } | C::Imported { sheet } => vec![put(sheet)],
            C::Session { after, .. }
            | C::Encounter { after, .. }
            | C::Reward { after, .. }
            | C::Spend { after, .. }
            | C::NotDeadYet { after, .. }
            | C::Train { after, .. } => vec![put(after)],
            C::Test(t) => std::iter::once(&t.after)
                .chain(&t.assistant_after)
                .chain(&t.group_after)
                .map(put)
                .collect(),
        }
    }
    /// A secret test changes no sheet until its reveal.
    fn changes_sheets_in_secret(&self) -> bool {
        !matches!(self.change, crate::sol::SolChange::Test(_))
    }
    /// A revealed secret test: its Edge and progress applied to the sheets as the journal
    /// gives them at the reveal, as the reveal itself applied them. A sheet that cannot be
    /// read or cannot pay is left as it is: the comparison then names it.
    fn sheet_changes_on_reveal(&self, sheets: SheetsSoFar<'_>) -> Vec<SheetChange> {
        use crate::sol::SYSTEM;
        let crate::sol::SolChange::Test(t) = &self.change else {
            return Vec::new();
        };
        let sheet_of = |name: &str| {
            sheets(SYSTEM, name)
                .and_then(|v| serde_json::from_value::<solum_sol::sheet::Sheet>(v).ok())
        };
        let Some(mut sheet) = sheet_of(&t.before.name) else {
            return Vec::new();
        };
        let mut assistant = t.assistant_before.as_ref().and_then(|a| sheet_of(&a.name));
        let mut group: Vec<_> = t
            .group_before
            .iter()
            .filter_map(|g| sheet_of(&g.name))
            .collect();
        if group.len() != t.group_before.len()
            || crate::sol::apply_test(
                self.rules(),
                &mut sheet,
                assistant.as_mut(),
                &mut group,
                &t.request,
                &t.result,
            )
            .is_err()
        {
            return Vec::new();
        }
        let put = |s: &solum_sol::sheet::Sheet| SheetChange::put(SYSTEM, &s.name, s);
        std::iter::once(&sheet)
            .chain(&assistant)
            .chain(&group)
            .map(put)
            .collect()
    }
}

impl SystemRecord for crate::combat::CombatRecord {
    fn has_dice(&self) -> bool {
        Self::has_dice(self)
    }
    fn summary(&self) -> String {
        Self::summary(self)
    }
    fn line(&self) -> String {
        capitalized(&self.summary())
    }
    /// A combat line re-derives only on the combat its earlier lines built: the journal's
    /// `Replayer` does that, in order.
    fn replay(&self) -> Option<crate::Divergence> {
        None
    }
    fn check(&self) -> Result<(), AppError> {
        Self::check(self)
    }
    /// The end of a campaign combat writes hit points back to the sheets.
    fn sheet_changes(&self) -> Vec<SheetChange> {
        match &self.change {
            crate::combat::CombatChange::Ended { written, .. } => written
                .iter()
                .filter_map(|w| {
                    w.after.map(|hp| SheetChange::HitPoints {
                        system: crate::characters::SYSTEM,
                        name: w.name.clone(),
                        hit_points: hp,
                    })
                })
                .collect(),
            _ => Vec::new(),
        }
    }
}

impl SystemRecord for crate::creatures::CreatureRecord {
    /// A bestiary change rolls nothing.
    fn has_dice(&self) -> bool {
        false
    }
    fn summary(&self) -> String {
        Self::summary(self)
    }
    fn line(&self) -> String {
        capitalized(&self.summary())
    }
    fn replay(&self) -> Option<crate::Divergence> {
        Self::replay(self)
    }
    fn check(&self) -> Result<(), AppError> {
        Self::check(self)
    }
    /// A creature's row: its entry, or the empty row of a removed one.
    fn sheet_changes(&self) -> Vec<SheetChange> {
        use crate::creatures::{self, CreatureChange, SYSTEM};
        let (creature, present) = match &self.change {
            CreatureChange::Added { creature } => (creature, true),
            CreatureChange::Removed { creature } => (creature, false),
        };
        let row = creatures::stored_body(present.then(|| creature.clone()));
        vec![SheetChange::put(
            SYSTEM,
            &creatures::key(&creature.name),
            &row,
        )]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::journal::Record;

    #[test]
    fn every_system_kind_is_stored_as_its_variant_of_the_record() {
        // One body of each kind, as an earlier build wrote it (the persisted fixtures): as
        // its use case appends it (through `Journaled`) and as the journal's `Record`
        // writes it, the same body and the same tag.
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/records");
        let at = jiff::Timestamp::UNIX_EPOCH;
        let mut kinds = std::collections::BTreeSet::new();
        for file in std::fs::read_dir(dir).unwrap() {
            let text = std::fs::read_to_string(file.unwrap().path()).unwrap();
            let bodies = match serde_json::from_str(&text).unwrap() {
                Value::Array(bodies) => bodies,
                body => vec![body],
            };
            for body in bodies {
                let record: Record = serde_json::from_value(body).unwrap();
                let Some(entry) = record.as_journaled(&at) else {
                    assert!(record.system().is_none());
                    continue;
                };
                let entry = entry.unwrap();
                assert!(record.system().is_some());
                assert_eq!(entry.kind, record.kind());
                assert_eq!(entry.body, serde_json::to_value(&record).unwrap());
                assert_eq!(
                    serde_json::from_value::<Record>(entry.body).unwrap(),
                    record
                );
                kinds.insert(record.kind());
            }
        }
        assert_eq!(kinds.len(), 10, "a fixture of each system kind: {kinds:?}");
    }

    #[test]
    fn a_sol_sheet_stored_by_an_older_solum_has_no_p3_mark() {
        let old = serde_json::json!({"name": "Kai", "trained_this_session": false});
        let now = stored_as_now(crate::sol::SYSTEM, &old);
        assert_eq!(now["progress_this_encounter"], false);
        // A mark that is there is compared as stored; other systems are left alone.
        let marked = serde_json::json!({"name": "Kai", "progress_this_encounter": true});
        assert_eq!(*stored_as_now(crate::sol::SYSTEM, &marked), marked);
        assert_eq!(*stored_as_now(crate::characters::SYSTEM, &old), old);
    }
}
