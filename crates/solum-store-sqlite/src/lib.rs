//! The campaign store's embedded backend: one SQLite file, no server.
//!
//! [`SqliteStore`] implements `solum_store`'s traits ([`CampaignStore`], [`TableStore`],
//! [`StoreHandle`]) and passes its conformance suite. Guarantees checked on every
//! connection: WAL journal, `synchronous = FULL` (an acknowledged write survives a crash or
//! power loss), foreign keys on, a busy timeout, and every write in a `BEGIN IMMEDIATE`
//! transaction so that concurrent writers queue instead of failing half-way. Journal entries
//! are append-only: triggers refuse any update or delete.

use std::path::{Path, PathBuf};

use rusqlite::config::DbConfig;
use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, TransactionBehavior, params};
use solum_store::{
    BUSY_TIMEOUT, CampaignStore, Entry, InviteRow, MAX_INTEGRITY_PROBLEMS, Member, NewEntry,
    OtherInvites, Redeemed, SESSION_TOUCH, Scope, Sheet, SignedDuration, StoreError, StoreHandle,
    TableStore, Timestamp, WriteTx, checked_body, name_key, with_retries,
};

/// The newest schema this build knows.
pub const SCHEMA_VERSION: i64 = 7;

/// Statements a connection keeps prepared (rusqlite's default is 16; a request and the
/// live feed's reads use some 30 distinct ones).
const STATEMENTS: usize = 64;

/// The setting that counts the sessions ended ([`TableStore::sessions_ended`]): the
/// campaign's own, beside no table's (a table's settings are `table/N/…`).
const SESSIONS_ENDED: &str = "sessions.ended";

/// Marks a SQLite file as a solum campaign (`PRAGMA application_id`): "SOLU".
const APPLICATION_ID: i64 = 0x534F_4C55;

/// The migrations, in order; migration `i` takes the schema from version `i` to `i + 1`.
const MIGRATIONS: &[&str] = &[
    // 0 → 1: the journal.
    "CREATE TABLE journal (
         seq    INTEGER PRIMARY KEY AUTOINCREMENT,
         at     TEXT    NOT NULL,
         kind   TEXT    NOT NULL,
         schema INTEGER NOT NULL,
         body   TEXT    NOT NULL CHECK (json_valid(body))
     );
     CREATE TRIGGER journal_no_update BEFORE UPDATE ON journal
     BEGIN SELECT RAISE(ABORT, 'journal entries are append-only'); END;
     CREATE TRIGGER journal_no_delete BEFORE DELETE ON journal
     BEGIN SELECT RAISE(ABORT, 'journal entries are append-only'); END;
     CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);",
    // 1 → 2: character sheets of every system, one row each, with a version that every
    // change raises.
    "CREATE TABLE sheets (
         id       INTEGER PRIMARY KEY,
         system   TEXT    NOT NULL,
         name     TEXT    NOT NULL,
         name_key TEXT    NOT NULL,
         schema   INTEGER NOT NULL,
         version  INTEGER NOT NULL,
         body     TEXT    NOT NULL CHECK (json_valid(body)),
         UNIQUE (system, name_key)
     );",
    // 2 → 3: tables of the web table. Table 0 is the campaign's own (the command line's);
    // every journal entry and sheet belongs to one table, and a journal entry may be a game
    // master's secret. Sheets are rebuilt so that a name is unique within its table and a
    // sheet has an owner (the member who created it).
    "CREATE TABLE tables (
         id      INTEGER PRIMARY KEY,
         name    TEXT    NOT NULL,
         created TEXT    NOT NULL
     );
     INSERT INTO tables (id, name, created) VALUES (0, 'home', '');
     CREATE TABLE members (
         id       INTEGER PRIMARY KEY,
         table_id INTEGER NOT NULL REFERENCES tables (id),
         name     TEXT    NOT NULL,
         role     TEXT    NOT NULL CHECK (role IN ('gm', 'player')),
         joined   TEXT    NOT NULL
     );
     CREATE TABLE invites (
         token_hash TEXT    PRIMARY KEY,
         table_id   INTEGER NOT NULL REFERENCES tables (id),
         role       TEXT    NOT NULL CHECK (role IN ('gm', 'player')),
         created    TEXT    NOT NULL,
         used_by    INTEGER REFERENCES members (id)
     );
     CREATE TABLE sessions (
         token_hash TEXT    PRIMARY KEY,
         member_id  INTEGER NOT NULL REFERENCES members (id),
         created    TEXT    NOT NULL
     );
     ALTER TABLE journal ADD COLUMN table_id INTEGER NOT NULL DEFAULT 0;
     ALTER TABLE journal ADD COLUMN secret INTEGER NOT NULL DEFAULT 0 CHECK (secret IN (0, 1));
     CREATE INDEX journal_by_table ON journal (table_id, seq);
     CREATE TABLE sheets3 (
         id       INTEGER PRIMARY KEY,
         table_id INTEGER NOT NULL REFERENCES tables (id),
         owner    INTEGER REFERENCES members (id),
         system   TEXT    NOT NULL,
         name     TEXT    NOT NULL,
         name_key TEXT    NOT NULL,
         schema   INTEGER NOT NULL,
         version  INTEGER NOT NULL,
         body     TEXT    NOT NULL CHECK (json_valid(body)),
         UNIQUE (table_id, system, name_key)
     );
     INSERT INTO sheets3 (id, table_id, owner, system, name, name_key, schema, version, body)
         SELECT id, 0, NULL, system, name, name_key, schema, version, body FROM sheets;
     DROP TABLE sheets;
     ALTER TABLE sheets3 RENAME TO sheets;",
    // 3 → 4: a session expires when idle; `last_used` (Unix seconds) is when it was last
    // seen, starting at its creation.
    "ALTER TABLE sessions ADD COLUMN last_used INTEGER NOT NULL DEFAULT 0;
     UPDATE sessions SET last_used = COALESCE(CAST(strftime('%s', created) AS INTEGER), 0);",
    // 4 → 5: an invite expires (`expires`, Unix seconds) and can be revoked; invites made
    // before expire seven days after their creation, and the unused game master invites of
    // the home table (one more printed at every start of `solum serve`) are revoked. A
    // member's `name_key` (the application's comparison form of the name) keeps two members
    // of a table from looking alike. `reveals` lists the secret entries a game master has
    // shown the table, each at most once.
    "ALTER TABLE invites ADD COLUMN expires INTEGER NOT NULL DEFAULT 0;
     ALTER TABLE invites ADD COLUMN revoked INTEGER NOT NULL DEFAULT 0 CHECK (revoked IN (0, 1));
     UPDATE invites SET expires = COALESCE(CAST(strftime('%s', created) AS INTEGER), 0) + 604800;
     UPDATE invites SET revoked = 1 WHERE used_by IS NULL AND table_id = 0 AND role = 'gm';
     ALTER TABLE members ADD COLUMN name_key TEXT NOT NULL DEFAULT '';
     UPDATE members SET name_key = lower(trim(name));
     CREATE TABLE reveals (
         seq INTEGER PRIMARY KEY REFERENCES journal (seq)
     );",
    // 5 → 6: entries of one kind found from the end (the open scene) without a scan.
    "CREATE INDEX journal_by_kind ON journal (table_id, kind, seq);",
    // 6 → 7: each table's journal numbered on its own (`table_seq`: 1, 2, 3, … with no gap,
    // assigned in the append's write transaction), so that no number a member sees tells how
    // busy another table is. Existing entries are numbered in their order; the imported-through
    // marker of every table (a global number) becomes its table's number. `seq` stays the
    // file's own order (and what `reveals` refers to).
    "ALTER TABLE journal ADD COLUMN table_seq INTEGER NOT NULL DEFAULT 0;
     CREATE TEMP TABLE numbering (seq INTEGER PRIMARY KEY, n INTEGER NOT NULL);
     INSERT INTO numbering (seq, n)
         SELECT seq, row_number() OVER (PARTITION BY table_id ORDER BY seq) FROM journal;
     DROP TRIGGER journal_no_update;
     UPDATE journal SET table_seq = (SELECT n FROM numbering WHERE numbering.seq = journal.seq);
     CREATE TRIGGER journal_no_update BEFORE UPDATE ON journal
     BEGIN SELECT RAISE(ABORT, 'journal entries are append-only'); END;
     UPDATE meta SET value = COALESCE(
             (SELECT n FROM numbering WHERE numbering.seq = CAST(meta.value AS INTEGER)), value)
         WHERE key = 'journal.imported_through' OR key GLOB 'table/*/journal.imported_through';
     DROP TABLE temp.numbering;
     CREATE UNIQUE INDEX journal_by_table_seq ON journal (table_id, table_seq);",
];

/// The embedded backend: one SQLite file.
#[derive(Debug)]
pub struct SqliteStore {
    path: PathBuf,
    conn: Connection,
    scope: Scope,
    /// Groups opened and not yet ended: a group opened inside another (a use case's own
    /// read-check-write inside the server's group of writes) ends with the outer one.
    group_depth: u32,
}

