//! The original So1um end to end: hero files, checks from a hero, rest on the sheet, fights.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::common;

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

/// `odds classic check POOL` takes 1 to 1000 dice (the original's pool limit): outside, the
/// parser refuses it naming the range, negative numbers included.
#[test]
fn classic_check_odds_take_1_to_1000_dice_as_read() {
    for typed in ["0", "1001", "-1", "99999999999999999999"] {
        solum(&format!("odds classic check {typed} --vs 4")).bad_input(&format!(
            "invalid value '{typed}' for '<POOL>': a pool has 1 to 1000 dice"
        ));
    }
    // One die reaches 4 (average) on 4, 5 or 6: 1/2. A thousand dice fail only when all
    // show 1 to 3: 1 − (1/2)^1000.
    let v = solum("odds classic check 1 --vs 4 --json").json();
    assert_eq!(
        (v["pool"].clone(), v["p_pass_exact"].clone()),
        (1.into(), "1/2".into())
    );
    let v = solum("odds classic check 1000 --vs 4 --json").json();
    assert_eq!(v["pool"], 1000);
    let exact = v["p_pass_exact"].as_str().unwrap();
    let (num, den) = exact.split_once('/').unwrap();
    // 2^1000 = 10715086071862673…69376 (302 digits); the numerator is one less.
    assert!(
        den.starts_with("10715086071862673") && den.ends_with("69376"),
        "{exact}"
    );
    assert!(
        num.starts_with("10715086071862673") && num.ends_with("69375"),
        "{exact}"
    );
    assert_eq!((num.len(), den.len()), (302, 302));
}

/// Runs and times one command: it must end within `secs` (debug build, shared machine).
fn timed(args: &[&str], secs: f64) -> common::Run {
    let start = std::time::Instant::now();
    let run = solum_args(args);
    let took = start.elapsed().as_secs_f64();
    assert!(took < secs, "{args:?} took {took:.2} s");
    run
}

#[test]
fn classic_duel_odds_at_the_limits_answer_fast() {
    // Body 30 / hit points 30 each: 810,000 states in f64, a mirror fight, so even.
    let v = timed(
        &[
            "odds",
            "classic",
            "duel",
            "--body",
            "30",
            "--hp",
            "30",
            "--foe-body",
            "30",
            "--foe-hp",
            "30",
            "--json",
        ],
        5.0,
    )
    .json();
    assert!((num(&v, "p_win") - 0.5).abs() <= 1e-12, "{v}");
    assert!(v["p_win_exact"].is_null());
    assert_eq!(num(&v, "error_bound"), 1e-12);
    // 900 states, one hit point each and no Body to give: one decisive exchange of 30
    // dice against one die. Its chance by an independent exact computation (Python
    // fractions): 0.9991564127481068.
    let v = solum(
        "odds classic duel --body 30 --hp 1 --policy hit-points --foe-body 30 --foe-hp 1 --foe-stat-dice 1 --foe-policy hit-points --json",
    )
    .json();
    assert!(
        (num(&v, "p_win") - 0.999_156_412_748_106_8).abs() <= 1e-12,
        "{v}"
    );
    assert!(v["p_win_exact"].is_null());
    // Past the exact limit, seeded simulation agrees within 4 standard errors.
    let v = solum(
        "odds classic duel --body 6 --hp 8 --foe-body 7 --foe-hp 6 --foe-policy body --simulate 20000 --seed 4 --json",
    )
    .json();
    let sim = &v["simulated"];
    assert!(
        (num(sim, "rate") - num(&v, "p_win")).abs() < 4.0 * num(sim, "standard_error"),
        "{v}"
    );
    // The text shows the bound instead of an exact percentage.
    let text = solum("odds classic duel --body 20 --hp 20 --foe-body 20 --foe-hp 19");
    assert!(text.ok().contains("(f64, within 1e-12)"), "{}", text.stdout);
    // A simulation that would roll too many dice is refused before it starts, with the
    // most duels it may run.
    timed(
        &[
            "odds",
            "classic",
            "duel",
            "--body",
            "30",
            "--hp",
            "30",
            "--foe-body",
            "30",
            "--foe-hp",
            "30",
            "--simulate",
            "10000",
        ],
        5.0,
    )
    .bad_input("simulate at most");
}

