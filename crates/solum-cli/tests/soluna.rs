//! Sol'una end to end: the fewest flips shown, the phase table's limits, the dice supplies.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::common;

use common::{solum, solum_args};

fn skirmish_file(dir: &tempfile::TempDir, text: &str) -> String {
    let f = dir.path().join("sk.toml");
    std::fs::write(&f, text).unwrap();
    f.to_str().unwrap().to_owned()
}

#[test]
fn twelve_sixes_against_twenty_negative_flips_show_twelve_flips() {
    let v =
        solum("roll soluna --dice 12 --against-flips 20 --rolled 6,6,6,6,6,6,6,6,6,6,6,6 --json")
            .json();
    // Two dice a face is the best the target can do, and it takes 12 flips, not 20.
    assert_eq!(v["largest"], 2);
    assert_eq!(v["test"]["flips"].as_array().unwrap().len(), 12);
    let text = solum("roll soluna --dice 12 --against-flips 20 --rolled 6,6,6,6,6,6,6,6,6,6,6,6");
    assert_eq!(text.ok().matches("  flip ").count(), 12, "{}", text.stdout);
}

#[test]
fn a_mind_outside_the_phase_table_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let two = |mind: u32| {
        format!(
            "[[character]]\nname = \"A\"\nside = \"a\"\nmind = {mind}\nbody = 0\nhit_points = 1\nranged = 2\n\n\
             [[character]]\nname = \"B\"\nside = \"b\"\nmind = 1\nbody = 0\nhit_points = 1\nranged = 2\n"
        )
    };
    for mind in [0, 11] {
        let f = skirmish_file(&dir, &two(mind));
        solum_args(&["soluna", "skirmish", &f, "--seed", "1"]).bad_input(&format!(
            "A: Mind {mind} is outside the phase table, which has Mind 1 to 10"
        ));
    }
    let f = skirmish_file(&dir, &two(10));
    solum_args(&["soluna", "skirmish", &f, "--seed", "1"]).ok();
    let run = solum_args(&["soluna", "skirmish", &f, "--seed", "1", "--rolled", "1,1"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("cannot be used with"), "{}", run.stderr);
}

#[test]
fn dice_supplies_change_the_pool() {
    let dir = tempfile::tempdir().unwrap();
    let f = skirmish_file(
        &dir,
        "[[character]]\nname = \"A\"\nside = \"a\"\nmind = 1\nbody = 0\nhit_points = 1\nranged = 2\n\
         extra_dice = 3\ndice_per_test = 2\n\n\
         [[character]]\nname = \"B\"\nside = \"b\"\nmind = 1\nbody = 0\nhit_points = 1\nranged = 1\n\
         dice_guard = 1\n",
    );
    // A rolls 2 + 2 − 1 = 3 dice, B one.
    let run = solum_args(&["soluna", "skirmish", &f, "--rolled", "4,4,1,2"]);
    assert!(
        run.ok()
            .contains("A shoots B: 4 4 1 (dice +2 −1, flips +0 −0) → 2 × 4 — 2 damage"),
        "{}",
        run.stdout
    );
    let v = solum_args(&["soluna", "skirmish", &f, "--rolled", "4,4,1,2", "--json"]).json();
    let attack = &v["events"][1];
    assert_eq!(
        (attack["added"].as_u64(), attack["removed"].as_u64()),
        (Some(2), Some(1))
    );
}

#[test]
fn armour_flags_without_a_body_are_refused() {
    // Without --body no damage is worked out, so a Shield or a melee attack would be ignored.
    for args in [
        "roll soluna --dice 3 --shield 2",
        "roll soluna --dice 3 --melee",
        "odds soluna --dice 3 --shield 1",
        "odds soluna --dice 3 --melee --tn 2",
    ] {
        let run = solum(args);
        assert_eq!(run.code, 2, "{args}: {}", run.stderr);
        assert!(run.stderr.contains("--body"), "{args}: {}", run.stderr);
    }
    solum("odds soluna --dice 3 --body 1 --shield 1 --melee").ok();
    // Typed dice leave a seed unused.
    let run = solum("roll soluna --dice 2 --rolled 3,3 --seed 1");
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("cannot be used with"), "{}", run.stderr);
}

fn in_campaign(campaign: &std::path::Path, args: &[&str]) -> common::Run {
    let mut all = args.to_vec();
    all.push("--campaign");
    all.push(campaign.to_str().unwrap());
    solum_args(&all)
}

