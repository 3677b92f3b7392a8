//! The application layer: the use cases of a campaign, as functions over a
//! [`CampaignStore`] and a choice of dice.
//!
//! Front ends (the command line, the solo companion, the web table) parse input, call a
//! [`Campaign`] method and render the view it returns; none of them holds a rule, a state
//! change or a load–change–save flow of its own. Every use case validates its input before it
//! rolls, rolls before it stores, and stores in one transaction: when an [`AppError`] comes
//! back, nothing was written.

pub mod bounded;
pub mod characters;
pub mod check_once;
pub mod classic;
pub mod classic_once;
pub mod classic_who;
pub mod combat;
pub mod creatures;
pub mod describe;
pub mod dietype;
pub mod dietype_once;
mod divergence;
mod error;
pub mod expression;
mod expression_error;
pub mod fast_static;
pub mod fields;
pub mod fight_odds;
pub mod fight_once;
mod forbidden;
pub mod groups;
pub mod ideas;
pub mod import;
mod invite_refusal;
pub mod journal;
pub mod journal_query;
mod journaling;
pub mod markdown;
pub mod notation;
pub mod on_use;
pub mod policy;
pub mod records;
pub mod refusal;
mod rolled;
#[cfg(feature = "openapi")]
pub mod schema;
pub mod shorthand;
pub mod siblings;
mod sides;
pub mod sim;
mod sim_refusal;
pub mod sol;
pub mod sol_once;
pub mod soluna;
pub mod soluna_once;
pub mod tables;
pub mod typed_dice;
mod vehicle_error;
pub mod vehicles;
mod verify;

pub use divergence::{Divergence, FieldDifference};
pub use verify::SheetMismatch;

use serde::{Deserialize, Serialize};
use solum_dice::DiceError;
use solum_expanded::oracle::{self, Answer, Disposition, Event};

/// How the oracle leans (a question's likelihood), as [`Campaign::ask`] takes it.
pub use solum_expanded::oracle::Leaning;
use solum_store::{CampaignStore, NewEntry};

pub use characters::{
    AdvanceGoal, Against, ArmorChange, CharacterCheck, CharacterEdit, CharacterRecord,
    NewCharacter, TextFileError, parse_sheet,
};
pub use error::{AppError, ErrorKind, ExportEntry, ImportProblem, import_problem};
/// The rules' types a front end names when it hands the app what it read from a file.
pub use solum_expanded::{character::Character, creature::Bestiary};

/// The rules' words and types a front end parses at its edge and hands to the app, or reads
/// in the app's views: a sheet's parts, vehicle ratings, a verdict, typed faces.
pub mod rules {
    pub use solum_classic::check::GEAR_ONLY_IN_CHECKS;
    pub use solum_dice::{UnknownWord, parse_faces};
    pub use solum_expanded::Penalty;
    pub use solum_expanded::character::{
        Armor, Attribute, Class, Gear, GearEffect, MAX_ATTRIBUTE, Weapon,
    };
    pub use solum_expanded::check::Verdict;
    pub use solum_expanded::check::{ABOVE_SIX, AUTOMATIC, GEAR_UNUSED};
    pub use solum_expanded::vehicle::{Handling, Scale, Speed};
}
pub use import::ImportCount;
pub use journal::{By, ClassicOutcome, IdeaList, JournalEntry, Record, Rolled, SceneAnswer};
pub use refusal::{
    ClassicRefusal, CombatRefusal, CreatureRefusal, DieTypeRefusal, ExpandedRefusal, Refused,
    SolRefusal, SolunaRefusal, TableRefusal,
};
pub use sol::{NewSol, SolRecord, SolTest};
pub use typed_dice::TypedDiceError;

/// The largest text a use case takes as one file's body (a sheet, a bestiary, a hero, a
/// skirmish, a combat script): 1 MiB, a thousand times the longest sheet; more is a mistake
/// or an attack. A front end that reads the file bounds its read by the same number.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// The longest question the oracle takes, in characters.
pub const MAX_QUESTION: usize = 500;
/// The longest note, in characters.
pub const MAX_NOTE: usize = 10_000;
/// The longest scene title, in characters.
pub const MAX_TITLE: usize = 200;
/// The longest scene goal or summary, in characters.
pub const MAX_GOAL: usize = 1_000;
/// The most entries one import may hold.
pub const MAX_IMPORT_ENTRIES: usize = 100_000;

/// The campaign used when none is named: `campaign.solum` in the user's data folder
/// (`$XDG_DATA_HOME/solum` on Linux). `None` when the system has no home folder.
pub fn default_campaign_path() -> Option<std::path::PathBuf> {
    directories::ProjectDirs::from("", "", "solum").map(|d| d.data_dir().join("campaign.solum"))
}

/// Where the dice of a roll come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dice {
    /// The generator with a fresh seed, which is journaled.
    Fresh,
    /// The generator with this seed (a replay).
    Seed(u64),
    /// Faces a player rolled by hand, in the order the rule draws them.
    Typed(Vec<u32>),
}

/// A campaign: its store and the clock that dates its entries.
pub struct Campaign<S> {
    store: S,
    clock: Box<dyn Fn() -> jiff::Timestamp + Send>,
    /// Who the entries appended are by (the command line unless [`Campaign::acting_as`]).
    by: By,
}

impl<S: CampaignStore> Campaign<S> {
    /// A campaign over `store`, dated by the system clock; its entries are by the command
    /// line until [`Campaign::acting_as`] names a member.
    pub fn new(store: S) -> Self {
        Self {
            store,
            clock: Box::new(jiff::Timestamp::now),
            by: By::command_line(),
        }
    }

    /// The same campaign played by a member of a table: every entry it appends carries `by`
    /// (the table's feed says who did what).
    pub fn acting_as(mut self, by: By) -> Self {
        self.by = by;
        self
    }

    /// Who the entries this campaign appends are by.
    pub fn by(&self) -> &By {
        &self.by
    }

    /// The same campaign dated by another clock (tests, imports).
    pub fn with_clock(mut self, clock: impl Fn() -> jiff::Timestamp + Send + 'static) -> Self {
        self.clock = Box::new(clock);
        self
    }

    /// The store underneath.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// Gives the store back (a server keeps its connection for the next request).
    pub fn into_store(self) -> S {
        self.store
    }

    fn now(&self) -> jiff::Timestamp {
        (self.clock)()
    }

    fn append(
        &mut self,
        records: Vec<(jiff::Timestamp, Record)>,
    ) -> Result<Vec<JournalEntry>, AppError> {
        let new = records
            .iter()
            .map(|(at, record)| {
                Ok(NewEntry {
                    at: *at,
                    kind: record.kind().to_string(),
                    schema: journal::RECORD_SCHEMA,
                    body: serde_json::to_value(record)
                        .map_err(|e| AppError::internal("record", e))?,
                })
            })
            .collect::<Result<Vec<_>, AppError>>()?;
        // Through a write, as every use case appends: its transaction asks the role policy.
        let stored = transact(&mut self.store, &self.by, |tx| Ok(tx.append(&new)?))?;
        Ok(stored
            .into_iter()
            .zip(records)
            // The time as stored: a table's times never go back (`CampaignStore::append`).
            .map(|(entry, (_, record))| JournalEntry {
                seq: entry.seq,
                at: entry.at.to_string(),
                record,
                secret: entry.secret,
                by: Some(self.by.clone()),
                line: None,
            })
            .collect())
    }

