//! The sheets a journal re-derives: every record that changes a stored sheet keeps the sheet
//! after the change, so reading the journal in order gives what each stored sheet must be.
//! `journal verify` compares every stored sheet with it, so a sheet edited behind the
//! journal's back (directly in the database) is found.

use std::collections::HashMap;

use serde::Serialize;
use serde_json::Value;
use solum_store::{Sheet, name_key};

use crate::classic::ClassicChange;
use crate::dietype::DietypeChange;
use crate::journal::Record;
use crate::sol::SolChange;
use crate::soluna::SolunaChange;
use crate::{characters, classic, creatures, dietype, sol, soluna};

/// The systems whose stored sheets the journal re-derives (combats and classic fights in
/// progress are replay state, checked by replaying their own records).
pub(crate) const SYSTEMS: [&str; 6] = [
    characters::SYSTEM,
    sol::SYSTEM,
    classic::SYSTEM,
    dietype::SYSTEM,
    soluna::SYSTEM,
    creatures::SYSTEM,
];

/// One stored sheet that differs from what its journal gives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SheetMismatch {
    /// Its system (`expanded`, `sol`, `classic`, …).
    pub system: String,
    /// Its name as stored.
    pub name: String,
    /// What differs, field by field.
    pub reason: String,
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
    fn put<T: Serialize>(&mut self, system: &'static str, key: String, body: &T) {
        // Serializing a value that was just deserialized cannot fail; a failure would show
        // as a mismatch against `null`.
        let body = serde_json::to_value(body).unwrap_or(Value::Null);
        self.given_at.insert((system, name_key(&key)), self.seq);
        self.sheets.insert((system, name_key(&key)), body);
    }

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
        let removed_creature =
            serde_json::to_value(creatures::stored_body(None)).unwrap_or(Value::Null);
        let mut missing: Vec<(i64, SheetMismatch)> = self
            .sheets
            .iter()
            .filter(|(key, _)| !stored.contains(*key))
            .filter(|(key, body)| !(key.0 == creatures::SYSTEM && **body == removed_creature))
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
                        },
                    )
                })
            })
            .collect();
        missing.sort_by_key(|m| m.0);
        missing.into_iter().map(|(_, m)| m).collect()
    }

    /// Reads the next record of the journal; `secret` when it is a game master's secret
    /// entry, which changes no sheet until it is revealed.
    pub(crate) fn read(&mut self, seq: i64, record: &Record, secret: bool) {
        self.seq = seq;
        match record {
            // A secret Project Sol test changes no sheet until its reveal.
            Record::Sol(s) if secret && matches!(s.change, SolChange::Test(_)) => {}
            Record::Reveal { record, .. } => {
                if let Record::Sol(s) = record.as_ref()
                    && let SolChange::Test(t) = &s.change
                {
                    self.reveal_sol_test(s.rules(), t);
                }
            }
            Record::Character(c) => {
                use characters::CharacterChange as C;
                match &c.change {
                    C::Created { sheet, .. } | C::Imported { sheet } => {
                        self.put(characters::SYSTEM, sheet.name.clone(), sheet);
                    }
                    C::Edited { after, .. }
                    | C::Advanced { after, .. }
                    | C::PointGranted { after, .. }
                    | C::Rested { after, .. } => {
                        if name_key(&after.name) != name_key(&c.name) {
                            self.sheets.remove(&(characters::SYSTEM, name_key(&c.name)));
                        }
                        self.put(characters::SYSTEM, after.name.clone(), after);
                    }
                    _ => {}
                }
            }
            Record::Sol(s) => match &s.change {
                SolChange::Created { sheet } | SolChange::Imported { sheet } => {
                    self.put(sol::SYSTEM, sheet.name.clone(), sheet);
                }
                SolChange::Session { after, .. }
                | SolChange::Encounter { after, .. }
                | SolChange::Reward { after, .. }
                | SolChange::Spend { after, .. }
                | SolChange::NotDeadYet { after, .. }
                | SolChange::Train { after, .. } => {
                    self.put(sol::SYSTEM, after.name.clone(), after);
                }
                SolChange::Test(t) => {
                    self.put(sol::SYSTEM, t.after.name.clone(), &t.after);
                    if let Some(a) = &t.assistant_after {
                        self.put(sol::SYSTEM, a.name.clone(), a);
                    }
                    for g in &t.group_after {
                        self.put(sol::SYSTEM, g.name.clone(), g);
                    }
                }
            },
            Record::Classic(c) => match &c.change {
                ClassicChange::Created { hero, .. } | ClassicChange::Imported { hero } => {
                    self.put(classic::SYSTEM, hero.name.clone(), hero);
                }
                ClassicChange::Rested { after, .. }
                | ClassicChange::Gear { after, .. }
                | ClassicChange::Notes { after, .. } => {
                    self.put(classic::SYSTEM, after.name.clone(), after);
                }
                ClassicChange::Fight(f) => {
                    if let Some(after) = &f.sheet_after {
                        self.put(classic::SYSTEM, after.0.name.clone(), &after.0);
                    }
                }
                ClassicChange::Check { .. } => {}
            },
            Record::Dietype(d) => match &d.change {
                DietypeChange::Created { sheet } | DietypeChange::Imported { sheet } => {
                    self.put(dietype::SYSTEM, sheet.name.clone(), sheet);
                }
                DietypeChange::Edited { after, .. } => {
                    if name_key(&after.name) != name_key(&d.name) {
                        self.sheets.remove(&(dietype::SYSTEM, name_key(&d.name)));
                    }
                    self.put(dietype::SYSTEM, after.name.clone(), after);
                }
                DietypeChange::Roll { .. } => {}
            },
            Record::Soluna(s) => match &s.change {
                SolunaChange::Created { character } => {
                    self.put(soluna::SYSTEM, character.name.clone(), character);
                }
                SolunaChange::Edited { after, .. } => {
                    self.put(soluna::SYSTEM, after.name.clone(), after);
                }
                SolunaChange::Imported { characters } => {
                    for c in characters {
                        self.put(soluna::SYSTEM, c.name.clone(), c);
                    }
                }
                SolunaChange::Played(p) => {
                    for c in p.sheets.iter().flat_map(|x| &x.after) {
                        self.put(soluna::SYSTEM, c.name.clone(), c);
                    }
                }
                SolunaChange::Abandoned { sheets, .. } => {
                    for c in &sheets.after {
                        self.put(soluna::SYSTEM, c.name.clone(), c);
                    }
                }
                SolunaChange::Test { .. } | SolunaChange::Skirmish { .. } => {}
            },
            Record::Creature(c) => {
                let (creature, present) = match &c.change {
                    creatures::CreatureChange::Added { creature } => (creature, true),
                    creatures::CreatureChange::Removed { creature } => (creature, false),
                };
                let k = creatures::key(&creature.name);
                let row = creatures::stored_body(present.then(|| creature.clone()));
                self.put(creatures::SYSTEM, k, &row);
            }
            Record::FastStatic(c) => {
                // Each call of a fast static combat writes the hero's hit points.
                if let crate::fast_static::StaticChange::Rounds {
                    sheet: Some((_, hp)),
                    ..
                } = &c.change
                {
                    let k = (characters::SYSTEM, name_key(&c.hero));
                    if let Some(Value::Object(body)) = self.sheets.get_mut(&k) {
                        body.insert("hit_points".into(), (*hp).into());
                    }
                }
            }
            Record::Combat(c) => {
                // The end of a campaign combat writes hit points back to the sheets.
                if let crate::combat::CombatChange::Ended { written, .. } = &c.change {
                    for w in written {
                        let k = (characters::SYSTEM, name_key(&w.name));
                        if let (Some(hp), Some(Value::Object(body))) =
                            (w.after, self.sheets.get_mut(&k))
                        {
                            body.insert("hit_points".into(), hp.into());
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// A revealed secret Project Sol test: its Edge and progress applied to the sheets as
    /// the journal gives them at the reveal, as the reveal itself applied them. A sheet
    /// that cannot be read or cannot pay is left as it is: the comparison then names it.
    fn reveal_sol_test(&mut self, rules: solum_sol::edge::Rules, t: &sol::TestChange) {
        let sheet_of = |this: &Self, name: &str| {
            this.sheets
                .get(&(sol::SYSTEM, name_key(name)))
                .and_then(|v| serde_json::from_value::<solum_sol::sheet::Sheet>(v.clone()).ok())
        };
        let Some(mut sheet) = sheet_of(self, &t.before.name) else {
            return;
        };
        let mut assistant = t
            .assistant_before
            .as_ref()
            .and_then(|a| sheet_of(self, &a.name));
        let mut group: Vec<_> = t
            .group_before
            .iter()
            .filter_map(|g| sheet_of(self, &g.name))
            .collect();
        if group.len() != t.group_before.len() {
            return;
        }
        if sol::apply_test(
            rules,
            &mut sheet,
            assistant.as_mut(),
            &mut group,
            &t.request,
            &t.result,
        )
        .is_ok()
        {
            self.put(sol::SYSTEM, sheet.name.clone(), &sheet);
            if let Some(a) = &assistant {
                self.put(sol::SYSTEM, a.name.clone(), a);
            }
            for g in &group {
                self.put(sol::SYSTEM, g.name.clone(), g);
            }
        }
    }

    /// Compares a stored sheet with what the journal gives; `None` when they agree, or when
    /// the journal holds no record of it and the sheet is an empty creature row.
    pub(crate) fn compare(&self, system: &'static str, stored: &Sheet) -> Option<SheetMismatch> {
        let mismatch = |reason: String| SheetMismatch {
            system: system.to_owned(),
            name: stored.name.clone(),
            reason,
        };
        let body = stored_as_now(system, &stored.body);
        match self.sheets.get(&(system, name_key(&stored.name))) {
            None => Some(mismatch(
                "stored, but no journal entry made it (changed behind the journal's back)".into(),
            )),
            Some(derived) if *derived == *body => None,
            Some(derived) => {
                let fields = crate::journal::differing_fields("", body.as_ref(), derived)
                    .replace(": recorded ", ": stored ")
                    .replace("the dice give", "the journal gives");
                Some(mismatch(if fields.is_empty() {
                    "differs from what its journal gives".into()
                } else {
                    fields
                }))
            }
        }
    }
}

/// A stored sheet body as this build writes it: a Project Sol sheet stored by an older solum
/// has no `progress_this_encounter` (P3's mark, false when absent), which the journal's
/// sheets, read by this build, always show.
fn stored_as_now<'a>(system: &str, body: &'a Value) -> std::borrow::Cow<'a, Value> {
    match body {
        Value::Object(o) if system == sol::SYSTEM && !o.contains_key("progress_this_encounter") => {
            let mut o = o.clone();
            o.insert("progress_this_encounter".into(), Value::Bool(false));
            std::borrow::Cow::Owned(Value::Object(o))
        }
        _ => std::borrow::Cow::Borrowed(body),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sol_sheet_stored_by_an_older_solum_has_no_p3_mark() {
        let old = serde_json::json!({"name": "Kai", "trained_this_session": false});
        let now = stored_as_now(sol::SYSTEM, &old);
        assert_eq!(now["progress_this_encounter"], false);
        // A mark that is there is compared as stored; other systems are left alone.
        let marked = serde_json::json!({"name": "Kai", "progress_this_encounter": true});
        assert_eq!(*stored_as_now(sol::SYSTEM, &marked), marked);
        assert_eq!(*stored_as_now(characters::SYSTEM, &old), old);
    }
}
