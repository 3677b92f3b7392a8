//! Live updates: server-sent events per table, in journal order.
//!
//! One change feed per server: when a table has new entries, its feed reads them once (in
//! the game master's view) and renders each once, as the bytes of its whole event (`id`,
//! `event`, `data`); the same bytes (one buffer, shared, never copied or serialized again)
//! are handed to every stream of the table that may see them (a player's streams get the public ones only:
//! a secret entry is never handed to a player's stream). A stream reads the journal itself,
//! through its member's scope, only to catch up when it opens (from `Last-Event-ID`), then
//! takes what the feed hands it, skipping what it sent already: entries arrive in journal
//! order, once. Each client has a bounded buffer of handed batches: a client that leaves it
//! full (it does not read) is dropped, and the others go on; it catches up when it
//! reconnects.
//!
//! A write of this server wakes its table's feed at once. Writes of other processes (another
//! server on the same database, the command line) are found by one watcher per server, not
//! by the streams:
//!
//! - On PostgreSQL, the watcher is one thread holding one listening connection
//!   (`LISTEN solum_journal`; every append sends `NOTIFY` with its table inside its
//!   transaction): each table told wakes its feed, which reads on from its last number. If
//!   the connection drops, the watcher connects again and wakes every live feed, which catch
//!   up by their tables' numbers: what was committed meanwhile is read then. Nothing polls.
//!   The open streams' sessions are re-checked every [`SESSION_RECHECK`].
//! - On SQLite (no notifications), every [`crate::Config::live_poll`] the watcher asks
//!   whether another connection committed (`PRAGMA data_version`), and if so reads each live
//!   table's last number and wakes the feeds that are behind. When the count of ended
//!   sessions moved ([`solum_store::TableStore::sessions_ended`]), the same look re-checks
//!   the sessions of the open streams (an ended session's streams end), as does a look every
//!   [`SESSION_RECHECK`] whatever happened (an expired session's).
//!
//! Streams are capped overall, per table, per session and per peer address (429 past a
//! cap). A stream lives as long as its session: its session is checked when it opens, logout
//! ends the session's streams at once, the watcher ends those of a session that expired or
//! was deleted, and every event delivered checks the stream was not ended. A table's live
//! state (its clients and its feed) goes when its last stream closes.
//!
//! Presence: the members with a stream open on this server, per table, kept beside the
//! clients and changed when a stream opens or closes (logout, a closed tab, an ended
//! session). Each stream, once caught up, sends `event: presence` with
//! `{"present": [member ids]}` at once and again on every change (no `id`, so it never
//! moves `Last-Event-ID`). A member connected only to another server of the same database is
//! not counted.

use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use solum_app::{AppError, JournalEntry, tables};
use solum_store::{Scope, Store, StoreHandle};
use solum_store_open::{Change, Database};
use tokio::sync::{mpsc, watch};

use crate::rendered::Rendered;
use crate::sessions::SessionCache;
use crate::{ApiError, AppState, Auth, Peer, blocking, read};

/// One journal entry as a live stream sends it, rendered once for every stream: `frame` is
/// the whole server-sent event, whose buffer every stream that sends it shares.
#[derive(Clone)]
pub(crate) struct Item {
    seq: i64,
    secret: bool,
    frame: Bytes,
}

/// How long a stream stays silent before it sends a comment line (`:`), so that proxies
/// and browsers keep it open: axum's default for its own streams.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// The keep-alive comment, an event without a field.
const KEEP_ALIVE_FRAME: &[u8] = b":\n\n";

/// The event of entry `seq` whose JSON is `json`: `id: SEQ`, `event: entry`, one `data:`
/// line per line of the JSON (compact JSON has none but the one), and the blank line that
/// ends it.
fn frame(seq: i64, json: &str) -> Bytes {
    let mut out = String::with_capacity(json.len() + 40);
    out.push_str("id: ");
    out.push_str(&seq.to_string());
    out.push_str("\nevent: entry\n");
    for line in json.split('\n') {
        out.push_str("data: ");
        out.push_str(line.strip_suffix('\r').unwrap_or(line));
        out.push('\n');
    }
    out.push('\n');
    Bytes::from(out)
}

/// Entries handed to a stream at once, shared by every stream of the same view.
type Batch = Arc<Vec<Item>>;

/// One live client: its handed batches, and the flag that ends it.
struct Client {
    tx: mpsc::Sender<Batch>,
    ended: Arc<AtomicBool>,
    session: String,
    peer: Option<IpAddr>,
    /// A game master's stream (sees secret entries).
    gm: bool,
    /// The member whose stream it is (presence).
    member: i64,
}

/// The members present at a table: who has a stream open on this server, sorted, once each.
type Present = Arc<[i64]>;

/// A table's change feed: the last number it read (none until a stream of the table has
/// read the table's last number), whether a read runs, and whether another was asked for
/// meanwhile.
#[derive(Default)]
struct Feed {
    after: Option<i64>,
    reading: bool,
    dirty: bool,
}

