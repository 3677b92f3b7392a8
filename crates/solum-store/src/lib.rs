//! The campaign store's interface: where a campaign's journal lives between sessions.
//!
//! [`CampaignStore`] (the journal, sheets and settings of one table), [`TableStore`] (tables,
//! members, invites, sessions) and [`StoreHandle`] (the connection itself: its scope, whether
//! it may be kept) make up a [`Store`], which front ends hold as `Box<dyn Store>`. This crate
//! knows no database: `solum-store-sqlite` is the embedded backend (one file, no server), a
//! hosted PostgreSQL backend implements the same traits, and [`MemoryStore`] keeps everything
//! in memory for the application's tests. Every backend runs the same [`conformance`] suite.
//!
//! The store knows nothing of the rules: it keeps records as JSON bodies tagged with a kind
//! and a schema version, and the application layer owns their types. Its errors
//! ([`StoreError`]) name what the user named (a file, a database address without its
//! password), never a driver's type.

use std::time::Duration;

pub use jiff::{SignedDuration, Timestamp};
use thiserror::Error;

mod memory;

#[cfg(any(test, feature = "conformance"))]
pub mod conformance;

pub use memory::MemoryStore;

/// How long a writer waits for another's transaction before answering [`StoreError::Busy`].
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// The largest body one journal entry (or one sheet) may have, in bytes of JSON.
pub const MAX_ENTRY_BYTES: usize = 64 * 1024;

/// How many times [`CampaignStore::write`] runs its work when the backend reports a conflict
/// (a serialization failure or a deadlock) before answering [`StoreError::Busy`].
pub const MAX_WRITE_ATTEMPTS: u32 = 5;

/// Whose view of the campaign a connection has: which table, which member, and whether the
/// game master's secrets are visible. Every query of a backend is filtered by it, so a
/// request scoped to one table cannot read or change another table's entries or sheets, a
/// player's scope never reads a secret entry, and a player can change only the sheets they
/// created.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scope {
    /// The table (0: the campaign's own, which the command line plays).
    pub table: i64,
    /// The member acting (none: the campaign's owner at the command line).
    pub member: Option<i64>,
    /// The game master's scope: reads secret entries and may change every sheet.
    pub gm: bool,
    /// Entries appended are secret (only a game master's scope may).
    pub secret_writes: bool,
}

impl Scope {
    /// The command line's scope: table 0, everything visible.
    pub const HOME: Self = Self {
        table: 0,
        member: None,
        gm: true,
        secret_writes: false,
    };

    /// A member's scope at a table.
    pub fn member(table: i64, member: i64, gm: bool) -> Self {
        Self {
            table,
            member: Some(member),
            gm,
            secret_writes: false,
        }
    }

    /// The same scope, appending secret entries.
    pub fn secret(self) -> Self {
        Self {
            secret_writes: true,
            ..self
        }
    }

    /// The key a campaign setting `key` of the scope's table is kept under: the table's own
    /// settings never collide with another table's.
    pub fn meta_key(&self, key: &str) -> String {
        if self.table == 0 {
            key.to_string()
        } else {
            format!("table/{}/{key}", self.table)
        }
    }
}

