//! So1um Expanded characters in a campaign, against a real SQLite file. Expected values come
//! from the rules text (S1, S8, S9) and independent arithmetic, never from the code's output.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use solum_app::characters::{Against, CharacterChange, CheckInputs};
use solum_app::{
    AdvanceGoal, AppError, ArmorChange, Campaign, CharacterCheck, CharacterEdit, Dice, ErrorKind,
    NewCharacter, Record,
};
use solum_dice::{DiceSource, SeededDice};
use solum_expanded::character::{Armor, Attribute, Class, Gear, GearEffect, Weapon};
use solum_store::CampaignStore;

use solum_store_sqlite::SqliteStore;

fn open(path: &std::path::Path) -> Campaign<SqliteStore> {
    Campaign::new(SqliteStore::open(path, solum_store::Scope::HOME).unwrap())
        .with_clock(|| "2026-11-30T20:00:00Z".parse().unwrap())
}

/// An attribute as a hero starts it.
fn at(n: u32) -> solum_app::characters::StartingAttribute {
    solum_app::characters::StartingAttribute::new(n).unwrap()
}

fn nick() -> NewCharacter {
    NewCharacter {
        name: "Nick".into(),
        body: at(3),
        mind: at(2),
        charm: at(1),
        backgrounds: vec!["Acrobat Thief".into()],
        weapon: Weapon::melee("dagger", Class::Light),
        armor_name: "leather jacket".into(),
    }
}

/// Nick of the text: Body 3, Mind 2, the backgrounds of the tower, the initiative and the
/// lock, and the mastercrafted thieves' tools.
const NICK_SHEET: &str = r#"
schema = 1
name = "Nick"
body = 3
mind = 2
charm = 1
backgrounds = ["Acrobat Thief", "Quick-Witted Rogue"]
hit_points = 5
weapons = [{ name = "dagger", class = "light" }]
gear = [{ name = "thieves' tools", effect = "reroll" }, { name = "rope", effect = "enables" }]
"#;

fn journal_len(c: &Campaign<SqliteStore>) -> u64 {
    c.store().entry_count().unwrap()
}

#[test]
fn creation_by_the_rules_with_typed_and_seeded_dice() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    // 2d6 4 and 5: one even die, one extra background; d6 2: even, light armor (S9).
    let mut choices = nick();
    choices.backgrounds.push("Quick-Witted Rogue".into());
    let v = c
        .create_character(&choices, Dice::Typed(vec![4, 5, 2]))
        .unwrap();
    let hero = &v.sheet.character;
    assert_eq!(hero.backgrounds, ["Acrobat Thief", "Quick-Witted Rogue"]);
    assert_eq!(hero.unnamed_backgrounds, 0);
    assert_eq!(hero.armor.as_ref().unwrap().class, Class::Light);
    // Body 3 + Mind 2 + light armor 1 (S8).
    assert_eq!((hero.hit_points, v.sheet.max_hit_points), (6, 6));
    assert_eq!(v.rolled.as_ref().unwrap().faces, [4, 5, 2]);
    assert_eq!(v.sheet.version, 1);

    // A seeded hero: the backgrounds allowed and the armor read from the seed's own faces.
    for seed in 0..20 {
        let mut choices = nick();
        choices.name = format!("Seed {seed}");
        let mut d = SeededDice::new(seed);
        let f = [d.roll(6).unwrap(), d.roll(6).unwrap(), d.roll(6).unwrap()];
        let v = c.create_character(&choices, Dice::Seed(seed)).unwrap();
        let h = &v.sheet.character;
        let extra = f[..2].iter().filter(|x| x.is_multiple_of(2)).count() as u32;
        assert_eq!(h.unnamed_backgrounds, extra, "seed {seed}");
        assert_eq!(h.armor.is_some(), f[2].is_multiple_of(2), "seed {seed}");
        assert_eq!(h.hit_points, 5 + u32::from(f[2].is_multiple_of(2)));
    }
    let report = c.verify().unwrap();
    assert_eq!((report.entries, report.rolls), (21, 21));
    assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
}