impl SqliteStore {
    /// Opens the campaign at `path` seen through `scope`, creating it (and its migrations) on
    /// first use.
    pub fn open(path: &Path, scope: Scope) -> Result<Self, StoreError> {
        let path = path.to_path_buf();
        match std::fs::metadata(&path) {
            Ok(meta) if !meta.is_file() => {
                return Err(StoreError::BadPath {
                    location: loc(&path),
                    reason: "not a regular file".into(),
                });
            }
            Ok(meta) if meta.permissions().readonly() => {
                return Err(StoreError::ReadOnly {
                    location: loc(&path),
                });
            }
            _ => {}
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(&path, flags).map_err(|e| classify(&path, e))?;
        let mut store = Self {
            path,
            conn,
            scope,
            group_depth: 0,
        };
        store.configure()?;
        store.migrate()?;
        Ok(store)
    }

    /// Opens an existing campaign only to read it: a missing file is an error (nothing is
    /// created), and a file without write permission is opened read-only instead of refused.
    /// A campaign of an older schema is upgraded when it can be written, and refused when it
    /// cannot.
    /// Every query is filtered by `scope`.
    pub fn open_existing(path: &Path, scope: Scope) -> Result<Self, StoreError> {
        let owned = path.to_path_buf();
        let meta = match std::fs::metadata(path) {
            Ok(meta) => meta,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(StoreError::Missing {
                    location: loc(&owned),
                });
            }
            Err(e) => {
                return Err(StoreError::BadPath {
                    location: loc(&owned),
                    reason: e.to_string(),
                });
            }
        };
        if !meta.is_file() {
            return Err(StoreError::BadPath {
                location: loc(&owned),
                reason: "not a regular file".into(),
            });
        }
        if !meta.permissions().readonly() {
            return Self::open(path, scope);
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags).map_err(|e| classify(path, e))?;
        let store = Self {
            path: owned,
            conn,
            scope,
            group_depth: 0,
        };
        store
            .conn
            .busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| store.err(e))?;
        store.keep_plans()?;
        if store.pragma_i64("application_id")? != APPLICATION_ID {
            return Err(StoreError::NotACampaign {
                location: loc(&store.path),
                reason: "not marked as a solum campaign".into(),
            });
        }
        match store.schema_version()? {
            v if v > SCHEMA_VERSION => Err(StoreError::NewerSchema {
                location: loc(&store.path),
                found: v,
                known: SCHEMA_VERSION,
            }),
            v if v < SCHEMA_VERSION => Err(StoreError::ReadOnly {
                location: loc(&store.path),
            }),
            _ => Ok(store),
        }
    }

    /// Runs `work` in a `BEGIN IMMEDIATE` transaction, or, inside a group
    /// ([`CampaignStore::begin_group`]), in a savepoint that the group's commit keeps: all
    /// or nothing on its own either way.
    fn in_write(
        &mut self,
        work: &mut dyn FnMut(&Connection) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let path = self.path.clone();
        if !self.conn.is_autocommit() {
            let sp = self.conn.savepoint().map_err(|e| classify(&path, e))?;
            work(&sp)?;
            return sp.commit().map_err(|e| classify(&path, e));
        }
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| classify(&path, e))?;
        work(&tx)?;
        tx.commit().map_err(|e| classify(&path, e))
    }

    /// The campaign file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The schema version of the open file.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        self.pragma_i64("user_version")
    }

    /// Lowers SQLite's page limit, to test what a full disk does.
    #[doc(hidden)]
    pub fn limit_pages(&self, pages: u64) -> Result<u64, StoreError> {
        let sql = format!("PRAGMA max_page_count = {pages}");
        self.conn
            .query_row(&sql, [], |r| r.get::<_, i64>(0))
            .map(|n| n.max(0) as u64)
            .map_err(|e| self.err(e))
    }

    fn err(&self, e: rusqlite::Error) -> StoreError {
        classify(&self.path, e)
    }

    /// Keeps each cached statement's query plan whatever its parameters are bound to (the
    /// query planner stability guarantee). Without it SQLite re-prepares a statement on the
    /// next step whenever a new value is bound to a parameter its plan looked at (a join's
    /// key, a `LIMIT`): under load a third of the server's time went to parsing the same
    /// few statements again. Our statements' plans do not depend on their values (no
    /// statistics are gathered), so the guarantee costs nothing. Also room for every
    /// statement a request uses in the connection's cache.
    fn keep_plans(&self) -> Result<(), StoreError> {
        self.conn
            .set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)
            .map_err(|e| self.err(e))?;
        self.conn.set_prepared_statement_cache_capacity(STATEMENTS);
        Ok(())
    }

    fn pragma_i64(&self, name: &str) -> Result<i64, StoreError> {
        self.conn
            .query_row(&format!("PRAGMA {name}"), [], |r| r.get(0))
            .map_err(|e| self.err(e))
    }

    /// Settings every connection needs, each read back: a pragma that silently did not take
    /// (a read-only file stays in its old journal mode) must not go unnoticed.
    fn configure(&mut self) -> Result<(), StoreError> {
        self.conn
            .busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| self.err(e))?;
        self.keep_plans()?;
        // Reading the header first tells "not a database" apart from other failures.
        let app_id = self.pragma_i64("application_id")?;
        let tables: i64 = self
            .conn
            .query_row("SELECT count(*) FROM sqlite_schema", [], |r| r.get(0))
            .map_err(|e| self.err(e))?;
        if tables > 0 && app_id != APPLICATION_ID {
            return Err(StoreError::NotACampaign {
                location: loc(&self.path),
                reason: "a SQLite database of another program".into(),
            });
        }
        let mode: String = self
            .conn
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .map_err(|e| self.err(e))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::ReadOnly {
                location: loc(&self.path),
            });
        }
        self.conn
            .execute_batch("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;")
            .map_err(|e| self.err(e))?;
        let synchronous = self.pragma_i64("synchronous")?;
        let foreign_keys = self.pragma_i64("foreign_keys")?;
        if synchronous != 2 || foreign_keys != 1 {
            return Err(StoreError::BadPath {
                location: loc(&self.path),
                reason: format!(
                    "SQLite refused the settings a campaign needs (synchronous {synchronous}, foreign keys {foreign_keys})"
                ),
            });
        }
        Ok(())
    }

    /// Brings the schema up to [`SCHEMA_VERSION`], one migration per transaction: a migration
    /// killed half-way leaves the old schema.
    fn migrate(&mut self) -> Result<(), StoreError> {
        // Opening a current campaign takes no write lock: readers (the web table's many
        // requests) do not queue behind writers just to learn there is nothing to migrate.
        if self.schema_version()? == SCHEMA_VERSION {
            return Ok(());
        }
        loop {
            let path = self.path.clone();
            let tx = self
                .conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(|e| classify(&path, e))?;
            // Read inside the write lock: another process may have migrated meanwhile.
            let version: i64 = tx
                .query_row("PRAGMA user_version", [], |r| r.get(0))
                .map_err(|e| classify(&path, e))?;
            if version > SCHEMA_VERSION {
                return Err(StoreError::NewerSchema {
                    location: loc(&path),
                    found: version,
                    known: SCHEMA_VERSION,
                });
            }
            let Some(step) = usize::try_from(version)
                .ok()
                .and_then(|v| MIGRATIONS.get(v))
            else {
                return Ok(());
            };
            if version == 0 {
                tx.execute_batch(&format!("PRAGMA application_id = {APPLICATION_ID}"))
                    .map_err(|e| classify(&path, e))?;
            }
            tx.execute_batch(step).map_err(|e| classify(&path, e))?;
            tx.execute_batch(&format!("PRAGMA user_version = {}", version + 1))
                .map_err(|e| classify(&path, e))?;
            tx.commit().map_err(|e| classify(&path, e))?;
        }
    }
}

/// A write transaction of [`SqliteStore`].
struct SqliteTx<'a> {
    path: &'a Path,
    scope: Scope,
    /// The connection inside its transaction (or a group's savepoint).
    tx: &'a Connection,
}

/// Who created the sheet `system`/`name` of the scope's table (none: the command line, or
/// no such sheet).
fn owner_of(
    conn: &Connection,
    scope: Scope,
    system: &str,
    name: &str,
) -> rusqlite::Result<Option<i64>> {
    conn.query_row(
        "SELECT owner FROM sheets WHERE table_id = ?1 AND system = ?2 AND name_key = ?3",
        params![scope.table, system, name_key(name)],
        |r| r.get::<_, Option<i64>>(0),
    )
    .optional()
    .map(Option::flatten)
}

fn row_to_sheet(r: &rusqlite::Row<'_>) -> rusqlite::Result<(String, String, i64, i64, String)> {
    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
}

fn parse_sheet(row: (String, String, i64, i64, String)) -> Result<Sheet, StoreError> {
    let (system, name, schema, version, body) = row;
    let body = serde_json::from_str(&body).map_err(|e| StoreError::Unreadable {
        what: format!("the sheet of {name}"),
        reason: e.to_string(),
    })?;
    Ok(Sheet {
        system,
        name,
        schema,
        version,
        body,
    })
}

const SHEET_COLUMNS: &str = "system, name, schema, version, body";

fn get_sheet(
    conn: &Connection,
    path: &Path,
    scope: Scope,
    system: &str,
    name: &str,
) -> Result<Option<Sheet>, StoreError> {
    conn.query_row(
        &format!(
            "SELECT {SHEET_COLUMNS} FROM sheets WHERE table_id = ?3 AND system = ?1 AND name_key = ?2"
        ),
        params![system, name_key(name), scope.table],
        row_to_sheet,
    )
    .optional()
    .map_err(|e| classify(path, e))?
    .map(parse_sheet)
    .transpose()
}

fn sheet_body(sheet: &Sheet) -> Result<String, StoreError> {
    checked_body("a sheet", &sheet.body)
}

