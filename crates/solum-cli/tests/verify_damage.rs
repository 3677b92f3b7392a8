//! `solum journal verify` on a damaged campaign: a file cut by one byte, an index page
//! zeroed, a sheet edited directly in the database. Each must fail (exit 1) with a message
//! naming the problem; the sound campaign verifies. Each run is under a memory limit, a CPU
//! limit and a wall-clock timeout.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::common;

use std::path::{Path, PathBuf};

use common::Run;

use common::bounded;

/// A campaign with a sheet of each of six systems and enough notes to fill several pages.
fn campaign(dir: &Path) -> PathBuf {
    let c = dir.join("c.solum");
    let cs = c.to_str().unwrap();
    let ok = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--campaign", cs]);
        bounded(dir, &all).ok().to_owned()
    };
    ok(&[
        "char",
        "new",
        "Nick",
        "--body",
        "3",
        "--mind",
        "2",
        "--charm",
        "1",
        "-b",
        "Acrobat Thief",
        "--weapon",
        "dagger",
        "--seed",
        "1",
    ]);
    ok(&["sol", "new", "Kyra", "--edge", "2"]);
    ok(&["dietype", "new", "Ada"]);
    bounded(
        dir,
        &["classic", "new", "Nim", "-o", "nim.toml", "--seed", "1"],
    )
    .ok();
    ok(&["classic", "import", "nim.toml"]);
    ok(&[
        "soluna",
        "new",
        "Lua",
        "--side",
        "a",
        "--mind",
        "2",
        "--hit-points",
        "3",
        "--melee",
        "2",
    ]);
    std::fs::write(
        dir.join("bear.toml"),
        "[[creature]]\nname = \"cave bear\"\npool = 2\nhit_points = 4\ndamage = 2\n",
    )
    .unwrap();
    // Added, removed and added again: the row the journal gives is the last one.
    ok(&["creature", "add", "bear.toml"]);
    ok(&["creature", "remove", "cave bear"]);
    ok(&["creature", "add", "bear.toml"]);
    let padding = "x".repeat(300);
    for i in 0..40 {
        ok(&["note", &format!("note {i} {padding}")]);
    }
    c
}

fn verify(dir: &Path, c: &Path) -> Run {
    bounded(
        dir,
        &["journal", "verify", "--campaign", c.to_str().unwrap()],
    )
}

/// A copy of the campaign to damage.
fn copy(c: &Path, name: &str) -> PathBuf {
    let to = c.with_file_name(name);
    std::fs::copy(c, &to).unwrap();
    to
}

fn fails(run: &Run, needle: &str) {
    assert_eq!(run.code, 1, "stdout: {} stderr: {}", run.stdout, run.stderr);
    let all = format!("{}{}", run.stdout, run.stderr);
    assert!(all.contains(needle), "expected {needle:?} in: {all}");
    assert!(run.stderr.contains("does not verify"), "{}", run.stderr);
}