/// S9: 1 + the even dice of 2d6 backgrounds. Three named against 1 and 3 (no even die):
/// the hero is made with the first, the roll is journaled and verifies, and the sheet's
/// notes name the two not taken; the dice are never rolled again for it.
#[test]
fn backgrounds_named_beyond_the_roll_are_left_off_and_the_roll_stands() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    let mut choices = nick();
    choices.backgrounds = vec!["Acrobat Thief".into(), "Sailor".into(), "Pilot".into()];
    let v = c
        .create_character(&choices, Dice::Typed(vec![1, 3, 2]))
        .unwrap();
    let hero = &v.sheet.character;
    assert_eq!(hero.backgrounds, ["Acrobat Thief"]);
    assert_eq!(hero.unnamed_backgrounds, 0);
    assert_eq!(
        hero.notes,
        "Not taken at creation (the 2d6 1 and 3 allow 1): Sailor, Pilot."
    );
    assert_eq!(v.rolled.as_ref().unwrap().faces, [1, 3, 2]);
    // Sent again: the name is taken, nothing is rolled.
    assert!(
        c.create_character(&choices, Dice::Typed(vec![2, 4, 2]))
            .is_err()
    );
    assert_eq!(journal_len(&c), 1);
    let report = c.verify().unwrap();
    assert_eq!((report.entries, report.rolls), (1, 1));
    assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
}

#[test]
fn creation_that_breaks_a_rule_stores_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    // A 3/3/1 spread: the rule speaks before the dice, even with dice typed.
    let mut bad = nick();
    bad.mind = at(3);
    let e = c
        .create_character(&bad, Dice::Typed(vec![4, 5, 2]))
        .unwrap_err();
    assert!(
        matches!(&e, AppError::Expanded(r) if r.field == "attributes"),
        "{e}"
    );
    assert_eq!(e.kind(), ErrorKind::BadInput);
    // Four backgrounds named: more than 2d6 can ever allow, refused before any die (no
    // value typed is asked for), so sending it again rolls nothing.
    let mut many = nick();
    many.backgrounds = vec!["a".into(), "b".into(), "c".into(), "d".into()];
    let e = c.create_character(&many, Dice::Typed(vec![])).unwrap_err();
    assert!(e.to_string().contains("at most 3"), "{e}");
    // Four values where the rule draws three.
    let e = c
        .create_character(&nick(), Dice::Typed(vec![1, 3, 2, 6]))
        .unwrap_err();
    assert!(
        matches!(e, AppError::UnusedDice { given: 4, used: 3 }),
        "{e}"
    );
    assert!(c.characters().unwrap().is_empty());
    assert_eq!(journal_len(&c), 0);
    // The same name twice, in another case: refused, and the first kept.
    c.create_character(&nick(), Dice::Typed(vec![1, 1, 1]))
        .unwrap();
    let mut again = nick();
    again.name = "NICK".into();
    let e = c
        .create_character(&again, Dice::Typed(vec![2, 2, 2]))
        .unwrap_err();
    assert!(
        matches!(
            &e,
            AppError::Store(solum_store::StoreError::NameTaken { .. })
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("already exists"), "{e}");
    assert_eq!(e.kind(), ErrorKind::BadInput);
    assert_eq!(journal_len(&c), 1);
}

#[test]
fn characters_are_found_by_name_and_listed() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    let mut osric = nick();
    osric.name = "Osric the Conqueror".into();
    (osric.body, osric.mind, osric.charm) = (at(3), at(1), at(2));
    c.create_character(&osric, Dice::Typed(vec![1, 1, 1]))
        .unwrap();
    c.create_character(&nick(), Dice::Typed(vec![1, 1, 1]))
        .unwrap();
    let names: Vec<_> = c
        .characters()
        .unwrap()
        .into_iter()
        .map(|v| v.character.name)
        .collect();
    assert_eq!(names, ["Nick", "Osric the Conqueror"]);
    assert_eq!(c.character("  nICK ").unwrap().character.body, 3);
    let e = c.character("Bruno").unwrap_err();
    assert!(matches!(e, AppError::NoSuchCharacter(_)), "{e}");
    assert_eq!(e.kind(), ErrorKind::BadInput);
}