#[test]
fn classic_numbers_past_their_limits_are_refused_fast() {
    let dir = tempfile::tempdir().unwrap();
    let huge = hero_file(
        &dir,
        "huge.toml",
        "name = \"Huge\"\nbody = 4294967295\nmind = 1\nspirit = 1\nhit_points = 4294967295\n",
    );
    for args in [
        vec!["classic", "show", &huge],
        vec!["classic", "check", &huge, "--vs", "3", "--seed", "1"],
        vec!["classic", "fight", &huge, "goblin", "--seed", "1"],
        vec!["classic", "rest", &huge, "--hours", "8"],
    ] {
        timed(&args, 3.0).bad_input("body: 4294967295 is outside 1 to 3");
    }
    // As a foe it is held to a monster's limit.
    timed(
        &["classic", "fight", "alessandor", &huge, "--seed", "1"],
        3.0,
    )
    .bad_input("body: 4294967295 is outside 1 to 30");
    // A duel's numbers are typed at the edge: clap names the flag, the type says the range.
    solum("odds classic duel --body 4294967295 --hp 2 --monster troll").bad_input(
        "invalid value '4294967295' for '--body <BODY>': a duel's Body, hit points and stat are 1 to 30",
    );
    solum("odds classic duel --body 2 --hp 2 --foe-body 2 --foe-hp 31").bad_input(
        "invalid value '31' for '--foe-hp <FOE_HP>': a duel's Body, hit points and stat are 1 to 30",
    );
    solum("odds classic duel --body 2 --hp 2 --stat-dice 31 --monster troll").bad_input(
        "invalid value '31' for '--stat-dice <STAT_DICE>': a duel's Body, hit points and stat are 1 to 30",
    );
    // A fight takes at most 100 opponents.
    let mut crowd = vec!["classic", "fight", "alessandor"];
    crowd.extend(std::iter::repeat_n("goblin", 101));
    timed(&crowd, 3.0).bad_input("101 opponents: a fight takes 1 to 100");
    solum("odds classic duel --body 4294967296 --hp 2 --monster troll").bad_input("--body");
    solum("classic check 99999999999999999999999 --vs 3")
        .bad_input("99999999999999999999999 dice: a pool has 1 to 1000 dice");
    solum("classic rest x.toml --hours 1e300").bad_input("x.toml");
    solum("classic check 3 --vs 99999999999999999999")
        .bad_input("invalid value '99999999999999999999' for '--vs <VS>': difficulty `99999999999999999999`: the original So1um's difficulties run from 1 (automatic) to 6 (hard)");
    solum("odds classic check 3 --vs 0").bad_input("difficulty `0`");
    // Zero dice is an error, wherever dice are counted.
    solum("classic check 0 --vs 3").bad_input("0 dice: a pool has 1 to 1000");
    solum("odds classic check 0 --vs 3")
        .bad_input("invalid value '0' for '<POOL>': a pool has 1 to 1000 dice");
    solum("odds classic duel --body 0 --hp 2 --monster troll").bad_input(
        "invalid value '0' for '--body <BODY>': a duel's Body, hit points and stat are 1 to 30",
    );
    solum("odds classic duel --body 2 --hp 2 --foe-body 2 --foe-hp 2 --foe-stat-dice 0").bad_input(
        "invalid value '0' for '--foe-stat-dice <FOE_STAT_DICE>': a duel's Body, hit points and stat are 1 to 30",
    );
}

#[test]
fn classic_contradictory_flags_are_refused() {
    for (args, needle) in [
        (
            "classic check --vs 4 --random 3",
            "'--vs <VS>' cannot be used with '--random'",
        ),
        (
            "classic check 3 --vs 4 --rolled 1,2,3 --seed 1",
            "cannot be used with '--seed",
        ),
        (
            "classic new Nim --rolled 1 --seed 1",
            "cannot be used with '--seed",
        ),
        (
            "classic oracle --rolled 1 --seed 1",
            "cannot be used with '--seed",
        ),
        (
            "classic oracle --advantage --disadvantage",
            "cannot be used with",
        ),
        (
            "classic fight alessandor goblin --ask --policy body",
            "'--ask' cannot be used with '--policy",
        ),
        (
            "classic fight alessandor goblin --rolled 1,2 --seed 1",
            "cannot be used with '--seed",
        ),
        (
            "odds classic duel --body 2 --hp 2 --monster troll --seed 3",
            "--simulate",
        ),
        (
            "odds classic duel --body 2 --hp 2 --monster troll --foe-hp 3",
            "cannot be used with",
        ),
        (
            "odds classic duel --body 2 --hp 2 --foe-body 2 --foe-hp 2 --foe-stat mind",
            "cannot be used with '--foe-stat",
        ),
        (
            "odds classic duel --body 2 --hp 2 --monster troll --damage 2",
            "--damage",
        ),
    ] {
        solum(args).bad_input(needle);
    }
}

