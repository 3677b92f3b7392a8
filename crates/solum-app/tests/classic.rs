//! The original So1um's heroes and fights in a campaign, against a real SQLite file.
//! Expected values come from the rules text (C1, C2, C3) worked by hand from the dice given,
//! never from the code's own output.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use solum_app::classic::{ClassicChange, FightSetup, StoredHero};
use solum_app::classic_once::ClassicDifficulty;
use solum_app::{AppError, Campaign, Dice, ErrorKind, Record};
use solum_classic::Hero;
use solum_classic::duel::Policy;
use solum_classic::fight::{Loss, Who};
use solum_classic::hero::Stat;
use solum_store_sqlite::SqliteStore;

fn open(path: &std::path::Path) -> Campaign<SqliteStore> {
    Campaign::new(SqliteStore::open(path, solum_store::Scope::HOME).unwrap())
        .with_clock(|| "2026-11-30T20:00:00Z".parse().unwrap())
}

/// Ada: Body 2, Mind 1, Spirit 3, 3 hit points (Body 2 + one even die of 2d6).
const ADA: &str = r#"
name = "Ada"
body = 2
mind = 1
spirit = 3
hit_points = 3
cliches = ["Brave to a fault"]
"#;

/// A foe of Body 1 and 2 hit points: one die.
fn rat() -> StoredHero {
    StoredHero(Hero {
        name: "Giant rat".into(),
        body: 1,
        mind: 1,
        spirit: 1,
        hit_points: 2,
        cliches: vec![],
        max_body: None,
        max_hit_points: None,
        gear: vec![],
        notes: String::new(),
        combat_stat: None,
        rest_toward_hit_point: 0.0,
        rest_toward_body: 0.0,
    })
}

fn setup(policy: Option<Policy>) -> FightSetup {
    FightSetup {
        foes: vec![rat()],
        stat: None,
        foe_stat: None,
        cliche: false,
        foe_cliche: false,
        policy,
        foe_policy: Policy::Survive,
    }
}

#[test]
fn creation_counts_even_dice_and_is_journaled() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    let mut c = open(&path);
    // Body 2,4,5 (two even); Mind 1,3,5 (none: 1); Spirit 6,6,6 (3); hit points 2,3: Body 2
    // + 1; clichés 4,4: 1 + 2 = 3 allowed.
    let v = c
        .create_classic_hero(
            "Nim",
            &["Sticky fingers".to_owned()],
            Dice::Typed(vec![2, 4, 5, 1, 3, 5, 6, 6, 6, 2, 3, 4, 4]),
        )
        .unwrap();
    let h = &v.sheet.hero;
    assert_eq!((h.body, h.mind, h.spirit, h.hit_points), (2, 1, 3, 3));
    assert_eq!(h.cliches, vec!["Sticky fingers".to_owned()]);
    // Seeded: the same seed makes the same hero in another campaign.
    let mut c2 = open(&dir.path().join("d.solum"));
    let a = c.create_classic_hero("Ola", &[], Dice::Seed(7)).unwrap();
    let b = c2.create_classic_hero("Ola", &[], Dice::Seed(7)).unwrap();
    assert_eq!(a.sheet.hero, b.sheet.hero);
    // A name taken (any case) and more clichés than 2d6 can ever allow (4: refused before
    // any die, so no value is typed) are refused, nothing stored.
    let before = c.entries().unwrap().len();
    assert!(c.create_classic_hero("nim", &[], Dice::Seed(1)).is_err());
    let e = c
        .create_classic_hero(
            "Pip",
            &["a".into(), "b".into(), "c".into(), "d".into()],
            Dice::Typed(vec![]),
        )
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::BadInput);
    assert!(e.to_string().contains("at most 3"), "{e}");
    assert_eq!(c.entries().unwrap().len(), before);
    let names: Vec<String> = c
        .classic_heroes()
        .unwrap()
        .into_iter()
        .map(|v| v.hero.name)
        .collect();
    assert_eq!(names, ["Nim", "Ola"]);
    let report = c.verify().unwrap();
    assert_eq!((report.entries, report.rolls), (2, 2));
    assert!(report.mismatches.is_empty());
}

