//! The PostgreSQL backend on a throw-away local server (solum-testpg: loopback, `fsync` off,
//! so these figures are round trips and server work, not disk syncs): one journal entry
//! appended (its table's lock, the insert, the head, the notification, the commit), 1,000
//! entries read back, the latest 50 read from the end, and one sheet read–change–write with
//! its journal entry. The same shapes as solum-store's SQLite benchmark. Run with
//! `cargo bench -p solum-store-postgres --bench store`.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use divan::{Bencher, black_box};
use serde_json::json;
use solum_store::{CampaignStore, NewEntry, Sheet};
use solum_store_postgres::PostgresStore;
use solum_testpg::TestPostgres;

fn main() {
    divan::main();
}

/// An oracle-sized entry: about the size of a journaled question and its dice.
fn entry(k: u64) -> NewEntry {
    NewEntry {
        at: "2026-11-30T20:00:00Z".parse().expect("a time"),
        kind: "ask".into(),
        schema: 1,
        body: json!({
            "question": format!("Are the guards of gate {k} awake?"),
            "leaning": "even",
            "rolled": { "seed": k, "typed": false, "faces": [4, 2] },
            "answer": "yes-but",
        }),
    }
}

/// A store on a fresh database of the shared server.
fn campaign() -> PostgresStore {
    let server = TestPostgres::shared().unwrap_or_else(|e| panic!("{e}"));
    let url = server.database("bench").unwrap_or_else(|e| panic!("{e}"));
    PostgresStore::open(&url).unwrap()
}

#[divan::bench]
fn append_one_entry(bencher: Bencher) {
    let mut store = campaign();
    let mut k = 0;
    bencher.bench_local(|| {
        k += 1;
        black_box(store.append(&[entry(k)]).unwrap());
    });
}

#[divan::bench]
fn read_1000_entries(bencher: Bencher) {
    let mut store = campaign();
    let batch: Vec<NewEntry> = (0..1000).map(entry).collect();
    store.append(&batch).unwrap();
    bencher.bench_local(|| {
        let entries = store.entries_after(0, 1000).unwrap();
        assert_eq!(entries.len(), 1000);
        black_box(entries)
    });
}

/// The page's default read: the latest 50 of a 10,000-entry journal.
#[divan::bench]
fn read_the_latest_50_of_10000(bencher: Bencher) {
    let mut store = campaign();
    for chunk in 0..10 {
        let batch: Vec<NewEntry> = (0..1000).map(|k| entry(chunk * 1000 + k)).collect();
        store.append(&batch).unwrap();
    }
    bencher.bench_local(|| {
        let entries = store.last_entries(50).unwrap();
        assert_eq!(entries.len(), 50);
        black_box(entries)
    });
}

/// What `char edit` does in the store: read the sheet, change it, write it back and append
/// its journal entry, in one write transaction.
#[divan::bench]
fn sheet_read_change_write(bencher: Bencher) {
    let mut store = campaign();
    let body = json!({
        "schema": 1, "name": "Nick", "body": 3, "mind": 2, "charm": 1,
        "backgrounds": ["Acrobat Thief", "Quick-Witted Rogue"], "unnamed_backgrounds": 0,
        "hit_points": 5, "weapons": [{ "name": "dagger", "class": "light", "ranged": false }],
        "gear": [], "money": 0, "notes": "",
    });
    store
        .write(&mut |tx| {
            tx.insert_sheet(&Sheet {
                system: "expanded".into(),
                name: "Nick".into(),
                schema: 1,
                version: 0,
                body: body.clone(),
            })
        })
        .unwrap();
    bencher.bench_local(|| {
        store
            .write(&mut |tx| {
                let mut sheet = tx.sheet("expanded", "nick")?.expect("Nick is stored");
                let hp = sheet.body["hit_points"].as_u64().unwrap_or(0);
                sheet.body["hit_points"] = json!(if hp > 1 { hp - 1 } else { 5 });
                tx.update_sheet("expanded", "Nick", &sheet)?;
                tx.append(&[NewEntry {
                    at: "2026-11-30T20:00:00Z".parse().expect("a time"),
                    kind: "character".into(),
                    schema: 1,
                    body: json!({ "name": "Nick", "hit_points": hp }),
                }])?;
                Ok(())
            })
            .unwrap();
    });
}
