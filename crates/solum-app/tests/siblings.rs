//! Sol'una and die-type characters in a campaign, against a real SQLite file. Expected
//! values are worked by hand from the dice given and the texts (U4, D1, D2), or the text's
//! printed tables.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use solum_app::dietype::{Against, DietypeEdit, DietypeRoll};
use solum_app::dietype_once::{Chances, DieSteps, Difficulty};
use solum_app::soluna::{SolunaEdit, SolunaFieldChange, SolunaValue};
use solum_app::soluna_once::Flips;
use solum_app::{Campaign, Dice, ErrorKind};
use solum_dietype::DieType;
use solum_dietype::sheet::Weapon;
use solum_soluna::skirmish::Character;
use solum_store_sqlite::SqliteStore;

fn open(path: &std::path::Path) -> Campaign<SqliteStore> {
    Campaign::new(SqliteStore::open(path, solum_store::Scope::HOME).unwrap())
        .with_clock(|| "2026-11-30T20:00:00Z".parse().unwrap())
}

fn shooter(name: &str, side: &str, ranged: u32, hit_points: u32) -> Character {
    Character {
        name: name.into(),
        side: side.into(),
        mind: 1,
        body: 0,
        shield: 0,
        hit_points,
        melee: 0,
        ranged,
        flips: 0,
        guard: 0,
        flips_per_test: 1,
        extra_dice: 0,
        dice_guard: 0,
        dice_per_test: 1,
    }
}

#[test]
fn soluna_characters_are_kept_and_fight_skirmishes_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    let mut c = open(&path);
    let v = c
        .create_soluna_character(&shooter("Vex", "red", 2, 2))
        .unwrap();
    // U4: Mind 1 acts once a turn, in phase ⌈10·1/1⌉ = 10.
    assert_eq!(v.characters[0].phases, vec![10]);
    c.import_soluna_characters(
        "[[character]]\nname = \"Oro\"\nside = \"blue\"\nmind = 1\nbody = 0\nhit_points = 2\nranged = 1\n",
    )
    .unwrap();
    // A character without an attack is refused, naming the field; nothing stored.
    let mut bad = shooter("Nul", "red", 0, 1);
    bad.melee = 0;
    let e = c.create_soluna_character(&bad).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::BadInput);
    assert!(e.to_string().contains("melee"), "{e}");
    let names: Vec<String> = c
        .soluna_characters()
        .unwrap()
        .into_iter()
        .map(|v| v.character.name)
        .collect();
    assert_eq!(names, ["Oro", "Vex"]);
    // Turn 1, phase 10: both shoot at once. Vex's 3 3 is a pair: 2 damage, Oro (2 hit
    // points, no armour) is out; Oro's 5 alone: 1 damage, Vex keeps 1. Red wins.
    let s = open(&path)
        .soluna_skirmish(&["vex".into(), "oro".into()], Dice::Typed(vec![3, 3, 5]))
        .unwrap();
    assert_eq!(s.end.winner.as_deref(), Some("red"));
    assert_eq!((s.end.turns, s.end.hit_points.clone()), (1, vec![1, 0]));
    // The sheets are what each brings to the next skirmish: unchanged.
    assert_eq!(c.soluna_character("Oro").unwrap().character.hit_points, 2);
    // Export is a skirmish file that imports again elsewhere.
    let text = c.export_soluna_characters(&[]).unwrap();
    let other = dir.path().join("d.solum");
    assert_eq!(
        open(&other)
            .import_soluna_characters(&text)
            .unwrap()
            .characters
            .len(),
        2
    );
    assert!(
        c.soluna_skirmish(&["Vex".into(), "Vex".into()], Dice::Seed(1))
            .is_err()
    );
    let report = c.verify().unwrap();
    assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
    assert_eq!((report.entries, report.rolls), (3, 1));
}

