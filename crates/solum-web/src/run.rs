//! Running use cases off the async runtime: on a blocking thread over the member's view of
//! the campaign, or in the writer's turn for a change.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use solum_app::tables::{self};
use solum_app::{AppError, By, Campaign};
use solum_store::{Member, Scope, Store, StoreError, StoreHandle};
use solum_store_open::Database;

use crate::{ApiError, AppState, write_budget};

pub(crate) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, AppError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|_| ApiError::internal())?
        .map_err(ApiError::from)
}

/// Runs `work`, which writes to the campaign on a connection of its own, on this server's
/// one writer thread once the earlier writes are done. SQLite lets one writer in at a time
/// and makes the others sleep and retry (its busy handler), which is not first come first
/// served: under a crowd of writers a request could wait out the whole busy timeout behind
/// later ones and fail as "busy". Queued in order on one thread, this server's writes meet
/// the busy handler only over another process's writes (the command line's). Once queued,
/// the work runs even if the request is abandoned.
pub(crate) async fn write<T: Send + 'static>(
    state: &AppState,
    work: impl FnOnce() -> Result<T, AppError> + Send + 'static,
) -> Result<T, ApiError> {
    state.inner.writer.alone(work).await
}

/// Runs the read `work` on the member's campaign view, on a blocking thread (once more on a
/// new connection if the kept one was ended under it: [`read_campaign`]).
pub(crate) async fn with_campaign<T: Send + 'static>(
    state: &AppState,
    scope: Scope,
    work: impl FnMut(&mut Campaign<Box<dyn Store>>) -> Result<T, AppError> + Send + 'static,
) -> Result<T, ApiError> {
    let db = state.database();
    let by = state.inner.names.by(scope);
    blocking(move || read_campaign(&db, scope, by, work)).await
}

/// The same for a change, in its turn (see [`write`]): journaled writes that queue together
/// run in one group and share one commit, each all or nothing on its own, and each is
/// answered only once its group is committed (`writer.rs`). The table's live clients hear
/// of it.
pub(crate) async fn change<T: Send + 'static>(
    state: &AppState,
    scope: Scope,
    work: impl FnOnce(&mut Campaign<Box<dyn Store>>) -> Result<T, AppError> + Send + 'static,
) -> Result<T, ApiError> {
    write_budget(state, scope)?;
    let by = state.inner.names.by(scope);
    let out = state.inner.writer.grouped(scope, by, work).await;
    if out.is_ok() {
        state.hub().notify(scope.table);
    }
    out
}

/// A connection kept between requests: to which campaign, and since when.
struct Kept {
    db: Database,
    store: Box<dyn Store>,
    since: Instant,
}

thread_local! {
    /// This blocking thread's connection to the campaign, kept between requests: opening one
    /// (checking its settings and schema) costs some twenty short queries.
    static CONNECTION: RefCell<Option<Kept>> = const { RefCell::new(None) };
}

/// A connection kept idle this long is asked whether it still works before it is used
/// ([`StoreHandle::is_alive`]: one round trip on PostgreSQL). A database restarted (or a
/// network cut) while a connection sat idle ends it without a word the client reads until
/// its next use, which would fail a request that a new connection serves. A restart takes
/// longer than this; under load a kept connection is reused sooner, so asks nothing.
pub(crate) const CHECK_IDLE_AFTER: Duration = Duration::from_millis(100);

/// The campaign `db` seen through `scope`: this thread's kept connection to it, given the
/// request's scope (never the last one's), or a new one.
pub(crate) fn connection(db: &Database, scope: Scope) -> Result<Box<dyn Store>, AppError> {
    Ok(take_connection(db, scope)?.0)
}

/// [`connection`], and whether it is a kept one (`true`) or new.
fn take_connection(db: &Database, scope: Scope) -> Result<(Box<dyn Store>, bool), AppError> {
    match CONNECTION.with(|c| c.borrow_mut().take()) {
        Some(Kept {
            db: kept,
            mut store,
            since,
        }) if kept == *db && (since.elapsed() < CHECK_IDLE_AFTER || store.is_alive()) => {
            store.set_scope(scope);
            Ok((store, true))
        }
        _ => Ok((solum_store_open::open(db, scope)?, false)),
    }
}

