//! Project Sol end to end, rule by rule as the text writes it (rulings P1–P4).

mod common;

use common::{num, solum, solum_args};

/// A sheet in a temporary directory, made with `solum sol new`.
fn sheet(
    dir: &tempfile::TempDir,
    name: &str,
    edge: u32,
    attrs: &[&str],
    skills: &[&str],
) -> String {
    let f = dir.path().join(format!("{name}.toml"));
    let f = f.to_str().unwrap().to_owned();
    let edge = edge.to_string();
    let mut args = vec!["sol", "new", name, "--edge", &edge, "-o", &f];
    for a in attrs {
        args.extend(["--attr", a]);
    }
    for s in skills {
        args.extend(["--skill", s]);
    }
    solum_args(&args).ok();
    f
}

fn show(f: &str) -> String {
    solum_args(&["sol", "show", f]).ok().to_owned()
}

#[test]
fn critical_glitch_only_on_a_failed_test() {
    // Half ones, no hits, threshold 0: the test cannot fail, so only a glitch.
    let v = solum("roll sol --dice 4 --threshold 0 --rolled 1,1,2,3 --json").json();
    assert_eq!(v["test"]["success"], true);
    assert_eq!(v["test"]["glitch"], true);
    assert_eq!(v["test"]["critical_glitch"], false);
    let v = solum("roll sol --dice 4 --threshold 1 --rolled 1,1,2,3 --json").json();
    assert_eq!(v["test"]["critical_glitch"], true);
    // Odds: at threshold 0 no critical glitch; one die glitches on a 1 (1/6).
    let v = solum("odds sol --dice 1 --threshold 0 --json").json();
    assert_eq!(num(&v, "p_critical_glitch"), 0.0);
    assert!((num(&v, "p_glitch") - 1.0 / 6.0).abs() < 1e-12);
}

#[test]
fn smackdown_is_certain_and_earns_no_progress() {
    let v = solum("odds sol --dice 2 --threshold 6 --smackdown --json").json();
    assert_eq!(v["p_success_exact"], "1");
    assert_eq!(num(&v, "p_critical_success"), 1.0);
    solum("odds sol --dice 2 --smackdown --push-the-limit").bad_input("cannot be used with");
    let dir = tempfile::tempdir().unwrap();
    let f = sheet(&dir, "Cole", 2, &["AGI=4"], &["Sidearms=1"]);
    let v = solum_args(&[
        "sol",
        "test",
        &f,
        "--skill",
        "Sidearms",
        "--attr",
        "AGI",
        "--threshold",
        "2",
        "--edge",
        "smackdown",
        "--json",
    ])
    .json();
    assert_eq!(v["test"]["net_hits"], 4);
    assert_eq!(v["progress"]["point"], false, "6 hits, but no dice rolled");
    assert_eq!(v["edge"]["attribute"], 1);
}

#[test]
fn not_dead_yet_lowers_the_highest_physical_attribute() {
    let dir = tempfile::tempdir().unwrap();
    let f = sheet(&dir, "Kyra", 2, &["BOD=4", "STR=4", "AGI=2", "LOG=6"], &[]);
    // A tie in a script: a clear error naming the tied attributes; nothing burnt.
    solum_args(&["sol", "not-dead-yet", &f]).bad_input("BOD, STR tie for the highest");
    solum_args(&["sol", "not-dead-yet", &f]).bad_input("--attr");
    solum_args(&["sol", "not-dead-yet", &f, "--attr", "AGI"]).bad_input("not the highest");
    assert!(show(&f).contains("Edge 2/2"));
    assert!(show(&f).contains("BOD 4") && show(&f).contains("STR 4"));
    // Named: STR drops (LOG 6 is not physical), a point of Edge is burnt.
    let out = solum_args(&["sol", "not-dead-yet", &f, "--attr", "str"]);
    assert!(out.ok().contains("STR 4 → 3"), "{}", out.stdout);
    let s = show(&f);
    assert!(
        s.contains("Edge 1/1") && s.contains("STR 3") && s.contains("LOG 6"),
        "{s}"
    );
    // No tie now: BOD goes without asking.
    assert!(
        solum_args(&["sol", "not-dead-yet", &f])
            .ok()
            .contains("BOD 4 → 3")
    );
    // No Edge left to burn: refused, BOD stays.
    solum_args(&["sol", "not-dead-yet", &f, "--attr", "BOD"]).bad_input("no Edge attribute left");
    assert!(show(&f).contains("BOD 3"));
}

