//! Two long campaigns, each on one campaign file across several processes (issue 22):
//! Project Sol through `solum play` piped on standard input (sessions, encounters, tests,
//! a group action, bought hits, progress once per encounter up to a rank, Edge spent and
//! burnt, training, Not Dead Yet), and Solum die types through one-shot commands
//! (creation, rolls from the sheet, an edit between sessions, export and import). Every
//! expected number is worked out by hand from the texts (002, 003) and rulings P1–P5, D1–D3.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::common;

use std::path::Path;

use common::{Run, solum_args};
use serde_json::Value;

fn with(c: &Path, args: &[&str]) -> Run {
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--campaign", c.to_str().unwrap()]);
    solum_args(&all)
}

/// One `solum play` process on the campaign, the script piped in; every line must pass.
fn play(c: &Path, script: &str) -> String {
    let output = assert_cmd::Command::cargo_bin("solum")
        .unwrap()
        .args(["play", "--campaign", c.to_str().unwrap()])
        .env("NO_COLOR", "1")
        .env_remove("SOLUM_CAMPAIGN")
        .write_stdin(script)
        .output()
        .unwrap();
    let (out, err) = (
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    );
    assert_eq!(output.status.code(), Some(0), "{out}\n{err}");
    out
}

fn sol(c: &Path, name: &str) -> Value {
    with(c, &["sol", "show", name, "--json"]).json()["sheet"].clone()
}

fn edge(s: &Value) -> (u64, u64) {
    (
        s["edge"]["points"].as_u64().unwrap(),
        s["edge"]["attribute"].as_u64().unwrap(),
    )
}

fn skill(s: &Value, name: &str) -> (u64, u64) {
    let k = s["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {s}"));
    (
        k["ranks"].as_u64().unwrap(),
        k["progress"].as_u64().unwrap(),
    )
}

fn verify_clean(c: &Path) {
    let run = with(c, &["journal", "verify"]);
    assert_eq!(run.code, 0, "{} {}", run.stdout, run.stderr);
    assert!(run.stdout.contains(", 0 do not match"), "{}", run.stdout);
    assert!(run.stdout.contains(", 0 differ"), "{}", run.stdout);
}

/// Session 1, encounter 1: the warehouse.
const SOL_1: &str = r#"
sol new Kyra --edge 3 --attr AGI=4 --attr LOG=3 --attr BOD=3 --attr STR=2 --skill Sidearms=2 --skill Hacking=1
sol new Hyde --edge 2 --attr LOG=4 --attr AGI=2 --skill Hacking=2
sol session Kyra
sol session Hyde
# AGI 4 + 2 ranks = 6 dice: 5 6 6 are 3 hits against 2 (1 net), more than 2 ranks: a point.
sol test Kyra --skill Sidearms --attr AGI --threshold 2 --rolled 5,6,6,1,2,3
# LOG 3 + 1 = 4 dice: 2 hits, more than 1 rank, but Kyra has her point of this encounter.
sol test Kyra --skill Hacking --attr LOG --threshold 1 --rolled 5,5,2,1
# Push the Limit (a point spent, 2 of 3 left): 3 to 6 are hits, 3 4 are 2 hits, not 3.
sol test Kyra --skill Sidearms --attr AGI --threshold 3 --edge push-the-limit --rolled 3,4,1,2,2,1
"#;

/// Encounter 2: the server room.
const SOL_2: &str = r#"
sol encounter Kyra
sol encounter Hyde
# A group action led by Hyde: LOG 4 + 2 = 6 dice, 5 5 5: 3 hits, more than 2 ranks (a
# point for Hyde); Kyra LOG 3 + 1 = 4 dice, 1 6 2 2: 1 hit (no point). The best, 3,
# against 2: success; nobody rolled no hit, so no wound for the leader.
sol test Hyde --skill Hacking --attr LOG --threshold 2 --group Kyra --rolled 5,5,5,1,2,1,1,6,2,2
# Smackdown burns an available point (P5): 2 of 3 becomes 1 of 2; no dice, no progress.
sol test Kyra --skill Sidearms --attr AGI --threshold 2 --edge smackdown
# 5 6: 2 hits, more than 1 rank: Kyra's point of this encounter, in Hacking.
sol test Kyra --skill Hacking --attr LOG --threshold 1 --rolled 5,6,1,2
# 3 hits in Sidearms, more than 2 ranks, but the encounter's point is taken (P3).
sol test Kyra --skill Sidearms --attr AGI --threshold 1 --rolled 6,6,6,1,2,3
"#;

