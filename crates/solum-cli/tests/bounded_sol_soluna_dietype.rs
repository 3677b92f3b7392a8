//! Bounded and robust, for Project Sol, Sol'una and Solum die types: the largest exact odds
//! end (the right answer, checked independently), extreme numbers end at once
//! with exit 2 and a message naming the flag and its limit, output the user sizes is capped.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::common;

use common::{num, solum_args, solum_args_end, solum_ends};

#[test]
fn sol_odds_at_the_limit_answer_quickly_and_right() {
    // 1000 dice against 1000 with Second Chance on both sides: symmetric, so the attacker's
    // chance is 1/2 plus half the chance of a tie, and the defender's critical success
    // equals the attacker's.
    let v = solum_ends(
        "odds sol --dice 1000 --second-chance --against 1000 --against-edge second-chance --json",
    )
    .json();
    let o = &v["opposed"];
    let (win, crit, dcrit) = (
        num(o, "p_success"),
        num(o, "p_critical_success"),
        num(o, "p_defender_critical_success"),
    );
    assert!((crit - dcrit).abs() < 1e-12, "{crit} {dcrit}");
    assert!(win > 0.5 && win < 0.53, "{win}");
    // A threshold of 1000 on 1000 dice: every die a hit, (5/9)^1000 with Second Chance.
    let v = solum_ends("odds sol --dice 1000 --threshold 1000 --second-chance --json").json();
    let expected = (1000.0 * (5.0f64 / 9.0).ln()).exp();
    assert!((num(&v, "p_success") - expected).abs() <= expected * 1e-9);
}

#[test]
fn sol_extreme_numbers_are_refused_by_flag() {
    for (args, needle) in [
        (
            "odds sol --dice 0",
            "invalid value '0' for '--dice <DICE>': a pool has 1 to 1000 dice",
        ),
        (
            "odds sol --dice -9223372036854775808",
            "invalid value '-9223372036854775808' for '--dice <DICE>': a pool has 1 to 1000 dice",
        ),
        (
            "odds sol --dice 3 --against 1001",
            "invalid value '1001' for '--against <AGAINST>': a pool has 1 to 1000 dice",
        ),
        ("odds sol --dice 3 --threshold 4294967296", "4294967296"),
        (
            "roll sol --dice 0 --seed 1",
            "invalid value '0' for '--dice <DICE>': a pool has 1 to 1000 dice",
        ),
        (
            "roll sol --attribute 9223372036854775807 --ranks 1 --seed 1",
            "invalid value '9223372036854775807' for '--attribute <ATTRIBUTE>': an attribute is 0 to 1000 (a pool rolls at most 1000 dice)",
        ),
        (
            "roll sol --attribute -1 --seed 1",
            "invalid value '-1' for '--attribute <ATTRIBUTE>': an attribute is 0 to 1000",
        ),
        (
            "roll sol --attribute 3 --ranks 1001 --seed 1",
            "invalid value '1001' for '--ranks <RANKS>': ranks are 0 to 1000 (a pool rolls at most 1000 dice)",
        ),
        (
            "roll sol --attribute 3 --ranks 2 --modifier -9223372036854775808 --seed 1",
            "invalid value '-9223372036854775808' for '--modifier <MODIFIERS>': a modifier is -1000 to 1000 (a pool rolls at most 1000 dice)",
        ),
        (
            "roll sol --attribute 3 --ranks 2 --assist 1001 --seed 1",
            "invalid value '1001' for '--assist <ASSIST>': an assistant's hits are 0 to 1000",
        ),
        (
            "roll sol --attribute 3 --ranks 2 --assist-dice 0 --seed 1",
            "invalid value '0' for '--assist-dice <ASSIST_DICE>': a pool has 1 to 1000 dice",
        ),
        (
            "sol test Kade --skill Firearms --attr Agility --against-dice -2",
            "invalid value '-2' for '--against-dice <AGAINST_DICE>': a pool has 1 to 1000 dice",
        ),
        (
            "sol test Kade --skill Firearms --attr Agility --modifier 1001",
            "invalid value '1001' for '--modifier <MODIFIERS>': a modifier is -1000 to 1000",
        ),
        (
            "roll sol --dice 3 --group 4,0,2 --seed 1",
            "--group: member 3 has 0: a pool has 1 to 1000",
        ),
        ("roll sol --dice 3 --group 4,4294967296 --seed 1", "--group"),
        (
            "roll sol --dice 3 --seed 1 --rolled 5,5,5",
            "cannot be used with",
        ),
        (
            "odds sol --dice 3 --push-the-limit --second-chance",
            "cannot be used with",
        ),
        ("odds sol --dice 3 --against-edge close-call", "--against"),
    ] {
        solum_ends(args).bad_input(needle);
    }
}