/// Runs the read `work` on the campaign `db` seen through `scope` ([`connection`]), and
/// keeps the connection. A kept connection used again within [`CHECK_IDLE_AFTER`] is not
/// asked whether it works: if the database ended it meanwhile (a restart), the read fails
/// as unreachable, and runs once more on a new connection. Only for reads: a write cut off
/// may have been kept (the writer's own rules, `writer.rs`).
pub(crate) fn read<T>(
    db: &Database,
    scope: Scope,
    mut work: impl FnMut(&mut Box<dyn Store>) -> Result<T, AppError>,
) -> Result<T, AppError> {
    let (mut store, kept) = take_connection(db, scope)?;
    let out = match work(&mut store) {
        Err(AppError::Store(StoreError::Unreachable { .. })) if kept => {
            drop(store);
            store = solum_store_open::open(db, scope)?;
            work(&mut store)
        }
        out => out,
    };
    keep(db, store);
    out
}

/// Keeps a connection for this thread's next request, if no transaction was left open on it
/// (a failed one is rolled back when dropped; one that could not be is closed here).
pub(crate) fn keep(db: &Database, store: Box<dyn Store>) {
    // Outside a transaction (every store call's transaction ends with the call) each
    // statement sees every commit made before it started: on PostgreSQL (READ COMMITTED) and
    // on SQLite (WAL, no read transaction left open between calls), so a kept connection
    // cannot read an older snapshot (`writer.rs`:
    // `a_kept_connection_reads_every_write_acknowledged_before`). Opening one costs a TCP
    // connection and authentication, or a file's open and its checks, and a few queries.
    if store.is_idle() {
        let kept = Kept {
            db: db.clone(),
            store,
            since: Instant::now(),
        };
        CONNECTION.with(|c| *c.borrow_mut() = Some(kept));
    }
}

/// Runs `work` on the campaign `db` seen through `scope`, acting as `by` (the scope's
/// member, when this server knows them; else looked up).
pub(crate) fn in_campaign<T>(
    db: &Database,
    scope: Scope,
    by: Option<By>,
    work: impl FnOnce(&mut Campaign<Box<dyn Store>>) -> Result<T, AppError>,
) -> Result<T, AppError> {
    let store = connection(db, scope)?;
    let (store, out) = as_campaign(store, scope, by, work);
    keep(db, store);
    out
}

/// [`in_campaign`] for a read: run again once on a new connection if the kept one was ended
/// under it ([`read`]).
pub(crate) fn read_campaign<T>(
    db: &Database,
    scope: Scope,
    by: Option<By>,
    mut work: impl FnMut(&mut Campaign<Box<dyn Store>>) -> Result<T, AppError>,
) -> Result<T, AppError> {
    let (store, kept) = take_connection(db, scope)?;
    let (store, out) = match as_campaign(store, scope, by.clone(), &mut work) {
        (store, Err(AppError::Store(StoreError::Unreachable { .. }))) if kept => {
            drop(store);
            as_campaign(solum_store_open::open(db, scope)?, scope, by, &mut work)
        }
        done => done,
    };
    keep(db, store);
    out
}

/// `work` over `store` as a campaign acting as `by`; the store back, and what `work` gave.
fn as_campaign<T>(
    store: Box<dyn Store>,
    scope: Scope,
    by: Option<By>,
    work: impl FnOnce(&mut Campaign<Box<dyn Store>>) -> Result<T, AppError>,
) -> (Box<dyn Store>, Result<T, AppError>) {
    // Every entry the request appends says who made it (the feed's "who").
    let by = match by {
        Some(by) => by,
        None => match tables::by_of(&store, scope) {
            Ok(by) => by,
            Err(e) => return (store, Err(e)),
        },
    };
    let mut campaign = Campaign::new(store).acting_as(by);
    let out = work(&mut campaign);
    (campaign.into_store(), out)
}

/// The scope of a roll: secret ones only for the game master ([`tables::roll_scope`]).
pub(crate) fn roll_scope(member: &Member, secret: bool) -> Result<Scope, ApiError> {
    Ok(tables::roll_scope(member, secret)?)
}