#[test]
fn a_sound_campaign_verifies_with_every_sheet_compared() {
    let dir = tempfile::tempdir().unwrap();
    let c = campaign(dir.path());
    let run = verify(dir.path(), &c);
    assert_eq!(run.code, 0, "{} {}", run.stdout, run.stderr);
    assert!(run.stdout.contains(", 0 do not match"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("6 sheets compared with their journal, 0 differ; database integrity ok"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_file_cut_by_one_byte_does_not_verify() {
    let dir = tempfile::tempdir().unwrap();
    let c = campaign(dir.path());
    let cut = copy(&c, "cut.solum");
    let len = std::fs::metadata(&cut).unwrap().len();
    let f = std::fs::OpenOptions::new().write(true).open(&cut).unwrap();
    f.set_len(len - 1).unwrap();
    drop(f);
    let run = verify(dir.path(), &cut);
    fails(&run, "database");
    assert!(
        run.stdout.contains("database integrity FAILED"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_zeroed_index_page_does_not_verify() {
    let dir = tempfile::tempdir().unwrap();
    let c = campaign(dir.path());
    // The journal's own index, and the sheets' (which a journal-only check never reads).
    for index in ["journal_by_table", "sqlite_autoindex_sheets_1"] {
        let zeroed = copy(&c, &format!("{index}.solum"));
        // The index's page, found by its root page; the file's page size is in its header
        // (bytes 16–17, big-endian).
        let (root, page_size): (i64, i64) = {
            let db = rusqlite::Connection::open(&zeroed).unwrap();
            let root = db
                .query_row(
                    "SELECT rootpage FROM sqlite_schema WHERE type = 'index' AND name = ?1",
                    [index],
                    |r| r.get(0),
                )
                .unwrap();
            let size = db.query_row("PRAGMA page_size", [], |r| r.get(0)).unwrap();
            (root, size)
        };
        let mut bytes = std::fs::read(&zeroed).unwrap();
        assert_eq!(
            i64::from(u16::from_be_bytes([bytes[16], bytes[17]])),
            page_size
        );
        let start = usize::try_from((root - 1) * page_size).unwrap();
        let end = start + usize::try_from(page_size).unwrap();
        bytes[start..end].fill(0);
        std::fs::write(&zeroed, bytes).unwrap();
        let run = verify(dir.path(), &zeroed);
        fails(&run, "malformed");
        assert!(
            run.stdout.contains("database integrity FAILED"),
            "{index}: {}",
            run.stdout
        );
    }
}

#[test]
fn a_sheet_edited_in_the_database_does_not_verify() {
    let dir = tempfile::tempdir().unwrap();
    let c = campaign(dir.path());
    // One edit per system, each found by name and field.
    for (system, name, field, value) in [
        ("expanded", "Nick", "hit_points", "60"),
        ("sol", "Kyra", "name", "'Kyra'"),
        ("classic", "Nim", "body", "30"),
        ("dietype", "Ada", "name", "'Ada'"),
        ("soluna", "Lua", "hit_points", "9"),
        ("creature", "cave bear", "creature.damage", "9"),
    ] {
        let edited = copy(&c, &format!("{system}.solum"));
        let db = rusqlite::Connection::open(&edited).unwrap();
        let (path, value) = if field == "name" {
            // A field the sheet does not have.
            ("$.smuggled".to_owned(), "7")
        } else {
            (format!("$.{field}"), value)
        };
        let changed = db
            .execute(
                &format!(
                    "UPDATE sheets SET body = json_set(body, '{path}', {value}) WHERE system = ?1 AND name = ?2"
                ),
                [system, name],
            )
            .unwrap();
        assert_eq!(changed, 1, "{system} {name}");
        drop(db);
        let run = verify(dir.path(), &edited);
        fails(&run, &format!("sheet {system} {name}: "));
        let field = path.trim_start_matches("$.");
        assert!(
            run.stdout.contains(&format!("{field}: stored ")),
            "{system}: {}",
            run.stdout
        );
    }
    // A sheet no journal entry made.
    let planted = copy(&c, "planted.solum");
    let db = rusqlite::Connection::open(&planted).unwrap();
    db.execute(
        "INSERT INTO sheets (table_id, owner, system, name, name_key, schema, version, body)
         SELECT table_id, owner, system, 'Ghost', 'ghost', schema, version,
                json_set(body, '$.name', 'Ghost')
         FROM sheets WHERE name = 'Kyra'",
        [],
    )
    .unwrap();
    drop(db);
    let run = verify(dir.path(), &planted);
    fails(
        &run,
        "sheet sol Ghost: stored, but no journal entry made it",
    );
}

#[test]
fn a_sheet_deleted_from_the_database_does_not_verify_but_imported_entries_do() {
    let dir = tempfile::tempdir().unwrap();
    let c = campaign(dir.path());
    // One deleted row per system: the journal gives the sheet, the store lacks it.
    for (system, name) in [
        ("expanded", "Nick"),
        ("sol", "Kyra"),
        ("classic", "Nim"),
        ("dietype", "Ada"),
        ("soluna", "Lua"),
        ("creature", "cave bear"),
    ] {
        let deleted = copy(&c, &format!("deleted-{system}.solum"));
        let db = rusqlite::Connection::open(&deleted).unwrap();
        let rows = db
            .execute(
                "DELETE FROM sheets WHERE system = ?1 AND name = ?2",
                [system, name],
            )
            .unwrap();
        assert_eq!(rows, 1, "{system} {name}");
        drop(db);
        let run = verify(dir.path(), &deleted);
        fails(
            &run,
            &format!("sheet {system} {name}: the journal gives it (last by entry "),
        );
        assert!(run.stdout.contains("5 sheets compared"), "{}", run.stdout);
    }
    // `journal import` appends entries but stores no sheet (README): a campaign made by
    // importing the whole journal verifies, its sheets not reported as deleted.
    let export = bounded(
        dir.path(),
        &[
            "journal",
            "export",
            "--format",
            "json",
            "--campaign",
            c.to_str().unwrap(),
        ],
    );
    let file = dir.path().join("export.json");
    std::fs::write(&file, export.ok()).unwrap();
    let fresh = dir.path().join("fresh.solum");
    bounded(
        dir.path(),
        &[
            "journal",
            "import",
            file.to_str().unwrap(),
            "--campaign",
            fresh.to_str().unwrap(),
        ],
    )
    .ok();
    let run = verify(dir.path(), &fresh);
    assert_eq!(run.code, 0, "{} {}", run.stdout, run.stderr);
}

/// `journal verify --json` gives what differs as data: an entry's divergence by kind, part
/// and field with both values, and a stored sheet's differences field by field.
#[test]
fn what_does_not_verify_is_data_in_json() {
    let dir = tempfile::tempdir().unwrap();
    let c = campaign(dir.path());
    let damaged = copy(&c, "damaged.solum");
    let db = rusqlite::Connection::open(&damaged).unwrap();
    let (seq, hp): (i64, i64) = db
        .query_row(
            "SELECT seq, json_extract(body, '$.change.created.sheet.hit_points') FROM journal
             WHERE kind = 'character' AND json_extract(body, '$.name') = 'Nick'
             ORDER BY seq LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    db.execute_batch(&format!(
        "DROP TRIGGER journal_no_update;
         UPDATE journal SET body = json_set(body, '$.change.created.sheet.hit_points', {})
         WHERE seq = {seq};
         UPDATE sheets SET body = json_set(body, '$.mind', 9)
         WHERE system = 'expanded' AND name = 'Nick';",
        hp + 1
    ))
    .unwrap();
    drop(db);
    let run = bounded(
        dir.path(),
        &[
            "journal",
            "verify",
            "--json",
            "--campaign",
            damaged.to_str().unwrap(),
        ],
    );
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let entry = v["mismatches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["seq"] == seq)
        .unwrap_or_else(|| panic!("entry {seq} not listed: {v}"));
    assert_eq!(
        entry["divergence"],
        serde_json::json!({
            "kind": "within",
            "part": "the recorded sheet of Nick",
            "divergence": {"kind": "fields", "differences": [
                {"path": "sheet.hit_points", "recorded": hp + 1, "derived": hp}
            ]}
        }),
        "{v}"
    );
    assert_eq!(
        entry["reason"],
        format!(
            "the recorded sheet of Nick: sheet.hit_points: recorded {}, the dice give {hp}",
            hp + 1
        )
    );
    let sheet = v["sheet_mismatches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["system"] == "expanded" && m["name"] == "Nick")
        .unwrap_or_else(|| panic!("Nick's sheet not listed: {v}"));
    let differences = sheet["differences"].as_array().unwrap();
    assert!(
        differences.contains(&serde_json::json!({"path": "mind", "recorded": 9, "derived": 2})),
        "{sheet}"
    );
}
