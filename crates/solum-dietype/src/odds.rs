//! Exact odds of exploding dice, skill rolls and opposed rolls.

use std::sync::OnceLock;

use num_bigint::BigInt;
use num_traits::{One, ToPrimitive, Zero};
use serde::Serialize;
use solum_dice::{Distribution, Prob};

use crate::die::DieType;
use crate::roll::RollSpec;

/// Mass left out of a die's distribution, at most.
pub const NEGLECT: f64 = 1e-12;

/// One die type's exact distribution, `P(X=k) = weights[k] / N^(2k−1)`, kept until the
/// neglected mass is below [`NEGLECT`].
struct DieTable {
    weights: Vec<BigInt>,
    neglected: Prob,
    /// The same probabilities as f64, for opposed rolls.
    floats: Vec<f64>,
}

fn denominator(n: u32, k: usize) -> BigInt {
    BigInt::from(n).pow(2 * k as u32 - 1)
}

fn build(die: DieType) -> DieTable {
    let n = die.sides();
    let n2 = BigInt::from(n) * n;
    let mut weights = vec![BigInt::zero()];
    // Kept mass over the running denominator N^(2k-1), set at k = 1.
    let mut kept = BigInt::zero();
    let mut den = BigInt::one();
    let mut k = 0usize;
    loop {
        k += 1;
        let base = if (k as u32) < n {
            BigInt::from(n).pow(2 * k as u32 - 2)
        } else {
            BigInt::zero()
        };
        let mut w = base;
        for i in 1..k {
            w += &weights[i] * &weights[k - i];
        }
        weights.push(w);
        if k == 1 {
            den = BigInt::from(n);
            kept = weights[1].clone();
        } else {
            den *= &n2;
            kept = kept * &n2 + &weights[k];
        }
        // Stop when (den - kept) / den < 1e-12, past the die's own faces.
        let missing = &den - &kept;
        if k as u32 >= n && missing * BigInt::from(1_000_000_000_000u64) < den {
            let neglected = Prob::new(&den - &kept, den.clone());
            let floats = (0..weights.len())
                .map(|k| {
                    if k == 0 {
                        0.0
                    } else {
                        Prob::new(weights[k].clone(), denominator(n, k))
                            .to_f64()
                            .unwrap_or(0.0)
                    }
                })
                .collect();
            return DieTable {
                weights,
                neglected,
                floats,
            };
        }
    }
}

fn table(die: DieType) -> &'static DieTable {
    static TABLES: [OnceLock<DieTable>; 5] = [const { OnceLock::new() }; 5];
    let i = DieType::ALL.iter().position(|&d| d == die).expect("listed");
    TABLES[i].get_or_init(|| build(die))
}

/// `P(X = k)` for one exploding die, exactly (0 beyond the kept outcomes, see
/// [`distribution`]).
pub fn p_eq(die: DieType, k: u32) -> Prob {
    let t = table(die);
    match t.weights.get(k as usize) {
        Some(w) if k > 0 => Prob::new(w.clone(), denominator(die.sides(), k as usize)),
        _ => Prob::zero(),
    }
}

/// `P(X ≥ d)` for one exploding die, exactly: one minus the finitely many outcomes below.
/// It runs the recurrence only as far as `d − 1`, so it needs no cached table: a difficulty
/// query costs microseconds even as the first query of a process.
pub fn p_at_least(die: DieType, d: u32) -> Prob {
    if d <= 1 {
        return Prob::one();
    }
    let n = die.sides();
    let top = d as usize - 1;
    let mut w = vec![BigInt::zero(); top + 1];
    for k in 1..=top {
        let mut x = if (k as u32) < n {
            BigInt::from(n).pow(2 * k as u32 - 2)
        } else {
            BigInt::zero()
        };
        for i in 1..k {
            x += &w[i] * &w[k - i];
        }
        w[k] = x;
    }
    // Σ_{k<d} W_k / N^(2k−1), over the common denominator N^(2·top−1).
    let n2 = BigInt::from(n) * n;
    let mut below = BigInt::zero();
    for wk in &w[1..] {
        below = below * &n2 + wk;
    }
    Prob::one() - Prob::new(below, denominator(n, top))
}