#[test]
fn import_export_round_trip_and_rest_accumulates_across_processes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    let wounded = ADA.replace("hit_points = 3", "hit_points = 1\nmax_hit_points = 3");
    open(&path).import_classic_hero(&wounded).unwrap();
    let text = open(&path).export_classic_hero("ada").unwrap();
    let back = solum_classic::hero::parse_hero(&text, solum_classic::hero::Kind::Hero).unwrap();
    assert_eq!(back.hit_points, 1);
    assert_eq!(back.full_hit_points(), 3);
    // C2: 8 hours a hit point. 5 hours heal nothing and are banked on the sheet.
    let v = open(&path).rest_classic_hero("Ada", 5.0).unwrap();
    assert_eq!(v.healed, Some([0, 0]));
    assert_eq!(v.sheet.hero.rest_toward_hit_point, 5.0);
    // Another process: 3.5 more hours make 8.5: one hit point, half an hour banked.
    let v = open(&path).rest_classic_hero("Ada", 3.5).unwrap();
    assert_eq!(v.healed, Some([1, 0]));
    assert_eq!(v.sheet.hero.hit_points, 2);
    assert_eq!(v.sheet.hero.rest_toward_hit_point, 0.5);
    let e = open(&path).rest_classic_hero("Ada", -1.0).unwrap_err();
    assert!(e.to_string().contains("hours"), "{e}");
    // A hero over the creation limits is refused on import.
    let e = open(&path)
        .import_classic_hero(
            &ADA.replace("name = \"Ada\"", "name = \"Bo\"")
                .replace("spirit = 3", "spirit = 4"),
        )
        .unwrap_err();
    assert!(e.to_string().contains("spirit"), "{e}");
    assert!(open(&path).verify().unwrap().mismatches.is_empty());
}

#[test]
fn a_check_from_the_sheet_uses_stat_and_cliche() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    let mut c = open(&path);
    c.import_classic_hero(ADA).unwrap();
    // Body 2 + the cliché: three dice against 4; 1, 4, 2: the 4 passes.
    let v = c
        .check_classic_hero(
            "ada",
            Stat::Body,
            Some("brave"),
            Some(ClassicDifficulty::new(4).unwrap()),
            None,
            Dice::Typed(vec![1, 4, 2]),
        )
        .unwrap();
    assert_eq!(v.inputs.pool, 3);
    assert_eq!(v.inputs.cliche.as_deref(), Some("Brave to a fault"));
    assert!(v.check.passed);
    // Three dice against 4: 1 − (1/2)³ = 7/8.
    assert!((v.p_pass - 0.875).abs() < 1e-12);
    // Random difficulty: the d6 first (5), then Spirit's three dice: 4, 4, 3 fail.
    let v = c
        .check_classic_hero(
            "ada",
            Stat::Spirit,
            None,
            None,
            None,
            Dice::Typed(vec![5, 4, 4, 3]),
        )
        .unwrap();
    assert_eq!(v.check.difficulty, 5);
    assert!(!v.check.passed);
    let e = c
        .check_classic_hero(
            "ada",
            Stat::Body,
            Some("sneaky"),
            Some(ClassicDifficulty::new(4).unwrap()),
            None,
            Dice::Seed(1),
        )
        .unwrap_err();
    assert!(e.to_string().contains("cliché"), "{e}");
    assert_eq!(c.verify().unwrap().rolls, 2);
}

/// The fight worked by hand (C2, C3). Ada: Body 2 (two dice), 3 hit points; the rat: one
/// die, Body 1, 2 hit points, taking hit points (its Body cannot spare one).
/// 1. Ada 1 2, rat 5: Ada is hit; she gives up Body (2 → 1: one die from now on).
/// 2. Ada 6, rat 3: the rat loses a hit point (1 left).
/// 3. Ada 4, rat 4: a tie.
/// 4. Ada 2, rat 3: Ada is hit; she gives up a hit point (2 left).
/// 5. Ada 5, rat 1: the rat is dead. Ada ends with Body 1 and 2 hit points.
const CALL_1: [u32; 3] = [1, 2, 5];
const CALL_2: [u32; 6] = [6, 3, 4, 4, 2, 3];
const CALL_3: [u32; 2] = [5, 1];

