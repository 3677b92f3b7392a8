//! `solum combat start|do|status|end` and `solum creature …` against a campaign file, each
//! command its own process. Hit points come from the rules text (S4: the loser of an
//! opposed melee roll takes the winner's weapon damage) with dice typed in.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::common;

use std::path::Path;

use common::{Run, solum_args};
use serde_json::Value;

/// Nick of the text: Body 3, Mind 2, 5 hit points, a light dagger (1 damage).
const NICK_SHEET: &str = r#"
schema = 1
name = "Nick"
body = 3
mind = 2
charm = 1
backgrounds = ["Acrobat Thief"]
hit_points = 5
weapons = [{ name = "dagger", class = "light" }]
"#;

const BEAR: &str = r#"
[[creature]]
name = "cave bear"
pool = 2
hit_points = 4
damage = 2
"#;

fn with(campaign: &Path, args: &[&str]) -> Run {
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--campaign", campaign.to_str().unwrap()]);
    solum_args(&all)
}

fn json(run: &Run) -> Value {
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout))
}

fn fighter_hp(status: &Value, name: &str) -> u64 {
    status["fighters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == name)
        .unwrap_or_else(|| panic!("{name} in {status}"))["hit_points"]
        .as_u64()
        .unwrap()
}

fn nick_hp(campaign: &Path) -> u32 {
    let c = solum_app::Campaign::new(
        solum_store_sqlite::SqliteStore::open(campaign, solum_store::Scope::HOME).unwrap(),
    );
    c.character("Nick").unwrap().character.hit_points
}

#[test]
fn a_combat_started_played_and_ended_by_separate_processes() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    // The campaign's character (the character commands are not part of this test).
    solum_app::Campaign::new(
        solum_store_sqlite::SqliteStore::open(&c, solum_store::Scope::HOME).unwrap(),
    )
    .import_character(NICK_SHEET)
    .unwrap();
    let bear = dir.path().join("bear.toml");
    std::fs::write(&bear, BEAR).unwrap();

    let added = json(&with(
        &c,
        &["creature", "add", bear.to_str().unwrap(), "--json"],
    ));
    assert_eq!(added[0]["creature"]["name"], "cave bear");
    let shown = json(&with(&c, &["creature", "show", "Cave-Bear", "--json"]));
    assert_eq!(shown["source"], "campaign");
    let list = json(&with(&c, &["creature", "list", "--json"]));
    let creatures = list["creatures"].as_array().unwrap();
    assert!(
        creatures
            .iter()
            .any(|v| v["name"] == "orc" && v["source"] == "shipped")
    );
    assert!(
        creatures
            .iter()
            .any(|v| v["foe"] == "cave-bear" && v["source"] == "campaign")
    );

    let start = json(&with(
        &c,
        &["combat", "start", "--name", "cellar", "--json"],
    ));
    assert_eq!(start["name"], "cellar");
    for line in [
        "hero Nick",
        "foe cave-bear",
        "place Nick cave-bear engaged",
        "order cave-bear Nick",
    ] {
        json(&with(&c, &["combat", "do", line, "--json"]));
    }
    // The bear: 5 2 (5) against Nick's 4 3 1 (4): it wins and deals 2 (S4).
    let hit = json(&with(
        &c,
        &["combat", "do", "melee Nick with 5,2,4,3,1", "--json"],
    ));
    assert!(
        hit["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["event"] == "damaged" && e["amount"] == 2),
        "{hit}"
    );
    assert_eq!(fighter_hp(&hit["status"], "Nick"), 3);
    // The sheet keeps its hit points until the end.
    assert_eq!(nick_hp(&c), 5);

    let status = json(&with(&c, &["combat", "status", "--json"]))["combat"].clone();
    assert_eq!(status["acting"], "cave-bear");
    assert_eq!(status["order"], serde_json::json!(["cave-bear", "Nick"]));
    assert_eq!(status["ranges"][0]["band"], "engaged");
    assert_eq!(fighter_hp(&status, "Nick"), 3);
    let text = with(&c, &["combat", "status"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(text.stdout.contains("3/5"), "{}", text.stdout);

    // Refused lines: exit 2, nothing kept.
    for (line, needle) in [
        ("fly away", "`fly` is not a command"),
        ("melee cave-bear", "cannot target themselves"),
        ("melee Nick with 5,2,4,3,1", "already used the action"),
        ("move away Nick with 3,4", "too many values"),
    ] {
        let run = with(&c, &["combat", "do", line]);
        assert_eq!(run.code, 2, "{line}: {}", run.stderr);
        assert!(run.stderr.contains(needle), "{line}: {}", run.stderr);
    }
    assert_eq!(
        json(&with(&c, &["combat", "status", "--json"]))["combat"]["lines"],
        5
    );

    // A script attached to the campaign's combat: Nick's turn, 5 1 2 (5) against 3 1 (3).
    let script = dir.path().join("turn.txt");
    std::fs::write(&script, "end\nmelee cave-bear with 5,1,2,3,1\n").unwrap();
    let run = with(&c, &["combat", script.to_str().unwrap(), "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let last: Value = serde_json::from_str(run.stdout.lines().last().unwrap()).unwrap();
    assert_eq!(fighter_hp(&last["status"], "cave-bear"), 3);

    let end = json(&with(&c, &["combat", "end", "--json"]));
    assert_eq!(end["written"][0]["name"], "Nick");
    assert_eq!(end["written"][0]["after"], 3);
    assert_eq!(nick_hp(&c), 3);
    assert_eq!(
        json(&with(&c, &["combat", "status", "--json"])),
        serde_json::json!({ "combat": null })
    );
    let verify = with(&c, &["journal", "verify"]);
    assert_eq!(verify.code, 0, "{}", verify.stderr);
    assert!(
        verify.stdout.contains("0 do not match"),
        "{}",
        verify.stdout
    );

    let again = with(&c, &["combat", "end"]);
    assert_eq!(again.code, 2);
    assert!(
        again.stderr.contains("no combat is open"),
        "{}",
        again.stderr
    );
    let removed = with(&c, &["creature", "remove", "cave bear"]);
    assert_eq!(removed.code, 0, "{}", removed.stderr);
    assert_eq!(with(&c, &["creature", "show", "cave bear"]).code, 2);
}

#[test]
fn attaching_needs_an_open_combat_and_takes_no_seed_or_bestiary() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    let script = dir.path().join("s.txt");
    std::fs::write(&script, "foe orc\n").unwrap();
    let run = with(&c, &["combat", script.to_str().unwrap()]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("no combat is open"), "{}", run.stderr);
    let run = with(&c, &["combat", script.to_str().unwrap(), "--seed", "3"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--seed"), "{}", run.stderr);
    // A bad bestiary file: the field is named, nothing is added.
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, BEAR.replace("pool = 2", "pool = 0")).unwrap();
    let run = with(&c, &["creature", "add", bad.to_str().unwrap()]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("cave bear.pool"), "{}", run.stderr);
}

/// `$SOLUM_CAMPAIGN` does not attach a plain script: it runs as it always did and no
/// campaign file appears.
#[test]
fn a_plain_script_ignores_the_campaign_in_the_environment() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("env.solum");
    let script = dir.path().join("s.txt");
    std::fs::write(
        &script,
        "hero A pool=2 hp=5 damage=2\nfoe orc\norder A orc\nmove closer orc\nmelee orc with 5,4,3,2\n",
    )
    .unwrap();
    let output = assert_cmd::Command::cargo_bin("solum")
        .unwrap()
        .args(["combat", script.to_str().unwrap(), "--json"])
        .env("SOLUM_CAMPAIGN", &c)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8(output.stdout).unwrap();
    // A's 5 4 (5) against the orc's 3 2 (3): the orc takes 2 (S4).
    let last: Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert!(
        last["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["event"] == "damaged" && e["amount"] == 2),
        "{stdout}"
    );
    assert!(!c.exists());
}
