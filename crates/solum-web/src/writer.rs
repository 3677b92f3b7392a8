//! The server's one writer: journaled writes that queue are grouped into one commit.
//!
//! Every write of this server goes through one thread, first come first served (SQLite lets
//! one writer in at a time; its busy handler is not fair, see [`crate`]'s `write`). When
//! several journaled writes ([`Writer::grouped`]) wait, the writer takes them together: it
//! opens a group on its connection ([`CampaignStore::begin_group`]: one `BEGIN IMMEDIATE`),
//! runs each job in its own scope, each store write all or nothing on its own (a savepoint),
//! then commits the group once (one sync of the journal instead of one per roll), and only
//! then answers the jobs: an acknowledged write is durable. A job that fails is answered at
//! once and changes nothing; the others go on. If the group itself is lost (its commit
//! fails, or SQLite rolls the whole transaction back under a job: a full disk, an I/O error)
//! every job that had succeeded in it is answered "busy, nothing was changed".
//!
//! A group is bounded: at most [`GroupLimits::jobs`] jobs, and no job joins once the group
//! has run for [`GroupLimits::time`], so a write waits at most one group's work behind the
//! one it queued behind. Writes that open their own connection (creating a table, joining,
//! invites, logout: [`Writer::alone`]) run between groups, in their turn.
//!
//! The queue itself is bounded ([`QUEUE`]): past it a request waits to be queued.
//!
//! The writer's commits do not copy the write-ahead log into the campaign's file (SQLite's
//! checkpoint, which syncs the file: a write queued behind one waited for it, hundreds of
//! milliseconds on a slow disk). A thread of its own, the checkpointer, does it on its own
//! connection after the writer has committed, at most every [`CHECKPOINT_EVERY`], while the
//! writer goes on. When the log has grown past [`GroupLimits::log_pages`] the checkpointer
//! says so, and the writer starts it again from its beginning itself, between two groups
//! ([`StoreHandle::restart_log`]): it waits only for readers, where a checkpoint by the
//! checkpointer that waited for the writer made the writer wait for it in turn, in SQLite's
//! busy handler, whose sleeps overshoot.

use std::panic::{AssertUnwindSafe, catch_unwind};
#[cfg(test)]
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use solum_app::{AppError, By, Campaign};
use solum_store::{CampaignStore, Scope, Store, StoreError, StoreHandle};
use solum_store_open::Database;
use tokio::sync::{mpsc, oneshot};

use crate::ApiError;

/// Writes waiting for the writer at most; a request past it waits for room.
pub const QUEUE: usize = 1_024;

/// The checkpointer copies the log into the file at most this often. Under writes that
/// never pause the log only grows (SQLite starts it again from its beginning only when a
/// write finds it copied whole and no reader in it); past [`GroupLimits::log_pages`] the
/// writer starts it again.
pub const CHECKPOINT_EVERY: Duration = Duration::from_millis(500);

/// How large a group of journaled writes may grow.
#[derive(Debug, Clone, Copy)]
pub struct GroupLimits {
    /// Jobs in one group at most.
    pub jobs: usize,
    /// No job joins a group that has run this long.
    pub time: Duration,
    /// Pages of write-ahead log (SQLite) past which the writer starts it again from its
    /// beginning between two groups: the log file's size, bounded.
    pub log_pages: u64,
}

impl Default for GroupLimits {
    /// 64 jobs or 5 ms: a roll of the oracle takes some 100 µs, so a full group is a few
    /// milliseconds of work and one sync. A log of 10,000 pages of 4 KiB (about 40 MB) is
    /// about two seconds of writes at 2,000 rolls a second.
    fn default() -> Self {
        Self {
            jobs: 64,
            time: Duration::from_millis(5),
            log_pages: 10_000,
        }
    }
}

/// A hook a test runs just before a group commits (to hold the commit back and see that no
/// job is answered before it).
pub(crate) type CommitHook = Arc<dyn Fn() + Send + Sync>;

/// The handle of the writer thread; the thread ends when the last handle is dropped.
pub(crate) struct Writer {
    jobs: mpsc::Sender<Job>,
    stats: Arc<Stats>,
}

/// What the writer did: groups committed and the jobs answered from them.
#[derive(Default)]
struct Stats {
    groups: AtomicU64,
    grouped_jobs: AtomicU64,
    /// Times the writer started the log again from its beginning.
    log_restarts: AtomicU64,
}

enum Job {
    /// A journaled write on the writer's connection, in a group.
    Grouped(Box<dyn GroupedJob>),
    /// A write on a connection of its own, between groups.
    Alone(Box<dyn FnOnce() + Send>),
}

