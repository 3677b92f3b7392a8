//! Keep highest / keep lowest of a pool of identical dice, as a walk over the faces with
//! small machine integers (icepool's per-face evaluation, specialised to a kept sum).
//!
//! The faces are visited best first (highest first to keep the highest). A state is how many
//! dice took the faces seen so far (`u`, always fewer than `k`) and the sum of their faces.
//! At face `f` with weight `x`, `c` more of the `n − u` dice left show `f`, in `C(n − u, c)`
//! ways. Once `u + c` reaches `k`, the sum is settled (`k − u` of those dice are kept) and
//! the other `n − u − c` dice may show any later face: weight `R^(n−u−c)`, `R` the weight of
//! the faces after `f`. So a pool costs about faces × k × sums × n multiply-adds and no
//! multiset is visited, nor any state kept past the `k`-th die.
//!
//! Exactness without checks: the states with `u` dice weigh `C(n, u) · P^u` in all (`P` the
//! weight of the faces seen), at most `(1 + den)^n`, and every partial product is part of
//! one of them or of a term of `(Σ w)^n ≤ den^n`. So when `(den + 1)^n` fits the integer
//! type, wrapping arithmetic is exact, and nothing is checked inside the loops. Past `u128`
//! (50d20: 21^50 is about 2^220) the same walk runs in 256-bit integers of four limbs
//! ([`Wide`]), still without checks, and only the kept sums become big integers.

use num_bigint::BigUint;

use crate::lane::Lane;
use crate::weights::{Dense, big_from_limbs};

/// A 256-bit unsigned integer in four 64-bit limbs (least significant first), wrapping
/// modulo 2^256: a `Copy` lane for walks whose bound passes `u128`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Wide([u64; 4]);

impl Lane for Wide {
    fn from_u128(x: u128) -> Self {
        Self([x as u64, (x >> 64) as u64, 0, 0])
    }
    fn wadd(self, other: Self) -> Self {
        let mut r = [0u64; 4];
        let mut carry = false;
        for (slot, (&a, &b)) in r.iter_mut().zip(self.0.iter().zip(&other.0)) {
            let (x, c1) = a.overflowing_add(b);
            let (y, c2) = x.overflowing_add(u64::from(carry));
            *slot = y;
            carry = c1 || c2;
        }
        Self(r)
    }
    fn wmul(self, other: Self) -> Self {
        // Schoolbook, the limbs past the fourth dropped (wrapping); zero limbs skipped.
        let mut r = [0u64; 4];
        for i in 0..4 {
            let a = self.0[i];
            if a == 0 {
                continue;
            }
            let mut carry = 0u128;
            for j in 0..4 - i {
                let v = u128::from(a) * u128::from(other.0[j]) + u128::from(r[i + j]) + carry;
                r[i + j] = v as u64;
                carry = v >> 64;
            }
        }
        Self(r)
    }
}

/// What the walk returns: weights in `u128` when the denominator `den^n` fits it, else
/// big integers.
pub(crate) enum Kept {
    Small(Dense<u128>),
    Big(Dense<BigUint>),
}

/// Pools whose walk would take more multiply-adds than this go the general way (the sums of
/// a wide die make the state table large).
const MAX_WORK: u128 = 1 << 24;

/// The sum of the `k` highest (`highest`) or lowest of `n` dice with the weights `die`, in
/// machine integers; `None` when the pool does not fit them (or is too wide for the table),
/// and the caller takes the general path. `1 ≤ k ≤ n`.
pub(crate) fn keep_sum(die: &Dense<u128>, n: u32, k: u32, highest: bool) -> Option<Kept> {
    debug_assert!(1 <= k && k <= n);
    // Every weight summing to at most the denominator is what makes wrapping exact.
    let total = die.w.iter().try_fold(0u128, |acc, &x| acc.checked_add(x))?;
    if total > die.den || total == 0 {
        return None;
    }
    let live = die.w.iter().filter(|&&x| x != 0).count() as u128;
    // The table of sums spans the live faces only.
    let first = die.w.iter().position(|&x| x != 0)?;
    let last = die.w.iter().rposition(|&x| x != 0)?;
    let span = (last - first) as u128;
    let sums = span.checked_mul(u128::from(k))? + 1;
    let work = live
        .checked_mul(u128::from(k))?
        .checked_mul(sums)?
        .checked_mul(u128::from(n) + 1)?;
    if work > MAX_WORK {
        return None;
    }
    let low = die.min + first as i64;
    let min = low.checked_mul(i64::from(k))?;
    let faces = &die.w[first..=last];
    let sums = sums as usize;
    let small = |w: Vec<u128>, den: u128| Kept::Small(Dense { min, w, den }.trimmed());
    match die.den.checked_add(1)?.checked_pow(n) {
        Some(bound) if bound <= u128::from(u64::MAX) => {
            let w = walk::<u64>(faces, n, k, highest, sums);
            Some(small(
                w.iter().map(|&x| u128::from(x)).collect(),
                die.den.pow(n),
            ))
        }
        Some(_) => {
            let w = walk::<u128>(faces, n, k, highest, sums);
            Some(small(w, die.den.pow(n)))
        }
        None => {
            // Past u128: four limbs while (den + 1)^n fits 256 bits.
            let den = BigUint::from(die.den).pow(n);
            if (BigUint::from(die.den) + 1u32).pow(n).bits() > 256 {
                return None;
            }
            let w = walk::<Wide>(faces, n, k, highest, sums);
            let mut digits = Vec::new();
            let w = w
                .into_iter()
                .map(|x| big_from_limbs(&x.0, &mut digits))
                .collect();
            Some(Kept::Big(Dense { min, w, den }.trimmed()))
        }
    }
}