#[test]
fn no_bonus_at_zero_ranks() {
    // Logic 5, no ranks, untrained penalty, a bonus of 2: the bonus never applies, 5 - 3.
    let v =
        solum("roll sol --attribute 5 --modifier 2 --untrained-penalty --rolled 1,2 --json").json();
    assert_eq!(v["pool"]["dice"], 2);
    // Without the penalty, a penalty of 2 and a bonus of 4 leave the penalty: 4 - 2.
    let v = solum("roll sol --attribute 4 --modifier -2 --modifier 4 --rolled 1,2 --json").json();
    assert_eq!(v["pool"]["dice"], 2);
    // With a rank they combine first: +2 capped at 1.
    let v = solum(
        "roll sol --attribute 4 --ranks 1 --modifier -2 --modifier 4 --rolled 1,2,3,4,5,6 --json",
    )
    .json();
    assert_eq!(v["pool"]["dice"], 6);
}

#[test]
fn dice_refuse_the_flags_of_attribute_and_ranks() {
    for extra in [
        "--ranks 2",
        "--modifier 1",
        "--untrained-penalty",
        "--assist 2",
        "--assist-dice 3",
        "--attribute 3",
    ] {
        solum(&format!("roll sol --dice 4 {extra}")).bad_input("cannot be used with");
    }
    solum("roll sol --ranks 2").bad_input("--dice");
}

#[test]
fn a_failed_command_spends_and_saves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let f = sheet(&dir, "Hyde", 1, &["LOG=3"], &["Hacking=2"]);
    let test = |extra: &[&str]| {
        let mut args = vec!["sol", "test", &f, "--skill", "Hacking", "--attr", "LOG"];
        args.extend(extra);
        solum_args(&args)
    };
    test(&["--edge", "push-the-limit", "--rolled", "5,5"]).bad_input("too few values");
    test(&["--edge", "second-chance", "--rolled", "5,5,5,5,5,5"]).bad_input("too many values");
    test(&["--edge", "smackdown", "--rolled", "5"]).bad_input("too many values");
    test(&["--then", "close-call", "--rolled", "1,1,1,1,1,1"]).bad_input("too many values");
    test(&["--attr", "AGI"]).bad_input("cannot be used multiple times");
    let s = show(&f);
    assert!(
        s.contains("Edge 1/1") && s.contains("Hacking 2 (progress 0/5)"),
        "{s}"
    );
    // Spend with missing attributes: an error, no Edge spent.
    solum_args(&["sol", "spend", &f, "blitz"]).bad_input("no attribute `REA`");
    solum_args(&["sol", "spend", &f, "dead-mans-trigger", "--rolled", "5"])
        .bad_input("no attribute `BOD`");
    assert!(show(&f).contains("Edge 1/1"));
}

#[test]
fn opposed_tests_roll_both_sides() {
    // Sidearms + AGI vs REA + INT: 2 hits against 1, each side's dice in its own flag.
    let v = solum("roll sol --dice 3 --against-dice 2 --rolled 5,6,1 --against-rolled 5,2 --json")
        .json();
    assert_eq!(v["opposed"]["success"], true);
    assert_eq!(v["opposed"]["net_hits"], 1);
    // The defender pushes the limit: 3 hits beat 2.
    let v = solum(
        "roll sol --dice 3 --against-dice 3 --against-edge push-the-limit --rolled 5,6,2 --against-rolled 3,4,5 --json",
    )
    .json();
    assert_eq!(v["opposed"]["success"], false);
    // The attacker's Second Chance, then a critical success: 4 against 1.
    let v = solum(
        "roll sol --dice 4 --edge second-chance --against-dice 1 --rolled 5,5,1,2,5,6 --against-rolled 6 --json",
    )
    .json();
    assert_eq!(v["opposed"]["net_hits"], 3);
    assert_eq!(v["opposed"]["critical_success"], true);
    // A miss with a 1 against a hit: the attacker's critical glitch.
    let v = solum("roll sol --dice 1 --against-dice 1 --rolled 1 --against-rolled 5 --json").json();
    assert_eq!(v["opposed"]["attacker"]["critical_glitch"], true);
    let text = solum("roll sol --dice 2 --against-dice 1 --against-edge smackdown --rolled 5,6")
        .ok()
        .to_owned();
    assert!(text.contains("the defender holds, 4 net"), "{text}");
    solum("roll sol --dice 2 --against-dice 2 --rolled 5,5 --against-rolled 5")
        .bad_input("--against-rolled");
    solum("roll sol --dice 2 --against-dice 2 --rolled 5,5 --against-rolled 5,7")
        .bad_input("--against-rolled");
    solum("roll sol --dice 2 --edge smackdown --against-dice 2 --against-edge smackdown")
        .bad_input("only one side");
    solum("roll sol --dice 2 --against-dice 2 --threshold 2").bad_input("cannot be used with");
    solum("roll sol --dice 2 --against-dice 0").bad_input("--against-dice 0");
}