#[derive(Default)]
struct Clients {
    /// Per table, its clients by id. A table without clients has no entry.
    tables: HashMap<i64, HashMap<u64, Client>>,
    next: u64,
    total: usize,
    per_session: HashMap<String, usize>,
    per_peer: HashMap<IpAddr, usize>,
    /// Per table with clients, its feed.
    feeds: HashMap<i64, Feed>,
    /// The watcher runs (it stops when the last stream closes).
    watching: bool,
    /// Journal reads the feeds made.
    feed_reads: u64,
    /// Per table with clients, who is present (every stream of the table watches it).
    presence: HashMap<i64, watch::Sender<Present>>,
    /// The entries rendered (the hub's): where the feeds keep what they render.
    rendered: Arc<Rendered>,
}

/// Sets `table`'s presence from its clients; the streams are told only when it changed.
fn update_presence(c: &mut Clients, table: i64) {
    let mut present: Vec<i64> = c
        .tables
        .get(&table)
        .map(|clients| clients.values().map(|cl| cl.member).collect())
        .unwrap_or_default();
    present.sort_unstable();
    present.dedup();
    let present: Present = present.into();
    match c.presence.get(&table) {
        Some(tx) => {
            tx.send_if_modified(|now| {
                let changed = **now != *present;
                if changed {
                    *now = present.clone();
                }
                changed
            });
        }
        None => {
            c.presence.insert(table, watch::channel(present).0);
        }
    }
}

/// The presence event: `event: presence`, `{"present": [ids]}`.
fn presence_frame(present: &[i64]) -> Bytes {
    let ids: Vec<String> = present.iter().map(i64::to_string).collect();
    Bytes::from(format!(
        "event: presence\ndata: {{\"present\":[{}]}}\n\n",
        ids.join(",")
    ))
}

/// How often the watcher re-checks the open streams' sessions even when nothing was
/// written (a session also expires by time alone).
pub const SESSION_RECHECK: Duration = Duration::from_secs(30);

/// The live clients of every table, and the campaign their feeds read.
pub struct Hub {
    clients: Arc<Mutex<Clients>>,
    path: Database,
    poll: Duration,
    /// The sessions requests found, trusted while the watcher runs (it tells of sessions
    /// ended elsewhere).
    sessions: Arc<SessionCache>,
    /// Entries rendered by the feeds and the journal's pages.
    rendered: Arc<Rendered>,
}

impl Default for Hub {
    fn default() -> Self {
        Self::new(Database::Sqlite(PathBuf::new()), Duration::from_secs(2))
    }
}

/// The caps of live streams ([`crate::Config::live_max`] and following).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Caps {
    pub total: usize,
    pub per_session: usize,
    pub per_peer: usize,
    pub per_table: usize,
}

/// Which cap a refused stream met.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Over {
    Total,
    Session,
    Peer,
    Table,
}

fn lock(m: &Mutex<Clients>) -> MutexGuard<'_, Clients> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

fn decrement<K: std::hash::Hash + Eq>(map: &mut HashMap<K, usize>, key: &K) {
    if let Some(n) = map.get_mut(key) {
        *n = n.saturating_sub(1);
        if *n == 0 {
            map.remove(key);
        }
    }
}

/// A stream's place in the hub: taken out (and its table's entry with its last client) when
/// the stream ends.
pub(crate) struct Subscription {
    clients: Arc<Mutex<Clients>>,
    path: Database,
    table: i64,
    id: u64,
    rx: mpsc::Receiver<Batch>,
    ended: Arc<AtomicBool>,
    /// The table's presence (marked changed at first: a stream sends it once caught up).
    presence: watch::Receiver<Present>,
}

impl Subscription {
    /// The table's feed starts after `last` (the table's last number, read before the
    /// stream's catch-up), unless it started already; a read asked for meanwhile runs now.
    fn start_feed(&self, last: i64) {
        let run = {
            let mut c = lock(&self.clients);
            match c.feeds.get_mut(&self.table) {
                Some(feed) if feed.after.is_none() => {
                    feed.after = Some(last);
                    std::mem::take(&mut feed.dirty)
                }
                _ => false,
            }
        };
        if run {
            notify(&self.clients, &self.path, self.table);
        }
    }
}

impl Subscription {
    /// Where the table's feed is: every entry up to it was handed on to the streams that
    /// were open then (`None` before the feed starts).
    fn feed_after(&self) -> Option<i64> {
        lock(&self.clients)
            .feeds
            .get(&self.table)
            .and_then(|f| f.after)
    }
}

/// Starts `table`'s feed read unless one runs (then it reads again when done).
fn notify(clients: &Arc<Mutex<Clients>>, path: &Database, table: i64) {
    let start = {
        let mut c = lock(clients);
        let Some(feed) = c.feeds.get_mut(&table) else {
            return;
        };
        if feed.reading || feed.after.is_none() {
            feed.dirty = true;
            false
        } else {
            feed.reading = true;
            feed.dirty = false;
            true
        }
    };
    if !start {
        return;
    }
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        if let Some(feed) = lock(clients).feeds.get_mut(&table) {
            feed.reading = false;
        }
        return;
    };
    runtime.spawn(read_feed(clients.clone(), path.clone(), table));
}

