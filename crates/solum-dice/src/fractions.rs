//! Reducing many big weights over one common denominator to exact fractions, cheaply.
//!
//! The engine's denominators are products of dice sides (`6^1000`, `10^100`): powers of a
//! few small primes. Once the denominator is factored over those primes, the gcd of a
//! weight with it is read off by stripping each prime from the weight (trailing zero bits
//! for 2, a few divisions by a small number for the others) instead of a full big-integer
//! gcd per value, which is what made `Prob` fractions of `1000d6` cost half a second.

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_traits::{One, Zero};

use crate::Prob;

/// Primes tried as factors of a denominator (every die up to 100 sides is a product of
/// these); a denominator with another prime factor is reduced by gcd as before.
const SMALL_PRIMES: [u64; 25] = [
    2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97,
];

/// Reduces weights over one common denominator to fractions in lowest terms: by stripping
/// the denominator's small prime factors from each weight when it has no other (every
/// product of dice up to 100 sides), by a gcd per value otherwise. Make it once per
/// denominator, then call [`Fractions::ratio`] for each weight.
#[derive(Debug)]
pub struct Fractions {
    den: BigUint,
    smooth: Option<SmoothDenominator>,
}

impl Fractions {
    /// Prepares to reduce fractions over `den` (not zero).
    pub fn new(den: &BigUint) -> Self {
        Self {
            den: den.clone(),
            smooth: SmoothDenominator::new(den),
        }
    }

    /// `x / den` in lowest terms.
    pub fn ratio(&self, x: &BigUint) -> Prob {
        match &self.smooth {
            Some(s) => s.ratio(x),
            None => Prob::new(BigInt::from(x.clone()), BigInt::from(self.den.clone())),
        }
    }
}

/// A denominator factored over small primes: `den = 2^twos · Π p^e`.
#[derive(Debug)]
struct SmoothDenominator {
    den: BigUint,
    twos: u64,
    /// Each odd prime with its exponent, and the largest power of it that fits in `u64`
    /// (`p^chunk`), to strip it several at a time.
    odd: Vec<OddPrime>,
}

#[derive(Debug)]
struct OddPrime {
    p: u64,
    e: u64,
    chunk: u32,
    power: u64,
}

impl SmoothDenominator {
    /// Factors `den` over [`SMALL_PRIMES`]; `None` if another prime divides it (or it is 0).
    fn new(den: &BigUint) -> Option<Self> {
        if den.is_zero() {
            return None;
        }
        let twos = den.trailing_zeros().unwrap_or(0);
        let mut rest = den >> twos;
        let mut odd = Vec::new();
        for &p in &SMALL_PRIMES[1..] {
            if rest.is_one() {
                break;
            }
            let (chunk, power) = largest_power(p);
            let mut e = 0u64;
            // Whole chunks first, then one prime at a time.
            loop {
                let (q, r) = rest.div_rem(&BigUint::from(power));
                if !r.is_zero() {
                    break;
                }
                rest = q;
                e += u64::from(chunk);
            }
            loop {
                let (q, r) = rest.div_rem(&BigUint::from(p));
                if !r.is_zero() {
                    break;
                }
                rest = q;
                e += 1;
            }
            if e > 0 {
                odd.push(OddPrime { p, e, chunk, power });
            }
        }
        rest.is_one().then(|| Self {
            den: den.clone(),
            twos,
            odd,
        })
    }

    /// `x / den` in lowest terms.
    fn ratio(&self, x: &BigUint) -> Prob {
        if x.is_zero() {
            return Prob::new_raw(BigInt::zero(), BigInt::one());
        }
        let shift = x.trailing_zeros().unwrap_or(0).min(self.twos);
        let mut num = x >> shift;
        // The odd part of the gcd, as one number (most weights share none of it).
        let mut common = 1u64;
        let mut divisor = BigUint::one();
        for f in &self.odd {
            let mut taken = 0u64;
            while taken + u64::from(f.chunk) <= f.e && (&num % f.power).is_zero() {
                num /= f.power;
                divisor *= f.power;
                taken += u64::from(f.chunk);
            }
            while taken < f.e && (&num % f.p).is_zero() {
                num /= f.p;
                taken += 1;
                // Gather small factors in u64 before touching the big divisor.
                match common.checked_mul(f.p) {
                    Some(c) => common = c,
                    None => {
                        divisor *= common;
                        common = f.p;
                    }
                }
            }
        }
        divisor *= common;
        let mut den = &self.den >> shift;
        if !divisor.is_one() {
            den /= divisor;
        }
        Prob::new_raw(BigInt::from(num), BigInt::from(den))
    }
}

