//! `solum check` and `solum odds check`, end to end.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::common;

use common::{num, solum, solum_args};

#[test]
fn nick_climbs_the_tower_with_typed_dice() {
    let v = solum("check 3 --background --vs 5 --rolled 5,3,2,2 --json").json();
    assert_eq!(v["passed"], true);
    assert_eq!(v["result"], 5);
    assert_eq!(v["dice"], serde_json::json!([5, 3, 2, 2]));
    assert_eq!(v["pool"], 4);
    assert!((num(&v, "p_pass") - 65.0 / 81.0).abs() < 1e-12);
    assert_eq!(v["p_pass_exact"], "65/81");
    assert!(v["seed"].is_null(), "typed dice use no seed");
}

#[test]
fn bruno_loses_the_arm_wrestle() {
    let v = solum("check 3 --against 1 --rolled 3,2,2 --against-rolled 4 --json").json();
    assert_eq!(v["outcome"], "lose");
    assert_eq!(v["result"], 3);
    assert_eq!(v["against_result"], 4);
    let total = num(&v, "p_win") + num(&v, "p_draw") + num(&v, "p_lose");
    assert!((total - 1.0).abs() < 1e-12);
}

#[test]
fn ripperjack_rule_of_six_chain() {
    let v = solum("check 4 -b --vs 10 --rolled 6,6,5,3,2,3 --json").json();
    assert_eq!(v["chain"], serde_json::json!([3]));
    assert_eq!(v["result"], 9);
    assert_eq!(v["passed"], false);
}

#[test]
fn vault_lock_with_thieves_tools() {
    let v = solum("check 2 -b --gear --vs 5 --rolled 4,4,3,4 --json").json();
    assert_eq!(
        v["reroll"],
        serde_json::json!({"index": 2, "from": 3, "to": 4})
    );
    assert_eq!(v["final_dice"], serde_json::json!([4, 4, 4]));
    assert_eq!(v["passed"], false);
}

#[test]
fn seed_replays_exactly() {
    let a = solum("check 5 --vs 8 --seed 123456 --json").json();
    let b = solum("check 5 --vs 8 --seed 123456 --json").json();
    assert_eq!(a, b);
    assert_eq!(a["seed"], 123456);
    // Without a seed, the one chosen is reported and replays the same roll.
    let fresh = solum("check 5 --vs 8 --json").json();
    let seed = fresh["seed"].as_u64().expect("a fresh seed is reported");
    let replay = solum(&format!("check 5 --vs 8 --seed {seed} --json")).json();
    assert_eq!(fresh, replay);
}

#[test]
fn seeded_opposed_replays_and_typed_side_mixes_with_seed() {
    let a = solum("check 3 --against 3 --gear --roll-off --seed 9 --json").json();
    let b = solum("check 3 --against 3 --gear --roll-off --seed 9 --json").json();
    assert_eq!(a, b);
    assert_ne!(a["outcome"], "draw", "a roll-off never ends in a draw");
    // Seed 20 gives the other side a 6 as well, so both chain (S2).
    let mixed = solum("check 2 --against 2 --rolled 6,1,4 --seed 20 --json").json();
    assert_eq!(mixed["dice"], serde_json::json!([6, 1]));
    assert_eq!(mixed["chain"], serde_json::json!([4]));
    assert!(
        mixed["against_dice"]
            .as_array()
            .unwrap()
            .contains(&6.into())
    );
}

