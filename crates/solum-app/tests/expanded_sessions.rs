//! So1um Expanded characters across sessions (issue 22): advancement points (S17), banked
//! rest (S16), the player's gear-reroll choice (S1) and the roll-off setting (S3, S14).
//! Expected values are worked out by hand from the rules text and the rulings.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use solum_app::characters::{Against, GearDie};
use solum_app::{AdvanceGoal, AppError, Campaign, CharacterCheck, CharacterEdit, Dice};
use solum_expanded::character::Attribute;
use solum_store::CampaignStore;

use solum_store_sqlite::SqliteStore;

fn open(path: &std::path::Path) -> Campaign<SqliteStore> {
    Campaign::new(SqliteStore::open(path, solum_store::Scope::HOME).unwrap())
        .with_clock(|| "2026-12-01T20:00:00Z".parse().unwrap())
}

/// Nick: Body 3, Mind 2, Charm 1, two backgrounds, no armor (5 hit points), thieves' tools.
const NICK_SHEET: &str = r#"
schema = 1
name = "Nick"
body = 3
mind = 2
charm = 1
backgrounds = ["Acrobat Thief", "Quick-Witted Rogue"]
hit_points = 5
weapons = [{ name = "dagger", class = "light" }]
gear = [{ name = "thieves' tools", effect = "reroll" }]
"#;

fn check(attribute: Attribute, against: Against) -> CharacterCheck {
    CharacterCheck {
        attribute,
        background: None,
        weapon: None,
        gear: None,
        gear_die: GearDie::Best,
        against,
        roll_off: false,
    }
}

#[test]
fn an_advancement_needs_a_point_and_spends_it_whether_it_works_or_not() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    let mut c = open(&path);
    c.import_character(NICK_SHEET).unwrap();
    let mind = AdvanceGoal::Attribute(Attribute::Mind);
    let entries = c.store().entry_count().unwrap();
    // No point: refused, nothing rolled (the typed die stays unused), nothing journaled.
    let e = c
        .advance_character("Nick", &mind, Dice::Typed(vec![2, 4]))
        .unwrap_err();
    assert!(
        matches!(&e, AppError::Expanded(r) if r.field == "advancement_points"),
        "{e}"
    );
    assert_eq!(c.store().entry_count().unwrap(), entries);
    // The GM (the command line's owner) grants one: journaled, on the sheet.
    let v = c.grant_advancement_point("Nick").unwrap();
    assert_eq!(v.sheet.advancement_points, 1);
    // Mind 2: two dice, 2 and 3 are not all even: the point is spent, Mind stays 2.
    let v = c
        .advance_character("Nick", &mind, Dice::Typed(vec![2, 3]))
        .unwrap();
    assert_eq!(v.success, Some(false));
    assert_eq!((v.sheet.character.mind, v.sheet.advancement_points), (2, 0));
    // Retried at once: refused ("only another chance at the next advancement point").
    assert!(
        c.advance_character("Nick", &mind, Dice::Typed(vec![2, 4]))
            .is_err()
    );
    // The next point: 6 and 4 are all even: Mind 3, 6 hit points of 6 (Body 3 + Mind 3).
    c.grant_advancement_point("Nick").unwrap();
    let v = c
        .advance_character("Nick", &mind, Dice::Typed(vec![6, 4]))
        .unwrap();
    assert_eq!(v.success, Some(true));
    assert_eq!((v.sheet.character.mind, v.sheet.advancement_points), (3, 0));
    assert_eq!(
        (v.sheet.character.hit_points, v.sheet.max_hit_points),
        (6, 6)
    );
    // A seeded attempt at a new point replays from its seed.
    c.grant_advancement_point("Nick").unwrap();
    c.advance_character(
        "Nick",
        &AdvanceGoal::Background("Tower Climber".into()),
        Dice::Seed(7),
    )
    .unwrap();
    let report = c.verify().unwrap();
    assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
    // Import, grant three points, three attempts: 1 + 3 + 3 entries.
    assert_eq!(report.entries, 7);
    // A changed grant is found by verify.
    drop(c);
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute_batch(
        "DROP TRIGGER journal_no_update;
         UPDATE journal SET body = json_set(body, '$.change.point-granted.after.advancement_points', 2)
         WHERE seq = 2;",
    )
    .unwrap();
    drop(raw);
    let report = open(&path).verify().unwrap();
    let seqs: Vec<_> = report.mismatches.iter().map(|m| m.seq).collect();
    assert_eq!(seqs, [2], "{:?}", report.mismatches);
}

#[test]
fn attributes_and_backgrounds_change_only_by_advancement_or_a_gm_correction() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    c.import_character(NICK_SHEET).unwrap();
    for (edit, field) in [
        (
            CharacterEdit {
                set: vec![(Attribute::Body, 4)],
                ..CharacterEdit::default()
            },
            "set",
        ),
        (
            CharacterEdit {
                add_backgrounds: vec!["Tower Climber".into()],
                ..CharacterEdit::default()
            },
            "add_backgrounds",
        ),
        (
            CharacterEdit {
                remove_backgrounds: vec!["Acrobat Thief".into()],
                ..CharacterEdit::default()
            },
            "remove_backgrounds",
        ),
    ] {
        let e = c.edit_character("Nick", &edit).unwrap_err();
        assert!(
            matches!(&e, AppError::Expanded(r) if r.field == field),
            "{e}"
        );
    }
    assert_eq!(c.character("Nick").unwrap().character.body, 3);
    // A correction by the GM is allowed, and marked in the journal's story.
    let v = c
        .edit_character(
            "Nick",
            &CharacterEdit {
                set: vec![(Attribute::Body, 4)],
                correction: true,
                ..CharacterEdit::default()
            },
        )
        .unwrap();
    assert_eq!(v.sheet.character.body, 4);
    let story = c.export_markdown("Nick").unwrap();
    assert!(
        story.contains("GM correction of Nick's sheet: body 3→4"),
        "{story}"
    );
    assert!(c.verify().unwrap().mismatches.is_empty());
}

