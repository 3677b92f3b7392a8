//! Exact distributions against brute-force enumeration of the roll itself, against seeded
//! simulation, and against values known from elsewhere.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use num_traits::{One, ToPrimitive, Zero};
use solum_dice::{Distribution, Prob, SeededDice, enumerate, prob};
use solum_notation::{distribution, parse, roll};

/// Every path of dice the roll can ask for, up to `depth` faces: the reference.
fn brute(text: &str, depth: usize) -> (std::collections::BTreeMap<i64, Prob>, Prob) {
    let expr = parse(text).unwrap();
    let e = enumerate(depth, |d| roll(&expr, d).map(|r| r.total)).unwrap();
    (e.outcomes, e.truncated)
}

/// The exact distribution equals the enumeration, within the mass either leaves out.
fn agrees(text: &str, depth: usize) {
    let exact = distribution(&parse(text).unwrap()).unwrap();
    let (outcomes, truncated) = brute(text, depth);
    let slack = &truncated + exact.neglected();
    let mut values: Vec<i64> = exact.outcomes().iter().map(|(v, _)| *v).collect();
    values.extend(outcomes.keys().copied());
    values.sort_unstable();
    values.dedup();
    for v in values {
        let a = exact.p_eq(v);
        let b = outcomes.get(&v).cloned().unwrap_or_else(Prob::zero);
        let diff = if a > b { &a - &b } else { &b - &a };
        assert!(
            diff <= slack,
            "{text}: P({v}) exact {a} brute {b} (slack {slack})"
        );
    }
    if slack.is_zero() {
        assert_eq!(exact.total(), Prob::one(), "{text}");
    }
}

#[test]
fn finite_terms_equal_enumeration_exactly() {
    for (text, depth) in [
        ("3d6", 3),
        ("d%", 1),
        ("4dF", 4),
        ("4d6kh3", 4),
        ("4d6dl1", 4),
        ("3d6kl2", 3),
        ("4d4dh1", 4),
        ("5d4k2", 5),
        ("2d20kh1", 2),
        ("2d6ro1", 4),
        ("3d4ro<2", 6),
        ("4d6ro1kh3", 8),
        ("6d6>=5", 6),
        ("5d10>7f1", 5),
        ("4d6kh2>=4", 4),
        ("2d6 + 3 * d4 - d8 / 2", 4),
        ("(d6 - d6) / 2", 2),
        ("-d4 * d3", 2),
        ("min(d6, d6, d6)", 3),
        ("max(2d4, d8) + 1 [fire]", 3),
        ("d6 - 3 [cold]", 1),
        ("solum(3, vs 4)", 3),
        ("solum(2, vs 6, gear)", 3),
        ("solum(1, vs 1)", 0),
        ("sol(4)", 4),
        ("sol(3, push)", 3),
        ("sol(3, second)", 6),
        ("una(3)", 3),
        ("una(4, +2)", 4),
        ("una(4, -1)", 4),
        ("solum(2, vs 4) + sol(2) - d4", 5),
    ] {
        agrees(text, depth);
    }
}

#[test]
fn explosions_with_their_bounded_depth_equal_enumeration() {
    // A die explodes at most 20 times (the rule): enumeration to that depth is exact.
    for (text, depth) in [
        ("d6!", 21),
        ("d4!!", 21),
        ("d6!p", 21),
        ("2d4!", 42),
        ("d3!>2", 21),
        ("2d3!!kh1", 42),
        ("3dF!", 63),
        ("3d4!>3>=4", 63),
        ("d4ro1!", 23),
    ] {
        let exact = distribution(&parse(text).unwrap()).unwrap();
        assert!(exact.neglected().is_zero(), "{text}");
        let (outcomes, truncated) = brute(text, depth);
        assert!(truncated.is_zero(), "{text}: depth {depth} too small");
        let brute = Distribution::from_fractions(outcomes, Prob::zero());
        assert_eq!(exact, brute, "{text}");
    }
}

#[test]
fn exploding_sums_past_u64_equal_the_convolutions() {
    // `NdM!` is N dice exploding at most 20 times; past u64 the engine sums them from the
    // exploding die's structure. The odds are those of adding the dice one convolution at a
    // time (the engine's general path), value by value and fraction by fraction.
    for (text, n, sides) in [("10d10!", 10, 10), ("3d6!", 3, 6), ("4d20!", 4, 20)] {
        let exact = distribution(&parse(text).unwrap()).unwrap();
        let reference = Distribution::die(sides).explode(20).sum_by_squares(n);
        assert_eq!(exact, reference, "{text}");
        assert!(exact.neglected().is_zero(), "{text}");
    }
}