    fn append_one(&mut self, record: impl Into<Record>) -> Result<JournalEntry, AppError> {
        let at = self.now();
        let mut stored = self.append(vec![(at, record.into())])?;
        stored
            .pop()
            .ok_or(AppError::internal("journal", "nothing stored"))
    }

    /// Asks the oracle a yes/no question and journals the answer with its dice.
    pub fn ask(
        &mut self,
        question: &str,
        leaning: Leaning,
        dice: Dice,
    ) -> Result<AskView, AppError> {
        let question = text("question", question, MAX_QUESTION, false)?;
        let (outcome, rolled) =
            journaling::roll(dice, |d| oracle::ask(leaning, d)).map_err(|e| match e {
                // The answer's dice were all there: what ran out is the event table's die.
                AppError::Dice(DiceError::Exhausted { given }) if given >= leaning.dice() => {
                    AppError::DiceShort {
                        given,
                        why:
                            "an answer with And or But (a 1, 3, 4 or 6) also rolls the event die, \
                              and an NPC or monster event the disposition die: type them after \
                              the answer's (e.g. 6 then 3)"
                                .to_owned(),
                    }
                }
                e => e,
            })?;
        let entry = self.append_one(Record::Oracle {
            question,
            leaning,
            rolled,
            outcome,
        })?;
        Ok(AskView::of(&entry))
    }

    /// Asks the original So1um's oracle (C1): its answers, and its two event tables — one for
    /// "Yes, but" and "No, and", one for "Yes, and" and "No, but".
    pub fn ask_classic(
        &mut self,
        question: &str,
        leaning: Leaning,
        dice: Dice,
    ) -> Result<ClassicAskView, AppError> {
        let question = text("question", question, MAX_QUESTION, false)?;
        let (outcome, rolled) = journaling::roll(dice, |d| journal::classic_ask(leaning, d))?;
        let entry = self.append_one(Record::ClassicOracle {
            question,
            leaning,
            rolled,
            outcome,
        })?;
        Ok(ClassicAskView::of(&entry))
    }

    /// Which oracle `ask` uses in this campaign (a campaign setting; So1um Expanded's when
    /// never set).
    pub fn oracle_system(&self) -> Result<OracleSystem, AppError> {
        match self.store.meta(ORACLE_KEY)? {
            None => Ok(OracleSystem::Expanded),
            Some(v) => OracleSystem::parse(&v),
        }
    }

    /// Whether this campaign's scope may change the table's settings ([`policy`]), asked
    /// of the scope a write transaction runs in.
    fn may_change_settings(&mut self) -> Result<(), AppError> {
        transact(&mut self.store, &self.by, |tx| {
            Ok(policy::may_change_settings(tx.scope())?)
        })
    }

    /// Refuses `what` unless this campaign's scope is a game master's (the command line's
    /// is): the role policy ([`policy::game_master`]) asked of the store's scope before
    /// anything is read or written, so a player's request changes nothing and finds out
    /// nothing about the table's state.
    pub(crate) fn game_master(&self, what: policy::GmOnly) -> Result<(), AppError> {
        Ok(policy::game_master(self.store.sees_every_entry(), what)?)
    }

    /// Sets which oracle `ask` uses in this campaign.
    pub fn set_oracle_system(&mut self, system: OracleSystem) -> Result<(), AppError> {
        self.may_change_settings()?;
        Ok(self.store.set_meta(ORACLE_KEY, system.name())?)
    }

    /// The roll-off option as every front end shows it ([`RollOffSetting`]).
    pub fn roll_off_setting(&self) -> Result<RollOffSetting, AppError> {
        Ok(RollOffSetting {
            on: self.roll_off()?,
        })
    }

    /// Whether draws of opposed rolls are rolled off at this table or campaign (S3, S14; a
    /// campaign setting, draws stand when never set). Checks from sheets, their odds and the
    /// combat tracker's opposed rolls follow it.
    pub fn roll_off(&self) -> Result<bool, AppError> {
        Ok(self.store.meta(ROLL_OFF_KEY)?.as_deref() == Some("on"))
    }

    /// Turns the roll-off option on or off (the game master's: [`policy`] refuses a player).
    /// A front end reads the word a player types as a [`Switch`].
    pub fn set_roll_off(&mut self, on: bool) -> Result<(), AppError> {
        self.game_master(policy::GmOnly::RollOffSetting)?;
        Ok(self
            .store
            .set_meta(ROLL_OFF_KEY, if on { "on" } else { "off" })?)
    }

    /// Whether the table rolls real dice: every member may type the faces they rolled
    /// ([`tables::may_type_dice`]).
    pub fn real_dice(&self) -> Result<bool, AppError> {
        policy::real_dice(&self.store)
    }

    /// Says whether the table rolls real dice (the game master's: [`policy`] refuses a
    /// player).
    pub fn set_real_dice(&mut self, on: bool) -> Result<(), AppError> {
        self.game_master(policy::GmOnly::RealDiceSetting)?;
        Ok(self
            .store
            .set_meta(tables::REAL_DICE_KEY, if on { "on" } else { "off" })?)
    }

    /// Asks the oracle `system` names, or the campaign's own when `None`.
    pub fn ask_oracle(
        &mut self,
        question: &str,
        leaning: Leaning,
        dice: Dice,
        system: Option<OracleSystem>,
    ) -> Result<OracleView, AppError> {
        let system = match system {
            Some(s) => s,
            None => self.oracle_system()?,
        };
        Ok(match system {
            OracleSystem::Expanded => OracleView::Expanded(self.ask(question, leaning, dice)?),
            OracleSystem::Classic => {
                OracleView::Classic(self.ask_classic(question, leaning, dice)?)
            }
        })
    }

    /// Rolls the original So1um's random difficulty (a d6 on its table) for a task, as a
    /// game master's tool.
    pub fn random_difficulty(
        &mut self,
        task: Option<&str>,
        dice: Dice,
    ) -> Result<DifficultyView, AppError> {
        let task = task
            .map(|t| text("task", t, MAX_QUESTION, false))
            .transpose()?;
        let ((difficulty, name), rolled) = journaling::roll(dice, journal::difficulty)?;
        let entry = self.append_one(Record::Difficulty {
            task: task.clone(),
            rolled: rolled.clone(),
            difficulty,
            name: name.clone(),
        })?;
        Ok(DifficultyView {
            seq: entry.seq,
            task,
            difficulty,
            name,
            seed: rolled.seed,
            typed: rolled.typed,
        })
    }

    /// Draws `count` words from an idea list, each by a die as large as the list, and
    /// journals them (with the whole list, when it is the player's own).
    pub fn idea(
        &mut self,
        list: IdeaSource,
        count: ideas::IdeaCount,
        dice: Dice,
    ) -> Result<IdeaView, AppError> {
        let count = count.get();
        let list = match list {
            IdeaSource::Genre(name) => IdeaList::Genre {
                genre: ideas::genre_name(&name)?.to_string(),
            },
            IdeaSource::Custom { name, words } => {
                let words = ideas::parse_list(&words.join("\n"))?;
                IdeaList::Custom {
                    name: text("list name", &name, MAX_TITLE, false)?,
                    words,
                }
            }
        };
        let list_words = list.words()?;
        let (words, rolled) = journaling::roll(dice, |d| ideas::draw(&list_words, count, d))?;
        let entry = self.append_one(Record::Idea {
            list: list.clone(),
            count,
            rolled: rolled.clone(),
            words: words.clone(),
        })?;
        Ok(IdeaView {
            seq: entry.seq,
            list: list.label().to_string(),
            list_size: list_words.len(),
            words,
            dice: rolled.faces,
            seed: rolled.seed,
            typed: rolled.typed,
        })
    }

