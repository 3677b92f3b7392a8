//! The journal's numbering and paging against a real SQLite file: the latest page read from
//! the end, each table numbered on its own, read-check-writes that hold under races.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use solum_app::{Campaign, Record};
use solum_store::{CampaignStore, NewEntry};

use solum_store_sqlite::SqliteStore;

fn campaign(path: &std::path::Path) -> Campaign<SqliteStore> {
    let store = SqliteStore::open(path, solum_store::Scope::HOME).unwrap();
    Campaign::new(store).with_clock(|| "2026-11-30T20:00:00Z".parse().unwrap())
}

fn note_text(record: &Record) -> String {
    serde_json::to_value(record).unwrap()["text"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The page the web table shows first (no `after`) is read from the end of the journal: an
/// entry far back that no longer reads (a kind this build does not know) does not stop it,
/// because it is never read. Reading from the start, as before, failed on it.
#[test]
fn the_latest_page_is_read_from_the_end_of_the_journal() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    let mut store = SqliteStore::open(&path, solum_store::Scope::HOME).unwrap();
    store
        .append(&[NewEntry {
            at: "2026-11-30T19:00:00Z".parse().expect("a time"),
            kind: "from-the-future".into(),
            schema: 1,
            body: serde_json::json!({ "kind": "from-the-future" }),
        }])
        .unwrap();
    drop(store);
    let mut c = campaign(&path);
    for n in 1..=250 {
        c.note(&format!("note {n}")).unwrap();
    }
    let (page, next) = c.journal_page(None, 3, |_| true).unwrap();
    let texts: Vec<String> = page.iter().map(|e| note_text(&e.record)).collect();
    assert_eq!(texts, ["note 248", "note 249", "note 250"]);
    assert_eq!(next, None);
    // A filter keeps the newest matches, oldest first, across store pages.
    let (page, _) = c
        .journal_page(None, 3, |r| note_text(r).ends_with('7'))
        .unwrap();
    let texts: Vec<String> = page.iter().map(|e| note_text(&e.record)).collect();
    assert_eq!(texts, ["note 227", "note 237", "note 247"]);
    // Reading forward from a point still pages on.
    let (page, next) = c.journal_page(Some(249), 2, |_| true).unwrap();
    let texts: Vec<String> = page.iter().map(|e| note_text(&e.record)).collect();
    assert_eq!(texts, ["note 249", "note 250"]);
    assert_eq!(next, Some(251));
}

/// The scene entries' kinds, in journal order.
fn scene_kinds(c: &Campaign<SqliteStore>) -> Vec<&'static str> {
    c.entries()
        .unwrap()
        .iter()
        .filter_map(|e| match e.record {
            Record::SceneStart { .. } => Some("start"),
            Record::SceneEnd { .. } => Some("end"),
            _ => None,
        })
        .collect()
}

/// Two writers (the command line and the page, say) start and end scenes on one file at
/// once: the check "is a scene open?" and the write are one transaction, so the journal
/// still reads start, end, start, end, … — never two starts (two open scenes) or two ends
/// (a scene ended twice) in a row.
#[test]
fn racing_scene_starts_and_ends_leave_one_open_scene() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    campaign(&path);
    const ROUNDS: usize = 60;
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(2));
    let writers: Vec<_> = (0..2)
        .map(|w| {
            let path = path.clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                let mut c = campaign(&path);
                for n in 0..ROUNDS {
                    barrier.wait();
                    c.start_scene(&format!("Scene {w}-{n}"), None).unwrap();
                    barrier.wait();
                    match c.end_scene(None) {
                        Ok(_) | Err(solum_app::AppError::NoOpenScene) => {}
                        Err(e) => panic!("{e}"),
                    }
                }
            })
        })
        .collect();
    for w in writers {
        w.join().unwrap();
    }
    let c = campaign(&path);
    let kinds = scene_kinds(&c);
    // Each round: two starts (the second ends the first) and one end that lands.
    assert_eq!(kinds.len(), ROUNDS * 4, "{kinds:?}");
    for (n, pair) in kinds.windows(2).enumerate() {
        assert_ne!(pair[0], pair[1], "entries {n} and {}: {kinds:?}", n + 1);
    }
    assert_eq!(kinds.first(), Some(&"start"));
    assert!(c.open_scene().unwrap().is_none());
}

/// Two imports of one export into one file at once: what the journal holds is read in the
/// import's write transaction, so every entry is stored once.
#[test]
fn racing_imports_of_one_export_store_each_entry_once() {
    let src = tempfile::tempdir().unwrap();
    let mut s = campaign(&src.path().join("src.solum"));
    for n in 1..=40 {
        s.note(&format!("note {n}")).unwrap();
    }
    let export = s.export().unwrap();
    for round in 0..5 {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.solum");
        campaign(&path);
        let barrier = std::sync::Arc::new(std::sync::Barrier::new(2));
        let importers: Vec<_> = (0..2)
            .map(|_| {
                let path = path.clone();
                let barrier = barrier.clone();
                let export = export.clone();
                std::thread::spawn(move || {
                    let mut c = campaign(&path);
                    barrier.wait();
                    c.import(export).unwrap()
                })
            })
            .collect();
        let added: usize = importers.into_iter().map(|t| t.join().unwrap()).sum();
        let c = campaign(&path);
        assert_eq!(c.entries().unwrap().len(), 40, "round {round}");
        assert_eq!(added, 40, "round {round}");
    }
}

