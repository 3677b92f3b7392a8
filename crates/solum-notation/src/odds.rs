//! Exact odds as front ends show them: the engine's integer weights read once, with every
//! value's chance, running sums and summary figures, and exact fractions made only where
//! they are printed.

use num_bigint::{BigInt, BigUint};
use solum_dice::{Distribution, Fractions, Prob, prob_to_f64};

use crate::ast::Expr;
use crate::error::NotationError;

/// One value's chances. The fractions are exact but not reduced (a `1000d6` has 5,001
/// values over 6^1000, and reducing each costs more than computing them): compare them or
/// turn them into `f64`; [`Odds::exact`] gives a reduced one.
#[derive(Debug, Clone)]
pub struct Row {
    /// The value.
    pub value: i64,
    /// P(exactly this value), as the nearest `f64`.
    pub p: f64,
    /// P(exactly this value).
    pub eq: Prob,
    /// P(at least this value), among the kept outcomes.
    pub at_least: Prob,
    /// P(at most this value).
    pub at_most: Prob,
}

/// The exact odds of one expression, ready to show.
#[derive(Debug, Clone)]
pub struct Odds {
    weights: Vec<(i64, BigUint)>,
    den: BigUint,
    probs: Vec<f64>,
    kept: BigUint,
    mean: f64,
    /// The mean times `kept`, exactly.
    mean_num: BigInt,
    sd: f64,
}

/// The exact odds of `expr` (see [`crate::distribution`]), ready to show.
pub fn odds(expr: &Expr) -> Result<Odds, NotationError> {
    Ok(Odds::new(&crate::distribution(expr)?))
}

/// [`odds`] within the budget `work` (see [`crate::distribution_with`]): the expressions of one
/// command share it.
pub fn odds_with(expr: &Expr, work: &mut crate::Work) -> Result<Odds, NotationError> {
    Ok(Odds::new(&crate::distribution_with(expr, work)?))
}

impl Odds {
    /// Reads the engine's weights once.
    pub fn new(w: &Distribution) -> Self {
        let weights = w.weights_big();
        let den = w.denominator_big();
        let probs: Vec<f64> = weights.iter().map(|(_, x)| ratio_f64(x, &den)).collect();
        let kept: BigUint = weights.iter().map(|(_, x)| x).sum();
        // Figures from the lowest value up: the distances to it are small where the
        // values are huge (`1000000*1000000*1000000*9+1d6`), so the spread survives `f64`.
        let lo = weights.first().map_or(0, |(v, _)| *v);
        let above = |v: i64| i128::from(v) - i128::from(lo);
        let sum_above: BigUint = weights
            .iter()
            .map(|(v, w)| BigUint::from(above(*v).unsigned_abs()) * w)
            .sum();
        let mean_above = if kept == BigUint::default() {
            0.0
        } else {
            ratio_f64(&sum_above, &kept)
        };
        let total = ratio_f64(&kept, &den);
        let var = weights
            .iter()
            .zip(&probs)
            .map(|((v, _), p)| (above(*v) as f64 - mean_above).powi(2) * p)
            .sum::<f64>()
            / total;
        let mean_num = BigInt::from(lo) * BigInt::from(kept.clone()) + BigInt::from(sum_above);
        Self {
            weights,
            den,
            probs,
            mean: lo as f64 + mean_above,
            mean_num,
            kept,
            sd: var.sqrt(),
        }
    }

    /// The mean of the kept outcomes, renormalised, as the nearest `f64` (which cannot
    /// hold `9000000000000000003.5`: [`Odds::mean_text`] prints it exactly).
    pub fn mean(&self) -> f64 {
        self.mean
    }

    /// The exact mean of the kept outcomes in decimal, rounded half away from zero to
    /// `places` digits after the point: `"9000000000000000003.5000"` where [`Odds::mean`]
    /// gives `9e18`.
    pub fn mean_text(&self, places: u32) -> String {
        if self.kept == BigUint::default() {
            return format!("{:.*}", places as usize, 0.0);
        }
        let negative = self.mean_num < BigInt::default();
        let scale = BigUint::from(10u32).pow(places);
        let two = BigUint::from(2u32);
        let q = (self.mean_num.magnitude() * &scale * &two + &self.kept) / (&self.kept * &two);
        let whole = &q / &scale;
        let frac = (&q % &scale).to_string();
        let sign = if negative && q != BigUint::default() {
            "-"
        } else {
            ""
        };
        if places == 0 {
            format!("{sign}{whole}")
        } else {
            format!("{sign}{whole}.{frac:0>width$}", width = places as usize)
        }
    }

    /// The standard deviation of the kept outcomes, renormalised.
    pub fn sd(&self) -> f64 {
        self.sd
    }

    /// How many values have a chance.
    pub fn len(&self) -> usize {
        self.weights.len()
    }

    /// Whether no value has a chance.
    pub fn is_empty(&self) -> bool {
        self.weights.is_empty()
    }

