//! `journal import`, streamed: the export's text is read entry by entry, and entries are
//! checked, re-derived and stored in batches of [`IMPORT_BATCH`], all in one transaction.
//! So memory holds the text, one batch and a 16-byte digest per entry already in the
//! journal, never every entry of the file at once.

use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use sha2::{Digest, Sha256};
use solum_store::{CampaignStore, NewEntry, WriteTx};

use crate::{
    AppError, Campaign, ExportEntry, ImportProblem, JournalEntry, JournalExport,
    MAX_IMPORT_ENTRIES, Record, check_record, journal, transact,
};

/// Entries checked and stored at a time.
pub const IMPORT_BATCH: usize = 1_000;

/// What an import did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImportCount {
    /// Entries in the file.
    pub total: usize,
    /// Entries added (the others were already in the journal).
    pub added: usize,
}

/// The digest that says an entry is already in the journal: its date and record.
fn digest(at: &str, record: &Record) -> Result<[u8; 16], AppError> {
    let body = serde_json::to_string(record).map_err(|e| AppError::internal("record", e))?;
    let mut h = Sha256::new();
    h.update(at.as_bytes());
    h.update(b"\n");
    h.update(body.as_bytes());
    let mut out = [0; 16];
    out.copy_from_slice(&h.finalize()[..16]);
    Ok(out)
}

/// The export's head: its format, schema and number of entries (entries skipped unread).
#[derive(Default)]
struct Head {
    format: Option<String>,
    schema: Option<i64>,
    entries: Option<usize>,
}

struct Count;

impl<'de> DeserializeSeed<'de> for Count {
    type Value = usize;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Count {
    type Value = usize;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of entries")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<usize, A::Error> {
        let mut n = 0;
        while seq.next_element::<IgnoredAny>()?.is_some() {
            n += 1;
        }
        Ok(n)
    }
}

fn read_head(text: &str) -> Result<Head, AppError> {
    struct HeadVisitor;
    impl<'de> Visitor<'de> for HeadVisitor {
        type Value = Head;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a solum journal export (an object with format, schema and entries)")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Head, A::Error> {
            let mut head = Head::default();
            while let Some(key) = map.next_key::<String>()? {
                match key.as_str() {
                    "format" => head.format = Some(map.next_value()?),
                    "schema" => head.schema = Some(map.next_value()?),
                    "entries" => head.entries = Some(map.next_value_seed(Count)?),
                    other => {
                        return Err(de::Error::unknown_field(
                            other,
                            &["format", "schema", "entries"],
                        ));
                    }
                }
            }
            Ok(head)
        }
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let head = de::Deserializer::deserialize_map(&mut de, HeadVisitor)
        .and_then(|h| de.end().map(|()| h))
        .map_err(|e| ImportProblem::Unreadable(e.to_string()))?;
    Ok(head)
}

/// Calls `each` with every entry of the export's `entries`, as JSON, in order; stops at
/// the first error `each` returns.
fn each_entry(
    text: &str,
    each: &mut dyn FnMut(usize, serde_json::Value) -> Result<(), AppError>,
) -> Result<(), AppError> {
    struct Entries<'a, 'b> {
        each: &'a mut dyn FnMut(usize, serde_json::Value) -> Result<(), AppError>,
        failed: &'b RefCell<Option<AppError>>,
    }
    impl<'de> DeserializeSeed<'de> for Entries<'_, '_> {
        type Value = ();
        fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_seq(self)
        }
    }
    impl<'de> Visitor<'de> for Entries<'_, '_> {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a list of entries")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            let mut index = 0;
            while let Some(value) = seq.next_element::<serde_json::Value>()? {
                index += 1;
                if let Err(e) = (self.each)(index, value) {
                    *self.failed.borrow_mut() = Some(e);
                    return Err(de::Error::custom("stopped"));
                }
            }
            Ok(())
        }
    }
    struct Object<'a, 'b>(Entries<'a, 'b>);
    impl<'de> Visitor<'de> for Object<'_, '_> {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a solum journal export")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            let mut entries = Some(self.0);
            while let Some(key) = map.next_key::<String>()? {
                match (key.as_str(), entries.take()) {
                    ("entries", Some(seed)) => map.next_value_seed(seed)?,
                    (_, seed) => {
                        entries = entries.or(seed);
                        map.next_value::<IgnoredAny>()?;
                    }
                }
            }
            Ok(())
        }
    }
    let failed = RefCell::new(None);
    let mut de = serde_json::Deserializer::from_str(text);
    let read = de::Deserializer::deserialize_map(
        &mut de,
        Object(Entries {
            each,
            failed: &failed,
        }),
    );
    if let Some(e) = failed.into_inner() {
        return Err(e);
    }
    read.map_err(|e| ImportProblem::Unreadable(e.to_string()).into())
}