/// A player rolls from their own character only, and the check is made in the roll's write
/// transaction. Here another writer holds the file while it renames the player's Nick away
/// and the game master's Bob to Nick; the player's roll of "Nick" waits for it, then sees
/// the new Nick — the game master's — and is refused. Checked before the wait (as the web
/// table did), it passed on the old Nick and then rolled from the game master's character.
#[test]
fn a_rename_racing_a_players_roll_cannot_hand_them_another_character() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    drop(SqliteStore::open(&path, solum_store::Scope::HOME).unwrap());
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.busy_timeout(std::time::Duration::from_secs(10))
        .unwrap();
    raw.execute_batch(
        "INSERT INTO tables (id, name, created) VALUES (1, 'club', '');
         INSERT INTO members (id, table_id, name, role, joined, name_key) VALUES
             (10, 1, 'Pia', 'player', '', 'pia'), (11, 1, 'Gia', 'gm', '', 'gia');
         INSERT INTO sheets (table_id, owner, system, name, name_key, schema, version, body) VALUES
             (1, 10, 'sol', 'Nick', 'nick', 1, 1, '{\"who\":\"pia\"}'),
             (1, 11, 'sol', 'Bob', 'bob', 1, 1, '{\"who\":\"gia\"}');
         BEGIN IMMEDIATE;
         UPDATE sheets SET name = 'Nicholas', name_key = 'nicholas' WHERE name_key = 'nick';
         UPDATE sheets SET name = 'Nick', name_key = 'nick' WHERE name_key = 'bob';",
    )
    .unwrap();
    let pia = solum_store::Member {
        id: 10,
        table: 1,
        table_name: "club".into(),
        name: "Pia".into(),
        gm: false,
    };
    let player = {
        let path = path.clone();
        std::thread::spawn(move || {
            let store = SqliteStore::open(&path, solum_store::Scope::member(1, 10, false)).unwrap();
            let mut c = Campaign::new(store);
            c.as_roller_of(&pia, "sol", "Nick", |c| {
                // The roll: a journaled write that reads the sheet it rolls from.
                c.note("Pia rolls")?;
                Ok(c.store().sheet("sol", "Nick")?.unwrap().body["who"].clone())
            })
        })
    };
    // Long enough for the player's request to reach the file; the answer does not depend on
    // it (with the check inside the transaction, any order gives the same refusal).
    std::thread::sleep(std::time::Duration::from_millis(300));
    raw.execute_batch("COMMIT").unwrap();
    let rolled = player.join().unwrap();
    assert!(
        matches!(rolled, Err(solum_app::AppError::Forbidden(_))),
        "{rolled:?}"
    );
    // Nothing of the refused roll was kept.
    let gm = SqliteStore::open(&path, solum_store::Scope::member(1, 11, true)).unwrap();
    assert!(Campaign::new(gm).entries().unwrap().is_empty());
}

/// A reader that keeps the entries it rendered (the web table) reads a page by its numbers
/// and gets exactly the page [`Campaign::journal_page`] gives, with the entries it lacks
/// read and no other: from the end, forward from a point, past the end, a full page.
#[test]
fn a_page_read_by_numbers_is_the_same_page_with_only_the_lacking_entries_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    let mut c = campaign(&path);
    for n in 1..=250 {
        c.note(&format!("note {n}")).unwrap();
    }
    let cases = [
        (None, 3),
        (None, 500),
        (Some(0), 7),
        (Some(120), 100),
        (Some(245), 10),
        (Some(248), 2),
        (Some(250), 5),
        (Some(900), 5),
    ];
    for (after, limit) in cases {
        let (full, next) = c.journal_page(after, limit, |_| true).unwrap();
        let mut asked = Vec::new();
        let (page, known_next) = c
            .journal_page_known(after, limit, |seq| {
                asked.push(seq);
                seq % 2 == 0
            })
            .unwrap();
        let case = format!("after {after:?}, limit {limit}");
        assert_eq!(known_next, next, "{case}: next");
        let full_seqs: Vec<i64> = full.iter().map(|e| e.seq).collect();
        assert_eq!(
            asked, full_seqs,
            "{case}: the reader is asked of each entry once"
        );
        assert_eq!(
            page.iter().map(|(seq, _)| *seq).collect::<Vec<_>>(),
            full_seqs,
            "{case}: the page's numbers"
        );
        for ((seq, read), whole) in page.iter().zip(&full) {
            if seq % 2 == 0 {
                assert!(
                    read.is_none(),
                    "{case}: entry {seq}, which the reader has, was read"
                );
            } else {
                let read = read.as_ref().unwrap();
                assert_eq!(
                    serde_json::to_value(read).unwrap(),
                    serde_json::to_value(whole).unwrap(),
                    "{case}: entry {seq}"
                );
            }
        }
    }
    // Numbers the cases above fix by hand, not by the code under test.
    let (page, next) = c.journal_page_known(Some(248), 2, |_| false).unwrap();
    assert_eq!(page.iter().map(|(s, _)| *s).collect::<Vec<_>>(), [249, 250]);
    assert_eq!(next, Some(250));
    let (page, next) = c.journal_page_known(None, 3, |_| true).unwrap();
    assert_eq!(
        page.iter().map(|(s, _)| *s).collect::<Vec<_>>(),
        [248, 249, 250]
    );
    assert_eq!(next, None);
}
