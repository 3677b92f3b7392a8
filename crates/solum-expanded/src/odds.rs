//! Exact odds of So1um Expanded checks, in closed form.
//!
//! Everything here is exact rational arithmetic. The Rule of 6 makes results unbounded, yet
//! the pass and win probabilities still have closed forms:
//!
//! * the chain after a 6 is `6k + j` (k more sixes, then a face `j` of 1 to 5) with
//!   probability `6^-(k+1)`, so `P(chain ≥ m) = (6 − r) / 6^(q+1)` where `m − 1 = 6q + r`;
//! * two independent chains are equal with probability `1/7`, so each side wins a chain
//!   against the other with probability `3/7`.
//!
//! The gear decisions are the very functions [`crate::check`] uses when it rolls.

use num_bigint::BigInt;
use num_traits::{One, Pow};
use solum_dice::{Dense, Distribution, Prob, Weight};

use crate::Pool;
use crate::check::{CheckSpec, DrawRule, OpposedSpec, Side, gear_helps_check, gear_helps_opposed};

/// Chain levels kept by [`result_distribution`]: the neglected mass `6^-16 ≈ 3.5e-13` stays
/// below 1e-12.
const CHAIN_LEVELS: u32 = 16;

fn ratio(num: BigInt, den: BigInt) -> Prob {
    Prob::new(num, den)
}

fn pow6(n: u32) -> BigInt {
    BigInt::from(6u32).pow(n)
}

/// `P(chain ≥ m)`: the chain of the Rule of 6 (the sum of the dice rolled after the first
/// 6) reaches at least `m`.
pub fn p_chain_at_least(m: u32) -> Prob {
    if m == 0 {
        return Prob::one();
    }
    let (q, r) = ((m - 1) / 6, (m - 1) % 6);
    ratio(BigInt::from(6 - r), pow6(q + 1))
}

/// The exact chance that an unopposed check passes.
pub fn p_pass(spec: &CheckSpec) -> Prob {
    let d = spec.difficulty.value();
    if spec.difficulty.is_automatic() {
        return Prob::one();
    }
    let n = spec.pool.dice();
    // The face the pool must show before the chain: the difficulty, or a 6 above it.
    let needed = d.min(6);
    // A pool fails to show `needed` with weight (needed-1)^n of 6^n. Gear rerolls the lowest
    // die exactly when the pool fails to show it (see `gear_helps_check`), which works like
    // one more die.
    debug_assert!(gear_helps_check(needed - 1, spec.difficulty));
    let dice = n + u32::from(spec.gear);
    let miss = ratio(BigInt::from(needed - 1).pow(dice), pow6(dice));
    let shows = Prob::one() - miss;
    if d <= 6 {
        shows
    } else {
        shows * p_chain_at_least(d - 6)
    }
}

/// The exact distribution of a pool's result (highest die, or 6 + chain) when the chain is
/// rolled, as against a difficulty above 6 (ruling S2 skips the chain elsewhere, where it
/// cannot change the outcome, so the pass and win chances are the same), truncated where
/// the neglected mass of long chains falls below 1e-12 ([`Distribution::neglected`] says how
/// much): integer weights over `6^(dice + 16)`, the weight left out being that of chains
/// longer than 16 levels; in `u128` up to 33 dice.
pub fn result_distribution(pool: Pool) -> Distribution {
    let n = pool.dice();
    Distribution::compute(|| result_dense(n), || result_dense(n))
}