impl<S: CampaignStore> Campaign<S> {
    /// Imports an export from its JSON text, streamed (see the module): the same checks
    /// and the same result as [`Campaign::import`] of the whole export, all stored or none,
    /// with memory bounded by the text and one batch.
    pub fn import_json(&mut self, text: &str) -> Result<ImportCount, AppError> {
        let head = read_head(text)?;
        let format = head.format.ok_or(ImportProblem::MissingField("format"))?;
        if format != JournalExport::FORMAT {
            return Err(ImportProblem::Format {
                found: format,
                expected: JournalExport::FORMAT,
            }
            .into());
        }
        let schema = head.schema.ok_or(ImportProblem::MissingField("schema"))?;
        journal::check_export_schema(schema)?;
        let total = head.entries.ok_or(ImportProblem::MissingField("entries"))?;
        if total > MAX_IMPORT_ENTRIES {
            return Err(ImportProblem::TooManyEntries {
                total,
                limit: MAX_IMPORT_ENTRIES,
            }
            .into());
        }
        let mut added = 0;
        let mut last = 0;
        let latest = (self.clock)()
            .checked_add(jiff::SignedDuration::from_hours(MAX_IMPORT_FUTURE_HOURS))
            .unwrap_or(jiff::Timestamp::MAX);
        transact(&mut self.store, &self.by, |tx| {
            // What the journal holds already, as digests, read a page at a time inside the
            // write: an entry another writer stores meanwhile cannot be imported twice.
            let mut present = HashSet::new();
            let mut after = 0;
            loop {
                let page = tx.entries_after(after, IMPORT_BATCH)?;
                let done = page.len() < IMPORT_BATCH;
                for entry in page {
                    after = entry.seq;
                    let entry = JournalEntry::read(entry)?;
                    present.insert(digest(&entry.at, &entry.record)?);
                }
                if done {
                    break;
                }
            }
            let mut order = Order {
                seqs: HashSet::new(),
                last: None,
                latest,
            };
            let mut replayer = journal::Replayer::default();
            let mut batch: Vec<NewEntry> = Vec::with_capacity(IMPORT_BATCH);
            added = 0;
            each_entry(text, &mut |index, value| {
                let at = ExportEntry::of_json(index, &value);
                let given = value.clone();
                let entry: JournalEntry = serde_json::from_value(value)
                    .map_err(|e| ImportProblem::Unreadable(e.to_string()).of(at))?;
                refuse_unknown_fields(index, &given, &entry)?;
                order.check(index, &entry)?;
                let new = checked(index, entry, &mut replayer, &mut present)?;
                if let Some(new) = new {
                    batch.push(new);
                }
                if batch.len() == IMPORT_BATCH {
                    added += store(tx, &mut batch, &mut last)?;
                }
                Ok(())
            })?;
            added += store(tx, &mut batch, &mut last)?;
            Ok(())
        })?;
        if added > 0 {
            // `journal verify` cannot tell these entries' sheets (not stored) from deleted
            // ones: it checks for missing sheets only after the last imported entry.
            self.store
                .set_meta(crate::IMPORTED_THROUGH_KEY, &last.to_string())?;
        }
        Ok(ImportCount { total, added })
    }
}

pub use crate::import_problem::MAX_IMPORT_FUTURE_HOURS;

/// What the entries before one said: their numbers, the last date, and the latest allowed.
struct Order {
    seqs: HashSet<i64>,
    last: Option<jiff::Timestamp>,
    latest: jiff::Timestamp,
}

