//! Heavy work (rolls and odds of dice expressions), admitted by its estimated cost and shared
//! fairly by tables.
//!
//! The policy (docs/api.md): a request whose estimated work (the notation's estimate, through
//! `solum_app::expression_odds::estimated_work`) is at most [`CHEAP_WORK`] steps runs at once,
//! without a turn: a `1d6` never waits behind anyone. Dearer ones take one of the server's turns
//! ([`crate::Config::heavy_at_once`]); one table holds at most [`Heavy::per_table`] of them at
//! once, each session one; a freed turn goes to the waiting request of the table that holds
//! the fewest turns (first come first served between equals). One that finds no turn within
//! [`crate::Config::heavy_wait`] is answered 503.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::oneshot;

/// Estimated steps of work run without a turn (a few milliseconds at most).
pub const CHEAP_WORK: u128 = 100_000;

/// Why no turn was given.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// The session has a heavy request running already.
    Busy,
    /// No turn came free in time.
    Full,
}

struct Waiter {
    id: u64,
    table: i64,
    tx: oneshot::Sender<()>,
}

#[derive(Default)]
struct State {
    running: usize,
    by_table: HashMap<i64, usize>,
    members: HashSet<i64>,
    waiting: VecDeque<Waiter>,
    next: u64,
}

/// The server's turns for heavy work.
pub struct Heavy {
    capacity: usize,
    per_table: usize,
    state: Mutex<State>,
}

impl Heavy {
    /// `capacity` turns (none: nothing dear runs, as in tests); a table may hold half of
    /// them, rounded up.
    pub fn new(capacity: usize) -> Self {
        Self {
            capacity,
            per_table: capacity.div_ceil(2).max(1),
            state: Mutex::default(),
        }
    }

    /// Turns one table may hold at once.
    #[cfg(test)]
    fn per_table(&self) -> usize {
        self.per_table
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn may_run(&self, st: &State, table: i64) -> bool {
        st.running < self.capacity && st.by_table.get(&table).copied().unwrap_or(0) < self.per_table
    }

    fn grant(st: &mut State, table: i64) {
        st.running += 1;
        *st.by_table.entry(table).or_insert(0) += 1;
    }

    /// Gives freed turns to waiters: the table holding the fewest first.
    fn dispatch(&self, st: &mut State) {
        loop {
            let pick = st
                .waiting
                .iter()
                .enumerate()
                .filter(|(_, w)| self.may_run(st, w.table))
                .min_by_key(|(i, w)| (st.by_table.get(&w.table).copied().unwrap_or(0), *i))
                .map(|(i, _)| i);
            let Some(i) = pick else { return };
            let Some(w) = st.waiting.remove(i) else {
                return;
            };
            // A waiter that gave up (its request was dropped) takes nothing.
            if w.tx.send(()).is_ok() {
                Self::grant(st, w.table);
            }
        }
    }

    /// A turn for `member` of `table`, waiting at most `wait`.
    pub async fn turn(
        self: &Arc<Self>,
        table: i64,
        member: i64,
        wait: Duration,
    ) -> Result<Turn, Refused> {
        let rx = {
            let mut st = self.lock();
            if !st.members.insert(member) {
                return Err(Refused::Busy);
            }
            if st.waiting.is_empty() && self.may_run(&st, table) {
                Self::grant(&mut st, table);
                return Ok(Turn {
                    heavy: self.clone(),
                    table,
                    member,
                    waiting: None,
                });
            }
            let (tx, rx) = oneshot::channel();
            let id = st.next;
            st.next += 1;
            st.waiting.push_back(Waiter { id, table, tx });
            // Another table's waiter may be the one to run now.
            self.dispatch(&mut st);
            (rx, id)
        };
        let (rx, id) = rx;
        let mut turn = Turn {
            heavy: self.clone(),
            table,
            member,
            waiting: Some(id),
        };
        match tokio::time::timeout(wait, rx).await {
            Ok(Ok(())) => {
                turn.waiting = None;
                Ok(turn)
            }
            _ => {
                // Given at the last moment, or not at all: the lock says which.
                let st = self.lock();
                if st.waiting.iter().any(|w| w.id == id) {
                    drop(st);
                    Err(Refused::Full)
                } else {
                    drop(st);
                    turn.waiting = None;
                    Ok(turn)
                }
            }
        }
    }

    /// Turns held now, overall and by `table`.
    #[cfg(test)]
    fn held(&self, table: i64) -> (usize, usize) {
        let st = self.lock();
        (st.running, st.by_table.get(&table).copied().unwrap_or(0))
    }
}

/// A turn, given back when dropped (when the work ends, even if its request was abandoned);
/// a turn still waiting leaves the queue.
pub struct Turn {
    heavy: Arc<Heavy>,
    table: i64,
    member: i64,
    waiting: Option<u64>,
}

impl Drop for Turn {
    fn drop(&mut self) {
        let mut st = self.heavy.lock();
        st.members.remove(&self.member);
        if let Some(id) = self.waiting
            && let Some(i) = st.waiting.iter().position(|w| w.id == id)
        {
            st.waiting.remove(i);
            return;
        }
        st.running = st.running.saturating_sub(1);
        if let Some(n) = st.by_table.get_mut(&self.table) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                st.by_table.remove(&self.table);
            }
        }
        self.heavy.dispatch(&mut st);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: Duration = Duration::from_millis(30);

    #[tokio::test]
    async fn one_table_holds_at_most_its_share_and_a_freed_turn_goes_to_the_poorest() {
        let heavy = Arc::new(Heavy::new(4));
        assert_eq!(heavy.per_table(), 2);
        let a1 = heavy.turn(1, 11, W).await.unwrap();
        let _a2 = heavy.turn(1, 12, W).await.unwrap();
        // Table 1 holds its share: its third request waits, and gives up.
        assert_eq!(heavy.turn(1, 13, W).await.err(), Some(Refused::Full));
        // Table 2 still gets the free turns.
        let b1 = heavy.turn(2, 21, W).await.unwrap();
        let _b2 = heavy.turn(2, 22, W).await.unwrap();
        assert_eq!(heavy.held(1), (4, 2));
        // All four are held: table 3 waits, and gets the first turn freed, though table 1
        // asked too.
        let h = heavy.clone();
        let a3 = tokio::spawn(async move { h.turn(1, 13, Duration::from_secs(5)).await.is_ok() });
        tokio::time::sleep(W).await;
        let h = heavy.clone();
        let c1 = tokio::spawn(async move {
            let t = h.turn(3, 31, Duration::from_secs(5)).await;
            let got = t.is_ok();
            drop(t);
            got
        });
        tokio::time::sleep(W).await;
        drop(b1);
        assert!(c1.await.unwrap(), "table 3 holds none: it goes first");
        drop(a1);
        assert!(a3.await.unwrap());
        assert_eq!(heavy.held(3), (2, 0));
    }

    #[tokio::test]
    async fn a_session_has_one_turn_and_an_abandoned_wait_leaves_no_trace() {
        let heavy = Arc::new(Heavy::new(1));
        let t = heavy.turn(1, 11, W).await.unwrap();
        assert_eq!(heavy.turn(2, 11, W).await.err(), Some(Refused::Busy));
        let h = heavy.clone();
        let waiting = tokio::spawn(async move { h.turn(2, 21, Duration::from_secs(5)).await });
        tokio::time::sleep(W).await;
        waiting.abort();
        let _ = waiting.await;
        drop(t);
        assert_eq!(heavy.held(1), (0, 0));
        assert!(
            heavy.turn(2, 21, W).await.is_ok(),
            "the abandoned wait left its member"
        );
    }
}
