//! Dice notation rolled at the table: journaled with its seed or typed faces, re-derived by
//! `verify`, refused before any die when the expression is wrong.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use solum_app::{Campaign, Dice, ErrorKind, JournalExport, Record};
use solum_dice::{DiceSource, SeededDice};
use solum_store::Scope;

use solum_store_sqlite::SqliteStore;

fn campaign(dir: &tempfile::TempDir) -> Campaign<SqliteStore> {
    let store = SqliteStore::open(&dir.path().join("c.solum"), solum_store::Scope::HOME).unwrap();
    Campaign::new(store).with_clock(|| "2026-11-30T20:00:00Z".parse().unwrap())
}

#[test]
fn typed_faces_give_the_total_a_player_reads_off_the_dice() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = campaign(&dir);
    // 4d6kh3 with 6, 2, 5, 1: the three highest, 6 + 5 + 2 = 13.
    let v = c
        .roll_notation("4d6kh3", Dice::Typed(vec![6, 2, 5, 1]))
        .unwrap();
    assert_eq!(v.outcome.total, 13);
    assert!(v.typed && v.seed.is_none());
    assert_eq!(v.rolled.faces, [6, 2, 5, 1]);
    let dice = v.outcome.terms[0]["dice"].as_array().unwrap();
    assert_eq!(dice.len(), 4, "the dropped die is kept in the record");
    assert_eq!(dice.iter().filter(|d| d["kept"] == false).count(), 1);
    // 2d6 + 3 with 4 and 4: 11.
    let v = c
        .roll_notation(" 2d6 + 3 [fire] ", Dice::Typed(vec![4, 4]))
        .unwrap();
    assert_eq!(
        (v.outcome.total, v.expression.as_str()),
        (11, "2d6 + 3 [fire]")
    );
    let entries = c.entries().unwrap();
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[1].record.kind(), "notation");
}

#[test]
fn a_seeded_roll_is_the_seeds_faces_and_verify_re_derives_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = campaign(&dir);
    for seed in [1u64, 7, 2026] {
        let v = c.roll_notation("3d6", Dice::Seed(seed)).unwrap();
        // The same seed through the dice core alone: three d6 in order.
        let mut d = SeededDice::new(seed);
        let faces: Vec<u32> = (0..3).map(|_| d.roll(6).unwrap()).collect();
        assert_eq!(v.rolled.faces, faces);
        assert_eq!(
            v.outcome.total,
            faces.iter().map(|&f| i64::from(f)).sum::<i64>()
        );
        assert_eq!(v.seed, Some(seed));
    }
    // A fresh roll journals the seed the program chose.
    let fresh = c.roll_notation("1d20 + 1d4", Dice::Fresh).unwrap();
    assert!(fresh.seed.is_some());
    let report = c.verify().unwrap();
    assert_eq!((report.entries, report.rolls), (4, 4));
    assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);

    // A changed total in an export does not re-derive: the import is refused, naming it.
    let mut export = c.export().unwrap();
    if let Record::Notation(n) = &mut export.entries[0].record {
        n.outcome.total += 1;
    } else {
        panic!("not a notation entry");
    }
    let text = serde_json::to_string(&export).unwrap();
    let dir2 = tempfile::tempdir().unwrap();
    let err = campaign(&dir2)
        .import(JournalExport::from_json(&text).unwrap())
        .unwrap_err();
    assert!(err.to_string().contains("total"), "{err}");
    // The untouched export imports and verifies.
    let dir3 = tempfile::tempdir().unwrap();
    let mut c3 = campaign(&dir3);
    assert_eq!(c3.import(c.export().unwrap()).unwrap(), 4);
    assert!(c3.verify().unwrap().mismatches.is_empty());
}