/// A journaled write waiting for its group's commit.
trait GroupedJob: Send {
    /// The table the write is made at (a group runs its writes in the order of their tables).
    fn table(&self) -> i64;
    /// Runs the write on `store` (given this job's scope) and gives the store back.
    fn run(&mut self, store: Box<dyn Store>) -> Box<dyn Store>;
    /// The write ran and succeeded (its answer waits for the commit).
    fn succeeded(&self) -> bool;
    /// Answers the request: its own result, or `lost` when the group was not kept.
    fn answer(self: Box<Self>, lost: Option<AppError>);
}

struct Pending<T, F> {
    scope: Scope,
    /// Who the write acts as, when the server knew (else looked up in the group).
    by: Option<By>,
    work: Option<F>,
    out: Option<Result<T, AppError>>,
    reply: oneshot::Sender<Result<T, AppError>>,
}

impl<T, F> GroupedJob for Pending<T, F>
where
    T: Send,
    F: FnOnce(&mut Campaign<Box<dyn Store>>) -> Result<T, AppError> + Send,
{
    fn table(&self) -> i64 {
        self.scope.table
    }

    fn run(&mut self, mut store: Box<dyn Store>) -> Box<dyn Store> {
        store.set_scope(self.scope);
        // Every entry the request appends says who made it (the feed's "who").
        let by = match self.by.take() {
            Some(by) => by,
            None => match solum_app::tables::by_of(&store, self.scope) {
                Ok(by) => by,
                Err(e) => {
                    self.out = Some(Err(e));
                    return store;
                }
            },
        };
        let mut campaign = Campaign::new(store).acting_as(by);
        if let Some(work) = self.work.take() {
            self.out = Some(work(&mut campaign));
        }
        campaign.into_store()
    }

    fn succeeded(&self) -> bool {
        matches!(self.out, Some(Ok(_)))
    }

    fn answer(self: Box<Self>, lost: Option<AppError>) {
        let out = match (self.out, lost) {
            // A failed write kept nothing whatever became of its group: its own error.
            (Some(Err(e)), _) => Err(e),
            (Some(Ok(_)), Some(lost)) => Err(lost),
            (Some(Ok(out)), None) => Ok(out),
            // Never ran: the connection or its group could not be opened, said as such.
            (None, Some(e)) => Err(e),
            // Never ran (its writer panicked): the request learns it from the dropped reply.
            (None, None) => return,
        };
        // The request may have been abandoned; its write stands.
        let _ = self.reply.send(out);
    }
}

impl Writer {
    /// Starts the writer of the campaign at `path` (it opens its connection at the first
    /// write). `before_commit` runs before each group's commit (tests only).
    pub(crate) fn start(
        db: Database,
        limits: GroupLimits,
        before_commit: Option<CommitHook>,
    ) -> Self {
        let (jobs, rx) = mpsc::channel(QUEUE);
        let stats = Arc::new(Stats::default());
        let thread_stats = stats.clone();
        // Woken after a commit; ends when the writer does (its sender dropped). Without it
        // the writer's commits checkpoint as SQLite's do by default. PostgreSQL has no log
        // of ours to copy.
        let log_long = Arc::new(AtomicBool::new(false));
        let wrote = match &db {
            Database::Sqlite(_) => {
                let (wrote, commits) = std::sync::mpsc::sync_channel::<()>(1);
                let checkpoint_db = db.clone();
                let long = log_long.clone();
                std::thread::Builder::new()
                    .name("solum-checkpointer".into())
                    .spawn(move || checkpoints(&checkpoint_db, &commits, limits.log_pages, &long))
                    .map_err(|e| tracing::warn!("the checkpointer could not start: {e}"))
                    .ok()
                    .map(|_| wrote)
            }
            Database::Postgres(_) => None,
        };
        let spawned = std::thread::Builder::new()
            .name("solum-writer".into())
            .spawn(move || {
                let hooks = Hooks {
                    before_commit: before_commit.as_ref(),
                    wrote: wrote.as_ref(),
                    log_long: &log_long,
                };
                run(rx, &db, limits, &thread_stats, &hooks);
            });
        if let Err(e) = spawned {
            // The receiver went with the closure: every write is answered "internal error".
            tracing::error!("the writer thread could not start: {e}");
        }
        Self { jobs, stats }
    }

