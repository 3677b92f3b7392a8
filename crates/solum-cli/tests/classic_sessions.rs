//! The original So1um across sessions (issue 22): a campaign hero's fight with real dice
//! that run out goes on in later processes, and can be abandoned; heroes carry gear.
//! Every expected value is worked by hand from the text (C2, C3) below.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::common;

use common::solum_args;
use serde_json::json;

/// `solum` with `--campaign FILE` after the arguments.
fn in_campaign(campaign: &std::path::Path, args: &[&str]) -> common::Run {
    let mut all = args.to_vec();
    all.push("--campaign");
    all.push(campaign.to_str().unwrap());
    solum_args(&all)
}

/// A campaign with Al: Body 2 (two dice), Mind 1, Spirit 1, 4 hit points.
fn campaign_with_al(dir: &tempfile::TempDir) -> std::path::PathBuf {
    let c = dir.path().join("c.solum");
    let file = dir.path().join("al.toml");
    std::fs::write(
        &file,
        "name = \"Al\"\nbody = 2\nmind = 1\nspirit = 1\nhit_points = 4\ncliches = [\"The veteran warrior\"]\n",
    )
    .unwrap();
    in_campaign(&c, &["classic", "import", file.to_str().unwrap()]).ok();
    c
}

fn verify_clean(c: &std::path::Path) -> String {
    let report = in_campaign(c, &["journal", "verify"]).ok().to_owned();
    assert!(report.contains(" 0 do not match"), "{report}");
    assert!(report.contains("0 differ"), "{report}");
    report
}

#[test]
fn a_fight_whose_typed_dice_run_out_goes_on_with_rolled_or_seed_in_later_processes() {
    let dir = tempfile::tempdir().unwrap();
    let c = campaign_with_al(&dir);
    // The book's troll: Body 4 (four dice), 4 hit points. Al 6 6 against 1 2 3 4: Al wins,
    // the troll is down to 3 hit points; the typed dice end there, so the fight waits.
    let v = in_campaign(
        &c,
        &[
            "classic",
            "fight",
            "Al",
            "troll",
            "--policy",
            "survive",
            "--rolled",
            "6,6,1,2,3,4",
            "--json",
        ],
    )
    .json();
    assert_eq!(v["status"]["over"], false);
    assert_eq!(v["status"]["pending"], serde_json::Value::Null);
    assert_eq!(v["status"]["hero"], json!([2, 4]));
    assert_eq!(v["status"]["foes"], json!([[4, 3]]));
    // The next exchange, two dice against four, by hand: Al's best die is v in 2v-1 of 36
    // ways; he wins when all four troll dice are below v: sum (2v-1)(v-1)^4 = 9829 of 6^6;
    // a tie when the troll's best is v: sum (2v-1)(v^4-(v-1)^4) = 12298; the rest 24529.
    assert_eq!(
        v["next"]["odds"]["exact"],
        json!(["9829/46656", "6149/23328", "24529/46656"])
    );
    assert_eq!(v["next"]["dice"], json!([2, 4]));
    // Another process: the fight as it stands, with those odds.
    let text = in_campaign(&c, &["classic", "fight", "Al", "--status"])
        .ok()
        .to_owned();
    assert!(text.contains("Troll: Body 4, hit points 3"), "{text}");
    assert!(
        text.contains("win 21.07% · tie 26.36% · lose 52.57%"),
        "{text}"
    );
    // Another process goes on with typed dice and no foes: 1 1 against 6 1 1 1, the troll
    // wins; Al (survive: a hit point while he has more than one) is at 3.
    let v = in_campaign(
        &c,
        &[
            "classic",
            "fight",
            "Al",
            "--rolled",
            "1,1,6,1,1,1",
            "--json",
        ],
    )
    .json();
    assert_eq!(v["status"]["hero"], json!([2, 3]));
    assert_eq!(v["status"]["foes"], json!([[4, 3]]));
    assert_eq!(v["status"]["round"], 3);
    // Then a seed runs it to its end (a policy decides every hit).
    let v = in_campaign(&c, &["classic", "fight", "Al", "--seed", "7", "--json"]).json();
    assert_eq!(v["status"]["over"], true);
    let sheet = in_campaign(&c, &["classic", "show", "Al", "--json"]).json();
    assert_eq!(sheet["in_fight"], false);
    assert_eq!(sheet["hero"]["hit_points"], v["status"]["hero"][1]);
    // Three fight calls, each re-derived from its inputs and faces.
    let report = verify_clean(&c);
    assert!(report.contains("4 entries"), "{report}");
}

