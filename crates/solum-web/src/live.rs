//! Live updates: server-sent events per table, in journal order.
//!
//! A stream does not carry what the hub sends: the hub only wakes it ("the table has new
//! entries"), and the stream reads the journal itself, through its member's scope, from the
//! last sequence number it sent. So entries arrive in journal order, a reconnection with
//! `Last-Event-ID` catches up on what was missed, and a player's stream can never read a
//! secret entry, since its store cannot. Each client has a bounded buffer of wake-ups: a
//! client that leaves it full (it does not read) is dropped, and the others go on.

use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use solum_app::{AppError, JournalEntry, Record};
use solum_store::{CampaignStore, Scope, SqliteStore};
use tokio::sync::mpsc;

use crate::{ApiError, AppState, Auth, blocking};

/// The live clients of every table.
#[derive(Default)]
pub struct Hub {
    tables: Mutex<HashMap<i64, Vec<mpsc::Sender<()>>>>,
}

impl Hub {
    fn subscribe(&self, table: i64, buffer: usize) -> mpsc::Receiver<()> {
        let (tx, rx) = mpsc::channel(buffer.max(1));
        if let Ok(mut tables) = self.tables.lock() {
            tables.entry(table).or_default().push(tx);
        }
        rx
    }

    /// Wakes every live client of `table`; one whose buffer is full is dropped.
    pub fn notify(&self, table: i64) {
        if let Ok(mut tables) = self.tables.lock()
            && let Some(clients) = tables.get_mut(&table)
        {
            clients.retain(|tx| tx.try_send(()).is_ok());
        }
    }

    /// How many live clients `table` has.
    pub fn clients(&self, table: i64) -> usize {
        self.tables
            .lock()
            .map(|t| {
                t.get(&table)
                    .map_or(0, |c| c.iter().filter(|tx| !tx.is_closed()).count())
            })
            .unwrap_or(0)
    }

    /// Ends every stream (the server is stopping).
    pub fn close_all(&self) {
        if let Ok(mut tables) = self.tables.lock() {
            tables.clear();
        }
    }
}

/// The most entries read from the store at once by a stream.
const PAGE: usize = 200;

struct Live {
    after: i64,
    /// The stream's own connection, opened on its first read and kept.
    store: Option<SqliteStore>,
    path: PathBuf,
    scope: Scope,
    rx: mpsc::Receiver<()>,
    pending: VecDeque<JournalEntry>,
    poll: Duration,
}

/// `GET /api/events`: the table's journal entries after `Last-Event-ID` (or `?after=`),
/// then each new one as it is written.
pub(crate) async fn events(
    State(state): State<AppState>,
    auth: Auth,
    headers: HeaderMap,
    axum::extract::Query(query): axum::extract::Query<AfterQuery>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let after = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<i64>().ok())
        .or(query.after)
        .unwrap_or(0);
    let scope = solum_app::tables::scope_of(&auth.member);
    let config = &state.inner.config;
    let live = Live {
        after,
        store: None,
        path: config.campaign.clone(),
        scope,
        rx: state.hub().subscribe(scope.table, config.live_buffer),
        pending: VecDeque::new(),
        poll: config.live_poll,
    };
    let stream = futures_util::stream::unfold(live, next_event);
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

#[derive(serde::Deserialize)]
pub(crate) struct AfterQuery {
    after: Option<i64>,
}

async fn next_event(mut live: Live) -> Option<(Result<Event, Infallible>, Live)> {
    loop {
        if let Some(entry) = live.pending.pop_front() {
            live.after = entry.seq;
            let event = Event::default()
                .id(entry.seq.to_string())
                .event("entry")
                .data(String::from_utf8(crate::to_json(&entry).ok()?).ok()?);
            return Some((Ok(event), live));
        }
        let (path, scope, after) = (live.path.clone(), live.scope, live.after);
        let store = live.store.take();
        match blocking(move || {
            let store = match store {
                Some(s) => s,
                None => SqliteStore::open_scoped(&path, scope)?,
            };
            let entries = read_after(&store, after)?;
            Ok((store, entries))
        })
        .await
        {
            Ok((store, entries)) => {
                live.store = Some(store);
                if !entries.is_empty() {
                    live.pending.extend(entries);
                    continue;
                }
            }
            Err(_) => return None,
        }
        tokio::select! {
            woken = live.rx.recv() => woken?,
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