impl Order {
    /// Refuses a date that is no date, lies in the future past a day, or goes back before
    /// the entry before it, and a number given to an earlier entry of the file.
    fn check(&mut self, index: usize, entry: &JournalEntry) -> Result<(), AppError> {
        let name = ExportEntry {
            index,
            kind: None,
            seq: entry.seq.to_string(),
        };
        let date = || entry.at.clone();
        let at = entry.at.parse::<jiff::Timestamp>().map_err(|e| {
            ImportProblem::DateUnreadable {
                date: date(),
                reason: e.to_string(),
            }
            .of(name.clone())
        })?;
        if at > self.latest {
            return Err(ImportProblem::DateInFuture(date()).of(name).into());
        }
        if let Some(last) = self.last
            && at < last
        {
            return Err(ImportProblem::DateGoesBack { date: date(), last }
                .of(name)
                .into());
        }
        self.last = Some(at);
        if !self.seqs.insert(entry.seq) {
            return Err(ImportProblem::NumberTwice(entry.seq).of(name).into());
        }
        Ok(())
    }
}

/// Refuses a field of an entry that the entry does not have (a misspelt `secrett`, a field
/// of another kind): it would be dropped silently. The entry as read is written back, and
/// a field given but not written back is unknown, unless its value is one an export leaves
/// out (null, false, 0, "" or empty).
fn refuse_unknown_fields(
    index: usize,
    given: &serde_json::Value,
    entry: &JournalEntry,
) -> Result<(), AppError> {
    use serde_json::Value;
    let Value::Object(given) = given else {
        return Ok(());
    };
    let read = serde_json::to_value(entry).map_err(|e| AppError::internal("entry", e))?;
    let Value::Object(read) = read else {
        return Ok(());
    };
    for (key, value) in given {
        let omitted_default = match value {
            Value::Null | Value::Bool(false) => true,
            Value::Number(n) => n.as_f64() == Some(0.0),
            Value::String(s) => s.is_empty(),
            Value::Array(a) => a.is_empty(),
            Value::Object(o) => o.is_empty(),
            Value::Bool(true) => false,
        };
        if !read.contains_key(key) && !omitted_default {
            return Err(ImportProblem::UnknownField(key.clone())
                .of(ExportEntry {
                    index,
                    kind: Some(entry.record.kind().to_owned()),
                    seq: entry.seq.to_string(),
                })
                .into());
        }
    }
    Ok(())
}

fn store(
    tx: &mut dyn WriteTx,
    batch: &mut Vec<NewEntry>,
    last: &mut i64,
) -> Result<usize, AppError> {
    if batch.is_empty() {
        return Ok(0);
    }
    let appended = tx.append(batch)?;
    if let Some(e) = appended.last() {
        *last = (*last).max(e.seq);
    }
    batch.clear();
    Ok(appended.len())
}

/// One entry checked as [`Campaign::import`] checks it; `None` when already present.
fn checked(
    index: usize,
    entry: JournalEntry,
    replayer: &mut journal::Replayer,
    present: &mut HashSet<[u8; 16]>,
) -> Result<Option<NewEntry>, AppError> {
    let at_entry = ExportEntry {
        index,
        kind: Some(entry.record.kind().to_owned()),
        seq: entry.seq.to_string(),
    };
    let name = format!(
        "{} entry, numbered {} in the export",
        entry.record.kind(),
        entry.seq
    );
    check_record(&entry.record).map_err(|e| {
        // A record's own check may already say the import is not valid: said once.
        let problem = match e {
            AppError::BadImport(problem) => problem,
            e => ImportProblem::Refused(Box::new(e)),
        };
        problem.of(at_entry.clone())
    })?;
    if let Some(divergence) = replayer.check(&entry.record)? {
        return Err(AppError::ImportMismatch {
            index,
            entry: name,
            divergence,
        });
    }
    // The file's time as the store keeps it (UTC, RFC 3339): the digest of an entry read
    // back from the journal is taken of that form.
    let at: jiff::Timestamp = entry.at.parse().map_err(|e: jiff::Error| {
        ImportProblem::DateUnreadable {
            date: entry.at.clone(),
            reason: e.to_string(),
        }
        .of(at_entry)
    })?;
    if !present.insert(digest(&at.to_string(), &entry.record)?) {
        return Ok(None);
    }
    Ok(Some(NewEntry {
        at,
        kind: entry.record.kind().to_string(),
        schema: journal::RECORD_SCHEMA,
        body: serde_json::to_value(&entry.record).map_err(|e| AppError::internal("record", e))?,
    }))
}