#[test]
fn unbounded_terms_agree_within_what_is_left_out() {
    // Reroll until, the Rule of 6 chain and die types have no last die: the enumeration
    // leaves out its deep paths, the exact odds the rules crates' tiny tails.
    for (text, depth) in [
        // Explosions on several faces branch at every level: enumerated 8 faces deep.
        ("d4!>=3", 8),
        ("2d6!>=5", 8),
        ("d6!>4>=5", 8),
        ("d6r1", 8),
        ("d4r1!", 8),
        ("2d4r<3", 10),
        ("dFr=-1", 8),
        ("solum(1)", 6),
        ("solum(2)", 6),
        ("solum(1, vs 8)", 6),
        ("solum(2, vs 9, gear)", 6),
        ("dt(d4)", 7),
        ("dt(d6)", 6),
        ("dt(d8) + 1", 5),
    ] {
        agrees(text, depth);
    }
}

fn mean(d: &Distribution) -> Prob {
    d.outcomes()
        .iter()
        .map(|(v, p)| p * Prob::from_integer((*v).into()))
        .sum()
}

#[test]
fn known_references() {
    let d = |t: &str| distribution(&parse(t).unwrap()).unwrap();
    // 4d6 drop the lowest: 15869/1296 (a classic figure of character generation).
    assert_eq!(mean(&d("4d6kh3")), prob(15869, 1296));
    assert_eq!(mean(&d("4d6dl1")), prob(15869, 1296));
    // 3d6: 27 of 216 ways make 10.
    assert_eq!(d("3d6").p_eq(10), prob(27, 216));
    // 4dF: 19 of 81 ways make 0; ±4 one way each.
    assert_eq!(d("4dF").p_eq(0), prob(19, 81));
    assert_eq!(d("4dF").p_eq(4), prob(1, 81));
    // Advantage: P(20) = 1 - (19/20)^2; disadvantage's mean is 287/40.
    assert_eq!(d("2d20kh1").p_eq(20), prob(39, 400));
    assert_eq!(mean(&d("2d20kl1")), prob(287, 40));
    assert_eq!(d("d%").p_eq(100), prob(1, 100));
    // Successes of 8d10 at 7 or more: binomial, mean 8 * 4/10.
    assert_eq!(mean(&d("8d10>=7")), prob(16, 5));
    assert_eq!(d("8d10>=7").p_eq(8), prob(4i64.pow(8), 10i64.pow(8)));
    // Reroll 1s until: the other five faces are equally likely.
    assert_eq!(d("d6r1").p_eq(2), prob(1, 5));
    assert_eq!(d("d6r1").p_eq(1), Prob::zero());
    // Reroll 1s once: a 1 stays only if rolled twice.
    assert_eq!(d("d6ro1").p_eq(1), prob(1, 36));
    assert_eq!(d("d6ro1").p_eq(2), prob(7, 36));
    // Exploding: 7 is a 6 then a 1. Penetrating: 6 is a 6 then a 1 counted as 0.
    assert_eq!(d("d6!").p_eq(7), prob(1, 36));
    assert_eq!(d("d6!").p_eq(6), Prob::zero());
    assert_eq!(d("d6!p").p_eq(6), prob(1, 36));
    assert_eq!(d("d6!p").p_eq(5), prob(1, 6));
    // 7/2 rounds toward zero, and so does -7/2.
    assert_eq!(d("7 / 2").p_eq(3), Prob::one());
    assert_eq!(d("-7 / 2").p_eq(-3), Prob::one());
    // An Expanded check of 3 dice against 4: 1 - (3/6)^3 (the text's odds table: 87.5%).
    assert_eq!(d("solum(3, vs 4)").p_eq(1), prob(7, 8));
    // Project Sol: 8 dice hit on 5-6, mean 8/3 hits.
    assert_eq!(mean(&d("sol(8)")), prob(8, 3));
    // Sol'una: one die is always a group of 1.
    assert_eq!(d("una(1)").p_eq(1), Prob::one());
}

