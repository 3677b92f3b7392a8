//! The campaign store's hosted backend: PostgreSQL, shared by several `solum serve` processes.
//!
//! [`PostgresStore`] implements [`CampaignStore`] and [`TableStore`] with the semantics of
//! `solum_store::SqliteStore`: every query filtered by its [`Scope`] (table, member, game
//! master, secret writes), each table's journal numbered 1, 2, 3, … with no gap in commit
//! order (`table_seq`), reveals once, sheet versions, names unique per table and system,
//! owners, invites and sessions with expiry and revocation, settings per table, and entries
//! over [`MAX_ENTRY_BYTES`] refused before anything is written. Journal rows are append-only:
//! a trigger refuses every update, delete and truncate.
//!
//! Concurrency: a [`CampaignStore::write`] runs in one READ COMMITTED transaction whose first
//! statement locks its table's row of `table_heads` (which also holds the table's last
//! number). Every write of a table therefore runs after the previous one committed, and
//! everything it reads of its table (a sheet, the open scene, the last number) stays true
//! until it commits: the read-check-write is as safe as SQLite's `BEGIN IMMEDIATE`, per table
//! instead of per file, without SERIALIZABLE's false conflicts. A deadlock or serialization
//! failure (SQLSTATE 40P01, 40001) rolls back and runs the closure again, at most
//! [`MAX_ATTEMPTS`] times; a lock or statement timeout is [`StoreError::Busy`].
//!
//! Live changes: every append sends `NOTIFY solum_journal, '<table id>'` inside its
//! transaction (delivered on commit, never for a rollback); a [`ChangeListener`] holds one
//! connection that listens and yields the table ids.
//!
//! Credentials never leave the store: errors and `Debug` name the database as
//! `HOST:PORT/DATABASE` ([`PostgresStore::location`]), never the URL.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::time::Duration;

use postgres::error::SqlState;
use postgres::fallible_iterator::FallibleIterator;
use postgres::types::ToSql;
use postgres::{
    Client, Config, GenericClient, NoTls, Row, SimpleQueryMessage, Statement, Transaction,
};
use solum_store::{
    CampaignStore, Entry, InviteRow, MAX_ENTRY_BYTES, MAX_INTEGRITY_PROBLEMS, Member, NewEntry,
    OtherInvites, Redeemed, SESSION_TOUCH, Scope, Sheet, SignedDuration, StoreError, StoreHandle,
    TableStore, Timestamp, WriteTx, name_key,
};

/// The newest schema this backend knows: the SQLite backend's schema 7 (per-table
/// journal numbers), then each table's last entry's time (8) and one index fewer (9).
pub const SCHEMA_VERSION: i64 = 9;

/// How many times a write whose transaction hit a deadlock or a serialization failure is run
/// again before the store answers busy.
pub const MAX_ATTEMPTS: usize = 10;

/// How long a statement waits for a lock another transaction holds (`lock_timeout`): the
/// same patience as SQLite's busy timeout.
pub const LOCK_TIMEOUT: Duration = solum_store::BUSY_TIMEOUT;

/// The longest one statement may run (`statement_timeout`): past it the store answers busy.
pub const STATEMENT_TIMEOUT: Duration = Duration::from_secs(30);

/// How long [`StoreHandle::is_alive`] waits for the database to answer its empty query: a
/// connection that cannot answer that in time is not worth keeping.
pub const ALIVE_TIMEOUT: Duration = Duration::from_secs(5);

/// How long opening a connection may take.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The channel every append notifies, with its table's id as the payload.
pub const CHANNEL: &str = "solum_journal";

/// The channel a session's end (logout) notifies, with its token's hash as the payload.
pub const SESSION_CHANNEL: &str = "solum_session";

/// The advisory lock key migrations run under ("SOLU"): servers starting together migrate
/// one after the other.
const MIGRATION_LOCK: i64 = 0x534F_4C55;

/// The migrations, as (from, to, SQL). A new backend starts at the current schema in one
/// step; later ones go one version at a time, like SQLite's, each in its own transaction.
const MIGRATIONS: &[(i64, i64, &str)] = &[(0, 7, SCHEMA_7), (7, 8, SCHEMA_8), (8, 9, SCHEMA_9)];

/// Schema 9: the journal loses its index by table and global number, which no read uses
/// since each table numbers its own entries (`journal_by_table_seq`): one index fewer to
/// write on every append.
const SCHEMA_9: &str = "DROP INDEX IF EXISTS journal_by_table;";

/// Schema 8: each table's head also keeps its last entry's time, read with its write lock
/// (a table's times never go back; a query of the journal there would read the snapshot
/// from before the lock was waited for, and miss the entry committed meanwhile). A table
/// written before it has none until its next entry.
const SCHEMA_8: &str = "ALTER TABLE table_heads ADD COLUMN last_at TEXT;";