/// Reads `table`'s new entries, a page at a time, and hands them to its streams, until the
/// feed has read everything it was asked for.
async fn read_feed(clients: Arc<Mutex<Clients>>, path: Database, table: i64) {
    loop {
        let Some(after) = lock(&clients).feeds.get(&table).and_then(|f| f.after) else {
            return;
        };
        let p = path.clone();
        let rendered = lock(&clients).rendered.clone();
        let read = blocking(move || {
            let scope = Scope {
                table,
                member: None,
                gm: true,
                secret_writes: false,
            };
            // Read again on a new connection if the kept one was ended under it (a restart
            // of the database), rather than end the table's streams.
            read(&p, scope, |store| read_items(&**store, after, &rendered))
        })
        .await;
        let mut c = lock(&clients);
        c.feed_reads = c.feed_reads.saturating_add(1);
        let Ok(items) = read else {
            // The campaign failed: the table's streams end (their browsers reconnect).
            let ids: Vec<u64> = c
                .tables
                .get(&table)
                .map(|t| t.keys().copied().collect())
                .unwrap_or_default();
            for id in ids {
                remove(&mut c, table, id);
            }
            return;
        };
        let more = items.len() >= PAGE;
        let Some(feed) = c.feeds.get_mut(&table) else {
            return;
        };
        if let Some(last) = items.last() {
            feed.after = Some(last.seq);
        }
        let again = more || std::mem::take(&mut feed.dirty);
        if !again {
            feed.reading = false;
        }
        if !items.is_empty() {
            hand_out(&mut c, table, items);
        }
        if !again {
            return;
        }
    }
}

/// Hands `items` to every stream of `table` that may see them: the same batch to every game
/// master's stream, the same public batch to every player's. A stream whose buffer is full
/// is dropped.
fn hand_out(c: &mut Clients, table: i64, items: Vec<Item>) {
    let public: Batch = Arc::new(items.iter().filter(|i| !i.secret).cloned().collect());
    let all: Batch = Arc::new(items);
    let full: Vec<u64> = c
        .tables
        .get(&table)
        .map(|clients| {
            clients
                .iter()
                .filter(|(_, cl)| {
                    let batch = if cl.gm { &all } else { &public };
                    !batch.is_empty() && cl.tx.try_send(batch.clone()).is_err()
                })
                .map(|(id, _)| *id)
                .collect()
        })
        .unwrap_or_default();
    for id in full {
        remove(c, table, id);
    }
}

/// The server's one watcher on SQLite: every `poll`, whether another connection wrote; if so, each
/// live table's last number (feeds behind it are woken) and the open streams' sessions
/// (also every [`SESSION_RECHECK`]). Stops when the last stream closes.
async fn watch(
    clients: Arc<Mutex<Clients>>,
    path: Database,
    poll: Duration,
    cache: Arc<SessionCache>,
) {
    let mut store: Option<Box<dyn Store>> = None;
    let mut version: Option<i64> = None;
    // Sessions ended so far: the kept sessions are forgotten, and the streams' sessions
    // looked up, only when it moves (every commit of the server's own writer moves
    // `version`: a look at every session each turn cost the rolls' latency under load).
    let mut ended: Option<u64> = None;
    let mut checked = tokio::time::Instant::now();
    cache.set_live(true);
    loop {
        tokio::time::sleep(poll).await;
        let (live, sessions) = {
            let mut c = lock(&clients);
            if c.total == 0 {
                c.watching = false;
                cache.set_live(false);
                return;
            }
            let live: Vec<i64> = c.tables.keys().copied().collect();
            let sessions: Vec<String> = c.per_session.keys().cloned().collect();
            (live, sessions)
        };
        let recheck = checked.elapsed() >= SESSION_RECHECK;
        let p = path.clone();
        let kept = store.take();
        let looked = blocking(move || {
            let s = match kept {
                Some(s) => s,
                None => solum_store_open::open_existing(&p, Scope::HOME)?,
            };
            let now = s.data_version()?;
            if version == Some(now) && !recheck {
                return Ok((s, now, ended, None));
            }
            let now_ended = s.sessions_ended()?;
            let mut last = Vec::with_capacity(live.len());
            for t in live {
                last.push((t, s.last_seq(t)?));
            }
            let mut gone = Vec::new();
            if recheck || ended != Some(now_ended) {
                for session in sessions {
                    if tables::session_by_hash(&s, &session)?.is_none() {
                        gone.push(session);
                    }
                }
            }
            Ok((s, now, Some(now_ended), Some((last, gone))))
        })
        .await;
        let Ok((s, now, now_ended, found)) = looked else {
            // Looked again at the next turn, with a new connection; meanwhile no session is
            // trusted without a lookup.
            cache.forget_all();
            ended = None;
            continue;
        };
        if ended != now_ended {
            // Another connection ended a session.
            cache.forget_all();
        }
        store = Some(s);
        version = Some(now);
        ended = now_ended;
        let Some((last, gone)) = found else {
            continue;
        };
        checked = tokio::time::Instant::now();
        let behind: Vec<i64> = {
            let mut c = lock(&clients);
            for session in &gone {
                end_session(&mut c, session);
            }
            last.into_iter()
                .filter(|(t, n)| {
                    c.feeds
                        .get(t)
                        .and_then(|f| f.after)
                        .is_some_and(|after| *n > after)
                })
                .map(|(t, _)| t)
                .collect()
        };
        for t in behind {
            notify(&clients, &path, t);
        }
    }
}

