//! Exact probabilities: the fractions a [`crate::Distribution`] gives when asked, and (in
//! tests) [`Rational`], the plain big-rational distribution the engine is checked against.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::ToPrimitive;
#[cfg(test)]
use num_traits::{One, Zero};

/// An exact probability.
pub type Prob = BigRational;

/// `num / den` as a [`Prob`]. Panics on a zero denominator (a programming error).
pub fn prob(num: i64, den: i64) -> Prob {
    BigRational::new(BigInt::from(num), BigInt::from(den))
}

/// A probability as the nearest `f64`, for display and plots.
pub fn prob_to_f64(p: &Prob) -> f64 {
    p.to_f64().unwrap_or(f64::NAN)
}

/// The reference of the tests: a distribution as reduced big rationals, one per outcome,
/// with every operation done in fractions. It shares no code with the engine
/// ([`crate::Distribution`], integer weights over one denominator), so the two agreeing is
/// a check of the engine.
#[cfg(test)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Rational {
    outcomes: Vec<(i64, Prob)>,
    neglected: Prob,
}

#[cfg(test)]
#[allow(dead_code)]
impl Rational {
    /// Builds a distribution from `(outcome, probability)` pairs; equal outcomes are merged
    /// and zero probabilities dropped. `neglected` is the mass left out (zero if none).
    pub(crate) fn from_pairs(
        pairs: impl IntoIterator<Item = (i64, Prob)>,
        neglected: Prob,
    ) -> Self {
        let mut outcomes: Vec<(i64, Prob)> = pairs.into_iter().collect();
        // The engines hand over sorted, distinct, non-zero outcomes: keep them as they are.
        if outcomes.windows(2).all(|w| w[0].0 < w[1].0)
            && outcomes.iter().all(|(_, p)| !p.is_zero())
        {
            return Self {
                outcomes,
                neglected,
            };
        }
        outcomes.sort_by_key(|(v, _)| *v);
        let mut merged: Vec<(i64, Prob)> = Vec::with_capacity(outcomes.len());
        for (v, p) in outcomes {
            match merged.last_mut() {
                Some((last, q)) if *last == v => *q += p,
                _ => merged.push((v, p)),
            }
        }
        merged.retain(|(_, p)| !p.is_zero());
        Self {
            outcomes: merged,
            neglected,
        }
    }

    /// Builds a distribution from outcomes already sorted, distinct and non-zero (the
    /// exact engine's output), without sorting or merging again.
    pub(crate) fn from_sorted(outcomes: Vec<(i64, Prob)>, neglected: Prob) -> Self {
        debug_assert!(outcomes.windows(2).all(|w| w[0].0 < w[1].0));
        Self {
            outcomes,
            neglected,
        }
    }

    /// Builds a distribution from integer weights (like a die's faces).
    pub(crate) fn from_weights(weights: impl IntoIterator<Item = (i64, u64)>) -> Self {
        let weights: Vec<(i64, u64)> = weights.into_iter().collect();
        let total: u64 = weights.iter().map(|(_, w)| w).sum();
        assert!(total > 0, "a distribution needs positive total weight");
        Self::from_pairs(
            weights
                .into_iter()
                .map(|(v, w)| (v, BigRational::new(w.into(), total.into()))),
            Prob::zero(),
        )
    }

    /// A fair die: faces `1..=sides`.
    pub(crate) fn die(sides: u32) -> Self {
        Self::from_weights((1..=i64::from(sides)).map(|f| (f, 1)))
    }

    /// One certain outcome.
    pub(crate) fn certain(value: i64) -> Self {
        Self::from_pairs([(value, Prob::one())], Prob::zero())
    }

    /// The kept outcomes with their probabilities, smallest outcome first.
    pub(crate) fn outcomes(&self) -> &[(i64, Prob)] {
        &self.outcomes
    }

    /// The mass of the outcomes left out by truncation (zero for a finite mechanic).
    pub(crate) fn neglected(&self) -> &Prob {
        &self.neglected
    }

    /// Probability of exactly `value`.
    pub(crate) fn p_eq(&self, value: i64) -> Prob {
        self.outcomes
            .iter()
            .find(|(v, _)| *v == value)
            .map(|(_, p)| p.clone())
            .unwrap_or_else(Prob::zero)
    }

    /// Probability of at least `value` among the kept outcomes. When the distribution was
    /// truncated, the true value exceeds this by at most [`Self::neglected`].
    pub(crate) fn p_at_least(&self, value: i64) -> Prob {
        self.outcomes
            .iter()
            .filter(|(v, _)| *v >= value)
            .map(|(_, p)| p)
            .sum()
    }

    /// Probability of at most `value`.
    pub(crate) fn p_at_most(&self, value: i64) -> Prob {
        self.outcomes
            .iter()
            .filter(|(v, _)| *v <= value)
            .map(|(_, p)| p)
            .sum()
    }