#[test]
fn wrong_expressions_and_dice_are_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = campaign(&dir);
    let e = c.roll_notation("3d", Dice::Fresh).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::BadInput);
    // The same refusal as the odds of the expression: the notation's code, the field.
    assert_eq!(e.code(), "expression-notation", "{e}");
    assert_eq!(e.field().as_deref(), Some("expression"));
    assert!(e.to_string().ends_with("3d\n    ^"), "{e:?}");
    let e = c.roll_notation("   ", Dice::Fresh).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::BadInput);
    assert_eq!(e.code(), "expression-text");
    let long = "1d6+".repeat(60) + "1";
    let e = c.roll_notation(&long, Dice::Fresh).unwrap_err();
    assert_eq!(e.code(), "expression-text");
    assert!(e.to_string().contains("the limit is 200"), "{e}");
    let e = c.roll_notation("2d6\u{7}", Dice::Fresh).unwrap_err();
    assert_eq!(e.code(), "expression-text");
    assert_eq!(e.field().as_deref(), Some("expression"));
    // A 7 on a d6, too few faces, too many.
    for faces in [vec![7, 1], vec![3], vec![1, 2, 3]] {
        let e = c.roll_notation("2d6", Dice::Typed(faces)).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::BadInput, "{e}");
    }
    // Past the notation's limits: refused before any die.
    assert_eq!(
        c.roll_notation("100000d6", Dice::Fresh).unwrap_err().kind(),
        ErrorKind::BadInput
    );
    assert!(c.entries().unwrap().is_empty());
}

#[test]
fn a_game_masters_secret_roll_is_marked_and_hidden_from_players() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    let mut home = SqliteStore::open(&path, solum_store::Scope::HOME).unwrap();
    use solum_store::TableStore;
    let gm = home
        .create_table(
            "T",
            "Ada",
            "ada",
            "s1",
            "2026-11-30T20:00:00Z".parse().unwrap(),
        )
        .unwrap();
    let scope = Scope::member(gm.table, gm.id, true);
    let mut secret = Campaign::new(SqliteStore::open(&path, scope.secret()).unwrap());
    let v = secret.roll_notation("1d100", Dice::Seed(5)).unwrap();
    let mut public = Campaign::new(SqliteStore::open(&path, scope).unwrap());
    public.roll_notation("1d4", Dice::Seed(5)).unwrap();
    let seen = public.entries().unwrap();
    assert_eq!(
        seen.iter().map(|e| (e.seq, e.secret)).collect::<Vec<_>>(),
        [(v.seq.unwrap(), true), (v.seq.unwrap() + 1, false)]
    );
    let player =
        Campaign::new(SqliteStore::open(&path, Scope::member(gm.table, gm.id + 1, false)).unwrap());
    let theirs = player.entries().unwrap();
    assert_eq!(theirs.len(), 1);
    assert!(!theirs[0].secret);
}

#[test]
fn the_journal_keeps_the_faces_not_the_terms_and_a_roll_too_big_to_keep_is_refused_first() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = campaign(&dir);
    // Over the entry limit when the per-term view was journaled (80168 bytes): kept now.
    let v = c.roll_notation("1000d2!", Dice::Seed(11)).unwrap();
    assert!(v.rolled.faces.len() >= 1000);
    assert!(v.outcome.terms.is_array());
    let entries = c.entries().unwrap();
    let Record::Notation(n) = &entries[0].record else {
        panic!("not a notation entry");
    };
    assert!(n.outcome.terms.is_null(), "the terms are not journaled");
    assert_eq!(n.outcome.total, v.outcome.total);
    // A small roll is shown again with the same terms the roll gave; a big one with its
    // total and faces only.
    let small = c.roll_notation("4d6kh3 + 2", Dice::Seed(4)).unwrap();
    let entries = c.entries().unwrap();
    let shown = |i: usize| match entries[i].clone().for_display().record {
        Record::Notation(n) => n,
        _ => panic!("not a notation entry"),
    };
    assert!(shown(0).outcome.terms.is_null());
    assert_eq!(shown(1).outcome.terms, small.outcome.terms);
    assert!(small.outcome.terms.is_array());
    assert!(c.verify().unwrap().mismatches.is_empty());
    // A roll whose worst case cannot be journaled is refused before any die: whatever the
    // seed, the same answer, naming the field, and nothing journaled.
    for seed in [1u64, 2, 3] {
        let e = c
            .roll_notation("1000d1000r<500!", Dice::Seed(seed))
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::BadInput);
        assert_eq!(e.code(), "expression-journal-limit");
        assert_eq!(e.field().as_deref(), Some("expression"));
        assert!(e.to_string().contains("too many to journal"), "{e}");
    }
    assert_eq!(c.entries().unwrap().len(), 2);
}