#[test]
fn edits_follow_the_rules_and_a_failed_edit_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    c.import_character(NICK_SHEET).unwrap();
    // Medium chainmail: +2 armor hit points, 5 → 7 of 7 (Body 3 + Mind 2 + 2).
    let v = c
        .edit_character(
            "nick",
            &CharacterEdit {
                add_backgrounds: vec!["Tower Climber".into()],
                add_weapons: vec![Weapon::melee("great axe", Class::Heavy)],
                armor: Some(ArmorChange::Wear(Armor {
                    name: "chainmail".into(),
                    class: Class::Medium,
                })),
                add_gear: vec![Gear {
                    name: "lantern".into(),
                    effect: GearEffect::Enables,
                }],
                damage: Some(3),
                // A third background is a GM correction (S17).
                correction: true,
                ..CharacterEdit::default()
            },
        )
        .unwrap();
    assert_eq!(
        (v.sheet.character.hit_points, v.sheet.max_hit_points),
        (4, 7)
    );
    assert_eq!(v.sheet.character.backgrounds.len(), 3);
    assert_eq!(v.sheet.version, 2);
    // Mind 2 → 1: the maximum falls by one and so do the hit points; a heal stops at 6.
    let v = c
        .edit_character(
            "Nick",
            &CharacterEdit {
                set: vec![(Attribute::Mind, 1)],
                remove_weapons: vec!["GREAT AXE".into()],
                armor: Some(ArmorChange::TakeOff),
                heal: Some(100),
                correction: true,
                ..CharacterEdit::default()
            },
        )
        .unwrap();
    assert_eq!(
        (v.sheet.character.hit_points, v.sheet.max_hit_points),
        (4, 4)
    );
    assert_eq!(v.sheet.character.weapons.len(), 1);
    // The journal says what each correction changed, field by field (S17: marked as one).
    let lines: Vec<String> = c
        .entries()
        .unwrap()
        .iter()
        .skip(1)
        .map(|e| e.record.line())
        .collect();
    assert_eq!(
        lines,
        [
            "GM correction of Nick's sheet: hit points 5→4, backgrounds [Acrobat Thief, \
             Quick-Witted Rogue] → [Acrobat Thief, Quick-Witted Rogue, Tower Climber], \
             + weapon great axe, + gear lantern, armor none → chainmail",
            "GM correction of Nick's sheet: mind 2→1, − weapon great axe, armor chainmail → none",
        ]
    );

    let before = c.character("Nick").unwrap();
    let entries = journal_len(&c);
    for (edit, field) in [
        (
            CharacterEdit {
                damage: Some(2),
                remove_gear: vec!["bazooka".into()],
                ..CharacterEdit::default()
            },
            "remove_gear",
        ),
        (
            CharacterEdit {
                set: vec![(Attribute::Body, 5)],
                correction: true,
                ..CharacterEdit::default()
            },
            "body",
        ),
        (
            CharacterEdit {
                add_backgrounds: vec!["  ".into()],
                correction: true,
                ..CharacterEdit::default()
            },
            "add_backgrounds",
        ),
    ] {
        let e = c.edit_character("Nick", &edit).unwrap_err();
        assert!(
            matches!(&e, AppError::Expanded(r) if r.field == field),
            "{e}"
        );
        assert_eq!(e.kind(), ErrorKind::BadInput);
    }
    assert_eq!(c.character("Nick").unwrap(), before);
    assert_eq!(journal_len(&c), entries);
    assert!(c.verify().unwrap().mismatches.is_empty());
}

#[test]
fn advancement_and_rest_are_journaled_and_re_derive() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    c.create_character(&nick(), Dice::Typed(vec![1, 1, 1]))
        .unwrap();
    // A: a new background on an even d6 (S9).
    let goal = AdvanceGoal::Background("Tower Climber".into());
    c.grant_advancement_point("Nick").unwrap();
    let v = c
        .advance_character("Nick", &goal, Dice::Typed(vec![3]))
        .unwrap();
    assert_eq!(v.success, Some(false));
    assert_eq!(v.sheet.character.backgrounds, ["Acrobat Thief"]);
    c.grant_advancement_point("Nick").unwrap();
    let v = c
        .advance_character("Nick", &goal, Dice::Typed(vec![6]))
        .unwrap();
    assert_eq!(v.success, Some(true));
    assert_eq!(
        v.sheet.character.backgrounds,
        ["Acrobat Thief", "Tower Climber"]
    );
    // B: Mind 2 rolls two dice, all even to rise; the hit points rise with the maximum.
    let mind = AdvanceGoal::Attribute(Attribute::Mind);
    c.grant_advancement_point("Nick").unwrap();
    let v = c
        .advance_character("Nick", &mind, Dice::Typed(vec![2, 5]))
        .unwrap();
    assert_eq!((v.success, v.sheet.character.mind), (Some(false), 2));
    c.grant_advancement_point("Nick").unwrap();
    let e = c
        .advance_character("Nick", &mind, Dice::Typed(vec![2]))
        .unwrap_err();
    assert!(matches!(e, AppError::Dice(_)), "{e}");
    c.grant_advancement_point("Nick").unwrap();
    let v = c
        .advance_character("Nick", &mind, Dice::Typed(vec![2, 4]))
        .unwrap();
    assert_eq!((v.success, v.sheet.character.mind), (Some(true), 3));
    assert_eq!(v.sheet.character.hit_points, 6);
    // A seeded try rolls Mind 3: three dice from the seed, all even or not.
    c.grant_advancement_point("Nick").unwrap();
    let v = c.advance_character("Nick", &mind, Dice::Seed(11)).unwrap();
    let mut d = SeededDice::new(11);
    let f: Vec<u32> = (0..3).map(|_| d.roll(6).unwrap()).collect();
    assert_eq!(v.rolled.unwrap().faces, f);
    assert_eq!(v.success, Some(f.iter().all(|x| x.is_multiple_of(2))));

    // Rest (S8): 1.5 hours are three half hours of 1 hit point each.
    c.edit_character(
        "Nick",
        &CharacterEdit {
            damage: Some(4),
            ..CharacterEdit::default()
        },
    )
    .unwrap();
    let hp = c.character("Nick").unwrap().character.hit_points;
    let v = c.rest_character("Nick", 1.5).unwrap();
    assert_eq!(v.healed, Some(3));
    assert_eq!(v.sheet.character.hit_points, hp + 3);
    let e = c.rest_character("Nick", f64::NAN).unwrap_err();
    assert!(
        matches!(&e, AppError::Expanded(r) if r.field == "hours"),
        "{e}"
    );

    let report = c.verify().unwrap();
    // Creation, six points granted, four advancements tried with dice, one refused (not
    // journaled), an edit, a rest.
    assert_eq!((report.entries, report.rolls), (14, 6));
    assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
}