/// Mean and standard deviation of `n` seeded rolls.
fn simulate(text: &str, n: usize, seed: u64) -> f64 {
    let expr = parse(text).unwrap();
    let mut dice = SeededDice::new(seed);
    let sum: i64 = (0..n).map(|_| roll(&expr, &mut dice).unwrap().total).sum();
    sum as f64 / n as f64
}

#[test]
fn seeded_simulation_within_four_standard_errors() {
    let n = 20_000;
    for (i, text) in [
        "4d6kh3",
        "3d6! + 2",
        "2d20kl1",
        "8d10>=7f1",
        "d6r1 * 2",
        "4dF",
        "3d6!p",
        "solum(3)",
        "solum(2, vs 7)",
        "dt(d6)",
        "sol(6, second)",
        "una(5, +2)",
        "max(d20, d20) - min(d6, d8)",
    ]
    .iter()
    .enumerate()
    {
        let exact = distribution(&parse(text).unwrap()).unwrap();
        let m = simulate(text, n, 1000 + i as u64);
        let se = exact.std_dev() / (n as f64).sqrt();
        assert!(
            (m - exact.mean()).abs() <= 4.0 * se.max(1e-9),
            "{text}: simulated {m}, exact {} (se {se})",
            exact.mean()
        );
        // And the exact mean is the one the rational sum gives.
        let rational = mean(&exact).to_f64().unwrap() / exact.total().to_f64().unwrap();
        assert!((rational - exact.mean()).abs() < 1e-9);
    }
}

/// P(A > B) is P(A − B ≥ 1): the difference's "at least 1" (ties are its 0). Against a
/// count of every pair of rolls.
#[test]
fn one_roll_beats_another_by_the_difference() {
    let (mut wins, mut ties, mut all) = (0i64, 0i64, 0i64);
    for a in 0..6 * 6 * 6 {
        let sa = a % 6 + a / 6 % 6 + a / 36 + 3;
        for b in 0..8 * 8 {
            let sb = b % 8 + b / 8 + 2;
            all += 1;
            wins += i64::from(sa > sb);
            ties += i64::from(sa == sb);
        }
    }
    let o = solum_notation::odds(&parse("3d6 - 2d8").unwrap()).unwrap();
    let rows = o.rows();
    let at = |v: i64| rows.iter().find(|r| r.value == v).unwrap();
    assert_eq!(at(1).at_least, prob(wins, all));
    assert_eq!(at(0).eq, prob(ties, all));
    assert_eq!(prob(wins, all), prob(451, 768));
}

#[test]
fn keep_with_scores_in_either_order_equals_enumeration() {
    // A success count whose score rises with the face takes the keep walk over the scored
    // dice; one whose score falls (`<=2`, `=3`) keeps the general evaluation of the amounts.
    for (text, depth) in [
        ("4d6kh2<=2", 4),
        ("4d6kl2<=2", 4),
        ("4d6dh1=3", 4),
        ("4d6kl3>=4f1", 4),
        ("5d4dl2>2", 5),
        ("3d6kh2>=5f2", 3),
    ] {
        agrees(text, depth);
    }
}

#[test]
fn large_keeps_equal_the_general_evaluation() {
    // The pool's general evaluation over sorted multisets (`keep_by_multisets`, which knows
    // nothing of the keep walk the notation now takes): the same probabilities, value by value.
    fn general(die: Distribution, n: u32, k: u32, highest: bool) -> Distribution {
        solum_dice::Pool::new(die, n).keep_by_multisets(k, highest)
    }
    let d = |t: &str| distribution(&parse(t).unwrap()).unwrap();
    assert_eq!(d("50d20kh25"), general(Distribution::die(20), 50, 25, true));
    assert_eq!(d("12d10dh4"), general(Distribution::die(10), 12, 8, false));
    assert_eq!(d("9d6kl3"), general(Distribution::die(6), 9, 3, false));
    // Compounding amounts (at most 20 explosions, as the rule), kept by amount.
    assert_eq!(
        d("6d6!!kh3"),
        general(Distribution::die(6).explode(20), 6, 3, true)
    );
    // Successes (5 and 6) kept by amount: the same as keeping the scored dice by score.
    let hits = Distribution::from_pairs([(0, 4), (1, 2)]);
    assert_eq!(d("10d6kh4>=5"), general(hits, 10, 4, true));
}