#[test]
fn foes_named_while_a_fight_waits_are_refused_with_the_way_on() {
    let dir = tempfile::tempdir().unwrap();
    let c = campaign_with_al(&dir);
    in_campaign(
        &c,
        &[
            "classic",
            "fight",
            "Al",
            "troll",
            "--policy",
            "survive",
            "--rolled",
            "6,6,1,2,3,4",
        ],
    )
    .ok();
    let r = in_campaign(
        &c,
        &["classic", "fight", "Al", "goblin", "--rolled", "6,6,1"],
    );
    r.bad_input("already in a fight");
    r.bad_input("name no foes to go on");
    r.bad_input("abandon it");
    // A hero of the book has no fight under way: foes are needed.
    in_campaign(&c, &["classic", "fight", "goblin", "--seed", "3"])
        .bad_input("not a hero of the campaign");
    // --abandon and dice, --abandon and foes: contradictory.
    in_campaign(&c, &["classic", "fight", "Al", "--abandon", "--seed", "3"]).bad_input("--seed");
    in_campaign(&c, &["classic", "fight", "Al", "troll", "--abandon"]).bad_input("--abandon");
}

#[test]
fn an_abandoned_fight_is_journaled_and_frees_the_hero_to_rest_and_fight_again() {
    let dir = tempfile::tempdir().unwrap();
    let c = campaign_with_al(&dir);
    in_campaign(&c, &["classic", "fight", "Al", "--abandon"]).bad_input("not in a fight");
    // Al 1 1 against the troll's 6 1 1 1: Al loses a hit point (4 → 3); the dice end.
    in_campaign(
        &c,
        &[
            "classic",
            "fight",
            "Al",
            "troll",
            "--policy",
            "survive",
            "--rolled",
            "1,1,6,1,1,1",
        ],
    )
    .ok();
    in_campaign(&c, &["classic", "rest", "Al", "--hours", "8"])
        .bad_input("abandon it before resting");
    // Al flees: no further damage, the troll lives on, the wound taken stays on the sheet.
    let v = in_campaign(&c, &["classic", "fight", "Al", "--abandon", "--json"]).json();
    assert_eq!(v["status"]["abandoned"], true);
    assert_eq!(v["status"]["over"], true);
    assert_eq!(v["status"]["hero_won"], false);
    assert_eq!(v["status"]["hero"], json!([2, 3]));
    assert_eq!(v["status"]["foes"], json!([[4, 4]]));
    assert_eq!(v["sheet"]["hit_points"], 3);
    assert_eq!(v["rolled"]["faces"], json!([]));
    let text = in_campaign(&c, &["classic", "fight", "Al", "--status"])
        .ok()
        .to_owned();
    assert!(text.contains("Al is not in a fight"), "{text}");
    // C2: 8 hours of rest heal a hit point: 3 → 4.
    let v = in_campaign(&c, &["classic", "rest", "Al", "--hours", "8", "--json"]).json();
    assert_eq!(v["sheet"]["hero"]["hit_points"], 4);
    // And he fights again: 6 6 against a goblin's 1, the goblin (1 hit point) dies.
    let text = in_campaign(
        &c,
        &[
            "classic", "fight", "Al", "goblin", "--policy", "survive", "--rolled", "6,6,1",
        ],
    )
    .ok()
    .to_owned();
    assert!(text.contains("Al wins"), "{text}");
    // A hit waiting for its answer is answered before Al flees: 1 1 against 6 1 1 1 with
    // no policy, Al is asked; --abandon alone is refused, with --decide it goes.
    in_campaign(
        &c,
        &["classic", "fight", "Al", "troll", "--rolled", "1,1,6,1,1,1"],
    )
    .ok();
    in_campaign(&c, &["classic", "fight", "Al", "--abandon"]).bad_input("decide whether");
    let v = in_campaign(
        &c,
        &[
            "classic",
            "fight",
            "Al",
            "--abandon",
            "--decide",
            "body",
            "--json",
        ],
    )
    .json();
    assert_eq!(v["status"]["hero"], json!([1, 4]));
    assert_eq!(v["status"]["abandoned"], true);
    let story = in_campaign(&c, &["journal", "show"]).ok().to_owned();
    assert!(story.contains("flees"), "{story}");
    verify_clean(&c);
}

