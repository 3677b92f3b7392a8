//! The PostgreSQL backend against the semantics of the SQLite one: each test of
//! `solum_store`'s own suite that is about what the store means (not SQLite's pragmas) is
//! here again, on a fresh database of one PostgreSQL server per test binary.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use postgres::{Client, NoTls};
use solum_store::{
    CampaignStore, MAX_ENTRY_BYTES, NewEntry, Redeemed, Scope, Sheet, StoreError, TableStore,
};
use solum_store_postgres::{PostgresStore, SCHEMA_VERSION};
use solum_testpg::TestPostgres;

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
        at: "2026-11-30T12:00:00Z".into(),
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

fn texts(s: &PostgresStore) -> Vec<String> {
    s.entries_after(0, 100)
        .unwrap()
        .into_iter()
        .map(|e| e.body["text"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_last_entries_the_entries_before_and_the_last_of_a_kind() {
    let url = database();
    let mut s = PostgresStore::open(&url).unwrap();
    let mut entries: Vec<NewEntry> = (1..=50).map(entry).collect();
    entries[9].kind = "scene-start".into();
    entries[19].kind = "scene-end".into();
    s.append(&entries).unwrap();
    let seqs: Vec<i64> = s
        .entries_before(40, 3)
        .unwrap()
        .iter()
        .map(|e| e.seq)
        .collect();
    assert_eq!(seqs, [39, 38, 37]);
    let seqs: Vec<i64> = s.last_entries(3).unwrap().iter().map(|e| e.seq).collect();
    assert_eq!(seqs, [48, 49, 50]);
    assert_eq!(s.last_of_kind("scene-start").unwrap().unwrap().seq, 10);
    assert_eq!(s.last_of_kind("scene-end").unwrap().unwrap().seq, 20);
    assert!(s.last_of_kind("roll").unwrap().is_none());
    assert_eq!(s.last_entries(1000).unwrap().len(), 50);
    assert_eq!(s.entries_after(45, 2).unwrap().len(), 2);
    assert_eq!(s.last_seq(0).unwrap(), 50);
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

#[test]
fn an_oversized_entry_or_sheet_is_refused_before_writing() {
    let url = database();
    let mut s = PostgresStore::open(&url).unwrap();
    let huge = NewEntry {
        body: serde_json::json!({ "text": "x".repeat(MAX_ENTRY_BYTES) }),
        ..entry(1)
    };
    let e = s.append(&[entry(0), huge]).unwrap_err();
    assert!(matches!(e, StoreError::TooLarge { .. }), "{e}");
    assert_eq!(s.entry_count().unwrap(), 0);
    let big = Sheet {
        body: serde_json::json!({ "text": "x".repeat(MAX_ENTRY_BYTES) }),
        ..sheet("Big", 0)
    };
    let e = s.write(&mut |tx| tx.insert_sheet(&big)).unwrap_err();
    assert!(matches!(e, StoreError::TooLarge { .. }), "{e}");
    assert!(s.sheet("expanded", "Big").unwrap().is_none());
    // Just under the limit is kept (the body's JSON: {"text":"…"} is 11 bytes more).
    let fits = NewEntry {
        body: serde_json::json!({ "text": "x".repeat(MAX_ENTRY_BYTES - 11) }),
        ..entry(2)
    };
    s.append(&[fits]).unwrap();
    assert_eq!(s.entry_count().unwrap(), 1);
}

#[test]
fn sheets_are_found_by_name_whatever_the_case_and_names_are_unique() {
    let url = database();
    let mut s = PostgresStore::open(&url).unwrap();
    s.write(&mut |tx| tx.insert_sheet(&sheet("Nick", 1)))
        .unwrap();
    let got = s.sheet("expanded", "  nICK ").unwrap().unwrap();
    assert_eq!((got.name.as_str(), got.version), ("Nick", 1));
    assert!(s.sheet("classic", "Nick").unwrap().is_none());
    let e = s
        .write(&mut |tx| tx.insert_sheet(&sheet("NICK", 2)))
        .unwrap_err();
    assert!(
        matches!(&e, StoreError::NameTaken { name } if name == "NICK"),
        "{e}"
    );
    s.write(&mut |tx| tx.insert_sheet(&sheet("Osric", 2)))
        .unwrap();
    // Byte order, as SQLite sorts: upper case before lower.
    s.write(&mut |tx| tx.insert_sheet(&sheet("abe", 3)))
        .unwrap();
    let names: Vec<_> = s
        .sheets("expanded")
        .unwrap()
        .into_iter()
        .map(|x| x.name)
        .collect();
    assert_eq!(names, ["abe", "Nick", "Osric"]);
    // A rename onto another character's name is refused; a failed write keeps nothing.
    let e = s
        .write(&mut |tx| {
            tx.append(&[entry(1)])?;
            tx.update_sheet("expanded", "nick", &sheet("osric", 5))
                .map(drop)
        })
        .unwrap_err();
    assert!(e.to_string().contains("already exists"), "{e}");
    assert_eq!(s.entry_count().unwrap(), 0);
    assert_eq!(s.last_seq(0).unwrap(), 0, "the number was not spent");
    assert_eq!(s.sheet("expanded", "Nick").unwrap().unwrap().body["n"], 1);
    // An update raises the version and may rename.
    let mut renamed = None;
    s.write(&mut |tx| {
        renamed = Some(tx.update_sheet("expanded", "nick", &sheet("Nicholas", 6))?);
        Ok(())
    })
    .unwrap();
    assert_eq!(renamed.unwrap().version, 2);
    assert!(s.sheet("expanded", "Nick").unwrap().is_none());
    let n = s.sheet("expanded", "nicholas").unwrap().unwrap();
    assert_eq!((n.version, n.body["n"].as_i64()), (2, Some(6)));
    let e = s
        .write(&mut |tx| {
            tx.update_sheet("expanded", "Nobody", &sheet("Nobody", 1))
                .map(drop)
        })
        .unwrap_err();
    assert!(matches!(e, StoreError::NoSuchSheet { name } if name == "Nobody"));
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

/// Tables are numbered apart: appends to two tables, interleaved, each count 1, 2, 3.
#[test]
fn each_table_numbers_its_journal_on_its_own() {
    let url = database();
    let mut home = PostgresStore::open(&url).unwrap();
    raw(&url)
        .batch_execute("INSERT INTO tables (id, name, created) VALUES (1, 'club', '')")
        .unwrap();
    let mut club = PostgresStore::open_scoped(&url, Scope::member(1, 1, true)).unwrap();
    let mut secret = PostgresStore::open_scoped(&url, Scope::member(1, 1, true).secret()).unwrap();
    assert_eq!(home.append(&[entry(1)]).unwrap()[0].seq, 1);
    assert_eq!(club.append(&[entry(2)]).unwrap()[0].seq, 1);
    assert_eq!(home.append(&[entry(3)]).unwrap()[0].seq, 2);
    assert_eq!(secret.append(&[entry(4)]).unwrap()[0].seq, 2);
    let both: Vec<i64> = club
        .append(&[entry(5), entry(6)])
        .unwrap()
        .iter()
        .map(|e| e.seq)
        .collect();
    assert_eq!(both, [3, 4]);
    assert_eq!(home.append(&[entry(7)]).unwrap()[0].seq, 3);
    let seqs: Vec<i64> = club
        .entries_after(1, 10)
        .unwrap()
        .iter()
        .map(|e| e.seq)
        .collect();
    assert_eq!(seqs, [2, 3, 4]);
    // The secret entry is revealed by its table's number.
    let mut shown = None;
    club.write(&mut |tx| {
        shown = Some(tx.reveal(2)?);
        Ok(())
    })
    .unwrap();
    let shown = shown.unwrap();
    assert_eq!(
        (shown.seq, shown.body["text"].as_str()),
        (2, Some("entry 4"))
    );
    // A table without a row in `tables` still numbers its journal (as SQLite's does).
    let mut stray = PostgresStore::open_scoped(&url, Scope::member(77, 1, true)).unwrap();
    assert_eq!(stray.append(&[entry(8)]).unwrap()[0].seq, 1);
    assert!(home.integrity_problems().unwrap().is_empty());
}

/// Two tables in one database: each scope sees only its own entries, sheets and settings; a
/// player's scope never reads a secret entry and changes only the sheets it created.
#[test]
fn scopes_keep_tables_apart_secrets_from_players_and_sheets_to_their_owners() {
    let url = database();
    let mut home = PostgresStore::open(&url).unwrap();
    let a = home.create_table("A", "Gm A", "gm a", "sa", "t").unwrap();
    let b = home.create_table("B", "Gm B", "gm b", "sb", "t").unwrap();
    assert_ne!(a.table, b.table);
    assert_eq!(
        (a.table_name.as_str(), a.name.as_str(), a.gm),
        ("A", "Gm A", true)
    );
    home.add_invite(a.table, false, "ia", "t", i64::MAX)
        .unwrap();
    let Redeemed::Joined(p) = home
        .redeem_invite("ia", "Pia", "pia", "sp", "t", 0)
        .unwrap()
    else {
        panic!("the invite is unused")
    };
    assert!(!p.gm);
    assert_eq!(p.table, a.table);
    assert_eq!(
        home.redeem_invite("ia", "Again", "again", "sq", "t", 0)
            .unwrap(),
        Redeemed::Used
    );
    assert_eq!(home.session_member("sp", 0, 10).unwrap(), Some(p.clone()));
    assert!(home.session_member("nope", 0, 10).unwrap().is_none());

    let gm_a = Scope::member(a.table, a.id, true);
    let mut gm = PostgresStore::open_scoped(&url, gm_a).unwrap();
    gm.append(&[entry(1)]).unwrap();
    let mut secret = PostgresStore::open_scoped(&url, gm_a.secret()).unwrap();
    secret.append(&[entry(2)]).unwrap();
    let mut player = PostgresStore::open_scoped(&url, Scope::member(a.table, p.id, false)).unwrap();
    player.append(&[entry(3)]).unwrap();
    let mut other = PostgresStore::open_scoped(&url, Scope::member(b.table, b.id, true)).unwrap();
    other.append(&[entry(4)]).unwrap();

    assert_eq!(texts(&gm), ["entry 1", "entry 2", "entry 3"]);
    assert_eq!(texts(&player), ["entry 1", "entry 3"]);
    assert_eq!(player.entry_count().unwrap(), 2);
    assert_eq!(gm.entry_count().unwrap(), 3);
    assert_eq!(
        player
            .last_entries(10)
            .unwrap()
            .iter()
            .map(|e| e.seq)
            .collect::<Vec<_>>(),
        [1, 3]
    );
    assert_eq!(
        player
            .entries_before(4, 10)
            .unwrap()
            .iter()
            .map(|e| e.seq)
            .collect::<Vec<_>>(),
        [3, 1]
    );
    assert!(!player.sees_every_entry());
    assert!(gm.sees_every_entry());
    assert_eq!(texts(&other), ["entry 4"]);
    assert!(texts(&home).is_empty());
    let names: Vec<String> = player
        .members()
        .unwrap()
        .into_iter()
        .map(|m| m.name)
        .collect();
    assert_eq!(names, ["Gm A", "Pia"]);

    // Who may change a setting is the app's role policy; the store keeps the table filter.
    gm.set_meta("oracle", "classic").unwrap();
    gm.set_meta("oracle", "expanded").unwrap();
    assert_eq!(gm.meta("oracle").unwrap().as_deref(), Some("expanded"));
    assert_eq!(player.meta("oracle").unwrap().as_deref(), Some("expanded"));
    assert!(other.meta("oracle").unwrap().is_none());
    assert!(home.meta("oracle").unwrap().is_none());
    // The key of another table's setting, as SQLite keeps it.
    let key = format!("table/{}/oracle", a.table);
    assert_eq!(home.meta(&key).unwrap().as_deref(), Some("expanded"));

    // Sheets: the same name at two tables is two characters, each with its owner (who may
    // change which is the app's role policy, solum_app::policy).
    player
        .write(&mut |tx| tx.insert_sheet(&sheet("Mine", 1)))
        .unwrap();
    gm.write(&mut |tx| tx.insert_sheet(&sheet("Theirs", 1)))
        .unwrap();
    other
        .write(&mut |tx| tx.insert_sheet(&sheet("Mine", 9)))
        .unwrap();
    assert_eq!(player.sheet_owner("expanded", "mine").unwrap(), Some(p.id));
    assert_eq!(
        player.sheet_owner("expanded", "Theirs").unwrap(),
        Some(a.id)
    );
    assert_eq!(player.sheet_owner("expanded", "nobody").unwrap(), None);
    player
        .write(&mut |tx| {
            tx.update_sheet("expanded", "Mine", &sheet("Mine", 2))
                .map(drop)
        })
        .unwrap();
    gm.write(&mut |tx| {
        tx.update_sheet("expanded", "Mine", &sheet("Mine", 3))
            .map(drop)
    })
    .unwrap();
    assert_eq!(
        player.sheet("expanded", "Mine").unwrap().unwrap().body["n"],
        3
    );
    assert_eq!(
        other.sheet("expanded", "Mine").unwrap().unwrap().body["n"],
        9
    );
    assert_eq!(
        player.sheet("expanded", "Theirs").unwrap().unwrap().body["n"],
        1
    );
    assert_eq!(other.sheets("expanded").unwrap().len(), 1);
    // A sheet the command line made has no owner: no player changes it.
    home.write(&mut |tx| tx.insert_sheet(&sheet("Homebody", 1)))
        .unwrap();
    assert_eq!(home.sheet_owner("expanded", "Homebody").unwrap(), None);
}

/// A companion sheet (a hero's open fight) takes the owner of its character; nothing
/// changes when either is missing.
#[test]
fn share_owner_gives_a_companion_the_characters_owner() {
    let url = database();
    let mut home = PostgresStore::open(&url).unwrap();
    let gm = home.create_table("A", "Gm", "gm", "sa", "t").unwrap();
    home.add_invite(gm.table, false, "ip", "t", i64::MAX)
        .unwrap();
    let Redeemed::Joined(p) = home
        .redeem_invite("ip", "Pia", "pia", "sp", "t", 0)
        .unwrap()
    else {
        panic!("joined")
    };
    let mut player =
        PostgresStore::open_scoped(&url, Scope::member(gm.table, p.id, false)).unwrap();
    let mut game_master =
        PostgresStore::open_scoped(&url, Scope::member(gm.table, gm.id, true)).unwrap();
    player
        .write(&mut |tx| tx.insert_sheet(&sheet("Nick", 1)))
        .unwrap();
    let fight = Sheet {
        system: "classic-fight".into(),
        ..sheet("Nick", 0)
    };
    game_master
        .write(&mut |tx| {
            tx.insert_sheet(&fight)?;
            tx.share_owner("classic-fight", "nick", "expanded")?;
            // Nothing to share from or to: no change, no error.
            tx.share_owner("classic-fight", "Nobody", "expanded")
        })
        .unwrap();
    assert_eq!(
        player.sheet_owner("classic-fight", "Nick").unwrap(),
        Some(p.id)
    );
    player
        .write(&mut |tx| tx.update_sheet("classic-fight", "Nick", &fight).map(drop))
        .unwrap();
}

/// A session lives while it is used: found within the idle limit (and marked used, at most
/// once an hour), gone past it, and gone once ended.
#[test]
fn sessions_expire_when_idle_and_end_on_logout() {
    let url = database();
    let mut s = PostgresStore::open(&url).unwrap();
    // 2026-01-01T00:00:00Z is 1767225600 (Unix seconds).
    let gm = s
        .create_table("A", "Gm", "gm", "sa", "2026-01-01T00:00:00Z")
        .unwrap();
    let t0 = 1_767_225_600;
    let day = 86_400;
    let mut c = raw(&url);
    let mut last_used = || -> i64 {
        c.query_one(
            "SELECT last_used FROM sessions WHERE token_hash = 'sa'",
            &[],
        )
        .unwrap()
        .get(0)
    };
    assert_eq!(last_used(), t0);
    assert_eq!(
        s.session_member("sa", t0 + 1_000, 30 * day).unwrap(),
        Some(gm.clone())
    );
    assert_eq!(last_used(), t0, "a use within the hour writes nothing");
    assert!(
        s.session_member("sa", t0 + 20 * day, 30 * day)
            .unwrap()
            .is_some()
    );
    assert_eq!(last_used(), t0 + 20 * day);
    assert!(
        s.session_member("sa", t0 + 40 * day, 30 * day)
            .unwrap()
            .is_some()
    );
    let idle_end = t0 + 40 * day + 30 * day + 1;
    assert!(
        s.session_member("sa", idle_end, 30 * day)
            .unwrap()
            .is_none()
    );
    assert!(
        s.session_member("sa", idle_end, 30 * day)
            .unwrap()
            .is_none()
    );
    s.add_invite(gm.table, false, "ib", "2026-01-01T00:00:00Z", t0 + day)
        .unwrap();
    assert!(matches!(
        s.redeem_invite("ib", "Pia", "pia", "sb", "2026-01-01T00:00:00Z", t0)
            .unwrap(),
        Redeemed::Joined(_)
    ));
    assert!(s.session_member("sb", t0, 30 * day).unwrap().is_some());
    assert!(s.end_session("sb").unwrap());
    assert!(!s.end_session("sb").unwrap());
    assert!(s.session_member("sb", t0, 30 * day).unwrap().is_none());
}

/// An invite is refused past its expiry, once revoked, once used, and for a name that
/// compares equal to a member's; revoking the unused ones of a role leaves the others.
#[test]
fn invites_expire_are_revoked_and_keep_names_apart() {
    let url = database();
    let mut s = PostgresStore::open(&url).unwrap();
    let gm = s.create_table("A", "Gm", "gm", "sa", "t").unwrap();
    let t = gm.table;
    let a = s.add_invite(t, false, "ia", "t", 100).unwrap();
    s.add_invite(t, false, "ib", "t", 100).unwrap();
    s.add_invite(t, true, "ic", "t", 100).unwrap();
    s.add_invite(t, true, "id", "t", 100).unwrap();
    assert_eq!(
        s.redeem_invite("ia", "X", "x", "s1", "t", 100).unwrap(),
        Redeemed::Expired(100)
    );
    assert_eq!(
        s.redeem_invite("ia", "GM", "gm", "s1", "t", 99).unwrap(),
        Redeemed::NameTaken("Gm".into())
    );
    assert!(s.revoke_invite(t, a).unwrap());
    assert!(!s.revoke_invite(t, a).unwrap(), "revoked once");
    assert!(
        !s.revoke_invite(t + 1, a + 1).unwrap(),
        "another table's id"
    );
    assert_eq!(
        s.redeem_invite("ia", "X", "x", "s1", "t", 0).unwrap(),
        Redeemed::Revoked {
            table: t,
            gm: false
        }
    );
    assert_eq!(
        s.redeem_invite("nope", "X", "x", "s1", "t", 0).unwrap(),
        Redeemed::Unknown
    );
    assert!(matches!(
        s.redeem_invite("ic", "Co", "co", "s2", "t", 0).unwrap(),
        Redeemed::Joined(m) if m.gm
    ));
    assert_eq!(
        s.revoke_unused_invites(t, true).unwrap(),
        1,
        "id, not the used ic"
    );
    let rows = s.invites(t).unwrap();
    assert_eq!(rows.len(), 4);
    let states: Vec<(bool, bool, bool)> = rows
        .iter()
        .map(|r| (r.gm, r.revoked, r.used_by.is_some()))
        .collect();
    assert_eq!(
        states,
        [
            (false, true, false),
            (false, false, false),
            (true, false, true),
            (true, true, false)
        ]
    );
    assert!(rows.iter().all(|r| r.created == "t" && r.expires == 100));
    assert!(s.invites(t + 1).unwrap().is_empty());
}

/// Two players redeeming invites of one table at once under names that compare equal: one
/// joins, the other is told the name is taken.
#[test]
fn concurrent_joins_under_one_name_admit_one() {
    let url = database();
    let mut s = PostgresStore::open(&url).unwrap();
    let gm = s.create_table("A", "Gm", "gm", "sa", "t").unwrap();
    for i in 0..8 {
        s.add_invite(gm.table, false, &format!("i{i}"), "t", i64::MAX)
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
                s.redeem_invite(&format!("i{i}"), "Pia", "pia", &format!("s{i}"), "t", 0)
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

/// Only a game master's scope reveals, a secret entry of its own table, once.
#[test]
fn a_secret_entry_is_revealed_once_by_its_game_master() {
    let url = database();
    let mut home = PostgresStore::open(&url).unwrap();
    let a = home.create_table("A", "Gm", "gm", "sa", "t").unwrap();
    let gm = Scope::member(a.table, a.id, true);
    let mut secret = PostgresStore::open_scoped(&url, gm.secret()).unwrap();
    let hidden = secret.append(&[entry(1)]).unwrap()[0].seq;
    let mut open = PostgresStore::open_scoped(&url, gm).unwrap();
    let public = open.append(&[entry(2)]).unwrap()[0].seq;
    let reveal = |s: &mut PostgresStore, seq: i64| {
        let mut out = None;
        let r = s.write(&mut |tx| {
            out = Some(tx.reveal(seq)?);
            Ok(())
        });
        r.map(|()| out.unwrap())
    };
    // Who may reveal (a game master, not in secret) is the app's role policy.
    assert!(matches!(
        reveal(&mut open, public),
        Err(StoreError::NotSecret { .. })
    ));
    assert!(
        matches!(reveal(&mut home, hidden), Err(StoreError::NotSecret { .. })),
        "table 0"
    );
    let e = reveal(&mut open, hidden).unwrap();
    assert_eq!((e.seq, e.secret), (hidden, true));
    assert_eq!(e.body["text"], "entry 1");
    assert!(matches!(
        reveal(&mut open, hidden),
        Err(StoreError::RevealedAlready { .. })
    ));
}

/// Inside a write, reads see the transaction's own appends; a failed write keeps none of
/// them and spends no number.
#[test]
fn reads_inside_a_write_see_its_own_appends_and_a_failed_write_keeps_nothing() {
    let url = database();
    let mut s = PostgresStore::open(&url).unwrap();
    s.append(&[entry(1)]).unwrap();
    let e = s
        .write(&mut |tx| {
            let mut start = entry(2);
            start.kind = "scene-start".into();
            tx.append(&[start])?;
            assert_eq!(tx.last_of_kind("scene-start")?.unwrap().seq, 2);
            assert_eq!(tx.entries_after(0, 10)?.len(), 2);
            Err(StoreError::BadRecord("refused".into()))
        })
        .unwrap_err();
    assert!(matches!(e, StoreError::BadRecord(_)));
    assert!(s.last_of_kind("scene-start").unwrap().is_none());
    assert_eq!(s.append(&[entry(3)]).unwrap()[0].seq, 2);
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