    /// Runs `work` on the campaign seen through `scope`, acting as `by` (looked up when
    /// `None`), in a group with the journaled writes queued with it; answers once the group
    /// is committed.
    pub(crate) async fn grouped<T, F>(
        &self,
        scope: Scope,
        by: Option<By>,
        work: F,
    ) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Campaign<Box<dyn Store>>) -> Result<T, AppError> + Send + 'static,
    {
        let (reply, answer) = oneshot::channel();
        let job = Pending {
            scope,
            by,
            work: Some(work),
            out: None,
            reply,
        };
        self.jobs
            .send(Job::Grouped(Box::new(job)))
            .await
            .map_err(|_| ApiError::internal())?;
        answer
            .await
            .map_err(|_| ApiError::internal())?
            .map_err(ApiError::from)
    }

    /// Runs `work` (which opens its own connection) on the writer thread, between groups.
    pub(crate) async fn alone<T, F>(&self, work: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce() -> Result<T, AppError> + Send + 'static,
    {
        let (reply, answer) = oneshot::channel();
        let job = move || {
            let _ = reply.send(work());
        };
        self.jobs
            .send(Job::Alone(Box::new(job)))
            .await
            .map_err(|_| ApiError::internal())?;
        answer
            .await
            .map_err(|_| ApiError::internal())?
            .map_err(ApiError::from)
    }

    /// Groups committed so far.
    pub(crate) fn groups(&self) -> u64 {
        self.stats.groups.load(Ordering::Relaxed)
    }

    /// Times the writer started the write-ahead log again from its beginning.
    #[cfg(test)]
    fn log_restarts(&self) -> u64 {
        self.stats.log_restarts.load(Ordering::Relaxed)
    }

    /// Jobs answered from committed groups so far.
    pub(crate) fn grouped_jobs(&self) -> u64 {
        self.stats.grouped_jobs.load(Ordering::Relaxed)
    }
}

/// What the writer thread tells others of its commits.
struct Hooks<'a> {
    /// Run before each commit (tests).
    before_commit: Option<&'a CommitHook>,
    /// The checkpointer's wake-up, when it runs: the writer's connection then leaves
    /// checkpoints to it.
    wrote: Option<&'a std::sync::mpsc::SyncSender<()>>,
    /// Set by the checkpointer when the log has grown past its limit: the writer starts it
    /// again after its next commit.
    log_long: &'a AtomicBool,
}

/// The checkpointer: after the writer has committed, copies the log into the file on its own
/// connection, at most every [`CHECKPOINT_EVERY`], and raises `log_long` when the log holds
/// more than `log_pages`; ends when the writer does.
fn checkpoints(
    db: &Database,
    commits: &std::sync::mpsc::Receiver<()>,
    log_pages: u64,
    log_long: &AtomicBool,
) {
    let mut store: Option<Box<dyn Store>> = None;
    while commits.recv().is_ok() {
        let done = match store.take() {
            Some(s) => Ok(s),
            None => solum_store_open::open_existing(db, Scope::HOME),
        }
        .and_then(|s| s.checkpoint().map(|pages| (s, pages)));
        match done {
            Ok((s, pages)) => {
                if pages > log_pages {
                    log_long.store(true, Ordering::Relaxed);
                }
                store = Some(s);
            }
            // Tried again after the next commit, on a new connection; meanwhile the log grows.
            Err(e) => tracing::warn!("checkpoint: {e}"),
        }
        std::thread::sleep(CHECKPOINT_EVERY);
    }
}

