//! Why an export cannot be imported ([`crate::AppError::BadImport`]): each problem a value,
//! so a front end or a test tells them apart by kind, not by the words of a message.

/// How far past the importer's clock an entry may be dated: a day, for clocks that differ.
pub const MAX_IMPORT_FUTURE_HOURS: i64 = 24;

/// Which entry of an export a problem is of: its place in the file (from 1), its kind when
/// the entry says one, and its number as the export gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportEntry {
    /// Its place in the file, from 1.
    pub index: usize,
    /// Its kind (`oracle`, `character`, …), when it has one.
    pub kind: Option<String>,
    /// Its number in the export, as written there (`7`, or whatever stood in its place).
    pub seq: String,
}

impl ExportEntry {
    /// The entry at `index` as its JSON says: its `kind` when a string, its `seq` as written.
    pub(crate) fn of_json(index: usize, entry: &serde_json::Value) -> Self {
        Self {
            index,
            kind: entry
                .get("kind")
                .and_then(serde_json::Value::as_str)
                .map(str::to_owned),
            seq: entry.get("seq").cloned().unwrap_or_default().to_string(),
        }
    }
}

impl std::fmt::Display for ExportEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.kind {
            Some(kind) => write!(
                f,
                "entry {} ({kind} entry, numbered {} in the export)",
                self.index, self.seq
            ),
            None => write!(
                f,
                "entry {} (numbered {} in the export)",
                self.index, self.seq
            ),
        }
    }
}

/// Why an export is not one this solum imports.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ImportProblem {
    /// The text is not JSON of the export's shape: the reader's own words, with where.
    #[error("{0}")]
    Unreadable(String),
    /// The export lacks one of its fields.
    #[error("missing field `{0}`")]
    MissingField(&'static str),
    /// The export says it is of another format.
    #[error("format is \"{found}\", expected \"{expected}\"")]
    Format {
        /// The format it says.
        found: String,
        /// The one an import reads.
        expected: &'static str,
    },
    /// An export schema below 1: no solum wrote it.
    #[error("schema {0}: export schemas start at 1")]
    SchemaBelowOne(i64),
    /// An export or record schema newer than this solum reads.
    #[error("{what} schema {found} is newer than this solum knows ({known})")]
    SchemaNewer {
        /// Of what: `the export's`, `a character record's`, ….
        what: &'static str,
        /// The schema given.
        found: i64,
        /// The newest this solum reads.
        known: i64,
    },
    /// A Project Sol record made under rules newer than this solum knows.
    #[error("a Project Sol record of rules {found}, newer than this solum knows ({known})")]
    SolRulesNewer {
        /// The rules given.
        found: u8,
        /// The newest this solum knows.
        known: u8,
    },
    /// More entries than an import takes.
    #[error("{total} entries; the limit is {limit}")]
    TooManyEntries {
        /// The entries the export says it has.
        total: usize,
        /// The most an import takes.
        limit: usize,
    },
    /// A skirmish's end whose sheets before and after do not pair up.
    #[error("a skirmish's end keeps one sheet before and after per character")]
    SkirmishSheets,
    /// A Sol'una call's budget past what the table's calls ever ask.
    #[error("budget {budget}: at most {max} faces a call")]
    Budget {
        /// The budget given.
        budget: usize,
        /// The most a call asks.
        max: usize,
    },
    /// A reveal whose entry is itself a reveal.
    #[error("a reveal holds another reveal")]
    RevealInReveal,
    /// An idea drawn a number of words no draw takes.
    #[error("count {count}: {problem}")]
    IdeaCount {
        /// The count recorded.
        count: u32,
        /// The range, in the type's words.
        problem: crate::bounded::OutOfRange,
    },
    /// An idea list with a blank or comment line (the lists read leave them out).
    #[error("an idea list holds a blank or comment line")]
    IdeaListBlank,
    /// A generated roll kept without the seed that rolls it again.
    #[error("a generated roll without its seed")]
    RollWithoutSeed,
    /// A date that is no RFC 3339 date.
    #[error("date \"{date}\" is not an RFC 3339 date: {reason}")]
    DateUnreadable {
        /// The date as given.
        date: String,
        /// What the date reader said.
        reason: String,
    },
    /// A date past now by more than a day.
    #[error("date \"{0}\" is in the future (at most {MAX_IMPORT_FUTURE_HOURS} hours past now)")]
    DateInFuture(String),
    /// A date before the entry before it.
    #[error(
        "date \"{date}\" goes back before the entry before it ({last}): a journal's dates only go forward"
    )]
    DateGoesBack {
        /// The date as given.
        date: String,
        /// The date of the entry before.
        last: jiff::Timestamp,
    },
    /// A number given to an earlier entry of the file too.
    #[error("number {0} is given to an earlier entry of the file too")]
    NumberTwice(i64),
    /// A field the entry does not have (it would be dropped silently).
    #[error("unknown field `{0}`")]
    UnknownField(String),
    /// What the entry records is refused by the rules or the app's checks.
    #[error("{0}")]
    Refused(Box<crate::AppError>),
    /// A problem of one entry.
    #[error("{entry}: {problem}")]
    Entry {
        /// Which entry.
        entry: ExportEntry,
        /// Its problem.
        problem: Box<ImportProblem>,
    },
}

