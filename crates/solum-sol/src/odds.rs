//! Exact odds of hits, glitches and critical results.

use num_bigint::BigInt;
use num_traits::{One, Zero};
use solum_dice::{Distribution, Prob};

use crate::test::{EdgeOnTest, TestError};

/// Each die's final state as integer weights over a common denominator: hit, one, other.
fn weights(edge: Option<EdgeOnTest>) -> (u64, u64, u64, u64) {
    match edge {
        Some(EdgeOnTest::PushTheLimit) => (4, 1, 1, 6),
        // A die that missed (4 of 6) is rolled again: hit 2/6 + 4/6·2/6, one 4/6·1/6.
        Some(EdgeOnTest::SecondChance) => (20, 4, 12, 36),
        _ => (2, 1, 3, 6),
    }
}

/// Exact odds of one test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestOdds {
    /// The distribution of hits.
    pub hits: Distribution,
    /// Hits reach the threshold.
    pub success: Prob,
    /// Half or more ones.
    pub glitch: Prob,
    /// A glitch with no hits.
    pub critical_glitch: Prob,
    /// Three or more net hits.
    pub critical_success: Prob,
}

fn binomial_row(n: u32) -> Vec<BigInt> {
    let mut row = Vec::with_capacity(n as usize + 1);
    let mut c = BigInt::one();
    row.push(c.clone());
    for k in 1..=n {
        c = c * BigInt::from(n - k + 1) / BigInt::from(k);
        row.push(c.clone());
    }
    row
}

fn powers(base: u64, n: u32) -> Vec<BigInt> {
    let mut out = Vec::with_capacity(n as usize + 1);
    let mut p = BigInt::one();
    for _ in 0..=n {
        out.push(p.clone());
        p *= base;
    }
    out
}

/// One side's dice as integer weights over `total`: the weight of each number of hits, of a
/// glitch, and of a glitch with no hits (a critical glitch if the test fails).
struct SideWeights {
    hits: Vec<BigInt>,
    glitch: BigInt,
    no_hit_glitch: BigInt,
    total: BigInt,
}

fn side(dice: u32, edge: Option<EdgeOnTest>) -> SideWeights {
    let n = dice.max(1);
    let (h, o, r, d) = weights(edge);
    let c = binomial_row(n);
    let total = BigInt::from(d).pow(n);
    // Hits: C(n,k) h^k (d-h)^(n-k).
    let (hp, mp) = (powers(h, n), powers(d - h, n));
    let hits = (0..=n as usize)
        .map(|k| &c[k] * &hp[k] * &mp[n as usize - k])
        .collect();
    // Ones: C(n,k) o^k (d-o)^(n-k), for 2k >= n.
    let need = n.div_ceil(2) as usize;
    let (op, np) = (powers(o, n), powers(d - o, n));
    let glitch = (need..=n as usize)
        .map(|k| &c[k] * &op[k] * &np[n as usize - k])
        .sum();
    // No hits and a glitch: every die a one or an other.
    let rp = powers(r, n);
    let no_hit_glitch = (need..=n as usize)
        .map(|k| &c[k] * &op[k] * &rp[n as usize - k])
        .sum();
    SideWeights {
        hits,
        glitch,
        no_hit_glitch,
        total,
    }
}

/// The chances of a glitch and of a critical glitch, given the chance of the critical shape
/// (a glitch with no hits) on a failed test: Close Call negates a glitch, or turns a critical
/// glitch into a glitch.
fn glitches(edge: Option<EdgeOnTest>, glitch: Prob, critical: Prob) -> (Prob, Prob) {
    if edge == Some(EdgeOnTest::CloseCall) {
        (critical, Prob::zero())
    } else {
        (glitch, critical)
    }
}