#[test]
fn a_sheet_outside_the_skirmish_is_edited_while_it_is_played() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    for (name, side) in [("Vex", "red"), ("Oro", "blue"), ("Kip", "red")] {
        c.create_soluna_character(&shooter(name, side, 2, 2))
            .unwrap();
    }
    c.start_soluna_skirmish(&["Vex".into(), "Oro".into()], &[], Dice::Seed(1))
        .unwrap();
    // Kip is not in it: his sheet changes (3 hit points instead of 2).
    let v = c
        .edit_soluna_character("Kip", &SolunaEdit::whole(&shooter("Kip", "red", 2, 3)))
        .unwrap();
    assert_eq!(v.characters[0].character.hit_points, 3);
    // Vex is: refused, naming the path's character (`name`), nothing written.
    let e = c
        .edit_soluna_character("vex", &SolunaEdit::whole(&shooter("Vex", "red", 2, 3)))
        .unwrap_err();
    assert_eq!(e.code(), "soluna-skirmish-under-way", "{e}");
    assert_eq!(e.field().as_deref(), Some("name"), "{e}");
    assert_eq!(c.soluna_character("Vex").unwrap().character.hit_points, 2);
    // A refusal about the skirmish itself names no field of the request.
    c.abandon_soluna_skirmish().unwrap();
    let e = c.go_soluna_skirmish(Dice::Seed(1)).unwrap_err();
    assert_eq!(e.code(), "soluna-no-skirmish", "{e}");
    assert_eq!(e.field(), None, "{e}");
    assert!(!e.to_string().starts_with(':'), "{e}");
    // An edit that changes nothing names the whole edit, as every system's does.
    let e = c
        .edit_soluna_character("Kip", &SolunaEdit::whole(&shooter("Kip", "red", 2, 3)))
        .unwrap_err();
    assert_eq!(
        (e.code(), e.field().as_deref()),
        ("edit-changes-nothing", Some("edit"))
    );
}

fn aria_fill() -> DietypeEdit {
    DietypeEdit {
        abilities: vec![("Agility".into(), DieType::D8)],
        skills: vec![("Swords".into(), 2)],
        weapons: vec![(
            "Dagger".into(),
            Weapon {
                die: DieType::D4,
                modifier: 1,
            },
        )],
        ..Default::default()
    }
}

fn roll(ability: &str, skill: Option<&str>, against: Against, weapon: Option<&str>) -> DietypeRoll {
    DietypeRoll {
        ability: ability.into(),
        skill: skill.map(Into::into),
        step: DieSteps::default(),
        against,
        weapon: weapon.map(Into::into),
        damage_step: DieSteps::default(),
    }
}