/// The walk itself over the faces `w` (offsets `0..w.len()` from the lowest live face):
/// returns the weight of each kept sum of offsets, `0..sums`.
fn walk<L: Lane>(w: &[u128], n: u32, k: u32, highest: bool, sums: usize) -> Vec<L> {
    let stride = n as usize + 1;
    let need = stride * stride + k as usize * sums + sums + 2 * stride + k as usize;
    // Small tables live on the stack: no allocation, and memory the process has touched.
    if need <= STACK_LANES {
        let mut scratch = [L::default(); STACK_LANES];
        walk_in(&mut scratch[..need], w, n, k, highest, sums)
    } else {
        walk_in(&mut vec![L::default(); need], w, n, k, highest, sums)
    }
}

/// Table entries kept on the stack (1 KiB of `u64`).
const STACK_LANES: usize = 128;

fn walk_in<L: Lane>(
    scratch: &mut [L],
    w: &[u128],
    n: u32,
    k: u32,
    highest: bool,
    sums: usize,
) -> Vec<L> {
    let n = n as usize;
    let k = k as usize;
    let one = L::from_u128(1);
    let stride = n + 1;
    // One table for everything: binomials C(a, b) (row a at a·stride), the states
    // (row u: dice that took a face seen so far, u < k; column: the sum of their offsets),
    // the kept sums, the powers of the face's weight and of the weight after it, and
    // settle[u] = Σ over c ≥ k − u of C(n−u, c) · x^c · R^(n−u−c).
    let (binom, rest_of) = scratch.split_at_mut(stride * stride);
    let (state, rest_of) = rest_of.split_at_mut(k * sums);
    let (out, rest_of) = rest_of.split_at_mut(sums);
    let (xp, rest_of) = rest_of.split_at_mut(stride);
    let (rp, settle) = rest_of.split_at_mut(stride);
    for a in 0..=n {
        binom[a * stride] = one;
        for b in 1..=a {
            binom[a * stride + b] =
                binom[(a - 1) * stride + b - 1].wadd(binom[(a - 1) * stride + b]);
        }
    }
    state[0] = one;
    xp[0] = one;
    rp[0] = one;
    let mut rest: u128 = w.iter().sum();
    // The extreme offsets seen so far: row u's sums lie between u times them.
    let (mut lo_face, mut hi_face) = (usize::MAX, 0usize);
    for i in 0..w.len() {
        let face = if highest { w.len() - 1 - i } else { i };
        let x = w[face];
        rest -= x;
        if x == 0 {
            continue;
        }
        lo_face = lo_face.min(face);
        hi_face = hi_face.max(face);
        let (xl, rl) = (L::from_u128(x), L::from_u128(rest));
        for c in 1..=n {
            xp[c] = xp[c - 1].wmul(xl);
            rp[c] = rp[c - 1].wmul(rl);
        }
        for (u, slot) in settle.iter_mut().enumerate() {
            let left = n - u;
            let row = &binom[left * stride..][..=left];
            *slot = (k - u..=left).fold(L::default(), |acc, c| {
                acc.wadd(row[c].wmul(xp[c]).wmul(rp[left - c]))
            });
        }
        // Settle first (from the states before this face), then move the states on in
        // place, the fuller rows first so that each reads rows not yet moved.
        for (u, &f) in settle.iter().enumerate() {
            let (from, to) = (u * lo_face, (u * hi_face).min(sums - 1));
            let shift = (k - u) * face;
            let src = &state[u * sums..][from..=to];
            let dst = &mut out[from + shift..=to + shift];
            for (d, &v) in dst.iter_mut().zip(src) {
                *d = d.wadd(v.wmul(f));
            }
        }
        if i + 1 == w.len() {
            // The last face (always live: `w` is trimmed) settles every state: nothing moves on.
            break;
        }
        for to_row in (1..k).rev() {
            let (lower, upper) = state.split_at_mut(to_row * sums);
            let target = &mut upper[..sums];
            for u in 0..to_row {
                let c = to_row - u;
                let (from, to) = (u * lo_face, (u * hi_face).min(sums - 1));
                let m = binom[(n - u) * stride + c].wmul(xp[c]);
                let shift = c * face;
                let src = &lower[u * sums..][from..=to];
                let dst = &mut target[from + shift..=to + shift];
                for (d, &v) in dst.iter_mut().zip(src) {
                    *d = d.wadd(v.wmul(m));
                }
            }
        }
    }
    out.to_vec()
}