/// S2: a chain die is typed only when it can matter. A 6 against a difficulty up to 6, or
/// against a side without a 6, takes no chain die; one typed anyway is one too many.
#[test]
fn no_chain_die_where_it_cannot_matter() {
    let v = solum("check 2 --vs 6 --rolled 6,1 --json").json();
    assert_eq!(
        (v["result"].as_u64(), v["passed"].as_bool()),
        (Some(6), Some(true))
    );
    assert_eq!(v["chain"], serde_json::json!([]));
    assert_eq!(v["chain_not_needed"], true);
    solum("check 2 --vs 6 --rolled 6,1,4").bad_input("too many values in --rolled");
    // The text's customs pilot: 2, 3, 5 against 2, 3, 4, 4, 6 "doesn't need to" roll again.
    let run = solum("check 3 --against 5 --rolled 2,3,5 --against-rolled 2,3,4,4,6");
    let text = run.ok();
    assert!(text.contains("not rolled: a 6 already decides"), "{text}");
    assert!(text.contains("5 vs 6"), "{text}");
    // Both on a 6: each side types its chain.
    let v = solum("check 1 --against 1 --rolled 6,2 --against-rolled 6,6,1 --json").json();
    assert_eq!(
        (v["result"].as_u64(), v["against_result"].as_u64()),
        (Some(8), Some(13))
    );
    assert_eq!(v["outcome"], "lose");
}

#[test]
fn automatic_difficulty_rolls_nothing() {
    let v = solum("check 2 --vs automatic --json").json();
    assert_eq!(v["automatic"], true);
    assert_eq!(v["passed"], true);
    assert_eq!(v["p_pass"], 1.0);
    assert!(v["seed"].is_null());
}

#[test]
fn odds_match_the_closed_forms() {
    let v = solum("odds check 4 --vs 5 --json").json();
    assert!((num(&v, "p_pass") - 65.0 / 81.0).abs() < 1e-12);
    let v = solum("odds check 3 --vs 5 --gear --json").json();
    assert!((num(&v, "p_pass") - 65.0 / 81.0).abs() < 1e-12);
    let v = solum("odds check 1 --against 1 --json").json();
    assert!((num(&v, "p_draw") - (5.0 / 36.0 + 1.0 / 252.0)).abs() < 1e-12);
    assert!((num(&v, "p_win") - num(&v, "p_lose")).abs() < 1e-12);
    let table = solum("odds check 4 --json").json();
    let rows = table["difficulties"].as_array().unwrap();
    assert_eq!(rows.len(), 11);
    assert_eq!(rows[0]["difficulty"], 2);
    assert_eq!(rows[10]["difficulty"], 12);
}

#[test]
fn rendered_check_text() {
    let run = solum("check 4 -b --vs 10 --rolled 6,6,5,3,2,3");
    insta::assert_snapshot!(run.ok());
    let run = solum("check 2 -b --gear --vs tough --rolled 4,4,3,4");
    insta::assert_snapshot!(run.ok());
    let run = solum("check 2 --against 2 --rolled 4,3,2,5 --against-rolled 4,1,2,3 --roll-off");
    insta::assert_snapshot!(run.ok());
}

#[test]
fn rendered_odds_table() {
    insta::assert_snapshot!(solum("odds check 3").ok());
}

#[test]
fn bad_input_is_exit_2_with_a_clear_message() {
    solum("check 0 --vs 4").bad_input("invalid value '0' for '[ATTRIBUTE]'");
    solum("check 100000000000 --vs 4").bad_input("invalid value '100000000000'");
    solum("check 3 --vs -2").bad_input("difficulty -2");
    solum("check 3 --vs 0").bad_input("difficulty 0");
    solum("check 3 --vs 4 --rolled 7,1,1").bad_input("not a face of a d6");
    solum("check 3 --vs 4 --rolled 0,1,1").bad_input("value 0");
    solum("check 3 --vs 4 --rolled 1,1").bad_input("too few values in --rolled");
    solum("check 3 --vs 4 --rolled 1,1,1,1").bad_input("too many values in --rolled");
    solum("check 3 --vs 4 --rolled 1,x,1").bad_input("`x`");
    solum("check 3 --vs 4 --rolled 99999999999999999999").bad_input("not a whole number");
    solum("check 3 --against 2 --rolled 1,1,1 --against-rolled 9,1")
        .bad_input("--against-rolled: value 9");
    solum("check 3 --against 2 --rolled 1,1,1 --against-rolled 1")
        .bad_input("too few values in --against-rolled");
    solum("check 3 --against 0")
        .bad_input("invalid value '0' for '--against <POOL>': a pool has 1 to 1000 dice");
    solum("check 3 --vs hopeless").bad_input("`hopeless` is not a difficulty");
    solum("check 3").bad_input("--vs");
    solum("check 3 --vs 4 --against 2").bad_input("cannot be used with");
    solum("check three --vs 4").bad_input("invalid value");
    solum("odds check 1001").bad_input("a pool of 1001 dice is not possible");
    solum("odds check 3 --vs 2000").bad_input("difficulty 2000");
    solum_args(&["check", "3", "--vs", "4", "--rolled", ""]).bad_input("no dice values");
}