#[test]
fn dietype_rolls_take_die_and_chances_from_the_sheet() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    let mut c = open(&path);
    c.create_dietype_character("Aria", &aria_fill()).unwrap();
    // Agility d8, Swords two chances, against 4. Chance 1: 8 explodes into 3 and 2 = 5 ✓;
    // chance 2: 1 ✗. Quality 1: one d4 of the dagger, 3 + 1 = 4 damage.
    let v = open(&path)
        .roll_dietype_character(
            "aria",
            &roll(
                "agility",
                Some("swords"),
                Against::Difficulty(Difficulty::new(4).unwrap()),
                Some("dagger"),
            ),
            Dice::Typed(vec![8, 3, 2, 1, 3]),
        )
        .unwrap();
    assert_eq!((v.inputs.die, v.inputs.chances), (DieType::D8, 2));
    assert_eq!(v.inputs.roll.skill.as_deref(), Some("Swords"));
    assert!(v.result.success);
    assert_eq!(v.result.quality, 1);
    assert_eq!(v.result.damage.as_ref().unwrap().total, 4);
    // D1 by hand: an exploding d8 ends at 1, 2 or 3 directly (1/8 each) or by an 8 whose
    // two new dice sum to it: P(1) = 1/8, P(2) = 1/8 + P(1)²/8, P(3) = 1/8 + 2·P(1)·P(2)/8.
    // Two chances fail only when both end below 4. (The text prints 86%.)
    let p1 = 1.0 / 8.0;
    let p2 = 1.0 / 8.0 + p1 * p1 / 8.0;
    let p3 = 1.0 / 8.0 + 2.0 * p1 * p2 / 8.0;
    let below = p1 + p2 + p3;
    assert!(
        (v.p_success - (1.0 - below * below)).abs() < 1e-12,
        "{}",
        v.p_success
    );
    // Opposed, unskilled, one step down (d6) against a d6: 5 against 3, a win of quality 1.
    let mut r = roll(
        "Agility",
        None,
        Against::Opposed {
            die: DieType::D6,
            chances: Chances::new(1).unwrap(),
            step: DieSteps::default(),
        },
        None,
    );
    r.step = DieSteps::new(-1).unwrap();
    let v = c
        .roll_dietype_character("Aria", &r, Dice::Typed(vec![5, 3]))
        .unwrap();
    assert_eq!(v.inputs.die, DieType::D6);
    assert!(v.result.success && v.result.quality == 1);
    // What the sheet does not have is refused, naming it.
    let e = c
        .roll_dietype_character(
            "Aria",
            &roll(
                "Agility",
                Some("Bows"),
                Against::Difficulty(Difficulty::new(4).unwrap()),
                None,
            ),
            Dice::Seed(1),
        )
        .unwrap_err();
    assert!(e.to_string().contains("Bows"), "{e}");
    // A difficulty past 12 or chances past 4 make no roll: the request is refused as it is
    // read, in the numbers' own words.
    for (against, words) in [
        (
            r#"{"difficulty": 13}"#,
            "difficulties run from 2 (trivial) to 12 (divine)",
        ),
        (
            r#"{"opposed": {"die": "d6", "chances": 5, "step": 0}}"#,
            "a roll has 1 to 4 chances",
        ),
    ] {
        let body = format!(
            r#"{{"ability": "Agility", "skill": null, "step": 0, "against": {against}, "weapon": null, "damage_step": 0}}"#
        );
        let e = serde_json::from_str::<DietypeRoll>(&body).unwrap_err();
        assert!(e.to_string().starts_with(words), "{e}");
    }
    // Edits: a new ability, the skill up to three chances, the dagger gone; 5 chances refused.
    let v = c
        .edit_dietype_character(
            "Aria",
            &DietypeEdit {
                abilities: vec![("Strength".into(), DieType::D6)],
                skills: vec![("swords".into(), 3)],
                remove_weapons: vec!["DAGGER".into()],
                ..Default::default()
            },
        )
        .unwrap();
    assert_eq!(v.sheet.sheet.skills["Swords"], 3);
    assert!(v.sheet.sheet.weapons.is_empty());
    assert_eq!(v.sheet.version, 2);
    let e = c
        .edit_dietype_character(
            "Aria",
            &DietypeEdit {
                skills: vec![("Swords".into(), 5)],
                ..Default::default()
            },
        )
        .unwrap_err();
    assert!(e.to_string().contains("skills.Swords"), "{e}");
    // An edit that changes nothing is refused, not journaled (the hostile tester's `{}`).
    let e = c
        .edit_dietype_character("Aria", &DietypeEdit::default())
        .unwrap_err();
    assert_eq!(e.code(), "edit-changes-nothing", "{e}");
    // Export and import elsewhere.
    let text = c.export_dietype_character("aria").unwrap();
    let other = dir.path().join("d.solum");
    let back = open(&other).import_dietype_character(&text).unwrap();
    assert_eq!(back.sheet.sheet, c.dietype_character("Aria").unwrap().sheet);
    let report = c.verify().unwrap();
    assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
    assert_eq!((report.entries, report.rolls), (4, 2));
}

#[test]
fn verify_names_changed_soluna_and_dietype_records() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    let mut c = open(&path);
    c.create_soluna_character(&shooter("Vex", "red", 2, 2))
        .unwrap();
    c.create_soluna_character(&shooter("Oro", "blue", 1, 2))
        .unwrap();
    c.soluna_skirmish(&["Vex".into(), "Oro".into()], Dice::Typed(vec![3, 3, 5]))
        .unwrap();
    c.create_dietype_character("Aria", &aria_fill()).unwrap();
    c.roll_dietype_character(
        "Aria",
        &roll(
            "Agility",
            None,
            Against::Difficulty(Difficulty::new(4).unwrap()),
            None,
        ),
        Dice::Typed(vec![5]),
    )
    .unwrap();
    drop(c);
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute_batch(
        "DROP TRIGGER journal_no_update;
         UPDATE journal SET body = json_set(body, '$.change.skirmish.end.winner', 'blue') WHERE seq = 3;
         UPDATE journal SET body = json_set(body, '$.change.roll.result.success', json('false')) WHERE seq = 5;",
    )
    .unwrap();
    drop(raw);
    let seqs: Vec<i64> = open(&path)
        .verify()
        .unwrap()
        .mismatches
        .iter()
        .map(|m| m.seq)
        .collect();
    assert_eq!(seqs, [3, 5]);
}

