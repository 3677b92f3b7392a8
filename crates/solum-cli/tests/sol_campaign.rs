//! Project Sol across a campaign (issue 22): burning Edge (P5), one progress point per
//! encounter in all (P3), group actions and bought hits from the sheets, and the text view
//! (every participant's glitches; the modifier asked and the one applied). Every expected
//! number is worked out by hand from the text (003) and the rulings, with typed dice.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::common;

use std::path::{Path, PathBuf};

use common::{Run, solum, solum_args};
use serde_json::Value;

fn campaign(dir: &tempfile::TempDir) -> PathBuf {
    dir.path().join("c.solum")
}

/// Runs `solum` on the campaign.
fn with(c: &Path, args: &[&str]) -> Run {
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--campaign", c.to_str().unwrap()]);
    solum_args(&all)
}

fn sheet(c: &Path, name: &str, edge: u32, attrs: &[&str], skills: &[&str]) {
    let edge = edge.to_string();
    let mut args = vec!["sol", "new", name, "--edge", &edge];
    for a in attrs {
        args.extend(["--attr", a]);
    }
    for s in skills {
        args.extend(["--skill", s]);
    }
    with(c, &args).ok();
}

/// The stored sheet of a character.
fn stored(c: &Path, name: &str) -> Value {
    with(c, &["sol", "show", name, "--json"]).json()["sheet"].clone()
}

fn edge(c: &Path, name: &str) -> (u64, u64) {
    let s = stored(c, name);
    (
        s["edge"]["points"].as_u64().unwrap(),
        s["edge"]["attribute"].as_u64().unwrap(),
    )
}

fn skill(sheet: &Value, name: &str) -> (u64, u64) {
    let s = sheet["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no skill {name} in {sheet}"));
    (
        s["ranks"].as_u64().unwrap(),
        s["progress"].as_u64().unwrap(),
    )
}

fn entries(c: &Path) -> usize {
    let v = with(c, &["journal", "export", "--format", "json"]).json();
    v["entries"].as_array().unwrap().len()
}

fn verify_clean(c: &Path) {
    let run = with(c, &["journal", "verify"]);
    assert_eq!(run.code, 0, "{} {}", run.stdout, run.stderr);
    assert!(run.stdout.contains(", 0 do not match"), "{}", run.stdout);
    assert!(run.stdout.contains(", 0 differ"), "{}", run.stdout);
}

#[test]
fn burning_edge_takes_an_available_point_p5() {
    let dir = tempfile::tempdir().unwrap();
    let c = campaign(&dir);
    sheet(&c, "Kai", 3, &["AGI=3", "BOD=3"], &["Sidearms=1"]);
    // One point spent: 2 of 3 available.
    with(&c, &["sol", "spend", "Kai", "seize-the-initiative"]).ok();
    assert_eq!(edge(&c, "Kai"), (2, 3));
    // P5: a burn takes one available point and lowers the attribute: 1 of 2.
    let v = with(
        &c,
        &[
            "sol",
            "test",
            "Kai",
            "--skill",
            "Sidearms",
            "--attr",
            "AGI",
            "--threshold",
            "2",
            "--edge",
            "smackdown",
            "--json",
        ],
    )
    .json();
    assert_eq!(v["test"]["success"], true);
    assert_eq!(
        (v["edge"]["points"].clone(), v["edge"]["attribute"].clone()),
        (1.into(), 2.into())
    );
    assert_eq!(edge(&c, "Kai"), (1, 2));
    // The last point spent: 0 of 2. No point available, so Edge cannot be burnt: refused,
    // nothing rolled, nothing journaled, the sheet unchanged.
    with(&c, &["sol", "spend", "Kai", "seize-the-initiative"]).ok();
    assert_eq!(edge(&c, "Kai"), (0, 2));
    let before = entries(&c);
    with(
        &c,
        &[
            "sol",
            "test",
            "Kai",
            "--skill",
            "Sidearms",
            "--attr",
            "AGI",
            "--threshold",
            "2",
            "--edge",
            "smackdown",
        ],
    )
    .bad_input("no Edge point available to burn (0 of 2)");
    with(&c, &["sol", "not-dead-yet", "Kai", "--attr", "BOD"])
        .bad_input("no Edge point available to burn");
    assert_eq!(entries(&c), before);
    assert_eq!(edge(&c, "Kai"), (0, 2));
    assert_eq!(stored(&c, "Kai")["attributes"]["BOD"], 3);
    // A new session refreshes to the (lowered) attribute: 2 of 2; Not Dead Yet then burns
    // one: 1 of 1, and BOD (named on the tie with AGI) drops from 3 to 2.
    with(&c, &["sol", "session", "Kai"]).ok();
    assert_eq!(edge(&c, "Kai"), (2, 2));
    with(&c, &["sol", "not-dead-yet", "Kai", "--attr", "BOD"]).ok();
    assert_eq!(edge(&c, "Kai"), (1, 1));
    assert_eq!(stored(&c, "Kai")["attributes"]["BOD"], 2);
    verify_clean(&c);
}

