//! The sum of many copies of one small die past `u128`, by J. C. P. Miller's recurrence
//! for the powers of a polynomial, in 64-bit limbs.
//!
//! A die with weights `a_0 … a_m` (`a_0 ≠ 0`) is the polynomial `P(x) = Σ a_i x^i`; the sum
//! of `n` copies has the weights of `P(x)^n`. Differentiating `P^n` gives
//! `P · (P^n)' = n P' · P^n`, and reading the coefficient of `x^(k−1)` on both sides
//!
//! ```text
//! c_0 = a_0^n,    c_k = 1 / (k a_0) · Σ_{i=1..min(k,m)} ((n + 1) i − k) a_i c_(k−i)
//! ```
//!
//! so each of the `n m + 1` weights costs `m` multiply-adds of a big weight by a small number
//! and one exact division by a small number: for `1000d6`, 5,001 weights of 41 limbs from
//! 25,000 short multiply-adds, where the convolutions by squaring end in one multiplication
//! of two 6.5-million-bit integers. A die whose weights read the same both ways (every fair
//! die) has a sum that does too, and only its lower half is computed.
//!
//! The weights are written flat (one buffer of limbs, as the structured sums of exploding
//! dice write theirs) and widened to big integers only when read.

use num_bigint::BigUint;

use crate::Distribution;
use crate::weights::Dense;

/// Dice with more faces than this are summed by convolution: the recurrence costs `m` steps
/// a weight, a convolution's last square about `log m` (measured on `100d100`, see
/// docs/performance.md).
pub(crate) const MAX_DEGREE: usize = 128;

/// The sum of `n` copies of `g` by the recurrence, when its weights and denominator fit
/// `u64`, it has at most [`MAX_DEGREE`] + 1 outcomes and the sum's denominator does not fit
/// `u128` (below that the convolutions in `u128` are quicker); `None` otherwise.
pub(crate) fn sum_of(g: &Dense<u128>, n: u32) -> Option<Distribution> {
    let m = g.w.len().checked_sub(1)?;
    if n < 2 || m == 0 || m > MAX_DEGREE || g.den.checked_pow(n).is_some() {
        return None;
    }
    let a: Vec<u64> =
        g.w.iter()
            .map(|&x| u64::try_from(x).ok())
            .collect::<Option<_>>()?;
    let s = u64::try_from(g.den).ok()?;
    if a[0] == 0 || s < 2 {
        return None;
    }
    let n64 = u64::from(n);
    let len = usize::try_from(n64.checked_mul(m as u64)?.checked_add(1)?).ok()?;
    // Every factor `((n + 1) i − k) a_i` and every divisor `k a_0` fits a limb, and a
    // weighted sum of weights (each at most s^n) stays within two limbs more.
    let reach = (n64 + 1).checked_mul(m as u64)?.max(len as u64);
    let most_a = *a.iter().max()?;
    reach.checked_mul(most_a)?;
    (len as u64).checked_mul(a[0])?;
    u128::from(reach)
        .checked_mul(u128::from(most_a))?
        .checked_mul(m as u128)?;

    let den = BigUint::from(s).pow(n);
    // Limbs of a weight (each at most the denominator), and of the running sums.
    let limbs = den.iter_u64_digits().len();
    let wide = limbs + 2;
    let mut c = vec![0u64; len * limbs];
    let first = BigUint::from(a[0]).pow(n);
    for (slot, d) in c[..limbs].iter_mut().zip(first.iter_u64_digits()) {
        *slot = d;
    }
    let palindrome = a.iter().eq(a.iter().rev());
    // With a palindrome the upper half mirrors the lower one.
    let last = if palindrome { (len - 1) / 2 } else { len - 1 };
    let (mut plus, mut minus) = (vec![0u64; wide], vec![0u64; wide]);
    for k in 1..=last {
        plus.fill(0);
        minus.fill(0);
        for (i, &ai) in a.iter().enumerate().take(m.min(k) + 1).skip(1) {
            if ai == 0 {
                continue;
            }
            let (factor, acc) = match ((n64 + 1) * i as u64).checked_sub(k as u64) {
                Some(f) => (f, &mut plus),
                None => (k as u64 - (n64 + 1) * i as u64, &mut minus),
            };
            if factor == 0 {
                continue;
            }
            let from = (k - i) * limbs;
            mul_add(acc, &c[from..from + limbs], factor * ai);
        }
        sub_in_place(&mut plus, &minus);
        let rem = div_in_place(&mut plus, k as u64 * a[0]);
        debug_assert_eq!(rem, 0, "the recurrence divides exactly");
        debug_assert!(plus[limbs..].iter().all(|&x| x == 0), "a weight within s^n");
        c[k * limbs..(k + 1) * limbs].copy_from_slice(&plus[..limbs]);
    }
    if palindrome {
        for k in last + 1..len {
            let from = (len - 1 - k) * limbs;
            c.copy_within(from..from + limbs, k * limbs);
        }
    }
    let min = g.min.checked_mul(i64::from(n))?;
    Some(Distribution::from_flat(min, limbs, c, den))
}