#[test]
fn sheets_import_and_export_as_toml_and_a_name_is_never_a_path() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    let v = c.import_character(NICK_SHEET).unwrap();
    assert_eq!(v.sheet.character.gear.len(), 2);
    let text = c.export_character("nick").unwrap();
    let back = solum_app::parse_sheet(&text).unwrap();
    assert_eq!(back, c.character("Nick").unwrap().character);
    let e = c.import_character(NICK_SHEET).unwrap_err();
    assert!(
        matches!(
            &e,
            AppError::Store(solum_store::StoreError::NameTaken { .. })
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("already exists"), "{e}");
    // Broken sheets name the field.
    let e = c
        .import_character(&NICK_SHEET.replace("body = 3", "body = 7"))
        .unwrap_err();
    assert!(
        matches!(&e, AppError::Expanded(r) if r.field == "body"),
        "{e}"
    );
    let e = c.import_character("name = ").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::BadInput);
    // A name that looks like a path stays a name: no file appears anywhere.
    let evil = NICK_SHEET.replace("\"Nick\"", "\"../../evil\"");
    c.import_character(&evil).unwrap();
    assert!(
        c.export_character("../../evil")
            .unwrap()
            .contains("../../evil")
    );
    let mut files: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| !n.starts_with("c.solum"))
        .collect();
    files.sort();
    assert!(files.is_empty(), "{files:?}");
    assert!(!dir.path().join("../../evil").exists());
}

fn check(attribute: Attribute, background: Option<&str>, against: Against) -> CharacterCheck {
    CharacterCheck {
        attribute,
        background: background.map(Into::into),
        weapon: None,
        gear: None,
        gear_die: Default::default(),
        against,
        roll_off: false,
    }
}