/// Members this server has seen sign in, by id: who a request acts as (an entry's `by`)
/// without a query of its own. A member's id, name and role never change once joined (no
/// route renames, demotes or removes one), so what is kept cannot go stale; a member not
/// kept is looked up as before. Bounded: past [`Names::MAX`] the map starts afresh.
#[derive(Default)]
pub(crate) struct Names {
    known: Mutex<HashMap<i64, By>>,
}

impl Names {
    /// Members kept at most.
    pub(crate) const MAX: usize = 100_000;

    /// Keeps `member` (found by their session).
    pub(crate) fn remember(&self, member: &Member) {
        let mut known = self.known.lock().unwrap_or_else(PoisonError::into_inner);
        if known.contains_key(&member.id) {
            return;
        }
        if known.len() >= Self::MAX {
            known.clear();
        }
        known.insert(member.id, By::member(member.id, &member.name, member.gm));
    }

    /// Who `scope` acts as, if this server knows: the command line for a scope without a
    /// member.
    pub(crate) fn by(&self, scope: Scope) -> Option<By> {
        match scope.member {
            None => Some(By::command_line()),
            Some(id) => self
                .known
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get(&id)
                .cloned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use solum_store::CampaignStore;

    #[test]
    fn a_kept_connection_serves_the_next_request_in_that_requests_scope_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = Database::Sqlite(dir.path().join("campaign.solum"));
        let gm = Scope::member(1, 1, true).secret();
        let player = Scope::member(2, 5, false);
        let mut store = connection(&path, gm).unwrap();
        assert_eq!(store.scope(), gm);
        // A secret entry written through the game master's scope…
        store
            .append(&[solum_store::NewEntry {
                at: "2026-01-01T00:00:00Z".parse().expect("a time"),
                kind: "note".into(),
                schema: 1,
                body: serde_json::json!({"kind": "note", "text": "the traitor is Ida"}),
            }])
            .unwrap();
        keep(&path, store);
        // …and the same connection, kept, answers the next request as that request's member.
        let store = connection(&path, player).unwrap();
        assert_eq!(store.scope(), player);
        assert!(store.entries_after(0, 10).unwrap().is_empty());
        assert!(
            CONNECTION.with(|c| c.borrow().is_none()),
            "taken, not shared"
        );
        keep(&path, store);
        let store = connection(&path, Scope::member(1, 2, false)).unwrap();
        assert!(
            store.entries_after(0, 10).unwrap().is_empty(),
            "a player of table 1 does not read its secret"
        );
        keep(&path, store);
        let store = connection(&path, Scope::member(1, 1, true)).unwrap();
        assert_eq!(store.entries_after(0, 10).unwrap().len(), 1);
    }

    fn member(id: i64, name: &str, gm: bool) -> Member {
        Member {
            id,
            table: 1,
            table_name: "Harbour".into(),
            name: name.into(),
            gm,
        }
    }

    #[test]
    fn a_member_seen_is_known_by_id_and_the_command_line_always() {
        let names = Names::default();
        let player = Scope::member(1, 7, false);
        assert_eq!(names.by(player), None, "never seen: looked up");
        names.remember(&member(7, "Pia", false));
        names.remember(&member(3, "Gia", true));
        assert_eq!(names.by(player), Some(By::member(7, "Pia", false)));
        // The member's role, not the scope's (a player's scope widened for a shared row).
        assert_eq!(
            names.by(Scope::member(1, 7, true)),
            Some(By::member(7, "Pia", false))
        );
        assert_eq!(
            names.by(Scope::member(1, 3, true)),
            Some(By::member(3, "Gia", true))
        );
        assert_eq!(names.by(Scope::HOME), Some(By::command_line()));
    }

    #[test]
    fn the_names_kept_are_bounded() {
        let names = Names::default();
        for id in 0..=i64::try_from(Names::MAX).unwrap() {
            names.remember(&member(id, "x", false));
        }
        let kept = names.known.lock().unwrap().len();
        assert!((1..=Names::MAX).contains(&kept), "{kept}");
        assert!(
            names.by(Scope::member(1, 0, false)).is_none(),
            "the old ones went"
        );
    }
}