#[cfg(test)]
mod tests {
    use crate::{DiceError, Distribution, Pool, Prob, Weights, enumerate};

    /// The general evaluation over multisets (or merged states), which knows nothing of
    /// this walk: the reference for pools too large to enumerate.
    fn general(die: &Weights, n: u32, k: u32, highest: bool) -> Weights {
        Pool::new(die.clone(), n).keep_by_multisets(k, highest)
    }

    /// Keep highest and lowest `k` of `n` through the pool (the walk where it applies)
    /// against the general evaluation.
    fn walk_matches_general(die: &Weights, n: u32, k: u32) {
        for highest in [true, false] {
            let pool = Pool::new(die.clone(), n);
            let fast = if highest {
                pool.keep_highest(k)
            } else {
                pool.keep_lowest(k)
            };
            assert_eq!(
                fast,
                general(die, n, k, highest),
                "{die:?} {n} {k} {highest}"
            );
        }
    }

    /// Every ordered roll of `n` dice of `sides` faces, sorted, the `k` best summed.
    fn enumerated(sides: u32, n: u32, k: u32, highest: bool) -> Distribution {
        let e = enumerate(n as usize, |d| -> Result<i64, DiceError> {
            let mut f = d.roll_many(n as usize, sides)?;
            if highest {
                f.sort_unstable_by(|a, b| b.cmp(a));
            } else {
                f.sort_unstable();
            }
            Ok(f.iter().take(k as usize).map(|&x| i64::from(x)).sum())
        })
        .unwrap();
        Distribution::from_pairs(e.outcomes, e.truncated)
    }

    /// Small pools, every keep and drop (dropping `j` is keeping `n − j` of the other end),
    /// against enumeration of every ordered roll.
    #[test]
    fn every_keep_and_drop_matches_enumeration() {
        for (sides, max_n) in [(2u32, 8u32), (3, 6), (4, 5), (6, 4), (8, 3), (20, 2)] {
            for n in 1..=max_n {
                for k in 0..=n + 1 {
                    let pool = Pool::new(Weights::die(sides), n);
                    for highest in [true, false] {
                        let got = if highest {
                            pool.keep_highest(k)
                        } else {
                            pool.keep_lowest(k)
                        };
                        assert_eq!(
                            got.to_distribution(),
                            enumerated(sides, n, k, highest),
                            "{n}d{sides} keep {k} highest {highest}"
                        );
                    }
                }
            }
        }
    }

    /// 4d6 keep highest 3, worked by hand: 18 needs three sixes (21 of 1296: four sixes,
    /// or three and one of five other faces in four places); 3 needs four ones (1).
    #[test]
    fn four_d6_keep_three_by_hand() {
        let w = Pool::new(Weights::die(6), 4).keep_highest(3);
        assert_eq!(w.p_eq(18), crate::prob(21, 1296));
        assert_eq!(w.p_eq(3), crate::prob(1, 1296));
        assert_eq!(w.denominator_big(), 1296u32.into());
    }

    /// Larger pools (past enumeration), uneven and truncated dice, both integer widths of
    /// the walk (`(den + 1)^n` past `u64` for 15d20), against the general evaluation: the
    /// same weights over the same denominator.
    #[test]
    fn larger_and_uneven_pools_match_the_general_evaluation() {
        let uneven = Weights::from_pairs([(-2, 3), (0, 1), (1, 2), (5, 4), (6, 1)]);
        // A truncated die: weights sum to 9 of 12 (a quarter neglected).
        let truncated = Weights::from_dense(2, vec![2, 0, 3, 4], 12);
        let cases = [
            (Weights::die(6), 9u32),
            (Weights::die(10), 7),
            (Weights::die(20), 15),
            (uneven, 8),
            (truncated, 6),
        ];
        for (die, n) in cases {
            for k in 1..=n {
                walk_matches_general(&die, n, k);
            }
            // The neglected mass of a truncated die carries through.
            let all = Pool::new(die.clone(), n).keep_highest(n);
            assert_eq!(all.to_distribution(), die.sum_of(n).to_distribution());
        }
        // 15d20 takes the u128 width, 4d6 the u64 width: both are exercised above.
        assert!(21u128.pow(15) > u128::from(u64::MAX));
    }