/// How long the PostgreSQL watcher waits for a notification before it looks whether it is
/// still needed (the last stream closed) and whether the sessions are due a re-check.
const LISTEN_TICK: Duration = Duration::from_secs(1);

/// How long the PostgreSQL watcher waits before connecting again after its listening
/// connection failed, at most (it starts at 100 ms and doubles).
const LISTEN_RETRY_MAX: Duration = Duration::from_secs(5);

/// Tables told at once, at most, before their feeds are woken (the rest wait for the next
/// turn).
const TOLD_AT_ONCE: usize = 1_024;

/// The server's one watcher on PostgreSQL, on a thread of its own: one listening connection
/// (see the module's documentation). Stops when the last stream closes.
fn listen(
    clients: &Arc<Mutex<Clients>>,
    path: &Database,
    runtime: &tokio::runtime::Handle,
    cache: &SessionCache,
) {
    // `notify` spawns the feeds' reads on the server's runtime.
    let _entered = runtime.enter();
    let mut changes: Option<solum_store_open::Changes> = None;
    let mut retry = Duration::from_millis(100);
    let mut sessions_store: Option<Box<dyn Store>> = None;
    let mut checked = std::time::Instant::now();
    loop {
        {
            let mut c = lock(clients);
            if c.total == 0 {
                c.watching = false;
                cache.set_live(false);
                return;
            }
        }
        if checked.elapsed() >= SESSION_RECHECK {
            checked = std::time::Instant::now();
            recheck_sessions(clients, path, &mut sessions_store);
        }
        let Some(feed) = changes.as_mut() else {
            match solum_store_open::listen(path) {
                Ok(Some(listening)) => {
                    changes = Some(listening);
                    retry = Duration::from_millis(100);
                    // Catch up: what was committed before the connection listened was not
                    // told; every live feed reads on from its table's last number.
                    let live: Vec<i64> = lock(clients).feeds.keys().copied().collect();
                    for table in live {
                        notify(clients, path, table);
                    }
                    // From now on a session ended anywhere is told: sessions may be kept.
                    cache.set_live(true);
                }
                Ok(None) => {
                    lock(clients).watching = false;
                    cache.set_live(false);
                    return;
                }
                Err(e) => {
                    tracing::warn!("the change feed cannot listen ({e}); trying again");
                    std::thread::sleep(retry);
                    retry = (retry * 2).min(LISTEN_RETRY_MAX);
                }
            }
            continue;
        };
        let mut told = std::collections::BTreeSet::new();
        let mut wait = LISTEN_TICK;
        loop {
            match feed.next_change(wait) {
                Ok(Some(Change::Table(table))) => {
                    told.insert(table);
                    if told.len() >= TOLD_AT_ONCE {
                        break;
                    }
                    // Take what else came already, then wake the feeds.
                    wait = Duration::ZERO;
                }
                Ok(Some(Change::SessionEnded(session))) => {
                    // Logged out through any server: not trusted here any more, and its
                    // streams here end now.
                    cache.forget(&session);
                    end_session(&mut lock(clients), &session);
                    wait = Duration::ZERO;
                }
                Ok(None) => break,
                Err(e) => {
                    tracing::warn!("the change feed's connection failed ({e}); listening again");
                    cache.set_live(false);
                    changes = None;
                    break;
                }
            }
        }
        for table in told {
            notify(clients, path, table);
        }
    }
}

/// Ends the streams of sessions that expired or were deleted (by another server too).
fn recheck_sessions(
    clients: &Arc<Mutex<Clients>>,
    path: &Database,
    store: &mut Option<Box<dyn Store>>,
) {
    let sessions: Vec<String> = lock(clients).per_session.keys().cloned().collect();
    let s = match store.take() {
        Some(s) => s,
        None => match solum_store_open::open_existing(path, Scope::HOME) {
            Ok(s) => s,
            Err(_) => return,
        },
    };
    let mut gone = Vec::new();
    for session in sessions {
        match tables::session_by_hash(&s, &session) {
            Ok(None) => gone.push(session),
            Ok(Some(_)) => {}
            // Looked again at the next turn, with a new connection.
            Err(_) => return,
        }
    }
    *store = Some(s);
    let mut c = lock(clients);
    for session in &gone {
        end_session(&mut c, session);
    }
}

fn end_session(c: &mut Clients, session: &str) {
    let theirs: Vec<(i64, u64)> = c
        .tables
        .iter()
        .flat_map(|(t, clients)| {
            clients
                .iter()
                .filter(|(_, cl)| cl.session == session)
                .map(move |(id, _)| (*t, *id))
        })
        .collect();
    for (table, id) in theirs {
        remove(c, table, id);
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        let mut c = lock(&self.clients);
        remove(&mut c, self.table, self.id);
    }
}