/// Why the store could not do what was asked. `location` is what the user named: a file's
/// path, or a database address with any password removed.
#[derive(Debug, Error)]
pub enum StoreError {
    /// The file or database exists but is not a solum campaign (another program's).
    #[error("{location}: not a solum campaign ({reason})")]
    NotACampaign {
        /// Where.
        location: String,
        /// What was found instead.
        reason: String,
    },
    /// The campaign was written by a newer solum.
    #[error(
        "{location}: this campaign has schema version {found}, newer than this solum knows ({known}); update solum"
    )]
    NewerSchema {
        /// Where.
        location: String,
        /// The version found.
        found: i64,
        /// The newest version this build's backend knows.
        known: i64,
    },
    /// No campaign here (a command that only reads does not create one).
    #[error(
        "{location}: no campaign here (a command that writes, such as `solum note`, creates one)"
    )]
    Missing {
        /// Where.
        location: String,
    },
    /// The campaign cannot be written (a file's or its folder's permissions).
    #[error(
        "{location}: the campaign is read-only (check the file's and its folder's permissions)"
    )]
    ReadOnly {
        /// Where.
        location: String,
    },
    /// Another writer held the campaign longer than [`BUSY_TIMEOUT`], or a write met a
    /// conflict [`MAX_WRITE_ATTEMPTS`] times.
    #[error(
        "{location}: the campaign is busy (another solum is writing); nothing was changed, try again"
    )]
    Busy {
        /// Where.
        location: String,
    },
    /// The connection to the database server was lost or refused (a restart of the server,
    /// a network cut): what was under way was not committed. A new connection may succeed.
    #[error(
        "{location}: cannot reach the database ({reason}); nothing under way was kept, try again once it answers"
    )]
    Unreachable {
        /// Where.
        location: String,
        /// What the connection said.
        reason: String,
    },
    /// The connection was lost while a commit was under way: the database may have kept the
    /// change or not, and nothing here can tell. Sending it again may make it twice: look
    /// first (the journal shows what was kept).
    #[error(
        "{location}: the connection to the database was lost while the change was being committed: it may or may not have been kept; look at the journal before sending it again"
    )]
    CommitUnknown {
        /// Where.
        location: String,
    },
    /// A write met another writer's (a serialization failure or a deadlock): nothing of it
    /// was kept and it may be run again. [`CampaignStore::write`] runs it again itself.
    #[error(
        "{location}: another change to the campaign came first; nothing was changed, try again"
    )]
    Conflict {
        /// Where.
        location: String,
    },
    /// The disk (or the campaign's size limit) is full.
    #[error("{location}: the disk is full; nothing was changed, earlier entries are safe")]
    Full {
        /// Where.
        location: String,
    },
    /// The place named cannot hold a campaign (a folder, a device, a pipe; a bad address).
    #[error("{location}: {reason}")]
    BadPath {
        /// Where.
        location: String,
        /// Why not.
        reason: String,
    },
    /// A sheet's name is taken in its system at the table (names compare by [`name_key`]).
    #[error("a character named {name} already exists")]
    NameTaken {
        /// The name asked for.
        name: String,
    },
    /// No sheet of this name in its system at the table.
    #[error("no character named {name}")]
    NoSuchSheet {
        /// The name asked for.
        name: String,
    },
    /// An entry or sheet over [`MAX_ENTRY_BYTES`].
    #[error("entry refused: {what} of {bytes} bytes is over the limit of {limit}")]
    TooLarge {
        /// "an entry" or "a sheet".
        what: &'static str,
        /// Its size in bytes of JSON.
        bytes: usize,
        /// [`MAX_ENTRY_BYTES`].
        limit: usize,
    },
    /// A reveal of an entry that is not a secret entry of the table.
    #[error("entry refused: entry {seq} is no secret entry of this table")]
    NotSecret {
        /// The entry's number at its table.
        seq: i64,
    },
    /// A reveal of an entry revealed before: an entry is revealed once.
    #[error("entry refused: entry {seq} is revealed already")]
    RevealedAlready {
        /// The entry's number at its table.
        seq: i64,
    },
    /// A stored record whose JSON does not parse (a damaged campaign, not the caller's
    /// input).
    #[error("{what} holds JSON that does not parse: {reason}")]
    Unreadable {
        /// Which record ("entry 3", "the sheet of Mira").
        what: String,
        /// The parser's words.
        reason: String,
    },
    /// A record the caller gave cannot be stored.
    #[error("entry refused: {0}")]
    BadRecord(String),
    /// The scope does not allow the change (a player's change to another's sheet, a secret
    /// entry from a player's scope): the app's role policy refused it inside a write, and the
    /// app gives it back as its own typed refusal.
    #[error("not allowed: {0}")]
    Forbidden(String),
    /// The place named needs a backend this build does not have.
    #[error("{location}: this build has no {backend} backend yet")]
    NoBackend {
        /// Where (an address without its password).
        location: String,
        /// Which backend ("PostgreSQL").
        backend: &'static str,
    },
    /// Any other failure of the backend (its driver's words, which name no password).
    #[error("{location}: {message}")]
    Backend {
        /// Where.
        location: String,
        /// What the backend said.
        message: String,
    },
}

impl StoreError {
    /// True when the error is the caller's input, not the store's state.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            Self::NotACampaign { .. }
                | Self::Missing { .. }
                | Self::NewerSchema { .. }
                | Self::BadPath { .. }
                | Self::NoBackend { .. }
                | Self::NameTaken { .. }
                | Self::NoSuchSheet { .. }
                | Self::TooLarge { .. }
                | Self::NotSecret { .. }
                | Self::RevealedAlready { .. }
                | Self::BadRecord(_)
                | Self::Forbidden(_)
        )
    }

    /// True when the store refused what was asked in words about the request alone (a taken
    /// name, a forbidden change, an oversized entry): words that name no file or server and
    /// may be shown to whoever asked.
    pub fn is_refusal(&self) -> bool {
        matches!(
            self,
            Self::NameTaken { .. }
                | Self::NoSuchSheet { .. }
                | Self::TooLarge { .. }
                | Self::NotSecret { .. }
                | Self::RevealedAlready { .. }
                | Self::BadRecord(_)
                | Self::Forbidden(_)
        )
    }

    /// True when trying again later may succeed (busy, conflict, full, unreachable).
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            Self::Busy { .. }
                | Self::Conflict { .. }
                | Self::Full { .. }
                | Self::Unreachable { .. }
        )
    }
}

