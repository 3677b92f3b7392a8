//! What the PostgreSQL backend adds to the conformance suite (`tests/conformance.rs`, which
//! runs every test of what a store means): its own schema and migrations, the database's
//! own guards (append-only, unique names), reconnecting, and many connections at once, on
//! a fresh database of one PostgreSQL server per test binary.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use postgres::{Client, NoTls};
use solum_store::{
    CampaignStore, NewEntry, OtherInvites, Redeemed, Sheet, StoreError, TableStore, Timestamp,
};
use solum_store_postgres::{PostgresStore, SCHEMA_VERSION};
use solum_testpg::TestPostgres;

/// When the tables of these tests are made: 2026-11-30T12:00:00Z.
const T: Timestamp = Timestamp::constant(1_796_040_000, 0);

/// A fresh database's URL (a missing PostgreSQL fails the test, saying what is missing).
fn database() -> String {
    let server = TestPostgres::shared().unwrap_or_else(|e| panic!("{e}"));
    server.database("store").unwrap_or_else(|e| panic!("{e}"))
}

fn raw(url: &str) -> Client {
    Client::connect(url, NoTls).unwrap()
}

fn entry(n: i64) -> NewEntry {
    NewEntry {
        at: "2026-11-30T12:00:00Z".parse().expect("a time"),
        kind: "note".into(),
        schema: 1,
        body: serde_json::json!({ "text": format!("entry {n}") }),
    }
}

fn sheet(name: &str, n: i64) -> Sheet {
    Sheet {
        system: "expanded".into(),
        name: name.into(),
        schema: 1,
        version: 0,
        body: serde_json::json!({ "n": n }),
    }
}

#[test]
fn entries_come_back_in_order_after_reconnecting() {
    let url = database();
    {
        let mut s = PostgresStore::open(&url).unwrap();
        assert_eq!(s.schema_version().unwrap(), SCHEMA_VERSION);
        s.append(&[entry(1), entry(2)]).unwrap();
        s.append(&[entry(3)]).unwrap();
    }
    let s = PostgresStore::open(&url).unwrap();
    let got = s.entries_after(0, 100).unwrap();
    let texts: Vec<_> = got.iter().map(|e| e.body["text"].clone()).collect();
    assert_eq!(texts, ["entry 1", "entry 2", "entry 3"]);
    assert_eq!(
        got.iter().map(|e| e.seq).collect::<Vec<_>>(),
        [1, 2, 3],
        "numbered from 1 without a gap"
    );
    assert_eq!(s.entries_after(got[1].seq, 100).unwrap().len(), 1);
    assert_eq!(s.entry_count().unwrap(), 3);
    s.check_integrity().unwrap();
    assert!(s.integrity_problems().unwrap().is_empty());
}

#[test]
fn journal_entries_cannot_be_changed_or_deleted() {
    let url = database();
    let mut s = PostgresStore::open(&url).unwrap();
    s.append(&[entry(1)]).unwrap();
    let mut c = raw(&url);
    for sql in [
        "UPDATE journal SET body = '{}'",
        "DELETE FROM journal",
        "TRUNCATE journal CASCADE",
    ] {
        let e = c.batch_execute(sql).unwrap_err();
        let message = e.as_db_error().map(|d| d.message().to_owned());
        assert_eq!(
            message.as_deref(),
            Some("journal entries are append-only"),
            "{sql}: {e:?}"
        );
    }
    assert_eq!(s.entry_count().unwrap(), 1);
    // The unique index refuses a second entry with a table's number.
    assert!(
        c.batch_execute(
            "INSERT INTO journal (at, kind, schema, body, table_id, table_seq)
             VALUES ('x', 'note', 1, '{}', 0, 1)"
        )
        .is_err()
    );
}