/// Exact odds of a test of `dice` dice against `threshold`, with the Edge used on it
/// (Push the Limit or Second Chance change the dice; Close Call is counted as no glitch or
/// glitch; Smackdown rolls nothing and succeeds with 4 net hits: odds 1).
pub fn test_odds(dice: u32, threshold: u32, edge: Option<EdgeOnTest>) -> TestOdds {
    if edge == Some(EdgeOnTest::Smackdown) {
        return TestOdds {
            hits: Distribution::certain(i64::from(threshold) + 4),
            success: Prob::one(),
            glitch: Prob::zero(),
            critical_glitch: Prob::zero(),
            critical_success: Prob::one(),
        };
    }
    let n = dice.max(1);
    let w = side(n, edge);
    let tail = |from: u32| -> BigInt { w.hits.iter().skip(from as usize).sum() };
    let p = |x: BigInt| Prob::new(x, w.total.clone());
    // A critical glitch needs a failed test (P1): none when the threshold is 0.
    let critical = if threshold == 0 {
        Prob::zero()
    } else {
        p(w.no_hit_glitch.clone())
    };
    let (glitch, critical_glitch) = glitches(edge, p(w.glitch.clone()), critical);
    TestOdds {
        hits: Distribution::from_pairs(
            w.hits
                .iter()
                .enumerate()
                .map(|(k, x)| (k as i64, p(x.clone()))),
            Prob::zero(),
        ),
        success: p(tail(threshold)),
        glitch,
        critical_glitch,
        critical_success: p(tail(threshold + 3)),
    }
}

/// Exact odds of an opposed test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpposedOdds {
    /// The attacker succeeds: its hits reach the defender's.
    pub success: Prob,
    /// The attacker succeeds with three or more net hits.
    pub critical_success: Prob,
    /// The defender holds with three or more net hits.
    pub defender_critical_success: Prob,
    /// The attacker glitches (after its Close Call).
    pub attacker_glitch: Prob,
    /// The attacker fails with a critical glitch (after its Close Call).
    pub attacker_critical_glitch: Prob,
    /// The defender glitches (after its Close Call).
    pub defender_glitch: Prob,
    /// The defender fails with a critical glitch (after its Close Call).
    pub defender_critical_glitch: Prob,
}