fn remove(c: &mut Clients, table: i64, id: u64) -> Option<Client> {
    let clients = c.tables.get_mut(&table)?;
    let client = clients.remove(&id)?;
    if clients.is_empty() {
        c.tables.remove(&table);
        c.feeds.remove(&table);
        c.presence.remove(&table);
    } else {
        update_presence(c, table);
    }
    c.total = c.total.saturating_sub(1);
    decrement(&mut c.per_session, &client.session);
    if let Some(ip) = client.peer {
        decrement(&mut c.per_peer, &ip);
    }
    client.ended.store(true, Ordering::Relaxed);
    Some(client)
}

impl Hub {
    /// The hub of a server whose campaign is `path`; on SQLite its watcher looks every
    /// `poll` (on PostgreSQL it listens instead).
    pub fn new(path: Database, poll: Duration) -> Self {
        let rendered = Arc::<Rendered>::default();
        Self {
            clients: Arc::new(Mutex::new(Clients {
                rendered: rendered.clone(),
                ..Clients::default()
            })),
            path,
            poll,
            sessions: Arc::default(),
            rendered,
        }
    }

    /// The entries this server rendered, by table and number.
    pub(crate) fn rendered(&self) -> &Arc<Rendered> {
        &self.rendered
    }

    /// How many times a journal page or a feed found an entry rendered (not read and
    /// rendered again).
    pub fn rendered_hits(&self) -> u64 {
        self.rendered.hits()
    }

    /// The sessions this server's requests found, trusted while the watcher runs.
    pub(crate) fn sessions(&self) -> &SessionCache {
        &self.sessions
    }

    /// How many requests found their session in this server's cache (no query).
    pub fn session_hits(&self) -> u64 {
        self.sessions.hits()
    }

    /// A new client of `table` for the session `session` (its token's hash) from `peer`,
    /// unless a cap is met.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn subscribe(
        &self,
        table: i64,
        member: i64,
        session: &str,
        peer: Option<IpAddr>,
        gm: bool,
        buffer: usize,
        caps: Caps,
    ) -> Result<Subscription, Over> {
        let mut c = lock(&self.clients);
        if c.total >= caps.total {
            return Err(Over::Total);
        }
        if c.per_session.get(session).copied().unwrap_or(0) >= caps.per_session {
            return Err(Over::Session);
        }
        if let Some(ip) = peer
            && c.per_peer.get(&ip).copied().unwrap_or(0) >= caps.per_peer
        {
            return Err(Over::Peer);
        }
        if c.tables.get(&table).map_or(0, HashMap::len) >= caps.per_table {
            return Err(Over::Table);
        }
        let (tx, rx) = mpsc::channel(buffer.max(1));
        let ended = Arc::new(AtomicBool::new(false));
        let id = c.next;
        c.next += 1;
        c.total += 1;
        *c.per_session.entry(session.to_string()).or_insert(0) += 1;
        if let Some(ip) = peer {
            *c.per_peer.entry(ip).or_insert(0) += 1;
        }
        c.tables.entry(table).or_default().insert(
            id,
            Client {
                tx,
                ended: ended.clone(),
                session: session.to_string(),
                peer,
                gm,
                member,
            },
        );
        c.feeds.entry(table).or_default();
        update_presence(&mut c, table);
        let mut presence = c
            .presence
            .get(&table)
            .map(watch::Sender::subscribe)
            .expect("set just above");
        presence.mark_changed();
        if !c.watching
            && !matches!(&self.path, Database::Sqlite(p) if p.as_os_str().is_empty())
            && let Ok(runtime) = tokio::runtime::Handle::try_current()
        {
            c.watching = true;
            if self.path.is_postgres() {
                let (clients, path) = (self.clients.clone(), self.path.clone());
                let cache = self.sessions.clone();
                let spawned = std::thread::Builder::new()
                    .name("solum-listen".into())
                    .spawn(move || listen(&clients, &path, &runtime, &cache));
                if let Err(e) = spawned {
                    // The next stream tries again.
                    tracing::error!("the change feed's thread could not start: {e}");
                    c.watching = false;
                }
            } else {
                runtime.spawn(watch(
                    self.clients.clone(),
                    self.path.clone(),
                    self.poll,
                    self.sessions.clone(),
                ));
            }
        }
        Ok(Subscription {
            clients: self.clients.clone(),
            path: self.path.clone(),
            table,
            id,
            rx,
            ended,
            presence,
        })
    }

    /// The table has new entries: its feed reads them (once, whatever the number of its
    /// streams) and hands them to its streams; a client whose buffer is full is dropped.
    pub fn notify(&self, table: i64) {
        notify(&self.clients, &self.path, table);
    }

    /// How many journal reads the tables' feeds have made: one per batch of new entries of a
    /// table, whatever the number of its streams.
    pub fn feed_reads(&self) -> u64 {
        lock(&self.clients).feed_reads
    }

    /// How many live clients `table` has.
    pub fn clients(&self, table: i64) -> usize {
        lock(&self.clients)
            .tables
            .get(&table)
            .map_or(0, HashMap::len)
    }

    /// How many tables have live state (a client) at all: a table whose last stream closed
    /// keeps none.
    pub fn live_tables(&self) -> usize {
        lock(&self.clients).tables.len()
    }

    /// Ends every stream of the session whose token hashes to `session` (it logged out).
    pub fn end_session(&self, session: &str) {
        end_session(&mut lock(&self.clients), session);
    }

    /// Ends every stream (the server is stopping).
    pub fn close_all(&self) {
        let mut c = lock(&self.clients);
        for clients in c.tables.values() {
            for client in clients.values() {
                client.ended.store(true, Ordering::Relaxed);
            }
        }
        *c = Clients {
            next: c.next,
            watching: c.watching,
            feed_reads: c.feed_reads,
            ..Clients::default()
        };
    }
}