    /// The sum of the kept probabilities: `1 - neglected`.
    pub(crate) fn total(&self) -> Prob {
        self.outcomes.iter().map(|(_, p)| p).sum()
    }

    /// The mean of the kept outcomes, renormalised. Computed from the lowest value up (the
    /// distances to it are exact in `f64` up to 2^53 apart), so a narrow distribution far
    /// from zero (`9000000000000000000 + 1d6`) keeps its spread; the mean itself is the
    /// nearest `f64`.
    pub(crate) fn mean(&self) -> f64 {
        let Some(&(lo, _)) = self.outcomes.first() else {
            return 0.0;
        };
        lo as f64 + self.mean_above(lo)
    }

    /// The mean distance of the kept outcomes above `lo`, renormalised.
    fn mean_above(&self, lo: i64) -> f64 {
        let total = prob_to_f64(&self.total());
        self.outcomes
            .iter()
            .map(|(v, p)| (i128::from(*v) - i128::from(lo)) as f64 * prob_to_f64(p))
            .sum::<f64>()
            / total
    }

    /// The standard deviation of the kept outcomes, renormalised: computed on the distances
    /// to the lowest value, so it is right however far from zero the values are.
    pub(crate) fn std_dev(&self) -> f64 {
        let Some(&(lo, _)) = self.outcomes.first() else {
            return 0.0;
        };
        let total = prob_to_f64(&self.total());
        let mean = self.mean_above(lo);
        let var = self
            .outcomes
            .iter()
            .map(|(v, p)| {
                ((i128::from(*v) - i128::from(lo)) as f64 - mean).powi(2) * prob_to_f64(p)
            })
            .sum::<f64>()
            / total;
        var.sqrt()
    }

    /// The distribution of `f(outcome)`.
    pub(crate) fn map(&self, f: impl Fn(i64) -> i64) -> Self {
        Self::from_pairs(
            self.outcomes.iter().map(|(v, p)| (f(*v), p.clone())),
            self.neglected.clone(),
        )
    }

    /// The distribution of the sum of two independent outcomes.
    pub(crate) fn add(&self, other: &Self) -> Self {
        self.combine(other, |a, b| a + b)
    }

    /// The distribution of `f(a, b)` for independent `a` from `self`, `b` from `other`.
    pub(crate) fn combine(&self, other: &Self, f: impl Fn(i64, i64) -> i64) -> Self {
        let mut pairs = Vec::with_capacity(self.outcomes.len() * other.outcomes.len());
        for (a, p) in &self.outcomes {
            for (b, q) in &other.outcomes {
                pairs.push((f(*a, *b), p * q));
            }
        }
        // Mass lost on either side: 1 - (1 - n1)(1 - n2).
        let kept = self.total() * other.total();
        let neglected = if self.neglected.is_zero() && other.neglected.is_zero() {
            Prob::zero()
        } else {
            Prob::one() - kept
        };
        Self::from_pairs(pairs, neglected)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Distribution;

    #[test]
    fn die_is_uniform() {
        let d6 = Distribution::die(6);
        assert_eq!(d6.p_eq(3), prob(1, 6));
        assert_eq!(d6.total(), Prob::one());
        assert_eq!(d6.p_at_least(5), prob(1, 3));
        assert_eq!(d6.p_at_most(2), prob(1, 3));
        assert!((d6.mean() - 3.5).abs() < 1e-12);
        assert!((d6.std_dev() - (35.0f64 / 12.0).sqrt()).abs() < 1e-12);
        // Far from zero: 9e18 + 1d6 still has the d6's spread, sqrt(35/12) = 1.7078…
        let far = d6.map(|v| v + 9_000_000_000_000_000_000 - 1);
        assert!((far.std_dev() - (35.0f64 / 12.0).sqrt()).abs() < 1e-12);
        assert_eq!(far.mean(), 9_000_000_000_000_000_002.5f64);
        // At the bottom edge: i64::MIN + {0, 1}, each half: sd 1/2.
        let low = Distribution::from_fractions(
            [(i64::MIN, prob(1, 2)), (i64::MIN + 1, prob(1, 2))],
            prob(0, 1),
        );
        assert!((low.std_dev() - 0.5).abs() < 1e-12);
    }

    #[test]
    fn sum_of_two_dice() {
        let two = Distribution::die(6).add(&Distribution::die(6));
        assert_eq!(two.p_eq(7), prob(1, 6));
        assert_eq!(two.p_eq(2), prob(1, 36));
        assert_eq!(two.outcomes().len(), 11);
        assert!(two.neglected().is_zero());
    }

    #[test]
    fn merges_and_drops_zeros() {
        let d = Distribution::from_fractions(
            [
                (1, prob(1, 2)),
                (1, prob(1, 4)),
                (2, prob(0, 1)),
                (3, prob(1, 4)),
            ],
            Prob::zero(),
        );
        assert_eq!(d.outcomes().len(), 2);
        assert_eq!(d.p_eq(1), prob(3, 4));
    }
}