#[test]
fn nick_climbs_the_tower_from_his_sheet() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    let mut c = open(&path);
    c.import_character(NICK_SHEET).unwrap();
    // Body 3 + "Acrobat Thief" = 4d6 against 5; he rolls 5, 3, 2, 2 and passes.
    let v = c
        .check_from_character(
            "Nick",
            &check(
                Attribute::Body,
                Some("acrobat thief"),
                Against::Difficulty(vs(5)),
            ),
            Dice::Typed(vec![5, 3, 2, 2]),
        )
        .unwrap();
    assert_eq!(v.inputs.pool, 4);
    assert_eq!(v.inputs.check.background.as_deref(), Some("Acrobat Thief"));
    assert!(v.result.passed);
    assert_eq!(v.result.own.as_ref().unwrap().result, 5);
    // Before the roll: 1 - (4/6)^4 = 65/81.
    assert_eq!(v.odds.pass_exact, "65/81");
    assert!((v.odds.pass - 65.0 / 81.0).abs() < 1e-12);

    // The lock: Mind 2 + background = 3d6 against 5; 4, 4, 3, the tools reroll the 3 into a
    // 4: still a failure.
    let lock = CharacterCheck {
        gear: Some("Thieves' Tools".into()),
        ..check(
            Attribute::Mind,
            Some("Quick-Witted Rogue"),
            Against::Difficulty(vs(5)),
        )
    };
    let v = c
        .check_from_character("Nick", &lock, Dice::Typed(vec![4, 4, 3, 4]))
        .unwrap();
    assert!(!v.result.passed);
    assert_eq!(v.result.own.as_ref().unwrap().reroll, Some([2, 3, 4]));
    // With the reroll the pool works like one more die: 1 - (4/6)^4 again.
    assert_eq!(v.odds.pass_exact, "65/81");
    // "Enables" gear rerolls nothing: 1 - (4/6)^3 = 19/27.
    let rope = CharacterCheck {
        gear: Some("rope".into()),
        ..check(
            Attribute::Mind,
            Some("Quick-Witted Rogue"),
            Against::Difficulty(vs(5)),
        )
    };
    let v = c
        .check_from_character("Nick", &rope, Dice::Typed(vec![4, 4, 3]))
        .unwrap();
    assert_eq!(
        (v.inputs.gear_reroll, v.odds.pass_exact.as_str()),
        (false, "19/27")
    );

    // Opposed: Nick's 4d6 (5 3 2 2) against 2d6 (4 6, chain 3 = 9): he loses.
    let v = c
        .check_from_character(
            "Nick",
            &check(
                Attribute::Body,
                Some("Acrobat Thief"),
                Against::Opposed {
                    dice: pool(2),
                    gear: false,
                },
            ),
            Dice::Typed(vec![5, 3, 2, 2, 4, 6]),
        )
        .unwrap();
    // The opposition's 6 beats Nick's 5 outright: no chain die is drawn (S2).
    assert_eq!(v.result.verdict.as_deref(), Some("lose"));
    assert_eq!(v.result.opposition.as_ref().unwrap().result, 6);
    let (w, d, l) = (v.odds.pass, v.odds.draw.unwrap(), v.odds.lose.unwrap());
    assert!((w + d + l - 1.0).abs() < 1e-12);

    // Unknown background, gear or weapon: refused with the field named, nothing journaled.
    let n = journal_len(&c);
    for (bad, field) in [
        (
            check(Attribute::Body, Some("Pirate"), Against::Difficulty(vs(5))),
            "background",
        ),
        (
            CharacterCheck {
                gear: Some("bazooka".into()),
                ..check(Attribute::Body, None, Against::Difficulty(vs(5)))
            },
            "gear",
        ),
        (
            CharacterCheck {
                weapon: Some("sword".into()),
                ..check(Attribute::Body, None, Against::Difficulty(vs(5)))
            },
            "weapon",
        ),
    ] {
        let e = c
            .check_from_character("Nick", &bad, Dice::Typed(vec![5]))
            .unwrap_err();
        assert!(
            matches!(&e, AppError::Expanded(r) if r.field == field),
            "{e}"
        );
    }
    assert_eq!(journal_len(&c), n);
    // A difficulty or an opposition outside the rules is not a check at all: refused as the
    // request is read, in the rules' words.
    for (body, words) in [
        (
            r#"{"attribute": "body", "against": {"difficulty": 0}}"#,
            "difficulty",
        ),
        (
            r#"{"attribute": "body", "against": {"difficulty": 1001}}"#,
            "difficulty",
        ),
        (
            r#"{"attribute": "body", "against": {"opposed": {"dice": 1001, "gear": false}}}"#,
            "a pool has 1 to 1000 dice",
        ),
    ] {
        let e = serde_json::from_str::<CharacterCheck>(body).unwrap_err();
        assert!(e.to_string().contains(words), "{body}: {e}");
    }
    let report = c.verify().unwrap();
    assert_eq!((report.entries, report.rolls), (5, 4));
    assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);

    // Change the tower check behind solum's back: the journal says he failed.
    drop(c);
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute_batch(
        "DROP TRIGGER journal_no_update;
         UPDATE journal SET body = json_set(body, '$.change.check.result.passed', json('false'))
         WHERE seq = 2;",
    )
    .unwrap();
    drop(raw);
    let c = open(&path);
    let report = c.verify().unwrap();
    let seqs: Vec<_> = report.mismatches.iter().map(|m| m.seq).collect();
    assert_eq!(seqs, [2], "{:?}", report.mismatches);
}

#[test]
fn penalties_come_from_the_sheet() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    // Body 2 with medium armor (needs Body 2: no penalty) and a heavy axe (needs Body 3).
    let sheet = r#"
