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
            // Every weight the walk meets is at most `bound`: a lane of this many bits holds it.
            let lane = 128 - bound.leading_zeros() as usize;
            if sums * lane <= PACKED_BITS && k as usize <= PACKED_ROWS && n as usize <= PACKED_DICE
            {
                let w = packed_walk(faces, n, k, highest, sums, lane);
                return Some(small(w, die.den.pow(n)));
            }
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

/// Bits of a packed row ([`Packed`]).
const PACKED_BITS: usize = 256;

/// Rows of states a packed walk keeps on the stack (pools keeping at most this many dice).
const PACKED_ROWS: usize = 8;

/// Dice in a pool the packed walk takes (its tables of powers and binomials are this long).
const PACKED_DICE: usize = 16;

/// A row of the walk in one 256-bit integer (four 64-bit limbs, least significant first):
/// the weight of sum `i` in bits `i·lane..(i+1)·lane`. Moving a row by `c` sums is a
/// shift, scaling it one multiplication per limb, so a small pool's walk (4d6 keep 3: rows
/// of 16 sums, 12-bit lanes) has no loop over the sums at all. Exact because no lane ever
/// exceeds the walk's bound, which its width holds: nothing carries into the next lane.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Packed([u64; 4]);

impl Packed {
    /// `self · 2^bits`, the bits past 256 dropped (they are zero lanes).
    fn shl(self, bits: usize) -> Self {
        debug_assert!(bits < 256, "a shift past every lane");
        let (q, r) = ((bits / 64) & 3, (bits % 64) as u32);
        // Four zero limbs below the number: limb i of the result reads limbs i − q and
        // i − q − 1, which are always in this array (no branch on q).
        let mut padded = [0u64; 8];
        padded[4..].copy_from_slice(&self.0);
        Self(std::array::from_fn(|i| {
            let pair = u128::from(padded[4 + i - q]) << 64 | u128::from(padded[3 + i - q]);
            ((pair << r) >> 64) as u64
        }))
    }

    /// `acc + self · m`, modulo 2^256.
    fn mul_add(self, m: u64, acc: Self) -> Self {
        let mut carry = 0u128;
        Self(std::array::from_fn(|i| {
            // At most (2^64 − 1)^2 + 2 (2^64 − 1) = 2^128 − 1: no wrap.
            let v = (u128::from(self.0[i]) * u128::from(m))
                .wrapping_add(u128::from(acc.0[i]))
                .wrapping_add(carry);
            carry = v >> 64;
            v as u64
        }))
    }

    /// The weight in lane `i` of `lane` bits.
    fn lane(self, i: usize, lane: usize) -> u128 {
        let (bit, mask) = (i * lane, (1u128 << lane) - 1);
        let (q, r) = (bit / 64, bit % 64);
        let lo = u128::from(self.0[q]);
        let hi = self.0.get(q + 1).map_or(0, |&x| u128::from(x));
        ((hi << 64 | lo) >> r) & mask
    }
}