#[test]
fn opposed_test_from_a_sheet() {
    let dir = tempfile::tempdir().unwrap();
    let f = sheet(&dir, "Cole", 2, &["AGI=2"], &["Sidearms=1"]);
    // Sidearms + AGI, pushing the limit, against 2 dice: 3 hits against 1, 2 net, and more
    // hits than 1 rank: a progress point; one Edge spent.
    let v = solum_args(&[
        "sol",
        "test",
        &f,
        "--skill",
        "Sidearms",
        "--attr",
        "AGI",
        "--edge",
        "push-the-limit",
        "--against-dice",
        "2",
        "--rolled",
        "3,4,6",
        "--against-rolled",
        "5,2",
        "--json",
    ])
    .json();
    assert_eq!(v["opposed"]["success"], true);
    assert_eq!(v["opposed"]["net_hits"], 2);
    assert_eq!(v["progress"]["point"], true);
    assert_eq!(v["edge"]["points"], 1);
    // A defender's value too many: an error, no Edge spent, no progress saved.
    solum_args(&[
        "sol",
        "test",
        &f,
        "--skill",
        "Sidearms",
        "--attr",
        "AGI",
        "--edge",
        "second-chance",
        "--against-dice",
        "1",
        "--rolled",
        "5,5,5",
        "--against-rolled",
        "5,5",
    ])
    .bad_input("too many values in --against-rolled");
    assert!(show(&f).contains("Edge 1/2"));
    solum_args(&[
        "sol",
        "test",
        &f,
        "--skill",
        "Sidearms",
        "--attr",
        "AGI",
        "--against-dice",
        "1",
        "--threshold",
        "2",
    ])
    .bad_input("cannot be used with");
}

#[test]
fn opposed_odds_with_edge_on_both_sides() {
    // Reference values worked by hand: 1 die pushing (hits 2/3) against a Second Chance
    // (hits 5/9): the attacker fails only on a miss against a hit, 1/3 · 5/9.
    let v =
        solum("odds sol --dice 1 --push-the-limit --against 1 --against-edge second-chance --json")
            .json();
    assert_eq!(v["opposed"]["p_success_exact"], "22/27");
    // 3 pushing against 1 rerolling: 3 hits (8/27) and a miss after the reroll (4/9).
    let v =
        solum("odds sol --dice 3 --push-the-limit --against 1 --against-edge second-chance --json")
            .json();
    assert_eq!(v["opposed"]["p_critical_success_exact"], "32/243");
    // The attacker's critical glitch, 1 against 1: a 1 (1/6) against a hit (1/3).
    let v = solum("odds sol --dice 1 --against 1 --json").json();
    assert_eq!(v["opposed"]["p_attacker_critical_glitch_exact"], "1/18");
    solum("odds sol --dice 2 --against-edge push-the-limit").bad_input("--against");
    solum("odds sol --dice 2 --smackdown --against 2 --against-edge smackdown")
        .bad_input("only one side");
}

