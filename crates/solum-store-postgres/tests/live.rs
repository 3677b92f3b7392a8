//! The change feed, busy and unreachable databases: what a server sees of other servers'
//! writes, and what a player reads when the database is away.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use std::time::Duration;

use postgres::{Client, NoTls};
use solum_store::{CampaignStore, NewEntry, Scope, StoreError};
use solum_store_postgres::{ChangeListener, PostgresStore};
use solum_testpg::TestPostgres;

fn database() -> String {
    let server = TestPostgres::shared().unwrap_or_else(|e| panic!("{e}"));
    server.database("live").unwrap_or_else(|e| panic!("{e}"))
}

fn entry(n: i64) -> NewEntry {
    NewEntry {
        at: "2026-11-30T12:00:00Z".parse().expect("a time"),
        kind: "note".into(),
        schema: 1,
        body: serde_json::json!({ "text": format!("entry {n}") }),
    }
}

/// Every committed append is told once, with its table, after its commit; a rolled-back one
/// is never told.
#[test]
fn the_listener_hears_each_committed_append_and_no_rolled_back_one() {
    let url = database();
    let mut home = PostgresStore::open(&url).unwrap();
    let mut listener = ChangeListener::connect(&url).unwrap();
    let wait = Duration::from_millis(300);
    assert_eq!(listener.next_timeout(wait).unwrap(), None, "nothing yet");

    home.append(&[entry(1), entry(2)]).unwrap();
    let mut club = PostgresStore::open_scoped(&url, Scope::member(4, 1, true)).unwrap();
    club.append(&[entry(3)]).unwrap();
    home.append(&[entry(4)]).unwrap();
    // A write that fails after appending: rolled back, not told.
    let e = home.write(&mut |tx| {
        tx.append(&[entry(5)])?;
        Err(StoreError::BadRecord("refused".into()))
    });
    assert!(e.is_err());
    // A write that appends nothing is not told either.
    home.write(&mut |_| Ok(())).unwrap();

    let mut heard = Vec::new();
    while let Some(t) = listener.next_timeout(Duration::from_secs(2)).unwrap() {
        heard.push(t);
        if heard.len() == 3 {
            break;
        }
    }
    assert_eq!(
        heard,
        [0, 4, 0],
        "one per committed append, in commit order"
    );
    assert_eq!(
        listener.next_timeout(wait).unwrap(),
        None,
        "the rollback is silent"
    );
    assert_eq!(home.entry_count().unwrap(), 3);
}

/// A listener of another server hears appends made while a transaction is open only when it
/// commits.
#[test]
fn a_notification_arrives_on_commit_not_before() {
    let url = database();
    let mut store = PostgresStore::open(&url).unwrap();
    let mut listener = ChangeListener::connect(&url).unwrap();
    let (tx_started, started) = std::sync::mpsc::channel();
    let (tx_go, go) = std::sync::mpsc::channel::<()>();
    let writer = std::thread::spawn(move || {
        store
            .write(&mut |tx| {
                tx.append(&[entry(1)])?;
                tx_started.send(()).unwrap();
                go.recv().unwrap();
                Ok(())
            })
            .unwrap();
    });
    started.recv().unwrap();
    assert_eq!(
        listener.next_timeout(Duration::from_millis(300)).unwrap(),
        None,
        "not before the commit"
    );
    tx_go.send(()).unwrap();
    writer.join().unwrap();
    assert_eq!(
        listener.next_timeout(Duration::from_secs(5)).unwrap(),
        Some(0)
    );
}

/// A writer that cannot get its table's lock within the lock timeout gets busy, and nothing
/// is written; once the lock is free the write goes through.
#[test]
fn a_table_locked_too_long_is_busy() {
    let url = database();
    let mut store = PostgresStore::open(&url).unwrap();
    store.append(&[entry(1)]).unwrap();
    store.set_lock_timeout(Duration::from_millis(200)).unwrap();
    let mut other = Client::connect(&url, NoTls).unwrap();
    let mut hold = other.transaction().unwrap();
    hold.batch_execute("SELECT * FROM table_heads WHERE table_id = 0 FOR UPDATE")
        .unwrap();
    let e = store.append(&[entry(2)]).unwrap_err();
    assert!(matches!(e, StoreError::Busy { .. }), "{e}");
    assert!(e.to_string().contains("busy"), "{e}");
    hold.rollback().unwrap();
    assert_eq!(store.append(&[entry(3)]).unwrap()[0].seq, 2);
    // Another table is not held by this one's lock.
    let mut hold = other.transaction().unwrap();
    hold.batch_execute("SELECT * FROM table_heads WHERE table_id = 0 FOR UPDATE")
        .unwrap();
    let mut club = PostgresStore::open_scoped(&url, Scope::member(3, 1, true)).unwrap();
    club.set_lock_timeout(Duration::from_millis(200)).unwrap();
    assert_eq!(club.append(&[entry(4)]).unwrap()[0].seq, 1);
    hold.rollback().unwrap();
}

