//! Groups of writes on PostgreSQL: several appends, of one table or of several, in one
//! transaction and one commit (what a server's writer does with the writes that queue), each
//! write all or nothing on its own; the tables' numbers gap-free and their notifications
//! sent on the commit; a deadlock between two servers' groups splits one of them, and no
//! write is lost or made twice.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use std::sync::{Arc, Barrier};
use std::time::Duration;

use postgres::{Client, NoTls};
use solum_store::{CampaignStore, NewEntry, Scope, StoreError, StoreHandle};
use solum_store_postgres::{ChangeListener, PostgresStore};
use solum_testpg::TestPostgres;

fn database() -> String {
    let server = TestPostgres::shared().unwrap_or_else(|e| panic!("{e}"));
    server.database("groups").unwrap_or_else(|e| panic!("{e}"))
}

fn entry(text: &str) -> NewEntry {
    NewEntry {
        at: "2026-12-02T05:00:00Z".parse().expect("a time"),
        kind: "note".into(),
        schema: 1,
        body: serde_json::json!({ "text": text }),
    }
}

fn at(table: i64) -> Scope {
    Scope {
        table,
        member: None,
        gm: true,
        secret_writes: false,
    }
}

/// Every (table, number, text) of the journal, read by a connection of its own.
fn journal(url: &str) -> Vec<(i64, i64, String)> {
    let mut c = Client::connect(url, NoTls).unwrap();
    c.query(
        "SELECT table_id, table_seq, body->>'text' FROM journal ORDER BY table_id, table_seq",
        &[],
    )
    .unwrap()
    .iter()
    .map(|r| (r.get(0), r.get(1), r.get(2)))
    .collect()
}

#[test]
fn a_group_commits_appends_of_several_tables_at_once_each_numbered_and_told_after_the_commit() {
    let url = database();
    let mut s = PostgresStore::open(&url).unwrap();
    let mut listener = ChangeListener::connect(&url).unwrap();
    let wait = Duration::from_millis(300);

    s.begin_group().unwrap();
    assert!(!s.is_idle(), "a group is a transaction left open");
    for (table, text) in [(1, "a1"), (2, "b1"), (1, "a2"), (3, "c1"), (2, "b2")] {
        s.set_scope(at(table));
        let stored = s.append(&[entry(text)]).unwrap();
        assert_eq!(stored.len(), 1);
    }
    // Nothing of the group is seen by another connection, nor told, before its commit.
    assert_eq!(journal(&url), vec![]);
    assert_eq!(listener.next_timeout(wait).unwrap(), None);
    s.end_group().unwrap();
    assert!(s.is_idle());

    // Each table numbered 1, 2, … in the order of its writes.
    let want: Vec<(i64, i64, String)> = [
        (1, 1, "a1"),
        (1, 2, "a2"),
        (2, 1, "b1"),
        (2, 2, "b2"),
        (3, 1, "c1"),
    ]
    .into_iter()
    .map(|(t, n, x)| (t, n, x.to_string()))
    .collect();
    assert_eq!(journal(&url), want);
    // Each table told once after the commit (PostgreSQL folds a transaction's equal
    // notifications into one).
    let mut told = Vec::new();
    while let Some(t) = listener.next_timeout(wait).unwrap() {
        told.push(t);
    }
    told.sort_unstable();
    assert_eq!(told, vec![1, 2, 3]);
}

#[test]
fn a_failed_write_in_a_group_is_undone_alone_and_the_group_goes_on() {
    let url = database();
    let mut s = PostgresStore::open_scoped(&url, at(1)).unwrap();
    s.begin_group().unwrap();
    s.append(&[entry("kept 1")]).unwrap();
    // A write that appends, then fails: its append is undone, the group's earlier one stays.
    let e = s
        .write(&mut |tx| {
            tx.append(&[entry("undone")])?;
            Err(StoreError::Forbidden("no".into()))
        })
        .unwrap_err();
    assert!(matches!(e, StoreError::Forbidden(_)), "{e}");
    // A statement that fails inside a write (a journal row may not be changed) is undone with
    // its write, and the group goes on too.
    let e = s
        .write(&mut |tx| {
            tx.append(&[entry("undone too")])?;
            tx.reveal(1).map(|_| ())
        })
        .unwrap_err();
    assert!(matches!(e, StoreError::NotSecret { .. }), "{e}");
    s.append(&[entry("kept 2")]).unwrap();
    assert!(!s.is_idle(), "the group is still open");
    s.end_group().unwrap();
    assert_eq!(
        journal(&url),
        vec![(1, 1, "kept 1".to_string()), (1, 2, "kept 2".to_string())]
    );
}