/// The distribution of one exploding die, truncated where the neglected mass falls below
/// 1e-12 (reported by [`Distribution::neglected`]).
pub fn distribution(die: DieType) -> Distribution {
    let t = table(die);
    Distribution::from_pairs(
        (1..t.weights.len()).map(|k| (k as i64, p_eq(die, k as u32))),
        t.neglected.clone(),
    )
}

/// Exact odds of a skill roll.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillOdds {
    /// One chance reaching the difficulty.
    pub per_chance: Prob,
    /// At least one chance reaching it.
    pub success: Prob,
    /// `quality[q]`: exactly `q` chances reach it (0 is failure).
    pub quality: Vec<Prob>,
}

/// Exact odds of a skill roll: each chance succeeds independently, so the quality is
/// binomial.
pub fn skill_odds(spec: &RollSpec) -> SkillOdds {
    let p = p_at_least(spec.die, spec.difficulty);
    let q = Prob::one() - &p;
    let c = spec.chances;
    let quality: Vec<Prob> = (0..=c)
        .map(|k| {
            let ways = (0..k).fold(BigInt::one(), |acc, i| acc * (c - i) / (i + 1));
            Prob::from_integer(ways)
                * num_traits::pow(p.clone(), k as usize)
                * num_traits::pow(q.clone(), (c - k) as usize)
        })
        .collect();
    SkillOdds {
        success: Prob::one() - &quality[0],
        per_chance: p,
        quality,
    }
}

/// Odds of an opposed roll, in f64 from the exact per-die distributions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OpposedOdds {
    /// The first side wins.
    pub win: f64,
    /// Equal best results.
    pub draw: f64,
    /// The second side wins.
    pub lose: f64,
    /// `win_quality[q]`: the first side wins with quality `q` (index 0 unused).
    pub win_quality: Vec<f64>,
    /// `lose_quality[q]`: the second side wins with quality `q`.
    pub lose_quality: Vec<f64>,
    /// A bound on the error from the truncated explosions and float rounding.
    pub error_bound: f64,
}

fn cdf(die: DieType, len: usize) -> Vec<f64> {
    let p = &table(die).floats;
    let mut out = Vec::with_capacity(len);
    let mut acc = 0.0;
    for k in 0..len {
        acc += p.get(k).copied().unwrap_or(0.0);
        out.push(acc);
    }
    out
}

fn binomial(n: u32, k: u32) -> f64 {
    (0..k).fold(1.0, |acc, i| acc * f64::from(n - i) / f64::from(i + 1))
}

/// Wins of `(die, chances)` over a best result of the other side, by quality.
fn wins_by_quality(mine: &[f64], chances: u32, theirs_best: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; chances as usize + 1];
    for (b, pb) in theirs_best.iter().enumerate() {
        if *pb == 0.0 {
            continue;
        }
        // A chance beats b with s = 1 − F(b).
        let s = (1.0 - mine[b]).max(0.0);
        for q in 1..=chances {
            out[q as usize] +=
                pb * binomial(chances, q) * s.powi(q as i32) * (1.0 - s).powi((chances - q) as i32);
        }
    }
    out
}

