//! Issue 22, So1um Expanded combat across sessions: backgrounds named per roll in the
//! campaign's combat (S18), options that list only what is legal now, and fast static combat
//! (S11) from a campaign character, each command its own process. Expected hit points and
//! odds are worked out by hand from the rules text and the rulings, with dice typed in.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::common;

use std::path::Path;

use common::{Run, solum_args};
use serde_json::Value;

/// Nick of the text: Body 3, Mind 2, 5 hit points, a light dagger (1 damage), one
/// background.
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

/// 2 dice, 4 hit points, 2 damage.
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

fn nick_hp(campaign: &Path) -> u32 {
    let c = solum_app::Campaign::new(
        solum_store_sqlite::SqliteStore::open(campaign, solum_store::Scope::HOME).unwrap(),
    );
    c.character("Nick").unwrap().character.hit_points
}

/// A campaign with Nick and the cave bear.
fn campaign(dir: &Path) -> std::path::PathBuf {
    let c = dir.join("c.solum");
    let nick = dir.join("nick.toml");
    std::fs::write(&nick, NICK_SHEET).unwrap();
    let bear = dir.join("bear.toml");
    std::fs::write(&bear, BEAR).unwrap();
    with(&c, &["char", "import", nick.to_str().unwrap()]).ok();
    with(&c, &["creature", "add", bear.to_str().unwrap()]).ok();
    c
}

fn verify_clean(c: &Path) {
    let verify = with(c, &["journal", "verify"]);
    let out = verify.ok();
    assert!(out.contains(" 0 do not match"), "{out}");
    assert!(out.contains(" 0 differ"), "{out}");
}

fn choices(status: &Value) -> Vec<(String, Option<String>, f64)> {
    status["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["line"].as_str().unwrap_or_default().to_owned(),
                c["background"].as_str().map(str::to_owned),
                c["p_success"].as_f64().unwrap(),
            )
        })
        .collect()
}

/// S18 in the campaign's combat: `hero Nick bg` (a background on every roll) is refused; a
/// background is named per roll. Nick's melee naming Acrobat Thief rolls Body 3 + 1 = 4 dice
/// (1, 1, 1, 4 → 4) against the bear's 2 (3, 2 → 3): Nick wins and deals 1 (dagger). The
/// bear's attack, Nick defending with the background: the bear's 5, 1 against Nick's 6, 2,
/// 2, 2: Nick wins and deals 1. Nick's next melee names none: 3 dice (1, 1, 1) against the
/// bear's 6, 5: the bear wins and deals 2. Nick ends with 3 of 5 hit points.
#[test]
fn backgrounds_are_named_per_roll_in_a_campaign_combat() {
    let dir = tempfile::tempdir().unwrap();
    let c = campaign(dir.path());
    with(&c, &["combat", "start", "--name", "cellar"]).ok();
    with(&c, &["combat", "do", "hero Nick bg"]).bad_input("named per roll");
    for line in [
        "hero Nick",
        "foe cave-bear",
        "place Nick cave-bear engaged",
        "order Nick cave-bear",
    ] {
        with(&c, &["combat", "do", line]).ok();
    }
    // Before the roll, the options give the choice with its odds: 4 dice beat 3.
    let status = json(&with(&c, &["combat", "status", "--json"]));
    let status = if status.get("combat").is_some() {
        status["combat"].clone()
    } else {
        status
    };
    let listed = choices(&status);
    let plain = listed
        .iter()
        .find(|(l, _, _)| l == "melee cave-bear")
        .unwrap_or_else(|| panic!("{listed:?}"));
    let with_bg = listed
        .iter()
        .find(|(l, _, _)| l == "melee cave-bear bg \"Acrobat Thief\"")
        .unwrap_or_else(|| panic!("{listed:?}"));
    assert_eq!(with_bg.1.as_deref(), Some("Acrobat Thief"));
    assert!(with_bg.2 > plain.2, "{listed:?}");

    let hit = json(&with(
        &c,
        &[
            "combat",
            "do",
            "melee cave-bear bg \"acrobat thief\" with 1,1,1,4,3,2",
            "--json",
        ],
    ));
    assert!(
        hit["text"].as_array().unwrap().iter().any(|t| t
            .as_str()
            .unwrap()
            .contains("cave-bear takes 1 damage from Nick (3 left)")),
        "{hit}"
    );
    assert_eq!(hit["events"][0]["attacker_background"], "Acrobat Thief");
    // The background is not on Nick's sheet: refused, nothing changes.
    with(&c, &["combat", "do", "end"]).ok();
    with(
        &c,
        &["combat", "do", "melee Nick defend-bg Sailor with 5,1,6,2,2"],
    )
    .bad_input("`Sailor` is not a background of Nick");
    let defended = json(&with(
        &c,
        &[
            "combat",
            "do",
            "melee Nick defend-bg \"Acrobat Thief\" with 5,1,6,2,2,2",
            "--json",
        ],
    ));
    assert!(
        defended["text"].as_array().unwrap().iter().any(|t| t
            .as_str()
            .unwrap()
            .contains("cave-bear takes 1 damage from Nick (2 left)")),
        "{defended}"
    );
    with(&c, &["combat", "do", "end"]).ok();
    // No background named: 3 dice. A fourth value would be one too many.
    with(&c, &["combat", "do", "melee cave-bear with 1,1,1,2,6,5"]).bad_input("too many values");
    with(&c, &["combat", "do", "melee cave-bear with 1,1,1,6,5"]).ok();
    with(&c, &["combat", "end"]).ok();
    assert_eq!(nick_hp(&c), 3);
    verify_clean(&c);
}