/// A Sol'una test from a sheet (U2): the text's Corona example, 4 2 6 3 6 with one net flip
/// (three positive against two negative): the 4 turns to a 6, three 6s.
#[test]
fn a_soluna_test_rolls_the_attack_dice_with_the_flips_and_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    let mut c = open(&path);
    let mut csen = shooter("Csen", "sun", 0, 3);
    csen.melee = 5;
    csen.flips = 3;
    csen.flips_per_test = 3;
    c.create_soluna_character(&csen).unwrap();
    let req = solum_app::soluna::SolunaTest {
        attack: solum_app::soluna::SolunaAttack::Melee,
        flips: Flips::new(3).unwrap(),
        against: Flips::new(2).unwrap(),
        target: Some(solum_app::soluna::TargetNumber::new(3).unwrap()),
    };
    let v = c
        .soluna_test("csen", &req, Dice::Typed(vec![4, 2, 6, 3, 6]))
        .unwrap();
    assert_eq!((v.result.largest, v.result.face), (3, 6));
    assert_eq!(v.result.flips, vec![[0, 4, 6]]);
    assert_eq!(v.result.passed, Some(true));
    // The sheet is as it was; the roll verifies; a seeded one too.
    assert_eq!(c.soluna_character("Csen").unwrap().character.flips, 3);
    c.soluna_test("Csen", &req, Dice::Seed(11)).unwrap();
    let report = c.verify().unwrap();
    assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
    assert_eq!(report.rolls, 2);
    // More flips than the sheet has: refused, nothing journaled.
    let before = c.entries().unwrap().len();
    let greedy = solum_app::soluna::SolunaTest {
        flips: Flips::new(4).unwrap(),
        ..req.clone()
    };
    let e = c.soluna_test("Csen", &greedy, Dice::Fresh).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::BadInput);
    assert!(e.to_string().contains("flips"), "{e}");
    let ranged = solum_app::soluna::SolunaTest {
        attack: solum_app::soluna::SolunaAttack::Ranged,
        ..req
    };
    assert!(c.soluna_test("Csen", &ranged, Dice::Fresh).is_err());
    assert_eq!(c.entries().unwrap().len(), before);
}

/// A played skirmish (U5) resumes in a campaign opened again, writes the sheets at its end,
/// and `verify` re-derives each call: a changed skirmish after a call is named.
#[test]
fn a_played_skirmish_resumes_writes_the_sheets_and_verifies() {
    use solum_app::soluna::{SkirmishAct, SkirmishAction};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    let mut c = open(&path);
    c.create_soluna_character(&shooter("Vex", "red", 2, 2))
        .unwrap();
    c.create_soluna_character(&shooter("Oro", "blue", 1, 2))
        .unwrap();
    let v = c
        .start_soluna_skirmish(&["Vex".into(), "Oro".into()], &[], Dice::Seed(1))
        .unwrap();
    // Both Mind 1: phase 10 of turn 1 waits for both (U4).
    assert_eq!((v.state.skirmish.turn, v.state.skirmish.phase), (1, 10));
    assert_eq!(v.state.waiting, ["Vex", "Oro"]);
    let shoot = |target: &str| SkirmishAct {
        action: SkirmishAction::Attack,
        target: target.into(),
        ranged: false,
        flips: 0,
        dice: 0,
    };
    let v = c
        .act_soluna_skirmish("Oro", &shoot("Vex"), Dice::Seed(1))
        .unwrap();
    assert!(v.events.is_empty(), "nothing rolls before Vex decides");
    drop(c);
    let mut c = open(&path);
    // Vex's 3 3: a pair, 2 damage, Oro (2) is out; Oro's 5: 1 damage, Vex keeps 1.
    let v = c
        .act_soluna_skirmish("vex", &shoot("oro"), Dice::Typed(vec![3, 3, 5]))
        .unwrap();
    let over = v.state.skirmish.over.clone().unwrap();
    assert_eq!(over.winner.as_deref(), Some("red"));
    assert_eq!(c.soluna_character("Vex").unwrap().character.hit_points, 1);
    assert_eq!(c.soluna_character("Oro").unwrap().character.hit_points, 0);
    let report = c.verify().unwrap();
    assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
    let last = v.seq;
    drop(c);
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute_batch(&format!(
        "DROP TRIGGER journal_no_update;
         UPDATE journal SET body = json_set(body, '$.change.played.after.characters[0].hit_points', 2) WHERE seq = {last};"
    ))
    .unwrap();
    drop(raw);
    let seqs: Vec<i64> = open(&path)
        .verify()
        .unwrap()
        .mismatches
        .iter()
        .map(|m| m.seq)
        .collect();
    assert_eq!(seqs, [last]);
}