/// Faces 1 to 5 weigh `v^n − (v−1)^n` (times `6^16`); a 6 (weight `W6 = 6^n − 5^n`) is
/// followed by `k` more sixes and a face `j` of 1 to 5 with weight `W6 · 6^(15−k)`.
fn result_dense<W: Weight>(n: u32) -> Option<Dense<W>> {
    let scale = W::power(6, CHAIN_LEVELS)?;
    let mut w = Vec::with_capacity(5 + 6 * CHAIN_LEVELS as usize);
    for v in 1..=5u64 {
        w.push(W::power(v, n)?.sub(&W::power(v - 1, n)?).mul(&scale)?);
    }
    let six = W::power(6, n)?.sub(&W::power(5, n)?);
    // Level k weighs W6 · 6^(15−k): from the last level up, one multiplication each.
    let mut levels = Vec::with_capacity(CHAIN_LEVELS as usize);
    levels.push(six);
    for _ in 1..CHAIN_LEVELS {
        let next = levels.last().expect("one level pushed").times(6)?;
        levels.push(next);
    }
    for level in levels.into_iter().rev() {
        // Outcome 6 + 6k (a chain never stops on a 6) weighs nothing.
        w.push(W::zero());
        w.extend(std::iter::repeat_n(level, 5));
    }
    Some(Dense {
        min: 1,
        w,
        den: W::power(6, n + CHAIN_LEVELS)?,
    })
}

/// Win, draw and lose chances of an opposed check, for the first side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpposedOdds {
    /// The first side's result is higher (after any roll-off).
    pub win: Prob,
    /// The results are equal and the draw stands (zero with the roll-off option).
    pub draw: Prob,
    /// The second side's result is higher.
    pub lose: Prob,
}

/// Highest-face weights of `dice` d6 (index 0 is face 1): `v^n − (v−1)^n` of `6^n`.
fn highest_face<W: Weight>(dice: u32) -> Option<[W; 6]> {
    let mut out: [W; 6] = std::array::from_fn(|_| W::zero());
    for (i, slot) in out.iter_mut().enumerate() {
        let v = i as u64 + 1;
        *slot = W::power(v, dice)?.sub(&W::power(v - 1, dice)?);
    }
    Some(out)
}

/// Applies one side's gear to the joint weights of the highest faces `w[own][other]`: the
/// decision is the one [`crate::check`] makes, the new die replaces the lowest, so with two
/// or more dice the new highest face is `max(old, new die)`, with one die it is the new die.
/// The weights' denominator grows by 6.
fn apply_gear<W: Weight>(w: &[[W; 6]; 6], side: Side) -> Option<[[W; 6]; 6]> {
    let mut out: [[W; 6]; 6] = std::array::from_fn(|_| std::array::from_fn(|_| W::zero()));
    for (own, row) in w.iter().enumerate() {
        for (other, weight) in row.iter().enumerate() {
            if weight.is_zero() {
                continue;
            }
            let (own_face, other_face) = (own as u32 + 1, other as u32 + 1);
            if gear_helps_opposed(own_face, other_face, side.pool.dice()) {
                for new in 1..=6u32 {
                    let face = if side.pool.dice() >= 2 {
                        own_face.max(new)
                    } else {
                        new
                    };
                    let slot = &mut out[face as usize - 1][other];
                    *slot = slot.add(weight)?;
                }
            } else {
                out[own][other] = out[own][other].add(&weight.times(6)?)?;
            }
        }
    }
    Some(out)
}

fn transpose<W: Weight>(w: &[[W; 6]; 6]) -> [[W; 6]; 6] {
    std::array::from_fn(|i| std::array::from_fn(|j| w[j][i].clone()))
}

/// The exact win, draw and lose chances of an opposed check.
pub fn opposed_odds(spec: &OpposedSpec) -> OpposedOdds {
    let w = opposed_weights(spec);
    OpposedOdds {
        win: w.p_eq(1),
        draw: w.p_eq(0),
        lose: w.p_eq(-1),
    }
}

/// [`opposed_odds`] as integer weights of the first side's verdict: 1 win, 0 draw, −1 lose.
pub fn opposed_weights(spec: &OpposedSpec) -> Distribution {
    if let Some(d) = opposed_without_gear(spec) {
        return Distribution::from_generic(d);
    }
    Distribution::compute(|| opposed_dense(spec), || opposed_dense(spec))
}

/// The most dice on both sides together that [`opposed_without_gear`] takes: `2 · 7 · 6^46`
/// fits in `u128`, so no weight can overflow.
const PLAIN_OPPOSED_DICE: u32 = 46;

