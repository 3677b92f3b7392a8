//! Live updates: server-sent events per table, in journal order.
//!
//! A stream does not carry what the hub sends: the hub only wakes it ("the table has new
//! entries"), and the stream reads the journal itself, through its member's scope, from the
//! last sequence number it sent. So entries arrive in journal order, a reconnection with
//! `Last-Event-ID` catches up on what was missed, and a player's stream can never read a
//! secret entry, since its store cannot. Each client has a bounded buffer of wake-ups: a
//! client that leaves it full (it does not read) is dropped, and the others go on.
//!
//! Streams are capped overall, per table, per session and per peer address (429 past a
//! cap). A stream
//! lives as long as its session: every read of the journal (each wake-up, each poll) checks
//! the session first, logout ends the session's streams at once, and every event delivered
//! checks the stream was not ended. A table's live state goes when its last stream closes.

use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use solum_app::{AppError, JournalEntry, Record, tables};
use solum_store::{CampaignStore, Scope, SqliteStore};
use tokio::sync::mpsc;

use crate::{ApiError, AppState, Auth, Peer, blocking, connection, keep};

/// One live client: its wake-ups, and the flag that ends it.
struct Client {
    tx: mpsc::Sender<()>,
    ended: Arc<AtomicBool>,
    session: String,
    peer: Option<IpAddr>,
}

#[derive(Default)]
struct Clients {
    /// Per table, its clients by id. A table without clients has no entry.
    tables: HashMap<i64, HashMap<u64, Client>>,
    next: u64,
    total: usize,
    per_session: HashMap<String, usize>,
    per_peer: HashMap<IpAddr, usize>,
}

/// The live clients of every table.
#[derive(Default)]
pub struct Hub {
    clients: Arc<Mutex<Clients>>,
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
    table: i64,
    id: u64,
    rx: mpsc::Receiver<()>,
    ended: Arc<AtomicBool>,
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
    /// A new client of `table` for the session `session` (its token's hash) from `peer`,
    /// unless a cap is met.
    pub(crate) fn subscribe(
        &self,
        table: i64,
        session: &str,
        peer: Option<IpAddr>,
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
            },
        );
        Ok(Subscription {
            clients: self.clients.clone(),
            table,
            id,
            rx,
            ended,
        })
    }

    /// Wakes every live client of `table`; one whose buffer is full is dropped.
    pub fn notify(&self, table: i64) {
        let mut c = lock(&self.clients);
        let full: Vec<u64> = c
            .tables
            .get(&table)
            .map(|clients| {
                clients
                    .iter()
                    .filter(|(_, cl)| cl.tx.try_send(()).is_err())
                    .map(|(id, _)| *id)
                    .collect()
            })
            .unwrap_or_default();
        for id in full {
            remove(&mut c, table, id);
        }
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
        let mut c = lock(&self.clients);
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
            remove(&mut c, table, id);
        }
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
            ..Clients::default()
        };
    }
}

/// The most entries read from the store at once by a stream.
const PAGE: usize = 200;

struct Live {
    after: i64,
    path: PathBuf,
    scope: Scope,
    /// The session's token (in memory only) and member: every read of the journal first
    /// checks that the session still exists, is not expired and is still this member's.
    token: String,
    member: i64,
    sub: Subscription,
    pending: VecDeque<JournalEntry>,
    poll: Duration,
}

/// `GET /api/events`: the table's journal entries after `Last-Event-ID` (or `?after=`),
/// then each new one as it is written, for as long as the session lasts.
pub(crate) async fn events(
    State(state): State<AppState>,
    auth: Auth,
    peer: Peer,
    headers: HeaderMap,
    axum::extract::Query(query): axum::extract::Query<AfterQuery>,
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
            &tables::token_hash(&auth.token),
            peer.0,
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
        poll: config.live_poll,
    };
    let stream = futures_util::stream::unfold(live, next_event);
    let mut resp = Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response();
    // The documented header of every answer: a stream is never stored by a cache either.
    resp.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(resp)
}

#[derive(serde::Deserialize)]
pub(crate) struct AfterQuery {
    after: Option<i64>,
}