    /// Writes the player's own words into the journal.
    pub fn note(&mut self, words: &str) -> Result<JournalEntry, AppError> {
        let text = text("note", words, MAX_NOTE, true)?;
        self.append_one(Record::Note { text })
    }

    /// Starts a scene (ending the open one first, if any, in the same transaction).
    pub fn start_scene(
        &mut self,
        title: &str,
        goal: Option<&str>,
    ) -> Result<Vec<JournalEntry>, AppError> {
        let title = name("scene title", title, MAX_TITLE)?;
        let goal = goal
            .map(|g| text("scene goal", g, MAX_GOAL, true))
            .transpose()?;
        let at = self.now();
        let by = self.by.clone();
        // The check (is a scene open?) and the write are one transaction: two starts at once
        // (the command line and the page) still leave one scene open.
        transact(&mut self.store, &self.by, |tx| {
            let mut records = Vec::new();
            if let Some(open) = open_scene_in(|kind| tx.last_of_kind(kind))? {
                may_end_scene(&by, &open)?;
                records.push((at, Record::SceneEnd { summary: None }));
            }
            records.push((
                at,
                Record::SceneStart {
                    title: title.clone(),
                    goal: goal.clone(),
                },
            ));
            append_records(tx, records)
        })
    }

    /// Ends the open scene.
    pub fn end_scene(&mut self, summary: Option<&str>) -> Result<JournalEntry, AppError> {
        let summary = summary
            .map(|s| text("scene summary", s, MAX_GOAL, true))
            .transpose()?;
        let at = self.now();
        let by = self.by.clone();
        // Checked inside the write: two ends at once end the scene once.
        let mut stored = transact(&mut self.store, &self.by, |tx| {
            let Some(open) = open_scene_in(|kind| tx.last_of_kind(kind))? else {
                return Err(AppError::NoOpenScene);
            };
            may_end_scene(&by, &open)?;
            append_records(
                tx,
                vec![(
                    at,
                    Record::SceneEnd {
                        summary: summary.clone(),
                    },
                )],
            )
        })?;
        stored
            .pop()
            .ok_or(AppError::internal("journal", "nothing stored"))
    }

    /// The open scene as the front ends answer it (`{"scene": null}` when none is open).
    pub fn scene_answer(&self) -> Result<SceneAnswer, AppError> {
        Ok(SceneAnswer {
            scene: self.open_scene()?,
        })
    }

    /// The open scene: its start entry. Read from the end of the journal by index (the
    /// latest start and the latest end), not by a scan.
    pub fn open_scene(&self) -> Result<Option<JournalEntry>, AppError> {
        open_scene_in(|kind| self.store.last_of_kind(kind))
    }

    /// The latest `limit` entries, in order, read from the end of the journal.
    pub fn last_entries(&self, limit: LastEntries) -> Result<Vec<JournalEntry>, AppError> {
        self.store
            .last_entries(usize::try_from(limit.get()).unwrap_or(usize::MAX))?
            .into_iter()
            .map(JournalEntry::read)
            .collect()
    }

    /// Starts committing writes in groups (a piped script): each use case stays all or
    /// nothing, and the group becomes durable at [`Campaign::end_group`] with one sync.
    pub fn begin_group(&mut self) -> Result<(), AppError> {
        Ok(self.store.begin_group()?)
    }

    /// Commits the open group (nothing when none is open).
    pub fn end_group(&mut self) -> Result<(), AppError> {
        Ok(self.store.end_group()?)
    }

    /// Every entry, in order.
    pub fn entries(&self) -> Result<Vec<JournalEntry>, AppError> {
        const PAGE: usize = 1_000;
        let mut out = Vec::new();
        let mut after = 0;
        loop {
            let page = self.store.entries_after(after, PAGE)?;
            let done = page.len() < PAGE;
            for entry in page {
                after = entry.seq;
                out.push(JournalEntry::read(entry)?);
            }
            if done {
                return Ok(out);
            }
        }
    }

    /// One page of the journal, read a store page at a time so that no more than a page
    /// and the answer are ever in memory: with `after`, the first `limit` entries past that
    /// sequence number that `keep` accepts, and the sequence number to read on from when
    /// more may follow; without it, the latest `limit` such entries, read backwards from the
    /// end of the journal (by index: the latest page costs the same whatever the journal's
    /// length).
    pub fn journal_page(
        &self,
        after: Option<i64>,
        limit: usize,
        keep: impl Fn(&Record) -> bool,
    ) -> Result<(Vec<JournalEntry>, Option<i64>), AppError> {
        const PAGE: usize = 100;
        let limit = limit.max(1);
        let Some(after) = after else {
            let mut out = Vec::new();
            let mut before = i64::MAX;
            loop {
                let want = PAGE.min(limit.saturating_mul(2));
                let page = self.store.entries_before(before, want)?;
                let done = page.len() < want;
                for entry in page {
                    before = entry.seq;
                    let entry = JournalEntry::read(entry)?;
                    if keep(&entry.record) {
                        out.push(entry);
                        if out.len() == limit {
                            out.reverse();
                            return Ok((out, None));
                        }
                    }
                }
                if done {
                    out.reverse();
                    return Ok((out, None));
                }
            }
        };
        let mut out = Vec::new();
        let mut cursor = after;
        loop {
            let page = self.store.entries_after(cursor, PAGE)?;
            let done = page.len() < PAGE;
            for entry in page {
                cursor = entry.seq;
                let entry = JournalEntry::read(entry)?;
                if !keep(&entry.record) {
                    continue;
                }
                out.push(entry);
                if out.len() == limit {
                    return Ok((out, Some(cursor)));
                }
            }
            if done {
                return Ok((out, None));
            }
        }
    }

    /// The page [`Campaign::journal_page`] returns when it keeps every entry, for a reader
    /// that keeps entries it rendered (an entry never changes once appended): the page's
    /// numbers in order, each with its entry read only when `have` says the reader lacks
    /// it, and the same `next`. One read of the numbers by index, and one of the entries
    /// lacking, whatever the page's length.
    pub fn journal_page_known(
        &self,
        after: Option<i64>,
        limit: usize,
        mut have: impl FnMut(i64) -> bool,
    ) -> Result<(Vec<PageSlot>, Option<i64>), AppError> {
        let limit = limit.max(1);
        let seqs = match after {
            None => {
                let mut seqs = self.store.seqs_before(i64::MAX, limit)?;
                seqs.reverse();
                seqs
            }
            Some(after) => self.store.seqs_after(after, limit)?,
        };
        let lacking: Vec<i64> = seqs.iter().copied().filter(|&seq| !have(seq)).collect();
        let mut read: std::collections::HashMap<i64, solum_store::Entry> = self
            .store
            .entries_at(&lacking)?
            .into_iter()
            .map(|e| (e.seq, e))
            .collect();
        let next = match (after, seqs.last()) {
            (Some(_), Some(&last)) if seqs.len() == limit => Some(last),
            _ => None,
        };
        let mut page = Vec::with_capacity(seqs.len());
        for seq in seqs {
            let entry = if lacking.binary_search(&seq).is_ok() {
                // Listed a moment ago and never deleted: only a damaged store loses one.
                let stored = read.remove(&seq).ok_or_else(|| AppError::UnreadableEntry {
                    seq,
                    reason: "it was listed but could not be read".into(),
                })?;
                Some(JournalEntry::read(stored)?)
            } else {
                None
            };
            page.push((seq, entry));
        }
        Ok((page, next))
    }