/// [`opposed_dense`] for sides without gear, in `u128`, from the cumulative weights
/// `v^n` of "highest face at most `v`": the first side wins on a higher face with weight
/// `Σ_v P(its highest is v) · (v−1)^b`, and the same for the other side; equal faces below
/// 6 draw, and both on 6 split 3 : 1 : 3 as in [`opposed_dense`]. The same weights over the
/// same denominator, with about 20 multiplications instead of 36 products and a table.
///
/// Nothing here can overflow, so the arithmetic wraps rather than checks (release builds
/// check every `+` and `*`): every product is part of one of the three sums, and the
/// largest of them is at most `2 · 7 · 6^(a+b) ≤ 2 · 7 · 6^46 < 2^128`.
fn opposed_without_gear(spec: &OpposedSpec) -> Option<Dense<u128>> {
    let (a, b) = (spec.first.pool.dice(), spec.second.pool.dice());
    if spec.first.gear || spec.second.gear || a + b > PLAIN_OPPOSED_DICE {
        return None;
    }
    let (pa, pb) = (face_powers(a), face_powers(b));
    let (mut win, mut draw, mut lose) = (0u128, 0u128, 0u128);
    for v in 1..=5 {
        let (ha, hb) = (pa[v] - pa[v - 1], pb[v] - pb[v - 1]);
        win = win.wrapping_add(ha.wrapping_mul(pb[v - 1]));
        lose = lose.wrapping_add(hb.wrapping_mul(pa[v - 1]));
        draw = draw.wrapping_add(ha.wrapping_mul(hb));
    }
    let (ha6, hb6) = (pa[6] - pa[5], pb[6] - pb[5]);
    win = win.wrapping_add(ha6.wrapping_mul(pb[5]));
    lose = lose.wrapping_add(hb6.wrapping_mul(pa[5]));
    let both_six = ha6.wrapping_mul(hb6);
    let mut den = 7 * (pa[6].wrapping_mul(pb[6]));
    let split = 3 * both_six;
    let (mut win, mut draw, mut lose) = (7 * win + split, 7 * draw + both_six, 7 * lose + split);
    if spec.draws == DrawRule::RollOff {
        den *= 2;
        win = 2 * win + draw;
        lose = 2 * lose + draw;
        draw = 0;
    }
    Some(Dense {
        min: -1,
        w: vec![lose, draw, win],
        den,
    })
}

/// `v^n` for the faces `v = 0..=6` of a pool of `1 ≤ n ≤ 45` dice (the weight of "every
/// die shows `v` or less"; `6^45` fits `u128`). Only `3^n` and `5^n` are powers to compute:
/// `2^n` and `4^n` are shifts and `6^n = 3^n · 2^n`; in `u64` while `6^n` fits it.
fn face_powers(n: u32) -> [u128; 7] {
    let (three, five) = if n <= 24 {
        (u128::from(3u64.pow(n)), u128::from(5u64.pow(n)))
    } else {
        (3u128.pow(n), 5u128.pow(n))
    };
    [0, 1, 1 << n, three, 1 << (2 * n), five, three << n]
}