#[test]
fn one_progress_point_per_encounter_in_all_p3() {
    let dir = tempfile::tempdir().unwrap();
    let c = campaign(&dir);
    sheet(
        &c,
        "Kai",
        2,
        &["AGI=3", "LOG=3"],
        &["Sidearms=1", "Hacking=1"],
    );
    let t = |skill: &str, attr: &str| {
        with(
            &c,
            &[
                "sol",
                "test",
                "Kai",
                "--skill",
                skill,
                "--attr",
                attr,
                "--threshold",
                "1",
                "--rolled",
                "5,5,6,1",
                "--json",
            ],
        )
        .json()
    };
    // 3 + 1 = 4 dice; 5 5 6 1 is 3 hits, more than 1 rank: a point in Sidearms.
    assert_eq!(t("Sidearms", "AGI")["progress"]["point"], true);
    // The same encounter: 3 hits in Hacking earn nothing ("one progress point per encounter").
    assert_eq!(t("Hacking", "LOG")["progress"]["point"], false);
    let s = stored(&c, "Kai");
    assert_eq!(
        (skill(&s, "Sidearms"), skill(&s, "Hacking")),
        ((1, 1), (1, 0))
    );
    // A new encounter, journaled: Hacking earns its point.
    with(&c, &["sol", "encounter", "Kai"]).ok();
    assert_eq!(t("Hacking", "LOG")["progress"]["point"], true);
    let s = stored(&c, "Kai");
    assert_eq!(
        (skill(&s, "Sidearms"), skill(&s, "Hacking")),
        ((1, 1), (1, 1))
    );
    verify_clean(&c);
}

#[test]
fn malcolms_fifth_point_raises_the_rank_and_clears_the_points() {
    let dir = tempfile::tempdir().unwrap();
    let c = campaign(&dir);
    let file = dir.path().join("malcolm.toml");
    std::fs::write(
        &file,
        "schema = 1\nname = \"Malcolm\"\n[edge]\nattribute = 2\npoints = 2\n[attributes]\nCHA = 1\n[[skills]]\nname = \"Etiquette\"\nranks = 4\nprogress = 4\n",
    )
    .unwrap();
    with(&c, &["sol", "import", file.to_str().unwrap()]).ok();
    // CHA 1 + 4 ranks = 5 dice; 5 hits (5 or more with 4 ranks) earn the fifth point:
    // Etiquette 5, progress cleared.
    let v = with(
        &c,
        &[
            "sol",
            "test",
            "Malcolm",
            "--skill",
            "Etiquette",
            "--attr",
            "CHA",
            "--rolled",
            "5,5,6,6,5",
            "--json",
        ],
    )
    .json();
    assert_eq!(v["progress"]["rank_up"], true);
    assert_eq!(skill(&stored(&c, "Malcolm"), "Etiquette"), (5, 0));
    verify_clean(&c);
}

