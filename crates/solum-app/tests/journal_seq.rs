//! The journal's numbering and paging against a real SQLite file: the latest page read from
//! the end, each table numbered on its own, read-check-writes that hold under races.

use solum_app::{Campaign, Record};
use solum_store::{CampaignStore, NewEntry, SqliteStore};

fn campaign(path: &std::path::Path) -> Campaign<SqliteStore> {
    let store = SqliteStore::open(path).unwrap();
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
    let mut store = SqliteStore::open(&path).unwrap();
    store
        .append(&[NewEntry {
            at: "2026-11-30T19:00:00Z".into(),
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