/// Runs one attempt of a write after another while the backend answers
/// [`StoreError::Conflict`], at most [`MAX_WRITE_ATTEMPTS`] times; past that, answers
/// [`StoreError::Busy`] at `location`. Every other answer comes back as it is. Backends call
/// it around their transaction in [`CampaignStore::write`].
pub fn with_retries<T>(
    location: &str,
    mut attempt: impl FnMut() -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    for _ in 0..MAX_WRITE_ATTEMPTS {
        match attempt() {
            Err(StoreError::Conflict { .. }) => continue,
            other => return other,
        }
    }
    Err(StoreError::Busy {
        location: location.to_owned(),
    })
}

/// The size of a record's JSON, refused past [`MAX_ENTRY_BYTES`]; its text when it fits.
pub fn checked_body(what: &'static str, body: &serde_json::Value) -> Result<String, StoreError> {
    let text = body.to_string();
    if text.len() > MAX_ENTRY_BYTES {
        return Err(StoreError::TooLarge {
            what,
            bytes: text.len(),
            limit: MAX_ENTRY_BYTES,
        });
    }
    Ok(text)
}

/// A journal entry before it is stored.
#[derive(Debug, Clone, PartialEq)]
pub struct NewEntry {
    /// When it happened (stored as RFC 3339 text in UTC).
    pub at: Timestamp,
    /// What kind of record the body is (the application layer's tag).
    pub kind: String,
    /// The schema version of the body.
    pub schema: i64,
    /// The record.
    pub body: serde_json::Value,
}

/// A stored journal entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Position in its table's journal: 1, 2, 3, … in commit order, with no gap (a player's
    /// scope sees gaps only where the game master's secret entries are), never reused.
    /// Each table has its own numbers.
    pub seq: i64,
    /// When it happened.
    pub at: Timestamp,
    /// What kind of record the body is.
    pub kind: String,
    /// The schema version of the body.
    pub schema: i64,
    /// The record.
    pub body: serde_json::Value,
    /// A game master's secret entry (only a game master's scope ever reads one).
    pub secret: bool,
}

/// A character sheet as stored: the system's own record, as JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct Sheet {
    /// Which rules the sheet follows (`expanded`, `classic`, `sol`, …).
    pub system: String,
    /// The character's name as written.
    pub name: String,
    /// The schema version of the body.
    pub schema: i64,
    /// Raised by one on every change.
    pub version: i64,
    /// The sheet.
    pub body: serde_json::Value,
}

/// The key a name is found by: case and surrounding spaces do not make two characters.
pub fn name_key(name: &str) -> String {
    name.trim().to_lowercase()
}

/// The calls available inside one write transaction (see [`CampaignStore::write`]).
pub trait WriteTx {
    /// A sheet by system and name (case-insensitive).
    fn sheet(&self, system: &str, name: &str) -> Result<Option<Sheet>, StoreError>;
    /// Stores a new sheet; its name must be free in its system.
    fn insert_sheet(&mut self, sheet: &Sheet) -> Result<(), StoreError>;
    /// Replaces a sheet's body (and may rename it), raising its version.
    fn update_sheet(
        &mut self,
        system: &str,
        name: &str,
        sheet: &Sheet,
    ) -> Result<Sheet, StoreError>;
    /// Appends journal entries.
    fn append(&mut self, entries: &[NewEntry]) -> Result<Vec<Entry>, StoreError>;
    /// Gives the sheet `system`/`name` (a companion row, such as a hero's open fight) the
    /// owner of the character `name` of `owner_system`: whoever may play the character may
    /// go on with what belongs to it, whoever started it. Nothing when either is missing.
    fn share_owner(
        &mut self,
        system: &str,
        name: &str,
        owner_system: &str,
    ) -> Result<(), StoreError>;
    /// Marks the secret entry `seq` of the scope's table as revealed (only a game master's
    /// scope, not writing in secret, may) and returns it. Refused when the entry is not a
    /// secret entry of the table, or was revealed already: an entry is revealed once.
    fn reveal(&mut self, seq: i64) -> Result<Entry, StoreError>;
    /// The latest entry of one kind that the scope sees, read inside the transaction (a
    /// read-check-write, such as "is a scene open?", that no other writer can slip into).
    fn last_of_kind(&self, kind: &str) -> Result<Option<Entry>, StoreError>;
    /// Entries with `seq > after` that the scope sees, in order, at most `limit`, read inside
    /// the transaction.
    fn entries_after(&self, after: i64, limit: usize) -> Result<Vec<Entry>, StoreError>;
    /// The scope the transaction reads and writes through.
    fn scope(&self) -> Scope;
    /// Who created a sheet of the scope's table (none: the command line, or no such sheet),
    /// read inside the transaction: the role policy (`solum_app::policy`) asks it before a
    /// sheet changes.
    fn sheet_owner(&self, system: &str, name: &str) -> Result<Option<i64>, StoreError>;
    /// The names of the scope's table's sheets of `system`, read inside the transaction (the
    /// app refuses a new name that only looks like one of them: `Ｎick` beside `Nick`).
    fn sheet_names(&self, system: &str) -> Result<Vec<String>, StoreError>;
}