#[test]
fn a_group_whose_connection_is_cut_keeps_nothing_and_says_so() {
    let url = database();
    let mut s = PostgresStore::open_scoped(&url, at(1)).unwrap();
    s.begin_group().unwrap();
    s.append(&[entry("lost")]).unwrap();
    end_every_other_connection(&url);
    // The next write fails, and the group's end says the group was lost (the writer then
    // answers its writes "busy, nothing was changed").
    assert!(s.append(&[entry("after")]).is_err());
    assert!(s.end_group().is_err(), "a lost group ended as if kept");
    assert_eq!(journal(&url), vec![]);
}

/// Ends every connection to the database at `url` but the one asking (as a restart does),
/// and gives the ended ones a moment to be gone.
fn end_every_other_connection(url: &str) {
    let mut admin = Client::connect(url, NoTls).unwrap();
    admin
        .batch_execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
             WHERE datname = current_database() AND pid <> pg_backend_pid()",
        )
        .unwrap();
    std::thread::sleep(Duration::from_millis(100));
}

/// A connection the database ended while it sat idle still looks open to the client (nothing
/// read its last message); asking it with `is_alive` tells, so a keeper replaces it.
#[test]
fn an_idle_connection_the_database_ended_is_not_alive() {
    let url = database();
    let s = PostgresStore::open_scoped(&url, at(1)).unwrap();
    let other = PostgresStore::open_scoped(&url, at(1)).unwrap();
    assert!(s.is_alive() && other.is_alive());
    end_every_other_connection(&url);
    assert!(!s.is_alive(), "an ended connection answered as alive");
    assert!(s.is_closed() || s.entries_after(0, 1).is_err());
    // A new one works.
    assert!(PostgresStore::open_scoped(&url, at(1)).unwrap().is_alive());
    drop(other);
}

#[test]
fn two_groups_that_deadlock_keep_every_write_once() {
    let url = database();
    let mut one = PostgresStore::open(&url).unwrap();
    let mut two = PostgresStore::open(&url).unwrap();
    // Each group writes table 1 and table 2, in opposite orders, each holding its first
    // table's lock while it waits for the other's: PostgreSQL ends the circle by failing
    // one group's write (40P01). That group commits what it wrote, frees its lock and
    // writes again.
    let both = Arc::new(Barrier::new(2));
    let run =
        |store: &mut PostgresStore, order: [i64; 2], name: &'static str, both: Arc<Barrier>| {
            store.begin_group().unwrap();
            store.set_scope(at(order[0]));
            store.append(&[entry(&format!("{name} first"))]).unwrap();
            both.wait();
            store.set_scope(at(order[1]));
            store.append(&[entry(&format!("{name} second"))]).unwrap();
            store.end_group().unwrap();
            store.group_splits()
        };
    let (b1, b2) = (both.clone(), both);
    let (splits_one, splits_two) = std::thread::scope(|scope| {
        let a = scope.spawn(|| run(&mut one, [1, 2], "one", b1));
        let b = scope.spawn(|| run(&mut two, [2, 1], "two", b2));
        (a.join().unwrap(), b.join().unwrap())
    });
    assert_eq!(
        splits_one + splits_two,
        1,
        "one group, and only one, was split to end the deadlock"
    );
    // Every write once; each table numbered 1, 2 without a gap.
    let got = journal(&url);
    let mut texts: Vec<&str> = got.iter().map(|(_, _, t)| t.as_str()).collect();
    texts.sort_unstable();
    assert_eq!(
        texts,
        ["one first", "one second", "two first", "two second"]
    );
    let numbers: Vec<(i64, i64)> = got.iter().map(|(t, n, _)| (*t, *n)).collect();
    assert_eq!(numbers, [(1, 1), (1, 2), (2, 1), (2, 2)]);
}

#[test]
fn an_append_of_several_entries_in_a_group_numbers_each_and_moves_the_head_past_them() {
    let url = database();
    let mut s = PostgresStore::open_scoped(&url, at(7)).unwrap();
    let mut listener = ChangeListener::connect(&url).unwrap();
    s.begin_group().unwrap();
    let stored = s
        .append(&[entry("one"), entry("two"), entry("three")])
        .unwrap();
    assert_eq!(
        stored.iter().map(|e| e.seq).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    // The head moved with the last entry: the next write follows it, in the group and after.
    s.append(&[entry("four")]).unwrap();
    s.end_group().unwrap();
    s.append(&[entry("five")]).unwrap();
    let numbers: Vec<(i64, String)> = journal(&url)
        .into_iter()
        .map(|(_, n, text)| (n, text))
        .collect();
    let want: Vec<(i64, String)> = ["one", "two", "three", "four", "five"]
        .iter()
        .zip(1..)
        .map(|(t, n)| (n, (*t).to_string()))
        .collect();
    assert_eq!(numbers, want);
    assert_eq!(s.last_seq(7).unwrap(), 5);
    // Told of table 7 after each commit.
    let wait = Duration::from_millis(500);
    assert_eq!(listener.next_timeout(wait).unwrap(), Some(7));
    assert_eq!(listener.next_timeout(wait).unwrap(), Some(7));
}