    /// Checks the whole campaign: the database's own integrity (SQLite's `integrity_check`
    /// and `foreign_key_check`), every roll of the journal re-derived from its seed or typed
    /// faces, and every stored sheet (So1um Expanded, Project Sol, classic, die types,
    /// Sol'una, creatures) compared with the one its journal re-derives. A damaged file
    /// that cannot even be read is a [`VerifyReport::integrity`] problem, not an error.
    /// A player's scope (which does not read secret entries) re-derives its rolls only.
    pub fn verify(&self) -> Result<VerifyReport, AppError> {
        let mut report = VerifyReport {
            entries: 0,
            rolls: 0,
            mismatches: Vec::new(),
            integrity: Vec::new(),
            sheets: 0,
            sheet_mismatches: Vec::new(),
        };
        // A player's scope hides secret entries, which may have changed a sheet: only a
        // scope that reads every entry compares sheets and checks the whole file.
        let full = self.store.sees_every_entry();
        if full {
            match self.store.integrity_problems() {
                Ok(problems) => report.integrity = problems,
                Err(e) => report.integrity.push(e.to_string()),
            }
        }
        if let Err(e) = self.verify_journal(&mut report) {
            if report.integrity.is_empty() {
                return Err(e);
            }
            // A damaged file may fail any read: what was found is the answer.
            report
                .integrity
                .push(format!("the campaign cannot be read: {e}"));
        }
        Ok(report)
    }

    fn verify_journal(&self, report: &mut VerifyReport) -> Result<(), AppError> {
        let mut after = 0;
        let mut replayer = journal::Replayer::default();
        let mut sheets = verify::SheetReplay::default();
        loop {
            let page = self.store.entries_after(after, 1_000)?;
            if page.is_empty() {
                break;
            }
            for entry in page {
                after = entry.seq;
                report.entries += 1;
                let secret = entry.secret;
                match journal::read_body(entry.body).map(|(record, _)| record) {
                    Err(e) => report.mismatches.push(Mismatch::new(
                        entry.seq,
                        Divergence::Unreadable {
                            problem: e.to_string(),
                        },
                    )),
                    Ok(record) => {
                        if record.has_dice() {
                            report.rolls += 1;
                        }
                        if let Some(divergence) = replayer.check(&record)? {
                            report.mismatches.push(Mismatch::new(entry.seq, divergence));
                        }
                        sheets.read(entry.seq, &record, secret);
                    }
                }
            }
        }
        if !self.store.sees_every_entry() {
            return Ok(());
        }
        let mut present = std::collections::HashSet::new();
        for system in verify::SYSTEMS {
            for stored in self.store.sheets(system)? {
                report.sheets += 1;
                if let Some(m) = sheets.compare(system, &stored) {
                    report.sheet_mismatches.push(m);
                }
                present.insert((system, solum_store::name_key(&stored.name)));
            }
        }
        // A sheet the journal gives but the store lacks, where the journal can tell it.
        let imported_through = self
            .store
            .meta(IMPORTED_THROUGH_KEY)?
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        report
            .sheet_mismatches
            .extend(sheets.missing(&present, imported_through));
        Ok(())
    }

    /// Reveals the game master's secret entry `seq` to the table: a new public entry holds its
    /// record, and what the secret roll does to a sheet (a Project Sol test's Edge and
    /// progress) is applied now, to the sheet as it is. Only a game master's scope (not
    /// writing in secret) reveals, each secret entry of its table once; all of it in one
    /// transaction.
    pub fn reveal(&mut self, seq: i64) -> Result<JournalEntry, AppError> {
        // A player is refused before the entry is looked for: whether a secret entry of
        // that number exists is the game master's to know.
        self.game_master(policy::GmOnly::Reveal)?;
        let at = self.now();
        transact(&mut self.store, &self.by, |tx| {
            let secret = tx.reveal(seq)?;
            let (record, _) =
                journal::read_body(secret.body).map_err(|e| AppError::UnreadableEntry {
                    seq,
                    reason: e.to_string(),
                })?;
            if let Record::Sol(s) = &record {
                sol::apply_revealed(tx, s)?;
            }
            let reveal = Record::Reveal {
                of: seq,
                secret_at: secret.at.to_string(),
                record: Box::new(record),
            };
            let stored = tx.append(&[NewEntry {
                at,
                kind: reveal.kind().to_string(),
                schema: journal::RECORD_SCHEMA,
                body: serde_json::to_value(&reveal).map_err(|e| AppError::internal("record", e))?,
            }])?;
            Ok(JournalEntry {
                seq: stored[0].seq,
                at: stored[0].at.to_string(),
                record: reveal,
                secret: stored[0].secret,
                by: journal::read_body(stored[0].body.clone())
                    .ok()
                    .and_then(|(_, by)| by),
                line: None,
            })
        })
    }

    /// The journal as JSON data (what `import` reads back).
    pub fn export(&self) -> Result<JournalExport, AppError> {
        Ok(JournalExport {
            format: JournalExport::FORMAT.into(),
            schema: journal::RECORD_SCHEMA,
            entries: self.entries()?,
        })
    }

    /// The journal as a story in Markdown: scenes as headings, rolls compact.
    pub fn export_markdown(&self, title: &str) -> Result<String, AppError> {
        // An empty or blank title would write an empty `# ` heading.
        if title.trim().is_empty() {
            return Err(AppError::Empty("title"));
        }
        Ok(markdown::render(title, &self.entries()?))
    }

    /// Appends the entries of an exported journal, keeping their dates. Every entry is
    /// checked (limits, and its rolls re-derived) before anything is stored; then all are
    /// stored in one transaction.
    ///
    /// An entry already in the journal (same date and same record) is skipped, so importing
    /// the same export twice changes nothing; the count returned is of entries added.
    pub fn import(&mut self, export: JournalExport) -> Result<usize, AppError> {
        // One path for every import: the export as the text `journal import` reads.
        let text = serde_json::to_string(&export).map_err(|e| AppError::internal("export", e))?;
        Ok(self.import_json(&text)?.added)
    }
}

/// Refuses an edit that contradicts itself: a name given twice in `given` (field
/// `field`) when `once`, a name both in `given` and `removed` (field `field`), or a name
/// removed twice (field `removed_field`); names compare in any case.
pub(crate) fn refuse_contradictions<'a>(
    (field, removed_field): (&str, &str),
    once: bool,
    given: impl IntoIterator<Item = &'a str>,
    removed: impl IntoIterator<Item = &'a str>,
) -> Result<(), AppError> {
    let key = |n: &str| n.trim().to_lowercase();
    let mut seen = std::collections::HashSet::new();
    for n in given {
        if !seen.insert(key(n)) && once {
            return Err(crate::ExpandedRefusal::EditTwice
                .at(field, format!("`{}` is given twice in one edit", n.trim())));
        }
    }
    let mut gone = std::collections::HashSet::new();
    for n in removed {
        if seen.contains(&key(n)) {
            return Err(crate::ExpandedRefusal::EditTwice.at(
                field,
                format!("`{}` is both added and removed in one edit", n.trim()),
            ));
        }
        if !gone.insert(key(n)) {
            return Err(crate::ExpandedRefusal::EditTwice.at(
                removed_field,
                format!("`{}` is removed twice in one edit", n.trim()),
            ));
        }
    }
    Ok(())
}