/// ATTRIBUTE is 1 to 1002 (S1: attributes start at 1; armor too heavy and a heavy weapon take
/// 1002 down to 1000 dice, the largest pool): outside, the parser refuses it naming the range,
/// in `check` and `odds check` alike.
#[test]
fn an_attribute_outside_1_to_1002_is_refused_as_it_is_read() {
    let words = "an attribute is 1 to 1002 (a pool has at most 1000 dice, after up to 2 penalties)";
    for (command, name) in [("check", "[ATTRIBUTE]"), ("odds check", "<ATTRIBUTE>")] {
        for typed in ["0", "1003", "-1", "99999999999999999999"] {
            solum(&format!("{command} {typed} --vs 4"))
                .bad_input(&format!("invalid value '{typed}' for '{name}': {words}"));
        }
    }
    // The bounds: 1 is one die, 1 in 2 to reach 4.
    let v = solum("check 1 --vs 4 --seed 1 --json").json();
    assert_eq!(v["pool"], 1);
    assert_eq!(v["p_pass_exact"], "1/2");
    let v = solum("odds check 1 --vs 4 --json").json();
    assert_eq!(
        (v["pool"].clone(), v["p_pass_exact"].clone()),
        (1.into(), "1/2".into())
    );
    // 1002 less both penalties, and 1001 less armor, are 1000 dice.
    let v = solum("check 1002 --armor-too-heavy --heavy-weapon --vs 4 --seed 1 --json").json();
    assert_eq!(v["pool"], 1000);
    let v = solum("odds check 1002 --armor-too-heavy --heavy-weapon --against 1 --json").json();
    assert_eq!(v["pool"], 1000);
    let v = solum("odds check 1001 --armor-too-heavy --vs 4 --json").json();
    assert_eq!(v["pool"], 1000);
    // Within the range, a pool its modifiers leave past 1000 dice is refused by the pool's
    // own limit.
    solum("check 1002 --vs 4")
        .bad_input("error: a pool of 1002 dice is not possible: a pool has 1 to 1000 dice");
    solum("odds check 1000 --background --vs 4")
        .bad_input("error: a pool of 1001 dice is not possible: a pool has 1 to 1000 dice");
}

/// `--against POOL` is 1 to 1000 dice, the largest pool, in `check` and `odds check` alike:
/// outside, the parser refuses it naming the range.
#[test]
fn an_opposing_pool_outside_1_to_1000_is_refused_as_it_is_read() {
    for command in ["check 3", "odds check 3"] {
        for typed in ["0", "1001", "-1", "99999999999999999999"] {
            solum(&format!("{command} --against {typed}")).bad_input(&format!(
                "invalid value '{typed}' for '--against <POOL>': a pool has 1 to 1000 dice"
            ));
        }
    }
    // One die against one: the sides are alike (S3), so a win is as likely as a loss.
    let v = solum("odds check 1 --against 1 --json").json();
    assert_eq!(v["against_pool"], 1);
    assert_eq!(v["p_win_exact"], v["p_lose_exact"]);
    // Typed dice against one die: the higher result wins, 3 against 4 loses.
    let v = solum("check 3 --against 1 --rolled 3,2,2 --against-rolled 4 --json").json();
    assert_eq!(
        (v["against_pool"].clone(), v["outcome"].clone()),
        (1.into(), "lose".into())
    );
    // A thousand dice a side, draws rolled off: even, exactly.
    let v = solum("odds check 1000 --against 1000 --roll-off --json").json();
    assert_eq!(v["against_pool"], 1000);
    assert_eq!(v["p_win_exact"], "1/2");
    let v = solum("check 1 --against 1000 --seed 1 --json").json();
    assert_eq!(v["against_pool"], 1000);
    assert_eq!(v["against_dice"].as_array().unwrap().len(), 1000);
}