/// Exact odds of an opposed test, each side with its own pool and Edge (see
/// [`crate::test::roll_opposed`]): the sides' dice are independent, so each result is a sum
/// over one side's hits of the other's cumulative weights.
pub fn opposed(
    attacker: u32,
    attacker_edge: Option<EdgeOnTest>,
    defender: u32,
    defender_edge: Option<EdgeOnTest>,
) -> Result<OpposedOdds, TestError> {
    let smack = |e: Option<EdgeOnTest>| e == Some(EdgeOnTest::Smackdown);
    let (a_smack, d_smack) = (smack(attacker_edge), smack(defender_edge));
    if a_smack && d_smack {
        return Err(TestError::BothSmackdown);
    }
    let a = side(attacker, attacker_edge);
    let d = side(defender, defender_edge);
    let total = &a.total * &d.total;
    let p = |x: BigInt| Prob::new(x, total.clone());
    // Cumulative weights: at_most[k] = weight of at most k hits.
    let at_most = |w: &SideWeights| -> Vec<BigInt> {
        w.hits
            .iter()
            .scan(BigInt::zero(), |acc, x| {
                *acc += x;
                Some(acc.clone())
            })
            .collect()
    };
    let (a_cum, d_cum) = (at_most(&a), at_most(&d));
    let upto = |cum: &Vec<BigInt>, k: i64| -> BigInt {
        if k < 0 {
            BigInt::zero()
        } else {
            cum[(k as usize).min(cum.len() - 1)].clone()
        }
    };
    // The attacker wins with `net` or more net hits.
    let attacker_wins = |net: i64| -> BigInt {
        a.hits
            .iter()
            .enumerate()
            .map(|(k, x)| x * upto(&d_cum, k as i64 - net))
            .sum()
    };
    let defender_wins_by_3: BigInt = d
        .hits
        .iter()
        .enumerate()
        .map(|(k, x)| x * upto(&a_cum, k as i64 - 3))
        .sum();
    let d_any_hit = &d.total - &d.hits[0];
    let (success, critical_success, defender_critical_success) = if a_smack {
        (Prob::one(), Prob::one(), Prob::zero())
    } else if d_smack {
        (Prob::zero(), Prob::zero(), Prob::one())
    } else {
        (
            p(attacker_wins(0)),
            p(attacker_wins(3)),
            p(defender_wins_by_3),
        )
    };
    // The attacker with no hits fails unless the defender has none either (or Smackdown).
    let (attacker_glitch, attacker_critical_glitch) = if a_smack {
        (Prob::zero(), Prob::zero())
    } else {
        let crit = if d_smack {
            &a.no_hit_glitch * &d.total
        } else {
            &a.no_hit_glitch * &d_any_hit
        };
        glitches(attacker_edge, p(&a.glitch * &d.total), p(crit))
    };
    // The defender with no hits always fails: the attacker's hits reach 0.
    let (defender_glitch, defender_critical_glitch) = if d_smack {
        (Prob::zero(), Prob::zero())
    } else {
        glitches(
            defender_edge,
            p(&d.glitch * &a.total),
            p(&d.no_hit_glitch * &a.total),
        )
    };
    Ok(OpposedOdds {
        success,
        critical_success,
        defender_critical_success,
        attacker_glitch,
        attacker_critical_glitch,
        defender_glitch,
        defender_critical_glitch,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test::{TestSpec, roll_test};
    use solum_dice::{DiceError, SeededDice, enumerate, prob, prob_to_f64};

    #[test]
    fn reference_values() {
        // One die: a hit on 5 or 6.
        let one = test_odds(1, 1, None);
        assert_eq!(one.success, prob(1, 3));
        // One die glitches on a 1 (2·1 >= 1); critical as well (no hits).
        assert_eq!(one.glitch, prob(1, 6));
        assert_eq!(one.critical_glitch, prob(1, 6));
        // Pushing the limit: 4 of 6.
        assert_eq!(
            test_odds(1, 1, Some(EdgeOnTest::PushTheLimit)).success,
            prob(2, 3)
        );
        // Second Chance: 1 - (2/3)^2 = 5/9.
        assert_eq!(
            test_odds(1, 1, Some(EdgeOnTest::SecondChance)).success,
            prob(5, 9)
        );
        assert_eq!(test_odds(3, 4, None).success, prob(0, 1));
    }

    /// Every roll of up to 5 dice, through `roll_test` itself, for each Edge.
    #[test]
    fn matches_enumeration_of_the_roll() {
        for n in 1..=5u32 {
            for t in 0..=4u32 {
                for edge in [
                    None,
                    Some(EdgeOnTest::PushTheLimit),
                    Some(EdgeOnTest::SecondChance),
                    Some(EdgeOnTest::CloseCall),
                ] {
                    // Second Chance doubles the dice: 6^10 paths at 5 dice is too slow a test.
                    if n == 5 && edge == Some(EdgeOnTest::SecondChance) {
                        continue;
                    }
                    let spec = TestSpec {
                        dice: n,
                        threshold: Some(t),
                        edge,
                    };
                    let e = enumerate(2 * n as usize, |d| -> Result<_, DiceError> {
                        let o = roll_test(&spec, d)?;
                        Ok((
                            o.success == Some(true),
                            o.glitch,
                            o.critical_glitch,
                            o.critical_success,
                            o.hits,
                        ))
                    })
                    .unwrap();
                    let odds = test_odds(n, t, edge);
                    assert_eq!(e.p(|x| x.0), odds.success, "{n} {t} {edge:?} success");
                    assert_eq!(e.p(|x| x.1), odds.glitch, "{n} {t} {edge:?} glitch");
                    assert_eq!(
                        e.p(|x| x.2),
                        odds.critical_glitch,
                        "{n} {t} {edge:?} critical glitch"
                    );
                    assert_eq!(
                        e.p(|x| x.3),
                        odds.critical_success,
                        "{n} {t} {edge:?} critical success"
                    );
                    for k in 0..=n {
                        assert_eq!(e.p(|x| x.4 == k), odds.hits.p_eq(i64::from(k)));
                    }
                }
            }
        }
    }

    #[test]
    fn matches_simulation_for_50_dice() {
        let mut dice = SeededDice::new(8);
        for edge in [None, Some(EdgeOnTest::SecondChance)] {
            let spec = TestSpec {
                dice: 50,
                threshold: Some(18),
                edge,
            };
            let odds = test_odds(50, 18, edge);
            let trials = 50_000;
            let wins = (0..trials)
                .filter(|_| roll_test(&spec, &mut dice).unwrap().success == Some(true))
                .count();
            let p = prob_to_f64(&odds.success);
            let se = (p * (1.0 - p) / f64::from(trials)).sqrt();
            assert!(
                (wins as f64 / f64::from(trials) - p).abs() < 4.0 * se,
                "{edge:?}"
            );
        }
    }

    use crate::test::{OpposedOutcome, roll_opposed};
    use solum_dice::SharedDice;

    const PUSH: Option<EdgeOnTest> = Some(EdgeOnTest::PushTheLimit);
    const SECOND: Option<EdgeOnTest> = Some(EdgeOnTest::SecondChance);
    const CLOSE: Option<EdgeOnTest> = Some(EdgeOnTest::CloseCall);
    const SMACK: Option<EdgeOnTest> = Some(EdgeOnTest::Smackdown);

    #[test]
    fn critical_glitch_and_smackdown_odds() {
        // Threshold 0 cannot fail: no critical glitch, and Close Call negates every glitch.
        let t = test_odds(1, 0, None);
        assert_eq!((t.glitch, t.critical_glitch), (prob(1, 6), prob(0, 1)));
        let t = test_odds(1, 0, CLOSE);
        assert_eq!((t.glitch, t.critical_glitch), (prob(0, 1), prob(0, 1)));
        // Smackdown: no dice, certain success with 4 net hits.
        let t = test_odds(3, 8, SMACK);
        assert_eq!((t.success, t.critical_success), (prob(1, 1), prob(1, 1)));
        assert_eq!((t.glitch, t.hits.p_eq(12)), (prob(0, 1), prob(1, 1)));
    }

    #[test]
    fn opposed_reference_values() {
        let o = |a, ae, d, de| opposed(a, ae, d, de).unwrap();
        // 1 die each: the attacker fails only when it misses and the defender hits: 2/3 · 1/3.
        assert_eq!(o(1, None, 1, None).success, prob(7, 9));
        // Pushing (hits 2/3) against a Second Chance (hits 5/9): fails 1/3 · 5/9.
        assert_eq!(o(1, PUSH, 1, SECOND).success, prob(22, 27));
        // The attacker's critical glitch: a 1 (1/6) against a hit (1/3).
        assert_eq!(o(1, None, 1, None).attacker_critical_glitch, prob(1, 18));
        // With its Close Call, that is a glitch; a 1 against no hit was a success: negated.
        let cc = o(1, CLOSE, 1, None);
        assert_eq!(
            (cc.attacker_glitch, cc.attacker_critical_glitch),
            (prob(1, 18), prob(0, 1))
        );
        // The defender with a 1 always fails (the attacker's 0 hits reach its 0): 1/6.
        assert_eq!(o(1, None, 1, None).defender_critical_glitch, prob(1, 6));
        // 3 against 1: a critical success needs 3 hits (1/27) and a defender's miss (2/3).
        assert_eq!(o(3, None, 1, None).critical_success, prob(2, 81));
        assert_eq!(o(3, PUSH, 1, None).critical_success, prob(16, 81));
        // Pushing against a Second Chance: (2/3)^3 · (4/9).
        assert_eq!(o(3, PUSH, 1, SECOND).critical_success, prob(32, 243));
        // The defender's critical success, 1 against 3: (1/3)^3 · 2/3.
        assert_eq!(o(1, None, 3, None).defender_critical_success, prob(2, 81));
        // Smackdown on either side decides it; the other side's 1 is a critical glitch
        // only when that side fails.
        let s = o(2, SMACK, 1, None);
        assert_eq!((s.success, s.critical_success), (prob(1, 1), prob(1, 1)));
        assert_eq!(s.defender_critical_glitch, prob(1, 6));
        let s = o(1, None, 2, SMACK);
        assert_eq!(
            (s.success, s.defender_critical_success),
            (prob(0, 1), prob(1, 1))
        );
        assert_eq!(s.attacker_critical_glitch, prob(1, 6));
        assert_eq!(opposed(1, SMACK, 1, SMACK), Err(TestError::BothSmackdown));
    }

    fn spec(dice: u32, edge: Option<EdgeOnTest>) -> TestSpec {
        TestSpec {
            dice,
            threshold: None,
            edge,
        }
    }

    type Flags = (bool, bool, bool, bool, bool, bool, bool);

    fn flags(o: &OpposedOutcome) -> Flags {
        (
            o.success,
            o.success && o.critical_success,
            !o.success && o.critical_success,
            o.attacker.glitch,
            o.attacker.critical_glitch,
            o.defender.glitch,
            o.defender.critical_glitch,
        )
    }

    fn check(odds: &OpposedOdds, p: impl Fn(fn(&Flags) -> bool) -> Prob, what: &str) {
        assert_eq!(p(|f| f.0), odds.success, "{what} success");
        assert_eq!(p(|f| f.1), odds.critical_success, "{what} critical");
        assert_eq!(
            p(|f| f.2),
            odds.defender_critical_success,
            "{what} defender critical"
        );
        assert_eq!(p(|f| f.3), odds.attacker_glitch, "{what} attacker glitch");
        assert_eq!(
            p(|f| f.4),
            odds.attacker_critical_glitch,
            "{what} attacker critical glitch"
        );
        assert_eq!(p(|f| f.5), odds.defender_glitch, "{what} defender glitch");
        assert_eq!(
            p(|f| f.6),
            odds.defender_critical_glitch,
            "{what} defender critical glitch"
        );
    }

    /// Every roll of both pools (up to 6 dice in all, rerolls included), through
    /// `roll_opposed` itself, for every Edge on either side.
    #[test]
    fn opposed_matches_enumeration_of_the_roll() {
        let edges = [None, PUSH, SECOND, CLOSE, SMACK];
        let cost = |n: u32, e: Option<EdgeOnTest>| match e {
            SMACK => 0,
            SECOND => 2 * n,
            _ => n,
        };
        let mut cases = 0;
        for a in 1..=4u32 {
            for d in 1..=4u32 {
                for ae in edges {
                    for de in edges {
                        let depth = cost(a, ae) + cost(d, de);
                        if depth > 6 || (ae == SMACK && de == SMACK) {
                            continue;
                        }
                        let e = enumerate(depth as usize, |dice| {
                            let shared = SharedDice::new(dice);
                            roll_opposed(&spec(a, ae), &spec(d, de), &mut &shared, &mut &shared)
                                .map(|o| flags(&o))
                        })
                        .unwrap();
                        let odds = opposed(a, ae, d, de).unwrap();
                        check(&odds, |f| e.p(f), &format!("{a}{ae:?} vs {d}{de:?}"));
                        cases += 1;
                    }
                }
            }
        }
        assert!(cases > 100, "{cases}");
    }

    /// Larger pools, Edge on both sides, against a seeded simulation within 4 standard errors.
    #[test]
    fn opposed_matches_simulation() {
        let mut dice = SeededDice::new(21);
        for (a, ae, d, de) in [
            (8, PUSH, 9, SECOND),
            (10, CLOSE, 6, PUSH),
            (3, SECOND, 5, CLOSE),
        ] {
            let odds = opposed(a, ae, d, de).unwrap();
            let trials = 20_000u32;
            let mut counts = [0u32; 7];
            for _ in 0..trials {
                let shared = SharedDice::new(&mut dice);
                let o =
                    roll_opposed(&spec(a, ae), &spec(d, de), &mut &shared, &mut &shared).unwrap();
                let f = flags(&o);
                for (c, hit) in counts.iter_mut().zip([f.0, f.1, f.2, f.3, f.4, f.5, f.6]) {
                    *c += u32::from(hit);
                }
            }
            let exact = [
                &odds.success,
                &odds.critical_success,
                &odds.defender_critical_success,
                &odds.attacker_glitch,
                &odds.attacker_critical_glitch,
                &odds.defender_glitch,
                &odds.defender_critical_glitch,
            ];
            for (i, (c, p)) in counts.iter().zip(exact).enumerate() {
                let p = prob_to_f64(p);
                // A floor on the error keeps near-impossible events from failing on one hit.
                let se = (p * (1.0 - p) / f64::from(trials)).sqrt().max(1e-3);
                let seen = f64::from(*c) / f64::from(trials);
                assert!(
                    (seen - p).abs() < 4.0 * se,
                    "{a} vs {d}, figure {i}: {seen} vs {p}"
                );
            }
        }
    }

    #[test]
    fn opposed_ties_to_the_attacker() {
        // 1 die each: attacker fails only when it misses and the defender hits: 2/3 · 1/3.
        assert_eq!(opposed(1, None, 1, None).unwrap().success, prob(7, 9));
    }
}
