//! The campaign use cases against a real SQLite file.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use solum_app::{AppError, Campaign, Dice, ErrorKind, JournalExport, Record};
use solum_dice::{DiceSource, SeededDice};
use solum_expanded::oracle::Leaning;
use solum_store_sqlite::SqliteStore;

fn campaign(dir: &tempfile::TempDir) -> Campaign<SqliteStore> {
    let store = SqliteStore::open(&dir.path().join("c.solum"), solum_store::Scope::HOME).unwrap();
    Campaign::new(store).with_clock(|| "2026-11-30T20:00:00Z".parse().unwrap())
}

#[test]
fn a_seeded_answer_is_the_table_read_from_the_seeds_faces() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = campaign(&dir);
    for seed in 0..50 {
        let view = c
            .ask("Are guards present?", Leaning::Even, Dice::Seed(seed))
            .unwrap();
        // Independent: the first face of the seed's stream read through the text's table.
        let face = SeededDice::new(seed).roll(6).unwrap();
        let table = ["No, and", "No", "No, but", "Yes, but", "Yes", "Yes, and"];
        assert_eq!(view.answer, table[face as usize - 1]);
        assert_eq!(view.seed, Some(seed));
        assert_eq!(view.event.is_some(), ![2, 5].contains(&face));
    }
}

#[test]
fn typed_dice_are_kept_as_typed_and_must_fit() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = campaign(&dir);
    let v = c
        .ask(
            "Is the door locked?",
            Leaning::Advantage,
            Dice::Typed(vec![2, 6, 6, 4]),
        )
        .unwrap();
    assert_eq!(
        (v.answer, v.die, v.typed, v.seed),
        ("Yes, and", 6, true, None)
    );
    assert_eq!(v.event.as_deref(), Some("A monster (not friendly)"));
    assert!((v.p_answer - 11.0 / 36.0).abs() < 1e-12);
    // Too many values: refused, and nothing journaled.
    let e = c
        .ask("Again?", Leaning::Even, Dice::Typed(vec![5, 3]))
        .unwrap_err();
    assert!(
        matches!(e, AppError::UnusedDice { given: 2, used: 1 }),
        "{e}"
    );
    assert_eq!(e.kind(), ErrorKind::BadInput);
    let e = c
        .ask("Again?", Leaning::Even, Dice::Typed(vec![7]))
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::BadInput);
    assert_eq!(c.entries().unwrap().len(), 1);
}

#[test]
fn empty_long_and_control_text_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = campaign(&dir);
    assert!(matches!(
        c.ask("   ", Leaning::Even, Dice::Seed(1)),
        Err(AppError::Empty("question"))
    ));
    let long = "?".repeat(solum_app::MAX_QUESTION + 1);
    assert!(matches!(
        c.ask(&long, Leaning::Even, Dice::Seed(1)),
        Err(AppError::TooLong { .. })
    ));
    assert!(matches!(
        c.note("clear \u{1b}[2J the screen"),
        Err(AppError::ControlCharacter("note"))
    ));
    assert!(c.note("two\nlines\tand a tab").is_ok());
    assert_eq!(c.entries().unwrap().len(), 1);
}

#[test]
fn windows_and_old_mac_line_ends_are_plain_line_breaks() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = campaign(&dir);
    // Pasted from Windows (CRLF) and from an old Mac (a lone CR): three lines each.
    c.note("one\r\ntwo\r\nthree\r\n").unwrap();
    c.note("one\rtwo\rthree").unwrap();
    let notes: Vec<String> = c
        .entries()
        .unwrap()
        .into_iter()
        .filter_map(|e| match e.record {
            Record::Note { text } => Some(text),
            _ => None,
        })
        .collect();
    assert_eq!(notes, ["one\ntwo\nthree", "one\ntwo\nthree"]);
    // A carriage return is still no way into a one-line field.
    assert!(matches!(
        c.ask("who\r\nis there?", Leaning::Even, Dice::Seed(1)),
        Err(AppError::ControlCharacter("question"))
    ));
}