/// The largest `k` with `p^k ≤ u64::MAX`, and `p^k`.
fn largest_power(p: u64) -> (u32, u64) {
    let (mut k, mut power) = (1u32, p);
    while let Some(next) = power.checked_mul(p) {
        power = next;
        k += 1;
    }
    (k, power)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn big(x: u128) -> BigUint {
        BigUint::from(x)
    }

    #[test]
    fn factors_dice_denominators() {
        let six = SmoothDenominator::new(&BigUint::from(6u32).pow(1000)).expect("smooth");
        assert_eq!(six.twos, 1000);
        assert_eq!(six.odd.len(), 1);
        assert_eq!((six.odd[0].p, six.odd[0].e), (3, 1000));
        assert!(SmoothDenominator::new(&big(101 * 6)).is_none());
        assert!(SmoothDenominator::new(&big(0)).is_none());
        let one = SmoothDenominator::new(&big(1)).expect("1 is smooth");
        assert_eq!(one.ratio(&big(1)), Prob::new(1.into(), 1.into()));
    }

    #[test]
    fn reduces_like_gcd() {
        let den = BigUint::from(6u32).pow(100) * BigUint::from(35u32).pow(7);
        let s = SmoothDenominator::new(&den).expect("smooth");
        for x in [
            BigUint::from(6u32).pow(100),
            BigUint::from(3u32).pow(100),
            BigUint::from(3u32).pow(99) * 7u32,
            BigUint::from(2u32).pow(150),
            &den - 1u32,
            BigUint::from(5u32).pow(7) * 9u32,
            big(0),
        ] {
            let expected = Prob::new(BigInt::from(x.clone()), BigInt::from(den.clone()));
            let got = s.ratio(&x);
            assert_eq!(got.numer(), expected.numer(), "{x}");
            assert_eq!(got.denom(), expected.denom(), "{x}");
        }
    }

    /// `Distribution::outcomes` over big weights: each probability and the neglected mass
    /// are the reduced fractions, for a smooth denominator and for one that is not.
    #[test]
    fn outcomes_reduce_every_value() {
        let smooth = crate::Distribution::die(6).sum_of(60).substitute(200, None);
        let rough = crate::Distribution::from_dense_big(
            3,
            (1..=40u32)
                .map(|i| BigUint::from(i) * BigUint::from(101u32).pow(i % 5))
                .collect(),
            BigUint::from(101u32).pow(30),
        );
        for w in [smooth, rough] {
            assert!(!w.is_small());
            let den = BigInt::from(w.denominator_big());
            let outcomes = w.outcomes();
            let expected: Vec<(i64, Prob)> = w
                .weights_big()
                .into_iter()
                .map(|(v, x)| (v, Prob::new(BigInt::from(x), den.clone())))
                .collect();
            assert_eq!(outcomes.len(), expected.len());
            for ((v, p), (ev, ep)) in outcomes.iter().zip(&expected) {
                assert_eq!(v, ev);
                assert_eq!((p.numer(), p.denom()), (ep.numer(), ep.denom()), "{v}");
            }
            let sum: BigUint = w.weights_big().into_iter().map(|(_, x)| x).sum();
            let neglected = Prob::new(den.clone() - BigInt::from(sum), den);
            let got = w.neglected();
            assert_eq!(
                (got.numer(), got.denom()),
                (neglected.numer(), neglected.denom())
            );
        }
    }

    /// The support accessors count and place the values with a chance, gaps left out.
    #[test]
    fn support_accessors() {
        let gappy = crate::Distribution::from_pairs([(-3, 5), (0, 1), (7, 2)]);
        assert_eq!(gappy.support_size(), 3);
        assert_eq!(gappy.values(), vec![-3, 0, 7]);
        assert_eq!(
            (gappy.min_outcome(), gappy.max_outcome()),
            (Some(-3), Some(7))
        );
        // 1d10 exploding twice: 1–9, 11–19, 21–30 (10 and 20 never show).
        let x = crate::Distribution::die(10).explode(2);
        assert_eq!(x.support_size(), 28);
        assert_eq!(x.max_outcome(), Some(30));
        let big = crate::Distribution::die(6).sum_of(60);
        assert!(!big.is_small());
        assert_eq!(big.support_size(), 301);
        assert_eq!(
            (big.min_outcome(), big.max_outcome()),
            (Some(60), Some(360))
        );
        let none = crate::Distribution::die(4)
            .substitute(1, None)
            .substitute(2, None)
            .substitute(3, None)
            .substitute(4, None);
        assert_eq!((none.support_size(), none.max_outcome()), (0, None));
        assert!(none.values().is_empty());
    }

    proptest! {
        /// Any weight over a product of small primes reduces as the gcd does.
        #[test]
        fn agrees_with_gcd(
            exponents in prop::collection::vec(0u32..40, 4),
            x in any::<u128>(),
            scale in 0u32..30,
        ) {
            let den = [2u32, 3, 5, 97]
                .iter()
                .zip(&exponents)
                .fold(BigUint::one(), |acc, (&p, &e)| acc * BigUint::from(p).pow(e));
            let s = SmoothDenominator::new(&den).expect("smooth");
            let x = (big(x) * BigUint::from(3u32).pow(scale)) % &den;
            let expected = Prob::new(BigInt::from(x.clone()), BigInt::from(den.clone()));
            let got = s.ratio(&x);
            prop_assert_eq!(got.numer(), expected.numer());
            prop_assert_eq!(got.denom(), expected.denom());
        }
    }
}