/// Session 2: Edge refreshes (to the burnt-down attribute), a training, hits bought, Edge
/// spent and Not Dead Yet, and Hyde's Hacking reaching its fifth point over four encounters.
const SOL_3: &str = r#"
sol session Kyra
sol session Hyde
# 4 dice buy 1 hit (one per full four): against 1, a success; no roll, no progress.
sol test Kyra --skill Hacking --attr LOG --threshold 1 --buy
# Sidearms 2 -> 3: cost rating 3 x 2 = 6, her 1 progress point cleared.
sol train Kyra --skill Sidearms
sol spend Kyra seize-the-initiative
# Not Dead Yet: the last available point burnt (1 of 2 -> 0 of 1), AGI 4 (the highest
# physical attribute) -> 3.
sol not-dead-yet Kyra
sol encounter Hyde
sol test Hyde --skill Hacking --attr LOG --rolled 5,5,5,1,1,2
sol encounter Hyde
sol test Hyde --skill Hacking --attr LOG --rolled 5,5,5,1,1,2
sol encounter Hyde
sol test Hyde --skill Hacking --attr LOG --rolled 5,5,5,1,1,2
sol encounter Hyde
sol test Hyde --skill Hacking --attr LOG --rolled 5,5,5,1,1,2
"#;

#[test]
fn a_project_sol_campaign_across_processes() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("sol.solum");

    let out = play(&c, SOL_1);
    assert!(out.contains("progress point in Sidearms"), "{out}");
    assert!(
        out.contains("no progress point: one per encounter"),
        "{out}"
    );
    let k = sol(&c, "Kyra");
    assert_eq!(edge(&k), (2, 3));
    assert_eq!(
        (skill(&k, "Sidearms"), skill(&k, "Hacking")),
        ((2, 1), (1, 0))
    );

    let out = play(&c, SOL_2);
    assert!(
        out.contains("Hyde (6 dice): 5 5 5 1 2 1 → 3 hit(s)  (best)  progress point in Hacking"),
        "{out}"
    );
    assert!(out.contains("Kyra (4 dice): 1 6 2 2 → 1 hit(s)"), "{out}");
    assert!(
        out.contains("the group has 3 hit(s)  SUCCESS, 1 net; Hyde takes 0 Level 1 wound(s)"),
        "{out}"
    );
    let k = sol(&c, "Kyra");
    assert_eq!(edge(&k), (1, 2));
    assert_eq!(
        (skill(&k, "Sidearms"), skill(&k, "Hacking")),
        ((2, 1), (1, 1))
    );
    assert_eq!(skill(&sol(&c, "Hyde"), "Hacking"), (2, 1));

    let out = play(&c, SOL_3);
    assert!(
        out.contains("4 dice buy 1 hit(s), no roll  SUCCESS, 0 net"),
        "{out}"
    );
    assert!(out.contains("RANK UP"), "{out}");
    let k = sol(&c, "Kyra");
    assert_eq!(edge(&k), (0, 1));
    assert_eq!(k["attributes"]["AGI"], 3);
    assert_eq!(
        (skill(&k, "Sidearms"), skill(&k, "Hacking")),
        ((3, 0), (1, 1))
    );
    let h = sol(&c, "Hyde");
    // Hacking 2 with 1 point, then 4 encounters of 3 hits: the fifth point, rank 3, cleared.
    assert_eq!(skill(&h, "Hacking"), (3, 0));
    assert_eq!(edge(&h), (2, 2));

    // A later process: no point available, so no burn (P5), and nothing journaled.
    with(&c, &["sol", "not-dead-yet", "Kyra"]).bad_input("no Edge point available to burn");
    verify_clean(&c);
}

