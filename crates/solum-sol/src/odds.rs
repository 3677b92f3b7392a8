//! Exact odds of hits, glitches and critical results.

use num_bigint::BigUint;
use num_traits::{One, Zero};
use solum_dice::{Dense, Distribution, Prob, Weight};

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

/// `C(n, k)` for every `k`, checked.
fn binomial_row<W: Weight>(n: u32) -> Option<Vec<W>> {
    let mut row = Vec::with_capacity(n as usize + 1);
    let mut c = W::from_u64(1);
    row.push(c.clone());
    for k in 1..=n {
        c = c.times(u64::from(n - k + 1))?.div_exact(u64::from(k));
        row.push(c.clone());
    }
    Some(row)
}

fn powers<W: Weight>(base: u64, n: u32) -> Option<Vec<W>> {
    let mut out = Vec::with_capacity(n as usize + 1);
    let mut p = W::from_u64(1);
    for k in 0..=n {
        out.push(p.clone());
        if k < n {
            p = p.times(base)?;
        }
    }
    Some(out)
}

fn sum<'a, W: Weight + 'a>(xs: impl IntoIterator<Item = &'a W>) -> Option<W> {
    xs.into_iter().try_fold(W::zero(), |acc, x| acc.add(x))
}

/// One side's dice as integer weights over `total`: the weight of each number of hits, of a
/// glitch, and of a glitch with no hits (a critical glitch if the test fails). Weights are
/// `u128` until they overflow, big integers past that.
struct SideWeights<W> {
    hits: Vec<W>,
    glitch: W,
    no_hit_glitch: W,
    total: W,
}

fn side<W: Weight>(dice: u32, edge: Option<EdgeOnTest>) -> Option<SideWeights<W>> {
    let n = dice.max(1);
    let (h, o, r, d) = weights(edge);
    let c = binomial_row::<W>(n)?;
    let total = W::power(d, n)?;
    let term = |k: usize, x: &[W], y: &[W]| c[k].mul(&x[k])?.mul(&y[n as usize - k]);
    // Hits: C(n,k) h^k (d-h)^(n-k).
    let (hp, mp) = (powers::<W>(h, n)?, powers::<W>(d - h, n)?);
    let hits = (0..=n as usize)
        .map(|k| term(k, &hp, &mp))
        .collect::<Option<Vec<W>>>()?;
    // Ones: C(n,k) o^k (d-o)^(n-k), for 2k >= n.
    let need = n.div_ceil(2) as usize;
    let (op, np) = (powers::<W>(o, n)?, powers::<W>(d - o, n)?);
    let glitch = sum(&(need..=n as usize)
        .map(|k| term(k, &op, &np))
        .collect::<Option<Vec<W>>>()?)?;
    // No hits and a glitch: every die a one or an other.
    let rp = powers::<W>(r, n)?;
    let no_hit_glitch = sum(&(need..=n as usize)
        .map(|k| term(k, &op, &rp))
        .collect::<Option<Vec<W>>>()?)?;
    Some(SideWeights {
        hits,
        glitch,
        no_hit_glitch,
        total,
    })
}

/// A test's dice as integer weights: the hits, and whether the dice glitch (1) or not (0),
/// before any Close Call. Smackdown rolls nothing: see [`test_odds`].
#[derive(Debug, Clone, PartialEq)]
pub struct TestWeights {
    /// The number of hits.
    pub hits: Distribution,
    /// 1 for half or more ones, 0 otherwise.
    pub glitch: Distribution,
}

/// The hits and glitch of `dice` dice with the Edge on them, as exact integer weights.
pub fn test_weights(dice: u32, edge: Option<EdgeOnTest>) -> TestWeights {
    fn go<W: Weight>(dice: u32, edge: Option<EdgeOnTest>) -> Option<TestWeights> {
        let w = side::<W>(dice, edge)?;
        Some(TestWeights {
            glitch: W::into_weights(Dense {
                min: 0,
                w: vec![w.total.sub(&w.glitch), w.glitch],
                den: w.total.clone(),
            }),
            hits: W::into_weights(Dense {
                min: 0,
                w: w.hits,
                den: w.total,
            }),
        })
    }
    go::<u128>(dice, edge)
        .or_else(|| go::<BigUint>(dice, edge))
        .expect("big integers never overflow")
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
    test_odds_in::<u128>(dice, threshold, edge)
        .or_else(|| test_odds_in::<BigUint>(dice, threshold, edge))
        .expect("big integers never overflow")
}

fn test_odds_in<W: Weight>(
    dice: u32,
    threshold: u32,
    edge: Option<EdgeOnTest>,
) -> Option<TestOdds> {
    let n = dice.max(1);
    let w = side::<W>(n, edge)?;
    let tail = |from: u32| sum(w.hits.iter().skip(from as usize));
    let p = |x: &W| x.ratio(&w.total);
    // A critical glitch needs a failed test (P1): none when the threshold is 0.
    let critical = if threshold == 0 {
        Prob::zero()
    } else {
        p(&w.no_hit_glitch)
    };
    let (glitch, critical_glitch) = glitches(edge, p(&w.glitch), critical);
    Some(TestOdds {
        success: p(&tail(threshold)?),
        critical_success: p(&tail(threshold + 3)?),
        hits: W::into_weights(Dense {
            min: 0,
            w: w.hits.clone(),
            den: w.total.clone(),
        }),
        glitch,
        critical_glitch,
    })
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
    Ok(
        opposed_in::<u128>(attacker, attacker_edge, defender, defender_edge)
            .or_else(|| opposed_in::<BigUint>(attacker, attacker_edge, defender, defender_edge))
            .expect("big integers never overflow"),
    )
}

