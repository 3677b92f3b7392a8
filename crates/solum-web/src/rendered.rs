//! Journal entries as the API writes them, rendered once per server.
//!
//! An entry never changes once appended (the journal is append-only; a reveal is an entry
//! of its own), and its JSON depends on nothing else: who made it is stamped into its body,
//! and a game master's and a player's view of it are the same bytes (a player's view never
//! lists a secret entry). So the JSON of entry `seq` of table `t` is written once, by the
//! live feed that hands it to the streams or by the first page read that lacks it, and kept
//! here: a journal page is then a read of the page's numbers (by index) and the bytes kept,
//! with only the entries lacking read and rendered ([`solum_app::Campaign::journal_page_known`]).
//!
//! At most [`MAX_BYTES`] of JSON are kept; the entries kept longest go first. The key is the
//! table and the entry's number in that table's journal, which the store never reuses
//! (a campaign file or database restored under a running server is not supported: stop every
//! server first, docs/hosting.md).

use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, MutexGuard, PoisonError};

use axum::body::Bytes;
use solum_app::{AppError, JournalEntry};

/// The most bytes of rendered JSON one server keeps, each entry counted with
/// [`ENTRY_OVERHEAD`].
pub const MAX_BYTES: usize = 32 * 1024 * 1024;

/// What keeping an entry costs beyond its JSON: its key in the map and the queue, and the
/// shared buffer's header (an estimate, on the high side).
pub const ENTRY_OVERHEAD: usize = 96;

#[derive(Default)]
struct Inner {
    kept: HashMap<(i64, i64), Bytes>,
    /// Keys in the order they were kept: the front goes first.
    order: VecDeque<(i64, i64)>,
    bytes: usize,
    hits: u64,
}

/// Rendered entries by table and number.
pub(crate) struct Rendered {
    inner: Mutex<Inner>,
    max_bytes: usize,
}

impl Default for Rendered {
    fn default() -> Self {
        Self::with_limit(MAX_BYTES)
    }
}

impl Rendered {
    /// A store of at most `max_bytes` of JSON.
    pub(crate) fn with_limit(max_bytes: usize) -> Self {
        Self {
            inner: Mutex::default(),
            max_bytes,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The JSON of entry `seq` of `table`, if kept.
    pub(crate) fn get(&self, table: i64, seq: i64) -> Option<Bytes> {
        let mut inner = self.lock();
        let found = inner.kept.get(&(table, seq)).cloned();
        if found.is_some() {
            inner.hits = inner.hits.saturating_add(1);
        }
        found
    }

    /// Keeps `json` as entry `seq` of `table` (already kept: nothing changes), letting the
    /// oldest kept go while over the limit.
    pub(crate) fn keep(&self, table: i64, seq: i64, json: Bytes) {
        let cost = json.len().saturating_add(ENTRY_OVERHEAD);
        if cost > self.max_bytes {
            return;
        }
        let mut inner = self.lock();
        if inner.kept.contains_key(&(table, seq)) {
            return;
        }
        inner.bytes = inner.bytes.saturating_add(cost);
        inner.kept.insert((table, seq), json);
        inner.order.push_back((table, seq));
        while inner.bytes > self.max_bytes {
            let Some(old) = inner.order.pop_front() else {
                break;
            };
            if let Some(gone) = inner.kept.remove(&old) {
                inner.bytes = inner
                    .bytes
                    .saturating_sub(gone.len().saturating_add(ENTRY_OVERHEAD));
            }
        }
    }

    /// How many times an entry was found here by a page or a feed (not read and rendered
    /// again).
    pub(crate) fn hits(&self) -> u64 {
        self.lock().hits
    }

    /// How many entries are kept, and their bytes.
    #[cfg(test)]
    fn size(&self) -> (usize, usize) {
        let inner = self.lock();
        (inner.kept.len(), inner.bytes)
    }
}

/// Entry `entry` as every answer and every live stream writes it: shown
/// ([`JournalEntry::for_display`]) and written by [`crate::to_json`].
pub(crate) fn render(entry: JournalEntry) -> Result<Bytes, AppError> {
    let seq = entry.seq;
    // A boxed slice: the buffer kept is the JSON's length, not the vector's capacity.
    crate::to_json(&entry.for_display())
        .map(|json| Bytes::from(json.into_boxed_slice()))
        .map_err(|e| AppError::UnreadableEntry {
            seq,
            reason: format!("it cannot be written as JSON: {e}"),
        })
}

/// A journal page's JSON (`{"entries":[…],"next":…}`) from its entries' rendered JSON: the
/// bytes [`crate::to_json`] writes for the same page.
pub(crate) fn page_json(entries: &[Bytes], next: Option<i64>) -> Vec<u8> {
    let len: usize = entries.iter().map(|e| e.len() + 1).sum();
    let mut out = Vec::with_capacity(len + 40);
    out.extend_from_slice(b"{\"entries\":[");
    for (i, e) in entries.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(e);
    }
    out.extend_from_slice(b"],\"next\":");
    match next {
        Some(n) => out.extend_from_slice(n.to_string().as_bytes()),
        None => out.extend_from_slice(b"null"),
    }
    out.push(b'}');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_oldest_kept_go_first_past_the_limit() {
        // Room for two entries of 4 bytes: each costs 4 + ENTRY_OVERHEAD.
        let two = 2 * (4 + ENTRY_OVERHEAD);
        let r = Rendered::with_limit(two + 2);
        r.keep(1, 1, Bytes::from_static(b"aaaa"));
        r.keep(1, 2, Bytes::from_static(b"bbbb"));
        assert_eq!(r.size(), (2, two));
        // Kept again: nothing changes (an entry's JSON never does).
        r.keep(1, 1, Bytes::from_static(b"zzzz"));
        assert_eq!(r.get(1, 1).as_deref(), Some(&b"aaaa"[..]));
        r.keep(2, 1, Bytes::from_static(b"cccc"));
        assert_eq!(
            r.size(),
            (2, two),
            "a third over the limit: the first kept went"
        );
        assert_eq!(r.get(1, 1), None);
        assert_eq!(r.get(1, 2).as_deref(), Some(&b"bbbb"[..]));
        assert_eq!(r.get(2, 1).as_deref(), Some(&b"cccc"[..]));
        // Another table's entry of the same number is another entry.
        assert_eq!(r.get(3, 2), None);
        // Larger than the whole limit: not kept, and nothing else goes.
        r.keep(1, 9, Bytes::from(vec![b'x'; two]));
        assert_eq!(r.get(1, 9), None);
        assert_eq!(r.size(), (2, two));
        assert_eq!(r.hits(), 3);
    }
}