/// Applies the same limits to an imported record as to one typed at the table.
fn check_record(record: &Record) -> Result<(), AppError> {
    match record {
        Record::Note { text: t } => text("note", t, MAX_NOTE, true).map(drop),
        Record::SceneStart { title, goal } => {
            name("scene title", title, MAX_TITLE)?;
            goal.as_deref()
                .map(|g| text("scene goal", g, MAX_GOAL, true))
                .transpose()
                .map(drop)
        }
        Record::SceneEnd { summary } => summary
            .as_deref()
            .map(|s| text("scene summary", s, MAX_GOAL, true))
            .transpose()
            .map(drop),
        Record::Oracle { question, .. } | Record::ClassicOracle { question, .. } => {
            text("question", question, MAX_QUESTION, false).map(drop)
        }
        Record::Reveal { record, .. } => match **record {
            Record::Reveal { .. } => Err(crate::ImportProblem::RevealInReveal.into()),
            ref inner => check_record(inner),
        },
        Record::Difficulty { task, .. } => task
            .as_deref()
            .map(|t| text("task", t, MAX_QUESTION, false))
            .transpose()
            .map(drop),
        Record::Idea {
            list, count, words, ..
        } => {
            ideas::IdeaCount::new(*count).map_err(|problem| ImportProblem::IdeaCount {
                count: *count,
                problem,
            })?;
            if let IdeaList::Custom { name, words } = list {
                text("list name", name, MAX_TITLE, false)?;
                if ideas::parse_list(&words.join("\n"))?.len() != words.len() {
                    return Err(crate::ImportProblem::IdeaListBlank.into());
                }
            }
            for w in words {
                text("idea word", w, ideas::MAX_WORD, false)?;
            }
            Ok(())
        }
        // A system's kind checks its own limits.
        other => other.system().map_or(Ok(()), |kind| kind.check()),
    }
}

/// Trims a text field and checks it: not empty, within its limit, no control characters
/// (line breaks and tabs are allowed where `multiline`) and no text-direction override or
/// isolate (see [`text_problem`]).
fn text(what: &'static str, raw: &str, limit: usize, multiline: bool) -> Result<String, AppError> {
    // Line ends typed on another system (CRLF from Windows, a lone CR from old Macs) are
    // kept as plain line breaks, before the control-character rule sees them.
    let unified = raw.replace("\r\n", "\n").replace('\r', "\n");
    let t = unified.trim();
    if t.is_empty() {
        return Err(AppError::Empty(what));
    }
    let len = t.chars().count();
    if len > limit {
        return Err(AppError::TooLong { what, len, limit });
    }
    if text_problem(t, multiline).is_some() {
        return Err(AppError::ControlCharacter(what));
    }
    Ok(t.to_string())
}

/// The one rule for free text that reaches the story (notes, descriptions, idea words):
/// no control character (line breaks and tabs where `multiline`), and no bidirectional
/// override, embedding or isolate (U+202A–U+202E, U+2066–U+2069), which reorder what a
/// reader sees. `None` when the text passes.
pub fn text_problem(t: &str, multiline: bool) -> Option<&'static str> {
    let allowed = |c: char| multiline && (c == '\n' || c == '\t');
    if t.chars().any(|c| c.is_control() && !allowed(c)) {
        return Some("holds a control character");
    }
    if t.chars().any(bidi_override) {
        return Some("holds a text-direction override or isolate (U+202A–U+202E, U+2066–U+2069)");
    }
    None
}

/// Bidirectional overrides, embeddings and isolates.
fn bidi_override(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// A name (of a member, a table, a character or creature of any system): [`text`] on one
/// line, and [`name_problem`]'s rule, so that `"\u{feff}Hero"` or `"Hero\u{3164}"` is not a
/// second `Hero`.
pub(crate) fn name(what: &'static str, raw: &str, limit: usize) -> Result<String, AppError> {
    let t = text(what, raw, limit, false)?;
    // Judged before Unicode's trim, which would drop a no-break space at an edge silently.
    if let Some(problem) = name_problem(raw.trim_matches(|c: char| c.is_ascii_whitespace())) {
        return Err(AppError::BadName { what, problem });
    }
    Ok(t)
}

/// The one rule for every name of every system, trimmed: no control character; no
/// invisible or direction-changing character ([`invisible`]: zero-width characters, the
/// byte order mark, bidirectional marks, overrides and isolates); no blank-looking one
/// ([`blank_looking`]: Hangul fillers, the blank Braille pattern, variation selectors, a
/// space other than the plain U+0020); at least one character a reader sees; and no combining mark first. `None`
/// when the name passes.
pub fn name_problem(t: &str) -> Option<&'static str> {
    if t.chars().any(char::is_control) {
        return Some("holds a control character");
    }
    if t.chars().any(invisible) {
        return Some("holds an invisible or direction-changing character (like U+200B or U+202E)");
    }
    if t.chars().any(blank_looking) {
        return Some(
            "holds a blank-looking character (like U+3164, U+2800 or a no-break space); \
             only the plain space separates words",
        );
    }
    if !t.chars().any(|c| c != ' ' && !combining(c)) {
        return Some("has nothing visible in it");
    }
    // A mark with no letter before it joins whatever is printed before the name
    // (`\u{301}Nick` shows as `Nick` after a space, or accents the last letter of a list).
    if t.chars()
        .next()
        .is_some_and(unicode_normalization::char::is_combining_mark)
    {
        return Some("starts with a combining mark (an accent with no letter before it)");
    }
    None
}

/// Characters that show as blank space: every space but U+0020, the Hangul fillers, the
/// blank Braille pattern, Khmer's invisible vowels, the combining grapheme joiner, and
/// variation selectors.
pub(crate) fn blank_looking(c: char) -> bool {
    (c.is_whitespace() && c != ' ')
        || matches!(
            c,
            '\u{115F}'
                | '\u{1160}'
                | '\u{3164}'
                | '\u{FFA0}'
                | '\u{2800}'
                | '\u{17B4}'
                | '\u{17B5}'
                | '\u{034F}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{E0100}'..='\u{E01EF}'
                | '\u{180B}'..='\u{180D}'
                | '\u{180F}'
        )
}

/// Combining marks of the main blocks: they show only on a character before them.
fn combining(c: char) -> bool {
    matches!(
        c,
        '\u{0300}'..='\u{036F}'
            | '\u{1AB0}'..='\u{1AFF}'
            | '\u{1DC0}'..='\u{1DFF}'
            | '\u{20D0}'..='\u{20FF}'
            | '\u{FE20}'..='\u{FE2F}'
    )
}