impl ImportProblem {
    /// This problem, as one of `entry`'s.
    pub(crate) fn of(self, entry: ExportEntry) -> Self {
        Self::Entry {
            entry,
            problem: Box::new(self),
        }
    }

    /// The problem itself, without the entry it is of.
    pub fn innermost(&self) -> &Self {
        match self {
            Self::Entry { problem, .. } => problem.innermost(),
            other => other,
        }
    }
}

impl From<ImportProblem> for crate::AppError {
    fn from(p: ImportProblem) -> Self {
        Self::BadImport(p)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

    use solum_store::MemoryStore;

    use super::*;
    use crate::{AppError, Campaign, Dice, Leaning};

    /// An export of one oracle roll, as JSON to change before it is imported again.
    fn export() -> serde_json::Value {
        let mut c = Campaign::new(MemoryStore::new());
        c.ask("Is it raining?", Leaning::Even, Dice::Seed(7))
            .unwrap();
        serde_json::to_value(c.export().unwrap()).unwrap()
    }

    fn import(v: &serde_json::Value) -> ImportProblem {
        let mut c = Campaign::new(MemoryStore::new());
        match c.import_json(&v.to_string()).unwrap_err() {
            AppError::BadImport(p) => p,
            e => panic!("not an import problem: {e}"),
        }
    }

    #[test]
    fn each_problem_of_an_export_is_a_value_naming_its_entry() {
        let mut v = export();
        v["entries"][0]["at"] = "2999-01-01T00:00:00Z".into();
        let p = import(&v);
        let ImportProblem::Entry { entry, problem } = &p else {
            panic!("{p:?}")
        };
        assert_eq!(
            (entry.index, entry.kind.as_deref(), entry.seq.as_str()),
            (1, None, "1")
        );
        assert!(
            matches!(**problem, ImportProblem::DateInFuture(ref d) if d == "2999-01-01T00:00:00Z")
        );
        assert!(
            p.to_string()
                .starts_with("entry 1 (numbered 1 in the export): date")
        );

        let mut v = export();
        v["entries"][0]["secrett"] = true.into();
        let p = import(&v);
        assert!(matches!(p.innermost(), ImportProblem::UnknownField(k) if k == "secrett"));

        let mut v = export();
        v["format"] = "other".into();
        assert!(matches!(import(&v), ImportProblem::Format { found, .. } if found == "other"));

        let mut v = export();
        v["schema"] = 0.into();
        assert!(matches!(import(&v), ImportProblem::SchemaBelowOne(0)));
        v["schema"] = 99.into();
        assert!(matches!(
            import(&v),
            ImportProblem::SchemaNewer { found: 99, .. }
        ));

        let mut v = export();
        v["entries"][0]["kind"] = "oracle".into();
        v["entries"][0]["outcome"] = "no such outcome".into();
        let p = import(&v);
        let ImportProblem::Entry { entry, problem } = &p else {
            panic!("{p:?}")
        };
        assert_eq!(entry.kind.as_deref(), Some("oracle"));
        assert!(matches!(**problem, ImportProblem::Unreadable(_)), "{p:?}");
    }
}