/// Schema 7, the same logical schema as SQLite's: tables (0 is the campaign's own), members,
/// invites, sessions, the journal (a global `seq` and each table's own `table_seq`), sheets,
/// reveals and settings; plus `table_heads`, each table's last number, whose row is the
/// table's write lock.
const SCHEMA_7: &str = "
CREATE TABLE solum_schema (
    one     BOOLEAN PRIMARY KEY DEFAULT true CHECK (one),
    version BIGINT  NOT NULL
);
CREATE TABLE tables (
    id      BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    name    TEXT   NOT NULL,
    created TEXT   NOT NULL
);
INSERT INTO tables (id, name, created) VALUES (0, 'home', '');
CREATE TABLE members (
    id       BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    table_id BIGINT NOT NULL REFERENCES tables (id),
    name     TEXT   NOT NULL,
    role     TEXT   NOT NULL CHECK (role IN ('gm', 'player')),
    joined   TEXT   NOT NULL,
    name_key TEXT   NOT NULL DEFAULT ''
);
CREATE INDEX members_by_table ON members (table_id, name_key);
CREATE TABLE invites (
    id         BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    token_hash TEXT    PRIMARY KEY,
    table_id   BIGINT  NOT NULL REFERENCES tables (id),
    role       TEXT    NOT NULL CHECK (role IN ('gm', 'player')),
    created    TEXT    NOT NULL,
    used_by    BIGINT  REFERENCES members (id),
    expires    BIGINT  NOT NULL DEFAULT 0,
    revoked    BOOLEAN NOT NULL DEFAULT false
);
CREATE INDEX invites_by_table ON invites (table_id, id);
CREATE TABLE sessions (
    token_hash TEXT   PRIMARY KEY,
    member_id  BIGINT NOT NULL REFERENCES members (id),
    created    TEXT   NOT NULL,
    last_used  BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE journal (
    seq       BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at        TEXT    NOT NULL,
    kind      TEXT    NOT NULL,
    schema    BIGINT  NOT NULL,
    body      JSONB   NOT NULL,
    table_id  BIGINT  NOT NULL DEFAULT 0,
    secret    BOOLEAN NOT NULL DEFAULT false,
    table_seq BIGINT  NOT NULL
);
CREATE INDEX journal_by_table ON journal (table_id, seq);
CREATE INDEX journal_by_kind ON journal (table_id, kind, table_seq);
CREATE UNIQUE INDEX journal_by_table_seq ON journal (table_id, table_seq);
CREATE FUNCTION solum_journal_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'journal entries are append-only' USING ERRCODE = 'restrict_violation';
END $$;
CREATE TRIGGER journal_no_update BEFORE UPDATE OR DELETE ON journal
    FOR EACH ROW EXECUTE FUNCTION solum_journal_append_only();
CREATE TRIGGER journal_no_truncate BEFORE TRUNCATE ON journal
    FOR EACH STATEMENT EXECUTE FUNCTION solum_journal_append_only();
CREATE TABLE table_heads (
    table_id BIGINT PRIMARY KEY,
    last_seq BIGINT NOT NULL
);
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE sheets (
    id       BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    table_id BIGINT NOT NULL REFERENCES tables (id),
    owner    BIGINT REFERENCES members (id),
    system   TEXT   NOT NULL,
    name     TEXT   NOT NULL,
    name_key TEXT   NOT NULL,
    schema   BIGINT NOT NULL,
    version  BIGINT NOT NULL,
    body     JSONB  NOT NULL,
    UNIQUE (table_id, system, name_key)
);
CREATE TABLE reveals (
    seq BIGINT PRIMARY KEY REFERENCES journal (seq)
);
";

// ---------------------------------------------------------------------------------------
// Errors. Every StoreError this backend makes is built here, so that a change of the
// store's error type is a change of these few functions.
// ---------------------------------------------------------------------------------------

/// Any failure of the database that is not the caller's input: shown with the database's
/// location. (Today's `StoreError` has no backend-neutral variant; its `Sqlite` variant with a
/// boxed message displays as "LOCATION: MESSAGE", which is what a `Backend { location,
/// message }` variant will say.)
fn backend(location: &str, message: String) -> StoreError {
    StoreError::Backend {
        location: location.to_owned(),
        message,
    }
}

/// False for text PostgreSQL cannot hold (a NUL character): no name stored has it, so a
/// sheet looked up by such a name is none, as SQLite answers, not a refusal of the text.
fn storable(text: &str) -> bool {
    !text.contains('\0')
}

/// The connection to the database is gone or refused: [`StoreError::Unreachable`].
fn unreachable(location: &str, e: &postgres::Error) -> StoreError {
    StoreError::Unreachable {
        location: location.to_owned(),
        reason: describe(e),
    }
}

/// The database is held by others longer than the store waits.
fn busy(location: &str) -> StoreError {
    StoreError::Busy {
        location: location.to_owned(),
    }
}

/// The database belongs to another program.
fn not_a_campaign(location: &str, reason: &str) -> StoreError {
    StoreError::NotACampaign {
        location: location.to_owned(),
        reason: reason.into(),
    }
}

/// A database without a campaign, opened only to read.
fn missing(location: &str) -> StoreError {
    StoreError::Missing {
        location: location.to_owned(),
    }
}

/// The database's schema is newer than this build knows.
fn newer_schema(location: &str, found: i64) -> StoreError {
    StoreError::NewerSchema {
        location: location.to_owned(),
        found,
        known: SCHEMA_VERSION,
    }
}

/// The URL cannot name a database.
fn bad_url(reason: &str) -> StoreError {
    StoreError::BadPath {
        location: "the database URL".to_owned(),
        reason: reason.into(),
    }
}

/// What a driver error means for the player (see the module's notes on SQLSTATEs).
fn map_error(location: &str, e: postgres::Error) -> StoreError {
    let Some(code) = e.code() else {
        // No SQLSTATE: the connection failed or closed, or a value did not convert.
        if e.is_closed() || std::error::Error::source(&e).is_some_and(|s| s.is::<std::io::Error>())
        {
            return unreachable(location, &e);
        }
        return backend(location, describe(&e));
    };
    // The server ended the connection (a shutdown or restart, an administrator's
    // `pg_terminate_backend`) or refuses new ones yet (class 57P), or the connection broke
    // (class 08): nothing of what was under way was committed.
    if code.code().starts_with("57P") || code.code().starts_with("08") {
        return unreachable(location, &e);
    }
    let message = e
        .as_db_error()
        .map_or_else(|| describe(&e), |db| db.message().to_owned());
    match code {
        c if *c == SqlState::UNIQUE_VIOLATION => {
            let db = e.as_db_error();
            if db.and_then(|d| d.constraint()) == Some("sheets_table_id_system_name_key_key") {
                // Detail: Key (table_id, system, name_key)=(0, expanded, nick) already exists.
                let name = db
                    .and_then(|d| d.detail())
                    .and_then(|d| d.rsplit_once(", "))
                    .and_then(|(_, rest)| rest.split_once(')'))
                    .map_or("of that name", |(name, _)| name)
                    .to_owned();
                StoreError::NameTaken { name }
            } else {
                StoreError::BadRecord(format!("already stored: {message}"))
            }
        }
        c if *c == SqlState::T_R_SERIALIZATION_FAILURE
            || *c == SqlState::T_R_DEADLOCK_DETECTED
            || *c == SqlState::LOCK_NOT_AVAILABLE
            || *c == SqlState::QUERY_CANCELED =>
        {
            busy(location)
        }
        c if *c == SqlState::DISK_FULL => StoreError::Full {
            location: location.to_owned(),
        },
        c if *c == SqlState::READ_ONLY_SQL_TRANSACTION => StoreError::ReadOnly {
            location: location.to_owned(),
        },
        c if *c == SqlState::UNTRANSLATABLE_CHARACTER
            || *c == SqlState::CHARACTER_NOT_IN_REPERTOIRE =>
        {
            StoreError::BadRecord(format!("PostgreSQL cannot store this text: {message}"))
        }
        c if *c == SqlState::INVALID_PASSWORD
            || *c == SqlState::INVALID_AUTHORIZATION_SPECIFICATION =>
        {
            backend(
                location,
                format!("cannot log in to the database ({message})"),
            )
        }
        c if *c == SqlState::INVALID_CATALOG_NAME => {
            backend(location, format!("no such database ({message})"))
        }
        c if *c == SqlState::CANNOT_CONNECT_NOW || *c == SqlState::TOO_MANY_CONNECTIONS => {
            backend(location, format!("cannot reach the database ({message})"))
        }
        _ => backend(location, format!("{message} (SQLSTATE {})", code.code())),
    }
}

/// A driver error and its causes, one after the other ("error connecting to server:
/// Connection refused"): the driver's own text stops at the first.
fn describe(e: &postgres::Error) -> String {
    let mut text = e.to_string();
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    text
}

/// A deadlock or serialization failure: the transaction may simply run again.
fn is_conflict(e: &postgres::Error) -> bool {
    e.code().is_some_and(|c| {
        *c == SqlState::T_R_SERIALIZATION_FAILURE || *c == SqlState::T_R_DEADLOCK_DETECTED
    })
}

/// A column that does not hold what the store wrote (another program changed the schema).
fn column(location: &str, e: postgres::Error) -> StoreError {
    backend(location, format!("an unexpected column: {}", describe(&e)))
}

// ---------------------------------------------------------------------------------------
// Connections.
// ---------------------------------------------------------------------------------------

/// Where a URL points, without its user or password: `HOST:PORT/DATABASE`.
fn location_of(config: &Config) -> String {
    let host = match config.get_hosts().first() {
        Some(postgres::config::Host::Tcp(h)) => h.clone(),
        Some(postgres::config::Host::Unix(p)) => p.display().to_string(),
        None => "localhost".into(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    let db = config
        .get_dbname()
        .or(config.get_user())
        .unwrap_or("postgres");
    format!("{host}:{port}/{db}")
}

/// The password file libpq would read: the one `PGPASSFILE` names, else `~/.pgpass`.
fn password_file() -> Option<std::path::PathBuf> {
    match std::env::var_os("PGPASSFILE") {
        Some(f) => Some(f.into()),
        None => std::env::var_os("HOME").map(|h| std::path::Path::new(&h).join(".pgpass")),
    }
}

/// Whether others than its owner may read or write the file (as libpq, a password file
/// like that is not used). Never on a system without Unix permissions.
fn open_to_others(meta: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o077 != 0
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        false
    }
}

/// What to do when the server asks for a password and none was found: where solum looked.
fn no_password() -> String {
    let named = std::env::var_os("PGPASSFILE").is_some();
    let Some(file) = password_file() else {
        return "the database asks for a password: set PGPASSWORD, or PGPASSFILE to a file \
             holding it"
            .into();
    };
    let shown = file.display();
    match std::fs::metadata(&file) {
        Err(_) if named => format!(
            "the database asks for a password: PGPASSFILE names {shown}, which cannot be read; \
             set PGPASSWORD, or PGPASSFILE to a file holding the password"
        ),
        Err(_) => "the database asks for a password: set PGPASSWORD, or PGPASSFILE (or \
             ~/.pgpass) to a file holding it"
            .into(),
        Ok(meta) if open_to_others(&meta) => format!(
            "the database asks for a password: the password file {shown} may be read by \
             others than its owner, so it is not used (chmod 600 it); or set PGPASSWORD"
        ),
        Ok(_) => format!(
            "the database asks for a password: the password file {shown} has no line for \
             this host, port, database and user; add one, or set PGPASSWORD"
        ),
    }
}

/// The password for `config` when its URL has none: `PGPASSWORD`, else the first matching
/// line of the password file (`PGPASSFILE`, else `~/.pgpass`; libpq's format:
/// `host:port:database:user:password`, `*` matching anything), unless others than its
/// owner may read it. Never logged, never part of an error.
fn password_from_env(config: &Config) -> Option<String> {
    password_from(std::env::var("PGPASSWORD").ok(), password_file(), config)
}

/// [`password_from_env`] given `PGPASSWORD` and the password file.
fn password_from(
    pgpassword: Option<String>,
    file: Option<std::path::PathBuf>,
    config: &Config,
) -> Option<String> {
    if let Some(p) = pgpassword
        && !p.is_empty()
    {
        return Some(p);
    }
    let file = file?;
    // A password file is a few lines; a bigger one is not read.
    let meta = std::fs::metadata(&file).ok()?;
    if meta.len() > 64 * 1024 || open_to_others(&meta) {
        return None;
    }
    let text = std::fs::read_to_string(&file).ok()?;
    let host = match config.get_hosts().first() {
        Some(postgres::config::Host::Tcp(h)) => h.clone(),
        _ => "localhost".into(),
    };
    let port = config
        .get_ports()
        .first()
        .copied()
        .unwrap_or(5432)
        .to_string();
    let user = config.get_user().unwrap_or("").to_owned();
    let db = config.get_dbname().unwrap_or(&user).to_owned();
    pgpass_lookup(&text, [&host, &port, &db, &user])
}

/// The password of the first line of a pgpass file matching `want` (host, port, database,
/// user); `\:` and `\\` are escapes, `*` matches anything.
fn pgpass_lookup(text: &str, want: [&str; 4]) -> Option<String> {
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut fields = Vec::new();
        let mut field = String::new();
        let mut chars = line.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => field.extend(chars.next()),
                ':' if fields.len() < 4 => fields.push(std::mem::take(&mut field)),
                c => field.push(c),
            }
        }
        fields.push(field);
        if fields.len() == 5
            && fields[..4]
                .iter()
                .zip(want)
                .all(|(f, w)| f == "*" || f == w)
        {
            return Some(fields.pop().unwrap_or_default());
        }
    }
    None
}

/// Parses a URL (or key=value string) and connects, with the session settings every store
/// connection needs.
fn connect(url: &str) -> Result<(Client, String), StoreError> {
    // The driver's parse errors may quote the text: say only what is expected.
    let mut config: Config = url.parse().map_err(|_| {
        bad_url("not a PostgreSQL URL (postgres://USER@HOST:PORT/DATABASE; the password best from PGPASSWORD or PGPASSFILE)")
    })?;
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(CONNECT_TIMEOUT);
    }
    if config.get_password().is_none()
        && let Some(password) = password_from_env(&config)
    {
        config.password(password);
    }
    config.application_name("solum");
    let location = location_of(&config);
    let mut client = config.connect(NoTls).map_err(|e| {
        if e.code().is_some() {
            map_error(&location, e)
        } else if config.get_password().is_none() && describe(&e).contains("password missing") {
            backend(&location, no_password())
        } else {
            unreachable(&location, &e)
        }
    })?;
    client
        .batch_execute(&format!(
            "SET lock_timeout = {}; SET statement_timeout = {};
             SET default_transaction_isolation = 'read committed';",
            LOCK_TIMEOUT.as_millis(),
            STATEMENT_TIMEOUT.as_millis()
        ))
        .map_err(|e| map_error(&location, e))?;
    Ok((client, location))
}

/// The hosted backend: one connection to a PostgreSQL database, seen through a [`Scope`].
/// Several stores (in several processes) may share one database.
pub struct PostgresStore {
    client: RefCell<Client>,
    /// The connection's prepared statements (the ones every request runs).
    statements: Statements,
    location: String,
    scope: Scope,
    /// A group is open ([`CampaignStore::begin_group`]): a transaction on the connection,
    /// each write under a savepoint of it.
    group: Option<Group>,
    /// Times a group committed early to free its locks after a deadlock (see
    /// [`PostgresStore::write_in_group`]).
    splits: u64,
    /// The last group was lost (rolled back, or its connection gone) before its end:
    /// [`CampaignStore::end_group`] says so.
    lost: bool,
}

/// An open group of writes.
#[derive(Default)]
struct Group {
    /// A statement failed in the group outside a write's savepoint: PostgreSQL has aborted
    /// the group's transaction, and its `COMMIT` would roll it back. The group is lost.
    broken: Cell<bool>,
    /// Writes begun in the group: each write's savepoint has its own name
    /// (`solum_write_N`), kept until the group commits, so an undo names exactly the
    /// failing write's savepoint and can never reach an earlier write's.
    writes: Cell<u64>,
    /// Groups begun inside this one and not ended yet (a use case that groups its own writes,
    /// run in a server's group): their writes commit with this group, at its end.
    inner: Cell<u32>,
}

impl std::fmt::Debug for PostgresStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the URL: it may hold a password.
        f.debug_struct("PostgresStore")
            .field("location", &self.location)
            .field("scope", &self.scope)
            .finish_non_exhaustive()
    }
}

impl PostgresStore {
    /// Connects to the database at `url` (`postgres://USER@HOST:PORT/DATABASE`), creating the
    /// campaign's schema on first use (under an advisory lock, so servers may start
    /// together). A database of another program, or of a newer solum, is refused.
    pub fn open(url: &str) -> Result<Self, StoreError> {
        let (client, location) = connect(url)?;
        let store = Self {
            client: RefCell::new(client),
            statements: Statements::default(),
            location,
            scope: Scope::HOME,
            group: None,
            splits: 0,
            lost: false,
        };
        store.migrate()?;
        Ok(store)
    }

    /// Connects (as [`PostgresStore::open`]) seen through `scope`.
    pub fn open_scoped(url: &str, scope: Scope) -> Result<Self, StoreError> {
        let mut store = Self::open(url)?;
        store.scope = scope;
        Ok(store)
    }

    /// Connects to a database that already holds a campaign, creating nothing: an empty
    /// database is [`StoreError::Missing`]. An older schema is upgraded.
    pub fn open_existing(url: &str) -> Result<Self, StoreError> {
        let (client, location) = connect(url)?;
        let store = Self {
            client: RefCell::new(client),
            statements: Statements::default(),
            location,
            scope: Scope::HOME,
            group: None,
            splits: 0,
            lost: false,
        };
        if store.schema_version()? == 0 {
            return Err(missing(&store.location));
        }
        store.migrate()?;
        Ok(store)
    }