schema = 1
name = "Bruno"
body = 2
mind = 1
charm = 3
backgrounds = ["Big Arm"]
hit_points = 5
armor = { name = "chainmail", class = "medium" }
weapons = [{ name = "great axe", class = "heavy" }]
"#;
    c.import_character(sheet).unwrap();
    let axe = CharacterCheck {
        weapon: Some("Great Axe".into()),
        ..check(Attribute::Body, Some("Big Arm"), Against::Difficulty(vs(4)))
    };
    let v = c
        .check_from_character("Bruno", &axe, Dice::Typed(vec![3, 3]))
        .unwrap();
    let want = CheckInputs {
        check: CharacterCheck {
            weapon: Some("great axe".into()),
            ..axe.clone()
        },
        attribute_value: 2,
        armor_too_heavy: false,
        heavy_weapon_weak: true,
        gear_reroll: false,
        pool: 2,
        roll_off: false,
    };
    assert_eq!(v.inputs, want);
    // 1 - (3/6)^2 = 3/4.
    assert_eq!(v.odds.pass_exact, "3/4");
    // Body 1 in medium armor: a die less on every check (Charm 3 → 2 dice).
    c.edit_character(
        "Bruno",
        &CharacterEdit {
            set: vec![(Attribute::Body, 1)],
            correction: true,
            ..CharacterEdit::default()
        },
    )
    .unwrap();
    let v = c
        .check_from_character(
            "Bruno",
            &check(Attribute::Charm, None, Against::Difficulty(vs(6))),
            Dice::Typed(vec![6, 1]),
        )
        .unwrap();
    assert!(v.inputs.armor_too_heavy);
    assert_eq!(v.inputs.pool, 2);
    // A 6 passes a 6 and needs no die of the Rule of 6 (S2: only above difficulty 6).
    assert!(v.result.own.unwrap().chain.is_empty());
    // Out at 0 hit points: no check.
    c.edit_character(
        "Bruno",
        &CharacterEdit {
            damage: Some(99),
            ..CharacterEdit::default()
        },
    )
    .unwrap();
    let e = c
        .check_from_character(
            "Bruno",
            &check(Attribute::Charm, None, Against::Difficulty(vs(3))),
            Dice::Typed(vec![6]),
        )
        .unwrap_err();
    assert!(
        matches!(&e, AppError::Expanded(r) if r.field == "hit_points"),
        "{e}"
    );
}

#[test]
fn the_odds_shown_are_the_rate_of_seeded_checks() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    c.import_character(NICK_SHEET).unwrap();
    let tower = check(
        Attribute::Body,
        Some("Acrobat Thief"),
        Against::Difficulty(vs(5)),
    );
    let n = 400;
    let mut passed = 0;
    let mut p = 0.0;
    for seed in 0..n {
        let v = c
            .check_from_character("Nick", &tower, Dice::Seed(seed))
            .unwrap();
        p = v.odds.pass;
        passed += u32::from(v.result.passed);
    }
    let se = (p * (1.0 - p) / f64::from(n as u32)).sqrt();
    let rate = f64::from(passed) / f64::from(n as u32);
    assert!((rate - 65.0 / 81.0).abs() < 4.0 * se, "rate {rate}");
}

/// 8 threads × 10 edits on one character, each with its own connection: every change lands.
#[test]
fn concurrent_edits_all_land() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    // Body 4 + Mind 4 + heavy armor 3 = 11 hit points at most; starting at 9, each thread
    // alternates 1 damage and 1 heal, so at most 8 damage are outstanding at once: the hit
    // points stay within 1 to 9, never clamp, and end at 9 only if every change landed.
    let sheet = r#"
