//! Opens the campaign store the user named, whatever its backend: the one place a front end
//! turns "a file path or a database address" into a `Box<dyn Store>`.
//!
//! A name starting `postgres://` or `postgresql://` is a PostgreSQL address; one that reads
//! as an address mistyped (another scheme, `postgres:` without `//`, a space before) is
//! refused; anything else is the path of a SQLite file. A [`Database`] never shows a password: not in its `Display`
//! (which errors and logs use), not in its `Debug`.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use solum_store::{Scope, Store, StoreError};
use solum_store_postgres::{ChangeListener, PostgresStore};

/// What the change feed tells: a table's new entries, or a session ended.
pub use solum_store_postgres::Change;
use solum_store_sqlite::SqliteStore;

/// Where a campaign lives, as the user named it.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Database {
    /// A SQLite file (created by a command that writes).
    Sqlite(PathBuf),
    /// A PostgreSQL address (`postgres://user:password@host:port/name?…`), password included:
    /// shown only through [`Database`]'s `Display`, which removes it.
    Postgres(String),
}

/// The prefixes that make a name a PostgreSQL address.
const POSTGRES_SCHEMES: [&str; 2] = ["postgres://", "postgresql://"];

impl Database {
    /// True for a PostgreSQL address.
    pub fn is_postgres(&self) -> bool {
        matches!(self, Self::Postgres(_))
    }
}

impl From<PathBuf> for Database {
    fn from(path: PathBuf) -> Self {
        Self::Sqlite(path)
    }
}

impl From<&std::path::Path> for Database {
    fn from(path: &std::path::Path) -> Self {
        Self::Sqlite(path.to_path_buf())
    }
}

impl From<&PathBuf> for Database {
    fn from(path: &PathBuf) -> Self {
        Self::Sqlite(path.clone())
    }
}

impl FromStr for Database {
    type Err = StoreError;

    /// A PostgreSQL address by its scheme (compared without regard to case); anything else
    /// non-empty is a file path.
    fn from_str(name: &str) -> Result<Self, StoreError> {
        if name.is_empty() {
            return Err(StoreError::BadPath {
                location: String::new(),
                reason: "no campaign named (give a file path or a postgres:// address)".into(),
            });
        }
        let lower = name.get(..POSTGRES_SCHEMES[1].len()).unwrap_or(name);
        if POSTGRES_SCHEMES
            .iter()
            .any(|p| lower.to_ascii_lowercase().starts_with(p))
        {
            Ok(Self::Postgres(name.to_owned()))
        } else if looks_like_an_address(name) {
            // Refused rather than made a file of that name: a mistyped address would serve a
            // new, empty campaign, and show its password as the file's name.
            Err(StoreError::BadPath {
                location: "(a database address)".into(),
                reason: "not a PostgreSQL address (it starts `postgres://` or \
                         `postgresql://`, no space before) nor a file path (give a file whose \
                         name holds `://` or starts `postgres:` as ./NAME)"
                    .into(),
            })
        } else {
            Ok(Self::Sqlite(PathBuf::from(name)))
        }
    }
}

/// A name that is no PostgreSQL address yet reads as one mistyped: a scheme (`://`), or
/// `postgres:`/`postgresql:` (after spaces, in any case). A path written from `.` or `/`
/// is a file whatever it holds.
fn looks_like_an_address(name: &str) -> bool {
    if name.starts_with(['.', '/']) {
        return false;
    }
    let lower = name.trim_start().to_ascii_lowercase();
    name.contains("://") || lower.starts_with("postgres:") || lower.starts_with("postgresql:")
}

/// `url` without its password: the user part keeps only the user's name, and any
/// `password=` parameter goes. Where the address is malformed, more is removed rather than
/// less.
fn without_password(url: &str) -> String {
    let Some(split) = url.find("://") else {
        return "(a database address)".to_owned();
    };
    let (scheme, rest) = url.split_at(split + 3);
    let (before_query, query) = match rest.find('?') {
        Some(q) => (&rest[..q], Some(&rest[q + 1..])),
        None => (rest, None),
    };
    // The last `@` before the query ends the user part: a password holding an unescaped
    // `@` or `/` is removed whole.
    let shown = match before_query.rfind('@') {
        Some(at) => {
            let user = before_query[..at].split(':').next().unwrap_or("");
            format!("{user}@{}", &before_query[at + 1..])
        }
        None => before_query.to_owned(),
    };
    let mut out = format!("{scheme}{shown}");
    if let Some(query) = query {
        let kept: Vec<&str> = query
            .split('&')
            .filter(|p| {
                let key = p.split('=').next().unwrap_or("");
                !key.eq_ignore_ascii_case("password")
            })
            .collect();
        if !kept.is_empty() {
            out.push('?');
            out.push_str(&kept.join("&"));
        }
    }
    out
}

impl fmt::Display for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Sqlite(path) => write!(f, "{}", path.display()),
            Self::Postgres(url) => f.write_str(&without_password(url)),
        }
    }
}

impl fmt::Debug for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Sqlite(path) => f.debug_tuple("Sqlite").field(path).finish(),
            Self::Postgres(_) => f.debug_tuple("Postgres").field(&self.to_string()).finish(),
        }
    }
}

/// Opens the campaign `db` seen through `scope`, creating it on first use.
pub fn open(db: &Database, scope: Scope) -> Result<Box<dyn Store>, StoreError> {
    match db {
        Database::Sqlite(path) => Ok(Box::new(SqliteStore::open(path, scope)?)),
        Database::Postgres(url) => Ok(Box::new(PostgresStore::open_scoped(url, scope)?)),
    }
}

