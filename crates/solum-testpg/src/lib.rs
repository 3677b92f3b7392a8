//! A throw-away PostgreSQL server for tests.
//!
//! [`TestPostgres::start`] runs Debian's PostgreSQL (`initdb`, `pg_ctl`, found by `pg_config
//! --bindir` or under `/usr/lib/postgresql/*/bin`) into a temporary folder, on a free port of
//! 127.0.0.1 and a private socket folder, with trust authentication (nothing but this
//! machine's loopback reaches it). When the process runs as root the server runs as the
//! `postgres` user, on folders that user owns (`initdb` refuses root). Dropping it stops the
//! server (`pg_ctl stop -m immediate`) and removes the folder.
//!
//! [`TestPostgres::shared`] is the cheap way: one server per test binary, started by the first
//! test that asks, with a fresh database per test ([`TestPostgres::fresh_database`]). A
//! `static` is never dropped, so the shared server is stopped by a watcher process that waits
//! for the test binary to exit.
//!
//! A machine without PostgreSQL makes [`TestPostgres::start`] fail with an error that says
//! what is missing and how to install it: a test never skips for want of a server.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use thiserror::Error;

/// Why no test server could be had.
#[derive(Debug, Error)]
pub enum TestPgError {
    /// PostgreSQL's server programs are not on this machine.
    #[error(
        "PostgreSQL is not installed: no initdb found (tried `pg_config --bindir` and /usr/lib/postgresql/*/bin); install Debian's `postgresql` package (apt-get install postgresql)"
    )]
    NotInstalled,
    /// A program could not be run or failed.
    #[error("{what} failed: {detail}")]
    Command {
        /// What was run.
        what: String,
        /// Its exit status and output.
        detail: String,
    },
    /// The temporary folder could not be made ready.
    #[error("the test server's folder: {0}")]
    Io(#[from] std::io::Error),
    /// The shared server failed to start earlier in this test binary.
    #[error("the shared test server did not start: {0}")]
    Shared(String),
}

/// A running PostgreSQL server in a temporary folder; stopped and removed when dropped.
#[derive(Debug)]
pub struct TestPostgres {
    bin: PathBuf,
    port: u16,
    /// The data folder (inside `dir`).
    data: PathBuf,
    /// Run the server's programs as the `postgres` user (the process is root).
    as_postgres: bool,
    /// Removed on drop, after the server is stopped.
    dir: Option<tempfile::TempDir>,
}

/// Databases made so far by this process (their names must differ).
static DATABASES: AtomicU64 = AtomicU64::new(0);

/// The shared server of this test binary.
static SHARED: OnceLock<Result<TestPostgres, String>> = OnceLock::new();