/// Where a campaign's memory lives. Implemented by [`MemoryStore`], by
/// `solum_store_sqlite::SqliteStore` and by the hosted backend; each runs [`conformance`]
/// (behind the `conformance` feature).
pub trait CampaignStore {
    /// Appends entries in one transaction: all are stored, in order, or none. A table's
    /// times never go back: an entry dated before the table's last one (its clock was read
    /// before another writer's, or another server's clock is behind) is dated as that one,
    /// so an export of the journal reads back in order. The entries come back as stored.
    fn append(&mut self, entries: &[NewEntry]) -> Result<Vec<Entry>, StoreError>;

    /// Entries with `seq > after` (the table's own numbers), in order, at most `limit`.
    fn entries_after(&self, after: i64, limit: usize) -> Result<Vec<Entry>, StoreError>;

    /// How many entries the journal holds.
    fn entry_count(&self) -> Result<u64, StoreError>;

    /// The latest `limit` entries, in order: read from the end by index, not a scan.
    fn last_entries(&self, limit: usize) -> Result<Vec<Entry>, StoreError>;

    /// Entries with `seq < before`, newest first, at most `limit`: the journal read
    /// backwards from a point by index, not a scan.
    fn entries_before(&self, before: i64, limit: usize) -> Result<Vec<Entry>, StoreError>;

    /// The latest entry of one kind, read from the end by index.
    fn last_of_kind(&self, kind: &str) -> Result<Option<Entry>, StoreError>;

    /// The numbers of the entries [`CampaignStore::entries_after`] returns, without their
    /// bodies: a reader that keeps what it rendered reads only the entries it lacks
    /// ([`CampaignStore::entries_at`]). An entry never changes once appended.
    fn seqs_after(&self, after: i64, limit: usize) -> Result<Vec<i64>, StoreError>;

    /// The numbers of the entries [`CampaignStore::entries_before`] returns, newest first.
    fn seqs_before(&self, before: i64, limit: usize) -> Result<Vec<i64>, StoreError>;

    /// The entries numbered `seqs` that the scope sees, in order of their numbers; a number
    /// the scope does not see (another table's, a secret one for a player, none) is left
    /// out. The work is one index lookup per number asked.
    fn entries_at(&self, seqs: &[i64]) -> Result<Vec<Entry>, StoreError>;

    /// A campaign setting.
    fn meta(&self, key: &str) -> Result<Option<String>, StoreError>;

    /// Sets a campaign setting.
    fn set_meta(&mut self, key: &str, value: &str) -> Result<(), StoreError>;

    /// A full consistency check of the backend (SQLite's `integrity_check`).
    fn check_integrity(&self) -> Result<(), StoreError>;

    /// Every problem a full consistency check of the backend finds (SQLite's
    /// `integrity_check` and `foreign_key_check`), at most [`MAX_INTEGRITY_PROBLEMS`];
    /// empty when the file is sound.
    fn integrity_problems(&self) -> Result<Vec<String>, StoreError>;

    /// True when this store reads every entry of its journal (a game master's or the command
    /// line's scope): only then can the sheets be re-derived from it, and only then is the
    /// whole file's check worth running for the caller.
    fn sees_every_entry(&self) -> bool {
        true
    }

    /// A sheet by system and name (case-insensitive).
    fn sheet(&self, system: &str, name: &str) -> Result<Option<Sheet>, StoreError>;

    /// Every sheet of a system, by name.
    fn sheets(&self, system: &str) -> Result<Vec<Sheet>, StoreError>;

    /// Runs `work` in one write transaction, serializable per table: a read–change–write of a
    /// sheet by many processes at once serializes, and every change lands. If `work` fails,
    /// nothing it did is kept. `work` may run more than once: a backend whose transaction
    /// meets a conflict ([`StoreError::Conflict`]) runs it again from the start, at most
    /// [`MAX_WRITE_ATTEMPTS`] times, then answers [`StoreError::Busy`] (see [`with_retries`]);
    /// so `work` keeps no effect outside the transaction but its last result.
    fn write(
        &mut self,
        work: &mut dyn FnMut(&mut dyn WriteTx) -> Result<(), StoreError>,
    ) -> Result<(), StoreError>;