/// The form two names are compared in (members of a table, and characters of every system
/// beside the store's plain case-insensitive key): names that read alike are one name.
/// Unicode's compatibility forms are folded (NFKC: `ａｄａ`, mathematical `𝐍ick`), small
/// capitals read as capitals (`ɴick`), case is folded by upper case (so that a dotless `ı`
/// and a Greek capital `Ν` land where `i` and `N` do), then Unicode TR39's confusable
/// skeleton maps every letter to the prototype it looks like (Cyrillic `Аda`, Greek `Αda`,
/// `B0b`, `Ivan` and `lvan`), and the result is lower case with runs of spaces as one.
/// So `Ada`, `ADA`, ` Ada `, `ａｄａ`, `Аda` and `Αda` are one name; `Zoë` and `Zoe` are not
/// (a mark a reader sees). A name that starts with a combining mark never gets this far
/// ([`name_problem`]).
pub fn name_key(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let upper: String = name
        .nfkc()
        .map(small_capital)
        .flat_map(char::to_uppercase)
        .collect();
    let skeleton: String = unicode_security::skeleton(&upper).collect();
    skeleton
        .to_lowercase()
        .split(' ')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The capital a small capital letter reads as (`ɴ` is `N`), or the character itself:
/// TR39 does not list them (their glyphs are shorter), but in a list of names `ɴick` is read
/// as `Nick`.
fn small_capital(c: char) -> char {
    match c {
        'ᴀ' => 'A',
        'ʙ' => 'B',
        'ᴄ' => 'C',
        'ᴅ' => 'D',
        'ᴇ' => 'E',
        'ꜰ' => 'F',
        'ɢ' => 'G',
        'ʜ' => 'H',
        'ɪ' => 'I',
        'ᴊ' => 'J',
        'ᴋ' => 'K',
        'ʟ' => 'L',
        'ᴍ' => 'M',
        'ɴ' => 'N',
        'ᴏ' => 'O',
        'ᴘ' => 'P',
        'ꞯ' => 'Q',
        'ʀ' => 'R',
        'ꜱ' => 'S',
        'ᴛ' => 'T',
        'ᴜ' => 'U',
        'ᴠ' => 'V',
        'ᴡ' => 'W',
        'ʏ' => 'Y',
        'ᴢ' => 'Z',
        c => c,
    }
}

/// Unicode format characters (category Cf: zero-width spaces and joiners, the byte order
/// mark, soft hyphen, bidirectional marks, overrides and isolates): nothing a reader sees,
/// so nothing a name may hold.
pub(crate) fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{0600}'..='\u{0605}'
            | '\u{061C}'
            | '\u{06DD}'
            | '\u{070F}'
            | '\u{0890}'..='\u{0891}'
            | '\u{08E2}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206F}'
            | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{110BD}'
            | '\u{110CD}'
            | '\u{13430}'..='\u{1343F}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0001}'
            | '\u{E0020}'..='\u{E007F}'
    )
}

/// What the oracle said, for a front end to show.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AskView {
    /// The journal entry.
    pub seq: i64,
    /// The question.
    pub question: String,
    /// Plain, advantage or disadvantage.
    pub leaning: Leaning,
    /// As the table writes it: "No, and", "No", "No, but", "Yes, but", "Yes", "Yes, and".
    pub answer: &'static str,
    /// The die that counts.
    pub die: u32,
    /// The answer dice as rolled.
    pub dice: Vec<u32>,
    /// The event, on an And or a But.
    pub event: Option<String>,
    /// The event die.
    pub event_die: Option<u32>,
    /// The disposition of an NPC or a monster met.
    pub disposition: Option<&'static str>,
    /// The disposition die.
    pub disposition_die: Option<u32>,
    /// The generator's seed (none for typed dice).
    pub seed: Option<u64>,
    /// True when the dice were typed in.
    pub typed: bool,
    /// The exact chance of the answer given, before the roll.
    pub p_answer: f64,
}

impl AskView {
    fn of(entry: &JournalEntry) -> Self {
        let Record::Oracle {
            question,
            leaning,
            rolled,
            outcome,
        } = &entry.record
        else {
            unreachable!("AskView is built from the oracle entry just stored")
        };
        let disposition = match outcome.event {
            Some(Event::Npc { disposition } | Event::Monster { disposition }) => Some(disposition),
            _ => None,
        };
        let index = Answer::ALL
            .iter()
            .position(|a| *a == outcome.answer)
            .unwrap_or(0);
        Self {
            seq: entry.seq,
            question: question.clone(),
            leaning: *leaning,
            answer: outcome.answer.text(),
            die: outcome.die,
            dice: outcome.dice.clone(),
            event: outcome.event.map(Event::text),
            event_die: outcome.event_die,
            disposition: disposition.map(Disposition::text),
            disposition_die: outcome.disposition_die,
            seed: rolled.seed,
            typed: rolled.typed,
            p_answer: solum_dice::prob_to_f64(&oracle::answer_odds(*leaning)[index]),
        }
    }
}

/// The campaign setting that keeps its oracle.
const ORACLE_KEY: &str = "oracle";
/// The campaign setting of the roll-off option (S3, S14): `on` or `off`.
const ROLL_OFF_KEY: &str = "roll_off";
/// The last journal entry a `journal import` appended (`journal verify` cannot tell the
/// sheets of imported entries, which import does not store, from deleted ones up to it).
pub(crate) const IMPORTED_THROUGH_KEY: &str = "journal.imported_through";

bounded::bounded! {
    /// How many of the last journal entries to read ([`Campaign::last_entries`]).
    pub struct LastEntries(u32) in 1, u32::MAX;
    "a number of entries is {min} to {max}"
}

/// A setting switched on or off, as a player types it (`solum roll-off on`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Switch {
    /// On.
    On,
    /// Off.
    Off,
}

impl Switch {
    /// Whether it is on.
    pub fn is_on(self) -> bool {
        self == Self::On
    }
}

impl std::str::FromStr for Switch {
    type Err = solum_dice::UnknownWord;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "on" => Ok(Self::On),
            "off" => Ok(Self::Off),
            other => Err(solum_dice::UnknownWord::new(
                other,
                "a setting",
                "on or off",
            )),
        }
    }
}

/// Which rules' oracle a campaign asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OracleSystem {
    /// So1um Expanded's (S12): events with an NPC's or monster's disposition.
    #[default]
    Expanded,
    /// The original So1um's (C1): two event tables, no disposition.
    Classic,
}

impl OracleSystem {
    /// Its name as settings and commands write it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Expanded => "expanded",
            Self::Classic => "classic",
        }
    }

    /// Reads a name (`original` also names the classic oracle).
    pub fn parse(text: &str) -> Result<Self, AppError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "expanded" => Ok(Self::Expanded),
            "classic" | "original" => Ok(Self::Classic),
            other => Err(AppError::UnknownOracle(other.to_string())),
        }
    }
}

/// The table's roll-off option (S3, S14), as `GET`/`PUT /api/settings/roll-off` and `solum
/// roll-off --json` show it: `on` rolls off the draws of opposed rolls, `off` lets them
/// stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RollOffSetting {
    /// Draws are rolled off.
    pub on: bool,
}

/// What either oracle said.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum OracleView {
    /// So1um Expanded's answer.
    Expanded(AskView),
    /// The original's answer.
    Classic(ClassicAskView),
}

/// Either answer's fields (`anyOf`: an Expanded answer has every field the original's has,
/// so `oneOf` would refuse it).
#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for OracleView {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::ToSchema;
        utoipa::openapi::schema::AnyOfBuilder::new()
            .item(utoipa::openapi::Ref::from_schema_name(AskView::name()))
            .item(utoipa::openapi::Ref::from_schema_name(
                ClassicAskView::name(),
            ))
            .description(Some("What either oracle said."))
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for OracleView {
    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        use utoipa::PartialSchema;
        schemas.push((AskView::name().into(), AskView::schema()));
        schemas.push((ClassicAskView::name().into(), ClassicAskView::schema()));
        <AskView as utoipa::ToSchema>::schemas(schemas);
        <ClassicAskView as utoipa::ToSchema>::schemas(schemas);
    }
}

/// The list an idea is drawn from, as a front end names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdeaSource {
    /// A built-in genre, by name (see [`ideas::genres`]).
    Genre(String),
    /// A player's own list: a name to show and its words (see [`ideas::parse_list`]).
    Custom {
        /// The name to show (the file's name).
        name: String,
        /// The words.
        words: Vec<String>,
    },
}

/// The words an idea draw gave, for a front end to show.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct IdeaView {
    /// The journal entry.
    pub seq: i64,
    /// The genre or the list's name.
    pub list: String,
    /// How many words the list holds (the size of each die).
    pub list_size: usize,
    /// The words, in the order drawn.
    pub words: Vec<String>,
    /// The dice, one per word.
    pub dice: Vec<u32>,
    /// The generator's seed (none for typed dice).
    pub seed: Option<u64>,
    /// True when the dice were typed in.
    pub typed: bool,
}

