//! Exact odds at the ends of `i64`: products, sums, negation, division, `min`/`max`, keep and
//! explosions of big numbers never panic; a value no `i64` holds is refused with the roll's
//! own message, and where the expression has no dice, the odds and the roll agree exactly.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use proptest::prelude::*;
use solum_dice::SeededDice;
use solum_notation::{NotationError, odds, parse, roll};

/// Factors of the ends of i64 and numbers near the largest that may be written:
/// 49·73·127·337·92737·649657 = 2^63 − 1, 524288³·64 = 2^63.
const NUMBERS: [&str; 16] = [
    "0", "1", "2", "3", "9", "49", "64", "73", "127", "337", "92737", "649657", "524288", "999999",
    "1000000", "7",
];

/// Small dice terms: plain, kept, exploding, compounding, fudge, successes.
const DICE: [&str; 8] = ["d2", "2d6", "4d6kh3", "d6!", "2d4!!", "3dF", "4d6>=5", "d%"];

fn leaf() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => proptest::sample::select(NUMBERS.to_vec()).prop_map(str::to_owned),
        1 => proptest::sample::select(DICE.to_vec()).prop_map(str::to_owned),
    ]
}

fn expr() -> impl Strategy<Value = String> {
    leaf().prop_recursive(7, 40, 3, |inner| {
        prop_oneof![
            4 => (inner.clone(), proptest::sample::select(vec!["+", "-", "*", "/"]), inner.clone())
                .prop_map(|(a, op, b)| format!("({a}{op}{b})")),
            1 => inner.clone().prop_map(|a| format!("-({a})")),
            1 => (inner.clone(), inner.clone(), proptest::sample::select(vec!["min", "max"]))
                .prop_map(|(a, b, f)| format!("{f}({a},{b})")),
        ]
    })
}

/// Odds of `text`, and everything a front end reads from them (mean, sd, rows, percentiles).
fn odds_read(text: &str) -> Result<(), NotationError> {
    let o = odds(&parse(text).unwrap())?;
    let _ = (o.mean(), o.sd(), o.percentile(0.05), o.percentile(0.95));
    let rows = o.rows();
    assert!(!rows.is_empty(), "{text}: no value");
    Ok(())
}

#[test]
fn the_ends_of_i64_are_values_like_any_other() {
    // 2^63 − 1 and −2^63 themselves: the odds give them with certainty, as the roll does.
    for (text, value) in [
        ("49*73*127*337*92737*649657", i64::MAX),
        ("-524288*524288*524288*64", i64::MIN),
        ("-(49*73*127*337*92737*649657)", -i64::MAX),
        ("max(49*73*127*337*92737*649657, d6)", i64::MAX),
        ("min(-524288*524288*524288*64, d6)", i64::MIN),
        ("49*73*127*337*92737*649657 / 1", i64::MAX),
        ("-524288*524288*524288*64 / 2", i64::MIN / 2),
    ] {
        let o = odds(&parse(text).unwrap()).unwrap_or_else(|e| panic!("{text}: {e}"));
        let rows = o.rows();
        assert_eq!(rows.len(), 1, "{text}");
        assert_eq!(rows[0].value, value, "{text}");
        assert_eq!(o.percentile(0.5), value, "{text}");
        assert_eq!(o.mean(), value as f64, "{text}");
    }
    // The edge with dice beside it: two values, one of them the end.
    let o = odds(&parse("49*73*127*337*92737*649657 - d2 + 1").unwrap()).unwrap();
    let values: Vec<i64> = o.rows().iter().map(|r| r.value).collect();
    assert_eq!(values, [i64::MAX - 1, i64::MAX]);
}

#[test]
fn past_the_ends_of_i64_the_odds_refuse_as_the_roll_does() {
    for text in [
        "49*73*127*337*92737*649657 + 1",
        "49*73*127*337*92737*649657 + d2",
        "(49*73*127*337*92737*649657 - d2) + (49*73*127*337*92737*649657 - d2)",
        "-524288*524288*524288*64 - 1",
        "-(-524288*524288*524288*64)",
        "-(d2 - 524288*524288*524288*64 - 1)",
        "(-524288*524288*524288*64) / -1",
        "(d2 - 524288*524288*524288*64 - 1) / -1",
        "524288*524288*524288*64",
        "1000000*1000000*1000000*1000000*1000000*1000000*1000000",
        "max(1000000*1000000*1000000*1000000, d6)",
        "4d6kh3 * (1000000*1000000*1000000*10)",
        "d6! * (1000000*1000000*1000000*10)",
    ] {
        let expr = parse(text).unwrap();
        let odds_err = match odds(&expr) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("{text}: odds accepted"),
        };
        assert!(
            odds_err.starts_with("a number too large"),
            "{text}: {odds_err}"
        );
        // The roll meets the same edge on every path here (the dice cannot keep it inside).
        let roll_err = roll(&expr, &mut SeededDice::new(1))
            .unwrap_err()
            .to_string();
        assert_eq!(roll_err, odds_err, "{text}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Nothing panics; expressions without dice give the roll's answer or its error.
    #[test]
    fn big_numbers_near_the_ends_never_panic(text in expr()) {
        let r = odds_read(&text);
        // A limit of the odds (values, work, memory) is theirs alone; anything else, where
        // there are no dice, is the roll's answer.
        let limit = matches!(r, Err(NotationError::Limit { .. }));
        if !limit && !DICE.iter().any(|d| text.contains(d)) {
            let rolled = roll(&parse(&text).unwrap(), &mut SeededDice::new(1));
            match (&r, rolled) {
                (Ok(()), Ok(t)) => {
                    let o = odds(&parse(&text).unwrap()).unwrap();
                    prop_assert_eq!(o.rows()[0].value, t.total, "{}", text);
                }
                (Err(a), Err(b)) => prop_assert_eq!(a.to_string(), b.to_string(), "{}", text),
                (a, b) => prop_assert!(false, "{}: odds {:?}, roll {:?}", text, a, b.map(|t| t.total)),
            }
        }
    }
}