    /// The three highest of `n` d6 by hand: all ones is 1 in 6^n; 18 needs three sixes, so it
    /// is all the mass but the rolls with at most two sixes.
    fn three_highest_by_hand(n: u32) {
        let w = Pool::new(Weights::die(6), n).keep_highest(3);
        let big = |b: u32, e: u32| num_bigint::BigInt::from(b).pow(e);
        let all = big(6, n);
        assert_eq!(w.p_eq(3), Prob::new(1.into(), all.clone()));
        let at_most_two_sixes = big(5, n) + n * big(5, n - 1) + n * (n - 1) / 2 * big(5, n - 2);
        assert_eq!(w.p_eq(18), Prob::new(&all - at_most_two_sixes, all));
    }

    /// Where the walk's bound `(den + 1)^n` passes `u128` (46 d6: 7^46) the walk runs in
    /// four limbs.
    #[test]
    fn past_u128_the_walk_takes_four_limbs() {
        assert!(7u128.checked_pow(46).is_none());
        three_highest_by_hand(46);
    }

    /// Past 256 bits (100 d6: 7^100 is about 2^281) the general path answers.
    #[test]
    fn past_four_limbs_takes_the_general_path() {
        assert!(num_bigint::BigUint::from(7u32).pow(100).bits() > 256);
        three_highest_by_hand(100);
    }

    /// Counting matches in closed form (binomial) against the general evaluation, on a
    /// truncated uneven die, in `u128` and past it (big integers from either side).
    #[test]
    fn counts_match_the_general_evaluation() {
        let die = Weights::from_dense(-1, vec![2, 0, 3, 4, 1], 12);
        for n in [0u32, 1, 5, 13, 40] {
            for die in [die.clone(), die.clone().into_big()] {
                let pool = Pool::new(die.clone(), n);
                let matches = |f: i64| f == 1 || f == 3;
                let general = pool.evaluate(
                    false,
                    0u32,
                    |&m, face, c| if matches(face) { m + c } else { m },
                    |&m| i64::from(m),
                );
                assert_eq!(pool.count(matches), general, "{n} dice");
            }
        }
        assert!(!Pool::new(die, 40).count(|f| f > 0).is_small());
    }

    /// The four-limb walk against the general evaluation, past `u128` and short of 256
    /// bits: fair, uneven and truncated dice, keep highest and lowest, every `k` of a few.
    #[test]
    fn four_limb_walk_matches_the_general_evaluation() {
        let uneven = Weights::from_pairs([(-2, 3), (0, 1), (1, 2), (5, 4), (6, 1)]);
        let truncated = Weights::from_dense(2, vec![2, 0, 3, 4], 12);
        for (die, n, ks) in [
            (Weights::die(20), 30u32, vec![1u32, 10, 29, 30]),
            (Weights::die(6), 60, vec![1, 3, 30]),
            (uneven, 40, vec![1, 7, 39]),
            (truncated, 36, vec![2, 18]),
        ] {
            let den = die.denominator_big();
            assert!((den + 1u32).pow(n).bits() > 128, "{n}");
            let dense = die.small_dense().expect("u128 weights");
            for k in ks {
                // The walk itself answers (in four limbs), not the general path.
                assert!(matches!(
                    super::keep_sum(dense, n, k, true),
                    Some(super::Kept::Big(_))
                ));
                walk_matches_general(&die, n, k);
            }
        }
    }

    /// The 256-bit lane's wrapping sum and product against big integers modulo 2^256.
    #[test]
    fn wide_lane_wraps_like_big_integers() {
        use super::Wide;
        use crate::lane::Lane;
        let m = num_bigint::BigUint::from(1u32) << 256;
        let big = |x: Wide| crate::weights::big_from_limbs(&x.0, &mut Vec::new());
        let vals = [
            Wide([0, 0, 0, 0]),
            Wide([1, 0, 0, 0]),
            Wide([u64::MAX, u64::MAX, 0, 0]),
            Wide([u64::MAX; 4]),
            Wide([0x0123_4567_89ab_cdef, 42, 0, 1 << 63]),
            Wide([7, 0, u64::MAX, 3]),
        ];
        for &a in &vals {
            for &b in &vals {
                let (ba, bb) = (big(a), big(b));
                assert_eq!(big(a.wadd(b)), (&ba + &bb) % &m);
                assert_eq!(big(a.wmul(b)), (&ba * &bb) % &m);
            }
        }
        assert_eq!(big(Wide::from_u128(u128::MAX)), u128::MAX.into());
    }
}