#[test]
fn a_fight_left_at_a_decision_resumes_in_another_process_like_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    open(&path).import_classic_hero(ADA).unwrap();
    let v = open(&path)
        .start_classic_fight("Ada", &setup(None), Dice::Typed(CALL_1.to_vec()))
        .unwrap();
    let d = v.status.pending.expect("Ada is hit and must choose");
    assert_eq!((d.who, d.body, d.hit_points), (Who::Hero, 2, 3));
    assert!(!v.status.over);
    assert!(open(&path).classic_hero("ada").unwrap().in_fight);
    // While the fight waits: no rest, no second fight, no rolling past the decision.
    assert!(open(&path).rest_classic_hero("Ada", 8.0).is_err());
    assert!(
        open(&path)
            .start_classic_fight("Ada", &setup(None), Dice::Seed(3))
            .is_err()
    );
    let e = open(&path)
        .continue_classic_fight("Ada", None, Dice::Seed(3))
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("decide whether the hit costs body or a hit point"),
        "{e}"
    );
    // A second process answers and rolls on to the next hit.
    let v = open(&path)
        .continue_classic_fight("ada", Some(Loss::Body), Dice::Typed(CALL_2.to_vec()))
        .unwrap();
    assert_eq!(v.status.hero, [1, 3]);
    assert_eq!(v.status.foes, vec![[1, 1]]);
    assert!(v.status.pending.is_some());
    // The sheet is untouched until the end.
    assert_eq!(open(&path).classic_hero("ada").unwrap().hero.body, 2);
    // A third process ends it.
    let resumed = open(&path)
        .continue_classic_fight("Ada", Some(Loss::HitPoint), Dice::Typed(CALL_3.to_vec()))
        .unwrap();
    assert!(resumed.status.over && resumed.status.hero_won);
    assert_eq!(resumed.status.hero, [1, 2]);
    assert_eq!(resumed.status.foes, vec![[1, 0]]);
    let sheet = open(&path).classic_hero("Ada").unwrap();
    assert_eq!((sheet.hero.body, sheet.hero.hit_points), (1, 2));
    assert_eq!(
        (sheet.hero.full_body(), sheet.hero.full_hit_points()),
        (2, 3)
    );
    assert!(!sheet.in_fight);

    // The same fight in one go, in another campaign: the policy "body" (Body while above 1)
    // makes the two choices the player made, and the dice are the same.
    let other = dir.path().join("d.solum");
    open(&other).import_classic_hero(ADA).unwrap();
    let all: Vec<u32> = CALL_1
        .iter()
        .chain(&CALL_2)
        .chain(&CALL_3)
        .copied()
        .collect();
    let one_go = open(&other)
        .start_classic_fight("Ada", &setup(Some(Policy::Body)), Dice::Typed(all))
        .unwrap();
    assert!(one_go.status.over);
    assert_eq!(one_go.status, resumed.status);
    assert_eq!(open(&other).classic_hero("Ada").unwrap().hero, sheet.hero);
    // Every call is journaled, and verify re-derives each from its dice.
    let report = open(&path).verify().unwrap();
    assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
    assert_eq!((report.entries, report.rolls), (4, 3));
    // Over: a new fight may begin.
    open(&path)
        .start_classic_fight("Ada", &setup(Some(Policy::Survive)), Dice::Seed(11))
        .unwrap();
}

#[test]
fn a_seeded_policy_fight_runs_to_the_end_in_one_call_and_replays() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    let mut c = open(&path);
    c.import_classic_hero(ADA).unwrap();
    let v = c
        .start_classic_fight("Ada", &setup(Some(Policy::Survive)), Dice::Seed(42))
        .unwrap();
    assert!(v.status.over);
    // Whoever died, the sheet holds the fight's end.
    let h = c.classic_hero("Ada").unwrap().hero;
    assert_eq!([h.body, h.hit_points], v.status.hero);
    // One die fewer than a round needs is refused, with nothing stored.
    open(&path)
        .import_classic_hero(&ADA.replace("Ada", "Bea"))
        .unwrap();
    let n = open(&path).entries().unwrap().len();
    let e = open(&path)
        .start_classic_fight("Bea", &setup(None), Dice::Typed(vec![1, 2]))
        .unwrap_err();
    assert!(matches!(e, AppError::Dice(_)), "{e}");
    assert_eq!(open(&path).entries().unwrap().len(), n);
    // Typed dice that end at an exchange leave the fight waiting for more dice: Bea's 1 2
    // against the rat's 1: the rat loses a hit point.
    let v = open(&path)
        .start_classic_fight("Bea", &setup(None), Dice::Typed(vec![1, 2, 1]))
        .unwrap();
    assert!(!v.status.over && v.status.pending.is_none());
    assert_eq!(v.status.foes, vec![[1, 1]]);
    let v = open(&path)
        .continue_classic_fight("Bea", None, Dice::Typed(vec![6, 1, 1]))
        .unwrap();
    assert!(v.status.hero_won);
    assert!(open(&path).verify().unwrap().mismatches.is_empty());
}

#[test]
fn verify_names_a_changed_classic_record() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    open(&path).import_classic_hero(ADA).unwrap();
    open(&path)
        .start_classic_fight("Ada", &setup(None), Dice::Typed(CALL_1.to_vec()))
        .unwrap();
    open(&path)
        .check_classic_hero(
            "Ada",
            Stat::Body,
            None,
            Some(ClassicDifficulty::new(4).unwrap()),
            None,
            Dice::Typed(vec![1, 4]),
        )
        .unwrap();
    let entries = open(&path).entries().unwrap();
    assert!(matches!(
        &entries[1].record,
        Record::Classic(r) if matches!(r.change, ClassicChange::Fight(_))
    ));
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute_batch(
        "DROP TRIGGER journal_no_update;
         UPDATE journal SET body = json_set(body, '$.change.fight.status.hero[0]', 1) WHERE seq = 2;
         UPDATE journal SET body = json_set(body, '$.change.check.check.passed', json('false')) WHERE seq = 3;",
    )
    .unwrap();
    drop(raw);
    let report = open(&path).verify().unwrap();
    let seqs: Vec<i64> = report.mismatches.iter().map(|m| m.seq).collect();
    assert_eq!(seqs, [2, 3]);
}