#[test]
fn largest_pool_is_fine() {
    let v = solum("odds check 1000 --against 1000 --json").json();
    assert!((num(&v, "p_win") - num(&v, "p_lose")).abs() < 1e-12);
    let v = solum("check 1000 --vs 20 --seed 1 --json").json();
    assert_eq!(v["dice"].as_array().unwrap().len(), 1000);
}

#[test]
fn completions_and_man_page() {
    let bash = solum("completions bash");
    assert!(bash.ok().contains("solum"));
    let man = solum("man");
    assert!(man.ok().contains(".TH solum"));
    assert!(solum("--help").ok().contains("Exit codes"));
}

#[test]
fn typed_dice_and_a_seed_are_refused_together() {
    let run = solum("check 3 --vs 4 --rolled 5,3,2 --seed 7");
    run.bad_input("--seed 7");
    assert!(run.stderr.contains("--rolled"), "{}", run.stderr);
    solum("check 3 --against 2 --rolled 5,3,2 --against-rolled 1,1 --seed 7")
        .bad_input("--against-rolled");
    // Each alone still rolls.
    solum("check 3 --vs 4 --rolled 5,3,2").ok();
    solum("check 3 --vs 4 --seed 7").ok();
}

#[test]
fn negative_numbers_are_named_as_typed() {
    let run = solum("check -1 --vs 4");
    run.bad_input("invalid value '-1' for '[ATTRIBUTE]'");
    assert!(!run.stderr.contains("of 1 "), "{}", run.stderr);
    solum("odds check 3 --against -1").bad_input("invalid value '-1' for '--against <POOL>'");
    solum("check 4294967296 --vs 4").bad_input("4294967296");
}

#[test]
fn odds_check_at_the_limits_is_exact() {
    // Equal sides without gear and a fair roll-off: by symmetry win = lose = 1/2, no draw.
    let v = solum("odds check 1000 --against 1000 --roll-off --json").json();
    assert_eq!(v["p_win_exact"], "1/2");
    assert_eq!(v["p_draw_exact"], "0");
    // With gear on both sides the second decides its reroll after the first (docs/rules.md),
    // so only the total is known independently.
    let v = solum("odds check 1000 --gear --against 1000 --against-gear --json").json();
    let total = num(&v, "p_win") + num(&v, "p_draw") + num(&v, "p_lose");
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    let v = solum("odds check 1000 --gear --against 1000 --against-gear --roll-off --json").json();
    assert_eq!(v["p_draw_exact"], "0");
    solum("odds check 1000 --gear --vs 12 --json").json();
    solum("odds check 1000 --gear").ok();
    solum("odds check 1001 --vs 4").bad_input("1001");
    solum("odds check 3 --against 0").bad_input("invalid value '0' for '--against <POOL>'");
}

#[test]
fn pilot_pools_name_their_flag_and_value() {
    let run = solum("vehicle attack --pilot 0 --against-pilot 2");
    run.bad_input("invalid value '0' for '--pilot <PILOT>': a pool has 1 to 1000 dice");
    assert!(!run.stderr.contains("--against"), "{}", run.stderr);
    solum("vehicle chase --pilot 2 --against-pilot 1001").bad_input(
        "invalid value '1001' for '--against-pilot <AGAINST_PILOT>': a pool has 1 to 1000 dice",
    );
    solum("vehicle chase --pilot -3 --against-pilot 2")
        .bad_input("invalid value '-3' for '--pilot <PILOT>': a pool has 1 to 1000 dice");
}