impl WriteTx for SqliteTx<'_> {
    fn scope(&self) -> Scope {
        self.scope
    }

    fn sheet_names(&self, system: &str) -> Result<Vec<String>, StoreError> {
        let mut stmt = self
            .tx
            .prepare_cached("SELECT name FROM sheets WHERE system = ?1 AND table_id = ?2")
            .map_err(|e| classify(self.path, e))?;
        let rows = stmt
            .query_map(params![system, self.scope.table], |r| r.get::<_, String>(0))
            .map_err(|e| classify(self.path, e))?;
        rows.collect::<rusqlite::Result<Vec<_>>>()
            .map_err(|e| classify(self.path, e))
    }

    fn sheet_owner(&self, system: &str, name: &str) -> Result<Option<i64>, StoreError> {
        owner_of(self.tx, self.scope, system, name).map_err(|e| classify(self.path, e))
    }

    fn sheet(&self, system: &str, name: &str) -> Result<Option<Sheet>, StoreError> {
        get_sheet(self.tx, self.path, self.scope, system, name)
    }

    fn insert_sheet(&mut self, sheet: &Sheet) -> Result<(), StoreError> {
        let body = sheet_body(sheet)?;
        if get_sheet(self.tx, self.path, self.scope, &sheet.system, &sheet.name)?.is_some() {
            return Err(StoreError::NameTaken {
                name: sheet.name.clone(),
            });
        }
        self.tx
            .execute(
                "INSERT INTO sheets (system, name, name_key, schema, version, body, table_id, owner)
                 VALUES (?1, ?2, ?3, ?4, 1, ?5, ?6, ?7)",
                params![
                    sheet.system,
                    sheet.name,
                    name_key(&sheet.name),
                    sheet.schema,
                    body,
                    self.scope.table,
                    self.scope.member
                ],
            )
            .map_err(|e| classify(self.path, e))?;
        Ok(())
    }

    fn share_owner(
        &mut self,
        system: &str,
        name: &str,
        owner_system: &str,
    ) -> Result<(), StoreError> {
        self.tx
            .execute(
                "UPDATE sheets SET owner = (SELECT owner FROM sheets
                     WHERE table_id = ?1 AND system = ?4 AND name_key = ?3)
                 WHERE table_id = ?1 AND system = ?2 AND name_key = ?3
                   AND EXISTS (SELECT 1 FROM sheets
                     WHERE table_id = ?1 AND system = ?4 AND name_key = ?3)",
                params![self.scope.table, system, name_key(name), owner_system],
            )
            .map_err(|e| classify(self.path, e))?;
        Ok(())
    }

    fn update_sheet(
        &mut self,
        system: &str,
        name: &str,
        sheet: &Sheet,
    ) -> Result<Sheet, StoreError> {
        let body = sheet_body(sheet)?;
        let old = get_sheet(self.tx, self.path, self.scope, system, name)?
            .ok_or_else(|| StoreError::NoSuchSheet { name: name.into() })?;
        if name_key(&sheet.name) != name_key(name)
            && get_sheet(self.tx, self.path, self.scope, system, &sheet.name)?.is_some()
        {
            return Err(StoreError::NameTaken {
                name: sheet.name.clone(),
            });
        }
        let version = old.version.checked_add(1).ok_or_else(|| {
            StoreError::BadRecord(format!("the sheet of {name} has changed too often"))
        })?;
        self.tx
            .execute(
                "UPDATE sheets SET name = ?1, name_key = ?2, schema = ?3, version = ?4, body = ?5
                 WHERE system = ?6 AND name_key = ?7 AND table_id = ?8",
                params![
                    sheet.name,
                    name_key(&sheet.name),
                    sheet.schema,
                    version,
                    body,
                    system,
                    name_key(name),
                    self.scope.table
                ],
            )
            .map_err(|e| classify(self.path, e))?;
        Ok(Sheet {
            version,
            system: system.to_string(),
            ..sheet.clone()
        })
    }

    fn append(&mut self, entries: &[NewEntry]) -> Result<Vec<Entry>, StoreError> {
        append_in(self.tx, self.path, self.scope, entries)
    }

    fn last_of_kind(&self, kind: &str) -> Result<Option<Entry>, StoreError> {
        Ok(read_entries(
            self.tx,
            self.path,
            LAST_OF_KIND,
            params![kind, self.scope.table, self.scope.gm],
        )?
        .pop())
    }

    fn entries_after(&self, after: i64, limit: usize) -> Result<Vec<Entry>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        read_entries(
            self.tx,
            self.path,
            ENTRIES_AFTER,
            params![after, limit, self.scope.table, self.scope.gm],
        )
    }

    fn reveal(&mut self, seq: i64) -> Result<Entry, StoreError> {
        let found = self
            .tx
            .query_row(
                "SELECT seq, at, kind, schema, body FROM journal
                 WHERE table_seq = ?1 AND table_id = ?2 AND secret = 1",
                params![seq, self.scope.table],
                |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, i64>(3)?,
                        r.get::<_, String>(4)?,
                    ))
                },
            )
            .optional()
            .map_err(|e| classify(self.path, e))?;
        let Some((global, at, kind, schema, body)) = found else {
            return Err(StoreError::NotSecret { seq });
        };
        let added = self
            .tx
            .execute("INSERT OR IGNORE INTO reveals (seq) VALUES (?1)", [global])
            .map_err(|e| classify(self.path, e))?;
        if added == 0 {
            return Err(StoreError::RevealedAlready { seq });
        }
        let body = serde_json::from_str(&body).map_err(|e| StoreError::Unreadable {
            what: format!("entry {seq}"),
            reason: e.to_string(),
        })?;
        Ok(Entry {
            seq,
            at: stored_time(self.path, &format!("entry {seq}"), &at)?,
            kind,
            schema,
            body,
            secret: true,
        })
    }
}

/// A time stored as RFC 3339 text, read back typed.
fn stored_time(path: &Path, what: &str, text: &str) -> Result<Timestamp, StoreError> {
    text.parse().map_err(|e| StoreError::Unreadable {
        what: format!("the time of {what} in {}", path.display()),
        reason: format!("{text:?} is not an RFC 3339 time: {e}"),
    })
}

/// A time stored as Unix seconds, read back typed.
fn unix_time(path: &Path, what: &str, seconds: i64) -> Result<Timestamp, StoreError> {
    Timestamp::from_second(seconds).map_err(|e| StoreError::Unreadable {
        what: format!("{what} in {}", path.display()),
        reason: format!("{seconds} is no time: {e}"),
    })
}

fn append_in(
    tx: &Connection,
    path: &Path,
    scope: Scope,
    entries: &[NewEntry],
) -> Result<Vec<Entry>, StoreError> {
    let bodies = entries
        .iter()
        .map(|e| checked_body("an entry", &e.body))
        .collect::<Result<Vec<_>, _>>()?;
    let mut stored = Vec::with_capacity(entries.len());
    // The table's next number, read inside the write transaction that holds the file's write
    // lock: numbers are assigned in commit order, with no gap.
    let (mut last, last_at): (i64, Option<String>) = tx
        .prepare_cached(
            "SELECT table_seq, at FROM journal WHERE table_id = ?1 ORDER BY table_seq DESC LIMIT 1",
        )
        .and_then(|mut s| {
            s.query_row([scope.table], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()
        })
        .map_err(|e| classify(path, e))?
        .map_or((0, None), |(seq, at)| (seq, Some(at)));
    // A table's times never go back (see `CampaignStore::append`).
    let mut last_at: Option<Timestamp> = last_at.and_then(|t| t.parse().ok());
    let mut insert = tx
        .prepare_cached(
            "INSERT INTO journal (at, kind, schema, body, table_id, secret, table_seq)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )
        .map_err(|e| classify(path, e))?;
    for (entry, body) in entries.iter().zip(&bodies) {
        last = last.checked_add(1).ok_or_else(|| {
            StoreError::BadRecord("the table's journal has no number left".into())
        })?;
        let at = last_at.map_or(entry.at, |l| entry.at.max(l));
        last_at = Some(at);
        insert
            .execute(params![
                at.to_string(),
                entry.kind,
                entry.schema,
                body,
                scope.table,
                scope.secret_writes,
                last
            ])
            .map_err(|e| classify(path, e))?;
        stored.push(Entry {
            seq: last,
            at,
            kind: entry.kind.clone(),
            schema: entry.schema,
            body: entry.body.clone(),
            secret: scope.secret_writes,
        });
    }
    Ok(stored)
}

/// The latest entries, newest first (by `journal_by_table`, read backwards).
const LAST_ENTRIES: &str = "SELECT table_seq, at, kind, schema, body, secret FROM journal
     WHERE table_id = ?2 AND (secret = 0 OR ?3) ORDER BY table_seq DESC LIMIT ?1";

/// Entries before a point, newest first (by `journal_by_table_seq`, read backwards).
const ENTRIES_BEFORE: &str = "SELECT table_seq, at, kind, schema, body, secret FROM journal
     WHERE table_id = ?3 AND table_seq < ?1 AND (secret = 0 OR ?4)
     ORDER BY table_seq DESC LIMIT ?2";

/// Entries after a point, in order (by `journal_by_table_seq`).
const ENTRIES_AFTER: &str = "SELECT table_seq, at, kind, schema, body, secret FROM journal
     WHERE table_id = ?3 AND table_seq > ?1 AND (secret = 0 OR ?4)
     ORDER BY table_seq LIMIT ?2";

/// The numbers of [`ENTRIES_AFTER`]'s entries.
const SEQS_AFTER: &str = "SELECT table_seq FROM journal
     WHERE table_id = ?3 AND table_seq > ?1 AND (secret = 0 OR ?4)
     ORDER BY table_seq LIMIT ?2";

/// The numbers of [`ENTRIES_BEFORE`]'s entries.
const SEQS_BEFORE: &str = "SELECT table_seq FROM journal
     WHERE table_id = ?3 AND table_seq < ?1 AND (secret = 0 OR ?4)
     ORDER BY table_seq DESC LIMIT ?2";

/// One entry by its number (by `journal_by_table_seq`).
const ENTRY_AT: &str = "SELECT table_seq, at, kind, schema, body, secret FROM journal
     WHERE table_id = ?2 AND table_seq = ?1 AND (secret = 0 OR ?3)";

/// The latest entry of a kind (by `journal_by_kind`, read backwards).
const LAST_OF_KIND: &str = "SELECT table_seq, at, kind, schema, body, secret FROM journal
     WHERE table_id = ?2 AND kind = ?1 AND (secret = 0 OR ?3) ORDER BY seq DESC LIMIT 1";

impl SqliteStore {
    /// The numbers `sql` selects (one column).
    fn read_seqs(&self, sql: &str, params: impl rusqlite::Params) -> Result<Vec<i64>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached(sql)
            .map_err(|e| classify(&self.path, e))?;
        stmt.query_map(params, |r| r.get::<_, i64>(0))
            .and_then(|rows| rows.collect())
            .map_err(|e| classify(&self.path, e))
    }

    /// Journal rows of `sql` (columns seq, at, kind, schema, body, secret), as entries.
    fn read_entries(
        &self,
        sql: &str,
        params: impl rusqlite::Params,
    ) -> Result<Vec<Entry>, StoreError> {
        read_entries(&self.conn, &self.path, sql, params)
    }
}

/// Journal rows of `sql` (columns seq, at, kind, schema, body, secret) read on `conn`.
fn read_entries(
    conn: &Connection,
    path: &Path,
    sql: &str,
    params: impl rusqlite::Params,
) -> Result<Vec<Entry>, StoreError> {
    let mut stmt = conn.prepare_cached(sql).map_err(|e| classify(path, e))?;
    let rows = stmt
        .query_map(params, |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, bool>(5)?,
            ))
        })
        .map_err(|e| classify(path, e))?;
    let mut out = Vec::new();
    for row in rows {
        let (seq, at, kind, schema, body, secret) = row.map_err(|e| classify(path, e))?;
        let body = serde_json::from_str(&body).map_err(|e| StoreError::Unreadable {
            what: format!("entry {seq}"),
            reason: e.to_string(),
        })?;
        out.push(Entry {
            seq,
            at: stored_time(path, &format!("entry {seq}"), &at)?,
            kind,
            schema,
            body,
            secret,
        });
    }
    Ok(out)
}