/// What the original oracle said, for a front end to show.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClassicAskView {
    /// The journal entry.
    pub seq: i64,
    /// The question.
    pub question: String,
    /// Plain, advantage or disadvantage.
    pub leaning: Leaning,
    /// The answer as the text writes it.
    pub answer: String,
    /// The answer dice as rolled.
    pub dice: Vec<u32>,
    /// The event, on an And or a But.
    pub event: Option<String>,
    /// The event die.
    pub event_die: Option<u32>,
    /// The generator's seed (none for typed dice).
    pub seed: Option<u64>,
    /// True when the dice were typed in.
    pub typed: bool,
    /// The exact chance of the answer given, before the roll: the original reads its d6 (or
    /// the best or worst of two) as the Expanded table does, so the odds are the same.
    pub p_answer: f64,
}

/// The chance of the answer the dice show: the die that counts is the only one, the best
/// or the worst of two.
fn classic_p_answer(leaning: Leaning, dice: &[u32]) -> f64 {
    let die = match leaning {
        Leaning::Disadvantage => dice.iter().min(),
        Leaning::Even | Leaning::Advantage => dice.iter().max(),
    };
    die.and_then(|&d| {
        oracle::answer_odds(leaning)
            .get((d as usize).checked_sub(1)?)
            .cloned()
    })
    .map_or(0.0, |p| solum_dice::prob_to_f64(&p))
}

impl ClassicAskView {
    fn of(entry: &JournalEntry) -> Self {
        let Record::ClassicOracle {
            question,
            leaning,
            rolled,
            outcome,
        } = &entry.record
        else {
            unreachable!("ClassicAskView is built from the oracle entry just stored")
        };
        Self {
            seq: entry.seq,
            question: question.clone(),
            leaning: *leaning,
            answer: outcome.answer.clone(),
            p_answer: classic_p_answer(*leaning, &outcome.dice),
            dice: outcome.dice.clone(),
            event: outcome.event.clone(),
            event_die: outcome.event_die,
            seed: rolled.seed,
            typed: rolled.typed,
        }
    }
}

/// A random difficulty, for a front end to show.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DifficultyView {
    /// The journal entry.
    pub seq: i64,
    /// The task, if said.
    pub task: Option<String>,
    /// 1 (automatic) to 6 (hard): the die.
    pub difficulty: u32,
    /// Its name in the text.
    pub name: String,
    /// The generator's seed (none for typed dice).
    pub seed: Option<u64>,
    /// True when the dice were typed in.
    pub typed: bool,
}

/// The result of [`Campaign::verify`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VerifyReport {
    /// Entries read.
    pub entries: usize,
    /// Entries with dice, re-derived.
    pub rolls: usize,
    /// Entries that do not re-derive.
    pub mismatches: Vec<Mismatch>,
    /// What the database's own checks found (empty when the file is sound).
    pub integrity: Vec<String>,
    /// Stored sheets compared with their journal.
    pub sheets: usize,
    /// Stored sheets that differ from what their journal gives.
    pub sheet_mismatches: Vec<SheetMismatch>,
}

impl VerifyReport {
    /// True when nothing is wrong: a sound file, every roll and every sheet re-derived.
    pub fn is_clean(&self) -> bool {
        self.integrity.is_empty() && self.mismatches.is_empty() && self.sheet_mismatches.is_empty()
    }
}

/// One entry that does not re-derive.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Mismatch {
    /// The entry.
    pub seq: i64,
    /// What differs, in words (the divergence's own).
    pub reason: String,
    /// What differs, as data.
    pub divergence: Divergence,
}

impl Mismatch {
    fn new(seq: i64, divergence: Divergence) -> Self {
        Self {
            seq,
            reason: divergence.to_string(),
            divergence,
        }
    }
}

/// An exported journal: what `journal export --format json` writes and `import` reads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JournalExport {
    /// Always [`JournalExport::FORMAT`].
    pub format: String,
    /// The record schema version.
    pub schema: i64,
    /// The entries, in order.
    pub entries: Vec<JournalEntry>,
}

impl JournalExport {
    /// The format tag.
    pub const FORMAT: &'static str = "solum-journal";

    /// An export of no entry yet, for a writer that adds the entries a page at a time.
    pub fn empty() -> Self {
        Self {
            format: Self::FORMAT.into(),
            schema: journal::RECORD_SCHEMA,
            entries: Vec::new(),
        }
    }

    /// Reads an export from its JSON text. An entry that is not a record this solum knows
    /// is named by its place in the file, its number and kind, with serde's reason (the
    /// field and the value refused), rather than a line and column of the whole file.
    pub fn from_json(text: &str) -> Result<Self, AppError> {
        let whole = serde_json::from_str::<Self>(text);
        let Err(first) = whole else {
            return whole.map_err(|e| ImportProblem::Unreadable(e.to_string()).into());
        };
        #[derive(Deserialize)]
        struct Loose {
            entries: Vec<serde_json::Value>,
        }
        let Ok(loose) = serde_json::from_str::<Loose>(text) else {
            return Err(ImportProblem::Unreadable(first.to_string()).into());
        };
        for (i, entry) in loose.entries.into_iter().enumerate() {
            let at = import_problem::ExportEntry::of_json(i + 1, &entry);
            if let Err(e) = serde_json::from_value::<JournalEntry>(entry) {
                return Err(ImportProblem::Unreadable(e.to_string()).of(at).into());
            }
        }
        Err(ImportProblem::Unreadable(first.to_string()).into())
    }
}

/// Runs `work` in one write transaction; an error from `work` rolls everything back and
/// comes back as it was.
/// The open scene as `last_of_kind` (of a store, or inside a write) finds it: the latest
/// start, unless an end follows it.
fn open_scene_in(
    last_of_kind: impl Fn(&str) -> Result<Option<solum_store::Entry>, solum_store::StoreError>,
) -> Result<Option<JournalEntry>, AppError> {
    let start = last_of_kind("scene-start")?;
    let end = last_of_kind("scene-end")?;
    match (start, end) {
        (Some(start), end) if end.as_ref().is_none_or(|e| e.seq < start.seq) => {
            Ok(Some(JournalEntry::read(start)?))
        }
        _ => Ok(None),
    }
}

/// Whether `by` may end (or replace with a new one) the open scene `open`: a game master
/// (or the command line) ends any scene; a player only one a player started. A scene from
/// before solum kept who started it counts as the game master's.
fn may_end_scene(by: &By, open: &JournalEntry) -> Result<(), AppError> {
    let gms = open.by.as_ref().is_none_or(|b| b.gm);
    if by.gm || !gms {
        return Ok(());
    }
    let title = match &open.record {
        Record::SceneStart { title, .. } => title.as_str(),
        _ => "",
    };
    Err(policy::Forbidden::GmScene(title.to_string()).into())
}