async fn next_event(mut live: Live) -> Option<(Result<Event, Infallible>, Live)> {
    loop {
        // Every event delivered checks the session first: logout ends it at once.
        if live.sub.ended.load(Ordering::Relaxed) {
            return None;
        }
        if let Some(entry) = live.pending.pop_front() {
            live.after = entry.seq;
            let event = Event::default()
                .id(entry.seq.to_string())
                .event("entry")
                .data(String::from_utf8(crate::to_json(&entry).ok()?).ok()?);
            return Some((Ok(event), live));
        }
        let (path, scope, after) = (live.path.clone(), live.scope, live.after);
        let (token, member) = (live.token.clone(), live.member);
        let read = blocking(move || {
            // This thread's kept connection: a stream holds no descriptor of its own.
            let mut store = connection(&path, Scope::HOME)?;
            let valid = tables::session(&store, &token)?.is_some_and(|m| m.id == member);
            let entries = if valid {
                store.set_scope(scope);
                Some(read_after(&store, after))
            } else {
                None
            };
            keep(store);
            entries.transpose()
        })
        .await;
        match read {
            Ok(Some(entries)) => {
                if !entries.is_empty() {
                    live.pending.extend(entries);
                    continue;
                }
            }
            // The session ended (logged out, expired) or the campaign failed: the stream ends.
            Ok(None) | Err(_) => return None,
        }
        tokio::select! {
            woken = live.sub.rx.recv() => woken?,
            () = tokio::time::sleep(live.poll) => {}
        }
    }
}

fn read_after(store: &SqliteStore, after: i64) -> Result<Vec<JournalEntry>, AppError> {
    store
        .entries_after(after, PAGE)?
        .into_iter()
        .map(|e| {
            let record: Record =
                serde_json::from_value(e.body).map_err(|err| AppError::UnreadableEntry {
                    seq: e.seq,
                    reason: err.to_string(),
                })?;
            Ok(JournalEntry {
                seq: e.seq,
                at: e.at,
                record,
                secret: e.secret,
            }
            .for_display())
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
        let a = hub.subscribe(7, "s1", None, 4, CAPS).unwrap();
        let b = hub.subscribe(7, "s2", None, 4, CAPS).unwrap();
        let c = hub.subscribe(8, "s3", None, 4, CAPS).unwrap();
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

    #[test]
    fn streams_are_capped_per_session_per_peer_and_overall() {
        let hub = Hub::default();
        let ip: IpAddr = [10, 0, 0, 1].into();
        let other: IpAddr = [10, 0, 0, 2].into();
        let s1 = hub.subscribe(1, "s", Some(ip), 4, CAPS).unwrap();
        let _s2 = hub.subscribe(1, "s", Some(ip), 4, CAPS).unwrap();
        assert_eq!(
            hub.subscribe(1, "s", Some(other), 4, CAPS).err(),
            Some(Over::Session)
        );
        let _t1 = hub.subscribe(1, "t", Some(ip), 4, CAPS).unwrap();
        assert_eq!(
            hub.subscribe(1, "t", Some(ip), 4, CAPS).err(),
            Some(Over::Peer)
        );
        let _t2 = hub.subscribe(1, "t", Some(other), 4, CAPS).unwrap();
        let _u1 = hub.subscribe(2, "u", Some(other), 4, CAPS).unwrap();
        assert_eq!(
            hub.subscribe(2, "v", Some(other), 4, CAPS).err(),
            Some(Over::Total)
        );
        drop(s1);
        assert!(hub.subscribe(2, "v", Some(other), 4, CAPS).is_ok());
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
            .map(|n| hub.subscribe(1, &format!("s{n}"), None, 4, caps).unwrap())
            .collect();
        assert_eq!(
            hub.subscribe(1, "s9", None, 4, caps).err(),
            Some(Over::Table)
        );
        assert!(
            hub.subscribe(2, "t", None, 4, caps).is_ok(),
            "another table"
        );
        drop(mine);
        assert!(hub.subscribe(1, "s9", None, 4, caps).is_ok());
    }

    #[tokio::test]
    async fn ending_a_session_ends_its_streams_only() {
        let hub = Hub::default();
        let mut mine = hub.subscribe(1, "s", None, 4, CAPS).unwrap();
        let mut theirs = hub.subscribe(1, "t", None, 4, CAPS).unwrap();
        hub.end_session("s");
        assert!(mine.ended.load(Ordering::Relaxed));
        assert_eq!(mine.rx.recv().await, None, "its wake-ups are gone");
        assert!(!theirs.ended.load(Ordering::Relaxed));
        hub.notify(1);
        assert_eq!(theirs.rx.recv().await, Some(()));
        assert_eq!(hub.clients(1), 1);
    }
}