schema = 1
name = "Ripperjack"
body = 4
mind = 4
charm = 1
hit_points = 9
armor = { name = "plate", class = "heavy" }
"#;
    open(&path).import_character(sheet).unwrap();
    let threads: Vec<_> = (0..8)
        .map(|_| {
            let path = path.clone();
            std::thread::spawn(move || {
                let mut c = open(&path);
                for k in 0..10_u32 {
                    let edit = if k.is_multiple_of(2) {
                        CharacterEdit {
                            damage: Some(1),
                            ..CharacterEdit::default()
                        }
                    } else {
                        CharacterEdit {
                            heal: Some(1),
                            ..CharacterEdit::default()
                        }
                    };
                    c.edit_character("Ripperjack", &edit).unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let c = open(&path);
    let v = c.character("Ripperjack").unwrap();
    assert_eq!((v.character.hit_points, v.version), (9, 81));
    assert_eq!(journal_len(&c), 81);
    // Each change saw the sheet the one before it left: no read–change–write was lost.
    let mut hp = 9;
    for entry in c.entries().unwrap().into_iter().skip(1) {
        let Record::Character(r) = entry.record else {
            panic!("a character entry")
        };
        let CharacterChange::Edited { before, after, .. } = r.change else {
            panic!("an edit")
        };
        assert_eq!(before.hit_points, hp, "entry {}", entry.seq);
        assert_eq!(after.hit_points.abs_diff(hp), 1);
        hp = after.hit_points;
    }
    assert_eq!(hp, 9);
    assert!(c.verify().unwrap().mismatches.is_empty());
}

#[test]
fn character_records_round_trip_through_a_journal_export_and_a_newer_schema_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    let mut c = open(&path);
    c.create_character(&nick(), Dice::Seed(3)).unwrap();
    c.grant_advancement_point("Nick").unwrap();
    c.advance_character(
        "Nick",
        &AdvanceGoal::Attribute(Attribute::Charm),
        Dice::Typed(vec![4]),
    )
    .unwrap();
    c.check_from_character(
        "Nick",
        &check(Attribute::Charm, None, Against::Difficulty(vs(4))),
        Dice::Seed(5),
    )
    .unwrap();
    let export = c.export().unwrap();
    let text = serde_json::to_string(&export).unwrap();
    let back: solum_app::JournalExport = serde_json::from_str(&text).unwrap();
    assert_eq!(back, export);
    let mut other = open(&dir.path().join("other.solum"));
    assert_eq!(other.import(back).unwrap(), 4);
    assert_eq!(other.verify().unwrap().rolls, 3);
    // A record of a newer schema is not silently taken for this one.
    drop(c);
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute_batch(
        "DROP TRIGGER journal_no_update;
         UPDATE journal SET body = json_set(body, '$.schema', 2) WHERE seq = 4;",
    )
    .unwrap();
    drop(raw);
    let report = open(&path).verify().unwrap();
    assert_eq!(report.mismatches.len(), 1);
    assert!(
        report.mismatches[0].reason.contains("newer"),
        "{:?}",
        report.mismatches
    );
}

#[test]
fn verify_names_a_changed_edit_and_a_changed_advancement() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    let mut c = open(&path);
    c.import_character(NICK_SHEET).unwrap();
    c.edit_character(
        "Nick",
        &CharacterEdit {
            damage: Some(2),
            ..CharacterEdit::default()
        },
    )
    .unwrap();
    // A background on a 3: not this time.
    c.grant_advancement_point("Nick").unwrap();
    c.advance_character(
        "Nick",
        &AdvanceGoal::Background("Tower Climber".into()),
        Dice::Typed(vec![3]),
    )
    .unwrap();
    assert!(c.verify().unwrap().mismatches.is_empty());
    drop(c);
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute_batch(
        "DROP TRIGGER journal_no_update;
         UPDATE journal SET body = json_set(body, '$.change.edited.after.hit_points', 5)
         WHERE seq = 2;
         UPDATE journal SET body = json_set(body, '$.change.advanced.success', json('true'))
         WHERE seq = 4;",
    )
    .unwrap();
    drop(raw);
    let report = open(&path).verify().unwrap();
    let seqs: Vec<_> = report.mismatches.iter().map(|m| m.seq).collect();
    assert_eq!(seqs, [2, 4], "{:?}", report.mismatches);
    // Each divergence names the field, the value kept and the value the inputs give.
    let edited = report.mismatches[0].divergence.differences();
    assert_eq!(edited.len(), 1, "{:?}", report.mismatches[0]);
    assert_eq!(edited[0].path, "sheet.hit_points");
    assert_eq!(edited[0].recorded, serde_json::json!(5));
    assert_ne!(edited[0].derived, serde_json::json!(5));
    assert!(
        report.mismatches[0]
            .reason
            .starts_with("the recorded sheet of Nick: sheet.hit_points: recorded 5"),
        "{}",
        report.mismatches[0].reason
    );
    let advanced = report.mismatches[1].divergence.differences();
    assert_eq!(
        advanced
            .iter()
            .map(|d| (d.path.as_str(), &d.recorded, &d.derived))
            .collect::<Vec<_>>(),
        [(
            "success",
            &serde_json::json!(true),
            &serde_json::json!(false)
        )]
    );
}

#[test]
fn opposed_odds_from_a_sheet_match_a_hand_count() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    c.import_character(NICK_SHEET).unwrap();
    // Charm 1 against one die: faces higher 15/36; both 6 (1/36), then the chains, ahead
    // with 3/7 and level with 1/7 (S2, S3). Win 15/36 + 3/252 = 3/7; draw 5/36 + 1/252 = 1/7.
    let v = c
        .check_from_character(
            "Nick",
            &check(
                Attribute::Charm,
                None,
                Against::Opposed {
                    dice: pool(1),
                    gear: false,
                },
            ),
            Dice::Typed(vec![4, 4]),
        )
        .unwrap();
    assert_eq!(v.odds.pass_exact, "3/7");
    assert!((v.odds.draw.unwrap() - 1.0 / 7.0).abs() < 1e-12);
    assert_eq!(v.result.verdict.as_deref(), Some("draw"));
    assert!(!v.result.passed);
}

/// What the command line used to refuse itself is refused by the use case: a background,
/// weapon or piece of gear the sheet already has (any case), and a weapon without a name.
#[test]
fn an_edit_that_would_double_an_entry_is_refused_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    c.import_character(NICK_SHEET).unwrap();
    let before = c.character("Nick").unwrap();
    let cases = [
        (
            CharacterEdit {
                add_backgrounds: vec!["acrobat THIEF".into()],
                correction: true,
                ..CharacterEdit::default()
            },
            "add_backgrounds",
        ),
        (
            CharacterEdit {
                add_backgrounds: vec!["Tower Climber".into(), "tower climber".into()],
                correction: true,
                ..CharacterEdit::default()
            },
            "add_backgrounds",
        ),
        (
            CharacterEdit {
                add_weapons: vec![Weapon::melee("Dagger", Class::Medium)],
                ..CharacterEdit::default()
            },
            "add_weapons",
        ),
        (
            CharacterEdit {
                add_weapons: vec![Weapon::melee("  ", Class::Light)],
                ..CharacterEdit::default()
            },
            "add_weapons",
        ),
        (
            CharacterEdit {
                add_gear: vec![Gear {
                    name: "ROPE".into(),
                    effect: GearEffect::Reroll,
                }],
                ..CharacterEdit::default()
            },
            "add_gear",
        ),
    ];
    for (edit, want) in cases {
        let e = c.edit_character("Nick", &edit).unwrap_err();
        assert!(
            matches!(&e, AppError::Expanded(r) if r.field == want),
            "{e}"
        );
    }
    assert_eq!(c.character("Nick").unwrap(), before);
    assert_eq!(journal_len(&c), 1);
}