/// `acc += x · k`, limb by limb (`acc` has room for the carry).
fn mul_add(acc: &mut [u64], x: &[u64], k: u64) {
    let mut carry = 0u64;
    for (a, &b) in acc.iter_mut().zip(x) {
        let t = u128::from(b) * u128::from(k) + u128::from(*a) + u128::from(carry);
        *a = t as u64;
        carry = (t >> 64) as u64;
    }
    for a in acc[x.len()..].iter_mut() {
        if carry == 0 {
            break;
        }
        let (v, o) = a.overflowing_add(carry);
        *a = v;
        carry = u64::from(o);
    }
    debug_assert_eq!(carry, 0, "the running sum has room");
}

/// `a −= b`, for `b ≤ a`.
fn sub_in_place(a: &mut [u64], b: &[u64]) {
    let mut borrow = false;
    for (x, &y) in a.iter_mut().zip(b) {
        let (v, o1) = x.overflowing_sub(y);
        let (v, o2) = v.overflowing_sub(u64::from(borrow));
        *x = v;
        borrow = o1 || o2;
    }
    debug_assert!(!borrow, "the recurrence's sum is not negative");
}

/// `a /= d` in place; returns the remainder.
fn div_in_place(a: &mut [u64], d: u64) -> u64 {
    let d = u128::from(d);
    let mut rem = 0u128;
    for x in a.iter_mut().rev() {
        let cur = (rem << 64) | u128::from(*x);
        *x = (cur / d) as u64;
        rem = cur % d;
    }
    rem as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dense(d: &Distribution) -> Dense<u128> {
        d.small_dense().expect("in u128").clone()
    }

    /// The recurrence against convolutions by squaring, for fair and uneven dice, with and
    /// without a zero weight inside, at sizes just past `u128`.
    #[test]
    fn matches_convolution_by_squares() {
        let dice = [
            Distribution::die(6),
            Distribution::die(2),
            Distribution::die(20),
            Distribution::from_pairs([(1, 1), (2, 2), (3, 3)]),
            Distribution::from_pairs([(-2, 1), (0, 4), (3, 2)]),
            Distribution::from_pairs([(0, 3), (1, 1), (2, 3)]),
            Distribution::from_dense(1, vec![1, 1, 1], 4),
        ];
        for die in &dice {
            for n in [50u32, 51, 60, 97, 130, 200] {
                let Some(fast) = sum_of(&dense(die), n) else {
                    assert!(
                        die.denominator_big().pow(n) < BigUint::from(u128::MAX),
                        "{n}"
                    );
                    continue;
                };
                assert_eq!(fast, die.sum_by_squares(n), "{die:?} {n}");
                assert_eq!(fast.weights_big(), die.sum_by_squares(n).weights_big());
            }
        }
    }

    /// 1000d6 by the recurrence: the middle weight and the ends, from the text's
    /// inclusion–exclusion formula computed independently.
    #[test]
    fn thousand_d6_by_inclusion_exclusion() {
        let d = sum_of(&dense(&Distribution::die(6)), 1000).expect("past u128");
        // Ways for n d6 to total v: Σ_j (−1)^j C(n, j) C(v − 6j − 1, n − 1).
        fn ways(n: u64, v: u64) -> BigUint {
            let binom = |a: u64, b: u64| -> BigUint {
                if b > a {
                    return BigUint::default();
                }
                (0..b).fold(BigUint::from(1u8), |acc, i| acc * (a - i) / (i + 1))
            };
            let (mut plus, mut minus) = (BigUint::default(), BigUint::default());
            for j in 0..=n {
                if v < 6 * j + n {
                    break;
                }
                let t = binom(n, j) * binom(v - 6 * j - 1, n - 1);
                if j % 2 == 0 {
                    plus += t;
                } else {
                    minus += t;
                }
            }
            plus - minus
        }
        for v in [1000, 1001, 1500, 3500, 5999, 6000] {
            assert_eq!(d.weight(v), ways(1000, v as u64), "{v}");
        }
        assert_eq!(d.min_outcome(), Some(1000));
        assert_eq!(d.max_outcome(), Some(6000));
        assert_eq!(d.total(), crate::prob(1, 1));
    }
}