    /// The scope every query is filtered by.
    pub fn scope(&self) -> Scope {
        self.scope
    }

    /// Sees the same connection through another scope (a server reusing a connection for
    /// another member's request).
    pub fn set_scope(&mut self, scope: Scope) {
        self.scope = scope;
    }

    /// Where the database is, as errors name it: `HOST:PORT/DATABASE` (no user, no password).
    pub fn location(&self) -> &str {
        &self.location
    }

    /// The connection is usable and no transaction is open on it (it may be kept for later
    /// work). A connection the server closed is not idle: open another.
    pub fn is_idle(&self) -> bool {
        self.group.is_none() && !self.client.borrow().is_closed()
    }

    /// How many times a group of this connection committed early to free its locks after a
    /// deadlock: tests see the split happen.
    #[doc(hidden)]
    pub fn group_splits(&self) -> u64 {
        self.splits
    }

    /// The schema version of the database (0: no campaign yet).
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        let mut client = self.client.borrow_mut();
        schema_version(&mut *client, &self.location)
    }

    /// The last number of `table`'s journal (0 when empty), every entry counted (secret ones
    /// too): read from the end of the index `journal_by_table_seq`.
    pub fn last_seq(&self, table: i64) -> Result<i64, StoreError> {
        let row = self
            .statements
            .query_one(
                &mut *self.client.borrow_mut(),
                "SELECT COALESCE(MAX(table_seq), 0) FROM journal WHERE table_id = $1",
                &[&table],
            )
            .map_err(|e| self.err(e))?;
        row.try_get(0).map_err(|e| column(&self.location, e))
    }

    fn err(&self, e: postgres::Error) -> StoreError {
        // Outside a write's savepoint, a failed statement aborts an open group's transaction.
        if let Some(group) = &self.group {
            group.broken.set(true);
        }
        map_error(&self.location, e)
    }

    /// Changes how long this connection waits for a lock (tests of a busy database wait less
    /// than [`LOCK_TIMEOUT`]).
    #[doc(hidden)]
    pub fn set_lock_timeout(&mut self, timeout: Duration) -> Result<(), StoreError> {
        self.client
            .borrow_mut()
            .batch_execute(&format!("SET lock_timeout = {}", timeout.as_millis()))
            .map_err(|e| self.err(e))
    }

    /// Brings the schema up to [`SCHEMA_VERSION`], each migration in its own transaction
    /// under the advisory lock: a server that finds the schema current takes no lock.
    fn migrate(&self) -> Result<(), StoreError> {
        let location = self.location.clone();
        let mut client = self.client.borrow_mut();
        let version = schema_version(&mut *client, &location)?;
        if version == SCHEMA_VERSION {
            return Ok(());
        }
        if version > SCHEMA_VERSION {
            return Err(newer_schema(&location, version));
        }
        // A session lock taken before the migration's transaction begins: that transaction
        // then starts after the previous holder's commit and sees its tables (a lock taken
        // inside it could leave the catalog as it was before the wait).
        client
            .execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK])
            .map_err(|e| map_error(&location, e))?;
        let result = migrate_locked(&mut client, &location);
        let unlocked = client.execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK]);
        result?;
        unlocked.map(drop).map_err(|e| map_error(&location, e))
    }
}

/// The migrations still to run, each in its own transaction, under the migration lock.
fn migrate_locked(client: &mut Client, location: &str) -> Result<(), StoreError> {
    loop {
        let mut tx = client.transaction().map_err(|e| map_error(location, e))?;
        // Read under the lock: another server may have migrated meanwhile.
        let version = schema_version(&mut tx, location)?;
        if version > SCHEMA_VERSION {
            return Err(newer_schema(location, version));
        }
        let Some((_, to, sql)) = MIGRATIONS.iter().find(|(from, _, _)| *from == version) else {
            return Ok(());
        };
        if version == 0 {
            let others: i64 = tx
                .query_one(
                    "SELECT count(*) FROM pg_catalog.pg_tables
                     WHERE schemaname = current_schema()",
                    &[],
                )
                .map_err(|e| map_error(location, e))?
                .try_get(0)
                .map_err(|e| column(location, e))?;
            if others > 0 {
                return Err(not_a_campaign(
                    location,
                    "a PostgreSQL database of another program",
                ));
            }
        }
        tx.batch_execute(sql).map_err(|e| map_error(location, e))?;
        tx.execute(
            "INSERT INTO solum_schema (one, version) VALUES (true, $1)
             ON CONFLICT (one) DO UPDATE SET version = excluded.version",
            &[to],
        )
        .map_err(|e| map_error(location, e))?;
        tx.commit().map_err(|e| map_error(location, e))?;
    }
}

/// The stored schema version; 0 when the database has no campaign.
fn schema_version(c: &mut impl GenericClient, location: &str) -> Result<i64, StoreError> {
    let exists: bool = c
        .query_one("SELECT to_regclass('solum_schema') IS NOT NULL", &[])
        .map_err(|e| map_error(location, e))?
        .try_get(0)
        .map_err(|e| column(location, e))?;
    if !exists {
        return Ok(0);
    }
    let row = c
        .query_opt("SELECT version FROM solum_schema", &[])
        .map_err(|e| map_error(location, e))?;
    match row {
        Some(r) => r.try_get(0).map_err(|e| column(location, e)),
        None => Ok(0),
    }
}

// ---------------------------------------------------------------------------------------
// Reading.
// ---------------------------------------------------------------------------------------

/// The latest entries, newest first (by `journal_by_table_seq`, read backwards).
const LAST_ENTRIES: &str = "SELECT table_seq, at, kind, schema, body::text, secret FROM journal
     WHERE table_id = $2 AND (secret = false OR $3) ORDER BY table_seq DESC LIMIT $1";

/// Entries before a point, newest first (by `journal_by_table_seq`, read backwards).
const ENTRIES_BEFORE: &str = "SELECT table_seq, at, kind, schema, body::text, secret FROM journal
     WHERE table_id = $3 AND table_seq < $1 AND (secret = false OR $4)
     ORDER BY table_seq DESC LIMIT $2";

/// Entries after a point, in order (by `journal_by_table_seq`).
const ENTRIES_AFTER: &str = "SELECT table_seq, at, kind, schema, body::text, secret FROM journal
     WHERE table_id = $3 AND table_seq > $1 AND (secret = false OR $4)
     ORDER BY table_seq LIMIT $2";

/// The numbers of [`ENTRIES_AFTER`]'s entries.
const SEQS_AFTER: &str = "SELECT table_seq FROM journal
     WHERE table_id = $3 AND table_seq > $1 AND (secret = false OR $4)
     ORDER BY table_seq LIMIT $2";

/// The numbers of [`ENTRIES_BEFORE`]'s entries.
const SEQS_BEFORE: &str = "SELECT table_seq FROM journal
     WHERE table_id = $3 AND table_seq < $1 AND (secret = false OR $4)
     ORDER BY table_seq DESC LIMIT $2";

/// Entries by their numbers, in order (by `journal_by_table_seq`).
const ENTRIES_AT: &str = "SELECT table_seq, at, kind, schema, body::text, secret FROM journal
     WHERE table_id = $2 AND table_seq = ANY($1) AND (secret = false OR $3)
     ORDER BY table_seq";

/// The latest entry of a kind (by `journal_by_kind`, read backwards).
const LAST_OF_KIND: &str = "SELECT table_seq, at, kind, schema, body::text, secret FROM journal
     WHERE table_id = $2 AND kind = $1 AND (secret = false OR $3)
     ORDER BY table_seq DESC LIMIT 1";

/// A limit as SQL takes it (a `usize` past `i64` is no limit).
fn sql_limit(limit: usize) -> i64 {
    i64::try_from(limit).unwrap_or(i64::MAX)
}

/// Statements a connection keeps prepared at most; past it the cache starts again.
const MAX_STATEMENTS: usize = 64;

/// A connection's prepared statements, by their text. A query given as text is two round
/// trips (PostgreSQL parses and plans it, then runs it) and parsed every time; a kept
/// statement is one, parsed once per connection. A prepared statement is the connection's,
/// not a transaction's: a rollback keeps it.
#[derive(Default)]
struct Statements(RefCell<HashMap<String, Statement>>);

impl Statements {
    /// The statement of `sql` on `c`'s connection, prepared the first time.
    fn get(&self, c: &mut impl GenericClient, sql: &str) -> Result<Statement, postgres::Error> {
        if let Some(kept) = self.0.borrow().get(sql) {
            return Ok(kept.clone());
        }
        let statement = c.prepare(sql)?;
        let mut kept = self.0.borrow_mut();
        if kept.len() >= MAX_STATEMENTS {
            kept.clear();
        }
        kept.insert(sql.to_string(), statement.clone());
        Ok(statement)
    }