#[test]
fn campaign_characters_fight_skirmishes_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    let vex = in_campaign(
        &c,
        &[
            "soluna",
            "new",
            "Vex",
            "--side",
            "red",
            "--mind",
            "1",
            "--hit-points",
            "2",
            "--ranged",
            "2",
        ],
    );
    // A change says the journal entry it was kept as, as every system's does.
    assert!(vex.ok().ends_with("journal entry 1\n"), "{}", vex.ok());
    let file = dir.path().join("blue.toml");
    std::fs::write(
        &file,
        "[[character]]\nname = \"Oro\"\nside = \"blue\"\nmind = 1\nbody = 0\nhit_points = 2\nranged = 1\n",
    )
    .unwrap();
    let imported = in_campaign(&c, &["soluna", "import", file.to_str().unwrap()]);
    assert!(
        imported.ok().ends_with("journal entry 2\n"),
        "{}",
        imported.ok()
    );
    in_campaign(
        &c,
        &[
            "soluna",
            "new",
            "Nul",
            "--side",
            "red",
            "--mind",
            "11",
            "--hit-points",
            "1",
            "--melee",
            "1",
        ],
    )
    .bad_input("--mind");
    let all = in_campaign(&c, &["soluna", "list", "--json"]).json();
    assert_eq!(all.as_array().unwrap().len(), 2);
    // U4 by hand: Mind 1 acts in phase 10. Both shoot at once: Vex's 3 3 is a pair, 2
    // damage, Oro is out; Oro's 5 is 1 damage, Vex keeps 1 hit point. Red wins.
    let v = in_campaign(
        &c,
        &[
            "soluna", "skirmish", "vex", "oro", "--auto", "--rolled", "3,3,5", "--json",
        ],
    )
    .json();
    assert_eq!(v["end"]["winner"], "red");
    assert_eq!(v["end"]["hit_points"], serde_json::json!([1, 0]));
    in_campaign(&c, &["soluna", "skirmish", "Vex", "Nobody", "--auto"]).bad_input("Nobody");
    // Export is a skirmish file the file form fights.
    let exported = in_campaign(&c, &["soluna", "export"]).ok().to_owned();
    let back = dir.path().join("both.toml");
    std::fs::write(&back, exported).unwrap();
    let v = solum_args(&[
        "soluna",
        "skirmish",
        back.to_str().unwrap(),
        "--rolled",
        "5,3,3",
        "--json",
    ])
    .json();
    // Listed by name: Oro first now. Oro's 5: 1 damage to Vex; Vex's pair: 2 to Oro.
    assert_eq!(v["names"], serde_json::json!(["Oro", "Vex"]));
    let report = in_campaign(&c, &["journal", "verify"]).ok().to_owned();
    assert!(
        report.contains("3 entries, 1 rolls re-derived, 0 do not match"),
        "{report}"
    );
}

/// `solum soluna edit`: each flag sets its field, the others are kept; the output names what
/// changed, before and after; refusals name the flag, nothing is written.
#[test]
fn a_campaign_character_is_edited_and_the_output_names_what_changed() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    in_campaign(
        &c,
        &[
            "soluna",
            "new",
            "Vex",
            "--side",
            "red",
            "--mind",
            "1",
            "--hit-points",
            "2",
            "--ranged",
            "2",
        ],
    )
    .ok();
    let run = in_campaign(
        &c,
        &[
            "soluna",
            "edit",
            "vex",
            "--hit-points",
            "5",
            "--side",
            "blue",
            "--ranged",
            "2",
        ],
    );
    let text = run.ok();
    // Two fields changed, in the sheet's order; the ranged dice given as they were are not a
    // change.
    assert!(
        text.contains("Vex changed: side red → blue, hit points 2 → 5\n"),
        "{text}"
    );
    assert!(
        text.contains("Vex (blue)   Mind 1 · Body 0 · Shield 0 · HP 5 · melee 0 · ranged 2"),
        "{text}"
    );
    assert!(text.contains("journal entry 2"), "{text}");
    // Refusals: nothing would change; a cap past its supplies (0 flips, 0 guard); a Mind
    // past the phase table; an unknown name; no flag at all.
    in_campaign(&c, &["soluna", "edit", "Vex", "--hit-points", "5"])
        .bad_input("error: Vex: nothing would change: the sheet has these values already");
    in_campaign(&c, &["soluna", "edit", "Vex", "--flips-per-test", "3"]).bad_input(
        "error: --flips-per-test: 3 per test is more than the supplies it caps (--flips 0, --guard 0)",
    );
    in_campaign(&c, &["soluna", "edit", "Vex", "--mind", "0"])
        .bad_input("error: --mind: Mind 0 is outside the phase table, which has Mind 1 to 10");
    in_campaign(&c, &["soluna", "edit", "Nobody", "--mind", "2"])
        .bad_input("error: the campaign has no character named Nobody");
    in_campaign(&c, &["soluna", "edit", "Vex"])
        .bad_input("the following required arguments were not provided");
    let v = in_campaign(&c, &["soluna", "show", "Vex", "--json"]).json();
    assert_eq!(
        (&v["version"], &v["character"]["hit_points"]),
        (&serde_json::json!(2), &serde_json::json!(5))
    );
    // The journal tells the story of the edit and re-derives the sheet.
    let story = in_campaign(&c, &["journal", "show"]);
    assert!(
        story
            .ok()
            .contains(r#"Vex's sheet: hit_points 2 → 5, side "red" → "blue""#),
        "{}",
        story.stdout
    );
    let report = in_campaign(&c, &["journal", "verify"]).ok().to_owned();
    assert!(report.contains("2 entries"), "{report}");
    assert!(report.contains("0 do not match"), "{report}");
}