    /// Opens a group of writes (a piped script's lines): each [`CampaignStore::write`] that
    /// follows is still all or nothing on its own, and the group's writes become durable
    /// together at [`CampaignStore::end_group`], with one sync instead of one each. Nothing
    /// of a group is kept if the process dies before its end. A backend without groups
    /// commits each write on its own.
    fn begin_group(&mut self) -> Result<(), StoreError> {
        Ok(())
    }

    /// Commits the open group (nothing when none is open).
    fn end_group(&mut self) -> Result<(), StoreError> {
        Ok(())
    }
}

/// The most problems [`CampaignStore::integrity_problems`] lists: past this the file is
/// beyond a list, and reading on would only take time.
pub const MAX_INTEGRITY_PROBLEMS: usize = 100;

/// A member of a table, as a session knows them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// The member's id.
    pub id: i64,
    /// Their table.
    pub table: i64,
    /// The table's name.
    pub table_name: String,
    /// The member's name at the table.
    pub name: String,
    /// True for the game master.
    pub gm: bool,
}

/// Tables, members, invites and sessions of the web table. Tokens arrive hashed: the store
/// never sees one it could hand back.
pub trait TableStore {
    /// Creates a table with its game master, who holds the session `session_hash`;
    /// `gm_key` is the comparison form of their name (see [`TableStore::redeem_invite`]).
    fn create_table(
        &mut self,
        name: &str,
        gm_name: &str,
        gm_key: &str,
        session_hash: &str,
        at: Timestamp,
    ) -> Result<Member, StoreError>;

    /// Creates a table without members, and in the same transaction an unused invite as its
    /// game master (`token_hash`, good until `expires`): a table made by the
    /// command line for a game master who joins from the page. The table's id and the
    /// invite's id come back.
    fn create_table_with_invite(
        &mut self,
        name: &str,
        token_hash: &str,
        at: Timestamp,
        expires: Timestamp,
    ) -> Result<(i64, i64), StoreError>;

    /// Stores an unused invite to `table` (as game master when `gm`), good until `expires`;
    /// its id comes back. With [`OtherInvites::Revoked`], every other unused invite of the
    /// table with this role is revoked in the same transaction: of two such invites made at
    /// once (two servers starting together), one is left unused, the last one made.
    fn add_invite(
        &mut self,
        table: i64,
        gm: bool,
        token_hash: &str,
        at: Timestamp,
        expires: Timestamp,
        others: OtherInvites,
    ) -> Result<i64, StoreError>;

    /// Uses an invite once, at `now`: a new member named `name` with the
    /// session `session_hash`. Refused (and nothing changes) when no invite has this hash,
    /// or it is used, revoked or past its expiry, or a member of its table already has a
    /// name whose comparison form is `name_key`.
    fn redeem_invite(
        &mut self,
        token_hash: &str,
        name: &str,
        name_key: &str,
        session_hash: &str,
        at: Timestamp,
        now: Timestamp,
    ) -> Result<Redeemed, StoreError>;

    /// Every invite of `table`, oldest first.
    fn invites(&self, table: i64) -> Result<Vec<InviteRow>, StoreError>;

    /// Revokes the invite `id` of `table`; false when the table has no such invite that is
    /// still unused and not revoked.
    fn revoke_invite(&mut self, table: i64, id: i64) -> Result<bool, StoreError>;

    /// The member holding a session that was used within `idle` before `now`; a session found is marked as used at `now` (at most once per
    /// [`SESSION_TOUCH`], so reads stay reads).
    fn session_member(
        &self,
        session_hash: &str,
        now: Timestamp,
        idle: SignedDuration,
    ) -> Result<Option<Member>, StoreError>;

    /// Ends a session (logging out). True when there was one.
    fn end_session(&mut self, session_hash: &str) -> Result<bool, StoreError>;

    /// How many sessions have been ended in the campaign, counted in the transaction that
    /// ends each: a server that keeps sessions and learns of other processes' logouts by
    /// looking (SQLite has no notifications) forgets what it keeps when this number moves,
    /// not at every commit of another connection. A backend that tells its servers of an
    /// ended session otherwise (PostgreSQL's notifications) answers 0.
    fn sessions_ended(&self) -> Result<u64, StoreError> {
        Ok(0)
    }

    /// The members of the scope's table, in the order they joined.
    fn members(&self) -> Result<Vec<Member>, StoreError>;

    /// Every table of the campaign by id, the campaign's own (table 0, the command line's)
    /// first, whatever the scope: what an operator lists to back up or verify each table.
    fn tables(&self) -> Result<Vec<TableRow>, StoreError>;

    /// Who created a sheet of the scope's table (none: the command line, or no such sheet).
    fn sheet_owner(&self, system: &str, name: &str) -> Result<Option<i64>, StoreError>;