    fn query(
        &self,
        c: &mut impl GenericClient,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Vec<Row>, postgres::Error> {
        let statement = self.get(c, sql)?;
        c.query(&statement, params)
    }

    fn query_one(
        &self,
        c: &mut impl GenericClient,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Row, postgres::Error> {
        let statement = self.get(c, sql)?;
        c.query_one(&statement, params)
    }

    fn query_opt(
        &self,
        c: &mut impl GenericClient,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Option<Row>, postgres::Error> {
        let statement = self.get(c, sql)?;
        c.query_opt(&statement, params)
    }

    fn execute(
        &self,
        c: &mut impl GenericClient,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<u64, postgres::Error> {
        let statement = self.get(c, sql)?;
        c.execute(&statement, params)
    }
}

impl PostgresStore {
    /// The numbers `sql` selects (one column).
    fn read_seqs(&self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<Vec<i64>, StoreError> {
        let rows = self
            .statements
            .query(&mut *self.client.borrow_mut(), sql, params)
            .map_err(|e| map_error(&self.location, e))?;
        rows.iter()
            .map(|r| r.try_get(0).map_err(|e| column(&self.location, e)))
            .collect()
    }
}

/// Journal rows of `sql` (columns table_seq, at, kind, schema, body, secret), as entries.
fn read_entries(
    c: &mut impl GenericClient,
    statements: &Statements,
    location: &str,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
) -> Result<Vec<Entry>, StoreError> {
    let rows = statements
        .query(c, sql, params)
        .map_err(|e| map_error(location, e))?;
    rows.iter().map(|r| row_to_entry(location, r)).collect()
}

fn row_to_entry(location: &str, r: &Row) -> Result<Entry, StoreError> {
    let col = |e| column(location, e);
    let seq: i64 = r.try_get(0).map_err(col)?;
    let body: String = r.try_get(4).map_err(col)?;
    let body = serde_json::from_str(&body).map_err(|e| StoreError::Unreadable {
        what: format!("entry {seq}"),
        reason: e.to_string(),
    })?;
    let at: String = r.try_get(1).map_err(col)?;
    Ok(Entry {
        seq,
        at: stored_time(location, &format!("entry {seq}"), &at)?,
        kind: r.try_get(2).map_err(col)?,
        schema: r.try_get(3).map_err(col)?,
        body,
        secret: r.try_get(5).map_err(col)?,
    })
}

const SHEET_COLUMNS: &str = "system, name, schema, version, body::text";

fn row_to_sheet(location: &str, r: &Row) -> Result<Sheet, StoreError> {
    let col = |e| column(location, e);
    let name: String = r.try_get(1).map_err(col)?;
    let body: String = r.try_get(4).map_err(col)?;
    let body = serde_json::from_str(&body).map_err(|e| StoreError::Unreadable {
        what: format!("the sheet of {name}"),
        reason: e.to_string(),
    })?;
    Ok(Sheet {
        system: r.try_get(0).map_err(col)?,
        name,
        schema: r.try_get(2).map_err(col)?,
        version: r.try_get(3).map_err(col)?,
        body,
    })
}

fn get_sheet(
    c: &mut impl GenericClient,
    statements: &Statements,
    location: &str,
    scope: Scope,
    system: &str,
    name: &str,
) -> Result<Option<Sheet>, StoreError> {
    if !storable(name) {
        return Ok(None);
    }
    let key = name_key(name);
    statements
        .query_opt(
            c,
            &format!(
                "SELECT {SHEET_COLUMNS} FROM sheets WHERE table_id = $3 AND system = $1 AND name_key = $2"
            ),
            &[&system, &key, &scope.table],
        )
    .map_err(|e| map_error(location, e))?
    .map(|r| row_to_sheet(location, &r))
    .transpose()
}

fn sheet_body(sheet: &Sheet) -> Result<String, StoreError> {
    let text = sheet.body.to_string();
    if text.len() > MAX_ENTRY_BYTES {
        return Err(StoreError::TooLarge {
            what: "a sheet",
            bytes: text.len(),
            limit: MAX_ENTRY_BYTES,
        });
    }
    Ok(text)
}

// ---------------------------------------------------------------------------------------
// Writing.
// ---------------------------------------------------------------------------------------

/// Locks `table`'s head row (creating it the first time: the journal, like SQLite's, takes
/// entries for a table id without a row in `tables`) and returns the table's last number.
/// Held until the transaction ends: the table's write lock.
fn lock_head(
    tx: &mut impl GenericClient,
    statements: &Statements,
    table: i64,
) -> Result<Head, postgres::Error> {
    // A row lock, not a new version of the row: the append's own update of the head is the
    // one write of it a roll makes.
    let locked = statements.query_opt(
        tx,
        "SELECT last_seq, last_at FROM table_heads WHERE table_id = $1 FOR UPDATE",
        &[&table],
    )?;
    let row = match locked {
        Some(row) => row,
        // The table's first write makes its head (a first write of the same table at once
        // waits on the key, then takes the row as an update).
        None => statements.query_one(
            tx,
            "INSERT INTO table_heads (table_id, last_seq) VALUES ($1, 0)
             ON CONFLICT (table_id) DO UPDATE SET last_seq = table_heads.last_seq
             RETURNING last_seq, last_at",
            &[&table],
        )?,
    };
    Ok(Head {
        last: row.try_get(0)?,
        last_at: row
            .try_get::<_, Option<String>>(1)?
            .and_then(|t| t.parse().ok()),
    })
}

/// A table's head as its write lock found it: its last number and that entry's time.
struct Head {
    last: i64,
    last_at: Option<Timestamp>,
}

/// Opens a write's savepoint in a group and locks `table`'s head row, in one round trip
/// (the simple query protocol sends both statements at once; `savepoint` is our own name
/// and `table` a number, written into the text, never a value from outside). Returns the table's last number. A failure
/// of either leaves the group's transaction aborted, as the two statements sent apart would.
fn savepoint_and_lock_head(
    client: &mut Client,
    savepoint: &str,
    table: i64,
) -> Result<Option<Head>, postgres::Error> {
    let first_row = |messages: &[SimpleQueryMessage]| {
        messages.iter().find_map(|m| match m {
            SimpleQueryMessage::Row(row) => Some(
                row.get(0)
                    .and_then(|last| last.parse().ok())
                    .map(|last| Head {
                        last,
                        last_at: row.get(1).and_then(|t: &str| t.parse().ok()),
                    }),
            ),
            _ => None,
        })
    };
    // As `lock_head`: a row lock, and the row made only by a table's first write.
    let messages = client.simple_query(&format!(
        "SAVEPOINT {savepoint}; \
         SELECT last_seq, last_at FROM table_heads WHERE table_id = {table} FOR UPDATE"
    ))?;
    if let Some(head) = first_row(&messages) {
        // A number PostgreSQL wrote itself: `None` only if not.
        return Ok(head);
    }
    let messages = client.simple_query(&format!(
        "INSERT INTO table_heads (table_id, last_seq) VALUES ({table}, 0) \
         ON CONFLICT (table_id) DO UPDATE SET last_seq = table_heads.last_seq \
         RETURNING last_seq, last_at"
    ))?;
    Ok(first_row(&messages).flatten())
}

/// A write transaction of [`PostgresStore`]: a transaction of its own, or (in a group) the
/// group's transaction under a savepoint, on the connection itself.
struct PgTx<'a, C: GenericClient> {
    tx: RefCell<&'a mut C>,
    statements: &'a Statements,
    location: &'a str,
    scope: Scope,
    /// The table's last number (its head row is locked).
    last: Cell<i64>,
    /// The time of the table's last entry: a table's times never go back.
    last_at: Cell<Option<Timestamp>>,
    /// A statement of this attempt hit a deadlock or serialization failure: run it again.
    conflict: Cell<bool>,
}

impl<C: GenericClient> PgTx<'_, C> {
    /// Maps a driver error, remembering a conflict for the retry loop.
    fn err(&self, e: postgres::Error) -> StoreError {
        if is_conflict(&e) {
            self.conflict.set(true);
        }
        map_error(self.location, e)
    }

    fn get_sheet(&self, system: &str, name: &str) -> Result<Option<Sheet>, StoreError> {
        let mut tx = self.tx.borrow_mut();
        get_sheet(
            &mut **tx,
            self.statements,
            self.location,
            self.scope,
            system,
            name,
        )
    }

    fn read(&self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<Vec<Entry>, StoreError> {
        let rows = self
            .statements
            .query(&mut **self.tx.borrow_mut(), sql, params)
            .map_err(|e| self.err(e))?;
        rows.iter()
            .map(|r| row_to_entry(self.location, r))
            .collect()
    }
}

impl<C: GenericClient> WriteTx for PgTx<'_, C> {
    fn scope(&self) -> Scope {
        self.scope
    }

    fn sheet_names(&self, system: &str) -> Result<Vec<String>, StoreError> {
        let rows = self
            .tx
            .borrow_mut()
            .query(
                "SELECT name FROM sheets WHERE table_id = $1 AND system = $2",
                &[&self.scope.table, &system],
            )
            .map_err(|e| self.err(e))?;
        rows.iter()
            .map(|r| r.try_get(0).map_err(|e| column(self.location, e)))
            .collect()
    }

    fn sheet_owner(&self, system: &str, name: &str) -> Result<Option<i64>, StoreError> {
        if !storable(name) {
            return Ok(None);
        }
        let row = self
            .tx
            .borrow_mut()
            .query_opt(
                "SELECT owner FROM sheets WHERE table_id = $1 AND system = $2 AND name_key = $3",
                &[&self.scope.table, &system, &name_key(name)],
            )
            .map_err(|e| self.err(e))?;
        match row {
            Some(row) => row.try_get(0).map_err(|e| column(self.location, e)),
            None => Ok(None),
        }
    }

    fn sheet(&self, system: &str, name: &str) -> Result<Option<Sheet>, StoreError> {
        self.get_sheet(system, name)
    }

    fn insert_sheet(&mut self, sheet: &Sheet) -> Result<(), StoreError> {
        let body = sheet_body(sheet)?;
        if self.get_sheet(&sheet.system, &sheet.name)?.is_some() {
            return Err(StoreError::NameTaken {
                name: sheet.name.clone(),
            });
        }
        let key = name_key(&sheet.name);
        self.tx
            .borrow_mut()
            .execute(
                "INSERT INTO sheets (system, name, name_key, schema, version, body, table_id, owner)
                 VALUES ($1, $2, $3, $4, 1, $5::text::jsonb, $6, $7)",
                &[
                    &sheet.system,
                    &sheet.name,
                    &key,
                    &sheet.schema,
                    &body,
                    &self.scope.table,
                    &self.scope.member,
                ],
            )
            .map_err(|e| self.err(e))?;
        Ok(())
    }

    fn share_owner(
        &mut self,
        system: &str,
        name: &str,
        owner_system: &str,
    ) -> Result<(), StoreError> {
        let key = name_key(name);
        self.tx
            .borrow_mut()
            .execute(
                "UPDATE sheets SET owner = o.owner FROM sheets o
                 WHERE sheets.table_id = $1 AND sheets.system = $2 AND sheets.name_key = $3
                   AND o.table_id = $1 AND o.system = $4 AND o.name_key = $3",
                &[&self.scope.table, &system, &key, &owner_system],
            )
            .map_err(|e| self.err(e))?;
        Ok(())
    }

    fn update_sheet(
        &mut self,
        system: &str,
        name: &str,
        sheet: &Sheet,
    ) -> Result<Sheet, StoreError> {
        let body = sheet_body(sheet)?;
        let old = self
            .get_sheet(system, name)?
            .ok_or_else(|| StoreError::NoSuchSheet {
                name: name.to_owned(),
            })?;
        let key = name_key(name);
        let new_key = name_key(&sheet.name);
        if new_key != key && self.get_sheet(system, &sheet.name)?.is_some() {
            return Err(StoreError::NameTaken {
                name: sheet.name.clone(),
            });
        }
        let version = old.version.checked_add(1).ok_or_else(|| {
            StoreError::BadRecord(format!("the sheet of {name} has changed too often"))
        })?;
        self.tx
            .borrow_mut()
            .execute(
                "UPDATE sheets SET name = $1, name_key = $2, schema = $3, version = $4,
                     body = $5::text::jsonb
                 WHERE system = $6 AND name_key = $7 AND table_id = $8",
                &[
                    &sheet.name,
                    &new_key,
                    &sheet.schema,
                    &version,
                    &body,
                    &system,
                    &key,
                    &self.scope.table,
                ],
            )
            .map_err(|e| self.err(e))?;
        Ok(Sheet {
            version,
            system: system.to_string(),
            ..sheet.clone()
        })
    }

    fn append(&mut self, entries: &[NewEntry]) -> Result<Vec<Entry>, StoreError> {
        // Who may write in secret is the app's role policy (solum_app::policy).
        // Every body is measured before anything is written.
        let bodies = entries
            .iter()
            .map(|e| {
                let text = e.body.to_string();
                if text.len() > MAX_ENTRY_BYTES {
                    Err(StoreError::TooLarge {
                        what: "an entry",
                        bytes: text.len(),
                        limit: MAX_ENTRY_BYTES,
                    })
                } else {
                    Ok(text)
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        if entries.is_empty() {
            return Ok(Vec::new());
        }
        let mut stored = Vec::with_capacity(entries.len());
        // The table's head row is locked by this transaction: the numbers follow the last
        // committed one, and no other writer of the table commits before this one does.
        let mut last = self.last.get();
        let payload = self.scope.table.to_string();
        for (i, (entry, body)) in entries.iter().zip(&bodies).enumerate() {
            last = last.checked_add(1).ok_or_else(|| {
                StoreError::BadRecord("the table's journal has no number left".into())
            })?;
            // The last entry moves the head and notifies in the same statement: one round
            // trip for an append of one entry (the notification is delivered when the
            // transaction commits, never for a rollback).
            let sql = if i + 1 == entries.len() {
                "WITH appended AS (
                     INSERT INTO journal (at, kind, schema, body, table_id, secret, table_seq)
                     VALUES ($1, $2, $3, $4::text::jsonb, $5, $6, $7)),
                 head AS (UPDATE table_heads SET last_seq = $7, last_at = $1 WHERE table_id = $5)
                 SELECT pg_notify($8, $9)"
            } else {
                "INSERT INTO journal (at, kind, schema, body, table_id, secret, table_seq)
                 VALUES ($1, $2, $3, $4::text::jsonb, $5, $6, $7)"
            };
            let when = self.last_at.get().map_or(entry.at, |l| entry.at.max(l));
            self.last_at.set(Some(when));
            let at = when.to_string();
            let params: [&(dyn ToSql + Sync); 9] = [
                &at,
                &entry.kind,
                &entry.schema,
                body,
                &self.scope.table,
                &self.scope.secret_writes,
                &last,
                &CHANNEL,
                &payload,
            ];
            let used = if i + 1 == entries.len() { 9 } else { 7 };
            self.statements
                .execute(&mut **self.tx.borrow_mut(), sql, &params[..used])
                .map_err(|e| self.err(e))?;
            stored.push(Entry {
                seq: last,
                at: when,
                kind: entry.kind.clone(),
                schema: entry.schema,
                body: entry.body.clone(),
                secret: self.scope.secret_writes,
            });
        }
        self.last.set(last);
        Ok(stored)
    }

    fn last_of_kind(&self, kind: &str) -> Result<Option<Entry>, StoreError> {
        Ok(self
            .read(LAST_OF_KIND, &[&kind, &self.scope.table, &self.scope.gm])?
            .pop())
    }

    fn entries_after(&self, after: i64, limit: usize) -> Result<Vec<Entry>, StoreError> {
        self.read(
            ENTRIES_AFTER,
            &[&after, &sql_limit(limit), &self.scope.table, &self.scope.gm],
        )
    }

    fn reveal(&mut self, seq: i64) -> Result<Entry, StoreError> {
        let found = self
            .tx
            .borrow_mut()
            .query_opt(
                "SELECT seq, at, kind, schema, body::text FROM journal
                 WHERE table_seq = $1 AND table_id = $2 AND secret = true",
                &[&seq, &self.scope.table],
            )
            .map_err(|e| self.err(e))?;
        let Some(row) = found else {
            return Err(StoreError::NotSecret { seq });
        };
        let col = |e| column(self.location, e);
        let global: i64 = row.try_get(0).map_err(col)?;
        let body: String = row.try_get(4).map_err(col)?;
        let added = self
            .tx
            .borrow_mut()
            .execute(
                "INSERT INTO reveals (seq) VALUES ($1) ON CONFLICT (seq) DO NOTHING",
                &[&global],
            )
            .map_err(|e| self.err(e))?;
        if added == 0 {
            return Err(StoreError::RevealedAlready { seq });
        }
        let body = serde_json::from_str(&body).map_err(|e| StoreError::Unreadable {
            what: format!("entry {seq}"),
            reason: e.to_string(),
        })?;
        let at: String = row.try_get(1).map_err(col)?;
        Ok(Entry {
            seq,
            at: stored_time(self.location, &format!("entry {seq}"), &at)?,
            kind: row.try_get(2).map_err(col)?,
            schema: row.try_get(3).map_err(col)?,
            body,
            secret: true,
        })
    }
}

impl StoreHandle for PostgresStore {
    fn scope(&self) -> Scope {
        self.scope
    }

    fn set_scope(&mut self, scope: Scope) {
        self.scope = scope;
    }

    fn location(&self) -> String {
        self.location.clone()
    }

    fn is_idle(&self) -> bool {
        PostgresStore::is_idle(self)
    }

    fn is_closed(&self) -> bool {
        self.client.borrow().is_closed()
    }

    fn is_alive(&self) -> bool {
        // In use by a call of this store: alive as far as this look can tell.
        let Ok(mut client) = self.client.try_borrow_mut() else {
            return true;
        };
        !client.is_closed() && client.is_valid(ALIVE_TIMEOUT).is_ok()
    }

    fn last_seq(&self, table: i64) -> Result<i64, StoreError> {
        PostgresStore::last_seq(self, table)
    }

    /// The sum of every table's last number: it grows with every append committed by any
    /// server, so one look per watcher tells whether to read on.
    fn data_version(&self) -> Result<i64, StoreError> {
        let row = self
            .statements
            .query_one(
                &mut *self.client.borrow_mut(),
                "SELECT COALESCE(SUM(last_seq), 0)::BIGINT FROM table_heads",
                &[],
            )
            .map_err(|e| self.err(e))?;
        row.try_get(0).map_err(|e| column(&self.location, e))
    }
}

impl CampaignStore for PostgresStore {
    fn append(&mut self, entries: &[NewEntry]) -> Result<Vec<Entry>, StoreError> {
        let mut stored = Vec::new();
        self.write(&mut |tx| {
            stored = tx.append(entries)?;
            Ok(())
        })?;
        Ok(stored)
    }

    fn entries_after(&self, after: i64, limit: usize) -> Result<Vec<Entry>, StoreError> {
        read_entries(
            &mut *self.client.borrow_mut(),
            &self.statements,
            &self.location,
            ENTRIES_AFTER,
            &[&after, &sql_limit(limit), &self.scope.table, &self.scope.gm],
        )
    }

    fn entry_count(&self) -> Result<u64, StoreError> {
        let n: i64 = self
            .client
            .borrow_mut()
            .query_one(
                "SELECT count(*) FROM journal WHERE table_id = $1 AND (secret = false OR $2)",
                &[&self.scope.table, &self.scope.gm],
            )
            .map_err(|e| self.err(e))?
            .try_get(0)
            .map_err(|e| column(&self.location, e))?;
        Ok(u64::try_from(n).unwrap_or(0))
    }

    fn last_entries(&self, limit: usize) -> Result<Vec<Entry>, StoreError> {
        let mut out = read_entries(
            &mut *self.client.borrow_mut(),
            &self.statements,
            &self.location,
            LAST_ENTRIES,
            &[&sql_limit(limit), &self.scope.table, &self.scope.gm],
        )?;
        out.reverse();
        Ok(out)
    }

    fn entries_before(&self, before: i64, limit: usize) -> Result<Vec<Entry>, StoreError> {
        read_entries(
            &mut *self.client.borrow_mut(),
            &self.statements,
            &self.location,
            ENTRIES_BEFORE,
            &[
                &before,
                &sql_limit(limit),
                &self.scope.table,
                &self.scope.gm,
            ],
        )
    }

    fn last_of_kind(&self, kind: &str) -> Result<Option<Entry>, StoreError> {
        Ok(read_entries(
            &mut *self.client.borrow_mut(),
            &self.statements,
            &self.location,
            LAST_OF_KIND,
            &[&kind, &self.scope.table, &self.scope.gm],
        )?
        .pop())
    }

    fn seqs_after(&self, after: i64, limit: usize) -> Result<Vec<i64>, StoreError> {
        self.read_seqs(
            SEQS_AFTER,
            &[&after, &sql_limit(limit), &self.scope.table, &self.scope.gm],
        )
    }

    fn seqs_before(&self, before: i64, limit: usize) -> Result<Vec<i64>, StoreError> {
        self.read_seqs(
            SEQS_BEFORE,
            &[
                &before,
                &sql_limit(limit),
                &self.scope.table,
                &self.scope.gm,
            ],
        )
    }

    fn entries_at(&self, seqs: &[i64]) -> Result<Vec<Entry>, StoreError> {
        if seqs.is_empty() {
            return Ok(Vec::new());
        }
        read_entries(
            &mut *self.client.borrow_mut(),
            &self.statements,
            &self.location,
            ENTRIES_AT,
            &[&seqs, &self.scope.table, &self.scope.gm],
        )
    }

    fn meta(&self, key: &str) -> Result<Option<String>, StoreError> {
        let key = meta_key(self.scope, key);
        self.statements
            .query_opt(
                &mut *self.client.borrow_mut(),
                "SELECT value FROM meta WHERE key = $1",
                &[&key],
            )
            .map_err(|e| self.err(e))?
            .map(|r| r.try_get(0).map_err(|e| column(&self.location, e)))
            .transpose()
    }

    fn set_meta(&mut self, key: &str, value: &str) -> Result<(), StoreError> {
        // Who may change a setting is the app's role policy (solum_app::policy).
        let key = meta_key(self.scope, key);
        self.client
            .borrow_mut()
            .execute(
                "INSERT INTO meta (key, value) VALUES ($1, $2)
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                &[&key, &value],
            )
            .map_err(|e| self.err(e))?;
        Ok(())
    }

    fn check_integrity(&self) -> Result<(), StoreError> {
        match self.integrity_problems()?.into_iter().next() {
            None => Ok(()),
            Some(problem) => Err(StoreError::BadPath {
                location: self.location.to_string(),
                reason: format!("the integrity check failed: {problem}"),
            }),
        }
    }

    fn integrity_problems(&self) -> Result<Vec<String>, StoreError> {
        let mut problems = Vec::new();
        let mut client = self.client.borrow_mut();
        for (query, describe) in INTEGRITY_CHECKS {
            let limit = sql_limit(MAX_INTEGRITY_PROBLEMS.saturating_sub(problems.len()));
            if limit == 0 {
                break;
            }
            let rows = client
                .query(*query, &[&limit])
                .map_err(|e| map_error(&self.location, e))?;
            for r in rows {
                let a: i64 = r.try_get(0).map_err(|e| column(&self.location, e))?;
                let b: i64 = r.try_get(1).map_err(|e| column(&self.location, e))?;
                problems.push(describe(a, b));
            }
        }
        problems.truncate(MAX_INTEGRITY_PROBLEMS);
        Ok(problems)
    }

    fn sees_every_entry(&self) -> bool {
        self.scope.gm
    }

    fn sheet(&self, system: &str, name: &str) -> Result<Option<Sheet>, StoreError> {
        get_sheet(
            &mut *self.client.borrow_mut(),
            &self.statements,
            &self.location,
            self.scope,
            system,
            name,
        )
    }

    fn sheets(&self, system: &str) -> Result<Vec<Sheet>, StoreError> {
        let rows = self
            .statements
            .query(
                &mut *self.client.borrow_mut(),
                &format!(
                    "SELECT {SHEET_COLUMNS} FROM sheets WHERE system = $1 AND table_id = $2
                     ORDER BY name_key COLLATE \"C\""
                ),
                &[&system, &self.scope.table],
            )
            .map_err(|e| self.err(e))?;
        rows.iter()
            .map(|r| row_to_sheet(&self.location, r))
            .collect()
    }

    fn write(
        &mut self,
        work: &mut dyn FnMut(&mut dyn WriteTx) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        if self.group.is_some() {
            return self.write_in_group(work);
        }
        let location = self.location.as_str();
        let scope = self.scope;
        let statements = &self.statements;
        let mut client = self.client.borrow_mut();
        for _ in 0..MAX_ATTEMPTS {
            let mut tx = client.transaction().map_err(|e| map_error(location, e))?;
            let head = match lock_head(&mut tx, statements, scope.table) {
                Ok(head) => head,
                Err(e) if is_conflict(&e) => continue,
                Err(e) => return Err(map_error(location, e)),
            };
            // The write's view of the transaction ends before the transaction does.
            let (result, conflict) = {
                let mut ptx = PgTx {
                    tx: RefCell::new(&mut tx),
                    statements,
                    location,
                    scope,
                    last: Cell::new(head.last),
                    last_at: Cell::new(head.last_at),
                    conflict: Cell::new(false),
                };
                let result = work(&mut ptx);
                (result, ptx.conflict.get())
            };
            match result {
                Ok(()) => match tx.commit() {
                    Ok(()) => return Ok(()),
                    Err(e) if is_conflict(&e) => {}
                    Err(e) => return Err(map_error(location, e)),
                },
                Err(e) => {
                    // Dropping the transaction rolls it back; say so, to free its locks now.
                    let _ = tx.rollback();
                    if !conflict {
                        return Err(e);
                    }
                }
            }
        }
        Err(busy(location))
    }

    /// Opens a group: one transaction on the connection, committed at
    /// [`CampaignStore::end_group`]; each write in it runs under a savepoint (all or nothing on
    /// its own). The group holds the head lock of every table it wrote until it commits, so a
    /// server's writer runs a group's writes in the order of their tables (two servers' groups
    /// then take their locks in one order and cannot deadlock; a deadlock all the same splits
    /// the group, see `write_in_group`). A group already open is rolled back first (its
    /// writes were answered as lost when it broke).
    fn begin_group(&mut self) -> Result<(), StoreError> {
        if let Some(group) = &self.group {
            // A group inside the open one: it neither begins nor commits anything of its
            // own (beginning afresh would roll back the writes already in the group).
            group.inner.set(group.inner.get().saturating_add(1));
            return Ok(());
        }
        self.lost = false;
        self.client
            .get_mut()
            .batch_execute("BEGIN")
            .map_err(|e| map_error(&self.location, e))?;
        self.group = Some(Group::default());
        Ok(())
    }

    /// Commits the open group. A group whose transaction PostgreSQL aborted (a statement
    /// failed outside a write) is rolled back and answered as an error: `COMMIT` would have
    /// rolled it back silently.
    fn end_group(&mut self) -> Result<(), StoreError> {
        if let Some(group) = &self.group
            && group.inner.get() > 0
        {
            // An inner group: its writes commit with the outer one.
            group.inner.set(group.inner.get() - 1);
            return Ok(());
        }
        let Some(group) = self.group.take() else {
            if std::mem::take(&mut self.lost) {
                return Err(backend(
                    &self.location,
                    "a group of writes was lost before its end (rolled back)".into(),
                ));
            }
            return Ok(());
        };
        let client = self.client.get_mut();
        let healthy = !group.broken.get() && client.batch_execute("SELECT 1").is_ok();
        if !healthy {
            let _ = client.batch_execute("ROLLBACK");
            return Err(backend(
                &self.location,
                "a group of writes was rolled back (a statement in it failed)".into(),
            ));
        }
        client
            .batch_execute("COMMIT")
            .map_err(|e| map_error(&self.location, e))
    }
}

impl PostgresStore {
    /// [`CampaignStore::write`] inside the open group: under a savepoint, so a failed write
    /// is undone alone and the group goes on. A deadlock or serialization failure undoes the
    /// write, commits the group's earlier writes (their locks are what the other transaction
    /// waits for; they are answered when the whole group is), opens the group again and runs
    /// the write again: nothing acknowledged is lost or written twice. A group that cannot
    /// go on (its savepoint, release or early commit failed) is lost: the store is then idle
    /// and the writer answers the group's writes as not kept.
    fn write_in_group(
        &mut self,
        work: &mut dyn FnMut(&mut dyn WriteTx) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let location = self.location.as_str();
        let scope = self.scope;
        let statements = &self.statements;
        let client = self.client.get_mut();
        // The group is lost: roll it back and leave the connection idle (the writer sees
        // that), and its end says so.
        let lose = |client: &mut Client,
                    group: &mut Option<Group>,
                    lost: &mut bool,
                    e: StoreError|
         -> Result<(), StoreError> {
            *group = None;
            *lost = true;
            let _ = client.batch_execute("ROLLBACK");
            Err(e)
        };
        if self.group.as_ref().is_none_or(|g| g.broken.get()) {
            return lose(
                client,
                &mut self.group,
                &mut self.lost,
                backend(location, "a statement of the group failed".into()),
            );
        }
        for _ in 0..MAX_ATTEMPTS {
            let n = self.group.as_ref().map_or(0, |g| {
                let n = g.writes.get().wrapping_add(1);
                g.writes.set(n);
                n
            });
            let savepoint = format!("solum_write_{n}");
            let (result, conflict) = match savepoint_and_lock_head(client, &savepoint, scope.table)
            {
                Ok(Some(head)) => {
                    let mut ptx = PgTx {
                        tx: RefCell::new(&mut *client),
                        statements,
                        location,
                        scope,
                        last: Cell::new(head.last),
                        last_at: Cell::new(head.last_at),
                        conflict: Cell::new(false),
                    };
                    let result = work(&mut ptx);
                    let conflict = ptx.conflict.get();
                    (result, conflict)
                }
                Ok(None) => (
                    Err(backend(
                        location,
                        "the table's head row was not returned".into(),
                    )),
                    false,
                ),
                Err(e) => {
                    let conflict = is_conflict(&e);
                    (Err(map_error(location, e)), conflict)
                }
            };
            match result {
                // The write's savepoint stays until the group commits (one round trip
                // fewer a write); the next write's nests in it under its own name.
                Ok(()) => return Ok(()),
                Err(e) => {
                    // Fails when the savepoint was never made (the group was aborted
                    // before it): the group is then lost, never an earlier write undone.
                    if let Err(undo) = client.batch_execute(&format!(
                        "ROLLBACK TO SAVEPOINT {savepoint}; RELEASE SAVEPOINT {savepoint}"
                    )) {
                        return lose(
                            client,
                            &mut self.group,
                            &mut self.lost,
                            map_error(location, undo),
                        );
                    }
                    if !conflict {
                        return Err(e);
                    }
                    // Free the locks the other transaction waits for: commit what the group
                    // wrote so far and open it again.
                    if let Err(e) = client.batch_execute("COMMIT; BEGIN") {
                        return lose(
                            client,
                            &mut self.group,
                            &mut self.lost,
                            map_error(location, e),
                        );
                    }
                    self.splits = self.splits.saturating_add(1);
                }
            }
        }
        Err(busy(location))
    }
}

/// A setting's key: table 0's are the campaign's own, another table's are prefixed.
fn meta_key(scope: Scope, key: &str) -> String {
    if scope.table == 0 {
        key.to_string()
    } else {
        format!("table/{}/{key}", scope.table)
    }
}

type Describe = fn(i64, i64) -> String;

/// The consistency checks of [`CampaignStore::integrity_problems`]: each query takes a limit
/// and returns two numbers a problem is told by. PostgreSQL keeps its own pages and foreign
/// keys sound; these find what another program (or a disabled trigger) could break.
const INTEGRITY_CHECKS: &[(&str, Describe)] = &[
    (
        "SELECT table_id, count(*) FROM journal GROUP BY table_id
         HAVING count(*) <> max(table_seq) OR min(table_seq) <> 1 LIMIT $1",
        |t, n| format!("journal numbering: table {t}'s {n} entries are not numbered 1 to {n}"),
    ),
    (
        "SELECT j.table_id, max(j.table_seq) FROM journal j
         LEFT JOIN table_heads h ON h.table_id = j.table_id
         GROUP BY j.table_id, h.last_seq HAVING h.last_seq IS DISTINCT FROM max(j.table_seq)
         LIMIT $1",
        |t, n| format!("journal numbering: table {t}'s head does not hold its last number {n}"),
    ),
    (
        "SELECT s.id, s.table_id FROM sheets s LEFT JOIN tables t ON t.id = s.table_id
         WHERE t.id IS NULL LIMIT $1",
        |id, _| {
            format!(
                "foreign key check: a row of sheets (id {id}) points to a missing row of tables"
            )
        },
    ),
    (
        "SELECT s.id, s.owner FROM sheets s LEFT JOIN members m ON m.id = s.owner
         WHERE s.owner IS NOT NULL AND m.id IS NULL LIMIT $1",
        |id, _| {
            format!(
                "foreign key check: a row of sheets (id {id}) points to a missing row of members"
            )
        },
    ),
    (
        "SELECT m.id, m.table_id FROM members m LEFT JOIN tables t ON t.id = m.table_id
         WHERE t.id IS NULL LIMIT $1",
        |id, _| {
            format!(
                "foreign key check: a row of members (id {id}) points to a missing row of tables"
            )
        },
    ),
    (
        "SELECT i.id, i.table_id FROM invites i LEFT JOIN tables t ON t.id = i.table_id
         WHERE t.id IS NULL LIMIT $1",
        |id, _| {
            format!(
                "foreign key check: a row of invites (id {id}) points to a missing row of tables"
            )
        },
    ),
    (
        "SELECT i.id, i.used_by FROM invites i LEFT JOIN members m ON m.id = i.used_by
         WHERE i.used_by IS NOT NULL AND m.id IS NULL LIMIT $1",
        |id, _| {
            format!(
                "foreign key check: a row of invites (id {id}) points to a missing row of members"
            )
        },
    ),
    (
        "SELECT s.member_id, 0::bigint FROM sessions s LEFT JOIN members m ON m.id = s.member_id
         WHERE m.id IS NULL LIMIT $1",
        |id, _| {
            format!(
                "foreign key check: a row of sessions (member {id}) points to a missing row of members"
            )
        },
    ),
    (
        "SELECT r.seq, 0::bigint FROM reveals r LEFT JOIN journal j ON j.seq = r.seq
         WHERE j.seq IS NULL LIMIT $1",
        |seq, _| {
            format!(
                "foreign key check: a row of reveals (seq {seq}) points to a missing row of journal"
            )
        },
    ),
];

// ---------------------------------------------------------------------------------------
// Tables, members, invites, sessions.
// ---------------------------------------------------------------------------------------

const MEMBER_COLUMNS: &str = "m.id, m.table_id, t.name, m.name, m.role = 'gm' FROM members m JOIN tables t ON t.id = m.table_id";

fn row_to_member(location: &str, r: &Row) -> Result<Member, StoreError> {
    let col = |e| column(location, e);
    Ok(Member {
        id: r.try_get(0).map_err(col)?,
        table: r.try_get(1).map_err(col)?,
        table_name: r.try_get(2).map_err(col)?,
        name: r.try_get(3).map_err(col)?,
        gm: r.try_get(4).map_err(col)?,
    })
}

fn role(gm: bool) -> &'static str {
    if gm { "gm" } else { "player" }
}

fn member_by_id(c: &mut impl GenericClient, location: &str, id: i64) -> Result<Member, StoreError> {
    let row = c
        .query_one(&format!("SELECT {MEMBER_COLUMNS} WHERE m.id = $1"), &[&id])
        .map_err(|e| map_error(location, e))?;
    row_to_member(location, &row)
}

fn one_i64(location: &str, row: &Row) -> Result<i64, StoreError> {
    row.try_get(0).map_err(|e| column(location, e))
}

/// Runs `work` in a transaction, again on a deadlock or serialization failure (at most
/// [`MAX_ATTEMPTS`] times, then busy).
fn with_retries<T>(
    client: &mut Client,
    location: &str,
    mut work: impl FnMut(&mut Transaction<'_>) -> Result<T, postgres::Error>,
) -> Result<T, StoreError> {
    for _ in 0..MAX_ATTEMPTS {
        let mut tx = client.transaction().map_err(|e| map_error(location, e))?;
        match work(&mut tx).and_then(|v| tx.commit().map(|()| v)) {
            Ok(v) => return Ok(v),
            Err(e) if is_conflict(&e) => {}
            Err(e) => return Err(map_error(location, e)),
        }
    }
    Err(busy(location))
}

impl TableStore for PostgresStore {
    fn create_table(
        &mut self,
        name: &str,
        gm_name: &str,
        gm_key: &str,
        session_hash: &str,
        at: Timestamp,
    ) -> Result<Member, StoreError> {
        let location = self.location.clone();
        let (at, last_used) = (at.to_string(), at.as_second());
        let member = with_retries(&mut self.client.borrow_mut(), &location, |tx| {
            let table: i64 = tx
                .query_one(
                    "INSERT INTO tables (name, created) VALUES ($1, $2) RETURNING id",
                    &[&name, &at],
                )?
                .try_get(0)?;
            tx.execute(
                "INSERT INTO table_heads (table_id, last_seq) VALUES ($1, 0)
                 ON CONFLICT (table_id) DO NOTHING",
                &[&table],
            )?;
            let member: i64 = tx
                .query_one(
                    "INSERT INTO members (table_id, name, role, joined, name_key)
                     VALUES ($1, $2, 'gm', $3, $4) RETURNING id",
                    &[&table, &gm_name, &at, &gm_key],
                )?
                .try_get(0)?;
            tx.execute(
                "INSERT INTO sessions (token_hash, member_id, created, last_used)
                 VALUES ($1, $2, $3, $4)",
                &[&session_hash, &member, &at, &last_used],
            )?;
            Ok(member)
        })?;
        member_by_id(&mut *self.client.borrow_mut(), &location, member)
    }

    fn add_session(
        &mut self,
        table: i64,
        member: i64,
        session_hash: &str,
        at: Timestamp,
    ) -> Result<Option<Member>, StoreError> {
        let location = self.location.clone();
        let (at, last_used) = (at.to_string(), at.as_second());
        let added = with_retries(&mut self.client.borrow_mut(), &location, |tx| {
            tx.execute(
                "INSERT INTO sessions (token_hash, member_id, created, last_used)
                 SELECT $1, m.id, $3, $4 FROM members m WHERE m.id = $2 AND m.table_id = $5",
                &[&session_hash, &member, &at, &last_used, &table],
            )
        })?;
        if added == 0 {
            return Ok(None);
        }
        member_by_id(&mut *self.client.borrow_mut(), &location, member).map(Some)
    }

    fn create_table_with_invite(
        &mut self,
        name: &str,
        token_hash: &str,
        at: Timestamp,
        expires: Timestamp,
    ) -> Result<(i64, i64), StoreError> {
        let (at, expires) = (at.to_string(), expires.as_second());
        let location = self.location.clone();
        with_retries(&mut self.client.borrow_mut(), &location, |tx| {
            let table: i64 = tx
                .query_one(
                    "INSERT INTO tables (name, created) VALUES ($1, $2) RETURNING id",
                    &[&name, &at],
                )?
                .try_get(0)?;
            tx.execute(
                "INSERT INTO table_heads (table_id, last_seq) VALUES ($1, 0)
                 ON CONFLICT (table_id) DO NOTHING",
                &[&table],
            )?;
            let invite: i64 = tx
                .query_one(
                    "INSERT INTO invites (token_hash, table_id, role, created, expires)
                     VALUES ($1, $2, $3, $4, $5) RETURNING id",
                    &[&token_hash, &table, &role(true), &at, &expires],
                )?
                .try_get(0)?;
            Ok((table, invite))
        })
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
        let (at, expires) = (at.to_string(), expires.as_second());
        let location = self.location.clone();
        let row = with_retries(&mut self.client.borrow_mut(), &location, |tx| {
            if others == OtherInvites::Revoked {
                // The table's row is locked: a replacement made meanwhile by another server
                // waits, then revokes this one's invite (under READ COMMITTED, an update
                // would not see a row inserted after it began).
                tx.execute("SELECT 1 FROM tables WHERE id = $1 FOR UPDATE", &[&table])?;
                tx.execute(
                    "UPDATE invites SET revoked = true
                     WHERE table_id = $1 AND role = $2 AND used_by IS NULL AND NOT revoked",
                    &[&table, &role(gm)],
                )?;
            }
            tx.query_one(
                "INSERT INTO invites (token_hash, table_id, role, created, expires)
                 VALUES ($1, $2, $3, $4, $5) RETURNING id",
                &[&token_hash, &table, &role(gm), &at, &expires],
            )
        })?;
        one_i64(&self.location, &row)
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
        let location = self.location.clone();
        let (at, last_used, now) = (at.to_string(), at.as_second(), now.as_second());
        // Joined carries the new member's id; the member is read after the commit.
        enum Step {
            Done(Redeemed),
            Joined(i64),
        }
        let statements = &self.statements;
        let step = with_retries(&mut self.client.borrow_mut(), &location, |tx| {
            // The invite's row is locked: two uses of one invite queue, the second finds it
            // used.
            let Some(invite) = tx.query_opt(
                "SELECT table_id, role, used_by, revoked, expires FROM invites
                 WHERE token_hash = $1 FOR UPDATE",
                &[&token_hash],
            )?
            else {
                return Ok(Step::Done(Redeemed::Unknown));
            };
            let table: i64 = invite.try_get(0)?;
            let role: String = invite.try_get(1)?;
            let used_by: Option<i64> = invite.try_get(2)?;
            let revoked: bool = invite.try_get(3)?;
            let expires: i64 = invite.try_get(4)?;
            if used_by.is_some() {
                return Ok(Step::Done(Redeemed::Used));
            }
            if revoked {
                return Ok(Step::Done(Redeemed::Revoked {
                    table,
                    gm: role == "gm",
                }));
            }
            if now >= expires {
                return Ok(Step::Done(Redeemed::Expired(
                    Timestamp::from_second(expires).unwrap_or(Timestamp::MAX),
                )));
            }
            // The table's write lock: two new members of one table compare names one after
            // the other.
            lock_head(tx, statements, table)?;
            if let Some(taken) = tx.query_opt(
                "SELECT name FROM members WHERE table_id = $1 AND name_key = $2 ORDER BY id
                 LIMIT 1",
                &[&table, &name_key],
            )? {
                return Ok(Step::Done(Redeemed::NameTaken(taken.try_get(0)?)));
            }
            let member: i64 = tx
                .query_one(
                    "INSERT INTO members (table_id, name, role, joined, name_key)
                     VALUES ($1, $2, $3, $4, $5) RETURNING id",
                    &[&table, &name, &role, &at, &name_key],
                )?
                .try_get(0)?;
            tx.execute(
                "UPDATE invites SET used_by = $1 WHERE token_hash = $2",
                &[&member, &token_hash],
            )?;
            tx.execute(
                "INSERT INTO sessions (token_hash, member_id, created, last_used)
                 VALUES ($1, $2, $3, $4)",
                &[&session_hash, &member, &at, &last_used],
            )?;
            Ok(Step::Joined(member))
        })?;
        match step {
            Step::Done(r) => Ok(r),
            Step::Joined(id) => Ok(Redeemed::Joined(member_by_id(
                &mut *self.client.borrow_mut(),
                &location,
                id,
            )?)),
        }
    }

    fn invites(&self, table: i64) -> Result<Vec<InviteRow>, StoreError> {
        let rows = self
            .client
            .borrow_mut()
            .query(
                "SELECT id, role = 'gm', created, expires, used_by, revoked FROM invites
                 WHERE table_id = $1 ORDER BY id",
                &[&table],
            )
            .map_err(|e| self.err(e))?;
        let col = |e| column(&self.location, e);
        rows.iter()
            .map(|r| {
                let created: String = r.try_get(2).map_err(col)?;
                let expires: i64 = r.try_get(3).map_err(col)?;
                Ok(InviteRow {
                    id: r.try_get(0).map_err(col)?,
                    gm: r.try_get(1).map_err(col)?,
                    created: stored_time(&self.location, "an invite", &created)?,
                    expires: unix_time(&self.location, "an invite's expiry", expires)?,
                    used_by: r.try_get(4).map_err(col)?,
                    revoked: r.try_get(5).map_err(col)?,
                })
            })
            .collect()
    }

    fn revoke_invite(&mut self, table: i64, id: i64) -> Result<bool, StoreError> {
        self.client
            .borrow_mut()
            .execute(
                "UPDATE invites SET revoked = true
                 WHERE id = $1 AND table_id = $2 AND used_by IS NULL AND NOT revoked",
                &[&id, &table],
            )
            .map(|n| n > 0)
            .map_err(|e| self.err(e))
    }

    fn session_member(
        &self,
        session_hash: &str,
        now: Timestamp,
        idle: SignedDuration,
    ) -> Result<Option<Member>, StoreError> {
        let (now, idle) = (now.as_second(), idle.as_secs());
        let mut client = self.client.borrow_mut();
        let found = self
            .statements
            .query_opt(
                &mut *client,
                "SELECT m.id, m.table_id, t.name, m.name, m.role = 'gm', s.last_used
                 FROM sessions s JOIN members m ON m.id = s.member_id
                 JOIN tables t ON t.id = m.table_id
                 WHERE s.token_hash = $1 AND s.last_used >= $2",
                &[&session_hash, &now.saturating_sub(idle)],
            )
            .map_err(|e| map_error(&self.location, e))?;
        let Some(row) = found else {
            return Ok(None);
        };
        let member = row_to_member(&self.location, &row)?;
        let last_used: i64 = row.try_get(5).map_err(|e| column(&self.location, e))?;
        if last_used < now.saturating_sub(SESSION_TOUCH.as_secs()) {
            // A busy database only delays the mark to a later request: the session is
            // valid either way, so a failed mark does not fail the request.
            let _ = client.execute(
                "UPDATE sessions SET last_used = $2 WHERE token_hash = $1",
                &[&session_hash, &now],
            );
        }
        Ok(Some(member))
    }

    /// Deletes the session and, in the same statement, tells every server
    /// ([`SESSION_CHANNEL`], the token's hash as the payload; delivered on commit) so that
    /// none goes on trusting it from a cache.
    fn end_session(&mut self, session_hash: &str) -> Result<bool, StoreError> {
        self.client
            .borrow_mut()
            .query(
                "WITH ended AS (DELETE FROM sessions WHERE token_hash = $1 RETURNING token_hash)
                 SELECT pg_notify($2, token_hash) FROM ended",
                &[&session_hash, &SESSION_CHANNEL],
            )
            .map(|rows| !rows.is_empty())
            .map_err(|e| self.err(e))
    }

    fn members(&self) -> Result<Vec<Member>, StoreError> {
        let rows = self
            .statements
            .query(
                &mut *self.client.borrow_mut(),
                &format!("SELECT {MEMBER_COLUMNS} WHERE m.table_id = $1 ORDER BY m.id"),
                &[&self.scope.table],
            )
            .map_err(|e| self.err(e))?;
        rows.iter()
            .map(|r| row_to_member(&self.location, r))
            .collect()
    }

    fn tables(&self) -> Result<Vec<solum_store::TableRow>, StoreError> {
        let rows = self
            .statements
            .query(
                &mut *self.client.borrow_mut(),
                "SELECT t.id, t.name, (SELECT count(*) FROM members m WHERE m.table_id = t.id)
                 FROM tables t ORDER BY t.id",
                &[],
            )
            .map_err(|e| self.err(e))?;
        rows.iter()
            .map(|r| {
                Ok(solum_store::TableRow {
                    id: r.try_get(0).map_err(|e| column(&self.location, e))?,
                    name: r.try_get(1).map_err(|e| column(&self.location, e))?,
                    members: r
                        .try_get::<_, i64>(2)
                        .map_err(|e| column(&self.location, e))?
                        .try_into()
                        .unwrap_or(0),
                })
            })
            .collect()
    }

    fn sheet_owner(&self, system: &str, name: &str) -> Result<Option<i64>, StoreError> {
        if !storable(name) {
            return Ok(None);
        }
        let key = name_key(name);
        let row = self
            .statements
            .query_opt(
                &mut *self.client.borrow_mut(),
                "SELECT owner FROM sheets WHERE table_id = $1 AND system = $2 AND name_key = $3",
                &[&self.scope.table, &system, &key],
            )
            .map_err(|e| self.err(e))?;
        match row {
            Some(r) => r.try_get(0).map_err(|e| column(&self.location, e)),
            None => Ok(None),
        }
    }

    fn sheet_owners(&self, system: &str) -> Result<Vec<(String, Option<i64>)>, StoreError> {
        let rows = self
            .statements
            .query(
                &mut *self.client.borrow_mut(),
                "SELECT name, owner FROM sheets WHERE table_id = $1 AND system = $2",
                &[&self.scope.table, &system],
            )
            .map_err(|e| self.err(e))?;
        rows.iter()
            .map(|r| {
                let col = |e| column(&self.location, e);
                Ok((r.try_get(0).map_err(col)?, r.try_get(1).map_err(col)?))
            })
            .collect()
    }
}

/// A time stored as RFC 3339 text, read back typed.
fn stored_time(location: &str, what: &str, text: &str) -> Result<Timestamp, StoreError> {
    text.parse().map_err(|e| StoreError::Unreadable {
        what: format!("the time of {what} in {location}"),
        reason: format!("{text:?} is not an RFC 3339 time: {e}"),
    })
}

/// A time stored as Unix seconds, read back typed.
fn unix_time(location: &str, what: &str, seconds: i64) -> Result<Timestamp, StoreError> {
    Timestamp::from_second(seconds).map_err(|e| StoreError::Unreadable {
        what: format!("{what} in {location}"),
        reason: format!("{seconds} is no time: {e}"),
    })
}

// ---------------------------------------------------------------------------------------
// The change feed.
// ---------------------------------------------------------------------------------------

/// What a [`ChangeListener`] is told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// The table (by id) has new entries.
    Table(i64),
    /// The session whose token hashes to this (hexadecimal SHA-256) ended.
    SessionEnded(String),
}

/// One connection listening on [`CHANNEL`] and [`SESSION_CHANNEL`]: yields the id of each
/// table whose journal gained entries, once per committed transaction that appended to it,
/// after its commit, and each session ended. One per server: the live path reads the new
/// entries of the tables it is told of, and forgets the sessions ended.
pub struct ChangeListener {
    client: Client,
    location: String,
}

impl std::fmt::Debug for ChangeListener {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChangeListener")
            .field("location", &self.location)
            .finish_non_exhaustive()
    }
}

impl ChangeListener {
    /// Connects to the database at `url` and listens. Appends committed before this returns
    /// are not told: read up to the tables' current numbers after connecting.
    pub fn connect(url: &str) -> Result<Self, StoreError> {
        let (mut client, location) = connect(url)?;
        client
            .batch_execute(&format!("LISTEN {CHANNEL}; LISTEN {SESSION_CHANNEL}"))
            .map_err(|e| map_error(&location, e))?;
        Ok(Self { client, location })
    }

    /// The next table id told, waiting at most `timeout`; none when nothing came in time
    /// (sessions ended meanwhile are skipped: see [`ChangeListener::next_change`]).
    /// A closed connection is an error: connect again and catch up by the tables' numbers.
    pub fn next_timeout(&mut self, timeout: Duration) -> Result<Option<i64>, StoreError> {
        loop {
            match self.next_change(timeout)? {
                Some(Change::Table(table)) => return Ok(Some(table)),
                Some(Change::SessionEnded(_)) => {}
                None => return Ok(None),
            }
        }
    }

    /// The next change told (a table's new entries, or a session ended), waiting at most
    /// `timeout`; none when nothing came in time. A closed connection is an error: connect
    /// again, catch up by the tables' numbers and forget every session trusted meanwhile.
    pub fn next_change(&mut self, timeout: Duration) -> Result<Option<Change>, StoreError> {
        let location = self.location.clone();
        loop {
            let got = self
                .client
                .notifications()
                .timeout_iter(timeout)
                .next()
                .map_err(|e| map_error(&location, e))?;
            let Some(n) = got else {
                if self.client.is_closed() {
                    return Err(backend(
                        &location,
                        "cannot reach the database (the listening connection closed)".into(),
                    ));
                }
                return Ok(None);
            };
            if n.channel() == SESSION_CHANNEL {
                // A token's hash: 64 hexadecimal digits; anything else is not ours.
                let hash = n.payload();
                if hash.len() == 64 && hash.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return Ok(Some(Change::SessionEnded(hash.to_string())));
                }
                continue;
            }
            if n.channel() != CHANNEL {
                continue;
            }
            // Another program's payload on the channel is not a table: skip it.
            if let Ok(table) = n.payload().parse::<i64>() {
                return Ok(Some(Change::Table(table)));
            }
        }
    }

    /// Where the database is (`HOST:PORT/DATABASE`).
    pub fn location(&self) -> &str {
        &self.location
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_file_is_read_as_libpq_reads_it() {
        let text =
            "# comment\nother:5432:*:ann:nope\ndb.internal:5432:club:ann:s3c\\:ret\n*:*:*:*:any\n";
        assert_eq!(
            pgpass_lookup(text, ["db.internal", "5432", "club", "ann"]).as_deref(),
            Some("s3c:ret")
        );
        assert_eq!(
            pgpass_lookup(text, ["x", "1", "y", "z"]).as_deref(),
            Some("any")
        );
        assert_eq!(pgpass_lookup("a:b:c\n", ["a", "b", "c", "d"]), None);
    }

    #[cfg(unix)]
    #[test]
    fn a_password_file_others_may_read_is_not_used() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("pgpass");
        std::fs::write(&file, "db.internal:5432:club:ann:s3cret\n").unwrap();
        let config: Config = "postgres://ann@db.internal:5432/club".parse().unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert_eq!(
            password_from(None, Some(file.clone()), &config).as_deref(),
            Some("s3cret")
        );
        // PGPASSWORD first.
        assert_eq!(
            password_from(Some("env".into()), Some(file.clone()), &config).as_deref(),
            Some("env")
        );
        for mode in [0o640, 0o604, 0o644] {
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(mode)).unwrap();
            assert_eq!(
                password_from(None, Some(file.clone()), &config),
                None,
                "{mode:o}"
            );
        }
    }

    #[test]
    fn a_location_names_no_user_or_password() {
        let c: Config = "postgres://alice:s3cret@db.example:6543/club"
            .parse()
            .unwrap();
        assert_eq!(location_of(&c), "db.example:6543/club");
        let c: Config = "postgres://bob@localhost".parse().unwrap();
        assert_eq!(location_of(&c), "localhost:5432/bob");
    }
}

#[cfg(test)]
mod db_tests {
    use super::*;
    use solum_testpg::TestPostgres;