/// Options after the action is spent: Nick's melee spends it, and the options (which the
/// page's Play buttons play) no longer offer an attack; the disengage, his move, is left.
#[test]
fn a_campaign_combat_offers_no_attack_once_the_action_is_spent() {
    let dir = tempfile::tempdir().unwrap();
    let c = campaign(dir.path());
    with(&c, &["combat", "start"]).ok();
    for line in [
        "hero Nick",
        "foe cave-bear",
        "place Nick cave-bear engaged",
        "order Nick cave-bear",
        // 4, 3, 3 against 2, 1: Nick wins, the bear has 3 left.
        "melee cave-bear with 4,3,3,2,1",
    ] {
        with(&c, &["combat", "do", line]).ok();
    }
    let status = json(&with(&c, &["combat", "status", "--json"]));
    let status = if status.get("combat").is_some() {
        status["combat"].clone()
    } else {
        status
    };
    let actions: Vec<&str> = status["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["action"].as_str().unwrap())
        .collect();
    for attack in ["melee", "unarmed", "shoot"] {
        assert!(!actions.contains(&attack), "{attack}: {actions:?}");
    }
    assert!(actions.contains(&"disengage"), "{actions:?}");
    // Every option listed plays: the disengage (2, even: free).
    let line = status["choices"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["action"] == "disengage" && c["background"].is_null())
        .unwrap()["line"]
        .as_str()
        .unwrap()
        .to_owned();
    with(&c, &["combat", "do", &format!("{line} with 2")]).ok();
    verify_clean(&c);
}

/// Fast static combat (S11) from Nick's sheet against the trooper squad (difficulty 4, 5 hit
/// points, 2 damage). Round 1: 1, 2, 3 fails, Nick takes 2 (3 left); round 2: 4, 4, 4
/// passes, the squad takes 1 (4 left). The typed dice end there: the fight waits, the sheet
/// has 3 hit points. From here Nick needs 4 passes before 2 failures: with 3 dice p = 7/8,
/// p⁴(1 + 4q) = 7203/8192; naming his background, 4 dice, p = 15/16: 253125/262144.
#[test]
fn fast_static_combat_from_a_sheet_waits_resumes_and_is_abandoned() {
    let dir = tempfile::tempdir().unwrap();
    let c = campaign(dir.path());
    let first = json(&with(
        &c,
        &[
            "static",
            "--char",
            "Nick",
            "--foe",
            "trooper squad",
            "--rolled",
            "1,2,3,4,4,4",
            "--json",
        ],
    ));
    assert_eq!(first["outcome"], "waiting");
    assert_eq!(first["state"]["hit_points"], 3);
    assert_eq!(first["state"]["foe_hit_points"], 4);
    assert_eq!(first["odds"][0]["p_win_exact"], "7203/8192");
    assert_eq!(first["odds"][1]["background"], "Acrobat Thief");
    assert_eq!(first["odds"][1]["p_win_exact"], "253125/262144");
    assert_eq!(nick_hp(&c), 3);
    // A new fight while one is open is refused; so are values that stop inside a round
    // (3 dice a round), and a background not on the sheet. Nothing changes.
    with(&c, &["static", "--char", "Nick", "--foe", "trooper squad"]).bad_input("already");
    with(&c, &["static", "--char", "Nick", "--rolled", "4,4"]).bad_input("inside a round");
    with(
        &c,
        &[
            "static",
            "--char",
            "Nick",
            "--background",
            "Sailor",
            "--rolled",
            "4,4,4",
        ],
    )
    .bad_input("not a background of Nick");
    // Another process goes on, naming the background: 4 dice, 1, 1, 1, 4 passes (3 left).
    let second = json(&with(
        &c,
        &[
            "static",
            "--char",
            "Nick",
            "--background",
            "acrobat thief",
            "--rolled",
            "1,1,1,4",
            "--json",
        ],
    ));
    assert_eq!(second["state"]["foe_hit_points"], 3);
    assert_eq!(second["call"]["background"], "Acrobat Thief");
    let abandoned = json(&with(
        &c,
        &["static", "--char", "Nick", "--abandon", "--json"],
    ));
    assert_eq!(abandoned["outcome"], "abandoned");
    with(&c, &["static", "--char", "Nick"]).bad_input("in no fast static combat");
    assert_eq!(nick_hp(&c), 3);
    let journal = with(&c, &["journal", "show"]);
    assert!(
        journal.ok().contains("Nick fights trooper squad"),
        "{}",
        journal.stdout
    );
    assert!(
        journal.ok().contains("Nick leaves the fast static combat"),
        "{}",
        journal.stdout
    );
    verify_clean(&c);
}

/// A fight to the end from the opposition's numbers: difficulty 6, 3 hit points, 5 damage.
/// Nick's 1, 1, 1 fails: 5 − 5 = 0, he is out, and so is his sheet.
#[test]
fn fast_static_combat_to_the_end_writes_the_sheet() {
    let dir = tempfile::tempdir().unwrap();
    let c = campaign(dir.path());
    let lost = json(&with(
        &c,
        &[
            "static",
            "--char",
            "Nick",
            "--vs",
            "6",
            "--foe-hp",
            "3",
            "--foe-damage",
            "5",
            "--rolled",
            "1,1,1",
            "--json",
        ],
    ));
    assert_eq!(lost["outcome"], "lost");
    assert_eq!(nick_hp(&c), 0);
    // Over: the next call needs a new opposition, and Nick at 0 cannot fight.
    with(&c, &["static", "--char", "Nick", "--foe", "trooper squad"]).bad_input("is out");
    verify_clean(&c);
}

fn play(campaign: &Path, script: &str) -> (i32, String, String) {
    let output = assert_cmd::Command::cargo_bin("solum")
        .unwrap()
        .args(["play", "--campaign", campaign.to_str().unwrap()])
        .env("NO_COLOR", "1")
        .env_remove("SOLUM_CAMPAIGN")
        .write_stdin(script)
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// A piped `solum play` script across two processes on one campaign file: a tracker combat
/// with a background named per roll, and a fast static combat from Nick's sheet, then
/// `verify` clean. Nick: 5 hit points; the static round 1, 2, 3 fails against the squad's 4
/// (Nick 3); the bear loses twice to Nick's backgrounds (4 → 2); in the second process the
/// static round 4, 4, 4 passes (squad 4), the fight is abandoned, Nick keeps 3.
#[test]
fn a_piped_session_across_two_processes_plays_both_combats_and_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    std::fs::write(dir.path().join("nick.toml"), NICK_SHEET).unwrap();
    std::fs::write(dir.path().join("bear.toml"), BEAR).unwrap();
    let nick = dir.path().join("nick.toml");
    let bear = dir.path().join("bear.toml");
    let first = format!(
        "char import {}\ncreature add {}\ncombat start --name alley\ndo hero Nick\n\
         do foe cave-bear\ndo place Nick cave-bear engaged\ndo order Nick cave-bear\n\
         do melee cave-bear bg \"Acrobat Thief\" with 1,1,1,4,3,2\n\
         static --char Nick --foe \"trooper squad\" --rolled 1,2,3\n",
        nick.display(),
        bear.display()
    );
    let (code, out, err) = play(&c, &first);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("cave-bear takes 1 damage from Nick (3 left)"),
        "{out}"
    );
    assert!(out.contains("the fight waits"), "{out}");
    let second = "do end\ndo melee Nick defend-bg \"Acrobat Thief\" with 5,1,6,2,2,2\n\
                  combat end\nstatic --char Nick --rolled 4,4,4\nstatic --char Nick --abandon\n\
                  verify\n";
    let (code, out, err) = play(&c, second);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("cave-bear takes 1 damage from Nick (2 left)"),
        "{out}"
    );
    assert!(out.contains("Nick leaves the fight"), "{out}");
    assert!(out.contains(" 0 do not match"), "{out}");
    assert!(out.contains(" 0 differ"), "{out}");
    assert_eq!(nick_hp(&c), 3);
}