/// The most entries read from the store at once by a stream.
const PAGE: usize = 200;

struct Live {
    after: i64,
    path: Database,
    scope: Scope,
    /// The session's token (in memory only) and member: the catch-up read first checks that
    /// the session still exists, is not expired and is still this member's.
    token: String,
    member: i64,
    sub: Subscription,
    pending: VecDeque<Item>,
    /// Read up to the feed: from now on the stream takes what the feed hands it.
    caught_up: bool,
    /// The table's last number was read (before the first catch-up read) and given to the
    /// feed.
    fed: bool,
    /// Every entry up to this number was read by the catch-up (hidden ones included): the
    /// next catch-up read starts here.
    read_upto: i64,
}

/// `GET /api/events`: the table's journal entries after `Last-Event-ID` (or `?after=`),
/// then each new one as it is written, for as long as the session lasts.
#[utoipa::path(get, path = "/api/events", tag = "live", params(AfterQuery), responses((status = 200, description = "Done")))]
pub(crate) async fn events(
    State(state): State<AppState>,
    auth: Auth,
    peer: Peer,
    headers: HeaderMap,
    crate::Query_(query): crate::Query_<AfterQuery>,
) -> Result<Response, ApiError> {
    let after = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<i64>().ok())
        .or(query.after)
        .unwrap_or(0);
    let scope = tables::scope_of(&auth.member);
    let config = &state.inner.config;
    let caps = Caps {
        total: config.live_max,
        per_session: config.live_per_session,
        per_peer: config.live_per_peer,
        per_table: config.live_per_table,
    };
    let sub = state
        .hub()
        .subscribe(
            scope.table,
            auth.member.id,
            &tables::token_hash(&auth.token),
            peer.0,
            scope.gm,
            config.live_buffer,
            caps,
        )
        .map_err(|over| {
            let whose = match over {
                Over::Total => "the server has as many live streams open as it takes",
                Over::Session => "this session has as many live streams open as it may",
                Over::Peer => "this address has as many live streams open as it may",
                Over::Table => "this table has as many live streams open as it may",
            };
            ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!("{whose}; close one (another tab?) and try again"),
            )
            .retry_after(Duration::from_secs(5))
        })?;
    let live = Live {
        after,
        path: config.campaign.clone(),
        scope,
        token: auth.token,
        member: auth.member.id,
        sub,
        pending: VecDeque::new(),
        caught_up: false,
        fed: false,
        read_upto: after,
    };
    let stream = futures_util::stream::unfold(live, next_event);
    let mut resp = Body::from_stream(stream).into_response();
    resp.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    // The documented header of every answer: a stream is never stored by a cache either.
    resp.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(resp)
}

/// The live stream's query: where to start (`after`, or the `Last-Event-ID` header), and the
/// session `token` (read by [`Auth`]: an `EventSource` sends no header). Anything else is
/// refused as every route refuses an unknown parameter (422 `query-invalid`).
#[derive(serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub(crate) struct AfterQuery {
    after: Option<i64>,
    #[allow(dead_code)] // read by `Auth` from the raw query; here only allowed
    token: Option<String>,
}