#[test]
fn a_group_action_from_the_sheets() {
    let dir = tempfile::tempdir().unwrap();
    let c = campaign(&dir);
    sheet(&c, "Kai", 2, &["AGI=3"], &["Sidearms=1"]);
    sheet(&c, "Bea", 2, &["AGI=2"], &["Sidearms=2"]);
    sheet(&c, "Rho", 1, &["AGI=1"], &[]);
    let args = [
        "sol",
        "test",
        "Kai",
        "--skill",
        "Sidearms",
        "--attr",
        "AGI",
        "--threshold",
        "2",
        "--group",
        "Bea",
        "--group",
        "Rho",
        "--rolled",
        "5,1,2,1,6,5,6,1,1",
    ];
    // Kai leads: AGI 3 + 1 = 4 dice, 5 1 2 1: 1 hit, two 1s of 4 dice: a glitch.
    // Bea: AGI 2 + 2 = 4 dice, 6 5 6 1: 3 hits (more than her 2 ranks: a progress point).
    // Rho: AGI 1 + 0 ranks (defaulting) = 1 die, 1: no hit, a glitch on a failed test:
    // a critical glitch. The best, Bea's 3 hits, counts for the group: 3 ≥ 2, 1 net.
    // The leader takes a Level 1 wound for the one who rolled no hit (Rho).
    let text = with(&c, &args).ok().to_owned();
    assert!(
        text.contains("Kai (4 dice): 5 1 2 1 → 1 hit(s)  GLITCH"),
        "{text}"
    );
    assert!(
        text.contains("Bea (4 dice): 6 5 6 1 → 3 hit(s)  (best)"),
        "{text}"
    );
    assert!(
        text.contains("Rho (1 dice): 1 → 0 hit(s)  CRITICAL GLITCH"),
        "{text}"
    );
    assert!(
        text.contains("the group has 3 hit(s)  SUCCESS, 1 net; Kai takes 1 Level 1 wound(s)"),
        "{text}"
    );
    let s = stored(&c, "Bea");
    assert_eq!(skill(&s, "Sidearms"), (2, 1));
    assert_eq!(skill(&stored(&c, "Kai"), "Sidearms"), (1, 0));
    // The same as JSON, in a new encounter for everyone.
    for n in ["Kai", "Bea", "Rho"] {
        with(&c, &["sol", "encounter", n]).ok();
    }
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let v = with(&c, &json_args).json();
    let g = &v["group"];
    assert_eq!(g["hits"], 3);
    assert_eq!(g["best"], 1);
    assert_eq!(g["success"], true);
    assert_eq!(g["leader_wounds"], 1);
    assert_eq!(g["members"][0]["name"], "Bea");
    assert_eq!(g["members"][1]["test"]["critical_glitch"], true);
    assert_eq!(v["test"]["glitch"], true);
    assert_eq!(skill(&stored(&c, "Bea"), "Sidearms"), (2, 2));
    // Refused, nothing journaled: the leader named again, a stranger, a name twice, an
    // opposed group, too few dice.
    let before = entries(&c);
    let base = ["sol", "test", "Kai", "--skill", "Sidearms", "--attr", "AGI"];
    let run = |extra: &[&str]| {
        let mut a = base.to_vec();
        a.extend(extra);
        with(&c, &a)
    };
    run(&["--group", "kai", "--rolled", "5,5,5,5,5,5,5,5"]).bad_input("the leader");
    assert_ne!(run(&["--group", "Nobody"]).code, 0);
    run(&["--group", "Bea", "--group", "BEA"]).bad_input("named twice");
    run(&["--group", "Bea", "--against-dice", "3"]).bad_input("cannot be used with");
    run(&["--group", "Bea", "--rolled", "5,5,5,5"]).bad_input("--rolled");
    assert_eq!(entries(&c), before);
    verify_clean(&c);
}

#[test]
fn hits_bought_from_a_sheet() {
    let dir = tempfile::tempdir().unwrap();
    let c = campaign(&dir);
    sheet(&c, "Lena", 2, &["LOG=6", "INT=8"], &["Hacking=4"]);
    // LOG 6 + 4 ranks = 10 dice: "10 dice also buys 2 hits". No die rolled.
    let v = with(
        &c,
        &[
            "sol",
            "test",
            "Lena",
            "--skill",
            "Hacking",
            "--attr",
            "LOG",
            "--threshold",
            "2",
            "--buy",
            "--json",
        ],
    )
    .json();
    assert_eq!(v["pool"]["dice"], 10);
    assert_eq!(v["bought"]["hits"], 2);
    assert_eq!(v["bought"]["success"], true);
    assert_eq!(v["rolled"]["faces"].as_array().unwrap().len(), 0);
    assert_eq!(v["progress"]["point"], false);
    // INT 8 + 4 = 12 dice: 3 hits, against 4 not enough.
    let text = with(
        &c,
        &[
            "sol",
            "test",
            "Lena",
            "--skill",
            "Hacking",
            "--attr",
            "INT",
            "--threshold",
            "4",
            "--buy",
        ],
    )
    .ok()
    .to_owned();
    assert!(
        text.contains("12 dice buy 3 hit(s), no roll  FAILURE: 4 needed"),
        "{text}"
    );
    assert_eq!(edge(&c, "Lena"), (2, 2));
    assert_eq!(skill(&stored(&c, "Lena"), "Hacking"), (4, 0));
    // Bought hits roll nothing: typed dice and Edge are refused.
    let buy = [
        "sol", "test", "Lena", "--skill", "Hacking", "--attr", "LOG", "--buy",
    ];
    let mut typed = buy.to_vec();
    typed.extend(["--rolled", "5"]);
    with(&c, &typed).bad_input("cannot be used with");
    let mut edged = buy.to_vec();
    edged.extend(["--edge", "push-the-limit"]);
    with(&c, &edged).bad_input("cannot be used with");
    let journal = with(&c, &["journal", "show"]).ok().to_owned();
    assert!(
        journal.contains("Lena buys 2 hit(s) in Hacking + LOG (10 dice), success"),
        "{journal}"
    );
    verify_clean(&c);
}

