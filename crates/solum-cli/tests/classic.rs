//! The original So1um end to end: hero files, checks from a hero, rest on the sheet, fights.

mod common;

use common::{num, solum, solum_args};

fn hero_file(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let f = dir.path().join(name);
    std::fs::write(&f, text).unwrap();
    f.to_str().unwrap().to_owned()
}

const GROK: &str = "name = \"Grok\"\nbody = 3\nmind = 1\nspirit = 2\nhit_points = 4\ncliches = [\"The veteran warrior\"]\n";

#[test]
fn classic_check_from_a_hero_file_with_its_cliche() {
    let dir = tempfile::tempdir().unwrap();
    let f = hero_file(&dir, "grok.toml", GROK);
    // Spirit 2 plus one die for the cliché: three dice, tricky (5); the third die passes.
    let v = solum_args(&[
        "classic",
        "check",
        &f,
        "--stat",
        "spirit",
        "--cliche",
        "veteran warrior",
        "--vs",
        "tricky",
        "--rolled",
        "1,2,5",
        "--json",
    ])
    .json();
    assert_eq!(v["check"]["pool"], 3);
    assert_eq!(v["check"]["passed"], true);
    assert_eq!(v["hero"]["cliche"], "The veteran warrior");
    // 1 - (4/6)^3 = 19/27.
    assert!((num(&v, "p_pass") - 19.0 / 27.0).abs() < 1e-12);
    // Body by default, no cliché: three dice.
    let v = solum_args(&[
        "classic", "check", &f, "--vs", "6", "--rolled", "1,2,3", "--json",
    ])
    .json();
    assert_eq!(v["check"]["pool"], 3);
    assert_eq!(v["check"]["passed"], false);
    // A sample hero of the book, by name.
    let out = solum("classic check alessandor --stat mind --cliche cleric --vs 4 --rolled 4,1");
    assert!(
        out.ok().contains("Alessandor the Blade rolls Mind + 1 die"),
        "{}",
        out.stdout
    );
    solum_args(&[
        "classic",
        "check",
        &f,
        "--cliche",
        "Sticky fingers",
        "--vs",
        "4",
    ])
    .bad_input("--cliche: Grok has no cliché `Sticky fingers` (theirs: The veteran warrior)");
    solum_args(&["classic", "check", &f, "--stat", "luck", "--vs", "4"]).bad_input("--stat");
    solum("classic check 2 --cliche x --vs 4").bad_input("need a hero");
}

#[test]
fn classic_hero_files_are_validated() {
    let dir = tempfile::tempdir().unwrap();
    let f = hero_file(&dir, "bad.toml", &GROK.replace("mind = 1", "mind = 4"));
    solum_args(&["classic", "show", &f]).bad_input("bad.toml: mind: 4 is outside 1 to 3");
    let f = hero_file(
        &dir,
        "hp.toml",
        &GROK.replace("hit_points = 4", "hit_points = 9"),
    );
    solum_args(&["classic", "check", &f, "--vs", "3"])
        .bad_input("hp.toml: hit_points: 9 is outside 3 to 5");
    let f = hero_file(&dir, "typo.toml", &format!("{GROK}bdoy = 2\n"));
    solum_args(&["classic", "rest", &f, "--hours", "8"]).bad_input("unknown field `bdoy`");
    solum_args(&["classic", "fight", &f, "goblin", "--seed", "1"]).bad_input("typo.toml");
    // A monster file is held to a monster's limits: the book's Squidhead would do.
    let m = hero_file(
        &dir,
        "squid.toml",
        "name = \"Squid\"\nbody = 2\nmind = 5\nspirit = 4\nhit_points = 6\ncombat_stat = \"mind\"\n",
    );
    let ok = hero_file(&dir, "grok.toml", GROK);
    solum_args(&["classic", "fight", &ok, &m, "--seed", "3", "--json"]).json();
    let m0 = hero_file(
        &dir,
        "m0.toml",
        "name = \"M\"\nbody = 0\nmind = 1\nspirit = 1\nhit_points = 1\n",
    );
    solum_args(&["classic", "fight", &ok, &m0]).bad_input("m0.toml: body: 0 is outside");
}