impl CampaignStore for SqliteStore {
    fn append(&mut self, entries: &[NewEntry]) -> Result<Vec<Entry>, StoreError> {
        let mut stored = Vec::new();
        self.write(&mut |tx| {
            stored = tx.append(entries)?;
            Ok(())
        })?;
        Ok(stored)
    }

    fn sheet(&self, system: &str, name: &str) -> Result<Option<Sheet>, StoreError> {
        get_sheet(&self.conn, &self.path, self.scope, system, name)
    }

    fn sheets(&self, system: &str) -> Result<Vec<Sheet>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached(&format!(
                "SELECT {SHEET_COLUMNS} FROM sheets WHERE system = ?1 AND table_id = ?2
                 ORDER BY name_key"
            ))
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map(params![system, self.scope.table], row_to_sheet)
            .map_err(|e| self.err(e))?;
        let mut out = Vec::new();
        for row in rows {
            out.push(parse_sheet(row.map_err(|e| self.err(e))?)?);
        }
        Ok(out)
    }

    fn write(
        &mut self,
        work: &mut dyn FnMut(&mut dyn WriteTx) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let path = self.path.clone();
        let scope = self.scope;
        // SQLite's writers queue on the file's lock and meet no conflict; a backend that
        // does runs the work again, and so may this one.
        with_retries(&loc(&path), || {
            self.in_write(&mut |tx| {
                work(&mut SqliteTx {
                    path: &path,
                    scope,
                    tx,
                })
            })
        })
    }

    fn begin_group(&mut self) -> Result<(), StoreError> {
        if self.conn.is_autocommit() {
            self.conn
                .execute_batch("BEGIN IMMEDIATE")
                .map_err(|e| self.err(e))?;
            self.group_depth = 1;
        } else {
            self.group_depth = self.group_depth.saturating_add(1);
        }
        Ok(())
    }

    fn end_group(&mut self) -> Result<(), StoreError> {
        if self.conn.is_autocommit() {
            // Nothing open (SQLite rolled the group back under a failed write).
            self.group_depth = 0;
            return Ok(());
        }
        if self.group_depth > 1 {
            // An inner group: its writes commit with the outer one.
            self.group_depth -= 1;
            return Ok(());
        }
        self.group_depth = 0;
        self.conn.execute_batch("COMMIT").map_err(|e| self.err(e))
    }

    fn entries_after(&self, after: i64, limit: usize) -> Result<Vec<Entry>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.read_entries(
            ENTRIES_AFTER,
            params![after, limit, self.scope.table, self.scope.gm],
        )
    }

    fn last_entries(&self, limit: usize) -> Result<Vec<Entry>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let mut out = self.read_entries(
            LAST_ENTRIES,
            params![limit, self.scope.table, self.scope.gm],
        )?;
        out.reverse();
        Ok(out)
    }

    fn entries_before(&self, before: i64, limit: usize) -> Result<Vec<Entry>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.read_entries(
            ENTRIES_BEFORE,
            params![before, limit, self.scope.table, self.scope.gm],
        )
    }

    fn last_of_kind(&self, kind: &str) -> Result<Option<Entry>, StoreError> {
        Ok(self
            .read_entries(LAST_OF_KIND, params![kind, self.scope.table, self.scope.gm])?
            .pop())
    }

    fn seqs_after(&self, after: i64, limit: usize) -> Result<Vec<i64>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.read_seqs(
            SEQS_AFTER,
            params![after, limit, self.scope.table, self.scope.gm],
        )
    }

    fn seqs_before(&self, before: i64, limit: usize) -> Result<Vec<i64>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.read_seqs(
            SEQS_BEFORE,
            params![before, limit, self.scope.table, self.scope.gm],
        )
    }

    fn entries_at(&self, seqs: &[i64]) -> Result<Vec<Entry>, StoreError> {
        let mut sorted = seqs.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        let mut out = Vec::with_capacity(sorted.len());
        for seq in sorted {
            out.extend(self.read_entries(ENTRY_AT, params![seq, self.scope.table, self.scope.gm])?);
        }
        Ok(out)
    }

    fn entry_count(&self) -> Result<u64, StoreError> {
        self.conn
            .query_row(
                "SELECT count(*) FROM journal WHERE table_id = ?1 AND (secret = 0 OR ?2)",
                params![self.scope.table, self.scope.gm],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| n.max(0) as u64)
            .map_err(|e| self.err(e))
    }

    fn meta(&self, key: &str) -> Result<Option<String>, StoreError> {
        self.conn
            .prepare_cached("SELECT value FROM meta WHERE key = ?1")
            .and_then(|mut st| st.query_row([self.scope.meta_key(key)], |r| r.get(0)))
            .optional()
            .map_err(|e| self.err(e))
    }

    fn set_meta(&mut self, key: &str, value: &str) -> Result<(), StoreError> {
        let path = self.path.clone();
        // Who may change a setting is the app's role policy (solum_app::policy).
        let key = self.scope.meta_key(key);
        self.in_write(&mut |tx| {
            tx.execute(
                "INSERT INTO meta (key, value) VALUES (?1, ?2)
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                params![key, value],
            )
            .map(drop)
            .map_err(|e| classify(&path, e))
        })
    }

    fn sees_every_entry(&self) -> bool {
        self.scope.gm
    }

    fn integrity_problems(&self) -> Result<Vec<String>, StoreError> {
        let limit = MAX_INTEGRITY_PROBLEMS;
        let mut problems = Vec::new();
        let mut check = self
            .conn
            .prepare(&format!("PRAGMA integrity_check({limit})"))
            .map_err(|e| self.err(e))?;
        let rows = check
            .query_map([], |r| r.get::<_, String>(0))
            .map_err(|e| self.err(e))?;
        for row in rows {
            let row = row.map_err(|e| self.err(e))?;
            if row != "ok" {
                problems.push(format!("integrity check: {row}"));
            }
        }
        let mut keys = self
            .conn
            .prepare("PRAGMA foreign_key_check")
            .map_err(|e| self.err(e))?;
        let rows = keys
            .query_map([], |r| {
                Ok(format!(
                    "foreign key check: a row of {} (rowid {}) points to a missing row of {}",
                    r.get::<_, String>(0)?,
                    r.get::<_, Option<i64>>(1)?
                        .map_or_else(|| "?".to_owned(), |id| id.to_string()),
                    r.get::<_, String>(2)?,
                ))
            })
            .map_err(|e| self.err(e))?;
        for row in rows.take(limit) {
            problems.push(row.map_err(|e| self.err(e))?);
        }
        problems.truncate(limit);
        Ok(problems)
    }

    fn check_integrity(&self) -> Result<(), StoreError> {
        let result: String = self
            .conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .map_err(|e| self.err(e))?;
        if result == "ok" {
            Ok(())
        } else {
            Err(StoreError::BadPath {
                location: loc(&self.path),
                reason: format!("the integrity check failed: {result}"),
            })
        }
    }
}

const MEMBER_COLUMNS: &str = "m.id, m.table_id, t.name, m.name, m.role = 'gm' FROM members m JOIN tables t ON t.id = m.table_id";

fn row_to_member(r: &rusqlite::Row<'_>) -> rusqlite::Result<Member> {
    Ok(Member {
        id: r.get(0)?,
        table: r.get(1)?,
        table_name: r.get(2)?,
        name: r.get(3)?,
        gm: r.get(4)?,
    })
}

fn role(gm: bool) -> &'static str {
    if gm { "gm" } else { "player" }
}

impl SqliteStore {
    fn member_by_id(
        tx: &rusqlite::Transaction<'_>,
        path: &Path,
        id: i64,
    ) -> Result<Member, StoreError> {
        tx.query_row(
            &format!("SELECT {MEMBER_COLUMNS} WHERE m.id = ?1"),
            [id],
            row_to_member,
        )
        .map_err(|e| classify(path, e))
    }
}