impl TestPostgres {
    /// The server shared by every test of this binary, started on first use. It is stopped
    /// and its folder removed by a watcher process once this process has exited.
    pub fn shared() -> Result<&'static Self, TestPgError> {
        match SHARED.get_or_init(|| {
            let server = Self::start().map_err(|e| e.to_string())?;
            server.watch_for_exit().map_err(|e| e.to_string())?;
            Ok(server)
        }) {
            Ok(server) => Ok(server),
            Err(e) => Err(TestPgError::Shared(e.clone())),
        }
    }

    /// Starts a server of its own (stopped when dropped). A port taken between choosing it
    /// and the server binding it is retried on another.
    pub fn start() -> Result<Self, TestPgError> {
        let bin = find_bindir().ok_or(TestPgError::NotInstalled)?;
        let as_postgres = is_root()?;
        let mut last = None;
        for _ in 0..3 {
            match Self::start_in(&bin, as_postgres) {
                Ok(server) => return Ok(server),
                Err(e) => last = Some(e),
            }
        }
        Err(last.unwrap_or(TestPgError::NotInstalled))
    }

    fn start_in(bin: &Path, as_postgres: bool) -> Result<Self, TestPgError> {
        let dir = tempfile::Builder::new().prefix("solum-testpg-").tempdir()?;
        let data = dir.path().join("data");
        let sockets = dir.path().join("sockets");
        std::fs::create_dir(&sockets)?;
        if as_postgres {
            let (uid, gid) = postgres_ids()?;
            for path in [dir.path(), sockets.as_path()] {
                std::os::unix::fs::chown(path, Some(uid), Some(gid))?;
            }
        }
        let mut server = Self {
            bin: bin.to_path_buf(),
            port: 0,
            data,
            as_postgres,
            dir: Some(dir),
        };
        server.run(
            "initdb",
            &[
                "-D".as_ref(),
                server.data.as_os_str(),
                "-U".as_ref(),
                "postgres".as_ref(),
                "--auth=trust".as_ref(),
                "-E".as_ref(),
                "UTF8".as_ref(),
                "--no-locale".as_ref(),
                "--no-sync".as_ref(),
            ],
        )?;
        server.port = free_port()?;
        // Durability is not what these tests check: no fsync keeps them fast. Enough
        // connections for the concurrency tests of several test threads at once.
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off \
             -c full_page_writes=off -c max_connections=300",
            server.port,
            sockets.display()
        );
        let log = server.folder().join("server.log");
        let started = server.run(
            "pg_ctl",
            &[
                "start".as_ref(),
                "-w".as_ref(),
                "-t".as_ref(),
                "60".as_ref(),
                "-D".as_ref(),
                server.data.as_os_str(),
                "-l".as_ref(),
                log.as_os_str(),
                "-o".as_ref(),
                options.as_ref(),
            ],
        );
        if let Err(e) = started {
            let log = std::fs::read_to_string(&log).unwrap_or_default();
            // Nothing to stop: keep Drop from trying.
            server.port = 0;
            return Err(match e {
                TestPgError::Command { what, detail } => TestPgError::Command {
                    what,
                    detail: format!("{detail}\nserver log:\n{log}"),
                },
                other => other,
            });
        }
        Ok(server)
    }

    /// The port the server listens on (127.0.0.1).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The URL of the `postgres` database (trust authentication: no password).
    pub fn url(&self) -> String {
        self.url_of("postgres")
    }

    /// The URL of the database `name` of this server.
    pub fn url_of(&self, name: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }

    /// Creates a new, empty database whose name starts with `name` (letters, digits and
    /// underscores kept, the rest dropped; a number added so that every call gets its own)
    /// and returns its URL.
    pub fn database(&self, name: &str) -> Result<String, TestPgError> {
        let n = DATABASES.fetch_add(1, Ordering::Relaxed);
        let mut clean: String = name
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
            .take(40)
            .collect::<String>()
            .to_ascii_lowercase();
        if clean.is_empty() {
            clean.push_str("test");
        }
        let db = format!("{clean}_{n}");
        let port = self.port.to_string();
        let createdb = self.bin.join("createdb");
        let out = Command::new(&createdb)
            .args(["-h", "127.0.0.1", "-p", &port, "-U", "postgres", &db])
            .stdin(Stdio::null())
            .output()
            .map_err(|e| TestPgError::Command {
                what: createdb.display().to_string(),
                detail: e.to_string(),
            })?;
        check("createdb", &out)?;
        Ok(self.url_of(&db))
    }

    /// Runs `sql` with `psql` on the database whose URL is `url` (one of [`Self::database`]'s),
    /// as the `postgres` role, and returns what it printed (unaligned, tuples only): a test's
    /// way to act on the server behind the program's back (end a connection, say).
    pub fn psql(&self, url: &str, sql: &str) -> Result<String, TestPgError> {
        let db = url.rsplit('/').next().unwrap_or("postgres");
        let port = self.port.to_string();
        let psql = self.bin.join("psql");
        let out = Command::new(&psql)
            .args(["-h", "127.0.0.1", "-p", &port, "-U", "postgres", "-d", db])
            .args(["-v", "ON_ERROR_STOP=1", "-Atc", sql])
            .stdin(Stdio::null())
            .output()
            .map_err(|e| TestPgError::Command {
                what: psql.display().to_string(),
                detail: e.to_string(),
            })?;
        check("psql", &out)?;
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// A fresh database, named after nothing in particular.
    pub fn fresh_database(&self) -> Result<String, TestPgError> {
        self.database("test")
    }

    fn folder(&self) -> &Path {
        self.dir.as_ref().map_or(Path::new("."), |d| d.path())
    }

    /// Runs one of the server's programs, as the `postgres` user when this process is root.
    fn run(&self, program: &str, args: &[&std::ffi::OsStr]) -> Result<(), TestPgError> {
        let path = self.bin.join(program);
        let mut cmd = if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&path);
            c
        } else {
            Command::new(&path)
        };
        let out = cmd
            .args(args)
            .current_dir(self.folder())
            .stdin(Stdio::null())
            .output()
            .map_err(|e| TestPgError::Command {
                what: path.display().to_string(),
                detail: e.to_string(),
            })?;
        check(program, &out)
    }

    /// Starts a process that waits for this one to exit, then stops the server at once
    /// (SIGQUIT to the postmaster: an immediate shutdown) and removes the folder.
    fn watch_for_exit(&self) -> Result<(), TestPgError> {
        let pid = std::process::id().to_string();
        let script = r#"while kill -0 "$1" 2>/dev/null; do sleep 0.5; done
kill -QUIT "$(head -n 1 "$2/postmaster.pid")" 2>/dev/null
sleep 1
rm -rf "$3""#;
        Command::new("sh")
            .arg("-c")
            .arg(script)
            .arg("solum-testpg-watch")
            .arg(&pid)
            .arg(&self.data)
            .arg(self.folder())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| TestPgError::Command {
                what: "sh (the shared server's watcher)".into(),
                detail: e.to_string(),
            })?;
        Ok(())
    }
}