/// `verify` follows a played skirmish from call to call: a call whose skirmish before is not
/// the one the call before left is named, even when the call itself re-derives.
#[test]
fn verify_follows_a_played_skirmish_from_call_to_call() {
    use solum_app::soluna::{SkirmishAct, SkirmishAction};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    let mut c = open(&path);
    c.create_soluna_character(&shooter("Vex", "red", 2, 3))
        .unwrap();
    c.create_soluna_character(&shooter("Oro", "blue", 1, 3))
        .unwrap();
    c.start_soluna_skirmish(&["Vex".into(), "Oro".into()], &[], Dice::Seed(1))
        .unwrap();
    let act = |target: &str| SkirmishAct {
        action: SkirmishAction::Move,
        target: target.into(),
        ranged: false,
        flips: 0,
        dice: 0,
    };
    c.act_soluna_skirmish("Oro", &act("Vex"), Dice::Seed(1))
        .unwrap();
    let v = c
        .act_soluna_skirmish("Vex", &act("Oro"), Dice::Seed(1))
        .unwrap();
    assert_eq!(v.state.skirmish.turn, 2);
    assert!(c.verify().unwrap().mismatches.is_empty());
    drop(c);
    // Entry 4 (Oro's move) now claims a skirmish before it in which Oro has 9 hit points,
    // and after it the same: it re-derives alone, but entry 3 left Oro with 3.
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute_batch(
        "DROP TRIGGER journal_no_update;
         UPDATE journal SET body = json_set(body,
             '$.change.played.step.before.characters[1].hit_points', 9,
             '$.change.played.after.characters[1].hit_points', 9) WHERE seq = 4;",
    )
    .unwrap();
    drop(raw);
    let seqs: Vec<i64> = open(&path)
        .verify()
        .unwrap()
        .mismatches
        .iter()
        .map(|m| m.seq)
        .collect();
    assert_eq!(seqs, [4, 5]);
}

/// A Sol'una sheet changed by hand: every field but the name, checked as a creation is,
/// journaled with the sheet before, and the stored sheet re-derived from the journal.
#[test]
fn a_soluna_sheet_is_edited_whole_and_verify_follows_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    c.create_soluna_character(&shooter("Vex", "red", 2, 2))
        .unwrap();
    // Mind 2: two actions a turn, in phases 5 and 10 (U4: ceil(10·i/m)).
    let mut after = shooter("vex", "blue", 3, 4);
    after.mind = 2;
    after.shield = 1;
    let v = c
        .edit_soluna_character("Vex", &SolunaEdit::whole(&after))
        .unwrap();
    let now = &v.characters[0];
    assert_eq!(now.character.name, "Vex", "the name is kept as stored");
    assert_eq!(
        (
            &now.character.side[..],
            now.character.ranged,
            now.character.hit_points
        ),
        ("blue", 3, 4)
    );
    assert_eq!(now.phases, [5, 10]);
    assert_eq!(now.version, 2);
    // The same sheet again changes nothing: refused, nothing journaled.
    let same = c
        .edit_soluna_character("Vex", &SolunaEdit::whole(&now.character))
        .unwrap_err();
    assert_eq!(same.kind(), ErrorKind::BadInput, "{same}");
    // A rename, or a sheet a creation would refuse (no attack), is refused naming the field.
    let renamed = c
        .edit_soluna_character("Vex", &SolunaEdit::whole(&shooter("Oro", "red", 2, 2)))
        .unwrap_err();
    assert_eq!(renamed.kind(), ErrorKind::BadInput, "{renamed}");
    assert!(renamed.to_string().contains("name"), "{renamed}");
    let unarmed = c
        .edit_soluna_character("Vex", &SolunaEdit::whole(&shooter("Vex", "red", 0, 2)))
        .unwrap_err();
    assert_eq!(unarmed.kind(), ErrorKind::BadInput, "{unarmed}");
    // The journal re-derives the stored sheet.
    let report = c.verify().unwrap();
    assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
    assert!(
        report.sheet_mismatches.is_empty(),
        "{:?}",
        report.sheet_mismatches
    );
    assert_eq!(report.entries, 2);
}