/// A database that is not there is named by host, port and database, and never by the
/// user or password of its URL, in the error's text or its Debug form.
#[test]
fn an_unreachable_database_is_named_without_its_credentials() {
    // A port nothing listens on: bound, then released.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("postgres://gamemaster:hunter2secret@127.0.0.1:{port}/club");
    let e = PostgresStore::open(&url).unwrap_err();
    let shown = format!("{e} {e:?}");
    assert!(
        e.to_string()
            .contains(&format!("127.0.0.1:{port}/club: cannot reach the database")),
        "{e}"
    );
    assert!(!shown.contains("hunter2secret"), "{shown}");
    assert!(!shown.contains("gamemaster"), "{shown}");
    assert!(!e.is_bad_input());
    assert!(e.to_string().contains("refused"), "the cause is told: {e}");

    let e = ChangeListener::connect(&url).unwrap_err();
    assert!(!format!("{e} {e:?}").contains("hunter2secret"));

    // A URL that does not parse is not quoted back.
    let e = PostgresStore::open("postgres://x:hunter2secret@[bad").unwrap_err();
    let shown = format!("{e} {e:?}");
    assert!(shown.contains("not a PostgreSQL URL"), "{shown}");
    assert!(!shown.contains("hunter2secret"), "{shown}");
}

/// A wrong password (the test server trusts every local user, so a missing database
/// stands in for a refused login) is named with the location, not the URL.
#[test]
fn a_missing_database_is_named_without_the_url() {
    let server = TestPostgres::shared().unwrap_or_else(|e| panic!("{e}"));
    let url = format!(
        "postgres://postgres:hunter2secret@127.0.0.1:{}/no_such_db",
        server.port()
    );
    let e = PostgresStore::open(&url).unwrap_err();
    let shown = format!("{e} {e:?}");
    assert!(e.to_string().contains("no_such_db"), "{e}");
    assert!(e.to_string().contains("no such database"), "{e}");
    assert!(!shown.contains("hunter2secret"), "{shown}");
}

/// The store's Debug form names where it is and whose view it has, not how it logs in.
#[test]
fn the_stores_debug_form_holds_no_credentials() {
    let server = TestPostgres::shared().unwrap_or_else(|e| panic!("{e}"));
    let db = server.database("debug").unwrap();
    let with_password = db.replace("postgres@", "postgres:hunter2secret@");
    let store = PostgresStore::open(&with_password).unwrap();
    let shown = format!("{store:?}");
    assert!(
        shown.contains(&format!("127.0.0.1:{}", server.port())),
        "{shown}"
    );
    assert!(!shown.contains("hunter2secret"), "{shown}");
    let listener = ChangeListener::connect(&with_password).unwrap();
    assert!(!format!("{listener:?}").contains("hunter2secret"));
}

/// A deadlock rolls the write back and runs its closure again until it finds the way free;
/// it lands once, with only the last run's changes.
#[test]
fn a_deadlocked_write_runs_again_and_lands_once() {
    let url = database();
    let mut store = PostgresStore::open(&url).unwrap();
    store
        .write(&mut |tx| {
            tx.insert_sheet(&solum_store::Sheet {
                system: "expanded".into(),
                name: "Nick".into(),
                schema: 1,
                version: 0,
                body: serde_json::json!({ "n": 0 }),
            })
        })
        .unwrap();
    let mut other = Client::connect(&url, NoTls).unwrap();
    // The other connection looks for deadlocks late: the store's is the one to find this one
    // (and so the one rolled back).
    other.batch_execute("SET deadlock_timeout = '5s'").unwrap();
    let mut hold = other.transaction().unwrap();
    // The other connection holds the sheet's row.
    hold.batch_execute("SELECT * FROM sheets WHERE name_key = 'nick' FOR UPDATE")
        .unwrap();
    let (tx_holding, holding) = std::sync::mpsc::channel();
    let writer = std::thread::spawn(move || {
        let mut runs = 0;
        let result = store.write(&mut |tx| {
            runs += 1;
            // The table's lock is held from here on.
            tx.append(&[entry(runs)])?;
            if runs == 1 {
                tx_holding.send(()).unwrap();
            }
            let mut nick = tx.sheet("expanded", "Nick")?.unwrap();
            nick.body = serde_json::json!({ "n": runs });
            tx.update_sheet("expanded", "Nick", &nick).map(drop)
        });
        (result, runs, store)
    });
    holding.recv().unwrap();
    // Let the writer reach its wait on the sheet's row.
    std::thread::sleep(Duration::from_millis(300));
    hold.batch_execute("SELECT * FROM table_heads WHERE table_id = 0 FOR UPDATE")
        .unwrap();
    hold.commit().unwrap();
    let (result, runs, store) = writer.join().unwrap();
    result.unwrap();
    // At least once again; more is the scheduler's doing (the writer's next attempt can take
    // the table's lock before the other connection wakes for it, and deadlock once more).
    assert!(runs >= 2, "ran again after the deadlock ({runs} runs)");
    let texts: Vec<String> = store
        .entries_after(0, 10)
        .unwrap()
        .into_iter()
        .map(|e| e.body["text"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        texts,
        [format!("entry {runs}")],
        "only the last run's append landed"
    );
    assert_eq!(
        store.sheet("expanded", "Nick").unwrap().unwrap().body["n"],
        runs
    );
}

/// A store moves to the thread that serves the next request.
#[test]
fn a_store_and_a_listener_can_move_between_threads() {
    fn send<T: Send>() {}
    send::<PostgresStore>();
    send::<ChangeListener>();
}