impl TableStore for SqliteStore {
    fn add_session(
        &mut self,
        table: i64,
        member: i64,
        session_hash: &str,
        at: Timestamp,
    ) -> Result<Option<Member>, StoreError> {
        let at = at.to_string();
        let path = self.path.clone();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| classify(&path, e))?;
        let added = tx
            .execute(
                "INSERT INTO sessions (token_hash, member_id, created, last_used)
                 SELECT ?1, m.id, ?3, COALESCE(CAST(strftime('%s', ?3) AS INTEGER), 0)
                 FROM members m WHERE m.id = ?2 AND m.table_id = ?4",
                params![session_hash, member, at, table],
            )
            .map_err(|e| classify(&path, e))?;
        if added == 0 {
            return Ok(None);
        }
        let member = Self::member_by_id(&tx, &path, member)?;
        tx.commit().map_err(|e| classify(&path, e))?;
        Ok(Some(member))
    }

    fn create_table(
        &mut self,
        name: &str,
        gm_name: &str,
        gm_key: &str,
        session_hash: &str,
        at: Timestamp,
    ) -> Result<Member, StoreError> {
        let at = at.to_string();
        let path = self.path.clone();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| classify(&path, e))?;
        let run = |tx: &rusqlite::Transaction<'_>| -> rusqlite::Result<i64> {
            tx.execute(
                "INSERT INTO tables (name, created) VALUES (?1, ?2)",
                params![name, at],
            )?;
            let table = tx.last_insert_rowid();
            tx.execute(
                "INSERT INTO members (table_id, name, role, joined, name_key)
                 VALUES (?1, ?2, 'gm', ?3, ?4)",
                params![table, gm_name, at, gm_key],
            )?;
            let member = tx.last_insert_rowid();
            tx.execute(
                "INSERT INTO sessions (token_hash, member_id, created, last_used)
                 VALUES (?1, ?2, ?3, COALESCE(CAST(strftime('%s', ?3) AS INTEGER), 0))",
                params![session_hash, member, at],
            )?;
            Ok(member)
        };
        let member = run(&tx).map_err(|e| classify(&path, e))?;
        let member = Self::member_by_id(&tx, &path, member)?;
        tx.commit().map_err(|e| classify(&path, e))?;
        Ok(member)
    }

    fn create_table_with_invite(
        &mut self,
        name: &str,
        token_hash: &str,
        at: Timestamp,
        expires: Timestamp,
    ) -> Result<(i64, i64), StoreError> {
        let (at, expires) = (at.to_string(), expires.as_second());
        let path = self.path.clone();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| classify(&path, e))?;
        let run = |tx: &rusqlite::Transaction<'_>| -> rusqlite::Result<(i64, i64)> {
            tx.execute(
                "INSERT INTO tables (name, created) VALUES (?1, ?2)",
                params![name, at],
            )?;
            let table = tx.last_insert_rowid();
            tx.execute(
                "INSERT INTO invites (token_hash, table_id, role, created, expires)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![token_hash, table, role(true), at, expires],
            )?;
            Ok((table, tx.last_insert_rowid()))
        };
        let made = run(&tx).map_err(|e| classify(&path, e))?;
        tx.commit().map_err(|e| classify(&path, e))?;
        Ok(made)
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
        let path = self.path.clone();
        // One writer at a time (IMMEDIATE): two replacements queue.
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| classify(&path, e))?;
        if others == OtherInvites::Revoked {
            tx.execute(
                "UPDATE invites SET revoked = 1
                 WHERE table_id = ?1 AND role = ?2 AND used_by IS NULL AND revoked = 0",
                params![table, role(gm)],
            )
            .map_err(|e| classify(&path, e))?;
        }
        tx.execute(
            "INSERT INTO invites (token_hash, table_id, role, created, expires)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![token_hash, table, role(gm), at, expires],
        )
        .map_err(|e| classify(&path, e))?;
        let id = tx.last_insert_rowid();
        tx.commit().map_err(|e| classify(&path, e))?;
        Ok(id)
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
        let (at, now) = (at.to_string(), now.as_second());
        type Found = (i64, String, Option<i64>, bool, i64);
        let path = self.path.clone();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| classify(&path, e))?;
        let invite: Option<Found> = tx
            .query_row(
                "SELECT table_id, role, used_by, revoked, expires FROM invites
                 WHERE token_hash = ?1",
                [token_hash],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
            )
            .optional()
            .map_err(|e| classify(&path, e))?;
        let (table, role) = match invite {
            None => return Ok(Redeemed::Unknown),
            Some((_, _, Some(_), _, _)) => return Ok(Redeemed::Used),
            Some((table, role, None, true, _)) => {
                return Ok(Redeemed::Revoked {
                    table,
                    gm: role == "gm",
                });
            }
            Some((_, _, None, false, expires)) if now >= expires => {
                return Ok(Redeemed::Expired(unix_time(
                    &path,
                    "an invite's expiry",
                    expires,
                )?));
            }
            Some((table, role, None, false, _)) => (table, role),
        };
        let taken: Option<String> = tx
            .query_row(
                "SELECT name FROM members WHERE table_id = ?1 AND name_key = ?2",
                params![table, name_key],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| classify(&path, e))?;
        if let Some(taken) = taken {
            return Ok(Redeemed::NameTaken(taken));
        }
        let run = |tx: &rusqlite::Transaction<'_>| -> rusqlite::Result<i64> {
            tx.execute(
                "INSERT INTO members (table_id, name, role, joined, name_key)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![table, name, role, at, name_key],
            )?;
            let member = tx.last_insert_rowid();
            tx.execute(
                "UPDATE invites SET used_by = ?1 WHERE token_hash = ?2",
                params![member, token_hash],
            )?;
            tx.execute(
                "INSERT INTO sessions (token_hash, member_id, created, last_used)
                 VALUES (?1, ?2, ?3, COALESCE(CAST(strftime('%s', ?3) AS INTEGER), 0))",
                params![session_hash, member, at],
            )?;
            Ok(member)
        };
        let member = run(&tx).map_err(|e| classify(&path, e))?;
        let member = Self::member_by_id(&tx, &path, member)?;
        tx.commit().map_err(|e| classify(&path, e))?;
        Ok(Redeemed::Joined(member))
    }

    fn invites(&self, table: i64) -> Result<Vec<InviteRow>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT rowid, role = 'gm', created, expires, used_by, revoked FROM invites
                 WHERE table_id = ?1 ORDER BY rowid",
            )
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([table], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, bool>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, Option<i64>>(4)?,
                    r.get::<_, bool>(5)?,
                ))
            })
            .map_err(|e| self.err(e))?;
        let mut out = Vec::new();
        for row in rows {
            let (id, gm, created, expires, used_by, revoked) = row.map_err(|e| self.err(e))?;
            out.push(InviteRow {
                id,
                gm,
                created: stored_time(&self.path, "an invite", &created)?,
                expires: unix_time(&self.path, "an invite's expiry", expires)?,
                used_by,
                revoked,
            });
        }
        Ok(out)
    }

    fn revoke_invite(&mut self, table: i64, id: i64) -> Result<bool, StoreError> {
        self.conn
            .execute(
                "UPDATE invites SET revoked = 1
                 WHERE rowid = ?1 AND table_id = ?2 AND used_by IS NULL AND revoked = 0",
                params![id, table],
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
        let found = self
            .conn
            .prepare_cached(
                "SELECT m.id, m.table_id, t.name, m.name, m.role = 'gm', s.last_used
                 FROM sessions s JOIN members m ON m.id = s.member_id
                 JOIN tables t ON t.id = m.table_id
                 WHERE s.token_hash = ?1 AND s.last_used >= ?2",
            )
            .and_then(|mut st| {
                st.query_row(params![session_hash, now.saturating_sub(idle)], |r| {
                    Ok((row_to_member(r)?, r.get::<_, i64>(5)?))
                })
            })
            .optional()
            .map_err(|e| self.err(e))?;
        let Some((member, last_used)) = found else {
            return Ok(None);
        };
        if last_used < now.saturating_sub(SESSION_TOUCH.as_secs()) {
            // A busy campaign only delays the mark to a later request: the session is
            // valid either way, so a failed mark does not fail the request.
            let _ = self.conn.execute(
                "UPDATE sessions SET last_used = ?2 WHERE token_hash = ?1",
                params![session_hash, now],
            );
        }
        Ok(Some(member))
    }

    fn end_session(&mut self, session_hash: &str) -> Result<bool, StoreError> {
        let path = self.path.clone();
        let mut ended = false;
        self.in_write(&mut |c| {
            ended = c
                .execute("DELETE FROM sessions WHERE token_hash = ?1", [session_hash])
                .map_err(|e| classify(&path, e))?
                > 0;
            if ended {
                c.execute(
                    "INSERT INTO meta (key, value) VALUES (?1, '1')
                     ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1",
                    [SESSIONS_ENDED],
                )
                .map_err(|e| classify(&path, e))?;
            }
            Ok(())
        })?;
        Ok(ended)
    }

    fn sessions_ended(&self) -> Result<u64, StoreError> {
        let n: Option<i64> = self
            .conn
            .prepare_cached("SELECT CAST(value AS INTEGER) FROM meta WHERE key = ?1")
            .and_then(|mut st| st.query_row([SESSIONS_ENDED], |r| r.get(0)).optional())
            .map_err(|e| self.err(e))?;
        Ok(n.and_then(|n| u64::try_from(n).ok()).unwrap_or(0))
    }

    fn members(&self) -> Result<Vec<Member>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached(&format!(
                "SELECT {MEMBER_COLUMNS} WHERE m.table_id = ?1 ORDER BY m.id"
            ))
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([self.scope.table], row_to_member)
            .map_err(|e| self.err(e))?;
        rows.collect::<rusqlite::Result<Vec<_>>>()
            .map_err(|e| self.err(e))
    }

    fn tables(&self) -> Result<Vec<solum_store::TableRow>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT t.id, t.name, (SELECT count(*) FROM members m WHERE m.table_id = t.id)
                 FROM tables t ORDER BY t.id",
            )
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok(solum_store::TableRow {
                    id: r.get(0)?,
                    name: r.get(1)?,
                    members: r.get::<_, i64>(2)?.try_into().unwrap_or(0),
                })
            })
            .map_err(|e| self.err(e))?;
        rows.collect::<rusqlite::Result<Vec<_>>>()
            .map_err(|e| self.err(e))
    }

    fn sheet_owner(&self, system: &str, name: &str) -> Result<Option<i64>, StoreError> {
        owner_of(&self.conn, self.scope, system, name).map_err(|e| self.err(e))
    }

    fn sheet_owners(&self, system: &str) -> Result<Vec<(String, Option<i64>)>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT name, owner FROM sheets WHERE table_id = ?1 AND system = ?2")
            .map_err(|e| self.err(e))?;
        stmt.query_map(params![self.scope.table, system], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, Option<i64>>(1)?))
        })
        .and_then(|rows| rows.collect())
        .map_err(|e| self.err(e))
    }
}

impl StoreHandle for SqliteStore {
    fn scope(&self) -> Scope {
        self.scope
    }

    fn set_scope(&mut self, scope: Scope) {
        self.scope = scope;
    }

    fn location(&self) -> String {
        loc(&self.path)
    }

    /// A number that changes when another connection (another process, or another
    /// connection of this one) has committed a change to the file since this connection last
    /// looked (`PRAGMA data_version`): one cheap look tells a watcher whether to read on.
    fn data_version(&self) -> Result<i64, StoreError> {
        self.pragma_i64("data_version")
    }

    /// The last number of `table`'s journal (0 when empty), every entry counted (secret ones
    /// too): read from the end of the index `journal_by_table_seq`.
    fn last_seq(&self, table: i64) -> Result<i64, StoreError> {
        self.conn
            .prepare_cached("SELECT COALESCE(MAX(table_seq), 0) FROM journal WHERE table_id = ?1")
            .and_then(|mut s| s.query_row([table], |r| r.get(0)))
            .map_err(|e| self.err(e))
    }

    /// No transaction is open on the connection (it may be kept for later work).
    fn is_idle(&self) -> bool {
        self.conn.is_autocommit()
    }

    /// `PRAGMA wal_autocheckpoint = 0`: this connection's commits no longer copy the
    /// write-ahead log into the file once it passes 1,000 pages (read back: a setting that
    /// did not take must not go unnoticed).
    fn leave_checkpoints(&mut self) -> Result<(), StoreError> {
        self.conn
            .execute_batch("PRAGMA wal_autocheckpoint = 0")
            .map_err(|e| self.err(e))?;
        match self.pragma_i64("wal_autocheckpoint")? {
            0 => Ok(()),
            pages => Err(StoreError::BadPath {
                location: loc(&self.path),
                reason: format!("SQLite kept checkpointing every {pages} pages"),
            }),
        }
    }