fn opposed_dense<W: Weight>(spec: &OpposedSpec) -> Option<Dense<W>> {
    let (a, b) = (spec.first, spec.second);
    let (wa, wb) = (
        highest_face::<W>(a.pool.dice())?,
        highest_face::<W>(b.pool.dice())?,
    );
    // Joint weights of the highest faces before the Rule of 6, first side's face first.
    let mut w: [[W; 6]; 6] = std::array::from_fn(|_| std::array::from_fn(|_| W::zero()));
    for (i, row) in w.iter_mut().enumerate() {
        for (j, slot) in row.iter_mut().enumerate() {
            *slot = wa[i].mul(&wb[j])?;
        }
    }
    let mut rerolls = 0u32;
    if a.gear {
        w = apply_gear(&w, a)?;
        rerolls += 1;
    }
    if b.gear {
        w = transpose(&apply_gear(&transpose(&w), b)?);
        rerolls += 1;
    }
    // Both on a 6: the chains decide, equal with 1/7, each side ahead with 3/7; weights are
    // scaled by 7 so that every count stays an integer.
    let (mut win, mut draw, mut lose) = (W::zero(), W::zero(), W::zero());
    for (i, row) in w.iter().enumerate() {
        for (j, weight) in row.iter().enumerate() {
            match (i == 5, j == 5) {
                (true, true) => {
                    win = win.add(&weight.times(3)?)?;
                    draw = draw.add(weight)?;
                    lose = lose.add(&weight.times(3)?)?;
                }
                _ if i > j => win = win.add(&weight.times(7)?)?,
                _ if i < j => lose = lose.add(&weight.times(7)?)?,
                _ => draw = draw.add(&weight.times(7)?)?,
            }
        }
    }
    let mut den = W::power(6, a.pool.dice() + b.pool.dice() + rerolls)?.times(7)?;
    if spec.draws == DrawRule::RollOff {
        // A roll-off of single dice is fair: each side takes half of the draws.
        den = den.times(2)?;
        win = win.times(2)?.add(&draw)?;
        lose = lose.times(2)?.add(&draw)?;
        draw = W::zero();
    }
    Some(Dense {
        min: -1,
        w: vec![lose, draw, win],
        den,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Difficulty;
    use crate::check::{OpposedSpec, Verdict, roll_check, roll_opposed};
    use num_traits::Zero;
    use proptest::prelude::*;
    use solum_dice::{DiceError, SeededDice, SharedDice, enumerate, prob, prob_to_f64};

    fn pool(n: u32) -> Pool {
        Pool::new(u64::from(n)).unwrap()
    }

    fn spec(n: u32, d: i64, gear: bool) -> CheckSpec {
        CheckSpec::new(pool(n), Difficulty::new(d).unwrap()).with_gear(gear)
    }

    /// Reference values worked by hand.
    #[test]
    fn reference_values() {
        // One die against 4: 3 of 6 faces.
        assert_eq!(p_pass(&spec(1, 4, false)), prob(1, 2));
        // Nick's tower: 4 dice against 5: 1 - (4/6)^4 = 65/81.
        assert_eq!(p_pass(&spec(4, 5, false)), prob(65, 81));
        // Ripperjack: 5 dice against 10: (1 - (5/6)^5) * P(chain >= 4) = 4651/7776 * 1/2.
        assert_eq!(p_pass(&spec(5, 10, false)), prob(4651, 15552));
        // Vault lock with tools: 3 dice + reroll against 5 is 1 - (4/6)^4.
        assert_eq!(p_pass(&spec(3, 5, true)), prob(65, 81));
        // Difficulty 7: any 6 passes, as every chain adds at least 1.
        assert_eq!(p_pass(&spec(1, 7, false)), prob(1, 6));
        assert_eq!(p_pass(&spec(1, 12, false)), prob(1, 36));
        // A chain never stops on a 6, so 12 and 13 are equally hard.
        assert_eq!(p_pass(&spec(1, 13, false)), prob(1, 36));
        assert_eq!(p_pass(&spec(1, 14, false)), prob(5, 216));
        assert_eq!(p_pass(&spec(3, 1, false)), prob(1, 1));
        // One die against one die: equal faces below 6 (5/36), or both 6 with equal chains.
        let odds = opposed_odds(&OpposedSpec::new(pool(1), pool(1)));
        assert_eq!(odds.draw, prob(5, 36) + prob(1, 36 * 7));
        assert_eq!(odds.win, odds.lose);
    }

    #[test]
    fn chain_tail() {
        assert_eq!(p_chain_at_least(1), prob(1, 1));
        // A 5, or a 6 and then anything.
        assert_eq!(p_chain_at_least(5), prob(1, 3));
        assert_eq!(p_chain_at_least(6), prob(1, 6));
        assert_eq!(p_chain_at_least(7), prob(1, 6));
        assert_eq!(p_chain_at_least(8), prob(5, 36));
        assert_eq!(p_chain_at_least(12), prob(1, 36));
    }

    /// Every unopposed check of pools 1-5, difficulties 1-14, with and without gear,
    /// against exhaustive enumeration of `roll_check` itself. The enumeration stops after
    /// `pool + 4` dice; the exact value must lie between what it counted and that plus the
    /// mass it could not follow.
    #[test]
    fn checks_match_enumeration() {
        for n in 1..=5u32 {
            for gear in [false, true] {
                for d in 1..=14i64 {
                    let s = spec(n, d, gear);
                    let e = enumerate(n as usize + 4, |dice| -> Result<bool, DiceError> {
                        Ok(roll_check(&s, dice)?.passed)
                    })
                    .unwrap();
                    let counted = e.p(|passed| *passed);
                    let exact = p_pass(&s);
                    assert!(
                        counted <= exact && exact <= &counted + &e.truncated,
                        "pool {n} vs {d} gear {gear}: exact {exact}, counted {counted} + {}",
                        e.truncated
                    );
                }
            }
        }
    }

    #[test]
    fn opposed_matches_enumeration() {
        for a in 1..=3u32 {
            for b in 1..=3u32 {
                for (ga, gb) in [(false, false), (true, false), (false, true), (true, true)] {
                    let s = OpposedSpec {
                        first: Side {
                            pool: pool(a),
                            gear: ga,
                        },
                        second: Side {
                            pool: pool(b),
                            gear: gb,
                        },
                        draws: DrawRule::Stand,
                    };
                    let e = enumerate((a + b) as usize + 5, |dice| -> Result<Verdict, DiceError> {
                        let shared = SharedDice::new(dice);
                        Ok(roll_opposed(&s, &mut &shared, &mut &shared)?.verdict)
                    })
                    .unwrap();
                    let odds = opposed_odds(&s);
                    for (verdict, exact) in [
                        (Verdict::Win, &odds.win),
                        (Verdict::Draw, &odds.draw),
                        (Verdict::Lose, &odds.lose),
                    ] {
                        let counted = e.p(|v| *v == verdict);
                        assert!(
                            &counted <= exact && *exact <= &counted + &e.truncated,
                            "{a} vs {b} gear {ga}/{gb} {verdict:?}: exact {exact}, counted {counted} + {}",
                            e.truncated
                        );
                    }
                }
            }
        }
    }

    /// The roll-off option (S3, S14) against enumeration of `roll_opposed` itself: no draw
    /// is left, and whatever the enumeration could not follow bounds the difference.
    #[test]
    fn roll_off_matches_enumeration() {
        for a in 1..=2u32 {
            for b in 1..=2u32 {
                for (ga, gb) in [(false, false), (true, false), (false, true)] {
                    let s = OpposedSpec {
                        first: Side {
                            pool: pool(a),
                            gear: ga,
                        },
                        second: Side {
                            pool: pool(b),
                            gear: gb,
                        },
                        draws: DrawRule::RollOff,
                    };
                    let e = enumerate((a + b) as usize + 6, |dice| -> Result<Verdict, DiceError> {
                        let shared = SharedDice::new(dice);
                        Ok(roll_opposed(&s, &mut &shared, &mut &shared)?.verdict)
                    })
                    .unwrap();
                    let odds = opposed_odds(&s);
                    assert!(odds.draw.is_zero() && e.p(|v| *v == Verdict::Draw).is_zero());
                    for (verdict, exact) in [(Verdict::Win, &odds.win), (Verdict::Lose, &odds.lose)]
                    {
                        let counted = e.p(|v| *v == verdict);
                        assert!(
                            &counted <= exact && *exact <= &counted + &e.truncated,
                            "{a} vs {b} gear {ga}/{gb} {verdict:?}: exact {exact}, counted {counted} + {}",
                            e.truncated
                        );
                    }
                }
            }
        }
    }

    /// A million seeded rolls land within 4 standard errors of the exact chance.
    #[test]
    fn checks_match_simulation() {
        let cases = [spec(4, 5, false), spec(3, 8, true), spec(2, 6, true)];
        for s in cases {
            let mut dice = SeededDice::new(2026);
            let trials = 1_000_000u32;
            let passes = (0..trials)
                .filter(|_| roll_check(&s, &mut dice).unwrap().passed)
                .count();
            let p = prob_to_f64(&p_pass(&s));
            let se = (p * (1.0 - p) / f64::from(trials)).sqrt();
            let seen = passes as f64 / f64::from(trials);
            assert!((seen - p).abs() < 4.0 * se, "{s:?}: seen {seen}, exact {p}");
        }
    }

    #[test]
    fn opposed_matches_simulation() {
        let s = OpposedSpec {
            first: Side {
                pool: pool(3),
                gear: true,
            },
            second: Side::new(pool(4)),
            draws: DrawRule::Stand,
        };
        let odds = opposed_odds(&s);
        let mut dice = SeededDice::new(7);
        let trials = 400_000u32;
        let mut counts = [0u32; 3];
        for _ in 0..trials {
            let shared = SharedDice::new(&mut dice);
            let v = roll_opposed(&s, &mut &shared, &mut &shared)
                .unwrap()
                .verdict;
            counts[v as usize] += 1;
        }
        for (count, exact) in counts.iter().zip([&odds.win, &odds.draw, &odds.lose]) {
            let p = prob_to_f64(exact);
            let se = (p * (1.0 - p) / f64::from(trials)).sqrt();
            let seen = f64::from(*count) / f64::from(trials);
            assert!((seen - p).abs() < 4.0 * se, "seen {seen}, exact {p}");
        }
    }

    #[test]
    fn result_distribution_is_consistent() {
        for n in [1, 2, 4, 30] {
            let dist = result_distribution(pool(n));
            assert_eq!(dist.total() + dist.neglected(), Prob::one());
            assert!(prob_to_f64(&dist.neglected()) < 1e-12);
            for d in 2..=20 {
                let exact = p_pass(&spec(n, d, false));
                let from_dist = dist.p_at_least(d);
                assert!(from_dist <= exact && exact <= &from_dist + dist.neglected());
            }
        }
        let one = result_distribution(pool(1));
        assert!((one.mean() - (15.0 + 6.0 + 4.2) / 6.0).abs() < 1e-9);
    }

    /// The integer path against rationals built from the dice core's multiset pool (highest
    /// of n d6), on both sides of the `u128` limit (6^(n+16) overflows past 33 dice).
    #[test]
    fn result_distribution_matches_pool_of_highest_faces() {
        for n in [1u32, 3, 20, 33, 34, 45] {
            let highest = solum_dice::Pool::new(Distribution::die(6), n).keep_highest(1);
            let dist = result_distribution(pool(n));
            assert_eq!(result_distribution(pool(n)).is_small(), n <= 33, "{n}");
            for v in 1..=5 {
                assert_eq!(dist.p_eq(v), highest.p_eq(v), "{n} dice, face {v}");
            }
            let six = highest.p_eq(6);
            for k in 0..CHAIN_LEVELS {
                let level = &six * prob(1, 6i64.pow(k + 1));
                assert!(dist.p_eq(6 + 6 * i64::from(k)).is_zero());
                for j in 1..=5 {
                    assert_eq!(dist.p_eq(6 + 6 * i64::from(k) + j), level);
                }
            }
            assert_eq!(dist.neglected(), &six * prob(1, 6i64.pow(CHAIN_LEVELS)));
        }
    }

    /// Opposed odds of large pools (big integers past `u128`) against rationals summed over
    /// the two sides' highest faces.
    #[test]
    fn large_opposed_match_rationals() {
        for (a, b) in [(5u32, 7u32), (30, 30), (60, 45)] {
            let (ha, hb) = [a, b]
                .map(|n| solum_dice::Pool::new(Distribution::die(6), n).keep_highest(1))
                .into();
            let (mut win, mut draw) = (Prob::zero(), Prob::zero());
            for i in 1..=6 {
                for j in 1..=6 {
                    let p = ha.p_eq(i) * hb.p_eq(j);
                    if i == 6 && j == 6 {
                        win += &p * prob(3, 7);
                        draw += p * prob(1, 7);
                    } else if i > j {
                        win += p;
                    } else if i == j {
                        draw += p;
                    }
                }
            }
            let odds = opposed_odds(&OpposedSpec::new(pool(a), pool(b)));
            assert_eq!(odds.win, win, "{a} vs {b}");
            assert_eq!(odds.draw, draw, "{a} vs {b}");
            assert_eq!(
                opposed_weights(&OpposedSpec::new(pool(a), pool(b))).is_small(),
                a + b <= 46
            );
        }
    }

    /// The plain path for sides without gear gives the very weights of the general one
    /// (joint table of highest faces, checked arithmetic), for every pair of pools it takes
    /// and both draw rules.
    #[test]
    fn plain_opposed_matches_the_joint_table() {
        for a in 1..=PLAIN_OPPOSED_DICE - 1 {
            for b in 1..=PLAIN_OPPOSED_DICE - a {
                for draws in [DrawRule::Stand, DrawRule::RollOff] {
                    let mut s = OpposedSpec::new(pool(a), pool(b));
                    s.draws = draws;
                    let plain = Distribution::from_generic(opposed_without_gear(&s).unwrap());
                    let general = Distribution::compute(|| opposed_dense(&s), || opposed_dense(&s));
                    assert_eq!(plain, general, "{a} vs {b} {draws:?}");
                }
            }
        }
        assert!(opposed_without_gear(&OpposedSpec::new(pool(30), pool(17))).is_none());
        let mut geared = OpposedSpec::new(pool(2), pool(2));
        geared.first.gear = true;
        assert!(opposed_without_gear(&geared).is_none());
    }

    #[test]
    fn roll_off_splits_draws() {
        let mut s = OpposedSpec::new(pool(2), pool(3));
        let stand = opposed_odds(&s);
        s.draws = DrawRule::RollOff;
        let off = opposed_odds(&s);
        assert!(off.draw.is_zero());
        assert_eq!(off.win, &stand.win + &stand.draw / BigInt::from(2));
    }

    proptest! {
        #[test]
        fn probabilities_are_probabilities(n in 1u32..=40, d in 1i64..=40, gear: bool) {
            let p = p_pass(&spec(n, d, gear));
            prop_assert!(p >= Prob::zero() && p <= Prob::one());
        }

        #[test]
        fn more_dice_help_harder_difficulty_hurts(n in 1u32..=30, d in 2i64..=30, gear: bool) {
            prop_assert!(p_pass(&spec(n + 1, d, gear)) > p_pass(&spec(n, d, gear)));
            prop_assert!(p_pass(&spec(n, d + 1, gear)) <= p_pass(&spec(n, d, gear)));
            prop_assert!(p_pass(&spec(n, d, true)) >= p_pass(&spec(n, d, false)));
        }

        #[test]
        fn opposed_sums_to_one_and_is_symmetric(a in 1u32..=30, b in 1u32..=30, ga: bool, gb: bool) {
            let s = OpposedSpec {
                first: Side { pool: pool(a), gear: ga },
                second: Side { pool: pool(b), gear: gb },
                draws: DrawRule::Stand,
            };
            let odds = opposed_odds(&s);
            prop_assert_eq!(&odds.win + &odds.draw + &odds.lose, Prob::one());
            let flipped = opposed_odds(&OpposedSpec::new(pool(b), pool(a)));
            let plain = opposed_odds(&OpposedSpec::new(pool(a), pool(b)));
            prop_assert_eq!(&plain.win, &flipped.lose);
            if a == b {
                prop_assert_eq!(&plain.win, &plain.lose);
            }
        }
    }
}