/// The stream's next bytes: an entry's event (shared with every stream that sends it), or
/// the keep-alive comment after [`KEEP_ALIVE`] of silence.
async fn next_event(mut live: Live) -> Option<(Result<Bytes, Infallible>, Live)> {
    loop {
        // Every event delivered checks the stream first: logout or an expired session
        // ends it at once.
        if live.sub.ended.load(Ordering::Relaxed) {
            return None;
        }
        if let Some(item) = live.pending.pop_front() {
            if item.seq <= live.after || (item.secret && !live.scope.gm) {
                continue;
            }
            live.after = item.seq;
            return Some((Ok(item.frame), live));
        }
        if live.caught_up {
            // Who is present, when it changed (and once, first).
            if live.sub.presence.has_changed().unwrap_or(false) {
                let present = live.sub.presence.borrow_and_update().clone();
                return Some((Ok(presence_frame(&present)), live));
            }
            let sub = &mut live.sub;
            tokio::select! {
                batch = tokio::time::timeout(KEEP_ALIVE, sub.rx.recv()) => match batch {
                    Ok(batch) => live.pending.extend(batch?.iter().cloned()),
                    Err(_) => return Some((Ok(Bytes::from_static(KEEP_ALIVE_FRAME)), live)),
                },
                // (`changed` marks the value seen: it is sent here.) A closed presence (the
                // table's last stream went) ends the stream.
                changed = sub.presence.changed() => {
                    changed.ok()?;
                    let present = sub.presence.borrow_and_update().clone();
                    return Some((Ok(presence_frame(&present)), live));
                }
            }
            continue;
        }
        let (path, scope, fed) = (live.path.clone(), live.scope, live.fed);
        let after = live.read_upto.max(live.after);
        let (token, member) = (live.token.clone(), live.member);
        let rendered = lock(&live.sub.clients).rendered.clone();
        let read = blocking(move || {
            // This thread's kept connection: a stream holds no descriptor of its own.
            read(&path, Scope::HOME, |store| {
                store.set_scope(Scope::HOME);
                if tables::session(store, &token)?.is_none_or(|m| m.id != member) {
                    return Ok(None);
                }
                // The table's last number before the catch-up: the catch-up read sees at
                // least up to it; a feed not started yet hands on from there.
                let last = store.last_seq(scope.table)?;
                store.set_scope(scope);
                Ok(Some((last, read_items(&**store, after, &rendered)?)))
            })
        })
        .await;
        match read {
            Ok(Some((last, items))) => {
                let full = items.len() >= PAGE;
                let seen = items.last().map_or(after, |i| i.seq);
                // A full page read up to its last entry; otherwise everything up to the
                // table's last number (read first) was read, hidden entries included.
                live.read_upto = if full {
                    seen
                } else {
                    seen.max(last).max(after)
                };
                if !fed {
                    live.fed = true;
                    live.sub.start_feed(last);
                }
                // The feed may already have handed on entries this read did not reach (it
                // started after another stream's later catch-up): read on until the
                // catch-up reaches where the feed is; from there on the stream takes what the
                // feed hands it.
                live.caught_up = !full && live.sub.feed_after().is_none_or(|f| live.read_upto >= f);
                live.pending.extend(items);
            }
            // The session ended (logged out, expired) or the campaign failed: the stream ends.
            Ok(None) | Err(_) => return None,
        }
    }
}