#[test]
fn vehicle_attack_refuses_speed_it_would_ignore() {
    solum("vehicle attack --pilot 2 --against-pilot 2 --speed fast")
        .bad_input("--speed fast: speed counts only in a chase");
    solum("vehicle attack --pilot 2 --against-pilot 2 --against-speed slow")
        .bad_input("--against-speed slow");
    solum("vehicle chase --pilot 2 --against-pilot 2 --speed fast --seed 1").ok();
}

#[test]
fn empty_or_duplicate_names_are_refused_on_a_sheet() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    let c = c.to_str().unwrap();
    solum(&format!(
        "char new Nick --body 3 --mind 2 --charm 1 -b Soldier --weapon dagger --rolled 1,1,1 --campaign {c}"
    ))
    .ok();
    let edit = |flags: &str| solum(&format!("char edit Nick {flags} --campaign {c}"));
    edit("--add-weapon :light").bad_input("--add-weapon: needs words");
    edit("--add-weapon Dagger:light").bad_input("already carries");
    edit("--add-background soldier --correction").bad_input("already has the background");
    edit("--add-gear :reroll").bad_input("--add-gear: needs words");
    edit("--add-gear rope:reroll").ok();
    edit("--add-gear Rope:enables").bad_input("already has");
}

#[test]
fn set_attribute_at_the_integer_edges_is_refused_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    let c = c.to_str().unwrap();
    solum(&format!(
        "char new Nick --body 3 --mind 2 --charm 1 -b Soldier --weapon dagger --rolled 1,1,1 --campaign {c}"
    ))
    .ok();
    // Not a number of the attribute's type: clap refuses the flag, naming it.
    for (v, problem) in [
        ("4294967296", "too large a number"),
        ("-1", "not a whole number"),
        ("x", "not a whole number"),
    ] {
        solum(&format!("char edit Nick --set body={v} --campaign {c}")).bad_input(&format!(
            "invalid value 'body={v}' for '--set <ATTR=N>': `{v}`: {problem}"
        ));
    }
    for v in ["4294967295", "0", "5"] {
        solum(&format!("char edit Nick --set body={v} --campaign {c}"))
            .bad_input(&format!("body: {v} is outside 1 to 4"));
    }
    solum(&format!(
        "char edit Nick --set body=4 --correction --campaign {c}"
    ))
    .ok();
}

#[test]
fn vehicle_rolls_refuse_a_seed_beside_all_dice_typed() {
    solum("vehicle chase --pilot 1 --against-pilot 1 --rolled 3 --against-rolled 2 --seed 4")
        .bad_input("--seed 4");
    solum("vehicle chase --pilot 1 --against-pilot 1 --rolled 3 --seed 4").ok();
}