/// Odds of an opposed roll of `first` against `second` (die type, chances).
pub fn opposed_odds(first: (DieType, u32), second: (DieType, u32)) -> OpposedOdds {
    let len = table(first.0)
        .floats
        .len()
        .max(table(second.0).floats.len());
    let (fa, fb) = (cdf(first.0, len), cdf(second.0, len));
    let best = |f: &[f64], c: u32| -> Vec<f64> {
        (0..len)
            .map(|x| f[x].powi(c as i32) - if x == 0 { 0.0 } else { f[x - 1].powi(c as i32) })
            .collect()
    };
    let (ba, bb) = (best(&fa, first.1), best(&fb, second.1));
    let win_quality = wins_by_quality(&fa, first.1, &bb);
    let lose_quality = wins_by_quality(&fb, second.1, &ba);
    let draw = ba.iter().zip(&bb).map(|(a, b)| a * b).sum();
    let neglect = |d: DieType| table(d).neglected.to_f64().unwrap_or(1.0);
    OpposedOdds {
        win: win_quality.iter().sum(),
        lose: lose_quality.iter().sum(),
        draw,
        win_quality,
        lose_quality,
        error_bound: f64::from(first.1) * neglect(first.0)
            + f64::from(second.1) * neglect(second.0)
            + 1e-13,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roll::{explode, roll_opposed, roll_skill};
    use solum_dice::{DiceError, SeededDice, enumerate, prob, prob_to_f64};

    #[test]
    fn short_recurrence_matches_the_table() {
        for die in DieType::ALL {
            for d in 1..=20 {
                let from_table: Prob = Prob::one() - (1..d).map(|k| p_eq(die, k)).sum::<Prob>();
                assert_eq!(p_at_least(die, d), from_table, "{die} at least {d}");
            }
        }
    }

    #[test]
    fn reference_values() {
        // d4: 1, 2, 3 directly; a 4 becomes two dice.
        assert_eq!(p_eq(DieType::D4, 1), prob(1, 4));
        assert_eq!(p_eq(DieType::D4, 2), prob(17, 64));
        // P(X >= 4) for a d4: only through an explosion whose two dice sum to 4 or more.
        let d4 = p_at_least(DieType::D4, 4);
        assert!((prob_to_f64(&d4) - 0.201171875).abs() < 1e-12);
        for die in DieType::ALL {
            let d = distribution(die);
            assert_eq!(d.total() + d.neglected(), Prob::one());
            assert!(prob_to_f64(d.neglected()) < NEGLECT);
        }
    }

    /// Exhaustive enumeration of `explode` itself, to a depth of 5 dice.
    #[test]
    fn exploding_die_matches_enumeration() {
        for die in DieType::ALL {
            let e = enumerate(5, |d| -> Result<u32, DiceError> {
                Ok(explode(die, d)?.result)
            })
            .unwrap();
            for k in 1..=die.sides() + 2 {
                let counted = e.p(|&r| r == k);
                let exact = p_eq(die, k);
                assert!(
                    counted <= exact && exact <= &counted + &e.truncated,
                    "{die} = {k}"
                );
            }
        }
    }

    #[test]
    fn skill_roll_matches_enumeration() {
        for die in [DieType::D4, DieType::D6] {
            for chances in 1..=2 {
                for d in 2..=6 {
                    let spec = RollSpec::new(die, chances, d).unwrap();
                    let e = enumerate(7, |dice| -> Result<u32, DiceError> {
                        Ok(roll_skill(&spec, dice)?.quality)
                    })
                    .unwrap();
                    let odds = skill_odds(&spec);
                    for (q, exact) in odds.quality.iter().enumerate() {
                        let counted = e.p(|&x| x == q as u32);
                        assert!(
                            &counted <= exact && *exact <= &counted + &e.truncated,
                            "{die} {chances} vs {d} quality {q}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn opposed_matches_simulation() {
        let mut dice = SeededDice::new(4);
        let (a, b) = ((DieType::D8, 2), (DieType::D6, 3));
        let odds = opposed_odds(a, b);
        assert!((odds.win + odds.draw + odds.lose - 1.0).abs() < 1e-9);
        let trials = 100_000;
        let mut wins = 0;
        let mut win_q2 = 0;
        for _ in 0..trials {
            let r = roll_opposed(a, b, &mut dice).unwrap();
            if r.winner == 1 {
                wins += 1;
                if r.quality == 2 {
                    win_q2 += 1;
                }
            }
        }
        for (count, p) in [(wins, odds.win), (win_q2, odds.win_quality[2])] {
            let se = (p * (1.0 - p) / f64::from(trials)).sqrt();
            assert!(
                (f64::from(count) / f64::from(trials) - p).abs() < 4.0 * se,
                "{count} vs {p}"
            );
        }
    }

    #[test]
    fn symmetric_opposed() {
        let o = opposed_odds((DieType::D6, 2), (DieType::D6, 2));
        assert!((o.win - o.lose).abs() < 1e-12);
    }
}