/// The walk of [`walk_in`] with each row packed into one [`Packed`] integer, for pools
/// whose `sums` lanes of `lane` bits fit 256 bits and that keep at most [`PACKED_ROWS`]
/// dice. Its scalars are the same as the walk's, in `u64` (the bound fits).
fn packed_walk(w: &[u128], n: u32, k: u32, highest: bool, sums: usize, lane: usize) -> Vec<u128> {
    let (n, k) = (n as usize, k as usize);
    // binom[u][c] = C(n − u, c), x^c and R^c: the bound (at most u64::MAX) holds every one
    // of them and every product formed of them below.
    let mut binom = [[0u64; PACKED_DICE + 1]; PACKED_ROWS];
    // Pascal's triangle row by row in place (no division), keeping rows n − k + 1..=n.
    let mut pascal = [0u64; PACKED_DICE + 1];
    pascal[0] = 1;
    for m in 0..=n {
        if m > 0 {
            for c in (1..=m).rev() {
                pascal[c] = pascal[c].wrapping_add(pascal[c - 1]);
            }
        }
        if n - m < k {
            binom[n - m] = pascal;
        }
    }
    let mut state = [Packed::default(); PACKED_ROWS];
    let mut out = Packed::default();
    state[0].0[0] = 1;
    let (mut xp, mut rp) = ([1u64; PACKED_DICE + 1], [1u64; PACKED_DICE + 1]);
    // The faces best first, as in `walk_in` (the loop is written out in both: an iterator
    // shared by the two made this walk a fifth slower).
    let mut rest: u128 = w.iter().sum();
    for i in 0..w.len() {
        let face = if highest { w.len() - 1 - i } else { i };
        let x = w[face];
        rest -= x;
        if x == 0 {
            continue;
        }
        let (x, r) = (x as u64, rest as u64);
        for c in 1..=n {
            xp[c] = xp[c - 1].wrapping_mul(x);
            rp[c] = rp[c - 1].wrapping_mul(r);
        }
        // Settle: the states whose u dice took better faces, with ≥ k − u more dice on this
        // face (the rest on worse ones), are decided: k − u of those dice are kept.
        for u in 0..k {
            let left = n - u;
            let settle = (k - u..=left).fold(0u64, |acc, c| {
                acc.wrapping_add(binom[u][c].wrapping_mul(xp[c]).wrapping_mul(rp[left - c]))
            });
            out = state[u].shl((k - u) * face * lane).mul_add(settle, out);
        }
        if i + 1 == w.len() {
            break;
        }
        // Move the states on, the fuller rows first so each reads rows not yet moved.
        for to_row in (1..k).rev() {
            for u in 0..to_row {
                let c = to_row - u;
                let m = binom[u][c].wrapping_mul(xp[c]);
                state[to_row] = state[u].shl(c * face * lane).mul_add(m, state[to_row]);
            }
        }
    }
    (0..sums).map(|i| out.lane(i, lane)).collect()
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
    use crate::dist::Rational;
    use crate::{DiceError, Distribution, Pool, Prob, enumerate};

    /// The general evaluation over multisets (or merged states), which knows nothing of
    /// this walk: the reference for pools too large to enumerate.
    fn general(die: &Distribution, n: u32, k: u32, highest: bool) -> Distribution {
        Pool::new(die.clone(), n).keep_by_multisets(k, highest)
    }

    /// Keep highest and lowest `k` of `n` through the pool (the walk where it applies)
    /// against the general evaluation.
    fn walk_matches_general(die: &Distribution, n: u32, k: u32) {
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
    fn enumerated(sides: u32, n: u32, k: u32, highest: bool) -> Rational {
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
        Rational::from_pairs(e.outcomes, e.truncated)
    }

    /// Small pools, every keep and drop (dropping `j` is keeping `n − j` of the other end),
    /// against enumeration of every ordered roll.
    #[test]
    fn every_keep_and_drop_matches_enumeration() {
        for (sides, max_n) in [(2u32, 8u32), (3, 6), (4, 5), (6, 4), (8, 3), (20, 2)] {
            for n in 1..=max_n {
                for k in 0..=n + 1 {
                    let pool = Pool::new(Distribution::die(sides), n);
                    for highest in [true, false] {
                        let got = if highest {
                            pool.keep_highest(k)
                        } else {
                            pool.keep_lowest(k)
                        };
                        assert_eq!(
                            got.to_rational(),
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
        let w = Pool::new(Distribution::die(6), 4).keep_highest(3);
        assert_eq!(w.p_eq(18), crate::prob(21, 1296));
        assert_eq!(w.p_eq(3), crate::prob(1, 1296));
        assert_eq!(w.denominator_big(), 1296u32.into());
    }

    /// Larger pools (past enumeration), uneven and truncated dice, both integer widths of
    /// the walk (`(den + 1)^n` past `u64` for 15d20), against the general evaluation: the
    /// same weights over the same denominator.
    #[test]
    fn larger_and_uneven_pools_match_the_general_evaluation() {
        let uneven = Distribution::from_pairs([(-2, 3), (0, 1), (1, 2), (5, 4), (6, 1)]);
        // A truncated die: weights sum to 9 of 12 (a quarter neglected).
        let truncated = Distribution::from_dense(2, vec![2, 0, 3, 4], 12);
        let cases = [
            (Distribution::die(6), 9u32),
            (Distribution::die(10), 7),
            (Distribution::die(20), 15),
            (uneven, 8),
            (truncated, 6),
        ];
        for (die, n) in cases {
            for k in 1..=n {
                walk_matches_general(&die, n, k);
            }
            // The neglected mass of a truncated die carries through.
            let all = Pool::new(die.clone(), n).keep_highest(n);
            assert_eq!(all.to_rational(), die.sum_of(n).to_rational());
        }
        // 15d20 takes the u128 width, 4d6 the u64 width: both are exercised above.
        assert!(21u128.pow(15) > u128::from(u64::MAX));
    }

    /// The three highest of `n` d6 by hand: all ones is 1 in 6^n; 18 needs three sixes, so it
    /// is all the mass but the rolls with at most two sixes.
    fn three_highest_by_hand(n: u32) {
        let w = Pool::new(Distribution::die(6), n).keep_highest(3);
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
        let die = Distribution::from_dense(-1, vec![2, 0, 3, 4, 1], 12);
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
        let uneven = Distribution::from_pairs([(-2, 3), (0, 1), (1, 2), (5, 4), (6, 1)]);
        let truncated = Distribution::from_dense(2, vec![2, 0, 3, 4], 12);
        for (die, n, ks) in [
            (Distribution::die(20), 30u32, vec![1u32, 10, 29, 30]),
            (Distribution::die(6), 60, vec![1, 3, 30]),
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

    /// 256-bit numbers in limbs for the wide and packed tests: zero, one, carries, all
    /// ones, mixed.
    const LIMBS: [[u64; 4]; 6] = [
        [0, 0, 0, 0],
        [1, 0, 0, 0],
        [u64::MAX, u64::MAX, 0, 0],
        [u64::MAX; 4],
        [0x0123_4567_89ab_cdef, 42, 0, 1 << 63],
        [7, 0, u64::MAX, 3],
    ];

    fn big256(limbs: &[u64; 4]) -> num_bigint::BigUint {
        crate::weights::big_from_limbs(limbs, &mut Vec::new())
    }

    /// The 256-bit lane's wrapping sum and product against big integers modulo 2^256.
    #[test]
    fn wide_lane_wraps_like_big_integers() {
        use super::Wide;
        use crate::lane::Lane;
        let m = num_bigint::BigUint::from(1u32) << 256;
        let big = |x: Wide| big256(&x.0);
        for a in LIMBS.map(Wide) {
            for b in LIMBS.map(Wide) {
                let (ba, bb) = (big(a), big(b));
                assert_eq!(big(a.wadd(b)), (&ba + &bb) % &m);
                assert_eq!(big(a.wmul(b)), (&ba * &bb) % &m);
            }
        }
        assert_eq!(big(Wide::from_u128(u128::MAX)), u128::MAX.into());
    }

    /// The packed row's shift, scaled sum and lanes are those of the same 256-bit number as
    /// a big integer.
    #[test]
    fn packed_rows_are_big_integers() {
        use super::Packed;
        let m = num_bigint::BigUint::from(1u32) << 256;
        let big = |x: Packed| big256(&x.0);
        let vals = LIMBS.map(Packed);
        for &a in &vals {
            for bits in [0, 1, 12, 63, 64, 65, 100, 128, 191, 192, 200, 255] {
                assert_eq!(big(a.shl(bits)), (big(a) << bits) % &m, "{a:?} << {bits}");
            }
            for &acc in &vals {
                for factor in [0u64, 1, 2401, u64::MAX] {
                    assert_eq!(
                        big(a.mul_add(factor, acc)),
                        (big(a) * factor + big(acc)) % &m
                    );
                }
            }
            for lane in [9usize, 12, 16, 32, 64] {
                for i in 0..256 / lane {
                    let mask = (num_bigint::BigUint::from(1u32) << lane) - 1u32;
                    let want = (big(a) >> (i * lane)) & mask;
                    assert_eq!(num_bigint::BigUint::from(a.lane(i, lane)), want);
                }
            }
        }
    }

    /// Every pool the packed walk takes gives the walk's weights, both ends, fair and
    /// uneven dice: 4d6 keep 3 among them.
    #[test]
    fn packed_walk_equals_the_walk() {
        let dice = [
            vec![1u128; 6],
            vec![1; 2],
            vec![1; 20],
            vec![3, 0, 1, 2],
            vec![1, 1, 1, 0, 5],
        ];
        let mut packed = 0;
        for w in &dice {
            let den: u128 = w.iter().sum();
            let span = w.len() - 1;
            for n in 1..=super::PACKED_DICE as u32 {
                let Some(bound) = (den + 1).checked_pow(n).filter(|&b| b <= u64::MAX.into()) else {
                    continue;
                };
                let lane = 128 - bound.leading_zeros() as usize;
                for k in 1..=n.min(super::PACKED_ROWS as u32) {
                    let sums = span * k as usize + 1;
                    if sums * lane > super::PACKED_BITS {
                        continue;
                    }
                    for highest in [true, false] {
                        let fast = super::packed_walk(w, n, k, highest, sums, lane);
                        let walk: Vec<u128> = super::walk::<u64>(w, n, k, highest, sums)
                            .into_iter()
                            .map(u128::from)
                            .collect();
                        assert_eq!(fast, walk, "{w:?} {n} {k} {highest}");
                        packed += 1;
                    }
                }
            }
        }
        assert!(packed > 100, "{packed}");
        // 4d6 keep 3 takes it: 7^4 = 2401 needs 12-bit lanes, 16 sums of them fit. By hand:
        // 18 in 21 ways of 1296 (four sixes, or three and one of five other faces in four
        // places), 3 in one.
        assert_eq!(128 - 2401u128.leading_zeros(), 12);
        const { assert!(16 * 12 <= super::PACKED_BITS) };
        let w = super::packed_walk(&[1; 6], 4, 3, true, 16, 12);
        assert_eq!((w[15], w[0], w.iter().sum::<u128>()), (21, 1, 1296));
    }
}