fn opposed_in<W: Weight>(
    attacker: u32,
    attacker_edge: Option<EdgeOnTest>,
    defender: u32,
    defender_edge: Option<EdgeOnTest>,
) -> Option<OpposedOdds> {
    let smack = |e: Option<EdgeOnTest>| e == Some(EdgeOnTest::Smackdown);
    let (a_smack, d_smack) = (smack(attacker_edge), smack(defender_edge));
    let a = side::<W>(attacker, attacker_edge)?;
    let d = side::<W>(defender, defender_edge)?;
    let total = a.total.mul(&d.total)?;
    let p = |x: &W| x.ratio(&total);
    // Cumulative weights: at_most[k] = weight of at most k hits.
    let at_most = |w: &SideWeights<W>| -> Option<Vec<W>> {
        let mut acc = W::zero();
        w.hits
            .iter()
            .map(|x| {
                acc = acc.add(x)?;
                Some(acc.clone())
            })
            .collect()
    };
    let (a_cum, d_cum) = (at_most(&a)?, at_most(&d)?);
    let upto = |cum: &Vec<W>, k: i64| -> W {
        if k < 0 {
            W::zero()
        } else {
            cum[(k as usize).min(cum.len() - 1)].clone()
        }
    };
    // The attacker wins with `net` or more net hits.
    let attacker_wins = |net: i64| -> Option<W> {
        a.hits
            .iter()
            .enumerate()
            .try_fold(W::zero(), |acc, (k, x)| {
                acc.add(&x.mul(&upto(&d_cum, k as i64 - net))?)
            })
    };
    let defender_wins_by_3 = d
        .hits
        .iter()
        .enumerate()
        .try_fold(W::zero(), |acc, (k, x)| {
            acc.add(&x.mul(&upto(&a_cum, k as i64 - 3))?)
        })?;
    let d_any_hit = d.total.sub(&d.hits[0]);
    let (success, critical_success, defender_critical_success) = if a_smack {
        (Prob::one(), Prob::one(), Prob::zero())
    } else if d_smack {
        (Prob::zero(), Prob::zero(), Prob::one())
    } else {
        (
            p(&attacker_wins(0)?),
            p(&attacker_wins(3)?),
            p(&defender_wins_by_3),
        )
    };
    // The attacker with no hits fails unless the defender has none either (or Smackdown).
    let (attacker_glitch, attacker_critical_glitch) = if a_smack {
        (Prob::zero(), Prob::zero())
    } else {
        let crit = if d_smack {
            a.no_hit_glitch.mul(&d.total)?
        } else {
            a.no_hit_glitch.mul(&d_any_hit)?
        };
        glitches(attacker_edge, p(&a.glitch.mul(&d.total)?), p(&crit))
    };
    // The defender with no hits always fails: the attacker's hits reach 0.
    let (defender_glitch, defender_critical_glitch) = if d_smack {
        (Prob::zero(), Prob::zero())
    } else {
        glitches(
            defender_edge,
            p(&d.glitch.mul(&a.total)?),
            p(&d.no_hit_glitch.mul(&a.total)?),
        )
    };
    Some(OpposedOdds {
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

    /// The integer path against the dice core's multiset pool (count of 5s and 6s, count of
    /// 1s) in rationals, both in `u128` and past it (6^50 overflows).
    #[test]
    fn test_weights_match_pool_counts() {
        for n in [1u32, 7, 49, 50, 80] {
            let pool = solum_dice::Pool::new(Distribution::die(6), n);
            let w = test_weights(n, None);
            assert_eq!(w.hits.is_small(), n <= 49);
            assert_eq!(w.hits, pool.count(|f| f >= 5));
            let ones = pool.count(|f| f == 1);
            let glitch = ones.p_at_least(i64::from(n.div_ceil(2)));
            assert_eq!(w.glitch.p_eq(1), glitch);
            assert_eq!(test_odds(n, 2, None).glitch, glitch);
            assert_eq!(test_odds(n, 0, None).hits, w.hits);
        }
        // Second Chance: each die a d36 of 20 hits, 4 ones and 12 others.
        for n in [3u32, 30] {
            let die = Distribution::from_pairs([(2, 20), (1, 4), (0, 12)]);
            let pool = solum_dice::Pool::new(die, n);
            let w = test_weights(n, SECOND);
            assert_eq!(w.hits, pool.count(|f| f == 2));
        }
    }

    /// Opposed odds past `u128` (6^90) against rationals summed over both sides' hits.
    #[test]
    fn large_opposed_match_rationals() {
        for (a, d) in [(4u32, 5u32), (50, 40)] {
            let hits = |n| solum_dice::Pool::new(Distribution::die(6), n).count(|f| f >= 5);
            let (ha, hd) = (hits(a), hits(d));
            let mut success = Prob::zero();
            let mut critical = Prob::zero();
            for (x, p) in ha.outcomes() {
                success += &p * hd.p_at_most(x);
                critical += p * hd.p_at_most(x - 3);
            }
            let o = opposed(a, None, d, None).unwrap();
            assert_eq!(
                (o.success, o.critical_success),
                (success, critical),
                "{a} vs {d}"
            );
        }
    }

    #[test]
    fn opposed_ties_to_the_attacker() {
        // 1 die each: attacker fails only when it misses and the defender hits: 2/3 · 1/3.
        assert_eq!(opposed(1, None, 1, None).unwrap().success, prob(7, 9));
    }
}
