//! Exact odds of hits, glitches and critical results.

use num_bigint::BigInt;
use num_traits::{One, Zero};
use solum_dice::{Distribution, Prob};

use crate::test::EdgeOnTest;

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

/// Exact odds of a test of `dice` dice against `threshold`, with the Edge used on it
/// (Push the Limit or Second Chance change the dice; Close Call is counted as no glitch or
/// glitch; Smackdown needs no odds).
pub fn test_odds(dice: u32, threshold: u32, edge: Option<EdgeOnTest>) -> TestOdds {
    let n = dice.max(1);
    let (h, o, r, d) = weights(edge);
    let c = binomial_row(n);
    let total = BigInt::from(d).pow(n);
    // Hits: C(n,k) h^k (d-h)^(n-k).
    let (hp, mp) = (powers(h, n), powers(d - h, n));
    let hit_weights: Vec<BigInt> = (0..=n as usize)
        .map(|k| &c[k] * &hp[k] * &mp[n as usize - k])
        .collect();
    let tail = |from: u32| -> BigInt {
        hit_weights[(from.min(n + 1) as usize).min(hit_weights.len())..]
            .iter()
            .sum()
    };
    let success = if threshold > n {
        BigInt::zero()
    } else {
        tail(threshold)
    };
    let critical_success = if threshold + 3 > n {
        BigInt::zero()
    } else {
        tail(threshold + 3)
    };
    // Ones: C(n,k) o^k (d-o)^(n-k), for 2k >= n.
    let need = n.div_ceil(2) as usize;
    let (op, np) = (powers(o, n), powers(d - o, n));
    let glitch: BigInt = (need..=n as usize)
        .map(|k| &c[k] * &op[k] * &np[n as usize - k])
        .sum();
    // No hits and a glitch: every die a one or an other.
    let rp = powers(r, n);
    let critical: BigInt = (need..=n as usize)
        .map(|k| &c[k] * &op[k] * &rp[n as usize - k])
        .sum();
    let p = |w: BigInt| Prob::new(w, total.clone());
    let hits = Distribution::from_pairs(
        hit_weights
            .iter()
            .enumerate()
            .map(|(k, w)| (k as i64, p(w.clone()))),
        Prob::zero(),
    );
    let close_call = edge == Some(EdgeOnTest::CloseCall);
    TestOdds {
        hits,
        success: p(success),
        // Close Call negates a glitch and turns a critical glitch into a glitch.
        glitch: if close_call {
            p(critical.clone())
        } else {
            p(glitch)
        },
        critical_glitch: if close_call {
            Prob::zero()
        } else {
            p(critical)
        },
        critical_success: p(critical_success),
    }
}

/// The chance the attacker's hits reach the defender's (attacker wins ties).
pub fn opposed_odds(attacker: u32, defender: u32, attacker_edge: Option<EdgeOnTest>) -> Prob {
    let a = test_odds(attacker, 0, attacker_edge).hits;
    let d = test_odds(defender, 0, None).hits;
    a.outcomes().iter().map(|(k, p)| p * d.p_at_most(*k)).sum()
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

    #[test]
    fn opposed_ties_to_the_attacker() {
        // 1 die each: attacker fails only when it misses and the defender hits: 2/3 · 1/3.
        assert_eq!(opposed_odds(1, 1, None), prob(7, 9));
    }
}