#[test]
fn a_database_of_another_program_is_refused_and_left_alone() {
    let url = database();
    let mut c = raw(&url);
    c.batch_execute("CREATE TABLE t (x int); INSERT INTO t VALUES (1);")
        .unwrap();
    let e = PostgresStore::open(&url).unwrap_err();
    assert!(matches!(e, StoreError::NotACampaign { .. }), "{e}");
    assert!(e.to_string().contains("another program"), "{e}");
    let n: i64 = c.query_one("SELECT count(*) FROM t", &[]).unwrap().get(0);
    assert_eq!(n, 1);
    let tables: i64 = c
        .query_one(
            "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(tables, 1, "nothing created");
}

#[test]
fn a_newer_schema_is_refused() {
    let url = database();
    PostgresStore::open(&url).unwrap();
    raw(&url)
        .execute(
            "UPDATE solum_schema SET version = $1",
            &[&(SCHEMA_VERSION + 1)],
        )
        .unwrap();
    let e = PostgresStore::open(&url).unwrap_err();
    assert!(
        matches!(e, StoreError::NewerSchema { found, .. } if found == SCHEMA_VERSION + 1),
        "{e}"
    );
}

#[test]
fn an_empty_database_is_no_campaign_to_read() {
    let url = database();
    let e = PostgresStore::open_existing(&url).unwrap_err();
    assert!(matches!(e, StoreError::Missing { .. }), "{e}");
    PostgresStore::open(&url).unwrap();
    PostgresStore::open_existing(&url).unwrap();
}

/// Servers starting together on a new database: the advisory lock lets one create the
/// schema; every one opens it.
#[test]
fn servers_starting_together_migrate_once() {
    let url = database();
    let threads: Vec<_> = (0..6)
        .map(|_| {
            let url = url.clone();
            std::thread::spawn(move || PostgresStore::open(&url).map(|s| s.schema_version()))
        })
        .collect();
    for t in threads {
        assert_eq!(t.join().unwrap().unwrap().unwrap(), SCHEMA_VERSION);
    }
    let n: i64 = raw(&url)
        .query_one("SELECT count(*) FROM tables", &[])
        .unwrap()
        .get(0);
    assert_eq!(n, 1, "table 0 made once");
}

/// The database's own constraint refuses a second sheet of a name in a table, whoever writes
/// it; through the store the same duplicate is refused as SQLite refuses it.
#[test]
fn a_name_is_unique_in_the_database_too() {
    let url = database();
    let mut s = PostgresStore::open(&url).unwrap();
    s.write(&mut |tx| tx.insert_sheet(&sheet("Nick", 1)))
        .unwrap();
    let e = raw(&url)
        .batch_execute(
            "INSERT INTO sheets (table_id, system, name, name_key, schema, version, body)
             VALUES (0, 'expanded', 'NICK', 'nick', 1, 1, '{}')",
        )
        .unwrap_err();
    assert_eq!(
        e.code(),
        Some(&postgres::error::SqlState::UNIQUE_VIOLATION),
        "{e}"
    );
    let e = s
        .write(&mut |tx| tx.insert_sheet(&sheet(" nick ", 2)))
        .unwrap_err();
    assert!(e.to_string().contains("already exists"), "{e}");
}

/// Fifty connections changing one sheet at once, each a read-change-write: every change
/// lands, and the version counts them.
#[test]
fn fifty_concurrent_read_change_writes_from_separate_connections_all_land() {
    let url = database();
    let mut s = PostgresStore::open(&url).unwrap();
    s.write(&mut |tx| tx.insert_sheet(&sheet("Nick", 0)))
        .unwrap();
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(50));
    let threads: Vec<_> = (0..50)
        .map(|_| {
            let url = url.clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                let mut s = PostgresStore::open(&url).unwrap();
                barrier.wait();
                s.write(&mut |tx| {
                    let mut nick = tx.sheet("expanded", "Nick")?.unwrap();
                    let n = nick.body["n"].as_i64().unwrap();
                    nick.body = serde_json::json!({ "n": n + 1 });
                    tx.update_sheet("expanded", "Nick", &nick).map(drop)
                })
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap().unwrap();
    }
    let nick = s.sheet("expanded", "Nick").unwrap().unwrap();
    assert_eq!((nick.body["n"].as_i64(), nick.version), (Some(50), 51));
}

/// Eight connections appending to one table at once, twenty times each: the table's numbers
/// are 1 … 160, each once, and each writer's own entries come back in its order.
#[test]
fn concurrent_appends_number_a_table_one_to_n_each_once() {
    let url = database();
    PostgresStore::open(&url).unwrap();
    const THREADS: i64 = 8;
    const EACH: i64 = 20;
    let threads: Vec<_> = (0..THREADS)
        .map(|w| {
            let url = url.clone();
            std::thread::spawn(move || {
                let mut s = PostgresStore::open(&url).unwrap();
                (0..EACH)
                    .map(|n| s.append(&[entry(w * 1000 + n)]).unwrap()[0].seq)
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut given: Vec<i64> = Vec::new();
    for t in threads {
        let mine = t.join().unwrap();
        assert!(mine.windows(2).all(|w| w[0] < w[1]), "{mine:?}");
        given.extend(mine);
    }
    given.sort_unstable();
    let expected: Vec<i64> = (1..=THREADS * EACH).collect();
    assert_eq!(given, expected);
    let s = PostgresStore::open(&url).unwrap();
    let stored: Vec<i64> = s
        .entries_after(0, 10_000)
        .unwrap()
        .iter()
        .map(|e| e.seq)
        .collect();
    assert_eq!(stored, expected);
    assert!(s.integrity_problems().unwrap().is_empty());
}

/// The gap case: a reader that pages with `after` while writers append to its table never
/// passes an entry it has not read. An entry committed with a lower number after a higher
/// one was visible would be skipped for good; the table's lock makes numbers follow commits.
#[test]
fn a_reader_paging_by_number_never_skips_an_entry_of_concurrent_writers() {
    let url = database();
    PostgresStore::open(&url).unwrap();
    const WRITERS: usize = 4;
    const EACH: usize = 60;
    let writers: Vec<_> = (0..WRITERS)
        .map(|w| {
            let url = url.clone();
            std::thread::spawn(move || {
                let mut s = PostgresStore::open(&url).unwrap();
                for n in 0..EACH {
                    let n = i64::try_from(w * EACH + n).unwrap();
                    // Two appends in one transaction: a writer holding its numbers a while
                    // before it commits.
                    s.write(&mut |tx| {
                        tx.append(&[entry(n)])?;
                        tx.append(&[entry(n)])?;
                        Ok(())
                    })
                    .unwrap();
                }
            })
        })
        .collect();
    let reader = PostgresStore::open(&url).unwrap();
    let mut seen = Vec::new();
    let mut after = 0;
    loop {
        let done = writers.iter().all(std::thread::JoinHandle::is_finished);
        for e in reader.entries_after(after, 7).unwrap() {
            after = e.seq;
            seen.push(e.seq);
        }
        if done && reader.entries_after(after, 1).unwrap().is_empty() {
            break;
        }
    }
    for w in writers {
        w.join().unwrap();
    }
    let all: Vec<i64> = reader
        .entries_after(0, 10_000)
        .unwrap()
        .iter()
        .map(|e| e.seq)
        .collect();
    assert_eq!(all.len(), 2 * WRITERS * EACH);
    assert_eq!(seen, all, "the reader skipped or repeated an entry");
}

/// Two players redeeming invites of one table at once under names that compare equal: one
/// joins, the other is told the name is taken.
#[test]
fn concurrent_joins_under_one_name_admit_one() {
    let url = database();
    let mut s = PostgresStore::open(&url).unwrap();
    let gm = s.create_table("A", "Gm", "gm", "sa", T).unwrap();
    for i in 0..8 {
        s.add_invite(
            gm.table,
            false,
            &format!("i{i}"),
            T,
            Timestamp::MAX,
            OtherInvites::Kept,
        )
        .unwrap();
    }
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(8));
    let threads: Vec<_> = (0..8)
        .map(|i| {
            let url = url.clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                let mut s = PostgresStore::open(&url).unwrap();
                barrier.wait();
                s.redeem_invite(&format!("i{i}"), "Pia", "pia", &format!("s{i}"), T, T)
                    .unwrap()
            })
        })
        .collect();
    let results: Vec<Redeemed> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    let joined = results
        .iter()
        .filter(|r| matches!(r, Redeemed::Joined(_)))
        .count();
    assert_eq!(joined, 1, "{results:?}");
    assert!(
        results
            .iter()
            .all(|r| matches!(r, Redeemed::Joined(_)) || *r == Redeemed::NameTaken("Pia".into()))
    );
}

#[test]
fn integrity_problems_name_a_dangling_reference() {
    let url = database();
    let mut s = PostgresStore::open(&url).unwrap();
    s.append(&[entry(1)]).unwrap();
    assert_eq!(s.integrity_problems().unwrap(), Vec::<String>::new());
    // Another program, with the foreign keys' triggers off, stores a sheet of a table that
    // is not.
    raw(&url)
        .batch_execute(
            "SET session_replication_role = replica;
             INSERT INTO sheets (table_id, system, name, name_key, schema, version, body)
             VALUES (999, 'expanded', 'Ghost', 'ghost', 1, 1, '{}');",
        )
        .unwrap();
    let problems = s.integrity_problems().unwrap();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].contains("foreign key check") && problems[0].contains("sheets"),
        "{problems:?}"
    );
    let e = s.check_integrity().unwrap_err();
    assert!(e.to_string().contains("integrity check failed"), "{e}");
}