    /// Each value with its chance as the nearest `f64`, ascending.
    pub fn points(&self) -> impl Iterator<Item = (i64, f64)> + '_ {
        self.weights
            .iter()
            .zip(&self.probs)
            .map(|((v, _), p)| (*v, *p))
    }

    /// Every value's chances, ascending (running sums of integer weights: exact).
    pub fn rows(&self) -> Vec<Row> {
        let mut at_least = self.kept.clone();
        let mut at_most = BigUint::default();
        let mut rows = Vec::with_capacity(self.weights.len());
        for ((v, w), &p) in self.weights.iter().zip(&self.probs) {
            at_most += w;
            rows.push(Row {
                value: *v,
                p,
                eq: self.raw(w),
                at_least: self.raw(&at_least),
                at_most: self.raw(&at_most),
            });
            at_least -= w;
        }
        rows
    }

    /// Each value with its exact chance as a reduced fraction, ascending.
    pub fn exact(&self) -> impl Iterator<Item = (i64, Prob)> + '_ {
        // One factoring of the denominator, then each weight stripped of its primes.
        let den = Fractions::new(&self.den);
        self.weights.iter().map(move |(v, x)| (*v, den.ratio(x)))
    }

    /// The mass left out (the Rule of 6 and die-type chains never end).
    pub fn neglected(&self) -> Prob {
        self.raw(&(&self.den - &self.kept))
    }

    /// Whether some mass is left out.
    pub fn has_tail(&self) -> bool {
        self.kept != self.den
    }

    /// The smallest value whose cumulative chance reaches `q` of the kept mass.
    pub fn percentile(&self, q: f64) -> i64 {
        let total = ratio_f64(&self.kept, &self.den);
        let mut acc = 0.0;
        for ((v, _), p) in self.weights.iter().zip(&self.probs) {
            acc += p / total;
            if acc + 1e-12 >= q {
                return *v;
            }
        }
        self.weights.last().map_or(0, |(v, _)| *v)
    }

    fn raw(&self, x: &BigUint) -> Prob {
        Prob::new_raw(BigInt::from(x.clone()), BigInt::from(self.den.clone()))
    }
}

fn ratio_f64(x: &BigUint, den: &BigUint) -> f64 {
    prob_to_f64(&Prob::new_raw(
        BigInt::from(x.clone()),
        BigInt::from(den.clone()),
    ))
}

#[cfg(test)]
mod tests {
    use solum_dice::prob;

    use super::*;

    #[test]
    fn rows_of_two_dice_by_hand() {
        // 2d4: 2..8 with 1, 2, 3, 4, 3, 2, 1 ways of 16.
        let o = odds(&crate::parse("2d4").unwrap()).unwrap();
        let rows = o.rows();
        assert_eq!(rows.len(), 7);
        assert_eq!(rows[2].value, 4);
        assert_eq!(rows[2].eq, prob(3, 16));
        assert_eq!(rows[2].at_least, prob(13, 16));
        assert_eq!(rows[2].at_most, prob(6, 16));
        assert_eq!(rows[6].at_least, prob(1, 16));
        assert_eq!(rows[6].at_most, prob(1, 1));
        assert!((o.mean() - 5.0).abs() < 1e-12);
        // Var of one d4 is 15/12; two: 2.5.
        assert!((o.sd() - 2.5f64.sqrt()).abs() < 1e-12);
        assert_eq!(o.percentile(0.5), 5);
        assert!(!o.has_tail());
        let exact: Vec<(i64, Prob)> = o.exact().collect();
        assert_eq!(exact[3], (5, prob(1, 4)));
        assert_eq!(exact[3].1.denom(), &BigInt::from(4), "reduced");
        assert_eq!(o.mean_text(4), "5.0000");
    }

    #[test]
    fn figures_far_from_zero_keep_their_spread_and_fraction() {
        // 9 * 10^18 + 1d6: mean 9 * 10^18 + 3.5, variance of one d6 35/12 (sd 1.70783).
        let o = odds(&crate::parse("1000000*1000000*1000000*9+1d6").unwrap()).unwrap();
        assert!(
            (o.sd() - (35.0f64 / 12.0).sqrt()).abs() < 1e-9,
            "{}",
            o.sd()
        );
        assert_eq!(o.mean_text(4), "9000000000000000003.5000");
        // -2^63 + 1d2 - 1: i64::MIN or one above, each half: mean -2^63 + 1/2, sd 1/2.
        let o = odds(&crate::parse("-524288*524288*524288*64+1d2-1").unwrap()).unwrap();
        assert!((o.sd() - 0.5).abs() < 1e-12, "{}", o.sd());
        assert_eq!(o.mean_text(1), "-9223372036854775807.5");
        // Rounding half away from zero, on both sides: 1d2 has mean 1.5, 1d2-3 has -1.5.
        let o = odds(&crate::parse("1d2").unwrap()).unwrap();
        assert_eq!(o.mean_text(0), "2");
        let o = odds(&crate::parse("1d2-3").unwrap()).unwrap();
        assert_eq!(o.mean_text(0), "-2");
        assert_eq!(o.mean_text(2), "-1.50");
    }
}