#[test]
fn try_again_costs_two_dice_until_none_are_left() {
    // 5 dice fail, 3 dice succeed.
    let v = solum("roll sol --attribute 3 --ranks 2 --threshold 2 --try-again --rolled 1,2,3,4,5,5,6,1 --json")
        .json();
    let tries = v["attempts"].as_array().unwrap();
    assert_eq!(tries.len(), 2);
    assert_eq!(tries[1]["pool"]["dice"], 3);
    // Never a success: 5, 3, 1 dice and no more.
    let out = solum("roll sol --dice 5 --threshold 1 --try-again --rolled 1,2,3,4,2,2,2,2,4")
        .ok()
        .to_owned();
    assert!(
        out.contains("3 attempt(s)") && out.contains("no more tries"),
        "{out}"
    );
    solum("roll sol --dice 5 --try-again").bad_input("--threshold");
    // From a sheet: the retry number, its penalty combined with the bonus (+3 - 2 = +1).
    let dir = tempfile::tempdir().unwrap();
    let f = sheet(&dir, "Hyde", 1, &["LOG=3"], &["Hacking=2"]);
    let v = solum_args(&[
        "sol",
        "test",
        &f,
        "--skill",
        "Hacking",
        "--attr",
        "LOG",
        "--threshold",
        "2",
        "--modifier",
        "3",
        "--retry",
        "1",
        "--rolled",
        "1,2,3,4,5,6",
        "--json",
    ])
    .json();
    assert_eq!(v["pool"]["dice"], 6);
    solum_args(&[
        "sol",
        "test",
        &f,
        "--skill",
        "Hacking",
        "--attr",
        "LOG",
        "--threshold",
        "2",
        "--retry",
        "3",
    ])
    .bad_input("no more tries");
    solum_args(&[
        "sol", "test", &f, "--skill", "Hacking", "--attr", "LOG", "--retry", "1",
    ])
    .bad_input("--threshold");
}

#[test]
fn an_assistant_rolls_its_own_test() {
    // The assistant's 4 dice give 3 hits, capped by 2 ranks: 3 + 2 + 2 = 7 dice.
    let v = solum(
        "roll sol --attribute 3 --ranks 2 --assist-dice 4 --threshold 2 --rolled 5,6,5,1,5,5,1,2,3,4,4 --json",
    )
    .json();
    assert_eq!(v["assistant"]["hits"], 3);
    assert_eq!(v["pool"]["dice"], 7);
    assert_eq!(v["test"]["success"], true);
    solum("roll sol --attribute 3 --assist-dice 2 --assist 1").bad_input("cannot be used with");
    // From sheets: the assistant rolls LOG + its ranks and earns its own progress.
    let dir = tempfile::tempdir().unwrap();
    let hyde = sheet(&dir, "Hyde", 1, &["LOG=3"], &["Hacking=2"]);
    let kyra = sheet(&dir, "Kyra", 1, &["LOG=1"], &["Hacking=1"]);
    // Kyra rolls 2 dice (2 hits, more than her 1 rank); Hyde 3 + 2 + 2 = 7.
    let v = solum_args(&[
        "sol",
        "test",
        &hyde,
        "--skill",
        "Hacking",
        "--attr",
        "LOG",
        "--threshold",
        "1",
        "--assistant",
        &kyra,
        "--rolled",
        "5,6,1,2,3,4,5,6,1",
        "--json",
    ])
    .json();
    assert_eq!(v["pool"]["dice"], 7);
    assert_eq!(v["assistant_progress"]["point"], true);
    assert!(show(&kyra).contains("Hacking 1 (progress 1/5"));
}

#[test]
fn second_chance_or_close_call_after_the_dice() {
    let v =
        solum("roll sol --dice 4 --threshold 2 --then second-chance --rolled 5,1,2,6,5,1 --json")
            .json();
    assert_eq!(v["test"]["hits"], 3);
    assert_eq!(v["test"]["spec"]["edge"], "second-chance");
    // Every die a hit: nothing to reroll, no Edge used, no die drawn.
    let v = solum("roll sol --dice 2 --then second-chance --rolled 5,6 --json").json();
    assert_eq!(v["test"]["spec"]["edge"], serde_json::Value::Null);
    solum("roll sol --dice 2 --then close-call --edge push-the-limit")
        .bad_input("cannot be used with");
    // On a sheet: the point is spent only when used, and refused with none left.
    let dir = tempfile::tempdir().unwrap();
    let f = sheet(&dir, "Cole", 1, &["AGI=2"], &["Sidearms=1"]);
    let test = |extra: &[&str]| {
        let mut args = vec![
            "sol",
            "test",
            &f,
            "--skill",
            "Sidearms",
            "--attr",
            "AGI",
            "--threshold",
            "1",
        ];
        args.extend(extra);
        solum_args(&args)
    };
    let v = test(&["--then", "close-call", "--rolled", "5,6,6", "--json"]).json();
    assert_eq!(v["edge"]["points"], 1, "no glitch: Close Call not spent");
    let v = test(&["--then", "close-call", "--rolled", "1,1,3", "--json"]).json();
    assert_eq!(v["test"]["critical_glitch"], false);
    assert_eq!(v["test"]["glitch"], true);
    assert_eq!(v["edge"]["points"], 0);
    test(&["--then", "second-chance", "--rolled", "1,1,3"]).bad_input("no Edge left");
}