/// Every flag combination a command would silently ignore is refused by the parser (exit 2,
/// naming the flags), before any file is read or die rolled.
#[test]
fn combinations_that_would_be_ignored_are_refused() {
    const WITH: &str = "cannot be used with";
    let refused = [
        // check: one target; the opposing side's options need an opposing side.
        ("check 3 --vs 4 --against 2", WITH, "--against"),
        ("check 3 --vs 4 --against-gear", WITH, "--against-gear"),
        ("check 3 --vs 4 --roll-off", WITH, "--roll-off"),
        (
            "check 3 --vs 4 --against-rolled 2",
            WITH,
            "--against-rolled",
        ),
        // odds check: a difficulty or a pool, not both; opposing options need a pool.
        ("odds check 3 --vs 4 --against 2", WITH, "--against"),
        ("odds check 3 --vs 4 --against-gear", WITH, "--against-gear"),
        ("odds check 3 --vs 4 --roll-off", WITH, "--roll-off"),
        ("odds check 3 --against-gear", "required", "--against"),
        ("odds check 3 --roll-off", "required", "--against"),
        // char new / advance: typed dice are all used, a seed would roll nothing.
        (
            "char new Nick --body 3 --mind 2 --charm 1 -b Thief --weapon dagger --rolled 1,2,3 --seed 7",
            WITH,
            "--seed",
        ),
        (
            "char advance hero.toml --attribute body --rolled 2,2,2 --seed 7",
            WITH,
            "--seed",
        ),
        // char advance: A or B, not both.
        (
            "char advance hero.toml --background Pilot --attribute body",
            WITH,
            "--attribute",
        ),
        // char edit: armor on and off at once.
        (
            "char edit hero.toml --armor coat:light --no-armor",
            WITH,
            "--no-armor",
        ),
        // vehicle chase/attack: a catalogue vehicle brings its own speed and handling.
        (
            "vehicle chase --pilot 3 --against-pilot 3 --vehicle starfighter --speed fast",
            WITH,
            "--speed",
        ),
        (
            "vehicle chase --pilot 3 --against-pilot 3 --vehicle starfighter --handling clumsy",
            WITH,
            "--handling",
        ),
        (
            "vehicle attack --pilot 3 --against-pilot 3 --against-vehicle starfighter --against-speed fast",
            WITH,
            "--against-speed",
        ),
        (
            "vehicle attack --pilot 3 --against-pilot 3 --against-vehicle starfighter --against-handling clumsy",
            WITH,
            "--against-handling",
        ),
    ];
    for (args, why, flag) in refused {
        let run = solum(args);
        run.bad_input(why);
        assert!(run.stderr.contains(flag), "{args}: {}", run.stderr);
    }
    // Without the ignored flag the same commands run.
    solum("check 3 --against 2 --against-gear --roll-off --json").json();
    solum("odds check 3 --against 2 --against-gear --roll-off --json").json();
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    let c = c.to_str().unwrap();
    solum(&format!(
        "char new Nick --body 3 --mind 2 --charm 1 -b Thief --weapon dagger --rolled 1,2,3 --campaign {c}"
    ))
    .ok();
    solum(&format!("char grant Nick --campaign {c}")).ok();
    solum(&format!(
        "char advance Nick --background Pilot --rolled 2 --campaign {c}"
    ))
    .ok();
}

/// R3: a roll whose faces a person typed is always shown as typed. With typed dice on one
/// side and seeded dice on the other, each side says where its dice came from, in the text
/// and in the JSON.
#[test]
fn typed_and_seeded_sides_are_marked() {
    let run = solum("check 3 --against 1 --rolled 3,2,2 --seed 5");
    let text = run.ok();
    assert!(text.contains("You        3 2 2   typed"), "{text}");
    let against = text.lines().find(|l| l.contains("Against")).unwrap();
    assert!(against.ends_with("from the seed"), "{text}");
    assert!(text.contains("seed 5"), "{text}");
    let v = solum("check 3 --against 1 --rolled 3,2,2 --seed 5 --json").json();
    assert_eq!(
        (&v["typed"], &v["against_typed"]),
        (&true.into(), &false.into())
    );
    assert_eq!(v["seed"], 5);
    // The other way round, both typed, and both seeded.
    let v = solum("check 3 --against 1 --against-rolled 4 --seed 5 --json").json();
    assert_eq!(
        (&v["typed"], &v["against_typed"]),
        (&false.into(), &true.into())
    );
    let v = solum("check 3 --against 1 --rolled 3,2,2 --against-rolled 4 --json").json();
    assert_eq!(
        (&v["typed"], &v["against_typed"]),
        (&true.into(), &true.into())
    );
    assert!(v["seed"].is_null());
    let v = solum("check 3 --against 1 --seed 5 --json").json();
    assert_eq!(
        (&v["typed"], &v["against_typed"]),
        (&false.into(), &false.into())
    );
    // A plain check too.
    assert_eq!(
        solum("check 3 --vs 4 --rolled 3,2,2 --json").json()["typed"],
        true
    );
    assert_eq!(
        solum("check 3 --vs 4 --seed 5 --json").json()["typed"],
        false
    );
    let text = solum("check 3 --vs 4 --seed 5").ok().to_owned();
    assert!(
        text.lines()
            .any(|l| l.starts_with("  Dice") && l.ends_with("from the seed")),
        "{text}"
    );
}
