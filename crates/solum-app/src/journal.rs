//! What the journal keeps: one [`Record`] per entry, with every input and every die, so that
//! history never depends on rolling again and [`replay`] can re-derive each roll.

use serde::{Deserialize, Serialize};
use solum_classic::oracle as classic;
use solum_dice::DiceSource;
use solum_expanded::oracle::{self, Leaning, OracleOutcome};

use crate::journaling::{Journaled, derive};
use crate::rolled::faces;
pub use crate::rolled::{RECORD_SCHEMA, Rolled};
use crate::{AppError, Divergence};

/// Declares [`Record`] and registers every kind in one list, each with the tag it is stored
/// under: the journal's own kinds (a note, a scene, an oracle: variants of their own), then
/// each system's kind, which also gets [`Journaled`] (so its use cases append it without
/// naming [`Record`]), `From` into [`Record`], and its arm in [`Record::system`] (through
/// which the journal asks it the questions of [`crate::records::SystemRecord`]). A new kind
/// is one line of the list.
macro_rules! record_kinds {
    (
        $(#[$meta:meta])*
        pub enum Record {
            $($(#[$own_doc:meta])* $own:ident { $($fields:tt)* } = $own_kind:literal,)*
        }
        systems {
            $($(#[$doc:meta])* $variant:ident($ty:ty) = $kind:literal,)*
        }
    ) => {
        $(#[$meta])*
        pub enum Record {
            $($(#[$own_doc])* #[serde(rename = $own_kind)] $own { $($fields)* },)*
            $($(#[$doc])* #[serde(rename = $kind)] $variant(Box<$ty>),)*
        }

        $(
            impl Journaled for $ty {
                const KIND: &'static str = $kind;
            }

            impl From<$ty> for Record {
                fn from(record: $ty) -> Self {
                    Self::$variant(Box::new(record))
                }
            }
        )*

        impl Record {
            /// The tag stored beside the record.
            pub fn kind(&self) -> &'static str {
                match self {
                    $(Self::$own { .. } => $own_kind,)*
                    $(Self::$variant(_) => $kind,)*
                }
            }

            /// The record as a system's kind, or `None` for the journal's own kinds (notes,
            /// scenes, the oracles, difficulty, ideas, reveals).
            pub fn system(&self) -> Option<&dyn crate::records::SystemRecord> {
                match self {
                    $(Self::$variant(r) => Some(r.as_ref()),)*
                    $(Self::$own { .. } => None,)*
                }
            }

            /// A system's record as its use case journals it (through [`Journaled`]), to
            /// compare with what the variant writes; `None` for the journal's own kinds.
            #[cfg(test)]
            pub(crate) fn as_journaled(
                &self,
                at: &jiff::Timestamp,
            ) -> Option<Result<solum_store::NewEntry, AppError>> {
                match self {
                    $(Self::$variant(r) => Some(crate::journaling::new_entry(at, r.as_ref())),)*
                    $(Self::$own { .. } => None,)*
                }
            }
        }
    };
}

record_kinds! {
    /// One journal entry's content.
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(tag = "kind")]
    pub enum Record {
        /// The player's own words.
        Note {
            /// The text.
            text: String,
        } = "note",
        /// A scene begins: its description and what the hero wants from it.
        SceneStart {
            /// A short description.
            title: String,
            /// The hero's goal, if set.
            goal: Option<String>,
        } = "scene-start",
        /// The open scene ends.
        SceneEnd {
            /// How it ended, if said.
            summary: Option<String>,
        } = "scene-end",
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
        } = "oracle",
        /// A yes/no question put to the original So1um's oracle, with its two event tables (C1).
        ClassicOracle {
            /// The question as asked.
            question: String,
            /// Plain, advantage or disadvantage.
            leaning: Leaning,
            /// The dice.
            rolled: Rolled,
            /// The answer and the event.
            outcome: ClassicOutcome,
        } = "classic-oracle",
        /// The original So1um's random difficulty: one d6 read on its table.
        Difficulty {
            /// The task it is for, if said.
            task: Option<String>,
            /// The dice.
            rolled: Rolled,
            /// 1 (automatic) to 6 (hard).
            difficulty: u32,
            /// Its name in the text.
            name: String,
        } = "difficulty",
        /// Words drawn from an idea list, each by a die as large as the list.
        Idea {
            /// Where the words come from.
            list: IdeaList,
            /// How many words were drawn.
            count: u32,
            /// The dice.
            rolled: Rolled,
            /// The words, in the order drawn.
            words: Vec<String>,
        } = "idea",
        /// The game master showed the table one of their secret entries: its record, as
        /// journaled. A secret roll changes nothing a player can see until then; what it does
        /// to a sheet (a Project Sol test's Edge and progress) is applied at the reveal, to the
        /// sheet as it is then.
        Reveal {
            /// The secret entry's number.
            of: i64,
            /// When the secret entry was made (RFC 3339).
            secret_at: String,
            /// The secret entry's record.
            record: Box<Record>,
        } = "reveal",
    }
    // Each system's kind: a record type of its own module, boxed in its variant.
    systems {
        /// A So1um Expanded character was created, changed, advanced, rested or rolled a check.
        Character(crate::characters::CharacterRecord) = "character",
        /// A Project Sol character was created, changed or rolled a test.
        Sol(crate::sol::SolRecord) = "sol",
        /// A combat kept in the campaign was started, played a line, or ended.
        Combat(crate::combat::CombatRecord) = "combat",
        /// A character's fast static combat (S11) started, played rounds, or was abandoned.
        FastStatic(crate::fast_static::StaticRecord) = "static",
        /// A creature was added to the campaign's bestiary or removed from it.
        Creature(crate::creatures::CreatureRecord) = "creature",
        /// One of the original So1um's heroes was created, imported, rested, rolled a check or
        /// fought.
        Classic(crate::classic::ClassicRecord) = "classic",
        /// Sol'una characters were created or imported, or fought a skirmish.
        Soluna(crate::soluna::SolunaRecord) = "soluna",
        /// A die-type character was created, imported, edited or rolled.
        Dietype(crate::dietype::DietypeRecord) = "dietype",
        /// Dice notation rolled at the table (`4d6kh3`, `2d10 + 3`).
        Notation(crate::notation::NotationRecord) = "notation",
        /// A chase roll or a vehicle attack between two piloted vehicles (S10).
        Vehicle(crate::vehicles::VehicleRecord) = "vehicle",
    }
}

/// The list an idea draw used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "from", rename_all = "kebab-case")]
pub enum IdeaList {
    /// A built-in genre: its words are in the program.
    Genre {
        /// The genre's name.
        genre: String,
    },
    /// A player's own list, kept whole so a replay does not need the file.
    Custom {
        /// The file's name, to show.
        name: String,
        /// Every word of the list, in order.
        words: Vec<String>,
    },
}

impl IdeaList {
    /// The list's words.
    pub fn words(&self) -> Result<Vec<String>, AppError> {
        match self {
            Self::Genre { genre } => crate::ideas::genre_words(genre),
            Self::Custom { words, .. } => Ok(words.clone()),
        }
    }

    /// A short name to show.
    pub fn label(&self) -> &str {
        match self {
            Self::Genre { genre } => genre,
            Self::Custom { name, .. } => name,
        }
    }
}

/// The original oracle's answer and event, as journaled.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ClassicOutcome {
    /// The answer dice as rolled (one, or two with advantage or disadvantage).
    pub dice: Vec<u32>,
    /// The answer as the text writes it.
    pub answer: String,
    /// The event die, on an And or a But.
    pub event_die: Option<u32>,
    /// The event, on an And or a But.
    pub event: Option<String>,
}

impl From<classic::Consultation> for ClassicOutcome {
    fn from(c: classic::Consultation) -> Self {
        Self {
            dice: c.dice,
            answer: c.answer.text().to_string(),
            event_die: c.event.map(|(d, _)| d),
            event: c.event.map(|(_, e)| e.to_string()),
        }
    }
}

/// The original oracle's odds for a leaning.
pub fn classic_odds(leaning: Leaning) -> classic::Odds {
    match leaning {
        Leaning::Even => classic::Odds::Even,
        Leaning::Advantage => classic::Odds::Advantage,
        Leaning::Disadvantage => classic::Odds::Disadvantage,
    }
}

/// The original oracle as a rule of the journal.
pub(crate) fn classic_ask(
    leaning: Leaning,
    dice: &mut dyn DiceSource,
) -> Result<ClassicOutcome, solum_dice::DiceError> {
    classic::ask(classic_odds(leaning), dice).map(ClassicOutcome::from)
}

/// The random difficulty as a rule of the journal: the die and its name.
pub(crate) fn difficulty(
    dice: &mut dyn DiceSource,
) -> Result<(u32, String), solum_dice::DiceError> {
    let d = solum_classic::check::random_difficulty(dice)?;
    Ok((d, solum_classic::check::difficulty_name(d).to_string()))
}

impl Record {
    /// True when the record holds dice that `verify` rolls again.
    pub fn has_dice(&self) -> bool {
        if let Some(kind) = self.system() {
            return kind.has_dice();
        }
        match self {
            Self::Reveal { record, .. } => record.has_dice(),
            other => other.rolled().is_some(),
        }
    }

    /// One line for the story, for the records of characters.
    pub fn character_summary(&self) -> Option<String> {
        if let Some(kind) = self.system() {
            return Some(kind.summary());
        }
        match self {
            Self::Reveal { record, .. } => record.character_summary(),
            _ => None,
        }
    }

    /// The record in one line of plain text: what the page's feed and `journal show` say of
    /// it (the Markdown story has its own, richer form).
    pub fn line(&self) -> String {
        // One line, whatever a note or a name holds: breaks become spaces.
        self.words()
            .replace(['\n', '\r', '\u{2028}', '\u{2029}'], " ")
    }

    fn words(&self) -> String {
        match self {
            Self::Note { text } => text.clone(),
            Self::SceneStart { title, goal } => match goal {
                Some(g) => format!("Scene: {title} (goal: {g})"),
                None => format!("Scene: {title}"),
            },
            Self::SceneEnd { summary } => match summary {
                Some(s) => format!("Scene ends: {s}"),
                None => "Scene ends".into(),
            },
            Self::Oracle {
                question,
                leaning,
                outcome,
                ..
            } => {
                let mut s = format!(
                    "{question} → {} ({}{})",
                    outcome.answer.text(),
                    faces(&outcome.dice),
                    leaning_words(*leaning)
                );
                if let Some(event) = outcome.event {
                    s.push_str(&format!("; {}", event.text()));
                }
                s
            }
            Self::ClassicOracle {
                question,
                leaning,
                outcome,
                ..
            } => {
                let mut s = format!(
                    "{question} → {} ({}{}, original oracle)",
                    outcome.answer,
                    faces(&outcome.dice),
                    leaning_words(*leaning)
                );
                if let Some(event) = &outcome.event {
                    s.push_str(&format!("; {event}"));
                }
                s
            }
            Self::Difficulty {
                task,
                difficulty,
                name,
                ..
            } => match task {
                Some(t) => format!("Difficulty for {t}: {difficulty} ({name})"),
                None => format!("Difficulty: {difficulty} ({name})"),
            },
            Self::Idea { list, words, .. } => {
                format!("Idea ({}): {}", list.label(), words.join(" · "))
            }
            Self::Reveal { of, record, .. } => {
                format!("Revealed (secret entry {of}): {}", record.words())
            }
            other => other.system().map(|kind| kind.line()).unwrap_or_default(),
        }
    }

    /// The dice of the record, if it rolled any.
    pub fn rolled(&self) -> Option<&Rolled> {
        if let Some(kind) = self.system() {
            return kind.rolled();
        }
        match self {
            Self::Reveal { record, .. } => record.rolled(),
            Self::Oracle { rolled, .. }
            | Self::ClassicOracle { rolled, .. }
            | Self::Difficulty { rolled, .. }
            | Self::Idea { rolled, .. } => Some(rolled),
            _ => None,
        }
    }
}

/// A record as an entry shows it: its `kind` and that kind's fields (docs/api.md lists
/// them), described by its tag only: a kind's fields are the journal's format, pinned by the
/// fixtures of `tests/records.rs`.
#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for Record {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .property(
                "kind",
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .description(Some("The record's kind: `note`, `oracle`, `character`, …")),
            )
            .required("kind")
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for Record {}

/// The open scene, for every member: its start entry, or none (`{"scene": null}`); what
/// `solum scene show --json` prints and `GET /api/scene` answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SceneAnswer {
    /// The entry that started it: title, goal, who, when.
    pub scene: Option<JournalEntry>,
}

/// A stored entry as the application shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JournalEntry {
    /// Position in the journal.
    pub seq: i64,
    /// When it happened (RFC 3339, UTC).
    pub at: String,
    /// What happened.
    #[serde(flatten)]
    pub record: Record,
    /// A game master's secret roll: only a game master's view ever holds one, so a player
    /// never sees the flag set. Written only when set (an export of public entries is as
    /// before); an import stores entries in the importer's scope, whatever this says.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub secret: bool,
    /// Who made the entry: a member of the table, or the command line. Entries written
    /// before solum kept it have none (the field is absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<By>,
    /// The entry in one line of plain text ([`Record::line`]), set by
    /// [`JournalEntry::for_display`] for the front ends (the page's feed, `journal show`);
    /// never stored, exported or read back.
    #[serde(default, skip_serializing_if = "Option::is_none", skip_deserializing)]
    pub line: Option<String>,
}

/// The name [`By`] gives the command line (table 0 played without a member).
pub const COMMAND_LINE: &str = "command line";

/// Who made a journal entry, as stamped into its body when it is appended (see
/// [`crate::Campaign::acting_as`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct By {
    /// The member's id at the table; `None` for the command line.
    pub member: Option<i64>,
    /// The member's display name at the time, or [`COMMAND_LINE`].
    pub name: String,
    /// Made by a game master or the command line (who may do what only a game master may,
    /// such as ending the game master's scene).
    pub gm: bool,
}

impl By {
    /// The command line: no member.
    pub fn command_line() -> Self {
        Self {
            member: None,
            name: COMMAND_LINE.to_owned(),
            gm: true,
        }
    }

    /// A member of a table, by id, display name and role.
    pub fn member(id: i64, name: &str, gm: bool) -> Self {
        Self {
            member: Some(id),
            name: name.to_owned(),
            gm,
        }
    }
}

/// The key of [`By`] in a stored entry's body (beside the record's own fields).
const BY_KEY: &str = "by";

/// Puts `by` into a stored body beside the record's fields (a body that names one already,
/// or that is no object, is left as it is).
pub(crate) fn stamp(body: &mut serde_json::Value, by: &By) {
    if let serde_json::Value::Object(map) = body
        && !map.contains_key(BY_KEY)
        && let Ok(value) = serde_json::to_value(by)
    {
        map.insert(BY_KEY.to_owned(), value);
    }
}

/// A stored body read as its record and who made it (`None`: an entry from before solum kept
/// it). A `by` that does not read is an error like any other field's.
pub fn read_body(mut body: serde_json::Value) -> Result<(Record, Option<By>), serde_json::Error> {
    let by = match &mut body {
        serde_json::Value::Object(map) => map.remove(BY_KEY),
        _ => None,
    };
    let by = by.map(serde_json::from_value).transpose()?;
    Ok((serde_json::from_value(body)?, by))
}

impl JournalEntry {
    /// A stored entry read as its record; a body that is no record is an unreadable entry.
    pub fn read(entry: solum_store::Entry) -> Result<Self, crate::AppError> {
        let (record, by) = read_body(entry.body).map_err(|e| crate::AppError::UnreadableEntry {
            seq: entry.seq,
            reason: e.to_string(),
        })?;
        Ok(Self {
            seq: entry.seq,
            at: entry.at.to_string(),
            record,
            secret: entry.secret,
            by,
            line: None,
        })
    }
}

impl JournalEntry {
    /// The entry as a front end shows it: a roll of dice notation gets its per-term view
    /// back (the journal keeps only its flat faces).
    pub fn for_display(mut self) -> Self {
        self.record = self.record.for_display();
        self.line = Some(self.record.line());
        self
    }
}

impl Record {
    fn for_display(self) -> Self {
        match self {
            Record::Notation(n) => Record::Notation(Box::new(n.with_terms())),
            Record::Reveal {
                of,
                secret_at,
                record,
            } => Record::Reveal {
                of,
                secret_at,
                record: Box::new(record.for_display()),
            },
            other => other,
        }
    }
}

/// Re-derives a record's rolls from its seed or typed faces. `Ok(None)`: it matches (or has
/// no dice); `Ok(Some(divergence))`: it does not, and how.
pub fn replay(record: &Record) -> Result<Option<Divergence>, AppError> {
    match record {
        Record::Note { .. } | Record::SceneStart { .. } | Record::SceneEnd { .. } => Ok(None),
        // A revealed record re-derives as it did when secret.
        Record::Reveal { record, .. } => replay(record),
        Record::Oracle {
            leaning,
            rolled,
            outcome,
            ..
        } => Ok(compare(
            rolled,
            derive(rolled, |d| oracle::ask(*leaning, d)),
            outcome,
            "outcome",
        )),
        Record::ClassicOracle {
            leaning,
            rolled,
            outcome,
            ..
        } => Ok(compare(
            rolled,
            derive(rolled, |d| classic_ask(*leaning, d)),
            outcome,
            "outcome",
        )),
        Record::Difficulty {
            rolled,
            difficulty: d,
            name,
            ..
        } => Ok(compare(
            rolled,
            derive(rolled, |dice| {
                difficulty(dice).map(|(difficulty, name)| DifficultyFields { difficulty, name })
            }),
            &DifficultyFields {
                difficulty: *d,
                name: name.clone(),
            },
            "",
        )),
        Record::Idea {
            list,
            count,
            rolled,
            words,
        } => {
            if *count as usize != words.len() {
                return Ok(Some(Divergence::inconsistent(format!(
                    "{count} words drawn, but {} recorded",
                    words.len()
                ))));
            }
            let list_words = match list.words() {
                Ok(w) => w,
                Err(e) => {
                    return Ok(Some(Divergence::refused(format!(
                        "its list cannot be read: {e}"
                    ))));
                }
            };
            Ok(compare(
                rolled,
                derive(rolled, |d| crate::ideas::draw(&list_words, *count, d)),
                words,
                "words",
            ))
        }
        // A system's kind re-derives on its own (a combat line only in [`Replayer`], which
        // `verify` and `import` run, on the combat its earlier lines built).
        other => Ok(other.system().and_then(|kind| kind.replay())),
    }
}

/// Re-derives records in journal order, keeping what a record needs from the ones before it
/// (the combat in progress).
#[derive(Default)]
pub struct Replayer {
    combat: crate::combat::CombatReplay,
    soluna: crate::soluna::SkirmishChain,
}

impl Replayer {
    /// Re-derives the next record, as [`replay`] does, combats included.
    pub fn check(&mut self, record: &Record) -> Result<Option<Divergence>, AppError> {
        match record {
            Record::Combat(c) => Ok(self.combat.check(c)),
            Record::Soluna(s) => Ok(replay(record)?.or_else(|| self.soluna.check(s))),
            other => replay(other),
        }
    }
}

/// The fields of a difficulty record, named as the record names them.
#[derive(PartialEq, Serialize)]
struct DifficultyFields {
    difficulty: u32,
    name: String,
}

/// Compares a re-derived roll with the recorded one: the faces first (other faces make
/// every field after them moot), then the outcome field by field
/// (`outcome.event_die: recorded 3, the dice give 1`), so a changed entry says what was
/// changed, not only that something was.
fn compare<T: PartialEq + Serialize>(
    rolled: &Rolled,
    derived: Result<(T, Vec<u32>), AppError>,
    recorded: &T,
    field: &str,
) -> Option<Divergence> {
    match derived {
        Err(e) => Some(Divergence::of_error(&e)),
        Ok((again, faces)) => Divergence::faces(rolled, &faces)
            .or_else(|| Divergence::fields(field, recorded, &again)),
    }
}

/// Refuses an export's schema that is not one this solum reads: below 1 (no solum wrote
/// it) or newer than [`RECORD_SCHEMA`].
pub(crate) fn check_export_schema(schema: i64) -> Result<(), crate::AppError> {
    if schema < 1 {
        return Err(crate::ImportProblem::SchemaBelowOne(schema).into());
    }
    if schema > RECORD_SCHEMA {
        return Err(crate::ImportProblem::SchemaNewer {
            what: "the export's",
            found: schema,
            known: RECORD_SCHEMA,
        }
        .into());
    }
    Ok(())
}

/// How an oracle question leaned, as a line says it after the dice (nothing when plain).
fn leaning_words(leaning: Leaning) -> &'static str {
    match leaning {
        Leaning::Even => "",
        Leaning::Advantage => ", with advantage",
        Leaning::Disadvantage => ", with disadvantage",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use solum_dice::{enumerate, prob};

    #[test]
    fn the_original_oracle_enumerated_matches_the_text() {
        // Advantage: "Yes, and" on a 6 in either of two dice, 11/36.
        let e = enumerate(3, |d| classic_ask(Leaning::Advantage, d)).unwrap();
        assert_eq!(e.p(|o| o.answer == "Yes, and…"), prob(11, 36));
        // Plain: a friendly NPC needs 3 or 6 ("No, but" or "Yes, and", the second table)
        // and a 5 on the event die: 2/6 × 1/6.
        let e = enumerate(2, |d| classic_ask(Leaning::Even, d)).unwrap();
        assert_eq!(
            e.p(|o| o.event.as_deref() == Some("Friendly NPC")),
            prob(1, 18)
        );
        // An obstacle only on the first table ("Yes, but", "No, and"): 2/6 × 1/6.
        assert_eq!(
            e.p(|o| o.event.as_deref() == Some("An obstacle")),
            prob(1, 18)
        );
    }

    #[test]
    fn the_random_difficulty_is_each_name_one_time_in_six() {
        let e = enumerate(1, difficulty).unwrap();
        assert_eq!(e.outcomes.len(), 6);
        assert_eq!(e.p(|(d, n)| *d == 5 && n == "tricky"), prob(1, 6));
        assert_eq!(e.p(|(d, n)| *d == 1 && n == "automatic"), prob(1, 6));
    }
}
