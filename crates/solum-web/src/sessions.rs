//! The server's cache of sessions: a request's member found without a query of its own.
//!
//! Every request names its session by token; looking it up costs a query (a join of
//! sessions, members and tables). The cache keeps what a lookup found, keyed by the token's
//! hash, for at most [`TTL`] and [`MAX`] sessions, and only while the server's change feed
//! runs ([`SessionCache::set_live`]): that feed is what tells this server of a session ended
//! elsewhere.
//!
//! - A logout through this server forgets its session once the session's row is deleted.
//! - A logout through another server: on PostgreSQL the deletion sends a notification
//!   (`solum_session`, the token's hash) that the server's one listening connection receives,
//!   and the session is forgotten at once; on SQLite the server's watcher sees the count of
//!   ended sessions move (`TableStore::sessions_ended`, counted in the logout's transaction)
//!   and forgets every session.
//! - When the feed is not running (no live stream on this server) or its connection failed,
//!   nothing is cached: every request looks its session up, as without a cache.
//!
//! A lookup that raced a forgetting is not kept: each forgetting advances a generation, and a
//! lookup is kept only if no forgetting happened since it started.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use solum_store::Member;

/// How long a session found stays trusted without a look at the database. A session also
/// ends by time alone (unused for 30 days), which this bound leaves unaffected.
pub const TTL: Duration = Duration::from_secs(10);

/// Sessions kept at most.
pub const MAX: usize = 10_000;

/// What a lookup must quote to be kept: the generation when it started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Generation(u64);

#[derive(Default)]
struct Inner {
    found: HashMap<String, (Member, Instant)>,
    generation: u64,
    live: bool,
    hits: u64,
}

impl Inner {
    fn forget_all(&mut self) {
        self.found.clear();
        self.generation = self.generation.wrapping_add(1);
    }
}

/// Sessions found recently, by token hash.
#[derive(Default)]
pub(crate) struct SessionCache {
    inner: Mutex<Inner>,
}

impl SessionCache {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The member of the session whose token hashes to `hash`, if it was found less than
    /// [`TTL`] ago and nothing since said it may have ended; else the generation a lookup
    /// quotes to [`SessionCache::keep`] what it finds.
    pub(crate) fn get(&self, hash: &str) -> Result<Member, Generation> {
        let mut inner = self.lock();
        if inner.live
            && let Some((member, at)) = inner.found.get(hash)
            && at.elapsed() < TTL
        {
            let member = member.clone();
            inner.hits = inner.hits.saturating_add(1);
            return Ok(member);
        }
        Err(Generation(inner.generation))
    }

    /// Keeps what a lookup that started at `generation` found, unless a session was
    /// forgotten since (the lookup may have read it before it ended) or the feed is not
    /// running.
    pub(crate) fn keep(&self, hash: String, member: Member, generation: Generation) {
        let mut inner = self.lock();
        if !inner.live || inner.generation != generation.0 {
            return;
        }
        if inner.found.len() >= MAX {
            inner.found.retain(|_, (_, at)| at.elapsed() < TTL);
            if inner.found.len() >= MAX {
                return;
            }
        }
        inner.found.insert(hash, (member, Instant::now()));
    }

    /// The session whose token hashes to `hash` ended: never trusted again.
    pub(crate) fn forget(&self, hash: &str) {
        let mut inner = self.lock();
        inner.found.remove(hash);
        inner.generation = inner.generation.wrapping_add(1);
    }

    /// Any session may have ended (another process wrote): look each up again.
    pub(crate) fn forget_all(&self) {
        self.lock().forget_all();
    }

    /// The change feed runs and is connected (`true`), or not: only while it is are
    /// sessions kept. Either way what was kept is forgotten (nothing was told meanwhile).
    pub(crate) fn set_live(&self, live: bool) {
        let mut inner = self.lock();
        inner.forget_all();
        inner.live = live;
    }

    /// Requests answered from the cache so far.
    pub(crate) fn hits(&self) -> u64 {
        self.lock().hits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(id: i64) -> Member {
        Member {
            id,
            table: 1,
            table_name: "t".into(),
            name: format!("m{id}"),
            gm: false,
        }
    }

    #[test]
    fn nothing_is_kept_while_the_feed_does_not_run() {
        let cache = SessionCache::default();
        let g = cache.get("a").unwrap_err();
        cache.keep("a".into(), member(1), g);
        assert!(cache.get("a").is_err());
        cache.set_live(true);
        let g = cache.get("a").unwrap_err();
        cache.keep("a".into(), member(1), g);
        assert_eq!(cache.get("a").unwrap().id, 1);
        cache.set_live(false);
        assert!(cache.get("a").is_err());
    }

    #[test]
    fn a_lookup_that_raced_a_logout_is_not_kept() {
        let cache = SessionCache::default();
        cache.set_live(true);
        // The lookup starts, the session ends (and is forgotten), the lookup's answer comes.
        let g = cache.get("a").unwrap_err();
        cache.forget("a");
        cache.keep("a".into(), member(1), g);
        assert!(cache.get("a").is_err());
        // Another session's forgetting counts too: the generation is the cache's.
        let g = cache.get("b").unwrap_err();
        cache.forget_all();
        cache.keep("b".into(), member(2), g);
        assert!(cache.get("b").is_err());
    }

    #[test]
    fn a_forgotten_session_is_looked_up_again() {
        let cache = SessionCache::default();
        cache.set_live(true);
        for (hash, id) in [("a", 1), ("b", 2)] {
            let g = cache.get(hash).unwrap_err();
            cache.keep(hash.into(), member(id), g);
        }
        cache.forget("a");
        assert!(cache.get("a").is_err());
        assert_eq!(cache.get("b").unwrap().id, 2);
        assert_eq!(cache.hits(), 1);
    }

    #[test]
    fn the_cache_holds_at_most_max_sessions() {
        let cache = SessionCache::default();
        cache.set_live(true);
        for i in 0..MAX + 5 {
            let hash = format!("{i}");
            let g = cache.get(&hash).unwrap_err();
            cache.keep(hash, member(1), g);
        }
        assert_eq!(cache.lock().found.len(), MAX);
        assert!(cache.get(&format!("{}", MAX + 1)).is_err());
    }
}