    /// Every sheet of `system` at the scope's table with who created it, by name: what
    /// [`TableStore::sheet_owner`] says of each, in one read.
    fn sheet_owners(&self, system: &str) -> Result<Vec<(String, Option<i64>)>, StoreError>;

    /// Opens a session `session_hash` for the existing member `member` of `table` (a
    /// re-entry link used): the member as they are, or `None` when `table` has no such
    /// member.
    fn add_session(
        &mut self,
        table: i64,
        member: i64,
        session_hash: &str,
        at: Timestamp,
    ) -> Result<Option<Member>, StoreError>;
}

/// A table of the campaign as [`TableStore::tables`] lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableRow {
    /// The table's id (0: the campaign's own).
    pub id: i64,
    /// Its name.
    pub name: String,
    /// How many members have joined it.
    pub members: u64,
}

/// An invite as its table's game master lists it (its token is never kept, only its hash).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InviteRow {
    /// The invite's id at its table.
    pub id: i64,
    /// True for an invite as game master.
    pub gm: bool,
    /// When it was made.
    pub created: Timestamp,
    /// When it expires.
    pub expires: Timestamp,
    /// The member who used it, if used.
    pub used_by: Option<i64>,
    /// True once revoked.
    pub revoked: bool,
}

/// What a new invite does to its table's other unused invites of the same role
/// ([`TableStore::add_invite`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OtherInvites {
    /// They keep working (a game master hands out one more).
    Kept,
    /// They stop working: the new one replaces them (the link a server prints as it starts).
    Revoked,
}

/// What using an invite came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Redeemed {
    /// A new member, with their session.
    Joined(Member),
    /// No invite has this token.
    Unknown,
    /// The invite was used already.
    Used,
    /// It was revoked (by the table's game master, or, for the game master invite of the
    /// campaign's own table, by a newer start of the server): its table and whether it was a
    /// game master's.
    Revoked { table: i64, gm: bool },
    /// It expired, at this time.
    Expired(Timestamp),
    /// A member of the table already has a name that compares equal: theirs.
    NameTaken(String),
}

/// How often a session's last use is written: the idle limit is counted in
/// days, so an hour's precision is plenty and most requests write nothing.
pub const SESSION_TOUCH: SignedDuration = SignedDuration::from_secs(3_600);

/// `d` before `t`, or the earliest time there is (never wraps around).
pub fn time_before(t: Timestamp, d: SignedDuration) -> Timestamp {
    t.checked_sub(d).unwrap_or(Timestamp::MIN)
}

/// The connection itself, whatever the backend: the scope it reads and writes through, and
/// what a server needs to keep it between requests and to watch for others' writes.
pub trait StoreHandle {
    /// The scope every query is filtered by.
    fn scope(&self) -> Scope;

    /// Sees the same connection through another scope (a server reusing a connection for
    /// another member's request). Every later call is filtered by `scope`.
    fn set_scope(&mut self, scope: Scope);

    /// What the user named for this campaign (a file's path, or a database address without
    /// its password), as errors name it.
    fn location(&self) -> String;

    /// No transaction is open on the connection (it may be kept for later work).
    fn is_idle(&self) -> bool;

    /// The connection is gone (the database restarted, the network was cut): nothing more
    /// can be done through it, and a keeper of connections opens a new one. Never, for a
    /// backend without a connection to lose.
    fn is_closed(&self) -> bool {
        false
    }

    /// Asks the database whether this connection still works: one round trip on a backend
    /// that has a connection to lose (a database restarted or a network cut while it was
    /// kept idle shows only when it is next used), never anything for a file or memory. A
    /// keeper of connections asks before using one it kept for a while.
    fn is_alive(&self) -> bool {
        !self.is_closed()
    }

    /// The last number of `table`'s journal (0 when empty), every entry counted (secret ones
    /// too), whatever the scope: a watcher's cheap look at how far a table has got.
    fn last_seq(&self, table: i64) -> Result<i64, StoreError>;

    /// A number that changes when another connection has committed a change since this one
    /// last looked (SQLite's `PRAGMA data_version`); a backend that tells its servers of
    /// changes otherwise (PostgreSQL's notifications) may answer a number that changes with
    /// every commit it knows of.
    fn data_version(&self) -> Result<i64, StoreError>;

    /// Leaves copying this connection's commits into the campaign's main file to
    /// [`StoreHandle::checkpoint`], run by someone else: a server's writer, whose next write
    /// would otherwise wait while its commit copies and syncs the file. Nothing for a backend
    /// without a write-ahead file of its own.
    fn leave_checkpoints(&mut self) -> Result<(), StoreError> {
        Ok(())
    }