    /// `PRAGMA wal_checkpoint(PASSIVE)`: copies the log's frames that no reader still needs
    /// into the file and syncs it, while writers and readers go on; answers the log's length
    /// in pages.
    fn checkpoint(&self) -> Result<u64, StoreError> {
        let log: i64 = self
            .conn
            .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| r.get(1))
            .map_err(|e| self.err(e))?;
        // -1 when the file is not in write-ahead mode: no log.
        Ok(u64::try_from(log).unwrap_or(0))
    }

    /// `PRAGMA wal_checkpoint(RESTART)`: copies what is left, waiting for readers of older
    /// snapshots (a reader that begins once the log is copied whole reads the file, and is
    /// not waited for); the next write starts the log again from its beginning. Not
    /// truncated: giving the file's blocks back and taking them again cost the writer some
    /// 30 ms each time on this project's test machine (docs/performance.md), where writing
    /// over them costs nothing more.
    ///
    /// Readers are waited for a millisecond at a time (within [`BUSY_TIMEOUT`]): SQLite's
    /// own waits grow to 100 ms, and the writer's queue waits with it.
    fn restart_log(&mut self) -> Result<(), StoreError> {
        let tries = BUSY_TIMEOUT.as_millis();
        self.conn
            .busy_handler(Some(move |n: i32| {
                std::thread::sleep(std::time::Duration::from_millis(1));
                u128::from(n.unsigned_abs()) < tries
            }))
            .map_err(|e| self.err(e))?;
        // Its first column is 1 when the restart could not complete (another connection's
        // checkpoint held the log, or a reader outlasted the wait): the log was not started
        // again, and the next write goes on at its end.
        let blocked = self
            .conn
            .query_row("PRAGMA wal_checkpoint(RESTART)", [], |r| r.get::<_, i64>(0))
            .map_err(|e| self.err(e));
        self.conn
            .busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| self.err(e))?;
        if blocked? != 0 {
            return Err(StoreError::Busy {
                location: loc(&self.path),
            });
        }
        Ok(())
    }
}

/// Turns a driver error into what it means for the player.
fn classify(path: &Path, e: rusqlite::Error) -> StoreError {
    let location = loc(path);
    match e.sqlite_error_code() {
        Some(ErrorCode::NotADatabase) => StoreError::NotACampaign {
            location,
            reason: "the file is not a SQLite database".into(),
        },
        Some(ErrorCode::ReadOnly) => StoreError::ReadOnly { location },
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => StoreError::Busy { location },
        Some(ErrorCode::DiskFull) => StoreError::Full { location },
        Some(ErrorCode::CannotOpen) => StoreError::BadPath {
            location,
            reason: "cannot open or create the campaign file (does its folder exist?)".into(),
        },
        _ => StoreError::Backend {
            location,
            message: e.to_string(),
        },
    }
}