    fn database() -> String {
        let server = TestPostgres::shared().unwrap_or_else(|e| panic!("{e}"));
        server.database("unit").unwrap_or_else(|e| panic!("{e}"))
    }

    /// The statements a request runs are prepared once per connection and kept: reading the
    /// journal after other numbers, appending and reading the settings again prepare nothing
    /// new (PostgreSQL's own list of the session's prepared statements).
    #[test]
    fn a_connection_prepares_each_statement_once() {
        let mut s = PostgresStore::open(&database()).unwrap();
        let prepared = |s: &PostgresStore, sql: &str| -> i64 {
            s.client
                .borrow_mut()
                .query_one(
                    "SELECT count(*) FROM pg_prepared_statements WHERE statement = $1",
                    &[&sql],
                )
                .unwrap()
                .get(0)
        };
        let note = NewEntry {
            at: "2026-12-02T05:00:00Z".parse().unwrap(),
            kind: "note".into(),
            schema: 1,
            body: serde_json::json!({ "text": "hello" }),
        };
        for round in 0..3 {
            s.append(std::slice::from_ref(&note)).unwrap();
            s.entries_after(round, 10).unwrap();
            s.meta("key").unwrap();
        }
        assert_eq!(prepared(&s, ENTRIES_AFTER), 1);
        assert_eq!(prepared(&s, "SELECT value FROM meta WHERE key = $1"), 1);
        let kept = s.statements.0.borrow().len();
        let before: i64 = s
            .client
            .borrow_mut()
            .query_one("SELECT count(*) FROM pg_prepared_statements", &[])
            .unwrap()
            .get(0);
        s.append(std::slice::from_ref(&note)).unwrap();
        s.entries_after(7, 3).unwrap();
        let after: i64 = s
            .client
            .borrow_mut()
            .query_one("SELECT count(*) FROM pg_prepared_statements", &[])
            .unwrap()
            .get(0);
        assert_eq!((before, s.statements.0.borrow().len()), (after, kept));
    }