#[test]
fn a_die_types_campaign_across_processes() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("dt.solum");
    with(
        &c,
        &[
            "dietype",
            "new",
            "Aria",
            "--ability",
            "Agility=d8",
            "--ability",
            "Wits=d6",
            "--skill",
            "Swords=2",
            "--weapon",
            "Dagger=d4+1",
        ],
    )
    .ok();
    // Session 1. Agility d8, Swords 2 chances, against 5 (D1, D2): chance 1 shows 8, the
    // maximum, which becomes two d8s, 3 + 2 = 5; chance 2 shows 6. Both reach 5: quality 2
    // (Extraordinary), so 2 dice of the dagger's d4 (2, 3) + 1 = 6 damage.
    let v = with(
        &c,
        &[
            "roll",
            "dietype",
            "--char",
            "Aria",
            "--ability",
            "Agility",
            "--skill",
            "Swords",
            "--vs",
            "5",
            "--weapon",
            "Dagger",
            "--rolled",
            "8,3,2,6,2,3",
            "--json",
        ],
    )
    .json();
    assert_eq!(v["result"]["quality"], 2);
    assert_eq!(v["result"]["skill"]["chances"][0]["result"], 5);
    assert_eq!(v["result"]["damage"]["total"], 6);
    // Wits d6 (1 chance) against d6 with 2 chances: 6 explodes into 1 + 3 = 4; the other
    // side's best is 5 > 4, so Aria loses, and their quality counts the chances that beat
    // her best 4: only the 5, quality 1.
    let v = with(
        &c,
        &[
            "roll",
            "dietype",
            "--char",
            "Aria",
            "--ability",
            "Wits",
            "--against",
            "d6",
            "--against-chances",
            "2",
            "--rolled",
            "6,1,3,2,5",
            "--json",
        ],
    )
    .json();
    assert_eq!(v["result"]["success"], false);
    assert_eq!(v["result"]["opposed"]["first"][0]["result"], 4);
    assert_eq!(v["result"]["opposed"]["quality"], 1);
    // Between sessions the GM raises Agility to d10 and Swords to 3 chances (the text has
    // no advancement rule: the sheet is edited, and journaled).
    with(
        &c,
        &[
            "dietype",
            "edit",
            "Aria",
            "--ability",
            "Agility=d10",
            "--skill",
            "Swords=3",
        ],
    )
    .ok();
    // Session 2, a later process: d10 at -1DT is a d8 (D3). Chances: 8 -> 1 + 2 = 3 (below
    // 4), 3 (below), 6 (reaches 4): quality 1.
    let v = with(
        &c,
        &[
            "roll",
            "dietype",
            "--char",
            "Aria",
            "--ability",
            "Agility",
            "--skill",
            "Swords",
            "--step",
            "-1",
            "--vs",
            "4",
            "--rolled",
            "8,1,2,3,6",
            "--json",
        ],
    )
    .json();
    assert_eq!(v["inputs"]["die"], "d8");
    assert_eq!(v["inputs"]["chances"], 3);
    assert_eq!(v["result"]["quality"], 1);
    // A d10 face typed for the d8 is refused, and nothing is journaled.
    with(
        &c,
        &[
            "roll",
            "dietype",
            "--char",
            "Aria",
            "--ability",
            "Agility",
            "--skill",
            "Swords",
            "--step",
            "-1",
            "--vs",
            "4",
            "--rolled",
            "9,1,2",
        ],
    )
    .bad_input("not a face of a d8");
    let s = with(&c, &["dietype", "show", "Aria", "--json"]).json();
    assert_eq!(s["sheet"]["abilities"]["Agility"], "d10");
    assert_eq!(s["sheet"]["skills"]["Swords"], 3);
    // The sheet travels: exported, imported into another campaign, the same.
    let file = dir.path().join("aria.toml");
    let toml = with(&c, &["dietype", "export", "Aria"]).ok().to_owned();
    std::fs::write(&file, toml).unwrap();
    let other = dir.path().join("other.solum");
    with(&other, &["dietype", "import", file.to_str().unwrap()]).ok();
    let t = with(&other, &["dietype", "show", "Aria", "--json"]).json();
    assert_eq!(t["sheet"], s["sheet"]);
    let journal = with(&c, &["journal", "export", "--format", "json"]).json();
    assert_eq!(journal["entries"].as_array().unwrap().len(), 5);
    verify_clean(&c);
    verify_clean(&other);
}