#[test]
fn a_group_of_ten_thousand_is_refused_and_a_large_one_summed_up() {
    let members = vec!["1000"; 10_000].join(",");
    let run = solum_args_end(&[
        "roll", "sol", "--dice", "3", "--group", &members, "--seed", "1",
    ]);
    run.bad_input("--group: 10000 members and the leader are more than the 100");
    // 99 members and the leader: 20 lines of tests, then one line for the rest.
    let members = vec!["1"; 99].join(",");
    let run = solum_args(&[
        "roll", "sol", "--dice", "1", "--group", &members, "--seed", "4",
    ]);
    let text = run.ok();
    let shown = text.matches("  member ").count() + text.matches("  leader ").count();
    assert!((20..=21).contains(&shown), "{text}");
    let summary = text
        .lines()
        .find(|l| l.contains("more member(s)"))
        .expect("a summary line");
    // The summary counts exactly the members not shown, and their misses agree with JSON.
    let v = solum_args(&[
        "roll", "sol", "--dice", "1", "--group", &members, "--seed", "4", "--json",
    ])
    .json();
    let tests = v["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 100);
    let best = v["best"].as_u64().unwrap() as usize;
    let hidden: Vec<_> = tests
        .iter()
        .enumerate()
        .filter(|(i, _)| *i >= 20 && *i != best)
        .collect();
    let misses = hidden.iter().filter(|(_, t)| t["hits"] == 0).count();
    assert!(
        summary.contains(&format!(
            "… {} more member(s), {misses} with no hits",
            hidden.len()
        )),
        "{summary}"
    );
}

#[test]
fn soluna_zero_dice_and_extreme_flips_are_refused_by_flag() {
    for (args, needle) in [
        (
            "odds soluna --dice 0",
            "invalid value '0' for '--dice <DICE>': exact odds take 1 to 40 dice (a test rolls up to 1000)",
        ),
        (
            "odds soluna --dice -3",
            "invalid value '-3' for '--dice <DICE>': exact odds take 1 to 40 dice",
        ),
        (
            "roll soluna --dice 0 --seed 1",
            "invalid value '0' for '--dice <DICE>': a Sol'una test rolls 1 to 1000 dice",
        ),
        (
            "odds soluna --dice 41",
            "invalid value '41' for '--dice <DICE>': exact odds take 1 to 40 dice (a test rolls up to 1000)",
        ),
        (
            "odds soluna --dice 5 --flips -9223372036854775808",
            "invalid value '-9223372036854775808' for '--flips <FLIPS>': net flips are -1000 to 1000",
        ),
        (
            "roll soluna --dice 5 --flips 9223372036854775807 --against-flips 1 --seed 1",
            "invalid value '9223372036854775807' for '--flips <FLIPS>': flips are 0 to 1000",
        ),
        (
            "roll soluna --dice 5 --against-flips -1 --seed 1",
            "invalid value '-1' for '--against-flips <AGAINST_FLIPS>': flips are 0 to 1000",
        ),
        (
            "roll soluna --dice 5 --body 4294967296 --seed 1",
            "4294967296",
        ),
        ("roll soluna --dice 5 --shield 2 --seed 1", "--body"),
    ] {
        solum_ends(args).bad_input(needle);
    }
}

#[test]
fn soluna_exact_odds_at_the_limit_answer_quickly() {
    for flips in ["0", "1000", "-1000", "40", "-40"] {
        let v = solum_ends(&format!("odds soluna --dice 40 --flips {flips} --json")).json();
        let total: f64 = v["largest"]
            .as_object()
            .unwrap()
            .values()
            .map(|p| p.as_f64().unwrap())
            .sum();
        assert!((total - 1.0).abs() < 1e-9, "{flips}: {total}");
    }
    // 1000 net flips on 40 dice: every die joins one group.
    let v = solum_ends("odds soluna --dice 40 --flips 1000 --json").json();
    assert!((num(&v["largest"], "40") - 1.0).abs() < 1e-12);
    // 1000 against: the group is the fewest possible, ⌈40/6⌉ = 7.
    let v = solum_ends("odds soluna --dice 40 --flips -1000 --json").json();
    assert!((num(&v["largest"], "7") - 1.0).abs() < 1e-12);
}

#[test]
fn a_thousand_flips_are_counted_not_listed() {
    let rolled = vec!["1"; 1000].join(",");
    let args = [
        "roll",
        "soluna",
        "--dice",
        "1000",
        "--against-flips",
        "1000",
        "--rolled",
        &rolled,
    ];
    let v = solum_args(&[&args[..], &["--json"]].concat()).json();
    let all = v["test"]["flips"].as_array().unwrap().len();
    assert!(all > 900, "{all}");
    let text = solum_args(&args);
    let out = text.ok();
    assert_eq!(out.matches("  flip     die").count(), 20, "{out}");
    assert!(
        out.contains(&format!(
            "  flip     … {} more (--json lists every flip)",
            all - 20
        )),
        "{out}"
    );
    assert!(out.lines().count() < 30, "{out}");
}

#[test]
fn skirmish_files_with_empty_or_duplicate_names_or_too_many_characters_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("sk.toml");
    let f = f.to_str().unwrap();
    let ch = |name: &str, side: &str| {
        format!(
            "[[character]]\nname = \"{name}\"\nside = \"{side}\"\nmind = 1\nbody = 0\nhit_points = 1\nranged = 1\n"
        )
    };
    for (text, needle) in [
        (ch("Csen", "a") + &ch("csen", "b"), "`csen` is listed twice"),
        (
            ch("Csen", "a") + &ch("", "b"),
            "character number 2: an empty name",
        ),
        (
            (0..21)
                .map(|i| ch(&format!("C{i}"), if i % 2 == 0 { "a" } else { "b" }))
                .collect(),
            "21 characters: a skirmish takes at most 20",
        ),
    ] {
        std::fs::write(f, text).unwrap();
        solum_ends(&format!("soluna skirmish {f} --seed 1")).bad_input(needle);
    }
}