#[test]
fn scenes_open_and_close() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = campaign(&dir);
    assert!(matches!(c.end_scene(None), Err(AppError::NoOpenScene)));
    c.start_scene("The tomb", Some("Find the idol")).unwrap();
    // A new scene ends the open one first.
    let two = c.start_scene("The escape", None).unwrap();
    assert!(matches!(two[0].record, Record::SceneEnd { .. }));
    c.end_scene(Some("Out alive")).unwrap();
    assert!(c.open_scene().unwrap().is_none());
    let kinds: Vec<_> = c
        .entries()
        .unwrap()
        .iter()
        .map(|e| e.record.kind())
        .collect();
    assert_eq!(
        kinds,
        ["scene-start", "scene-end", "scene-start", "scene-end"]
    );
}

#[test]
fn a_thousand_entries_verify_and_a_changed_one_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    let mut c = Campaign::new(SqliteStore::open(&path, solum_store::Scope::HOME).unwrap());
    for i in 0..1000_u64 {
        let leaning = [Leaning::Even, Leaning::Advantage, Leaning::Disadvantage][(i % 3) as usize];
        c.ask(&format!("Question {i}?"), leaning, Dice::Seed(i))
            .unwrap();
    }
    let report = c.verify().unwrap();
    assert_eq!((report.entries, report.rolls), (1000, 1000));
    assert!(report.mismatches.is_empty());
    drop(c);

    // Tamper with entry 500 behind solum's back (the append-only trigger must be dropped).
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute_batch(
        "DROP TRIGGER journal_no_update;
         UPDATE journal SET body = CASE json_extract(body, '$.outcome.die')
             WHEN 5 THEN json_set(body, '$.outcome.answer', 'no', '$.outcome.die', 2)
             ELSE json_set(body, '$.outcome.answer', 'yes', '$.outcome.die', 5) END
         WHERE seq = 500;",
    )
    .unwrap();
    drop(raw);
    let c = Campaign::new(SqliteStore::open(&path, solum_store::Scope::HOME).unwrap());
    let report = c.verify().unwrap();
    let seqs: Vec<_> = report.mismatches.iter().map(|m| m.seq).collect();
    assert_eq!(seqs, [500], "{:?}", report.mismatches);
}

#[test]
fn export_and_import_round_trip_and_tampered_imports_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = campaign(&dir);
    c.start_scene("Market", Some("Find a mark")).unwrap();
    c.ask("A wealthy patron?", Leaning::Disadvantage, Dice::Seed(9))
        .unwrap();
    c.ask("Distracted?", Leaning::Even, Dice::Typed(vec![4, 5, 2]))
        .unwrap();
    c.note("Nick slips into the crowd.").unwrap();
    let export = c.export().unwrap();
    let text = serde_json::to_string(&export).unwrap();

    let other = tempfile::tempdir().unwrap();
    let mut d = campaign(&other);
    let back: JournalExport = serde_json::from_str(&text).unwrap();
    assert_eq!(d.import(back).unwrap(), 4);
    let a: Vec<_> = c
        .entries()
        .unwrap()
        .into_iter()
        .map(|e| (e.at, e.record))
        .collect();
    let b: Vec<_> = d
        .entries()
        .unwrap()
        .into_iter()
        .map(|e| (e.at, e.record))
        .collect();
    assert_eq!(a, b);

    // An answer changed by hand does not re-derive from its seed: nothing is imported.
    let mut forged: JournalExport = serde_json::from_str(&text).unwrap();
    if let Record::Oracle { outcome, .. } = &mut forged.entries[1].record {
        outcome.die = if outcome.die == 6 { 1 } else { 6 };
        outcome.answer = solum_expanded::oracle::Answer::from_die(outcome.die).unwrap();
    }
    let e = d.import(forged).unwrap_err();
    assert!(
        matches!(e, AppError::ImportMismatch { index: 2, .. }),
        "{e}"
    );
    assert_eq!(e.code(), "import-mismatch");
    assert_eq!(d.entries().unwrap().len(), 4);
}

#[test]
fn markdown_tells_the_story_with_scenes_as_headings() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = campaign(&dir);
    c.start_scene("The <b>tower</b>", Some("Climb it")).unwrap();
    c.ask("Is the window open?", Leaning::Even, Dice::Typed(vec![5]))
        .unwrap();
    c.note("In through the window.").unwrap();
    let md = c.export_markdown("Nick's heist").unwrap();
    assert!(md.starts_with("# Nick's heist\n"));
    assert!(md.contains("## The \\<b\\>tower\\</b\\>"), "{md}");
    assert!(
        md.contains("> **Is the window open?** — *Yes* (d6: 5) `typed`"),
        "{md}"
    );
    assert!(md.contains("In through the window."));
}