#[test]
fn classic_rest_adds_up_on_the_sheet() {
    let dir = tempfile::tempdir().unwrap();
    // Grok at Body 2 of 3 and 1 hit point of 4.
    let f = hero_file(
        &dir,
        "grok.toml",
        &GROK
            .replace("body = 3", "body = 2\nmax_body = 3")
            .replace("hit_points = 4", "hit_points = 1\nmax_hit_points = 4"),
    );
    let v = solum_args(&["classic", "rest", &f, "--hours", "5.5", "--json"]).json();
    assert_eq!(v["rest"]["hit_points"], 0);
    assert_eq!(v["rest"]["toward_hit_point"], 5.5);
    assert!(
        std::fs::read_to_string(&f)
            .unwrap()
            .contains("rest_toward_hit_point = 5.5")
    );
    let shown = solum_args(&["classic", "show", &f]);
    assert!(
        shown
            .ok()
            .contains("rest banked: 5.5 h toward a hit point, 5.5 h toward Body"),
        "{}",
        shown.stdout
    );
    // 2.5 more hours make the 8 of a hit point.
    let v = solum_args(&["classic", "rest", &f, "--hours", "2.5", "--json"]).json();
    assert_eq!(v["rest"]["hit_points"], 1);
    assert_eq!(v["hero"]["hit_points"], 2);
    // 16 more: 24 in all, a day: one Body, and two more hit points.
    let v = solum_args(&["classic", "rest", &f, "--hours", "16", "--json"]).json();
    assert_eq!(
        (v["rest"]["hit_points"].as_u64(), v["rest"]["body"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(v["hero"]["body"], 3);
    // Healed in full: nothing is banked ahead of the next wound.
    solum_args(&["classic", "rest", &f, "--hours", "3"]).ok();
    assert!(!std::fs::read_to_string(&f).unwrap().contains("rest_toward"));
    solum_args(&["classic", "rest", &f, "--hours", "-2"]).bad_input("--hours");
    solum_args(&["classic", "rest", &f, "--hours", "soon"]).bad_input("--hours");
}

#[test]
fn classic_fight_with_the_applicable_stat_and_several_foes() {
    let dir = tempfile::tempdir().unwrap();
    let f = hero_file(&dir, "grok.toml", GROK);
    // Grok casts with Spirit (2 dice) against two goblins (1 die each), in turn:
    // round 1: goblin 1 (2 3 vs 5: Grok loses a hit point), goblin 2 (6 1 vs 2: it dies);
    // round 2: goblin 1 again (4 4 vs 4: a tie); round 3, goblin 1 alone (6 2 vs 1: dies).
    let v = solum_args(&[
        "classic",
        "fight",
        &f,
        "goblin",
        "goblin",
        "--stat",
        "spirit",
        "--policy",
        "hit-points",
        "--rolled",
        "2,3,5,6,1,2,4,4,4,6,2,1",
        "--json",
    ])
    .json();
    let ex = v["exchanges"].as_array().unwrap();
    let seen: Vec<_> = ex
        .iter()
        .map(|e| {
            (
                e["round"].as_u64().unwrap(),
                e["foe_index"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(seen, [(1, 0), (1, 1), (2, 0), (3, 0)]);
    assert_eq!(ex[0]["exchange"]["first"].as_array().unwrap().len(), 2);
    assert_eq!(ex[0]["hero"], serde_json::json!([3, 3]));
    assert_eq!(v["foe_dead"], true);
    assert_eq!(v["p_win"], serde_json::Value::Null);
    // The file keeps the wound.
    let saved = std::fs::read_to_string(&f).unwrap();
    assert!(
        saved.contains("hit_points = 3") && saved.contains("max_hit_points = 4"),
        "{saved}"
    );
    let text = solum_args(&["classic", "fight", &f, "goblin", "goblin", "--seed", "5"]);
    assert!(text.ok().contains("Goblin #2"), "{}", text.stdout);
    solum_args(&["classic", "fight", &f, "goblin", "--stat", "luck"]).bad_input("--stat");
    solum_args(&["classic", "fight", &f, "goblin", "--rolled", "1"]).bad_input("--rolled");
}

#[test]
fn classic_fight_asks_the_body_choice_from_the_state_machine() {
    let dir = tempfile::tempdir().unwrap();
    let f = hero_file(&dir, "grok.toml", GROK);
    // Grok (3 dice) loses twice to a troll (4 dice): asked each time, he answers Body then
    // a hit point; his dice shrink to 2 after the Body. Then he wins four times.
    let out = assert_cmd::Command::cargo_bin("solum")
        .unwrap()
        .args([
            "classic",
            "fight",
            &f,
            "troll",
            "--ask",
            "--foe-policy",
            "hit-points",
            "--json",
            "--rolled",
            "1,1,1,2,1,1,1,1,1,2,1,1,1,6,1,1,1,1,1,6,1,1,1,1,1,6,1,1,1,1,1,6,1,1,1,1,1",
        ])
        .write_stdin("b\nh\n")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ex = v["exchanges"].as_array().unwrap();
    assert_eq!(ex[0]["body_lost"], true);
    assert_eq!(ex[1]["body_lost"], false);
    assert_eq!(ex[1]["exchange"]["first"].as_array().unwrap().len(), 2);
    assert_eq!(ex[1]["hero"], serde_json::json!([2, 3]));
    assert_eq!(v["foe_dead"], true);
    let prompts = String::from_utf8_lossy(&out.stderr);
    assert_eq!(prompts.matches("lose a hit point or Body?").count(), 2);
    // Standard input ends while a decision waits: exit 2, no panic.
    let out = assert_cmd::Command::cargo_bin("solum")
        .unwrap()
        .args([
            "classic",
            "fight",
            &f,
            "troll",
            "--ask",
            "--rolled",
            "1,1,1,2,1,1,1,1",
        ])
        .write_stdin("")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn classic_duel_odds_with_the_applicable_stat() {
    // A spell with Mind 3 against one die: the fight never shrinks it.
    let mind =
        solum("odds classic duel --body 1 --hp 1 --stat-dice 3 --foe-body 1 --foe-hp 1 --json")
            .json();
    let body = solum(
        "odds classic duel --body 3 --hp 1 --policy hit-points --foe-body 1 --foe-hp 1 --json",
    )
    .json();
    // One hit point each and no Body given up: the same three dice against one.
    assert_eq!(mind["p_win"], body["p_win"]);
    // 1 die against 2 (one hit point each): 55/216 against 125/216, so 11/36.
    let v =
        solum("odds classic duel --body 1 --hp 1 --foe-body 1 --foe-hp 1 --foe-stat-dice 2 --json")
            .json();
    assert_eq!(v["p_win_exact"], "11/36");
    // A squidhead that fights with its Mind 5 is worse for Alessandor than one with Body 2.
    let a = solum("odds classic duel --body 2 --hp 2 --monster squidhead --foe-stat mind --json")
        .json();
    let b = solum("odds classic duel --body 2 --hp 2 --monster squidhead --json").json();
    assert!(num(&a, "p_win") < num(&b, "p_win"));
    solum("odds classic duel --body 2 --hp 2 --monster troll --foe-stat luck")
        .bad_input("--foe-stat");
    solum("odds classic duel --body 2 --hp 2 --stat-dice 0 --monster troll").bad_input("stat");
    // The simulation fights on the state machine: within 4 standard errors of the exact odds.
    let owlbear = "odds classic duel --body 2 --hp 3 --cliche --monster owlbear";
    let v = solum(&format!("{owlbear} --simulate 20000 --seed 11 --json")).json();
    let (exact, sim) = (num(&v, "p_win"), &v["simulated"]);
    assert_eq!(sim["fights"], 20000);
    assert!(
        (num(sim, "rate") - exact).abs() < 4.0 * num(sim, "standard_error"),
        "{v}"
    );
    let again = solum(&format!("{owlbear} --simulate 20000 --seed 11 --json")).json();
    assert_eq!(again["simulated"], v["simulated"]);
    solum(&format!("{owlbear} --simulate 0")).bad_input("--simulate 0");
}

#[test]
fn classic_check_odds_are_exact() {
    // Fail only when every die is under the difficulty: 1 - (5/6)^3 = 91/216.
    let v = solum("odds classic check 3 --vs hard --json").json();
    assert_eq!(v["p_pass_exact"], "91/216");
    // Gear rerolls a failing die: as one more die, 1 - (3/6)^2 = 3/4.
    let v = solum("odds classic check 1 --vs average --gear --json").json();
    assert_eq!(v["p_pass_exact"], "3/4");
}