#[test]
fn dietype_extreme_numbers_are_refused_by_flag() {
    for (args, needle) in [
        (
            "roll dietype d6 --chances 0 --seed 1",
            "invalid value '0' for '--chances <CHANCES>': a roll has 1 to 4 chances",
        ),
        (
            "odds dietype d6 --chances 9223372036854775807",
            "invalid value '9223372036854775807' for '--chances <CHANCES>': a roll has 1 to 4 chances",
        ),
        (
            "odds dietype d6 --against d8 --against-chances 5",
            "invalid value '5' for '--against-chances <AGAINST_CHANCES>': a roll has 1 to 4 chances",
        ),
        (
            "roll dietype --char Rook --ability Wits --against d8 --against-chances -1 --seed 1",
            "invalid value '-1' for '--against-chances <AGAINST_CHANCES>': a roll has 1 to 4 chances",
        ),
        (
            "odds dietype d6 --step 9223372036854775807",
            "for '--step <STEP>': die-type steps are -8 to 8",
        ),
        (
            "odds dietype d6 --against d8 --against-step -9223372036854775808",
            "for '--against-step <AGAINST_STEP>': die-type steps are -8 to 8",
        ),
        (
            "roll dietype d6 --damage d4 --damage-step 99 --seed 1",
            "for '--damage-step <DAMAGE_STEP>': die-type steps are -8 to 8",
        ),
        (
            "odds dietype d6 --vs 4294967296",
            "invalid value '4294967296' for '--vs <VS>': difficulties run from 2 (trivial) to 12 (divine)",
        ),
        (
            "roll dietype --char Rook --ability Wits --vs 1 --seed 1",
            "invalid value '1' for '--vs <VS>': difficulties run from 2 (trivial) to 12 (divine)",
        ),
        ("odds dietype d6 --vs 5 --against d8", "cannot be used with"),
        ("odds dietype d6 --against-chances 2", "--against"),
        ("roll dietype d6 --seed 1 --rolled 4", "cannot be used with"),
    ] {
        solum_ends(args).bad_input(needle);
    }
    // Eight steps either way still clamp: d4 and d12.
    let v = solum_ends("odds dietype d6 --step 8 --json").json();
    assert_eq!(v["die"], "d12");
    let v = solum_ends("odds dietype d6 --step -8 --json").json();
    assert_eq!(v["die"], "d4");
}

#[test]
fn dietype_exact_odds_at_the_limit_answer_quickly() {
    // d12, four chances, difficulty 12: the chances are independent, 1 − (1 − p)^4.
    let v = solum_ends("odds dietype d12 --chances 4 --vs 12 --json").json();
    let p = num(&v, "p_per_chance");
    assert!((num(&v, "p_success") - (1.0 - (1.0 - p).powi(4))).abs() < 1e-12);
    assert!(p > 0.0 && p < 1.0);
    let v =
        solum_ends("odds dietype d12 --chances 4 --against d12 --against-chances 4 --json").json();
    // Symmetric: win equals lose, and the three add up to 1 within the bound.
    let (w, d, l) = (num(&v, "p_win"), num(&v, "p_draw"), num(&v, "p_lose"));
    assert!((w - l).abs() < 1e-9, "{w} {l}");
    assert!((w + d + l - 1.0).abs() <= num(&v, "error_bound") + 1e-12);
}