/// What a file's errors name it by.
fn loc(path: &Path) -> String {
    path.display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every guarantee of `solum_store`'s conformance suite, each on a fresh file.
    #[test]
    fn the_conformance_suite_passes_on_sqlite() {
        let dir = tempfile::tempdir().unwrap();
        let n = std::cell::Cell::new(0u32);
        solum_store::conformance::run_all(&|| {
            n.set(n.get() + 1);
            let path = dir.path().join(format!("c{}.solum", n.get()));
            Box::new(SqliteStore::open(&path, Scope::HOME).unwrap()) as Box<dyn solum_store::Store>
        });
        assert!(n.get() >= 13, "every guarantee ran on its own file");
    }

    fn entry(n: i64) -> NewEntry {
        NewEntry {
            at: "2026-11-30T12:00:00Z".parse().expect("a time"),
            kind: "note".into(),
            schema: 1,
            body: serde_json::json!({ "text": format!("entry {n}") }),
        }
    }

    /// The plan SQLite picks for `sql`, one detail a line.
    fn plan(s: &SqliteStore, sql: &str, params: impl rusqlite::Params) -> String {
        let mut stmt = s
            .conn
            .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
            .unwrap();
        let rows = stmt.query_map(params, |r| r.get::<_, String>(3)).unwrap();
        rows.map(Result::unwrap).collect::<Vec<_>>().join("\n")
    }

    /// The open scene and the last entries are read from the end by an index: no scan of
    /// the journal and no sort, whatever its length.
    #[test]
    fn the_last_entries_and_the_last_of_a_kind_are_read_by_index() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = SqliteStore::open(&dir.path().join("c.solum"), Scope::HOME).unwrap();
        let mut entries: Vec<NewEntry> = (1..=50).map(entry).collect();
        entries[9].kind = "scene-start".into();
        entries[19].kind = "scene-end".into();
        s.append(&entries).unwrap();
        let last = plan(&s, LAST_ENTRIES, params![3, 0, true]);
        assert!(last.contains("USING INDEX journal_by_table_seq"), "{last}");
        assert!(!last.contains("TEMP B-TREE"), "{last}");
        let before = plan(&s, ENTRIES_BEFORE, params![40, 3, 0, true]);
        assert!(
            before.contains("USING INDEX journal_by_table_seq"),
            "{before}"
        );
        assert!(!before.contains("TEMP B-TREE"), "{before}");
        let seqs: Vec<i64> = s
            .entries_before(40, 3)
            .unwrap()
            .iter()
            .map(|e| e.seq)
            .collect();
        assert_eq!(seqs, [39, 38, 37]);
        for (name, sql) in [("after", SEQS_AFTER), ("before", SEQS_BEFORE)] {
            let p = plan(&s, sql, params![40, 3, 0, true]);
            assert!(
                p.contains("USING INDEX journal_by_table_seq"),
                "{name}: {p}"
            );
            assert!(!p.contains("TEMP B-TREE"), "{name}: {p}");
        }
        let at = plan(&s, ENTRY_AT, params![7, 0, true]);
        assert!(at.contains("USING INDEX journal_by_table_seq"), "{at}");
        let kind = plan(&s, LAST_OF_KIND, params!["scene-start", 0, true]);
        assert!(kind.contains("USING INDEX journal_by_kind"), "{kind}");
        assert!(!kind.contains("TEMP B-TREE"), "{kind}");
        let seqs: Vec<i64> = s.last_entries(3).unwrap().iter().map(|e| e.seq).collect();
        assert_eq!(seqs, [48, 49, 50]);
        assert_eq!(s.last_of_kind("scene-start").unwrap().unwrap().seq, 10);
        assert_eq!(s.last_of_kind("scene-end").unwrap().unwrap().seq, 20);
        assert!(s.last_of_kind("roll").unwrap().is_none());
        assert_eq!(s.last_entries(1000).unwrap().len(), 50);
    }

    /// Writes in a group are each all or nothing, and durable together at its end; nothing
    /// of an unfinished group survives the connection.
    #[test]
    fn a_group_keeps_its_good_writes_drops_a_failed_one_and_commits_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.solum");
        let mut s = SqliteStore::open(&path, Scope::HOME).unwrap();
        s.begin_group().unwrap();
        s.append(&[entry(1)]).unwrap();
        let failed = s.write(&mut |tx| {
            tx.append(&[entry(2)])?;
            Err(StoreError::BadRecord("refused".into()))
        });
        assert!(failed.is_err());
        s.set_meta("oracle", "classic").unwrap();
        s.append(&[entry(3)]).unwrap();
        // Another connection sees nothing of the group yet.
        let other = SqliteStore::open_existing(&path, Scope::HOME).unwrap();
        assert_eq!(other.entry_count().unwrap(), 0);
        s.end_group().unwrap();
        let texts: Vec<String> = other
            .entries_after(0, 10)
            .unwrap()
            .iter()
            .map(|e| e.body["text"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(texts, ["entry 1", "entry 3"]);
        assert_eq!(other.meta("oracle").unwrap().as_deref(), Some("classic"));
        // A group never ended is lost with its connection.
        s.begin_group().unwrap();
        s.append(&[entry(4)]).unwrap();
        drop(s);
        assert_eq!(other.entry_count().unwrap(), 2);
    }

    #[test]
    fn integrity_problems_name_a_dangling_reference() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.solum");
        {
            let mut s = SqliteStore::open(&path, Scope::HOME).unwrap();
            s.append(&[entry(1)]).unwrap();
            assert_eq!(s.integrity_problems().unwrap(), Vec::<String>::new());
        }
        {
            // Another program, with foreign keys off, stores a sheet of a table that is not.
            let raw = rusqlite::Connection::open(&path).unwrap();
            raw.execute_batch(
                "PRAGMA foreign_keys = OFF;
                 INSERT INTO sheets (table_id, system, name, name_key, schema, version, body)
                 VALUES (999, 'expanded', 'Ghost', 'ghost', 1, 1, '{}');",
            )
            .unwrap();
        }
        let s = SqliteStore::open(&path, Scope::HOME).unwrap();
        let problems = s.integrity_problems().unwrap();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].contains("foreign key check") && problems[0].contains("sheets"),
            "{problems:?}"
        );
    }

    /// The statements every request and the live feed use are prepared once per
    /// connection: binding other values (another table, another page, another limit) does not
    /// make SQLite parse and plan them again (the query planner stability guarantee).
    #[test]
    fn a_kept_statement_is_not_prepared_again_for_other_values() {
        use rusqlite::StatementStatus;
        let dir = tempfile::tempdir().unwrap();
        let mut s = SqliteStore::open(&dir.path().join("c.solum"), Scope::HOME).unwrap();
        s.append(&[entry(1), entry(2), entry(3)]).unwrap();
        for (table, n) in [(0, 1_usize), (1, 2), (2, 5), (0, 7)] {
            s.set_scope(Scope {
                table,
                ..Scope::HOME
            });
            s.members().unwrap();
            s.entries_after(i64::try_from(n % 3).unwrap(), n).unwrap();
            s.last_entries(n).unwrap();
            s.meta(&format!("key-{n}")).unwrap();
        }
        let members = format!("SELECT {MEMBER_COLUMNS} WHERE m.table_id = ?1 ORDER BY m.id");
        for sql in [
            members.as_str(),
            ENTRIES_AFTER,
            LAST_ENTRIES,
            "SELECT value FROM meta WHERE key = ?1",
        ] {
            let st = s.conn.prepare_cached(sql).unwrap();
            assert_eq!(
                st.get_status(StatementStatus::RePrepare),
                0,
                "prepared again: {sql}"
            );
        }
    }

    /// A connection that leaves its checkpoints to another never copies its log into the
    /// file, however long the log grows (SQLite's default copies it at 1,000 pages); the other
    /// connection's checkpoint does.
    #[test]
    fn checkpoints_left_to_another_connection_are_made_by_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.solum");
        let mut writer = SqliteStore::open(&path, Scope::HOME).unwrap();
        writer.leave_checkpoints().unwrap();
        let file_size = || std::fs::metadata(&path).unwrap().len();
        let before = file_size();
        // Some 2,000 pages of 4 KiB: twice the default's threshold.
        let text = "x".repeat(4_000);
        for chunk in 0..40 {
            let entries: Vec<NewEntry> = (0..50)
                .map(|n| NewEntry {
                    body: serde_json::json!({ "text": format!("{chunk} {n} {text}") }),
                    ..entry(n)
                })
                .collect();
            writer.append(&entries).unwrap();
        }
        let wal = std::fs::metadata(path.with_extension("solum-wal"))
            .unwrap()
            .len();
        assert!(
            wal > 2_000 * 4_096,
            "the log holds every write: {wal} bytes"
        );
        assert_eq!(file_size(), before, "the file was not written");
        let other = SqliteStore::open_existing(&path, Scope::HOME).unwrap();
        assert!(
            other.checkpoint().unwrap() >= 2_000,
            "the log's length in pages"
        );
        assert!(
            file_size() > before + 2_000 * 4_096,
            "the checkpoint copied the log: {} bytes",
            file_size()
        );
        // Everything is there for a new reader.
        assert_eq!(other.entries_after(0, 5_000).unwrap().len(), 2_000);
        // A log started again is written over from its beginning: it keeps its size, and
        // holds only what came after.
        let wal = path.with_extension("solum-wal");
        let size = std::fs::metadata(&wal).unwrap().len();
        writer.restart_log().unwrap();
        writer.append(&[entry(1)]).unwrap();
        assert_eq!(std::fs::metadata(&wal).unwrap().len(), size, "written over");
        let log = other.checkpoint().unwrap();
        assert!(log < 10, "the log started again: {log} pages");
        assert_eq!(other.entries_after(0, 5_000).unwrap().len(), 2_001);
    }

    #[test]
    fn entries_come_back_in_order_after_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.solum");
        {
            let mut s = SqliteStore::open(&path, Scope::HOME).unwrap();
            assert_eq!(s.schema_version().unwrap(), SCHEMA_VERSION);
            s.append(&[entry(1), entry(2)]).unwrap();
            s.append(&[entry(3)]).unwrap();
        }
        let s = SqliteStore::open(&path, Scope::HOME).unwrap();
        let got = s.entries_after(0, 100).unwrap();
        let texts: Vec<_> = got.iter().map(|e| e.body["text"].clone()).collect();
        assert_eq!(texts, ["entry 1", "entry 2", "entry 3"]);
        assert_eq!(s.entries_after(got[1].seq, 100).unwrap().len(), 1);
        assert_eq!(s.entry_count().unwrap(), 3);
        s.check_integrity().unwrap();
    }

    #[test]
    fn every_connection_has_the_settings_a_campaign_needs() {
        let dir = tempfile::tempdir().unwrap();
        let s = SqliteStore::open(&dir.path().join("c.solum"), Scope::HOME).unwrap();
        let mode: String = s
            .conn
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
        assert_eq!(s.pragma_i64("synchronous").unwrap(), 2);
        assert_eq!(s.pragma_i64("foreign_keys").unwrap(), 1);
        assert_eq!(s.pragma_i64("busy_timeout").unwrap(), 10_000);
        assert_eq!(s.pragma_i64("application_id").unwrap(), APPLICATION_ID);
    }

    #[test]
    fn journal_entries_cannot_be_changed_or_deleted() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = SqliteStore::open(&dir.path().join("c.solum"), Scope::HOME).unwrap();
        s.append(&[entry(1)]).unwrap();
        assert!(
            s.conn
                .execute("UPDATE journal SET body = '{}'", [])
                .is_err()
        );
        assert!(s.conn.execute("DELETE FROM journal", []).is_err());
        assert_eq!(s.entry_count().unwrap(), 1);
    }

    #[test]
    fn a_file_that_is_not_a_campaign_is_refused_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.txt");
        let text = "not a database, but a player's notes\n".repeat(200);
        std::fs::write(&path, &text).unwrap();
        let e = SqliteStore::open(&path, Scope::HOME).unwrap_err();
        assert!(matches!(e, StoreError::NotACampaign { .. }), "{e}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);

        let other = dir.path().join("other.db");
        let c = Connection::open(&other).unwrap();
        c.execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
            .unwrap();
        drop(c);
        let e = SqliteStore::open(&other, Scope::HOME).unwrap_err();
        assert!(e.to_string().contains("another program"), "{e}");
    }

    #[test]
    fn a_newer_schema_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.solum");
        let s = SqliteStore::open(&path, Scope::HOME).unwrap();
        s.conn
            .execute_batch(&format!("PRAGMA user_version = {}", SCHEMA_VERSION + 1))
            .unwrap();
        drop(s);
        let e = SqliteStore::open(&path, Scope::HOME).unwrap_err();
        assert!(
            matches!(e, StoreError::NewerSchema { found, .. } if found == SCHEMA_VERSION + 1),
            "{e}"
        );
    }

    #[test]
    fn a_folder_is_not_a_campaign() {
        let dir = tempfile::tempdir().unwrap();
        let e = SqliteStore::open(dir.path(), Scope::HOME).unwrap_err();
        assert!(matches!(e, StoreError::BadPath { .. }), "{e}");
    }

    #[test]
    fn a_full_disk_changes_nothing_and_writing_resumes_with_room() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = SqliteStore::open(&dir.path().join("c.solum"), Scope::HOME).unwrap();
        s.append(&[entry(0)]).unwrap();
        let pages: i64 = s
            .conn
            .query_row("PRAGMA page_count", [], |r| r.get(0))
            .unwrap();
        s.limit_pages(pages as u64).unwrap();
        let big = NewEntry {
            body: serde_json::json!({ "text": "x".repeat(60_000) }),
            ..entry(1)
        };
        let mut refused = false;
        for _ in 0..10 {
            match s.append(std::slice::from_ref(&big)) {
                Ok(_) => {}
                Err(StoreError::Full { .. }) => {
                    refused = true;
                    break;
                }
                Err(e) => panic!("unexpected error {e}"),
            }
        }
        assert!(refused, "the page limit never filled");
        let before = s.entry_count().unwrap();
        assert!(before >= 1);
        s.check_integrity().unwrap();
        assert_eq!(s.entries_after(0, 1).unwrap()[0].body["text"], "entry 0");
        s.limit_pages(1 << 30).unwrap();
        s.append(&[big]).unwrap();
        assert_eq!(s.entry_count().unwrap(), before + 1);
    }

    fn sheet(name: &str, n: i64) -> Sheet {
        Sheet {
            system: "expanded".into(),
            name: name.into(),
            schema: 1,
            version: 0,
            body: serde_json::json!({ "n": n }),
        }
    }

    /// Many connections changing one sheet at once: every change lands.
    #[test]
    fn concurrent_read_change_writes_all_land() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.solum");
        let mut s = SqliteStore::open(&path, Scope::HOME).unwrap();
        s.write(&mut |tx| tx.insert_sheet(&sheet("Nick", 0)))
            .unwrap();
        drop(s);
        let threads: Vec<_> = (0..8)
            .map(|_| {
                let path = path.clone();
                std::thread::spawn(move || {
                    let mut s = SqliteStore::open(&path, Scope::HOME).unwrap();
                    for _ in 0..10 {
                        s.write(&mut |tx| {
                            let mut nick = tx.sheet("expanded", "Nick")?.unwrap();
                            let n = nick.body["n"].as_i64().unwrap();
                            nick.body = serde_json::json!({ "n": n + 1 });
                            tx.update_sheet("expanded", "Nick", &nick).map(drop)
                        })
                        .unwrap();
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        let s = SqliteStore::open(&path, Scope::HOME).unwrap();
        let nick = s.sheet("expanded", "Nick").unwrap().unwrap();
        assert_eq!((nick.body["n"].as_i64(), nick.version), (Some(80), 81));
    }

    /// A campaign of schema 1 is brought to the current schema, its journal kept; a migration
    /// that fails half-way leaves schema 1.
    #[test]
    fn migrations_run_in_order_and_a_failed_one_leaves_the_old_schema() {
        let dir = tempfile::tempdir().unwrap();
        let make_v1 = |path: &Path| {
            let c = Connection::open(path).unwrap();
            c.execute_batch(&format!(
                "PRAGMA application_id = {APPLICATION_ID}; {} PRAGMA user_version = 1;
                 INSERT INTO journal (at, kind, schema, body) VALUES ('2026-01-01T00:00:00Z', 'note', 1, '{{\"text\":\"old\"}}');",
                MIGRATIONS[0]
            ))
            .unwrap();
        };
        let good = dir.path().join("v1.solum");
        make_v1(&good);
        let s = SqliteStore::open(&good, Scope::HOME).unwrap();
        assert_eq!(s.schema_version().unwrap(), SCHEMA_VERSION);
        assert_eq!(s.entries_after(0, 10).unwrap()[0].body["text"], "old");

        // A table in the way makes migration 2 fail after its first statement could run.
        let blocked = dir.path().join("blocked.solum");
        make_v1(&blocked);
        let c = Connection::open(&blocked).unwrap();
        c.execute_batch("CREATE TABLE sheets (x);").unwrap();
        drop(c);
        assert!(SqliteStore::open(&blocked, Scope::HOME).is_err());
        let c = Connection::open(&blocked).unwrap();
        let v: i64 = c
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(v, 1);
        let n: i64 = c
            .query_row("SELECT count(*) FROM journal", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 1);
    }

    /// A campaign of schema 6 (one numbering for the whole file) gains each table's own
    /// numbering: existing entries numbered 1, 2, 3, … per table in their order, the
    /// imported-through markers turned into their table's numbers, and entries appended after
    /// the upgrade going on from each table's last number. The journal stays append-only.
    #[test]
    fn migration_7_numbers_each_tables_journal_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v6.solum");
        let c = Connection::open(&path).unwrap();
        let mut sql = format!("PRAGMA application_id = {APPLICATION_ID};");
        for m in &MIGRATIONS[..6] {
            sql.push_str(m);
        }
        // Global order: t0, t1, t1, t0, t1(secret), t0 — seq 1 … 6.
        sql.push_str(
            "PRAGMA user_version = 6;
             INSERT INTO tables (id, name, created) VALUES (1, 'club', '');
             INSERT INTO journal (at, kind, schema, body, table_id, secret) VALUES
                 ('2026-01-01T00:00:00Z', 'note', 1, '{\"text\":\"a\"}', 0, 0),
                 ('2026-01-01T00:00:01Z', 'note', 1, '{\"text\":\"b\"}', 1, 0),
                 ('2026-01-01T00:00:02Z', 'note', 1, '{\"text\":\"c\"}', 1, 0),
                 ('2026-01-01T00:00:03Z', 'note', 1, '{\"text\":\"d\"}', 0, 0),
                 ('2026-01-01T00:00:04Z', 'note', 1, '{\"text\":\"e\"}', 1, 1),
                 ('2026-01-01T00:00:05Z', 'note', 1, '{\"text\":\"f\"}', 0, 0);
             INSERT INTO meta (key, value) VALUES
                 ('journal.imported_through', '4'),
                 ('table/1/journal.imported_through', '3'),
                 ('oracle', 'expanded');",
        );
        c.execute_batch(&sql).unwrap();
        drop(c);
        let mut home = SqliteStore::open(&path, Scope::HOME).unwrap();
        assert_eq!(home.schema_version().unwrap(), 7);
        let seqs = |s: &SqliteStore| -> Vec<(i64, String)> {
            s.entries_after(0, 10)
                .unwrap()
                .into_iter()
                .map(|e| (e.seq, e.body["text"].as_str().unwrap().to_string()))
                .collect()
        };
        let own = |v: &[(i64, &str)]| -> Vec<(i64, String)> {
            v.iter().map(|(n, t)| (*n, t.to_string())).collect()
        };
        assert_eq!(seqs(&home), own(&[(1, "a"), (2, "d"), (3, "f")]));
        let gm = SqliteStore::open(&path, Scope::member(1, 1, true)).unwrap();
        assert_eq!(seqs(&gm), own(&[(1, "b"), (2, "c"), (3, "e")]));
        // A player does not read the secret entry: its number is the gap.
        let player = SqliteStore::open(&path, Scope::member(1, 2, false)).unwrap();
        assert_eq!(seqs(&player), own(&[(1, "b"), (2, "c")]));
        // Global 4 was table 0's second entry; global 3 table 1's second.
        assert_eq!(
            home.meta("journal.imported_through").unwrap().as_deref(),
            Some("2")
        );
        assert_eq!(
            gm.meta("journal.imported_through").unwrap().as_deref(),
            Some("2")
        );
        assert_eq!(home.meta("oracle").unwrap().as_deref(), Some("expanded"));
        // Numbers go on per table.
        assert_eq!(home.append(&[entry(7)]).unwrap()[0].seq, 4);
        let mut gm = gm;
        assert_eq!(gm.append(&[entry(8), entry(9)]).unwrap()[1].seq, 5);
        assert!(
            home.conn
                .execute("UPDATE journal SET body = '{}' WHERE seq = 1", [])
                .is_err()
        );
        // The unique index refuses a second entry with a table's number.
        assert!(
            home.conn
                .execute(
                    "INSERT INTO journal (at, kind, schema, body, table_id, table_seq)
                     VALUES ('x', 'note', 1, '{}', 1, 5)",
                    [],
                )
                .is_err()
        );
    }

    /// A reader that pages with `after` while two writers append to its table never passes
    /// an entry it has not read: everything is read once, in order. (Guard: SQLite's single
    /// writer assigns numbers in commit order, so a reader's snapshot is always a prefix.)
    #[test]
    fn a_reader_paging_by_number_never_skips_an_entry_of_concurrent_writers() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.solum");
        SqliteStore::open(&path, Scope::HOME).unwrap();
        const EACH: usize = 150;
        let writers: Vec<_> = (0..2)
            .map(|w| {
                let path = path.clone();
                std::thread::spawn(move || {
                    let mut s = SqliteStore::open(&path, Scope::HOME).unwrap();
                    for n in 0..EACH {
                        let n = i64::try_from(w * EACH + n).unwrap();
                        s.append(&[entry(n)]).unwrap();
                    }
                })
            })
            .collect();
        let reader = SqliteStore::open(&path, Scope::HOME).unwrap();
        let mut seen = Vec::new();
        let mut after = 0;
        loop {
            let done = writers.iter().all(std::thread::JoinHandle::is_finished);
            for e in reader.entries_after(after, 7).unwrap() {
                after = e.seq;
                seen.push(e.seq);
            }
            if done && reader.entries_after(after, 1).unwrap().is_empty() {
                break;
            }
        }
        for w in writers {
            w.join().unwrap();
        }
        let all: Vec<i64> = reader
            .entries_after(0, 10_000)
            .unwrap()
            .iter()
            .map(|e| e.seq)
            .collect();
        assert_eq!(all.len(), 2 * EACH);
        assert_eq!(seen, all, "the reader skipped or repeated an entry");
    }

    /// A campaign of schema 2 gains tables: its journal and sheets become table 0's, kept
    /// whole; a migration 3 that fails half-way leaves schema 2 and its data.
    #[test]
    fn migration_3_keeps_the_campaign_as_table_0_and_a_failed_one_leaves_schema_2() {
        let dir = tempfile::tempdir().unwrap();
        let make_v2 = |path: &Path| {
            let c = Connection::open(path).unwrap();
            c.execute_batch(&format!(
                "PRAGMA application_id = {APPLICATION_ID}; {} {} PRAGMA user_version = 2;
                 INSERT INTO journal (at, kind, schema, body) VALUES ('2026-01-01T00:00:00Z', 'note', 1, '{{\"text\":\"old\"}}');
                 INSERT INTO sheets (system, name, name_key, schema, version, body) VALUES ('expanded', 'Nick', 'nick', 1, 3, '{{\"n\":7}}');",
                MIGRATIONS[0], MIGRATIONS[1]
            ))
            .unwrap();
        };
        let good = dir.path().join("v2.solum");
        make_v2(&good);
        let s = SqliteStore::open(&good, Scope::HOME).unwrap();
        assert_eq!(s.schema_version().unwrap(), SCHEMA_VERSION);
        assert_eq!(s.entries_after(0, 10).unwrap()[0].body["text"], "old");
        let nick = s.sheet("expanded", "nick").unwrap().unwrap();
        assert_eq!((nick.version, nick.body["n"].as_i64()), (3, Some(7)));
        // Table 0's data is not another table's.
        let other = SqliteStore::open(&good, Scope::member(5, 1, true)).unwrap();
        assert!(other.entries_after(0, 10).unwrap().is_empty());
        assert!(other.sheet("expanded", "nick").unwrap().is_none());

        let blocked = dir.path().join("blocked.solum");
        make_v2(&blocked);
        let c = Connection::open(&blocked).unwrap();
        c.execute_batch("CREATE TABLE sessions (x);").unwrap();
        drop(c);
        assert!(SqliteStore::open(&blocked, Scope::HOME).is_err());
        let c = Connection::open(&blocked).unwrap();
        let v: i64 = c
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(v, 2);
        // Nothing of the migration's first statements stayed.
        let tables: i64 = c
            .query_row(
                "SELECT count(*) FROM sqlite_schema WHERE name IN ('tables', 'members', 'sheets3')",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(tables, 0);
        let cols: i64 = c
            .query_row(
                "SELECT count(*) FROM pragma_table_info('journal') WHERE name = 'table_id'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(cols, 0);
        let n: i64 = c
            .query_row("SELECT count(*) FROM sheets", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 1);
    }

    /// Upgrading a schema-4 campaign revokes the home table's unused game master invites
    /// (one more piled up at every start of `solum serve`), dates every other invite's
    /// expiry seven days after its creation, and keys the members' names.
    #[test]
    fn migration_5_revokes_piled_up_home_invites_and_dates_the_others() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v4.solum");
        let c = Connection::open(&path).unwrap();
        c.execute_batch(&format!(
            "PRAGMA application_id = {APPLICATION_ID}; {} {} {} {} PRAGMA user_version = 4;
             INSERT INTO tables (id, name, created) VALUES (1, 'A', '2026-01-01T00:00:00Z');
             INSERT INTO members (id, table_id, name, role, joined) VALUES (1, 1, ' Gia ', 'gm', 't');
             INSERT INTO invites (token_hash, table_id, role, created) VALUES
                 ('h1', 0, 'gm', '2026-01-01T00:00:00Z'),
                 ('h2', 0, 'gm', '2026-01-02T00:00:00Z'),
                 ('h3', 0, 'player', '2026-01-01T00:00:00Z'),
                 ('h4', 1, 'gm', '2026-01-01T00:00:00Z');",
            MIGRATIONS[0], MIGRATIONS[1], MIGRATIONS[2], MIGRATIONS[3]
        ))
        .unwrap();
        drop(c);
        let mut s = SqliteStore::open(&path, Scope::HOME).unwrap();
        assert_eq!(s.schema_version().unwrap(), SCHEMA_VERSION);
        // 2026-01-01T00:00:00Z is 1767225600; seven days are 604800 seconds.
        let rows: Vec<(bool, i64, bool)> = s
            .invites(0)
            .unwrap()
            .into_iter()
            .map(|r| (r.gm, r.expires.as_second(), r.revoked))
            .collect();
        assert_eq!(
            rows,
            [
                (true, 1_767_225_600 + 604_800, true),
                (true, 1_767_312_000 + 604_800, true),
                (false, 1_767_225_600 + 604_800, false)
            ]
        );
        let other: Vec<bool> = s.invites(1).unwrap().iter().map(|r| r.revoked).collect();
        assert_eq!(other, [false], "another table's game master invite is kept");
        let at = Timestamp::from_second(1_767_225_600).unwrap();
        assert_eq!(
            s.redeem_invite("h4", "GIA", "gia", "s", at, at).unwrap(),
            Redeemed::NameTaken(" Gia ".into())
        );
    }
}