/// A journal whose numbers skip (written around the store, triggers off) is named.
#[test]
fn integrity_problems_name_a_gap_in_a_tables_numbers() {
    let url = database();
    let mut s = PostgresStore::open(&url).unwrap();
    s.append(&[entry(1)]).unwrap();
    raw(&url)
        .batch_execute(
            "INSERT INTO journal (at, kind, schema, body, table_id, table_seq)
             VALUES ('t', 'note', 1, '{}', 0, 5)",
        )
        .unwrap();
    let problems = s.integrity_problems().unwrap();
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(
        problems.iter().all(|p| p.contains("table 0")),
        "{problems:?}"
    );
}

/// A database of schema 7 (before each table's head kept its last entry's time) is brought
/// to the current schema when opened: what it holds stays, and from its next entry on a
/// table's times never go back.
#[test]
fn a_schema_7_database_is_migrated_and_keeps_its_journal() {
    let url = database();
    {
        let mut s = PostgresStore::open(&url).unwrap();
        s.append(&[entry(1)]).unwrap();
    }
    raw(&url)
        .batch_execute(
            "ALTER TABLE table_heads DROP COLUMN last_at;
             CREATE INDEX journal_by_table ON journal (table_id, seq);
             UPDATE solum_schema SET version = 7",
        )
        .unwrap();
    let mut s = PostgresStore::open(&url).unwrap();
    assert_eq!(s.schema_version().unwrap(), SCHEMA_VERSION);
    // Schema 9 dropped the index no read uses.
    let indexes: Vec<String> = raw(&url)
        .query(
            "SELECT indexname FROM pg_indexes WHERE tablename = 'journal' ORDER BY 1",
            &[],
        )
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(
        indexes,
        ["journal_by_kind", "journal_by_table_seq", "journal_pkey"]
    );
    let late = NewEntry {
        at: "2026-11-30T13:00:00Z".parse().unwrap(),
        ..entry(2)
    };
    let early = NewEntry {
        at: "2026-11-30T12:30:00Z".parse().unwrap(),
        ..entry(3)
    };
    s.append(&[late]).unwrap();
    let stored = s.append(&[early]).unwrap();
    assert_eq!(stored[0].at.to_string(), "2026-11-30T13:00:00Z");
    let texts: Vec<_> = s
        .entries_after(0, 10)
        .unwrap()
        .iter()
        .map(|e| e.body["text"].clone())
        .collect();
    assert_eq!(texts, ["entry 1", "entry 2", "entry 3"]);
}