/// A sheet may hold the rules' 100 backgrounds (S9 gives one per advancement), not only 20;
/// a sheet too large for a journal entry to keep before and after is refused by its size.
#[test]
fn backgrounds_up_to_the_rules_limit_and_a_sheet_of_bounded_size() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    c.import_character(NICK_SHEET).unwrap();
    // 45 backgrounds of 2 + 98 four-byte characters: 17,730 bytes of names alone, over
    // 16 KiB.
    let long: Vec<String> = (0..45)
        .map(|k| format!("{k:02}{}", "𝔅".repeat(98)))
        .collect();
    let e = c
        .edit_character(
            "Nick",
            &CharacterEdit {
                add_backgrounds: long,
                correction: true,
                ..CharacterEdit::default()
            },
        )
        .unwrap_err();
    assert!(
        matches!(&e, AppError::Expanded(r) if r.field == "sheet"),
        "{e}"
    );
    assert_eq!(c.character("Nick").unwrap().character.backgrounds.len(), 2);
    let edit = CharacterEdit {
        add_backgrounds: (0..60).map(|k| format!("background {k}")).collect(),
        correction: true,
        ..CharacterEdit::default()
    };
    let v = c.edit_character("Nick", &edit).unwrap();
    assert_eq!(v.sheet.character.backgrounds.len(), 62);
}

#[test]
fn replace_character_replaces_by_name_and_journals_the_sheet() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    // Without a character of that name it imports.
    let v = c.replace_character(NICK_SHEET).unwrap();
    assert_eq!(v.sheet.version, 1);
    let wounded = NICK_SHEET
        .replace("hit_points = 5", "hit_points = 1")
        .replace("\"Nick\"", "\"NICK\"");
    let v = c.replace_character(&wounded).unwrap();
    assert_eq!(v.sheet.version, 2);
    let now = c.character("nick").unwrap();
    assert_eq!((now.character.hit_points, now.version), (1, 2));
    assert_eq!(c.characters().unwrap().len(), 1);
    assert_eq!(journal_len(&c), 2);
    // A broken sheet replaces nothing.
    let e = c
        .replace_character(&NICK_SHEET.replace("body = 3", "body = 9"))
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::BadInput);
    assert_eq!(c.character("nick").unwrap(), now);
}

/// A check from a sheet outside any campaign follows the same rules (S1) and stores nothing.
#[test]
fn a_check_from_a_sheet_file_needs_no_campaign() {
    let hero = solum_app::parse_sheet(NICK_SHEET).unwrap();
    let v = solum_app::characters::check_from_sheet(
        &hero,
        &check(
            Attribute::Body,
            Some("acrobat thief"),
            Against::Difficulty(vs(5)),
        ),
        Dice::Typed(vec![4, 3, 2, 1]),
    )
    .unwrap();
    // Body 3 + 1 = 4 dice against 5: 1 − (4/6)^4.
    assert_eq!(v.inputs.pool, 4);
    assert_eq!(v.odds.pass_exact, "65/81");
    assert!(!v.result.passed);
    let e = solum_app::characters::check_from_sheet(
        &hero,
        &check(Attribute::Body, Some("Pilot"), Against::Difficulty(vs(5))),
        Dice::Fresh,
    )
    .unwrap_err();
    assert!(
        matches!(&e, AppError::Expanded(r) if r.field == "background"),
        "{e}"
    );
}

/// A difficulty of the texts' range.
fn vs(n: i64) -> solum_expanded::Difficulty {
    solum_expanded::Difficulty::new(n).unwrap()
}

/// An opposition of this many dice.
fn pool(n: u32) -> solum_app::check_once::CombatPool {
    solum_app::check_once::CombatPool::new(n).unwrap()
}