    /// Every connection waits for locks and statements no longer than the store's limits.
    #[test]
    fn every_connection_has_the_timeouts_a_store_needs() {
        let s = PostgresStore::open(&database()).unwrap();
        let mut c = s.client.borrow_mut();
        let show = |c: &mut Client, what: &str| -> String {
            c.query_one(&format!("SHOW {what}"), &[]).unwrap().get(0)
        };
        assert_eq!(show(&mut c, "lock_timeout"), "10s");
        assert_eq!(show(&mut c, "statement_timeout"), "30s");
        assert_eq!(
            show(&mut c, "default_transaction_isolation"),
            "read committed"
        );
    }

    /// SQLSTATEs as the store reads them: a duplicate sheet name is the name taken (SQLite's
    /// words), a lock or statement timeout is busy.
    #[test]
    fn sqlstates_map_to_what_they_mean() {
        let url = database();
        let s = PostgresStore::open(&url).unwrap();
        let mut c = s.client.borrow_mut();
        let insert = "INSERT INTO sheets (table_id, system, name, name_key, schema, version, body)
                      VALUES (0, 'expanded', 'Nick', 'nick', 1, 1, '{}')";
        c.batch_execute(insert).unwrap();
        let e = map_error("h:1/d", c.batch_execute(insert).unwrap_err());
        assert!(
            matches!(&e, StoreError::NameTaken { name } if name == "nick"),
            "{e}"
        );
        let e = map_error(
            "h:1/d",
            c.batch_execute("SET statement_timeout = 50; SELECT pg_sleep(2)")
                .unwrap_err(),
        );
        assert!(matches!(e, StoreError::Busy { .. }), "{e}");
        c.batch_execute("SET statement_timeout = 30000").unwrap();
        let e = map_error(
            "h:1/d",
            c.batch_execute("SELECT '\"\\u0000\"'::jsonb").unwrap_err(),
        );
        assert!(matches!(e, StoreError::BadRecord(_)), "{e}");
        let e = map_error("h:1/d", c.batch_execute("SELECT nonsense").unwrap_err());
        assert!(!e.is_bad_input(), "{e}");
        assert!(e.to_string().starts_with("h:1/d: "), "{e}");
    }
}
