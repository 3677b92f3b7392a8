//! `solum roll EXPR` and `solum odds EXPR…` end to end.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::common;

use common::{solum, solum_args};

#[test]
fn roll_with_a_seed_replays_and_keeps_every_die() {
    let a = solum_args(&["roll", "4d6kh3", "--seed", "7", "--json"]).json();
    let b = solum_args(&["roll", "4d6kh3", "--seed", "7", "--json"]).json();
    assert_eq!(a, b);
    assert_eq!(a["seed"], 7);
    let dice = a["terms"][0]["dice"].as_array().unwrap();
    assert_eq!(
        dice.len(),
        4,
        "every die is kept in the roll, dropped ones marked"
    );
    assert_eq!(dice.iter().filter(|d| d["kept"] == false).count(), 1);
    // The total is the three highest faces, from the faces as rolled.
    let mut faces: Vec<i64> = a["rolled"]["faces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    faces.sort_unstable();
    assert_eq!(a["total"], faces[1] + faces[2] + faces[3]);
}

#[test]
fn roll_with_typed_dice() {
    let run = solum_args(&["roll", "2d6 + 3 [fire]", "--rolled", "6,2"]);
    let text = run.ok();
    assert!(text.starts_with("2d6 + 3 [fire] = 11"), "{text}");
    assert!(text.contains("3 [fire] → 3"), "{text}");
    // Several words are one expression.
    let j = solum_args(&["roll", "2d6", "+", "3", "--rolled", "6,2", "--json"]).json();
    assert_eq!(j["total"], 11);
    assert_eq!(j["typed"], true);
    assert_eq!(j["seed"], serde_json::Value::Null);
    // Rerolls and explosions take typed values in the order they are rolled:
    // 1 rerolled, 1 rerolled, 6 explodes, 6 explodes, 3.
    let j = solum_args(&["roll", "d6r1!", "--rolled", "1,1,6,6,3", "--json"]).json();
    assert_eq!(j["total"], 15);
    assert_eq!(j["rolled"]["faces"], serde_json::json!([1, 1, 6, 6, 3]));
    // Nothing journaled: no entry number.
    assert_eq!(j["seq"], serde_json::Value::Null);
}

#[test]
fn typed_dice_must_fit_the_roll() {
    solum_args(&["roll", "3d6", "--rolled", "1,2"]).bad_input("too few values in --rolled");
    solum_args(&["roll", "3d6", "--rolled", "1,2,3,4"]).bad_input("too many values in --rolled");
    solum_args(&["roll", "d6", "--rolled", "7"]).bad_input("not a face of a d6");
    solum_args(&["roll", "d6", "--rolled", "1", "--seed", "2"]).bad_input("cannot be used with");
}

#[test]
fn roll_errors_point_at_the_column() {
    let run = solum_args(&["roll", "4d6kh"]);
    run.bad_input("expected how many dice to keep or drop");
    assert!(run.stderr.contains("  4d6kh\n       ^"), "{}", run.stderr);
    solum_args(&["roll", "d1!"]).bad_input("explode for ever");
    solum_args(&["roll", "1000000d1000000"]).bad_input("a term rolls 1 to 1000 dice");
}

#[test]
fn roll_keeps_its_subcommands() {
    let j = solum("roll sol --dice 3 --seed 1 --json").json();
    assert!(
        j.get("hits").is_some() || j.to_string().contains("hits"),
        "{j}"
    );
    solum("roll dietype d8 --seed 1").ok();
    solum("roll soluna --dice 3 --seed 1").ok();
}

/// The exact chance `expr`'s odds give `value`, from `--json`.
fn exact_of(odds: &serde_json::Value, value: i64) -> &str {
    odds["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["value"] == value)
        .and_then(|o| o["exact"].as_str())
        .unwrap()
}

#[test]
fn odds_json_is_exact() {
    let j = solum("odds 3d6 --json").json();
    // 27 of the 216 ways to roll 3d6 make 10.
    let ten = &j["outcomes"].as_array().unwrap()[7];
    assert_eq!(ten["value"], 10);
    assert!((ten["p"].as_f64().unwrap() - 27.0 / 216.0).abs() < 1e-15);
    assert_eq!(exact_of(&j, 10), "1/8");
    assert_eq!(
        (j["values"].as_u64(), j["truncated"].as_bool()),
        (Some(16), Some(false))
    );
    assert!((j["mean"].as_f64().unwrap() - 10.5).abs() < 1e-12);
    assert!((j["sd"].as_f64().unwrap() - 8.75f64.sqrt()).abs() < 1e-12);
    // Several expressions: a list, in order.
    let j = solum_args(&["odds", "4d6kh3", "solum(3, vs 4)", "--json"]).json();
    let list = j.as_array().unwrap();
    assert_eq!(list.len(), 2);
    assert!((list[0]["mean"].as_f64().unwrap() - 15869.0 / 1296.0).abs() < 1e-12);
    // An Expanded check of 3 dice against 4 passes unless all three show 1-3: 7/8.
    assert_eq!(exact_of(&list[1], 1), "7/8");
}

#[test]
fn odds_text_has_the_table_and_the_chart() {
    let run = solum_args(&["odds", "2d6"]);
    let text = run.ok();
    assert!(text.contains("2d6  mean 7.0000  sd 2.4152"), "{text}");
    assert!(text.contains('≥') && text.contains('≤'), "{text}");
    // 7 has the longest bar (30 blocks); 2 and 12 one sixth of it.
    let row7 = text
        .lines()
        .find(|l| l.trim_start().starts_with("7 "))
        .unwrap();
    assert!(row7.contains(&"█".repeat(30)), "{row7}");
    assert!(row7.contains("16.67%"), "{row7}");
    assert!(
        text.contains("percentiles  5%: 3  25%: 5  50%: 7  75%: 9  95%: 11"),
        "{text}"
    );
}

#[test]
fn odds_keep_their_subcommands() {
    let j = solum("odds check 3 --vs 4 --json").json();
    assert!((j["p_pass"].as_f64().unwrap() - 0.875).abs() < 1e-12);
}

#[test]
fn odds_limits_are_refused_quickly() {
    for (expr, needle) in [
        ("1000000d1000000", "1 to 1000 dice"),
        ("1000d20", "steps"),
        ("d1000*d1000", "different values"),
    ] {
        common::solum_args_end(&["odds", expr]).bad_input(needle);
    }
}

#[test]
fn plots_are_written_as_svg_and_png() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("odds.svg");
    let svg_arg = svg.to_str().unwrap();
    solum_args(&["odds", "4d6kh3", "3d6", "--plot", svg_arg]).ok();
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg"), "{}", &text[..50]);
    for needle in ["4d6kh3", "3d6", "probability (%)", "value"] {
        assert!(text.contains(needle), "{needle} missing from the plot");
    }
    let png = dir.path().join("odds.png");
    solum_args(&["odds", "2d6", "--plot", png.to_str().unwrap(), "--json"]).json();
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    assert!(
        bytes.len() > 10_000,
        "a PNG with axes and text: {} bytes",
        bytes.len()
    );
    solum_args(&["odds", "2d6", "--plot", "odds.jpg"]).bad_input("must end in .svg or .png");
}

#[test]
fn roll_with_a_campaign_journals_and_verify_re_derives_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("c.solum");
    let f = file.to_str().unwrap();
    // 4d6kh3 with 6, 2, 5, 1: 6 + 5 + 2 = 13.
    let run = solum_args(&["roll", "4d6kh3", "--rolled", "6,2,5,1", "--campaign", f]);
    let text = run.ok();
    assert!(text.starts_with("4d6kh3 = 13"), "{text}");
    assert!(text.contains("[1 dropped]"), "{text}");
    assert!(text.contains("journal entry 1"), "{text}");
    let j = solum_args(&[
        "roll",
        "3d6",
        "--seed",
        "9",
        "--journal",
        "--json",
        "--campaign",
        f,
    ])
    .json();
    assert_eq!((j["seq"].as_i64(), j["seed"].as_u64()), (Some(2), Some(9)));
    let faces: Vec<i64> = j["rolled"]["faces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert_eq!(j["total"].as_i64(), Some(faces.iter().sum()));
    // The same seed without a campaign rolls the same dice and keeps nothing.
    let once = solum_args(&["roll", "3d6", "--seed", "9", "--json"]).json();
    assert_eq!(once["total"], j["total"]);
    let run = solum_args(&["journal", "show", "--campaign", f]);
    let shown = run.ok();
    assert!(shown.contains("Roll 4d6kh3 = 13 (dice 6 2 5 1)"), "{shown}");
    let run = solum_args(&["journal", "verify", "--campaign", f]);
    let verify = run.ok();
    assert!(
        verify.contains("2 entries, 2 rolls re-derived, 0 do not match"),
        "{verify}"
    );
    // Typed faces that do not fit name the flag, and nothing is written.
    let bad = solum_args(&["roll", "2d6", "--rolled", "7,1", "--campaign", f]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(bad.stderr.contains("--rolled"), "{}", bad.stderr);
    let run = solum_args(&["journal", "verify", "--campaign", f]);
    assert!(run.ok().contains("2 entries"), "{}", run.stdout);
}

#[test]
fn roll_journal_keeps_a_big_roll_and_refuses_one_too_big_to_keep_before_rolling() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("c.solum");
    let f = file.to_str().unwrap();
    // Over the journal's entry limit when its per-term view was kept: journaled now.
    let j = solum_args(&["roll", "1000d2!", "--journal", "--json", "--campaign", f]).json();
    assert_eq!(j["seq"].as_i64(), Some(1));
    // Too many dice at worst to journal: refused before any die, naming the expression.
    let bad = solum_args(&["roll", "1000d1000r<500!", "--journal", "--campaign", f]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(bad.stderr.contains("expression"), "{}", bad.stderr);
    assert!(bad.stderr.contains("too many to journal"), "{}", bad.stderr);
    let run = solum_args(&["journal", "verify", "--campaign", f]);
    let verify = run.ok();
    assert!(
        verify.contains("1 entries, 1 rolls re-derived, 0 do not match")
            || verify.contains("1 entry, 1 roll re-derived, 0 do not match"),
        "{verify}"
    );
}