/// The entries after `after` that `store`'s scope sees, at most [`PAGE`], each rendered
/// once as a stream sends it (and as a journal page does: kept in `rendered`).
fn read_items(store: &dyn Store, after: i64, rendered: &Rendered) -> Result<Vec<Item>, AppError> {
    let table = store.scope().table;
    store
        .entries_after(after, PAGE)?
        .into_iter()
        .map(|e| {
            let (seq, secret) = (e.seq, e.secret);
            let json = match rendered.get(table, seq) {
                Some(json) => json,
                None => {
                    // Read as every journal page reads it: the record and who made it.
                    let json = crate::rendered::render(JournalEntry::read(e)?)?;
                    rendered.keep(table, seq, json.clone());
                    json
                }
            };
            let json = std::str::from_utf8(&json).map_err(|_| AppError::UnreadableEntry {
                seq,
                reason: "its JSON is not UTF-8".into(),
            })?;
            Ok(Item {
                seq,
                secret,
                frame: frame(seq, json),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const CAPS: Caps = Caps {
        total: 5,
        per_session: 2,
        per_peer: 3,
        per_table: 4,
    };

    #[test]
    fn a_tables_live_state_goes_with_its_last_stream() {
        let hub = Hub::default();
        let a = hub.subscribe(7, 0, "s1", None, true, 4, CAPS).unwrap();
        let b = hub.subscribe(7, 0, "s2", None, true, 4, CAPS).unwrap();
        let c = hub.subscribe(8, 0, "s3", None, true, 4, CAPS).unwrap();
        assert_eq!((hub.live_tables(), hub.clients(7)), (2, 2));
        drop(c);
        // A quiet table (never notified) keeps nothing once its stream is gone.
        assert_eq!(hub.live_tables(), 1);
        drop(a);
        hub.notify(7);
        drop(b);
        assert_eq!((hub.live_tables(), hub.clients(7)), (0, 0));
        let cl = lock(&hub.clients);
        assert_eq!(cl.total, 0);
        assert!(cl.per_session.is_empty() && cl.per_peer.is_empty());
    }

    /// Presence follows the streams: a member is present while any of their streams is
    /// open, once however many, and a stream is told of every change.
    #[tokio::test]
    async fn presence_follows_the_streams_of_a_table() {
        let hub = Hub::default();
        let mut ada = hub.subscribe(7, 1, "a", None, true, 4, CAPS).unwrap();
        assert!(ada.presence.has_changed().unwrap(), "told once at first");
        assert_eq!(&**ada.presence.borrow_and_update(), &[1]);
        let pia = hub.subscribe(7, 2, "p", None, false, 4, CAPS).unwrap();
        let pia_again = hub.subscribe(7, 2, "q", None, false, 4, CAPS).unwrap();
        let _other_table = hub.subscribe(8, 3, "o", None, true, 4, CAPS).unwrap();
        ada.presence.changed().await.unwrap();
        assert_eq!(&**ada.presence.borrow_and_update(), &[1, 2]);
        drop(pia);
        // One of Pia's two streams closed: she is still there, and nobody is told.
        assert!(!ada.presence.has_changed().unwrap());
        drop(pia_again);
        assert!(ada.presence.has_changed().unwrap());
        assert_eq!(&**ada.presence.borrow_and_update(), &[1]);
        assert_eq!(
            &presence_frame(&[1, 2])[..],
            b"event: presence\ndata: {\"present\":[1,2]}\n\n"
        );
    }

    #[test]
    fn streams_are_capped_per_session_per_peer_and_overall() {
        let hub = Hub::default();
        let ip: IpAddr = [10, 0, 0, 1].into();
        let other: IpAddr = [10, 0, 0, 2].into();
        let s1 = hub.subscribe(1, 0, "s", Some(ip), true, 4, CAPS).unwrap();
        let _s2 = hub.subscribe(1, 0, "s", Some(ip), true, 4, CAPS).unwrap();
        assert_eq!(
            hub.subscribe(1, 0, "s", Some(other), true, 4, CAPS).err(),
            Some(Over::Session)
        );
        let _t1 = hub.subscribe(1, 0, "t", Some(ip), true, 4, CAPS).unwrap();
        assert_eq!(
            hub.subscribe(1, 0, "t", Some(ip), true, 4, CAPS).err(),
            Some(Over::Peer)
        );
        let _t2 = hub
            .subscribe(1, 0, "t", Some(other), true, 4, CAPS)
            .unwrap();
        let _u1 = hub
            .subscribe(2, 0, "u", Some(other), true, 4, CAPS)
            .unwrap();
        assert_eq!(
            hub.subscribe(2, 0, "v", Some(other), true, 4, CAPS).err(),
            Some(Over::Total)
        );
        drop(s1);
        assert!(hub.subscribe(2, 0, "v", Some(other), true, 4, CAPS).is_ok());
    }

    #[test]
    fn one_table_cannot_take_every_stream() {
        let hub = Hub::default();
        let caps = Caps {
            total: 10,
            per_session: 10,
            per_peer: 10,
            per_table: 3,
        };
        let mine: Vec<_> = (0..3)
            .map(|n| {
                hub.subscribe(1, 0, &format!("s{n}"), None, true, 4, caps)
                    .unwrap()
            })
            .collect();
        assert_eq!(
            hub.subscribe(1, 0, "s9", None, true, 4, caps).err(),
            Some(Over::Table)
        );
        assert!(
            hub.subscribe(2, 0, "t", None, true, 4, caps).is_ok(),
            "another table"
        );
        drop(mine);
        assert!(hub.subscribe(1, 0, "s9", None, true, 4, caps).is_ok());
    }

    #[test]
    fn an_entry_is_one_event_in_the_server_sent_events_format() {
        assert_eq!(
            &frame(42, r#"{"seq":42,"text":"a\nb"}"#)[..],
            b"id: 42\nevent: entry\ndata: {\"seq\":42,\"text\":\"a\\nb\"}\n\n"
        );
        // A line break in the data (never in compact JSON) becomes a second data line.
        assert_eq!(
            &frame(7, "a\nb")[..],
            b"id: 7\nevent: entry\ndata: a\ndata: b\n\n"
        );
    }

    #[tokio::test]
    async fn every_stream_of_a_view_gets_the_same_bytes() {
        let hub = Hub::default();
        let mut gm1 = hub.subscribe(1, 0, "g1", None, true, 4, CAPS).unwrap();
        let mut gm2 = hub.subscribe(1, 0, "g2", None, true, 4, CAPS).unwrap();
        let mut player = hub.subscribe(1, 0, "p", None, false, 4, CAPS).unwrap();
        let items = vec![
            Item {
                seq: 1,
                secret: false,
                frame: frame(1, "{}"),
            },
            Item {
                seq: 2,
                secret: true,
                frame: frame(2, "{}"),
            },
        ];
        let first = items[0].frame.as_ptr();
        hand_out(&mut lock(&hub.clients), 1, items);
        let (a, b, p) = (
            gm1.rx.recv().await.unwrap(),
            gm2.rx.recv().await.unwrap(),
            player.rx.recv().await.unwrap(),
        );
        // One batch for the game masters' view, one for the players': the entry's bytes are
        // the buffer rendered once, not a copy per stream.
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(a.len(), 2);
        assert_eq!(p.iter().map(|i| i.seq).collect::<Vec<_>>(), vec![1]);
        assert_eq!(a[0].frame.as_ptr(), first);
        assert_eq!(p[0].frame.as_ptr(), first);
    }

    #[tokio::test]
    async fn ending_a_session_ends_its_streams_only() {
        let hub = Hub::default();
        let mut mine = hub.subscribe(1, 0, "s", None, true, 4, CAPS).unwrap();
        let mut theirs = hub.subscribe(1, 0, "t", None, true, 4, CAPS).unwrap();
        hub.end_session("s");
        assert!(mine.ended.load(Ordering::Relaxed));
        assert!(mine.rx.recv().await.is_none(), "its batches are gone");
        assert!(!theirs.ended.load(Ordering::Relaxed));
        let item = Item {
            seq: 1,
            secret: false,
            frame: frame(1, "{}"),
        };
        hand_out(&mut lock(&hub.clients), 1, vec![item]);
        assert_eq!(theirs.rx.recv().await.map(|b| b[0].seq), Some(1));
        assert_eq!(hub.clients(1), 1);
    }
}