/// Opens an existing campaign `db` seen through `scope`: nothing is created (a missing one
/// is [`StoreError::Missing`]), and a SQLite file without write permission is opened
/// read-only.
pub fn open_existing(db: &Database, scope: Scope) -> Result<Box<dyn Store>, StoreError> {
    match db {
        Database::Sqlite(path) => Ok(Box::new(SqliteStore::open_existing(path, scope)?)),
        Database::Postgres(url) => {
            let mut store = PostgresStore::open_existing(url)?;
            store.set_scope(scope);
            Ok(Box::new(store))
        }
    }
}

/// A server's one change feed from other processes: PostgreSQL tells each listening
/// connection of every committed append ([`Changes::next_timeout`] yields the table);
/// SQLite tells nothing, and a server looks at [`solum_store::StoreHandle::data_version`]
/// instead.
pub struct Changes {
    listener: ChangeListener,
}

impl fmt::Debug for Changes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Changes")
            .field("location", &self.listener.location())
            .finish()
    }
}

impl Changes {
    /// The next table whose journal gained entries (committed by any process, this one
    /// included), waiting at most `timeout`; none when nothing came in time. An error means
    /// the listening connection is gone: [`listen`] again, then catch up by each table's
    /// last number (what was committed meanwhile was not told).
    pub fn next_timeout(
        &mut self,
        timeout: std::time::Duration,
    ) -> Result<Option<i64>, StoreError> {
        self.listener.next_timeout(timeout)
    }

    /// The next change (a table's new entries, or a session ended on any server), waiting
    /// at most `timeout`; none when nothing came in time. An error is as for
    /// [`Changes::next_timeout`]; a server also forgets every session it trusted meanwhile.
    pub fn next_change(
        &mut self,
        timeout: std::time::Duration,
    ) -> Result<Option<Change>, StoreError> {
        self.listener.next_change(timeout)
    }
}

/// Listens for changes to the campaign `db`: `Some` on PostgreSQL (one connection, held
/// open), `None` on SQLite, which has no notifications (watch `data_version`). Changes
/// committed before this returns are not told: read up to the tables' numbers afterwards.
pub fn listen(db: &Database) -> Result<Option<Changes>, StoreError> {
    match db {
        Database::Sqlite(_) => Ok(None),
        Database::Postgres(url) => Ok(Some(Changes {
            listener: ChangeListener::connect(url)?,
        })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn db(name: &str) -> Database {
        name.parse().unwrap()
    }

    #[test]
    fn a_postgres_scheme_names_a_database_and_anything_else_a_file() {
        assert!(db("postgres://u@h/c").is_postgres());
        assert!(db("postgresql://h/c").is_postgres());
        assert!(db("PostgreSQL://h/c").is_postgres());
        assert_eq!(
            db("campaign.solum"),
            Database::Sqlite("campaign.solum".into())
        );
        assert_eq!(
            db("postgres.solum"),
            Database::Sqlite("postgres.solum".into())
        );
        assert_eq!(
            db("./postgres://x"),
            Database::Sqlite("./postgres://x".into())
        );
        assert!("".parse::<Database>().is_err());
    }

    #[test]
    fn a_mistyped_address_is_refused_without_its_password() {
        for typo in [
            "postgress://solum:Secret1@h:5432/c",
            " postgres://solum:Secret1@h/c",
            "postgres:solum:Secret1@h:5432",
            "POSTGRESQL:solum:Secret1@h",
            "mysql://solum:Secret1@h/c",
        ] {
            let e = typo.parse::<Database>().unwrap_err().to_string();
            assert!(e.contains("not a PostgreSQL address"), "{typo}: {e}");
            assert!(!e.contains("Secret1"), "{typo}: {e}");
        }
        // Written from `.` or `/`, such a name is a file.
        assert_eq!(db("./postgres:x"), Database::Sqlite("./postgres:x".into()));
        assert_eq!(db("/srv/a://b"), Database::Sqlite("/srv/a://b".into()));
    }

    #[test]
    fn a_database_never_shows_its_password() {
        let cases = [
            (
                "postgres://ann:s3cret@db.example:5432/club",
                "postgres://ann@db.example:5432/club",
            ),
            ("postgresql://ann@db/club", "postgresql://ann@db/club"),
            (
                "postgres://db/club?password=s3cret&sslmode=require",
                "postgres://db/club?sslmode=require",
            ),
            ("postgres://ann:s3c@r/et@db/club", "postgres://ann@db/club"),
            (
                "postgres://ann:s3cret@db/club?PASSWORD=s3cret",
                "postgres://ann@db/club",
            ),
        ];
        for (url, shown) in cases {
            let d = db(url);
            assert_eq!(d.to_string(), shown, "{shown}");
            assert!(!format!("{d:?}").contains("s3c"), "{d:?}");
        }
    }

    #[test]
    fn an_unreachable_postgres_is_named_without_the_password() {
        // Port 1 of the loopback: nothing listens, the connection is refused at once.
        let d = db("postgres://ann:s3cret@127.0.0.1:1/club");
        for e in [
            open(&d, Scope::HOME).err().unwrap(),
            open_existing(&d, Scope::HOME).err().unwrap(),
        ] {
            let text = e.to_string();
            assert!(text.starts_with("127.0.0.1:1/club: "), "{text}");
            assert!(text.contains("cannot reach the database"), "{text}");
            assert!(!text.contains("s3cret") && !format!("{e:?}").contains("s3cret"));
        }
    }
}