/// The writer thread: a group at a time, or a write alone, in the order they came.
fn run(
    mut rx: mpsc::Receiver<Job>,
    db: &Database,
    limits: GroupLimits,
    stats: &Stats,
    hooks: &Hooks<'_>,
) {
    let mut store: Option<Box<dyn Store>> = None;
    let mut next: Option<Job> = None;
    loop {
        let job = match next.take() {
            Some(job) => job,
            None => match rx.blocking_recv() {
                Some(job) => job,
                None => return,
            },
        };
        let first = match job {
            Job::Alone(work) => {
                // A panic there is its own: its reply is dropped, the writer goes on.
                let _ = catch_unwind(AssertUnwindSafe(work));
                continue;
            }
            Job::Grouped(job) => job,
        };
        let started = Instant::now();
        let most = limits.jobs.max(1);
        // What queued already joins at once, and runs in the order of its tables (stable: a
        // table's writes keep their order). A group holds each table's write lock until it
        // commits (PostgreSQL), so two servers' groups take their locks in one order and
        // never wait for each other in a circle.
        let mut batch = vec![first];
        while batch.len() < most {
            match rx.try_recv() {
                Ok(Job::Grouped(j)) => batch.push(j),
                Ok(alone) => {
                    next = Some(alone);
                    break;
                }
                Err(_) => break,
            }
        }
        batch.sort_by_key(|j| j.table());
        let mut done: Vec<Box<dyn GroupedJob>> = Vec::new();
        let mut ran = 0usize;
        let mut last_table = i64::MIN;
        for j in batch {
            last_table = j.table();
            run_one(db, hooks, &mut store, &mut done, j);
            ran += 1;
        }
        // Writes that come while the group runs join it while it is young and small, if their
        // table does not come before the group's last one; else they open the next group.
        while next.is_none() && ran < most && started.elapsed() < limits.time {
            match rx.try_recv() {
                Ok(Job::Grouped(j)) if j.table() >= last_table => {
                    last_table = j.table();
                    run_one(db, hooks, &mut store, &mut done, j);
                    ran += 1;
                }
                Ok(other) => next = Some(other),
                Err(_) => break,
            }
        }
        commit(db, &mut store, done, stats, hooks);
        if hooks.log_long.swap(false, Ordering::Relaxed)
            && let Some(s) = store.as_mut()
        {
            match s.restart_log() {
                Ok(()) => {
                    stats.log_restarts.fetch_add(1, Ordering::Relaxed);
                }
                // The checkpointer's own checkpoint held the log: tried again after the next
                // group.
                Err(StoreError::Busy { .. }) => hooks.log_long.store(true, Ordering::Relaxed),
                // The checkpointer asks again after a later commit; meanwhile the log grows.
                Err(e) => tracing::warn!("starting the log again: {e}"),
            }
        }
    }
}

/// "Busy, nothing was changed": the answer of a write whose group was not kept.
fn lost(db: &Database) -> AppError {
    AppError::Store(StoreError::Busy {
        location: db.to_string(),
    })
}

/// Answers every job of a group that was not kept.
fn fail_all(db: &Database, done: &mut Vec<Box<dyn GroupedJob>>) {
    for job in done.drain(..) {
        job.answer(Some(lost(db)));
    }
}

/// Runs one job in the open group (opening the connection and the group first if need be).
fn run_one(
    db: &Database,
    hooks: &Hooks<'_>,
    store: &mut Option<Box<dyn Store>>,
    done: &mut Vec<Box<dyn GroupedJob>>,
    mut job: Box<dyn GroupedJob>,
) {
    if store.as_ref().is_some_and(|s| s.is_closed()) {
        // The connection is gone (the database restarted, the network was cut), and the
        // open group with it: what it held is answered as not kept, and a new connection
        // is opened for this job.
        tracing::warn!("the writer's connection to the database was lost; connecting again");
        *store = None;
        fail_all(db, done);
    }
    let open = || {
        solum_store_open::open(db, Scope::HOME).and_then(|mut s| {
            if hooks.wrote.is_some() {
                s.leave_checkpoints()?;
            }
            Ok(s)
        })
    };
    let kept = store.is_some();
    let mut s = match store.take().map_or_else(open, Ok) {
        Ok(s) => s,
        Err(e) => return job.answer(Some(e.into())),
    };
    if s.is_idle()
        && let Err(e) = s.begin_group()
    {
        // A kept connection the database ended while it sat idle (a restart): nothing of
        // the job has run yet, so it begins again on a new connection instead of failing.
        // Any other connection that cannot begin is not kept: the next job opens a new one.
        if !(kept && matches!(e, StoreError::Unreachable { .. })) {
            return job.answer(Some(e.into()));
        }
        tracing::warn!("the writer's connection to the database was lost; connecting again");
        s = match open() {
            Ok(s) => s,
            Err(e) => return job.answer(Some(e.into())),
        };
        if let Err(e) = s.begin_group() {
            return job.answer(Some(e.into()));
        }
    }
    // A backend without groups (PostgreSQL: each write commits on its own) is idle here
    // and stays so: only a group that was open can be lost.
    let grouped = !s.is_idle();
    match catch_unwind(AssertUnwindSafe(|| job.run(s))) {
        Ok(s) => {
            // The group's transaction ended under the job: SQLite rolled it back whole, or
            // the connection was lost (then the next job opens a new one).
            let closed = s.is_closed();
            let group_lost = grouped && (s.is_idle() || closed);
            if !closed {
                *store = Some(s);
            }
            if group_lost {
                if closed {
                    tracing::warn!(
                        "the writer's connection to the database was lost; its group was not kept"
                    );
                } else {
                    tracing::error!("a group of writes was rolled back by a failed write");
                }
                fail_all(db, done);
            }
            if job.succeeded() && !group_lost {
                done.push(job);
            } else if job.succeeded() {
                job.answer(Some(lost(db)));
            } else {
                // A failed write is answered at once: it changed nothing.
                job.answer(None);
            }
        }
        Err(_) => {
            // The connection unwound with the job, and the group with it.
            tracing::error!("a write panicked; its group was rolled back");
            fail_all(db, done);
        }
    }
}