#[test]
fn the_modifier_asked_and_the_one_applied_are_both_shown() {
    // 0 ranks (defaulting): +2 and -2 asked (+0), but no bonus without ranks: -2 applied.
    let out = solum("roll sol --attribute 2 --modifier 2 --modifier -2 --rolled 5")
        .ok()
        .to_owned();
    assert!(
        out.contains("asked +0; -2 applied (no bonus at 0 ranks)"),
        "{out}"
    );
    assert!(!out.contains("applied as"), "{out}");
    // Hyde: 2 ranks, a computer worth +3, capped at +2: 4 + 2 + 2 = 8 dice.
    let out = solum("roll sol --attribute 4 --ranks 2 --modifier 3 --rolled 1,2,3,4,5,6,1,2")
        .ok()
        .to_owned();
    assert!(out.contains("Test 8 dice"), "{out}");
    assert!(
        out.contains("asked +3; +2 applied (a bonus is capped at the 2 rank(s))"),
        "{out}"
    );
    // From a sheet: defaulting with the untrained penalty, +2 asked: AGI 4 - 3 = 1 die.
    let dir = tempfile::tempdir().unwrap();
    let c = campaign(&dir);
    sheet(&c, "Cole", 1, &["AGI=4"], &[]);
    let test = [
        "sol",
        "test",
        "Cole",
        "--skill",
        "Longarms",
        "--attr",
        "AGI",
        "--modifier",
        "2",
        "--untrained-penalty",
        "--rolled",
        "5",
    ];
    let out = with(&c, &test).ok().to_owned();
    assert!(out.contains("= 1 dice"), "{out}");
    assert!(
        out.contains("asked +2; -3 applied (no bonus at 0 ranks, -3 untrained)"),
        "{out}"
    );
    // The same note in the JSON (what `POST /api/sol/characters/{name}/test` answers).
    let v = with(&c, &[&test[..], &["--json"]].concat()).json();
    assert_eq!(
        v["modifier_note"],
        serde_json::json!({"asked": 2, "applied": -3, "why": [
            {"rule": "no-bonus-at-zero-ranks"}, {"rule": "untrained", "penalty": -3}]})
    );
}

#[test]
fn a_group_roll_shows_every_participants_glitch() {
    // Leader 5 1 2: 1 hit, one 1 of 3 dice: no glitch. Member 2, 1 1: no hit, all 1s, a
    // failed test: critical glitch. Member 3, 1 5: 1 hit, one 1 of 2 dice: a glitch.
    let out = solum("roll sol --dice 3 --group 2,2 --threshold 1 --rolled 5,1,2,1,1,1,5")
        .ok()
        .to_owned();
    assert!(out.contains("leader 1: 5 1 2 → 1 hit(s)  (best)"), "{out}");
    assert!(
        out.contains("member 2: 1 1 → 0 hit(s)  CRITICAL GLITCH"),
        "{out}"
    );
    assert!(out.contains("member 3: 1 5 → 1 hit(s)  GLITCH"), "{out}");
}

#[test]
fn a_group_from_sheets_is_bounded_before_any_sheet_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let c = campaign(&dir);
    sheet(&c, "Kai", 2, &["AGI=3"], &["Sidearms=1"]);
    // 100 participants besides the leader: past the 100 a group action takes, refused
    // before any sheet is read (none of these names exists) or die rolled.
    let names: Vec<String> = (0..100).map(|i| format!("P{i}")).collect();
    let mut args = vec!["sol", "test", "Kai", "--skill", "Sidearms", "--attr", "AGI"];
    for n in &names {
        args.extend(["--group", n.as_str()]);
    }
    with(&c, &args).bad_input("more than the 100 a group action takes");
    verify_clean(&c);
}

#[test]
fn an_assistants_glitch_is_shown() {
    let dir = tempfile::tempdir().unwrap();
    let c = campaign(&dir);
    sheet(&c, "Kyra", 2, &["AGI=3"], &["Sidearms=2"]);
    sheet(&c, "Cole", 1, &["AGI=1"], &["Sidearms=1"]);
    // Cole assists: AGI 1 + 1 rank = 2 dice, 1 1: no hit, all ones: a glitch on a test that
    // offers nothing (judged as a failure at 0 hits: critical). Kyra: 3 + 2 = 5 dice.
    let out = with(
        &c,
        &[
            "sol",
            "test",
            "Kyra",
            "--skill",
            "Sidearms",
            "--attr",
            "AGI",
            "--threshold",
            "1",
            "--assistant",
            "Cole",
            "--rolled",
            "1,1,5,2,3,4,6",
        ],
    )
    .ok()
    .to_owned();
    assert!(
        out.contains("Assistant Cole, 2 dice: 1 1 → 0 hit(s) offered  CRITICAL GLITCH"),
        "{out}"
    );
}