/// Appends `records` inside a write transaction, as journal entries.
fn append_records(
    tx: &mut dyn solum_store::WriteTx,
    records: Vec<(jiff::Timestamp, Record)>,
) -> Result<Vec<JournalEntry>, AppError> {
    let new = records
        .iter()
        .map(|(at, record)| {
            Ok(NewEntry {
                at: *at,
                kind: record.kind().to_string(),
                schema: journal::RECORD_SCHEMA,
                body: serde_json::to_value(record).map_err(|e| AppError::internal("record", e))?,
            })
        })
        .collect::<Result<Vec<_>, AppError>>()?;
    let stored = tx.append(&new)?;
    Ok(stored
        .into_iter()
        .zip(records)
        .map(|(entry, (_, record))| JournalEntry {
            seq: entry.seq,
            at: entry.at.to_string(),
            record,
            secret: entry.secret,
            by: journal::read_body(entry.body).ok().and_then(|(_, by)| by),
            line: None,
        })
        .collect())
}

pub(crate) fn transact<S: CampaignStore, T>(
    store: &mut S,
    by: &By,
    mut work: impl FnMut(&mut dyn solum_store::WriteTx) -> Result<T, AppError>,
) -> Result<T, AppError> {
    let mut out: Option<Result<T, AppError>> = None;
    let stored = store.write(&mut |tx| {
        let mut stamping = Stamping {
            tx,
            by,
            refused: None,
        };
        let done = work(&mut stamping);
        // A role rule's refusal, typed again (the store's seam carried it as text).
        let done = match (done, stamping.refused.take()) {
            (Err(AppError::Store(solum_store::StoreError::Forbidden(_))), Some(rule)) => {
                Err(AppError::Forbidden(rule))
            }
            (done, _) => done,
        };
        match done {
            Ok(v) => {
                out = Some(Ok(v));
                Ok(())
            }
            Err(AppError::Store(e)) => Err(e),
            Err(e) => {
                out = Some(Err(e));
                Err(solum_store::StoreError::BadRecord(
                    "the change was refused".into(),
                ))
            }
        }
    });
    match (stored, out) {
        (Ok(()), Some(Ok(v))) => Ok(v),
        (Err(_), Some(Err(e))) => Err(e),
        (Err(e), _) => Err(e.into()),
        (Ok(()), _) => Err(AppError::internal(
            "transaction",
            "the store did not run the change",
        )),
    }
}

/// Refuses a new character's name that only looks like one the table has in `system`
/// (`Ｎick` or a Cyrillic `Nіck` beside `Nick`): names compare by [`name_key`], as member
/// names do. Asked inside the write transaction, so no other writer slips a name between.
/// A name equal but for case is the store's own refusal (`character-name-taken`).
pub(crate) fn look_alike_free(
    tx: &dyn solum_store::WriteTx,
    system: &str,
    name: &str,
) -> Result<(), AppError> {
    let key = name_key(name);
    let plain = solum_store::name_key(name);
    for taken in tx.sheet_names(system)? {
        if name_key(&taken) == key && solum_store::name_key(&taken) != plain {
            return Err(TableRefusal::CharacterNameLookAlike.at(
                "name",
                format!(
                    "{} looks like {taken}, a character of this table (names compare by how they look: case, width and look-alike letters of other scripts); choose another",
                    name.trim()
                ),
            ));
        }
    }
    Ok(())
}

/// Entries with who made them put into their bodies (see [`journal::stamp`]).
fn stamped(entries: &[NewEntry], by: &By) -> Vec<NewEntry> {
    entries
        .iter()
        .map(|e| {
            let mut e = e.clone();
            journal::stamp(&mut e.body, by);
            e
        })
        .collect()
}

/// A write transaction whose appended entries carry who made them: every use case appends
/// through [`transact`], so none can forget it.
struct Stamping<'a, 'b> {
    tx: &'a mut dyn solum_store::WriteTx,
    by: &'b By,
    /// The role rule that refused a write through it: the store's seam carries a refusal as
    /// text ([`solum_store::StoreError::Forbidden`]), [`transact`] gives this back typed.
    refused: Option<policy::Forbidden>,
}

impl Stamping<'_, '_> {
    /// `allowed`, or the store's refusal, keeping which rule refused.
    fn allow(
        &mut self,
        allowed: Result<(), policy::Forbidden>,
    ) -> Result<(), solum_store::StoreError> {
        allowed.map_err(|rule| {
            let text = rule.to_string();
            self.refused = Some(rule);
            solum_store::StoreError::Forbidden(text)
        })
    }
}

impl solum_store::WriteTx for Stamping<'_, '_> {
    fn sheet(
        &self,
        system: &str,
        name: &str,
    ) -> Result<Option<solum_store::Sheet>, solum_store::StoreError> {
        self.tx.sheet(system, name)
    }

    fn insert_sheet(&mut self, sheet: &solum_store::Sheet) -> Result<(), solum_store::StoreError> {
        self.tx.insert_sheet(sheet)
    }

    fn sheet_names(&self, system: &str) -> Result<Vec<String>, solum_store::StoreError> {
        self.tx.sheet_names(system)
    }

    fn update_sheet(
        &mut self,
        system: &str,
        name: &str,
        sheet: &solum_store::Sheet,
    ) -> Result<solum_store::Sheet, solum_store::StoreError> {
        let Some(old) = self.tx.sheet(system, name)? else {
            return Err(solum_store::StoreError::NoSuchSheet { name: name.into() });
        };
        let allowed = policy::may_change_sheet(
            self.tx.scope(),
            self.tx.sheet_owner(system, name)?,
            &old.name,
        );
        self.allow(allowed)?;
        self.tx.update_sheet(system, name, sheet)
    }

    fn append(
        &mut self,
        entries: &[NewEntry],
    ) -> Result<Vec<solum_store::Entry>, solum_store::StoreError> {
        let allowed = policy::may_write_secret(self.tx.scope());
        self.allow(allowed)?;
        self.tx.append(&stamped(entries, self.by))
    }

    fn scope(&self) -> solum_store::Scope {
        self.tx.scope()
    }

    fn sheet_owner(
        &self,
        system: &str,
        name: &str,
    ) -> Result<Option<i64>, solum_store::StoreError> {
        self.tx.sheet_owner(system, name)
    }

    fn share_owner(
        &mut self,
        system: &str,
        name: &str,
        owner_system: &str,
    ) -> Result<(), solum_store::StoreError> {
        self.tx.share_owner(system, name, owner_system)
    }

    fn reveal(&mut self, seq: i64) -> Result<solum_store::Entry, solum_store::StoreError> {
        let allowed = policy::may_reveal(self.tx.scope());
        self.allow(allowed)?;
        self.tx.reveal(seq)
    }

    fn last_of_kind(
        &self,
        kind: &str,
    ) -> Result<Option<solum_store::Entry>, solum_store::StoreError> {
        self.tx.last_of_kind(kind)
    }

    fn entries_after(
        &self,
        after: i64,
        limit: usize,
    ) -> Result<Vec<solum_store::Entry>, solum_store::StoreError> {
        self.tx.entries_after(after, limit)
    }
}

/// One entry of a page read by [`Campaign::journal_page_known`]: its number, and the entry
/// when the reader lacked it.
pub type PageSlot = (i64, Option<JournalEntry>);

#[cfg(test)]
mod switch_tests {
    use super::*;

    crate::bounded::bounded_tests!(
        last_entries,
        LastEntries,
        "a number of entries is 1 to 4294967295"
    );

    /// `on` and `off` in any case and spacing; any other word lists the two.
    #[test]
    fn a_switch_reads_on_and_off_only() {
        assert_eq!(" ON ".parse::<Switch>(), Ok(Switch::On));
        assert_eq!("off".parse::<Switch>(), Ok(Switch::Off));
        assert!(Switch::On.is_on() && !Switch::Off.is_on());
        for word in ["", "yes", "1", "of"] {
            let e = word.parse::<Switch>().unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("`{word}` is not a setting: on or off")
            );
        }
    }
}