#[test]
fn two_quarter_hour_rests_heal_one_hit_point() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    c.import_character(&NICK_SHEET.replace("hit_points = 5", "hit_points = 2"))
        .unwrap();
    let v = c.rest_character("Nick", 0.25).unwrap();
    assert_eq!(v.healed, Some(0));
    assert_eq!(
        (v.sheet.character.hit_points, v.sheet.rest_minutes),
        (2, 15)
    );
    let v = c.rest_character("Nick", 0.25).unwrap();
    assert_eq!(v.healed, Some(1));
    assert_eq!((v.sheet.character.hit_points, v.sheet.rest_minutes), (3, 0));
    // 1.75 hours: three half hours heal 3 but only 2 are missing: 5 of 5, nothing banked.
    let v = c.rest_character("Nick", 1.75).unwrap();
    assert_eq!(v.healed, Some(2));
    assert_eq!((v.sheet.character.hit_points, v.sheet.rest_minutes), (5, 0));
    let report = c.verify().unwrap();
    assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
}

#[test]
fn the_player_names_the_die_the_gear_rerolled() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    c.import_character(NICK_SHEET).unwrap();
    // The lock: Mind 2 + Quick-Witted Rogue = 3 dice against 5; 4, 4, 3. Nick rerolls the
    // first 4 (not the lowest die) and gets a 5: passed.
    let lock = CharacterCheck {
        background: Some("Quick-Witted Rogue".into()),
        gear: Some("thieves' tools".into()),
        gear_die: GearDie::Die(1),
        ..check(Attribute::Mind, Against::Difficulty(vs(5)))
    };
    let v = c
        .check_from_character("Nick", &lock, Dice::Typed(vec![4, 4, 3, 5]))
        .unwrap();
    assert_eq!(v.result.own.as_ref().unwrap().reroll, Some([0, 4, 5]));
    assert!(v.result.passed);
    // Declining the reroll: the odds are the pool's without gear, 1 - (4/6)^3 = 19/27.
    let keep = CharacterCheck {
        gear_die: GearDie::Skip,
        ..lock.clone()
    };
    let v = c
        .check_from_character("Nick", &keep, Dice::Typed(vec![4, 4, 3]))
        .unwrap();
    assert_eq!(v.odds.pass_exact, "19/27");
    assert!(!v.result.passed);
    // The best choice (the default): like one more die, 1 - (4/6)^4 = 65/81.
    let best = CharacterCheck {
        gear_die: GearDie::Best,
        ..lock.clone()
    };
    let v = c
        .check_from_character("Nick", &best, Dice::Typed(vec![4, 4, 3, 4]))
        .unwrap();
    assert_eq!(v.odds.pass_exact, "65/81");
    assert_eq!(v.result.own.as_ref().unwrap().reroll, Some([2, 3, 4]));
    // A die the pool does not have: refused before any roll.
    let e = c
        .check_from_character(
            "Nick",
            &CharacterCheck {
                gear_die: GearDie::Die(4),
                ..lock
            },
            Dice::Typed(vec![4, 4, 3, 5]),
        )
        .unwrap_err();
    assert!(
        matches!(&e, AppError::Expanded(r) if r.field == "gear_die"),
        "{e}"
    );
    let report = c.verify().unwrap();
    assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
}

#[test]
fn the_campaigns_roll_off_setting_settles_draws_of_checks_and_their_odds() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    c.import_character(NICK_SHEET).unwrap();
    let duel = check(
        Attribute::Charm,
        Against::Opposed {
            dice: pool(1),
            gear: false,
        },
    );
    assert!(!c.roll_off().unwrap());
    // Draws stand: 4 against 4 is a draw.
    let v = c
        .check_from_character("Nick", &duel, Dice::Typed(vec![4, 4]))
        .unwrap();
    assert_eq!(v.result.verdict.as_deref(), Some("draw"));
    c.set_roll_off(true).unwrap();
    assert!(c.roll_off().unwrap());
    // Rolled off: 4 against 4, then 3 against 3, then 5 against 2: Nick wins.
    let v = c
        .check_from_character("Nick", &duel, Dice::Typed(vec![4, 4, 3, 3, 5, 2]))
        .unwrap();
    assert_eq!(v.result.verdict.as_deref(), Some("win"));
    assert_eq!(v.result.roll_off, [[3, 3], [5, 2]]);
    assert!(v.inputs.roll_off);
    // One die against one die, draws rolled off: even odds by symmetry, no draw.
    assert_eq!(v.odds.pass_exact, "1/2");
    assert_eq!(v.odds.draw, Some(0.0));
    let report = c.verify().unwrap();
    assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
}

#[test]
fn a_combat_started_with_the_roll_off_setting_on_rolls_off() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    let v = c.start_combat(Some("before"), false).unwrap();
    assert!(!v.roll_off);
    c.end_combat().unwrap();
    // S14: the table's option holds for the tracker's opposed rolls too.
    c.set_roll_off(true).unwrap();
    let v = c.start_combat(Some("after"), false).unwrap();
    assert!(v.roll_off);
}

/// A difficulty of the texts' range.
fn vs(n: i64) -> solum_expanded::Difficulty {
    solum_expanded::Difficulty::new(n).unwrap()
}

/// An opposition of this many dice.
fn pool(n: u32) -> solum_app::check_once::CombatPool {
    solum_app::check_once::CombatPool::new(n).unwrap()
}