#[test]
fn classic_empty_and_repeated_names_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.toml");
    let out = out.to_str().unwrap();
    solum_args(&["classic", "new", " ", "-o", out, "--seed", "1"])
        .bad_input("the name ` `: an entry needs a name");
    solum_args(&["classic", "new", "Nim", "-c", "", "-o", out, "--seed", "1"])
        .bad_input("a cliché needs words");
    solum_args(&[
        "classic", "new", "Nim", "-c", "Thief", "-c", "thief", "-o", out, "--seed", "1",
    ])
    .bad_input("`thief` repeats cliches[0]");
    assert!(!std::path::Path::new(out).exists(), "nothing is written");
    let twice = hero_file(
        &dir,
        "twice.toml",
        "name = \"Twice\"\nbody = 2\nmind = 1\nspirit = 1\nhit_points = 2\ncliches = [\"Thief\", \"THIEF\"]\n",
    );
    solum_args(&["classic", "show", &twice]).bad_input("cliches[1]: `THIEF` repeats cliches[0]");
    let nameless = hero_file(
        &dir,
        "nameless.toml",
        "name = \"\"\nbody = 2\nmind = 1\nspirit = 1\nhit_points = 2\n",
    );
    solum_args(&["classic", "show", &nameless]).bad_input("name: an entry needs a name");
    solum_args(&["classic", "fight", "alessandor", ""]).bad_input("an empty name");
    solum_args(&["classic", "fight", "", "goblin"]).bad_input("an empty name");
    solum_args(&["classic", "check", "", "--vs", "3"]).bad_input("an empty name");
    let grok = hero_file(&dir, "grok.toml", GROK);
    solum_args(&["classic", "fight", &grok, &grok, "--seed", "1"]).bad_input("the same sheet as");
    let m = hero_file(
        &dir,
        "m.toml",
        "name = \"M\"\nbody = 1\nmind = 1\nspirit = 1\nhit_points = 1\n",
    );
    solum_args(&["classic", "fight", &grok, &m, &m, "--seed", "1"]).bad_input("the same sheet as");
    // The book's entries may repeat: two goblins are two goblins.
    solum_args(&["classic", "fight", &grok, "goblin", "goblin", "--seed", "1"]).ok();
}

/// `solum` with `--campaign FILE` after the arguments.
fn in_campaign(campaign: &std::path::Path, args: &[&str]) -> common::Run {
    let mut all = args.to_vec();
    all.push("--campaign");
    all.push(campaign.to_str().unwrap());
    solum_args(&all)
}

#[test]
fn campaign_heroes_are_created_shown_exported_rested_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    // C1 by hand: Body 2,4,5 → 2; Mind 1,3,5 → 1; Spirit 6,6,6 → 3; hit points 2 + one
    // even die of 2,3 = 3.
    let v = in_campaign(
        &c,
        &[
            "classic",
            "new",
            "Ada",
            "-c",
            "Brave",
            "--rolled",
            "2,4,5,1,3,5,6,6,6,2,3,4,4",
            "--json",
        ],
    )
    .json();
    assert_eq!(v["sheet"]["hero"]["body"], 2);
    assert_eq!(v["sheet"]["hero"]["hit_points"], 3);
    assert!(!dir.path().join("ada.toml").exists(), "no file without -o");
    let listed = in_campaign(&c, &["classic", "list", "--json"]).json();
    assert_eq!(listed.as_array().unwrap().len(), 1);
    assert!(
        in_campaign(&c, &["classic", "show", "ada"])
            .ok()
            .contains("B:2 M:1 S:3 HP:3")
    );
    // Export, change, import as another hero.
    let text = in_campaign(&c, &["classic", "export", "Ada"])
        .ok()
        .to_owned();
    let file = dir.path().join("bo.toml");
    std::fs::write(
        &file,
        text.replace("name = \"Ada\"", "name = \"Bo\"")
            .replace("hit_points = 3", "hit_points = 1\nmax_hit_points = 3"),
    )
    .unwrap();
    in_campaign(&c, &["classic", "import", file.to_str().unwrap()]).ok();
    in_campaign(&c, &["classic", "import", file.to_str().unwrap()]).bad_input("already exists");
    // C2: 8 hours a hit point; the hours add up on the sheet between calls.
    let v = in_campaign(&c, &["classic", "rest", "Bo", "--hours", "6", "--json"]).json();
    assert_eq!(v["healed"][0], 0);
    let v = in_campaign(&c, &["classic", "rest", "Bo", "--hours", "2.5", "--json"]).json();
    assert_eq!(v["healed"][0], 1);
    assert_eq!(v["sheet"]["hero"]["hit_points"], 2);
    assert_eq!(v["sheet"]["hero"]["rest_toward_hit_point"], 0.5);
    in_campaign(&c, &["classic", "rest", "Bo", "--hours", "-1"]).bad_input("--hours");
    // Body 2 + Brave: 1, 4, 2 against 4 passes; journaled.
    let v = in_campaign(
        &c,
        &[
            "classic", "check", "ada", "--cliche", "brave", "--vs", "4", "--rolled", "1,4,2",
            "--json",
        ],
    )
    .json();
    assert_eq!(v["inputs"]["pool"], 3);
    assert_eq!(v["check"]["passed"], true);
    in_campaign(
        &c,
        &["classic", "check", "Ada", "--cliche", "sly", "--vs", "4"],
    )
    .bad_input("sly");
    // Book heroes still check by name, read-only, outside the campaign.
    in_campaign(
        &c,
        &["classic", "check", "alessandor", "--vs", "3", "--seed", "1"],
    )
    .ok();
    let report = in_campaign(&c, &["journal", "verify"]).ok().to_owned();
    assert!(
        report.contains("5 entries, 2 rolls re-derived, 0 do not match"),
        "{report}"
    );
}

