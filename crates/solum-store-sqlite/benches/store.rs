//! The campaign store on a real file: one journal entry appended (a `BEGIN IMMEDIATE`
//! transaction with `synchronous = FULL`, so one fsync), 1,000 entries read back, and one
//! sheet read–change–write transaction with its journal entry, as every character change
//! does. Run with `cargo bench -p solum-store-sqlite --bench store`.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use divan::{Bencher, black_box};
use serde_json::json;
use solum_store::{CampaignStore, NewEntry, Scope, Sheet};
use solum_store_sqlite::SqliteStore;

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

/// A fresh campaign file in its own folder (kept alive with the store).
fn campaign() -> (tempfile::TempDir, SqliteStore) {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(&dir.path().join("c.solum"), Scope::HOME).unwrap();
    (dir, store)
}

#[divan::bench]
fn append_one_entry(bencher: Bencher) {
    let (_dir, mut store) = campaign();
    let mut k = 0;
    bencher.bench_local(|| {
        k += 1;
        black_box(store.append(&[entry(k)]).unwrap());
    });
}

#[divan::bench]
fn read_1000_entries(bencher: Bencher) {
    let (_dir, mut store) = campaign();
    let batch: Vec<NewEntry> = (0..1000).map(entry).collect();
    store.append(&batch).unwrap();
    bencher.bench_local(|| {
        let entries = store.entries_after(0, 1000).unwrap();
        assert_eq!(entries.len(), 1000);
        black_box(entries)
    });
}

/// What `char edit` does in the store: read the sheet, change it, write it back and append
/// its journal entry, in one write transaction.
#[divan::bench]
fn sheet_read_change_write(bencher: Bencher) {
    let (_dir, mut store) = campaign();
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