    /// Copies what has been committed into the main file as far as the readers allow,
    /// waiting for neither the writer nor the readers (SQLite's passive checkpoint), and
    /// answers how many pages the log holds. Under writes that never pause the log is never
    /// started again from its beginning and grows; past a limit the writer should
    /// [`restart`](StoreHandle::restart_log) it between its commits. Nothing (and 0) for a
    /// backend without a write-ahead file of its own.
    fn checkpoint(&self) -> Result<u64, StoreError> {
        Ok(0)
    }

    /// Copies what is left of the write-ahead log into the main file and waits for the
    /// readers of older snapshots, so that the next write starts the log again from its
    /// beginning (SQLite's `wal_checkpoint(RESTART)`; the file keeps its size and is written
    /// over). Meant for the writer's own connection between its commits: run by another
    /// connection it would wait for the writer's turn, and the writer then for it.
    /// [`StoreError::Busy`] when it could not complete (another connection's checkpoint, or
    /// a reader that outlasted the wait): the log goes on at its end. Nothing for a backend
    /// without a write-ahead file of its own.
    fn restart_log(&mut self) -> Result<(), StoreError> {
        Ok(())
    }
}

/// A whole store: what front ends hold, as `Box<dyn Store>`, whatever the backend.
pub trait Store: CampaignStore + TableStore + StoreHandle + Send {}

impl<T: CampaignStore + TableStore + StoreHandle + Send + ?Sized> Store for T {}

impl<T: CampaignStore + ?Sized> CampaignStore for Box<T> {
    fn append(&mut self, entries: &[NewEntry]) -> Result<Vec<Entry>, StoreError> {
        (**self).append(entries)
    }
    fn entries_after(&self, after: i64, limit: usize) -> Result<Vec<Entry>, StoreError> {
        (**self).entries_after(after, limit)
    }
    fn entry_count(&self) -> Result<u64, StoreError> {
        (**self).entry_count()
    }
    fn last_entries(&self, limit: usize) -> Result<Vec<Entry>, StoreError> {
        (**self).last_entries(limit)
    }
    fn entries_before(&self, before: i64, limit: usize) -> Result<Vec<Entry>, StoreError> {
        (**self).entries_before(before, limit)
    }
    fn last_of_kind(&self, kind: &str) -> Result<Option<Entry>, StoreError> {
        (**self).last_of_kind(kind)
    }
    fn seqs_after(&self, after: i64, limit: usize) -> Result<Vec<i64>, StoreError> {
        (**self).seqs_after(after, limit)
    }
    fn seqs_before(&self, before: i64, limit: usize) -> Result<Vec<i64>, StoreError> {
        (**self).seqs_before(before, limit)
    }
    fn entries_at(&self, seqs: &[i64]) -> Result<Vec<Entry>, StoreError> {
        (**self).entries_at(seqs)
    }
    fn meta(&self, key: &str) -> Result<Option<String>, StoreError> {
        (**self).meta(key)
    }
    fn set_meta(&mut self, key: &str, value: &str) -> Result<(), StoreError> {
        (**self).set_meta(key, value)
    }
    fn check_integrity(&self) -> Result<(), StoreError> {
        (**self).check_integrity()
    }
    fn integrity_problems(&self) -> Result<Vec<String>, StoreError> {
        (**self).integrity_problems()
    }
    fn sees_every_entry(&self) -> bool {
        (**self).sees_every_entry()
    }
    fn sheet(&self, system: &str, name: &str) -> Result<Option<Sheet>, StoreError> {
        (**self).sheet(system, name)
    }
    fn sheets(&self, system: &str) -> Result<Vec<Sheet>, StoreError> {
        (**self).sheets(system)
    }
    fn write(
        &mut self,
        work: &mut dyn FnMut(&mut dyn WriteTx) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        (**self).write(work)
    }
    fn begin_group(&mut self) -> Result<(), StoreError> {
        (**self).begin_group()
    }
    fn end_group(&mut self) -> Result<(), StoreError> {
        (**self).end_group()
    }
}