/// Commits the open group and answers its jobs (or, if the commit fails, tells them nothing
/// was kept).
fn commit(
    db: &Database,
    store: &mut Option<Box<dyn Store>>,
    mut done: Vec<Box<dyn GroupedJob>>,
    stats: &Stats,
    hooks: &Hooks<'_>,
) {
    let Some(s) = store.as_mut() else {
        // No connection: nothing is open, and `done` was answered when it was lost.
        return fail_all(db, &mut done);
    };
    if let Some(hook) = hooks.before_commit {
        hook();
    }
    match s.end_group() {
        Ok(()) => {
            if let Some(wrote) = hooks.wrote {
                // Full: the checkpointer is awake or will be; this commit is in its copy.
                let _ = wrote.try_send(());
            }
            stats.groups.fetch_add(1, Ordering::Relaxed);
            stats
                .grouped_jobs
                .fetch_add(done.len() as u64, Ordering::Relaxed);
            for job in done {
                job.answer(None);
            }
        }
        Err(e) => {
            tracing::error!("a group of writes could not be committed: {e}");
            // Closing the connection rolls back whatever is left of the group.
            *store = None;
            if matches!(e, StoreError::Unreachable { .. }) {
                // The connection went while the commit was under way: the database may have
                // kept the group. Never "nothing was changed" (a page would send it again).
                for job in done.drain(..) {
                    job.answer(Some(AppError::Store(StoreError::CommitUnknown {
                        location: db.to_string(),
                    })));
                }
            } else {
                fail_all(db, &mut done);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::StatusCode;
    use solum_app::Leaning;
    use std::sync::Mutex;

    fn campaign() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.solum");
        drop(solum_store_sqlite::SqliteStore::open(&path, Scope::HOME).unwrap());
        (dir, path)
    }

    /// Every entry of the home table, as (seq, note text), read by a connection of its own.
    fn notes(path: &Path) -> Vec<(i64, String)> {
        let store = solum_store_sqlite::SqliteStore::open(path, Scope::HOME).unwrap();
        store
            .entries_after(0, 10_000)
            .unwrap()
            .into_iter()
            .map(|e| (e.seq, e.body["text"].as_str().unwrap_or("").to_string()))
            .collect()
    }

    /// With the writer's commits leaving the log to the checkpointer (the store's own test
    /// shows they copy nothing), 3,000 pages of notes still reach the file soon after.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_checkpointer_copies_the_log_into_the_file() {
        let (_dir, path) = campaign();
        let writer = Writer::start(Database::Sqlite(path.clone()), GroupLimits::default(), None);
        let before = std::fs::metadata(&path).unwrap().len();
        let text = "x".repeat(4_000);
        for i in 0..3_000 {
            let text = format!("{i} {text}");
            writer
                .grouped(Scope::HOME, None, move |c| c.note(&text))
                .await
                .map_err(|e| e.message.clone())
                .unwrap();
        }
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let size = std::fs::metadata(&path).unwrap().len();
            if size > before + 3_000 * 4_096 {
                break;
            }
            assert!(Instant::now() < deadline, "the file stayed at {size} bytes");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(notes(&path).len(), 3_000);
    }

    /// Under writes that never pause, a log past its limit is started again from its
    /// beginning (by the writer, between two groups) and written over: after eight restarts
    /// its file is under half of what was written, with every write kept. (The file grows to
    /// the longest stretch between two restarts, up to the checkpointer's 500 ms between
    /// looks; a note takes more than one page, so eight stretches leave a wide margin.)
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_writer_starts_a_long_log_again_while_writes_go_on() {
        let (_dir, path) = campaign();
        let limits = GroupLimits {
            log_pages: 300,
            ..GroupLimits::default()
        };
        let writer = Writer::start(Database::Sqlite(path.clone()), limits, None);
        let wal = path.with_extension("solum-wal");
        let text = "x".repeat(4_000);
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut written = 0;
        while writer.log_restarts() < 8 {
            assert!(
                Instant::now() < deadline,
                "the log was started again {} times",
                writer.log_restarts()
            );
            // Writes that never pause: several at once, so they share groups.
            let notes: Vec<_> = (0..16)
                .map(|i| {
                    let text = format!("{written} {i} {text}");
                    writer.grouped(Scope::HOME, None, move |c| c.note(&text))
                })
                .collect();
            for done in futures_util::future::join_all(notes).await {
                done.map_err(|e| e.message.clone()).unwrap();
            }
            written += 16;
        }
        let size = std::fs::metadata(&wal).unwrap().len();
        // A note is a page of 4 KiB at least.
        let bytes_written = u64::try_from(written).unwrap() * 4_096;
        assert!(
            size < bytes_written / 2,
            "the log was not written over: {size} bytes for {written} notes of 4 KB"
        );
        let store = solum_store_sqlite::SqliteStore::open(&path, Scope::HOME).unwrap();
        assert_eq!(
            store.entry_count().unwrap(),
            u64::try_from(written).unwrap()
        );
    }

    /// A fresh PostgreSQL campaign `name` (its URL and database), made off the runtime: the
    /// postgres client blocks on a runtime of its own.
    async fn postgres_campaign(
        name: &str,
    ) -> (&'static solum_testpg::TestPostgres, String, Database) {
        let server = solum_testpg::TestPostgres::shared().unwrap_or_else(|e| panic!("{e}"));
        let url = server.database(name).unwrap_or_else(|e| panic!("{e}"));
        let db: Database = url.parse().unwrap();
        let opened = db.clone();
        tokio::task::spawn_blocking(move || {
            drop(solum_store_open::open(&opened, Scope::HOME).unwrap())
        })
        .await
        .unwrap();
        (server, url, db)
    }

    /// The home table's notes as (number, text), read on a connection of its own.
    async fn postgres_notes(db: &Database) -> Vec<(i64, String)> {
        let db = db.clone();
        tokio::task::spawn_blocking(move || {
            let store = solum_store_open::open(&db, Scope::HOME).unwrap();
            store
                .entries_after(0, 100)
                .unwrap()
                .into_iter()
                .map(|e| (e.seq, e.body["text"].as_str().unwrap_or("").to_string()))
                .collect()
        })
        .await
        .unwrap()
    }

    /// On PostgreSQL, the writer's connection ended by the database after a group's writes,
    /// before its commit (a restart, a network cut): the group was not kept, and its writes
    /// are answered so (503 `campaign-busy`, "nothing was changed, try again": a page sends
    /// them again, and they are not doubled); the next write lands on a new connection, and
    /// the table's numbers have no gap.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_connection_lost_before_the_commit_is_answered_not_kept_and_writes_go_on() {
        let (server, url, db) = postgres_campaign("writer_cut_before").await;
        let cut = Arc::new(AtomicBool::new(false));
        let hook: CommitHook = {
            let cut = cut.clone();
            Arc::new(move || {
                if cut.swap(false, Ordering::SeqCst) {
                    let ended = server
                        .psql(
                            &url,
                            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \
                             WHERE datname = current_database() AND pid <> pg_backend_pid()",
                        )
                        .unwrap();
                    assert_ne!(ended.trim(), "0");
                }
            })
        };
        let writer = Writer::start(db.clone(), GroupLimits::default(), Some(hook));
        let lost = cut_between_two_notes(&writer, &db, || cut.store(true, Ordering::SeqCst)).await;
        assert_eq!(lost.code, "campaign-busy", "{}", lost.message);
        assert_eq!(lost.status, StatusCode::SERVICE_UNAVAILABLE);
    }

    /// Notes `before`, then (after `arm`) `cut off`, which must fail, then `after`: the
    /// failure back, once the journal was seen to hold `before` and `after` only, numbered
    /// one after the other.
    async fn cut_between_two_notes(writer: &Writer, db: &Database, arm: impl Fn()) -> ApiError {
        let note = |text: &'static str| writer.grouped(Scope::HOME, None, move |c| c.note(text));
        let first = note("before").await.map_err(|e| e.message).unwrap();
        arm();
        let lost = note("cut off").await.unwrap_err();
        let after = note("after").await.map_err(|e| e.message).unwrap();
        assert_eq!(
            postgres_notes(db).await,
            vec![
                (first.seq, "before".to_string()),
                (after.seq, "after".to_string())
            ]
        );
        assert_eq!(after.seq, first.seq + 1);
        lost
    }

    /// The connection lost while `COMMIT` is under way (here the database ends it from a
    /// trigger that runs at the commit): whether the group was kept cannot be known, so its
    /// writes are answered 500 `campaign-commit-unknown` ("look before sending it again"),
    /// never "nothing was changed"; the next write lands on a new connection.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_connection_lost_during_the_commit_is_answered_commit_unknown_and_writes_go_on() {
        let (server, url, db) = postgres_campaign("writer_cut_during").await;
        // A deferred trigger runs inside `COMMIT`; it ends its own connection for one note.
        server
            .psql(
                &url,
                "CREATE FUNCTION cut_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$ \
                 BEGIN IF NEW.body->>'text' = 'cut off' THEN \
                 PERFORM pg_terminate_backend(pg_backend_pid()); END IF; RETURN NULL; END $$; \
                 CREATE CONSTRAINT TRIGGER cut_at_commit AFTER INSERT ON journal \
                 DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION cut_at_commit();",
            )
            .unwrap();
        let writer = Writer::start(db.clone(), GroupLimits::default(), None);
        // The backend ends before the commit is written: the group is not kept, though the
        // answer cannot know it.
        let lost = cut_between_two_notes(&writer, &db, || ()).await;
        assert_eq!(lost.code, "campaign-commit-unknown", "{}", lost.message);
        assert_eq!(lost.status, StatusCode::INTERNAL_SERVER_ERROR);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn queued_writes_share_a_commit_and_none_is_answered_before_it() {
        let (_dir, path) = campaign();
        // Each commit is held back 30 ms: a job answered before its group's commit would
        // find its entry missing from another connection.
        let hook: CommitHook = Arc::new(|| std::thread::sleep(Duration::from_millis(30)));
        let writer = Arc::new(Writer::start(
            Database::Sqlite(path.clone()),
            GroupLimits {
                jobs: 16,
                time: Duration::from_secs(1),
                ..GroupLimits::default()
            },
            Some(hook),
        ));
        const N: usize = 48;
        let mut tasks = Vec::new();
        for i in 0..N {
            let (writer, path) = (writer.clone(), path.clone());
            tasks.push(tokio::spawn(async move {
                let text = format!("note {i}");
                let entry = writer
                    .grouped(Scope::HOME, None, move |c| c.note(&text))
                    .await
                    .map_err(|e| e.message.clone())
                    .unwrap();
                let seen = tokio::task::spawn_blocking(move || notes(&path))
                    .await
                    .unwrap();
                assert!(
                    seen.iter()
                        .any(|(seq, t)| *seq == entry.seq && *t == format!("note {i}")),
                    "note {i} (seq {}) was answered before it was committed",
                    entry.seq
                );
                (i, entry.seq)
            }));
        }
        let mut answered = Vec::new();
        for t in tasks {
            answered.push(t.await.unwrap());
        }
        // Every acknowledged note is in the journal once, numbered 1..=N without a gap, each
        // under the number it was answered with.
        let journal = notes(&path);
        assert_eq!(journal.len(), N);
        let seqs: Vec<i64> = journal.iter().map(|(s, _)| *s).collect();
        assert_eq!(seqs, (1..=N as i64).collect::<Vec<_>>());
        for (i, seq) in answered {
            let at = usize::try_from(seq - 1).unwrap();
            assert_eq!(journal[at].1, format!("note {i}"));
        }
        // They queued behind the held commits: far fewer commits than writes, none larger
        // than the limit.
        let groups = writer.groups();
        assert_eq!(writer.grouped_jobs(), N as u64);
        assert!(groups < N as u64 / 2, "{groups} groups for {N} writes");
        assert!(groups >= (N / 16) as u64, "{groups} groups of at most 16");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_failed_write_fails_alone_in_its_group() {
        let (_dir, path) = campaign();
        // A slow first commit lets the next four writes queue into one group.
        let first = Arc::new(Mutex::new(true));
        let hook: CommitHook = Arc::new(move || {
            if std::mem::take(&mut *first.lock().unwrap()) {
                std::thread::sleep(Duration::from_millis(100));
            }
        });
        let writer = Arc::new(Writer::start(
            Database::Sqlite(path.clone()),
            GroupLimits {
                jobs: 64,
                time: Duration::from_secs(1),
                ..GroupLimits::default()
            },
            Some(hook),
        ));
        let w = writer.clone();
        let opener = tokio::spawn(async move {
            w.grouped(Scope::HOME, None, |c| c.start_scene("the tower", None))
                .await
                .map(|_| ())
                .map_err(|e| e.message.clone())
        });
        tokio::time::sleep(Duration::from_millis(30)).await;
        let (a, b, c, d, e) = tokio::join!(
            writer.grouped(Scope::HOME, None, |c| c.note("before")),
            // Refused before it writes: an empty question.
            writer.grouped(Scope::HOME, None, |c| {
                c.ask("", Leaning::Even, solum_app::Dice::Fresh)
            }),
            writer.grouped(Scope::HOME, None, |c| c.end_scene(None)),
            // Refused inside its own write transaction: the scene was ended just before.
            writer.grouped(Scope::HOME, None, |c| c.end_scene(None)),
            writer.grouped(Scope::HOME, None, |c| c.note("after")),
        );
        opener.await.unwrap().unwrap();
        assert!(a.is_ok() && c.is_ok() && e.is_ok());
        let unprocessable = axum::http::StatusCode::UNPROCESSABLE_ENTITY;
        assert_eq!(b.unwrap_err().status, unprocessable);
        assert_eq!(d.unwrap_err().status, unprocessable);
        // The scene's start, "before", its end, "after": nothing of the two refused, the
        // others kept, in the order they came, numbered without a gap.
        let store = solum_store_sqlite::SqliteStore::open(&path, Scope::HOME).unwrap();
        let journal: Vec<(i64, String)> = store
            .entries_after(0, 100)
            .unwrap()
            .into_iter()
            .map(|e| (e.seq, e.kind))
            .collect();
        let texts = notes(&path);
        assert_eq!(journal.len(), 4, "{journal:?}");
        assert_eq!(
            journal.iter().map(|(s, _)| *s).collect::<Vec<_>>(),
            vec![1, 2, 3, 4]
        );
        assert_eq!(
            (texts[1].1.as_str(), texts[3].1.as_str()),
            ("before", "after")
        );
        let kinds: Vec<&str> = journal.iter().map(|(_, k)| k.as_str()).collect();
        assert_eq!(kinds, ["scene-start", "note", "scene-end", "note"]);
        // Four writes kept in at most two commits: the opener's, then one for the rest.
        assert!(writer.groups() <= 2, "{} groups", writer.groups());
    }

    /// A connection kept between requests (`crate::run::keep`) must read every write acknowledged
    /// before the read, whichever connection made it: a read transaction left open on a kept
    /// SQLite connection would show it the file as it was (a stale snapshot).
    #[test]
    fn a_kept_connection_reads_every_write_acknowledged_before() {
        let (_dir, path) = campaign();
        let db = Database::Sqlite(path.clone());
        let rt = tokio::runtime::Runtime::new().unwrap();
        let writer = Writer::start(db.clone(), GroupLimits::default(), None);
        let mut kept_at = None;
        for i in 0..20 {
            let text = format!("note {i}");
            let acknowledged = rt
                .block_on(writer.grouped(Scope::HOME, None, move |c| c.note(&text)))
                .map_err(|e| e.message.clone())
                .unwrap();
            // This thread's kept connection (after the first turn): it read the journal at the
            // turn before, through every kind of read a request makes.
            let store = crate::run::connection(&db, Scope::HOME).unwrap();
            let at = std::ptr::from_ref::<dyn Store>(&*store).cast::<()>() as usize;
            if i > 0 {
                assert_eq!(kept_at, Some(at), "the connection was not kept");
            }
            kept_at = Some(at);
            let last = store.last_entries(1).unwrap();
            assert_eq!(
                last.last().map(|e| e.seq),
                Some(acknowledged.seq),
                "a kept connection missed note {i}, acknowledged before it read"
            );
            assert_eq!(store.entries_after(0, 1_000).unwrap().len(), i + 1);
            assert_eq!(store.last_seq(0).unwrap(), acknowledged.seq);
            let _ = solum_app::tables::session(&store, &"0".repeat(64)).unwrap();
            crate::run::keep(&db, store);
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_writer_outlives_a_panicking_write() {
        let (_dir, path) = campaign();
        let writer = Writer::start(Database::Sqlite(path.clone()), GroupLimits::default(), None);
        let boom = writer
            .grouped(Scope::HOME, None, |_c| -> Result<(), AppError> {
                panic!("a bug")
            })
            .await;
        assert_eq!(
            boom.unwrap_err().status,
            axum::http::StatusCode::INTERNAL_SERVER_ERROR
        );
        writer
            .grouped(Scope::HOME, None, |c| c.note("still here"))
            .await
            .map_err(|e| e.message.clone())
            .unwrap();
        let alone = writer.alone(|| Ok(7)).await.map_err(|e| e.message.clone());
        assert_eq!(alone.unwrap(), 7);
        assert_eq!(notes(&path), vec![(1, "still here".to_string())]);
    }
}