/// A Sol'una sheet changed field by field (what `solum soluna edit` asks): the fields given
/// are set, the others kept, and the answer names each field that changed, before and after.
#[test]
fn a_soluna_sheet_is_edited_field_by_field_and_the_answer_names_what_changed() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    // Mind 1, two ranged dice, 2 hit points, side red.
    c.create_soluna_character(&shooter("Vex", "red", 2, 2))
        .unwrap();
    let edit = SolunaEdit {
        side: Some("blue".into()),
        mind: Some(2),
        hit_points: Some(5),
        ..SolunaEdit::default()
    };
    let v = c.edit_soluna_character("vex", &edit).unwrap();
    let now = &v.characters[0];
    let mut expected = shooter("Vex", "blue", 2, 5);
    expected.mind = 2;
    assert_eq!(now.character, expected);
    // Mind 2: phases 5 and 10 (U4: ceil(10·i/m)).
    assert_eq!(now.phases, [5, 10]);
    assert_eq!(now.version, 2);
    let change = |field: &str, before: SolunaValue, after: SolunaValue| SolunaFieldChange {
        field: field.into(),
        before,
        after,
    };
    use SolunaValue::{Number, Text};
    assert_eq!(
        v.changed,
        [
            change("side", Text("red".into()), Text("blue".into())),
            change("mind", Number(1), Number(2)),
            change("hit_points", Number(2), Number(5)),
        ]
    );
    // A field given as it is stored is not a change.
    let v = c
        .edit_soluna_character(
            "Vex",
            &SolunaEdit {
                ranged: Some(2),
                hit_points: Some(4),
                ..SolunaEdit::default()
            },
        )
        .unwrap();
    assert_eq!(v.changed, [change("hit_points", Number(5), Number(4))]);
    // Nothing to change, a value the rules refuse (Mind 11 is past the phase table), supplies
    // a cap contradicts, an unknown name: refused with their codes and fields, nothing kept.
    let e = c
        .edit_soluna_character("Vex", &SolunaEdit::default())
        .unwrap_err();
    assert_eq!(
        (e.code(), e.field().as_deref()),
        ("edit-changes-nothing", Some("edit"))
    );
    let e = c
        .edit_soluna_character(
            "Vex",
            &SolunaEdit {
                mind: Some(11),
                ..SolunaEdit::default()
            },
        )
        .unwrap_err();
    assert_eq!(
        (e.code(), e.field().as_deref()),
        ("soluna-sheet-invalid", Some("mind"))
    );
    let e = c
        .edit_soluna_character(
            "Vex",
            &SolunaEdit {
                flips_per_test: Some(3),
                ..SolunaEdit::default()
            },
        )
        .unwrap_err();
    assert_eq!(
        (e.code(), e.field().as_deref()),
        ("soluna-sheet-invalid", Some("flips_per_test"))
    );
    let e = c
        .edit_soluna_character(
            "Nobody",
            &SolunaEdit {
                mind: Some(2),
                ..SolunaEdit::default()
            },
        )
        .unwrap_err();
    assert_eq!(e.code(), "character-unknown", "{e}");
    let stored = c.soluna_character("Vex").unwrap();
    assert_eq!((stored.character.hit_points, stored.version), (4, 3));
    // The journal re-derives the stored sheet.
    let report = c.verify().unwrap();
    assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
    assert!(
        report.sheet_mismatches.is_empty(),
        "{:?}",
        report.sheet_mismatches
    );
    assert_eq!(report.entries, 3);
}