#[test]
fn heroes_carry_gear_and_a_checks_gear_must_be_on_the_sheet() {
    let dir = tempfile::tempdir().unwrap();
    let c = campaign_with_al(&dir);
    in_campaign(
        &c,
        &[
            "classic", "check", "Al", "--vs", "5", "--gear", "--rolled", "2,2",
        ],
    )
    .bad_input("carries no gear");
    let v = in_campaign(
        &c,
        &[
            "classic",
            "edit",
            "Al",
            "--add-gear",
            "Rope",
            "--add-gear",
            "Lockpicks",
            "--json",
        ],
    )
    .json();
    assert_eq!(v["sheet"]["hero"]["gear"], json!(["Rope", "Lockpicks"]));
    assert!(
        in_campaign(&c, &["classic", "show", "Al"])
            .ok()
            .contains("gear: Rope, Lockpicks")
    );
    in_campaign(&c, &["classic", "edit", "Al", "--add-gear", "rope"]).bad_input("already carries");
    in_campaign(&c, &["classic", "edit", "Al", "--remove-gear", "sword"])
        .bad_input("does not carry `sword`");
    in_campaign(&c, &["classic", "edit", "Al"])
        .bad_input("--add-gear <PIECE>|--remove-gear <PIECE>|--notes <NOTES>");
    in_campaign(
        &c,
        &[
            "classic", "check", "Al", "--vs", "5", "--gear", "sword", "--rolled", "2,2",
        ],
    )
    .bad_input("does not carry `sword` (carries: Rope, Lockpicks)");
    in_campaign(
        &c,
        &[
            "classic", "check", "Al", "--vs", "5", "--gear", "--rolled", "2,2",
        ],
    )
    .bad_input("name the one that serves");
    // Mind 1: one die against tricky (5). The 2 fails; the lockpicks reroll it: 5 passes.
    // With one reroll a die fails only if both rolls miss: 1 - (4/6)^2 = 5/9.
    let v = in_campaign(
        &c,
        &[
            "classic",
            "check",
            "Al",
            "--stat",
            "mind",
            "--vs",
            "5",
            "--gear",
            "lockpicks",
            "--rolled",
            "2,5",
            "--json",
        ],
    )
    .json();
    assert_eq!(v["inputs"]["gear_name"], "Lockpicks");
    assert_eq!(v["check"]["passed"], true);
    assert!(
        (v["p_pass"].as_f64().unwrap() - 5.0 / 9.0).abs() < 1e-12,
        "{v}"
    );
    // One piece left: `--gear` alone takes it.
    in_campaign(&c, &["classic", "edit", "Al", "--remove-gear", "ROPE"]).ok();
    let v = in_campaign(
        &c,
        &[
            "classic", "check", "Al", "--stat", "mind", "--vs", "5", "--gear", "--rolled", "6",
            "--json",
        ],
    )
    .json();
    assert_eq!(v["inputs"]["gear_name"], "Lockpicks");
    // The text: in combat all are assumed armed; gear does nothing there.
    in_campaign(
        &c,
        &["classic", "fight", "Al", "goblin", "--gear", "lockpicks"],
    )
    .bad_input("in combat");
    let story = in_campaign(&c, &["journal", "show"]).ok().to_owned();
    assert!(story.contains("Al takes up Rope, Lockpicks"), "{story}");
    assert!(story.contains("Al leaves Rope"), "{story}");
    verify_clean(&c);
}