impl Drop for TestPostgres {
    fn drop(&mut self) {
        if self.port != 0 {
            let _ = self.run(
                "pg_ctl",
                &[
                    "stop".as_ref(),
                    "-m".as_ref(),
                    "immediate".as_ref(),
                    "-D".as_ref(),
                    self.data.as_os_str(),
                ],
            );
        }
        // The TempDir removes the folder as it drops.
        self.dir.take();
    }
}

/// The folder of PostgreSQL's server programs: `pg_config --bindir` when it has `initdb`,
/// else the newest `/usr/lib/postgresql/*/bin` that does.
fn find_bindir() -> Option<PathBuf> {
    let from_config = Command::new("pg_config")
        .arg("--bindir")
        .stdin(Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    if let Some(bin) = from_config.filter(|b| b.join("initdb").is_file()) {
        return Some(bin);
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|e| {
            let v = e.file_name().to_str()?.parse::<u32>().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").is_file().then_some((v, bin))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin)
}

fn is_root() -> Result<bool, TestPgError> {
    Ok(id(&["-u"])? == 0)
}

fn postgres_ids() -> Result<(u32, u32), TestPgError> {
    Ok((id(&["-u", "postgres"])?, id(&["-g", "postgres"])?))
}

/// A number `id` prints.
fn id(args: &[&str]) -> Result<u32, TestPgError> {
    let out = Command::new("id")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| TestPgError::Command {
            what: "id".into(),
            detail: e.to_string(),
        })?;
    check(&format!("id {}", args.join(" ")), &out)?;
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .map_err(|_| TestPgError::Command {
            what: format!("id {}", args.join(" ")),
            detail: "printed no number (is there a `postgres` user? it comes with Debian's postgresql package)"
                .into(),
        })
}

fn check(what: &str, out: &Output) -> Result<(), TestPgError> {
    if out.status.success() {
        Ok(())
    } else {
        Err(TestPgError::Command {
            what: what.to_string(),
            detail: format!(
                "{}\n{}{}",
                out.status,
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ),
        })
    }
}

/// A port of 127.0.0.1 that nothing listened on a moment ago.
fn free_port() -> Result<u16, TestPgError> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A server starts, takes connections on its port, gives each caller its own database,
    /// and is gone (process and folder) once dropped.
    #[test]
    fn a_server_starts_makes_databases_and_is_gone_when_dropped() {
        let server = TestPostgres::start().unwrap();
        let folder = server.folder().to_path_buf();
        assert!(folder.join("data").join("postmaster.pid").is_file());
        let a = server.database("one").unwrap();
        let b = server.database("one").unwrap();
        assert_ne!(a, b);
        assert!(a.starts_with(&format!(
            "postgres://postgres@127.0.0.1:{}/one_",
            server.port()
        )));
        let port = server.port();
        assert!(std::net::TcpStream::connect(("127.0.0.1", port)).is_ok());
        drop(server);
        assert!(!folder.exists(), "the folder is removed");
        assert!(
            std::net::TcpStream::connect(("127.0.0.1", port)).is_err(),
            "the server is stopped"
        );
    }

    #[test]
    fn the_shared_server_is_one_per_process() {
        let a = TestPostgres::shared().unwrap();
        let b = TestPostgres::shared().unwrap();
        assert_eq!(a.port(), b.port());
        assert!(std::net::TcpStream::connect(("127.0.0.1", a.port())).is_ok());
    }
}