impl<T: TableStore + ?Sized> TableStore for Box<T> {
    fn create_table(
        &mut self,
        name: &str,
        gm_name: &str,
        gm_key: &str,
        session_hash: &str,
        at: Timestamp,
    ) -> Result<Member, StoreError> {
        (**self).create_table(name, gm_name, gm_key, session_hash, at)
    }
    fn create_table_with_invite(
        &mut self,
        name: &str,
        token_hash: &str,
        at: Timestamp,
        expires: Timestamp,
    ) -> Result<(i64, i64), StoreError> {
        (**self).create_table_with_invite(name, token_hash, at, expires)
    }
    fn add_invite(
        &mut self,
        table: i64,
        gm: bool,
        token_hash: &str,
        at: Timestamp,
        expires: Timestamp,
        others: OtherInvites,
    ) -> Result<i64, StoreError> {
        (**self).add_invite(table, gm, token_hash, at, expires, others)
    }
    fn redeem_invite(
        &mut self,
        token_hash: &str,
        name: &str,
        name_key: &str,
        session_hash: &str,
        at: Timestamp,
        now: Timestamp,
    ) -> Result<Redeemed, StoreError> {
        (**self).redeem_invite(token_hash, name, name_key, session_hash, at, now)
    }
    fn invites(&self, table: i64) -> Result<Vec<InviteRow>, StoreError> {
        (**self).invites(table)
    }
    fn revoke_invite(&mut self, table: i64, id: i64) -> Result<bool, StoreError> {
        (**self).revoke_invite(table, id)
    }
    fn session_member(
        &self,
        session_hash: &str,
        now: Timestamp,
        idle: SignedDuration,
    ) -> Result<Option<Member>, StoreError> {
        (**self).session_member(session_hash, now, idle)
    }
    fn end_session(&mut self, session_hash: &str) -> Result<bool, StoreError> {
        (**self).end_session(session_hash)
    }
    fn sessions_ended(&self) -> Result<u64, StoreError> {
        (**self).sessions_ended()
    }
    fn members(&self) -> Result<Vec<Member>, StoreError> {
        (**self).members()
    }
    fn tables(&self) -> Result<Vec<TableRow>, StoreError> {
        (**self).tables()
    }
    fn sheet_owner(&self, system: &str, name: &str) -> Result<Option<i64>, StoreError> {
        (**self).sheet_owner(system, name)
    }
    fn sheet_owners(&self, system: &str) -> Result<Vec<(String, Option<i64>)>, StoreError> {
        (**self).sheet_owners(system)
    }
    fn add_session(
        &mut self,
        table: i64,
        member: i64,
        session_hash: &str,
        at: Timestamp,
    ) -> Result<Option<Member>, StoreError> {
        (**self).add_session(table, member, session_hash, at)
    }
}

impl<T: StoreHandle + ?Sized> StoreHandle for Box<T> {
    fn scope(&self) -> Scope {
        (**self).scope()
    }
    fn set_scope(&mut self, scope: Scope) {
        (**self).set_scope(scope)
    }
    fn location(&self) -> String {
        (**self).location()
    }
    fn is_idle(&self) -> bool {
        (**self).is_idle()
    }
    fn is_closed(&self) -> bool {
        (**self).is_closed()
    }
    fn is_alive(&self) -> bool {
        (**self).is_alive()
    }
    fn last_seq(&self, table: i64) -> Result<i64, StoreError> {
        (**self).last_seq(table)
    }
    fn data_version(&self) -> Result<i64, StoreError> {
        (**self).data_version()
    }
    fn leave_checkpoints(&mut self) -> Result<(), StoreError> {
        (**self).leave_checkpoints()
    }
    fn checkpoint(&self) -> Result<u64, StoreError> {
        (**self).checkpoint()
    }
    fn restart_log(&mut self) -> Result<(), StoreError> {
        (**self).restart_log()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_conflict_is_run_again_and_answers_busy_after_the_last_attempt() {
        let mut runs = 0;
        let out: Result<(), _> = with_retries("here", || {
            runs += 1;
            Err(StoreError::Conflict {
                location: "here".into(),
            })
        });
        assert_eq!(runs, MAX_WRITE_ATTEMPTS);
        assert!(
            matches!(out, Err(StoreError::Busy { ref location }) if location == "here"),
            "{out:?}"
        );
        let mut runs = 0;
        let out = with_retries("here", || {
            runs += 1;
            if runs < 3 {
                Err(StoreError::Conflict {
                    location: "here".into(),
                })
            } else {
                Ok(runs)
            }
        });
        assert_eq!(
            out.unwrap(),
            3,
            "the third attempt succeeds and is answered"
        );
        let mut runs = 0;
        let out: Result<(), _> = with_retries("here", || {
            runs += 1;
            Err(StoreError::Forbidden("no".into()))
        });
        assert_eq!(runs, 1, "only a conflict is run again");
        assert!(matches!(out, Err(StoreError::Forbidden(_))));
    }

    #[test]
    fn the_conformance_suite_passes_on_the_memory_store() {
        conformance::run_all(&|| Box::new(MemoryStore::new()) as Box<dyn Store>);
    }

    /// `Box<dyn Store>` is itself a store: the application's `Campaign<Box<dyn Store>>`.
    #[test]
    fn a_boxed_store_is_a_store() {
        fn takes<S: Store>(s: S) -> S {
            s
        }
        let boxed: Box<dyn Store> = Box::new(MemoryStore::new());
        let mut boxed = takes(boxed);
        boxed.set_scope(Scope::member(0, 7, false));
        assert_eq!(boxed.scope(), Scope::member(0, 7, false));
    }
}