#[test]
fn a_second_process_sees_the_fight_as_the_first_left_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    open(&path).import_classic_hero(ADA).unwrap();
    open(&path)
        .start_classic_fight("Ada", &setup(None), Dice::Typed(CALL_1.to_vec()))
        .unwrap();
    // Both processes are open before either answers; the first plays the fight to its end.
    let (mut first, mut second) = (open(&path), open(&path));
    first
        .continue_classic_fight("Ada", Some(Loss::Body), Dice::Typed(CALL_2.to_vec()))
        .unwrap();
    first
        .continue_classic_fight("Ada", Some(Loss::HitPoint), Dice::Typed(CALL_3.to_vec()))
        .unwrap();
    // The second reads the campaign, not what it saw when it opened: no fight is waiting,
    // and its answer stores nothing.
    let n = second.entries().unwrap().len();
    let e = second
        .continue_classic_fight("Ada", Some(Loss::HitPoint), Dice::Seed(1))
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::BadInput);
    assert!(e.to_string().contains("not in a fight"), "{e}");
    assert_eq!(second.entries().unwrap().len(), n);
    let h = second.classic_hero("Ada").unwrap().hero;
    assert_eq!((h.body, h.hit_points), (1, 2));
}

/// A fight kept whole within the store's entry limit: a call that would leave no room to
/// abandon it is refused, and abandoning still works (the fight is never stuck).
#[test]
fn a_fight_too_long_to_keep_is_refused_and_can_still_be_abandoned() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    let mut c = open(&path);
    // Long notes make the sheet, kept twice in an ending record, weigh.
    let notes = "é".repeat(3_900);
    c.import_classic_hero(&format!(
        "name = \"Al\"\nbody = 2\nmind = 1\nspirit = 1\nhit_points = 4\nnotes = \"{notes}\"\n"
    ))
    .unwrap();
    let setup = FightSetup {
        foes: vec![solum_app::classic::book_foe("troll").unwrap()],
        stat: None,
        foe_stat: None,
        cliche: false,
        foe_cliche: false,
        policy: Some(Policy::Survive),
        foe_policy: Policy::Survive,
    };
    // Ties only (every die a 1): nobody is hurt, the fight goes on call after call.
    c.start_classic_fight("Al", &setup, Dice::Typed(vec![1; 6]))
        .unwrap();
    let mut refused = None;
    for _ in 0..2_000 {
        match c.continue_classic_fight("Al", None, Dice::Typed(vec![1; 6])) {
            Ok(_) => {}
            Err(e) => {
                refused = Some(e.to_string());
                break;
            }
        }
    }
    let refused = refused.expect("a limit is reached");
    assert!(refused.contains("abandon it"), "{refused}");
    let v = c.abandon_classic_fight("Al", None).unwrap();
    assert!(v.status.abandoned && v.status.over);
    assert_eq!(v.status.hero, [2, 4]);
    assert_eq!(c.verify().unwrap().mismatches.len(), 0);
}

#[test]
fn a_heroes_notes_are_written_anew_and_journaled() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    c.import_classic_hero(ADA).unwrap();
    let v = c
        .edit_classic_notes("ada", "Owes the ferryman a silver piece")
        .unwrap();
    assert_eq!(v.sheet.hero.notes, "Owes the ferryman a silver piece");
    assert_eq!(
        c.classic_hero("Ada").unwrap().hero.notes,
        "Owes the ferryman a silver piece"
    );
    // The same notes again change nothing: refused naming the field, nothing journaled.
    let e = c
        .edit_classic_notes("Ada", "Owes the ferryman a silver piece")
        .unwrap_err();
    assert_eq!(
        (e.code(), e.field().as_deref()),
        ("edit-changes-nothing", Some("notes"))
    );
    // Past the limit (4,000 characters): refused, naming the field.
    let e = c.edit_classic_notes("Ada", &"x".repeat(4_001)).unwrap_err();
    assert_eq!(e.field().as_deref(), Some("notes"), "{e}");
    // Cleared; the journal holds the import and two notes changes, and re-derives.
    c.edit_classic_notes("Ada", "").unwrap();
    let report = c.verify().unwrap();
    assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
    assert_eq!(report.entries, 3);
}