#[test]
fn a_campaign_fight_stops_at_each_hit_and_goes_on_in_later_processes() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    let hero = dir.path().join("ada.toml");
    std::fs::write(
        &hero,
        "name = \"Ada\"\nbody = 2\nmind = 1\nspirit = 3\nhit_points = 3\n",
    )
    .unwrap();
    let rat = dir.path().join("rat.toml");
    std::fs::write(
        &rat,
        "name = \"Rat\"\nbody = 1\nmind = 1\nspirit = 1\nhit_points = 2\n",
    )
    .unwrap();
    in_campaign(&c, &["classic", "import", hero.to_str().unwrap()]).ok();
    // Before it starts: two dice against one win an exchange 125/216 of the time and tie 1/6;
    // nothing waits, nothing is kept.
    let before = in_campaign(
        &c,
        &["classic", "fight", "Ada", rat.to_str().unwrap(), "--odds"],
    );
    let text = before.ok();
    assert!(
        text.contains("Fight Ada against Rat, before it starts"),
        "{text}"
    );
    assert!(
        text.contains("win 57.87% · tie 16.67% · lose 25.46%"),
        "{text}"
    );
    assert!(!text.contains("waits"), "{text}");
    assert!(
        in_campaign(&c, &["classic", "fight", "Ada", "--status"])
            .ok()
            .contains("Ada is not in a fight")
    );
    // By hand (C2): Ada 1 2 against the rat's 5: Ada is hit and the fight waits.
    let v = in_campaign(
        &c,
        &[
            "classic",
            "fight",
            "Ada",
            rat.to_str().unwrap(),
            "--rolled",
            "1,2,5",
            "--json",
        ],
    )
    .json();
    assert_eq!(v["status"]["pending"]["who"], "hero");
    assert_eq!(v["status"]["over"], false);
    in_campaign(&c, &["classic", "fight", "Ada", "goblin"]).bad_input("already in a fight");
    in_campaign(&c, &["classic", "fight", "Ada", "--decide", "maybe"]).bad_input("--decide");
    in_campaign(
        &c,
        &[
            "classic", "fight", "Ada", "--decide", "body", "--policy", "body",
        ],
    )
    .bad_input("--policy");
    // Body lost: one die. 6 against 3, the rat is down to 1; 4 against 4, a tie; 2 against 3,
    // Ada is hit again.
    let v = in_campaign(
        &c,
        &[
            "classic",
            "fight",
            "Ada",
            "--decide",
            "body",
            "--rolled",
            "6,3,4,4,2,3",
            "--json",
        ],
    )
    .json();
    assert_eq!(v["status"]["hero"], serde_json::json!([1, 3]));
    assert_eq!(v["status"]["foes"], serde_json::json!([[1, 1]]));
    // 5 against 1: the rat dies; Ada keeps Body 1 and 2 hit points, written to her sheet.
    let text = in_campaign(
        &c,
        &[
            "classic", "fight", "Ada", "--decide", "hp", "--rolled", "5,1",
        ],
    )
    .ok()
    .to_owned();
    assert!(text.contains("Ada wins"), "{text}");
    let v = in_campaign(&c, &["classic", "show", "Ada", "--json"]).json();
    assert_eq!(
        (v["hero"]["body"].as_u64(), v["hero"]["hit_points"].as_u64()),
        (Some(1), Some(2))
    );
    assert_eq!(v["in_fight"], false);
    in_campaign(&c, &["classic", "fight", "Ada", "--decide", "hp"]).bad_input("not in a fight");
    // With a policy, no questions: one call to the end.
    let v = in_campaign(
        &c,
        &[
            "classic", "fight", "Ada", "goblin", "--policy", "survive", "--seed", "9", "--json",
        ],
    )
    .json();
    assert_eq!(v["status"]["over"], true);
    let report = in_campaign(&c, &["journal", "verify"]).ok().to_owned();
    assert!(report.contains("0 do not match"), "{report}");
    // The hero file stays as it was: the campaign hero is a copy.
    assert!(std::fs::read_to_string(&hero).unwrap().contains("body = 2"));
}
